import type { Db } from '../../db/prismaClient';
import { DomainError } from '../../domain/errors';
import { outcomeOf } from '../../domain/settlement';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { VenueRegistry, VenueSettlement } from '../../venues/venue';
import { closeMarket } from './marketClosing';
import { settleMarket } from './settlements';

/** How far back a venue is asked for settlements: a market held longer than this unsettled is an operator's matter. */
export const SETTLEMENT_LOOKBACK_MS = 90 * 24 * 60 * 60 * 1000;

/** One live listing, as a venue's notice names it: (venue, venue market id). */
const listingKey = (venue: string, venueMarketId: string) => `${venue}\u0000${venueMarketId}`;

/** A live market one of our subaccounts holds contracts in, not settled in our books. */
interface HeldMarket {
  subaccount_id: string;
  market_id: string;
  venue: string;
  venue_market_id: string;
}

/**
 * Settles our books at the live venues' own settlement records (docs/settlement.md, "Live venues"):
 * for every subaccount holding contracts in a live market we have not settled, its account at the
 * venue is asked for its settlements of those markets (VenueSettlement: Kalshi's
 * `GET /portfolio/settlements`); a market the venue has settled is settled here at the venue's
 * outcome and time (settlements.ts: every subaccount holding it, once), after closing it
 * (marketClosing.ts: its resting orders canceled, which the venue has done already).
 *
 * The venue's record is the truth, and notices only say when to look: a notice lost is made up by
 * the next round, a repeated or late one finds the market settled and books nothing, and several
 * cores asking at once settle it once (settleMarket locks the market's row). A market whose orders
 * are still working in our records (a cancel the venue could not confirm yet) is tried again on the
 * next round. Answers how many markets it settled, and the (venue, venue market id) still held unsettled.
 */
export async function settleFromVenues(db: Db, venues: VenueRegistry, logger: Logger): Promise<{ settled: number; held: Set<string> }> {
  const held = await db.$queryRaw<HeldMarket[]>`
    SELECT DISTINCT p.subaccount_id, m.id AS market_id, m.venue, m.venue_market_id
      FROM positions p JOIN markets m ON m.id = p.market_id
     WHERE m.environment = 'live'::"Environment" AND m.status <> 'settled'::"MarketStatus" AND p.quantity > 0
     ORDER BY m.venue, p.subaccount_id, m.venue_market_id`;
  const accounts = new Map<string, HeldMarket[]>();
  for (const row of held) {
    const key = `${row.venue}\u0000${row.subaccount_id}`;
    const markets = accounts.get(key);
    if (markets) markets.push(row);
    else accounts.set(key, [row]);
  }
  const settled = new Set<string>();
  const since = new Date(Date.now() - SETTLEMENT_LOOKBACK_MS);
  for (const markets of accounts.values()) {
    const { venue, subaccount_id: subaccountId } = markets[0]!;
    const pending = markets.filter((market) => !settled.has(market.market_id));
    if (pending.length === 0) continue;
    const records = await recordsOf(venues, venue, subaccountId, pending, since).catch((error: unknown) => {
      logger.warn({ err: error, venue, subaccountId }, "could not read the venue's settlements; trying again on the next round");
      return [];
    });
    for (const record of records) {
      const market = pending.find((m) => m.venue_market_id === record.venueMarketId);
      if (!market || settled.has(market.market_id)) continue;
      if (await settleAtVenueRecord(db, venues, logger, market, record)) settled.add(market.market_id);
    }
  }
  return { settled: settled.size, held: new Set(held.filter((m) => !settled.has(m.market_id)).map((m) => listingKey(m.venue, m.venue_market_id))) };
}

async function recordsOf(venues: VenueRegistry, venue: string, subaccountId: string, markets: HeldMarket[], since: Date): Promise<VenueSettlement[]> {
  const account = await venues.live.get(venue)?.forSubaccount(subaccountId);
  if (!account?.settlementsSince) return [];
  const wanted = new Set(markets.map((m) => m.venue_market_id));
  return (await account.settlementsSince(since)).filter((record) => wanted.has(record.venueMarketId));
}

/** Books one market's settlement at the venue's record; false when it must wait for a later round. */
async function settleAtVenueRecord(db: Db, venues: VenueRegistry, logger: Logger, market: HeldMarket, record: VenueSettlement): Promise<boolean> {
  const checked = outcomeOf({ result: record.result, settlementValue: record.settlementValue });
  if (!checked.ok) {
    logger.warn({ marketId: market.market_id, venue: market.venue, reason: checked.reason }, "the venue's settlement record has an outcome we cannot book; left for an operator");
    return false;
  }
  const { failed } = await closeMarket(db, venues, market.market_id);
  try {
    const written = await settleMarket(db, market.market_id, checked.outcome, { at: record.settledAt, venueReference: record.reference });
    if (written.length > 0) logger.info({ marketId: market.market_id, venue: market.venue, result: record.result, settlements: written.length }, 'a live market settled at the venue: booked');
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'conflict') {
      logger.info({ marketId: market.market_id, failed }, 'a settled market still has working orders in our records; settling it on a later round');
      return false;
    }
    throw error;
  }
}

/**
 * The live settlement sweep of one core: `settleFromVenues` every `intervalMs`, and at once when a
 * venue's notice says a market we held at the last round settled (`marketSettled`; a venue such as
 * Kalshi sends every market's notices to every account, so the others are not worth a round).
 * Rounds never overlap.
 */
export function startVenueSettlementSweep(db: Db, venues: VenueRegistry, logger: Logger, options: { intervalMs: number }) {
  let held = new Set<string>();
  const sweep = runPeriodically(
    options.intervalMs,
    async () => {
      const round = await settleFromVenues(db, venues, logger);
      held = round.held;
    },
    (error) => logger.warn({ err: error }, 'the live settlement sweep failed; retrying on the next round'),
  );
  sweep.nudge();
  return {
    stop: () => sweep.stop(),
    marketSettled(venue: string, venueMarketId: string) {
      if (held.has(listingKey(venue, venueMarketId))) sweep.nudge();
    },
  };
}
