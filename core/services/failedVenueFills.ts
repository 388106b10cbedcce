import type { Prisma } from '../generated/prisma/client';
import type { VenueColumn } from '../domain/venues';

type Tx = Prisma.TransactionClient;

/**
 * Venue trades reported FAILED before we recorded them as fills (`failed_venue_fills`), and the
 * lock that keeps such a report and the recording of the same fill apart. The recording of fills
 * takes, under its subaccount lock, a transaction-scoped advisory lock per venue fill id, then reads
 * which ids failed; a failure report for a fill not recorded takes the same lock before it looks for
 * the fill and remembers the failure. So whichever commits first, the other sees it: the fill is
 * recorded and then reversed, or never recorded (core/services/fillReversals.ts).
 */
export async function lockVenueFillIds(tx: Tx, venue: VenueColumn, venueFillIds: readonly string[]): Promise<void> {
  if (venueFillIds.length === 0) return;
  // Sorted: two transactions locking overlapping ids take them in the same order.
  const ids = [...new Set(venueFillIds)].sort();
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${venue} || ':' || id, 0)) FROM unnest(${ids}::text[]) AS id`;
}

/** The ids among `venueFillIds` whose trade was reported FAILED before it was recorded. Read after `lockVenueFillIds`. */
export async function failedVenueFillIds(tx: Tx, venue: VenueColumn, venueFillIds: readonly string[]): Promise<Set<string>> {
  if (venueFillIds.length === 0) return new Set();
  const rows = await tx.failedVenueFill.findMany({ where: { venue, venueFillId: { in: [...venueFillIds] } }, select: { venueFillId: true } });
  return new Set(rows.map((row) => row.venueFillId));
}
