import type { Db } from '../../db/prismaClient';
import type { Order } from '../../generated/prisma/client';
import type { Venue, VenueFill } from '../../venues/venue';
import { recordExecution } from './executions';
import { venueRequestOf } from './orders';
import type { VenueColumn } from '../../venues/venueModules';
import type { Environment } from '../../../contract/environment';

/** An order whose fate at its venue is not known, claimed for one reconciler round, with its market's venue id. */
export type ClaimedOrder = Order & { market: { venueMarketId: string } };

export interface ClaimOptions {
  environment: Environment;
  venues: readonly VenueColumn[];
  /** An `unknown` order is claimed once untouched this long (the claim's lease: more than one venue call). */
  leaseMs: number;
  /** A `pending` order is claimed once untouched this long: longer than any request runs before its venue call. */
  pendingStaleMs: number;
  batch?: number;
}

/**
 * Claims orders left `unknown` (a lost answer) or `pending` too long (a core that stopped between
 * its transaction and the venue's answer), oldest touched first. The claim moves `updated_at`
 * forward in one statement (`FOR UPDATE SKIP LOCKED`, committed at once): no lock is held while a
 * venue is asked, and no other core, nor a client's retry (orders.ts takes the same lease), works on
 * the order within the lease.
 */
export async function claimUnconfirmedOrders(db: Db, options: ClaimOptions): Promise<ClaimedOrder[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE orders SET updated_at = now()
     WHERE id IN (
       SELECT id FROM orders
        WHERE environment = ${options.environment}::"Environment" AND venue::text = ANY(${[...options.venues]})
          AND ((status = 'unknown' AND updated_at < now() - ${options.leaseMs} * interval '1 millisecond')
            OR (status = 'pending' AND updated_at < now() - ${Math.max(options.pendingStaleMs, options.leaseMs)} * interval '1 millisecond'))
        ORDER BY updated_at
        LIMIT ${options.batch ?? 50}
        FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  if (rows.length === 0) return [];
  return db.order.findMany({ where: { id: { in: rows.map((r) => r.id) } }, include: { market: { select: { venueMarketId: true } } }, orderBy: { createdAt: 'asc' } });
}

export interface ReconcileCounts {
  claimed: number;
  found: number;
  resent: number;
  rejected: number;
  /** Left for a later round: the venue could not be asked, or its answer was lost again. */
  deferred: number;
}

/**
 * One claimed order, the same way on every venue: looked up by our client order id. Found: its
 * state and fills are recorded. Not found and younger than `resendMaxAgeMs`: sent again with the
 * **same** client order id, so the venue can never hold two. Not found and older: recorded
 * `rejected` ("the venue has no order with our id").
 */
export async function reconcileUnconfirmedOrder(
  db: Db,
  venue: Venue,
  order: ClaimedOrder,
  options: {
    resendMaxAgeMs: number;
    /** Every fill the venue holds for this order, however the venue lists them (a live REST window, a simulated venue's list). */
    fillsOf(order: Order): Promise<VenueFill[]>;
  },
): Promise<Exclude<keyof ReconcileCounts, 'claimed'>> {
  let state;
  try {
    state = await venue.getOrder(order.id);
  } catch {
    return 'deferred';
  }
  if (state) {
    // The state first: it records the venue's order id, which is how the venue's fills find the order.
    await recordExecution(db, order.id, { fills: [], state });
    const fills = await options.fillsOf(order).catch(() => null);
    if (fills && fills.length > 0) await recordExecution(db, order.id, { fills, state });
    return 'found';
  }
  if (Date.now() - order.createdAt.getTime() > options.resendMaxAgeMs) {
    await db.order.updateMany({
      where: { id: order.id, status: { in: ['unknown', 'pending'] } },
      data: { status: 'rejected', rejectReason: 'not_at_venue: the venue has no order with our client order id; it was never placed.', updatedAt: new Date() },
    });
    return 'rejected';
  }
  const result = await venue.placeOrder(venueRequestOf(order, order.market.venueMarketId)).catch(() => ({ outcome: 'unknown' as const }));
  if (result.outcome === 'accepted') {
    await recordExecution(db, order.id, { fills: result.fills, state: result.order });
    return 'resent';
  }
  if (result.outcome === 'rejected' && result.code !== 'venue_unavailable') {
    await db.order.updateMany({
      where: { id: order.id, status: { in: ['unknown', 'pending'] } },
      data: { status: 'rejected', rejectReason: `${result.venueCode}: ${result.message}`, updatedAt: new Date() },
    });
    return 'rejected';
  }
  return 'deferred';
}

