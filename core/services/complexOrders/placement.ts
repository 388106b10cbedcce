import type { Db } from '../../db/prismaClient';
import { Prisma, type ComplexOrder } from '../../generated/prisma/client';
import { DomainError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { PlanAlternative } from '../../domain/planning';
import { venueColumn } from '../../venues/venueModules';
import type { VenueRegistry } from '../../venues/venue';
import { previewComplexOrder, type PreviewInput } from './preview';
import { refuseWhileLapsed, refuseWhileLapsedLocked } from '../risk/deadMansSwitch';
import { requireCredentials } from '../orders/orders';
import type { IdempotencyPort } from '../idempotency/requestClaim';
import type { Scope } from '../scope';
import { sendDueChildren } from './claims';
import { noExecutablePlan } from './noExecutablePlan';
import type { StoredPrediction } from './prediction';
import { sendInOrder } from './sending';
import { settleComplexOrder } from './settlement';

/**
 * Places a complex order: plans it on the current books (exactly as a preview would), records the
 * parent with its prediction and every child with its slice time in one transaction, then sends
 * the children that are due now. Later TWAP slices are sent by the scheduler (see
 * complexOrders/scheduler.ts), which also finishes whatever a crash interrupted: the database, not
 * the process, holds the schedule. Each child is an ordinary order placed through the same path as
 * order placement, so every child passes the pre-trade risk checks when it is sent; a child the
 * checks refuse is recorded as rejected with the reason and the others go on.
 *
 * With an Idempotency-Key, a retry (even after a crash) finds the order it placed instead of
 * placing another.
 */
export async function placeComplexOrder(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  input: PreviewInput,
  origin: { idempotency?: IdempotencyPort } = {},
): Promise<ComplexOrder> {
  const idempotencyRef = origin.idempotency?.reference ?? null;
  if (idempotencyRef) {
    const existing = await db.complexOrder.findUnique({ where: { workspaceId_idempotencyRef: { workspaceId: scope.workspaceId, idempotencyRef } } });
    if (existing) return resume(db, venues, existing.id);
  }
  await refuseWhileLapsed(db, scope, input.subaccountId); // early: spares the preview
  const preview = await previewComplexOrder(db, venues, scope, input);
  const chosen = preview.plan.recommended;
  if (!chosen) throw noExecutablePlan(preview.plan);
  if (scope.environment === 'live') {
    for (const venue of new Set(chosen.children.map((child) => child.venue))) {
      await requireCredentials(db, scope, input.subaccountId, venueColumn(venue));
      // A venue the plan reads books from but whose account cannot open (a credential the adapter
      // cannot use) would leave the parent half-executed: refuse the whole order before any child goes out.
      if (!(await venues.forSubaccount(venueColumn(venue), input.subaccountId))) {
        throw new DomainError('venue_unavailable', `The plan needs ${venue}, which cannot take orders now; nothing was sent. Preview with "venues" to leave it out.`);
      }
    }
  }

  const id = newId('complexOrder');
  const now = new Date();
  const children = childRows(id, chosen, preview.marketIdsByVenue, now);
  const prediction: StoredPrediction = { marketIdsByVenue: preview.marketIdsByVenue, plan: preview.plan };
  try {
    await db.$transaction(async (tx) => {
      // Checked again under the subaccount's lock: the switch may have lapsed during the preview.
      await refuseWhileLapsedLocked(tx, scope, input.subaccountId);
      await tx.complexOrder.create({
        data: {
          id,
          workspaceId: scope.workspaceId,
          environment: scope.environment,
          subaccountId: input.subaccountId,
          marketId: preview.marketId,
          side: input.side,
          action: input.action,
          strategy: input.strategy,
          quantity: preview.plan.quantity,
          limitPrice: preview.plan.limitPrice,
          durationSeconds: input.strategy === 'twap' ? (input.durationSeconds ?? null) : null,
          idempotencyRef,
          status: 'working',
          prediction: prediction as unknown as Prisma.InputJsonValue,
          arrivalMid: preview.plan.arrivalMid,
          predictedAveragePrice: chosen.impact.expectedAveragePrice,
          predictedFilledQuantity: chosen.impact.expectedFilledQuantity,
          predictedFees: chosen.impact.totalFees,
          createdAt: now,
          updatedAt: now,
        },
      });
      await tx.childOrder.createMany({ data: children });
    });
  } catch (error) {
    // Two requests with one Idempotency-Key raced past the lookup: the unique index let one in.
    if (idempotencyRef && error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const existing = await db.complexOrder.findUniqueOrThrow({ where: { workspaceId_idempotencyRef: { workspaceId: scope.workspaceId, idempotencyRef } } });
      return resume(db, venues, existing.id);
    }
    throw error;
  }
  // The children due now were recorded already claimed (`sending`): no scheduler can take them
  // from this request, which sends them and answers with their outcome.
  await sendInOrder(
    db,
    venues,
    children.filter((child) => child.status === 'sending').map((child) => ({ id: child.id!, complex_order_id: id, scheduled_at: now })),
  );
  return settled(db, venues, id);
}

/** The plan's children as rows: those due at once already claimed by the placing request, the rest scheduled. */
function childRows(complexOrderId: string, chosen: PlanAlternative, marketIdsByVenue: Record<string, string>, start: Date): Prisma.ChildOrderCreateManyInput[] {
  return chosen.children.map((child) => {
    const scheduledAt = new Date(start.getTime() + Math.round(Number(child.offsetSeconds) * 1000));
    const dueNow = scheduledAt.getTime() <= start.getTime();
    return {
      id: newId('childOrder'),
      complexOrderId,
      marketId: marketIdsByVenue[child.venue],
      venue: venueColumn(child.venue),
      price: child.price,
      quantity: child.quantity,
      timeInForce: child.timeInForce,
      sliceIndex: child.sliceIndex,
      status: dueNow ? 'sending' : 'scheduled',
      sentAt: dueNow ? start : null,
      expectedFilledQuantity: child.expectedFilledQuantity,
      expectedNotional: child.expectedNotional,
      expectedFees: child.expectedFees,
      scheduledAt,
      createdAt: start,
    };
  });
}

/** Sends what is due of one complex order (a retry of its placement), and answers as settled(). */
async function resume(db: Db, venues: VenueRegistry, id: string): Promise<ComplexOrder> {
  await sendDueChildren(db, venues, { complexOrderId: id });
  return settled(db, venues, id);
}

/** Settles a complex order if it is done, and returns it as it is now. */
async function settled(db: Db, venues: VenueRegistry, id: string): Promise<ComplexOrder> {
  await settleComplexOrder(db, venues, id);
  return db.complexOrder.findUniqueOrThrow({ where: { id } });
}
