import type { Db } from '../../db/prismaClient';
import { newId } from '../../domain/ids';
import { seededCatalogRows } from '../../venues/sim/seededCatalog';

/**
 * Seeds the test environment's markets (core/venues/sim/seededCatalog.ts: the same questions listed
 * on both simulated venues, each with that venue's rules). Idempotent, keyed by (venue, venue market
 * id), and safe when several cores start at once: existing listings are left alone.
 */
export async function seedSimulatedMarkets(db: Db, now = new Date()): Promise<number> {
  const rows = seededCatalogRows(now).map((row) => ({ ...row, id: newId('market') }));
  const { count } = await db.market.createMany({ data: rows, skipDuplicates: true });
  return count;
}
