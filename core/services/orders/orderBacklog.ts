import type { Db } from '../../db/prismaClient';
import { venueName, type VenueColumn } from '../../venues/venueModules';

export interface BacklogGroup {
  venue: string;
  status: 'pending' | 'unknown';
  orders: number;
  /** Seconds since the oldest of them was created. */
  oldestSeconds: number;
}

/**
 * The orders awaiting reconciliation (docs/reconciliation.md), per venue and status: every order
 * left `unknown` (the venue's answer was lost), and every `pending` one untouched for longer than
 * `pendingStaleMs` (its core stopped while sending; a fresher one is simply in flight). In a
 * healthy system the list is empty, or its orders are young. Ages count from creation, since the
 * reconciler moves `updated_at` forward each time it claims an order.
 */
export async function reconciliationBacklog(db: Db, pendingStaleMs: number): Promise<BacklogGroup[]> {
  const rows = await db.$queryRaw<{ venue: VenueColumn; status: 'pending' | 'unknown'; orders: number; oldest: number }[]>`
    SELECT venue::text AS venue, status::text AS status, count(*)::int AS orders,
           EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest
      FROM orders
     WHERE environment IN ('test', 'live')
       AND (status = 'unknown' OR (status = 'pending' AND updated_at < now() - ${pendingStaleMs} * interval '1 millisecond'))
     GROUP BY venue, status`;
  return rows.map((row) => ({ venue: venueName(row.venue), status: row.status, orders: row.orders, oldestSeconds: Math.max(0, row.oldest) }));
}
