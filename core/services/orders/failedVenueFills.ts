import type { Prisma } from '../../generated/prisma/client';
import { tradesCanFail, type VenueColumn } from '../../venues/venueModules';

type Tx = Prisma.TransactionClient;

/**
 * Venue trades reported FAILED before we recorded them as fills (`failed_venue_fills`), and the
 * lock that keeps such a report and the recording of the same fill apart. The recording of fills
 * takes, under its subaccount lock, a transaction-scoped advisory lock per venue fill id, then reads
 * which ids failed; a failure report for a fill not recorded takes the same lock before it looks for
 * the fill and remembers the failure. So whichever commits first, the other sees it: the fill is
 * recorded and then reversed, or never recorded (core/services/orders/fillReversals.ts).
 */
export async function lockVenueFillIds(tx: Tx, venue: VenueColumn, venueFillIds: readonly string[]): Promise<void> {
  if (venueFillIds.length === 0) return;
  // Sorted: two transactions locking overlapping ids take them in the same order.
  const ids = [...new Set(venueFillIds)].sort();
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${venue} || ':' || id, 0)) FROM unnest(${ids}::text[]) AS id`;
}

/**
 * The ids among `venueFillIds` already recorded as fills, or whose trade was reported FAILED before
 * it was recorded: the ones not to record. One query; read after `lockVenueFillIds` where it decides.
 */
export async function recordedOrFailedVenueFillIds(tx: Tx, venue: VenueColumn, venueFillIds: readonly string[]): Promise<Set<string>> {
  if (venueFillIds.length === 0) return new Set();
  const ids = [...venueFillIds];
  // Only a venue whose trades can fail after the match (Polymarket) has failed trades to skip.
  const rows = tradesCanFail(venue)
    ? await tx.$queryRaw<{ venue_fill_id: string }[]>`
        SELECT venue_fill_id FROM fills WHERE venue = ${venue}::text AND venue_fill_id = ANY(${ids}::text[])
        UNION ALL
        SELECT venue_fill_id FROM failed_venue_fills WHERE venue = ${venue}::text AND venue_fill_id = ANY(${ids}::text[])`
    : await tx.$queryRaw<{ venue_fill_id: string }[]>`
        SELECT venue_fill_id FROM fills WHERE venue = ${venue}::text AND venue_fill_id = ANY(${ids}::text[])`;
  return new Set(rows.map((row) => row.venue_fill_id));
}
