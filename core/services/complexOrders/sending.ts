import type { Db } from '../../db/prismaClient';
import { formatDecimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import { isResting } from '../../domain/orderLifecycle';
import type { VenueRegistry } from '../../venues/venue';
import { cancelOrder, placeOrder } from '../orders/orders';
import type { Scope } from '../scope';
import { midOfPlan } from './prediction';
import { repriceSlice } from './repricing';

/** A child claimed for sending (a row of the claiming UPDATE ... RETURNING). */
export interface ClaimedChild {
  id: string;
  complex_order_id: string;
  scheduled_at: Date;
}

/**
 * Sends claimed children: the complex orders concurrently; within one, slice after slice (a TWAP
 * that fell behind catches up in order, each slice priced on the book the previous one left), and
 * the children of one slice time (a sweep's venues) at the same time.
 */
export async function sendInOrder(db: Db, venues: VenueRegistry, claimed: ClaimedChild[]): Promise<void> {
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
 * Sends one claimed child as an order. Pre-trade risk, validation and venue refusals are the
 * child's outcome (recorded, not thrown); the venue's rate limit and anything else (the database
 * unreachable) leave the child `sending`, and retryStaleChildren sends it again later.
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
    if (isResting(order.status)) {
      const current = await db.complexOrder.findUniqueOrThrow({ where: { id: parent.id }, select: { status: true } });
      if (current.status === 'canceled') await cancelOrder(db, venues, scope, order.id).catch(() => undefined);
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Not sent for the venue's rate limit (no order was kept): the child stays `sending`, and retryStaleChildren sends it later.
    if (error.code === 'rate_limited') return;
    // A venue refusal comes after the order was created and linked: such a child stays `sent`.
    const linked = await db.childOrder.findUniqueOrThrow({ where: { id: child.id }, select: { orderId: true } });
    await db.childOrder.update({
      where: { id: child.id },
      data: { ...(linked.orderId === null ? { status: 'rejected' as const } : {}), rejectCode: error.code, rejectReason: error.message },
    });
  }
}
