import type { Db } from '../../db/prismaClient';
import type { ComplexOrderStatus } from '../../generated/prisma/client';
import { sqlList } from '../../db/sqlLists';
import { settleDecision, UNSENT_CHILD_STATUSES, WORKING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueRegistry } from '../../venues/venue';
import { midOfPlan } from './prediction';

/**
 * Closes a working complex order once every child is final (rejected, canceled, or its order
 * filled, canceled, rejected or expired): `completed`, or `failed` when every child was refused and
 * nothing traded. Records the end mid, which values the unfilled rest in the execution report.
 */
export async function settleComplexOrder(db: Db, venues: VenueRegistry, id: string): Promise<void> {
  const children = await db.childOrder.findMany({ where: { complexOrderId: id }, include: { order: { select: { status: true, filledQuantity: true } } } });
  const status = settleDecision(children);
  if (status === null) return;
  await finishComplexOrder(db, venues, id, ['working'], status);
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
            AND (c.status IN ${sqlList(UNSENT_CHILD_STATUSES)} OR (c.status = 'sent' AND (o.id IS NULL OR o.status IN ${sqlList(WORKING_STATUSES)}))))
     LIMIT ${batch}`;
  for (const { id } of candidates) await settleComplexOrder(db, venues, id);
}

/** Moves a complex order from one of `from` to a final status with its end mid; false if it was not in `from`. */
export async function finishComplexOrder(db: Db, venues: VenueRegistry, id: string, from: ComplexOrderStatus[], status: ComplexOrderStatus): Promise<boolean> {
  const parent = await db.complexOrder.findUniqueOrThrow({ where: { id } });
  const endMid = await midOfPlan(db, venues, parent).catch(() => null);
  const now = new Date();
  const { count } = await db.complexOrder.updateMany({
    where: { id, status: { in: from } },
    data: { status, endMid, completedAt: now, updatedAt: now },
  });
  return count === 1;
}
