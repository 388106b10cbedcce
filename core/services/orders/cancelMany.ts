import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest } from '../../domain/errors';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { Order } from '../../generated/prisma/client';
import type { VenueCallOptions, VenueCancelResult, VenueRegistry } from '../../venues/venue';
import { venueFilterColumn } from '../../venues/venueModules';
import { scopedRows, type Scope } from '../scope';
import { cancelOrder, recordCancel } from './orders';

const lost = (error: unknown): VenueCancelResult => ({ outcome: 'unknown', message: error instanceof Error ? error.message : String(error) });

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

/** Which working orders to cancel: at least one filter (docs/trading.md, "Cancel many"). */
export interface CancelManyFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  venue?: string | null;
  side?: 'yes' | 'no' | null;
}

/** The most orders one request cancels; `hasMore` says when more match (ask again). */
export const MAX_CANCELED_PER_REQUEST = 200;
/** Venue calls in flight at once: a cancel, or a batch cancel of one account's orders. */
const CANCELS_AT_ONCE = 8;

export interface CancelManyResult {
  canceled: Order[];
  failed: { orderId: string; code: string; message: string }[];
  hasMore: boolean;
}

/**
 * Cancels the scope's resting orders (open or partly filled) that match every filter given, oldest
 * first, at most MAX_CANCELED_PER_REQUEST, each as `DELETE /v1/orders/{id}` would (its outcome
 * recorded): what was canceled, and each order that could not be with the reason (filled, or
 * canceled elsewhere, meanwhile: `conflict`; the venue away: `venue_unavailable`). The orders of
 * one account on a venue with a batch cancel (Kalshi's batched cancel, Polymarket's DELETE /orders)
 * go in its batch calls; elsewhere each is its own cancel.
 */
export async function cancelOrders(db: Db, venues: VenueRegistry, scope: Scope, filter: CancelManyFilter, call: VenueCallOptions = {}): Promise<CancelManyResult> {
  const { subaccountId, marketId, venue, side } = filter;
  if (subaccountId == null && marketId == null && venue == null && side == null) {
    throw invalidRequest('subaccountId', 'Say which orders to cancel: at least one of subaccountId, marketId, venue, side.');
  }
  const column = venueFilterColumn(venue);
  const matching = await db.order.findMany({
    where: {
      ...scopedRows(scope, { subaccountId, marketId }),
      ...(column !== null ? { venue: column } : {}),
      ...(side != null ? { side } : {}),
      status: { in: [...RESTING_STATUSES] },
    },
    orderBy: { id: 'asc' },
    take: MAX_CANCELED_PER_REQUEST + 1,
  });
  const canceled: Order[] = [];
  const failed: CancelManyResult['failed'] = [];
  const settle = async (order: Order, record: () => Promise<Order>) => {
    try {
      const now = await record();
      // The venue may answer that the order filled before the cancel reached it.
      if (now.status === 'canceled') canceled.push(now);
      else failed.push({ orderId: order.id, code: 'conflict', message: `Order '${order.id}' is ${now.status}: the venue had filled it before the cancel.` });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failed.push({ orderId: order.id, code: error.code, message: error.message });
    }
  };
  // One task per account whose venue cancels in batches (one call for its orders), else one per order.
  const tasks: (() => Promise<void>)[] = [];
  for (const orders of groupBy(matching.slice(0, MAX_CANCELED_PER_REQUEST), (o) => `${o.venue}\n${o.subaccountId}`).values()) {
    const first = orders[0]!;
    const account = await venues.forSubaccount(first.venue, first.subaccountId).catch(() => undefined);
    if (account?.cancelOrders && orders.length > 1) {
      tasks.push(async () => {
        const results = await account.cancelOrders!(orders.map((o) => o.id), call).catch((error: unknown) => new Map<string, VenueCancelResult>(orders.map((o) => [o.id, lost(error)])));
        for (const order of orders) await settle(order, () => recordCancel(db, venues, account, order, results.get(order.id) ?? lost('the batch cancel did not answer for it')));
      });
    } else {
      for (const order of orders) tasks.push(() => settle(order, () => cancelOrder(db, venues, scope, order.id, call)));
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(CANCELS_AT_ONCE, tasks.length) }, worker));
  canceled.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { canceled, failed, hasMore: matching.length > MAX_CANCELED_PER_REQUEST };
}
