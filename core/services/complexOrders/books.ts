import type { Db } from '../../db/prismaClient';
import type { Market } from '../../generated/prisma/client';
import { consolidatedArrivalMid, type VenueMarketSnapshot } from '../../domain/planning';
import { isVenueName, marketRulesOf, venueModule, venueName } from '../../venues/venueModules';
import type { OutcomeSide } from '../../domain/orderTerms';
import type { VenueRegistry } from '../../venues/venue';
import type { Scope } from '../scope';

/**
 * The listings a complex order may use: every open market of the scope's environment that lists the
 * same question (`question_key`) on an allowed venue of the right kind (simulated venues for test
 * keys, real ones for live keys).
 */
export async function eligibleListings(db: Db, scope: Scope, market: Market, allowedVenues?: readonly string[] | null): Promise<Market[]> {
  const listings = market.questionKey
    ? await db.market.findMany({ where: { environment: scope.environment, questionKey: market.questionKey, status: 'open' } })
    : [market];
  const allowed = (allowedVenues ?? listings.map((m) => venueName(m.venue))).filter(isVenueName);
  return listings.filter(
    (m) => allowed.includes(venueName(m.venue)) && venueModule(m.venue).environment === scope.environment,
  );
}

/** The current books of the listings whose venue is running, `depth` levels deep. */
export async function snapshotsOf(venues: VenueRegistry, listings: readonly Market[], depth: number): Promise<VenueMarketSnapshot[]> {
  const snapshots: VenueMarketSnapshot[] = [];
  for (const listing of listings) {
    const venue = venues.marketData(listing.venue);
    if (!venue) continue;
    snapshots.push({ venue: venueName(listing.venue), book: await venue.orderBook(listing.venueMarketId, depth), rules: marketRulesOf(listing) });
  }
  return snapshots;
}

/**
 * The consolidated mid of these listings now, in the side's own terms (see arrivalMid.ts), as a
 * plain decimal string; null when the bid or the ask side is empty everywhere.
 */
export async function consolidatedMidNow(venues: VenueRegistry, listings: readonly Market[], side: OutcomeSide): Promise<string | null> {
  const mid = consolidatedArrivalMid(await snapshotsOf(venues, listings, 1), side);
  return mid === null ? null : mid.toFixed();
}

/** The listings a placed complex order planned over, by the market ids its prediction recorded. */
export async function listingsOfPlan(db: Db, marketIds: readonly string[]): Promise<Market[]> {
  return db.market.findMany({ where: { id: { in: [...marketIds] } } });
}
