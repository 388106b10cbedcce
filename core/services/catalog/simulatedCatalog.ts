import type { Db } from '../../db/prismaClient';
import { newId } from '../../domain/ids';
import { seededCatalogRows, seededEventKey, seededEventRows } from '../../venues/sim/seededCatalog';

/**
 * Seeds the test environment's markets (core/venues/sim/seededCatalog.ts: the same questions listed
 * on both simulated venues, each with that venue's rules). Idempotent, keyed by (venue, venue market
 * id), and safe when several cores start at once: existing listings are left alone.
 */
export async function seedSimulatedMarkets(db: Db, now = new Date()): Promise<number> {
  const rows = seededCatalogRows(now).map((row) => ({ ...row, id: newId('market') }));
  const { count } = await db.market.createMany({ data: rows, skipDuplicates: true });
  await seedSimulatedEvents(db, rows);
  return count;
}

/**
 * The simulated venues' events (one per category and venue: seededCatalog.ts), and each seeded
 * listing put in its event, once (listings seeded before events existed too). Idempotent.
 */
async function seedSimulatedEvents(db: Db, listings: readonly ReturnType<typeof seededCatalogRows>[number][]): Promise<void> {
  await db.marketEvent.createMany({ data: seededEventRows().map((row) => ({ ...row, id: newId('marketEvent') })), skipDuplicates: true });
  const placed = listings.map((l) => ({ venue: l.venue, venue_market_id: l.venueMarketId, event_key: seededEventKey(l.venue, l.category) }));
  await db.$executeRaw`
    UPDATE markets m SET event_id = e.id
      FROM jsonb_to_recordset(${JSON.stringify(placed)}::jsonb) AS r(venue text, venue_market_id text, event_key text)
      JOIN market_events e ON e.venue = r.venue AND e.venue_event_id = r.event_key
     WHERE m.venue = r.venue AND m.venue_market_id = r.venue_market_id AND m.event_id IS NULL`;
}
