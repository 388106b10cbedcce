import type { Db } from '../../db/prismaClient';
import { VENUE_COLUMNS } from '../../venues/venueModules';

/**
 * Writes the registry's venues into the database's `venues` table, which every venue column refers
 * to (so the database refuses a venue no module names). At start-up, before anything is listed or
 * traded; idempotent, and safe when several cores start at once. A venue no longer registered keeps
 * its row (its markets, orders and fills still refer to it). Answers how many rows were new.
 */
export async function recordKnownVenues(db: Db, columns: readonly string[] = VENUE_COLUMNS): Promise<number> {
  const { count } = await db.knownVenue.createMany({ data: columns.map((name) => ({ name })), skipDuplicates: true });
  return count;
}
