import type { Db } from '../../db/prismaClient';
import type { Market, Settlement } from '../../generated/prisma/client';
import { parseDecimalString } from '../../domain/decimals';
import { DomainError, invalidRequest } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { outcomeOf, type MarketResult } from '../../domain/settlement';
import type { VenueRegistry } from '../../venues/venue';
import { isVenueName, marketRulesOf, venueColumn, venueModule, venuesOf } from '../../venues/venueModules';
import type { Scope } from '../scope';
import { closeMarket } from './marketClosing';
import { settleMarket } from './settlements';

/**
 * Test helpers, as Stripe's test mode has them (docs/settlement.md, "Test helpers"): with a test
 * key only, a workspace makes markets of its own on a simulated venue, closes them and settles them,
 * to see a market's whole life through the public API. Such a market trades like any simulated
 * market and no other workspace sees it (scope.ts, marketVisibleTo).
 */

function testKeysOnly(scope: Scope): void {
  if (scope.environment !== 'test') throw new DomainError('forbidden', 'Test helpers work with test keys (mk_test_…) only.');
}

/** The simulated venues that list test helpers' markets (their modules' `testMarkets`). */
const testMarketVenues = () => venuesOf('test').filter((name) => venueModule(name).testMarkets);

export interface TestMarketInput {
  title: string;
  venue: string;
  /** The market maker's starting fair value of YES (its book is quoted around it); 0.5 by default. */
  fairValue?: string | null;
  closesAt?: Date | null;
  category?: string | null;
}

/** Creates a market of the workspace's own on a simulated venue, listed there at once with the market maker's liquidity. */
export async function createTestMarket(db: Db, venues: VenueRegistry, scope: Scope, input: TestMarketInput): Promise<Market> {
  testKeysOnly(scope);
  const allowed = testMarketVenues();
  if (!isVenueName(input.venue) || !allowed.includes(input.venue)) throw invalidRequest('venue', `venue must be one of ${allowed.join(', ')}.`);
  const listing = venueModule(input.venue).testMarkets!;
  const fairValue = parseDecimalString(input.fairValue ?? '0.5');
  if (fairValue === null || fairValue.lte(0) || fairValue.gte(1) || !fairValue.mod(listing.tickSize).isZero()) {
    throw invalidRequest('fairValue', `fairValue must be a price strictly between 0 and 1 on the venue's tick (${listing.tickSize}).`);
  }
  const id = newId('market');
  const row = {
    id,
    environment: 'test' as const,
    venue: venueColumn(input.venue),
    venueMarketId: `TH-${id.slice(-12).toUpperCase()}`,
    title: input.title,
    category: input.category ?? 'test helpers',
    tickSize: listing.tickSize,
    minSize: listing.minSize,
    fairValue: fairValue.toFixed(),
    closeTime: input.closesAt ?? null,
    workspaceId: scope.workspaceId,
  };
  const market = await db.market.create({ data: row });
  // Listed on the venue once its row exists (an order can only name a market that has a row); a
  // market the venue cannot list leaves no row behind.
  let listed = false;
  try {
    listed = venues.listSimulatedMarket?.(market.venue, {
      venueMarketId: market.venueMarketId, tickSize: listing.tickSize, minSize: listing.minSize, fairValue: fairValue.toFixed(), rules: marketRulesOf(market),
    }) ?? false;
  } finally {
    if (!listed) await db.market.delete({ where: { id } });
  }
  if (!listed) {
    throw new DomainError('venue_unavailable', `The simulated venue ${input.venue} does not run in this core (SIM_VENUE_URL): test helpers' markets need the in-process simulated venues.`);
  }
  return market;
}

/** One of the workspace's own test-helper markets; another's, or a venue's market, is not found. */
async function ownTestMarket(db: Db, scope: Scope, id: string): Promise<Market> {
  testKeysOnly(scope);
  const market = await db.market.findUnique({ where: { id } });
  if (!market || market.environment !== scope.environment || market.workspaceId !== scope.workspaceId) {
    throw new DomainError('not_found', `No market with id '${id}' made by this workspace's test helpers.`);
  }
  return market;
}

/** Closes a test helper's market: no new orders, its resting orders canceled (marketClosing.ts). */
export async function closeTestMarket(db: Db, venues: VenueRegistry, scope: Scope, id: string): Promise<Market> {
  await ownTestMarket(db, scope, id);
  const { failed } = await closeMarket(db, venues, id);
  if (failed > 0) throw new DomainError('venue_unavailable', `${failed} order(s) on market '${id}' could not be canceled now; close it again.`);
  return db.market.findUniqueOrThrow({ where: { id } });
}

/**
 * Settles a test helper's market at a result (yes, no, void) or a settlement value (dollars per YES
 * contract, 0 to 1): closed first if it is not, then every position in it settled (settlements.ts).
 * Settling a settled market again changes nothing (its first outcome stands).
 */
export async function settleTestMarket(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  id: string,
  input: { result?: MarketResult | null; settlementValue?: string | null },
): Promise<{ market: Market; settlements: Settlement[] }> {
  const market = await ownTestMarket(db, scope, id);
  const checked = outcomeOf(input);
  if (!checked.ok) throw invalidRequest(input.settlementValue != null ? 'settlementValue' : 'result', checked.reason);
  if (market.status !== 'settled') {
    const { failed } = await closeMarket(db, venues, id);
    if (failed > 0) throw new DomainError('venue_unavailable', `${failed} order(s) on market '${id}' could not be canceled now; settle it again.`);
  }
  const settlements = await settleMarket(db, id, checked.outcome);
  return { market: await db.market.findUniqueOrThrow({ where: { id } }), settlements };
}
