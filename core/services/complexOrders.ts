import type { Db } from '../db/prismaClient';
import { Prisma, type ChildOrder, type ComplexOrder, type ComplexOrderStatus, type Market } from '../generated/prisma/client';
import { formatDecimal } from '../domain/decimals';
import { DomainError, invalidRequest, notFound } from '../domain/errors';
import { isWorking } from '../domain/orderStatus';
import { newId } from '../domain/ids';
import { createdWithin, decodeCursor, isIdCursor, parseLimit, toPage } from '../domain/pagination';
import { planExecution, requireStrategy, type ExecutionPlan, type PlanAlternative } from '../domain/planning';
import { venueColumn } from '../domain/venues';
import { consolidatedMidNow, listingsOfPlan, snapshotsOf } from './complexOrderBooks';
import { previewComplexOrder, type PreviewInput } from './complexOrderPreview';
import { idempotencyReference, placeOrder, requireCredentials, cancelOrder, type VenueRegistry } from './orders';
import { inScope, scopedRows, type Scope } from './scope';

/** A complex order of the scope; another workspace's (or environment's) is not found. */
export async function getComplexOrder(db: Db, scope: Scope, id: string, query: object = {}): Promise<ComplexOrder> {
  const order = await db.complexOrder.findUnique({ ...query, where: { id } });
  if (!order || !inScope(order, scope)) throw notFound('complex_order', id);
  return order;
}

/** What a complex order keeps of its plan: the listings it planned over and the plan itself. */
export interface StoredPrediction {
  marketIdsByVenue: Record<string, string>;
  plan: ExecutionPlan;
}

export const predictionOf = (order: ComplexOrder) => order.prediction as unknown as StoredPrediction;

/**
 * Places a complex order: plans it on the current books (exactly as a preview would), records the
 * parent with its prediction and every child with its slice time in one transaction, then sends
 * the children that are due now. Later TWAP slices are sent by the scheduler (see
 * complexOrderScheduler.ts), which also finishes whatever a crash interrupted: the database, not
 * the process, holds the schedule. Each child is an ordinary order placed through the same path as
 * POST /v1/orders, so every child passes the pre-trade risk checks when it is sent; a child the
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
  origin: { idempotency?: { apiKeyId: string; key: string } } = {},
): Promise<ComplexOrder> {
  const idempotencyRef = origin.idempotency ? idempotencyReference(origin.idempotency) : null;
  if (idempotencyRef) {
    const existing = await db.complexOrder.findUnique({ where: { workspaceId_idempotencyRef: { workspaceId: scope.workspaceId, idempotencyRef } } });
    if (existing) return resume(db, venues, existing.id);
  }
  const preview = await previewComplexOrder(db, venues, scope, input);
  const chosen = preview.plan.recommended;
  if (!chosen) throw noExecutablePlan(preview.plan);
  if (scope.environment === 'live') {
    for (const venue of new Set(chosen.children.map((child) => child.venue))) {
      await requireCredentials(db, scope, input.subaccountId, venueColumn(venue));
    }
  }

  const id = newId('complexOrder');
  const now = new Date();
  const children = childRows(id, chosen, preview.marketIdsByVenue, now);
  const prediction: StoredPrediction = { marketIdsByVenue: preview.marketIdsByVenue, plan: preview.plan };
  try {
    await db.$transaction([
      db.complexOrder.create({
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
      }),
      db.childOrder.createMany({ data: children }),
    ]);
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

function noExecutablePlan(plan: ExecutionPlan): DomainError {
  const reasons = [...new Set(plan.alternatives.map((a) => a.infeasibleReason).filter(Boolean))];
  return new DomainError(
    'no_executable_plan',
    `No ${plan.strategy} alternative can execute this order${reasons.length ? ` (${reasons.join(', ')})` : ''}; preview it to see each alternative.`,
  );
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

interface ClaimedChild {
  id: string;
  complex_order_id: string;
  scheduled_at: Date;
}

/**
 * Claims the children that are due (scheduled, their time come, their parent still working) and
 * sends them, the children of one batch concurrently. A claim is one UPDATE ... RETURNING, so two
 * cores (or the request and the scheduler) never send one child twice. Returns how many were sent.
 */
export async function sendDueChildren(db: Db, venues: VenueRegistry, where: { complexOrderId?: string } = {}, batch = 50): Promise<number> {
  const onlyParent = where.complexOrderId ? Prisma.sql`AND c.complex_order_id = ${where.complexOrderId}` : Prisma.empty;
  const claimed = await db.$queryRaw<ClaimedChild[]>`
    UPDATE child_orders SET status = 'sending', sent_at = now()
     WHERE id IN (
       SELECT c.id FROM child_orders c JOIN complex_orders p ON p.id = c.complex_order_id
        WHERE c.status = 'scheduled' AND c.scheduled_at <= now() AND p.status = 'working' ${onlyParent}
        ORDER BY c.scheduled_at, c.id LIMIT ${batch}
        FOR UPDATE OF c SKIP LOCKED)
    RETURNING id, complex_order_id, scheduled_at`;
  await sendInOrder(db, venues, claimed);
  return claimed.length;
}

/**
 * Sends claimed children: the complex orders concurrently; within one, slice after slice (a TWAP
 * that fell behind catches up in order, each slice priced on the book the previous one left), and
 * the children of one slice time (a sweep's venues) at the same time.
 */
async function sendInOrder(db: Db, venues: VenueRegistry, claimed: ClaimedChild[]): Promise<void> {
  const byParent = new Map<string, ClaimedChild[]>();
  for (const child of claimed) byParent.set(child.complex_order_id, [...(byParent.get(child.complex_order_id) ?? []), child]);
  await Promise.all(
    [...byParent.values()].map(async (children) => {
      const slices = new Map<number, ClaimedChild[]>();
      for (const child of children) {
        const at = new Date(child.scheduled_at).getTime();
        slices.set(at, [...(slices.get(at) ?? []), child]);
      }
      for (const at of [...slices.keys()].sort((a, b) => a - b)) {
        await Promise.all(slices.get(at)!.map((child) => sendChild(db, venues, child.id)));
      }
    }),
  );
}

/**
 * Children whose fate is open after a crash or a lost venue answer: claimed but never linked to an
 * order for `staleMs`, or (while their parent works) linked to an order still pending or unknown.
 * Sending them again is safe: the order's client order id is the child's id, so placement
 * reconciles instead of placing twice. Both scans stay small as history grows: the first reads the
 * `sending` children (status index), the second only the children of working parents.
 */
export async function retryStaleChildren(db: Db, venues: VenueRegistry, staleMs: number, batch = 50): Promise<number> {
  const staleBefore = Prisma.sql`now() - make_interval(secs => ${staleMs / 1000})`;
  // Two claims: PostgreSQL allows no FOR UPDATE in the branches of a UNION.
  const claimStale = (candidates: Prisma.Sql) => db.$queryRaw<ClaimedChild[]>`
    UPDATE child_orders c SET sent_at = now() WHERE c.id IN (${candidates})
    RETURNING c.id, c.complex_order_id, c.scheduled_at`;
  const interrupted = await claimStale(Prisma.sql`
    SELECT c1.id FROM child_orders c1
     WHERE c1.status = 'sending' AND c1.sent_at < ${staleBefore}
     LIMIT ${batch} FOR UPDATE OF c1 SKIP LOCKED`);
  const unanswered = await claimStale(Prisma.sql`
    SELECT c2.id FROM complex_orders p
      JOIN child_orders c2 ON c2.complex_order_id = p.id
      JOIN orders o ON o.id = c2.order_id
     WHERE p.status = 'working' AND c2.status = 'sent' AND o.status IN ('pending', 'unknown') AND o.updated_at < ${staleBefore}
     LIMIT ${batch} FOR UPDATE OF c2 SKIP LOCKED`);
  const stale = [...interrupted, ...unanswered];
  await sendInOrder(db, venues, stale);
  return stale.length;
}

/**
 * Sends one claimed child as an order. Pre-trade risk, validation and venue refusals are the
 * child's outcome (recorded, not thrown); anything else (the database unreachable) leaves the child
 * `sending`, and retryStaleChildren sends it again later.
 */
async function sendChild(db: Db, venues: VenueRegistry, childId: string): Promise<void> {
  const child = await db.childOrder.findUniqueOrThrow({ where: { id: childId }, include: { complexOrder: true } });
  const parent = child.complexOrder;
  const scope: Scope = { workspaceId: parent.workspaceId, environment: parent.environment };
  if (parent.status !== 'working' && child.orderId === null) {
    // Canceled (or finished) before this child reached the venue: it never will.
    await db.childOrder.updateMany({ where: { id: child.id, orderId: null }, data: { status: 'canceled' } });
    return;
  }
  if (child.midAtSend === null) {
    const mid = await midOfPlan(db, venues, parent).catch(() => null);
    if (mid !== null) await db.childOrder.update({ where: { id: child.id }, data: { midAtSend: mid } });
  }
  try {
    const price = child.sliceIndex !== null && child.orderId === null ? await repriceSlice(db, venues, parent, child) : child.price;
    const order = await placeOrder(
      db,
      venues,
      scope,
      {
        subaccountId: parent.subaccountId,
        marketId: child.marketId,
        side: parent.side,
        action: parent.action,
        type: 'limit',
        price: formatDecimal(price),
        quantity: formatDecimal(child.quantity),
        timeInForce: child.timeInForce,
      },
      { child: { complexOrderId: parent.id, childOrderId: child.id } },
    );
    // A child that rests is taken back if the parent was canceled while it was on its way.
    if (order.status === 'open' || order.status === 'partially_filled') {
      const current = await db.complexOrder.findUniqueOrThrow({ where: { id: parent.id }, select: { status: true } });
      if (current.status === 'canceled') await cancelOrder(db, venues, scope, order.id).catch(() => undefined);
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // A venue refusal comes after the order was created and linked: such a child stays `sent`.
    const linked = await db.childOrder.findUniqueOrThrow({ where: { id: child.id }, select: { orderId: true } });
    await db.childOrder.update({
      where: { id: child.id },
      data: { ...(linked.orderId === null ? { status: 'rejected' as const } : {}), rejectCode: error.code, rejectReason: error.message },
    });
  }
}

/**
 * A TWAP slice is priced when it is sent, not when the order was placed: its quantity is swept over
 * its venue's book as it is then, no further than the parent's limit price. (The placement's plan
 * only predicted that price; the difference is what execution analytics measure.) The price is
 * recorded on the child before the order is placed. No liquidity within the limit refuses the slice.
 */
async function repriceSlice(db: Db, venues: VenueRegistry, parent: ComplexOrder, child: ChildOrder): Promise<string> {
  const market = await db.market.findUniqueOrThrow({ where: { id: child.marketId } });
  const snapshots = await snapshotsOf(venues, [market], SLICE_BOOK_DEPTH);
  const plan = planExecution(
    {
      side: parent.side,
      action: parent.action,
      quantity: formatDecimal(child.quantity),
      limitPrice: formatDecimal(parent.limitPrice),
      strategy: 'sweep',
      venues: snapshots.map((snapshot) => snapshot.venue),
    },
    snapshots,
  );
  const price = plan.recommended?.children[0]?.price;
  if (!price) throw noExecutablePlan(plan);
  await db.childOrder.update({ where: { id: child.id }, data: { price } });
  return price;
}

const SLICE_BOOK_DEPTH = 100;

/**
 * The consolidated mid now, in the parent's own terms, of the listings its plan used (the parent's
 * own market when the stored prediction names none, as in rows written by hand).
 */
export async function midOfPlan(db: Db, venues: VenueRegistry, parent: ComplexOrder): Promise<string | null> {
  const planned = Object.values(predictionOf(parent).marketIdsByVenue ?? {});
  const listings: Market[] = await listingsOfPlan(db, planned.length > 0 ? planned : [parent.marketId]);
  return consolidatedMidNow(venues, listings, parent.side);
}

/**
 * Closes a working complex order once every child is final (rejected, canceled, or its order
 * filled, canceled, rejected or expired): `completed`, or `failed` when every child was refused and
 * nothing traded. Records the end mid, which values the unfilled rest in the execution report.
 */
export async function settleComplexOrder(db: Db, venues: VenueRegistry, id: string): Promise<void> {
  const children = await db.childOrder.findMany({ where: { complexOrderId: id }, include: { order: { select: { status: true, filledQuantity: true } } } });
  const final = (child: (typeof children)[number]) =>
    child.status === 'rejected' || child.status === 'canceled' || (child.status === 'sent' && child.order !== null && !isWorking(child.order.status));
  if (!children.every(final)) return;
  const traded = children.some((child) => child.order !== null && child.order.filledQuantity.gt(0));
  const refused = children.every((child) => child.status === 'rejected' || child.order?.status === 'rejected');
  const status: ComplexOrderStatus = !traded && refused ? 'failed' : 'completed';
  await finish(db, venues, id, ['working'], status);
}

/**
 * Settles the working complex orders whose children are all final, as settleComplexOrder decides;
 * the query only skips, cheaply, the parents that visibly still have work (a child not yet sent, or
 * an order still working).
 */
export async function settleFinishedComplexOrders(db: Db, venues: VenueRegistry, batch = 100): Promise<void> {
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM complex_orders p
     WHERE p.status = 'working'
       AND NOT EXISTS (
         SELECT 1 FROM child_orders c LEFT JOIN orders o ON o.id = c.order_id
          WHERE c.complex_order_id = p.id
            AND (c.status IN ('scheduled', 'sending') OR (c.status = 'sent' AND (o.id IS NULL OR o.status IN ('pending', 'open', 'partially_filled', 'unknown')))))
     LIMIT ${batch}`;
  for (const { id } of candidates) await settleComplexOrder(db, venues, id);
}

/** Moves a complex order from one of `from` to a final status with its end mid; false if it was not in `from`. */
async function finish(db: Db, venues: VenueRegistry, id: string, from: ComplexOrderStatus[], status: ComplexOrderStatus): Promise<boolean> {
  const parent = await db.complexOrder.findUniqueOrThrow({ where: { id } });
  const endMid = await midOfPlan(db, venues, parent).catch(() => null);
  const now = new Date();
  const { count } = await db.complexOrder.updateMany({
    where: { id, status: { in: from } },
    data: { status, endMid, completedAt: now, updatedAt: now },
  });
  return count === 1;
}

/**
 * Cancels a working complex order: its unsent children are canceled, its resting children are
 * canceled at their venues, and the order is final (`canceled`). What already filled stays filled.
 */
export async function cancelComplexOrder(db: Db, venues: VenueRegistry, scope: Scope, id: string): Promise<ComplexOrder> {
  const parent = await getComplexOrder(db, scope, id);
  if (!(await finish(db, venues, parent.id, ['pending', 'working'], 'canceled'))) {
    const current = await db.complexOrder.findUniqueOrThrow({ where: { id } });
    throw new DomainError('conflict', `Complex order '${id}' is ${current.status}; only a working complex order can be canceled.`);
  }
  await db.childOrder.updateMany({ where: { complexOrderId: id, status: 'scheduled' }, data: { status: 'canceled' } });
  const resting = await db.order.findMany({ where: { complexOrderId: id, status: { in: ['open', 'partially_filled'] } }, select: { id: true } });
  const results = await Promise.allSettled(resting.map((order) => cancelOrder(db, venues, scope, order.id)));
  const failed = results.filter((result) => result.status === 'rejected' && !(result.reason instanceof DomainError && result.reason.code === 'conflict'));
  if (failed.length > 0) {
    throw new DomainError('venue_unavailable', `The complex order is canceled, but ${failed.length} resting child order(s) could not be canceled yet; cancel those orders one by one.`);
  }
  return db.complexOrder.findUniqueOrThrow({ where: { id } });
}

export interface ComplexOrderFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  status?: string | null;
  strategy?: string | null;
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

const COMPLEX_ORDER_STATUSES = ['pending', 'working', 'completed', 'canceled', 'failed'] as const;

/** Newest first, with filters and an id cursor. */
export async function listComplexOrders(db: Db, scope: Scope, filter: ComplexOrderFilter) {
  const limit = parseLimit(filter.limit);
  const after = decodeCursor(filter.cursor, isIdCursor);
  if (filter.status != null && !(COMPLEX_ORDER_STATUSES as readonly string[]).includes(filter.status)) {
    throw invalidRequest('status', `status must be one of ${COMPLEX_ORDER_STATUSES.join(', ')}.`);
  }
  if (filter.strategy != null) requireStrategy(filter.strategy);
  const rows = await db.complexOrder.findMany({
    where: {
      ...scopedRows(scope, filter),
      ...(filter.status != null ? { status: filter.status as ComplexOrderStatus } : {}),
      ...(filter.strategy != null ? { strategy: filter.strategy } : {}),
      ...createdWithin(filter.since, filter.until),
      ...(after ? { id: { lt: after.id } } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** A complex order's children in plan order (slice time, then id). */
export async function listChildOrders(db: Db, scope: Scope, complexOrderId: string): Promise<ChildOrder[]> {
  await getComplexOrder(db, scope, complexOrderId);
  return db.childOrder.findMany({ where: { complexOrderId }, orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }] });
}
