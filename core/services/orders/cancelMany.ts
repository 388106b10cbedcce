import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest } from '../../domain/errors';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { Order } from '../../generated/prisma/client';
import type { VenueCallOptions, VenueRegistry } from '../../venues/venue';
import { venueFilterColumn } from '../../venues/venueModules';
import { scopedRows, type Scope } from '../scope';
import { cancelOrder } from './orders';

/** Which working orders to cancel: at least one filter (docs/trading.md, "Cancel many"). */
export interface CancelManyFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  venue?: string | null;
  side?: 'yes' | 'no' | null;
}

/** The most orders one request cancels; `hasMore` says when more match (ask again). */
export const MAX_CANCELED_PER_REQUEST = 200;
/** Cancels in flight at once: each is a venue call (the live venues' own batch calls come later). */
const CANCELS_AT_ONCE = 8;

export interface CancelManyResult {
  canceled: Order[];
  failed: { orderId: string; code: string; message: string }[];
  hasMore: boolean;
}

/**
 * Cancels the scope's resting orders (open or partly filled) that match every filter given, oldest
 * first, at most MAX_CANCELED_PER_REQUEST, each as `DELETE /v1/orders/{id}` would (its own venue
 * call, its outcome recorded): what was canceled, and each order that could not be with the reason
 * (filled, or canceled elsewhere, meanwhile: `conflict`; the venue away: `venue_unavailable`).
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
    select: { id: true },
  });
  const ids = matching.slice(0, MAX_CANCELED_PER_REQUEST).map((o) => o.id);
  const canceled: Order[] = [];
  const failed: CancelManyResult['failed'] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        const order = await cancelOrder(db, venues, scope, id, call);
        // The venue may answer that the order filled before the cancel reached it.
        if (order.status === 'canceled') canceled.push(order);
        else failed.push({ orderId: id, code: 'conflict', message: `Order '${id}' is ${order.status}: the venue had filled it before the cancel.` });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        failed.push({ orderId: id, code: error.code, message: error.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CANCELS_AT_ONCE, ids.length) }, worker));
  canceled.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { canceled, failed, hasMore: matching.length > MAX_CANCELED_PER_REQUEST };
}
