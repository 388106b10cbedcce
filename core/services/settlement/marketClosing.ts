import type { Db } from '../../db/prismaClient';
import { DomainError, notFound } from '../../domain/errors';
import { CANCELABLE_COMPLEX_ORDER_STATUSES, RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueRegistry } from '../../venues/venue';
import { cancelComplexOrder } from '../complexOrders/cancellation';
import { cancelOrder } from '../orders/orders';

/**
 * Closes a market (docs/settlement.md): from open or paused it becomes `closed`, so no order is
 * accepted from then on (the order path reads the status in its own transaction); then its working
 * complex orders and every resting order on it, of every workspace, are canceled through the
 * ordinary cancel services (each venue call outside any lock, reserved cash released as for any
 * cancel). A market already closed (or later) changes status no more, and a second close cancels
 * what is still resting. Orders pending or unknown at the venue are the reconcilers' to settle.
 * Answers how many orders and complex orders it canceled, and what it could not cancel.
 */
export async function closeMarket(db: Db, venues: VenueRegistry, marketId: string): Promise<{ canceled: number; failed: number }> {
  const market = await db.market.findUnique({ where: { id: marketId }, select: { status: true } });
  if (!market) throw notFound('market', marketId);
  if (market.status === 'open' || market.status === 'paused') {
    await db.market.updateMany({ where: { id: marketId, status: { in: ['open', 'paused'] } }, data: { status: 'closed', updatedAt: new Date() } });
  }
  let canceled = 0;
  let failed = 0;
  const cancel = async (work: () => Promise<unknown>) => {
    await work().then(
      () => (canceled += 1),
      (error: unknown) => {
        // Final meanwhile (filled, or canceled with its complex order): nothing left to cancel.
        if (!(error instanceof DomainError && error.code === 'conflict')) failed += 1;
      },
    );
  };
  const complexOrders = await db.complexOrder.findMany({
    where: { marketId, status: { in: [...CANCELABLE_COMPLEX_ORDER_STATUSES] } },
    select: { id: true, workspaceId: true, environment: true },
  });
  for (const parent of complexOrders) await cancel(() => cancelComplexOrder(db, venues, parent, parent.id));
  const resting = await db.order.findMany({
    where: { marketId, status: { in: [...RESTING_STATUSES] } },
    select: { id: true, workspaceId: true, environment: true },
    orderBy: { id: 'asc' },
  });
  for (const order of resting) await cancel(() => cancelOrder(db, venues, order, order.id));
  return { canceled, failed };
}
