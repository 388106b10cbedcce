import type { Db } from '../../db/prismaClient';
import { Decimal } from '../../domain/decimals';
import { venueName, type VenueName } from '../../venues/venueModules';
import type { VenueRegistry } from '../../venues/venue';

/** One market where the venue's position and ours are compared, in net YES contracts (YES held − NO held). */
export interface PositionComparison {
  /** Our market id; null for a position the venue holds on a market our catalog does not list. */
  marketId: string | null;
  venueMarketId: string;
  venueNetYes: Decimal;
  ourNetYes: Decimal;
  /** venue − ours: anything but zero is drift an operator must look at. */
  drift: Decimal;
}

/** A subaccount's account at one live venue: the venue's cash, and its positions compared with ours. */
export interface VenueAccountView {
  venue: VenueName;
  balance: Decimal;
  positions: PositionComparison[];
  inSync: boolean;
}

/**
 * The subaccount's accounts at the live venues it has credentials for, read from the venues now
 * (Kalshi: `GET /portfolio/balance`, `GET /portfolio/positions`) and compared with our positions.
 * Only markets where either side holds something are listed. A venue that cannot be asked makes
 * the whole answer `venue_unavailable`: a balance is never made up.
 */
export async function venueAccountsOf(db: Db, venues: VenueRegistry, subaccountId: string): Promise<VenueAccountView[]> {
  const accounts: VenueAccountView[] = [];
  for (const [column, live] of venues.live) {
    const venue = await live.forSubaccount(subaccountId);
    if (!venue) continue;
    const [balance, venuePositions, ours] = await Promise.all([
      venue.balance(),
      venue.positions(),
      db.$queryRaw<{ market_id: string; venue_market_id: string; net_yes: string }[]>`
        SELECT p.market_id, m.venue_market_id,
               sum(CASE WHEN p.side = 'yes' THEN p.quantity ELSE -p.quantity END)::text AS net_yes
          FROM positions p JOIN markets m ON m.id = p.market_id
         WHERE p.subaccount_id = ${subaccountId} AND m.venue::text = ${column}
         GROUP BY p.market_id, m.venue_market_id`,
    ]);
    const byTicker = new Map<string, PositionComparison>();
    for (const row of ours) {
      const net = new Decimal(row.net_yes);
      byTicker.set(row.venue_market_id, { marketId: row.market_id, venueMarketId: row.venue_market_id, venueNetYes: new Decimal(0), ourNetYes: net, drift: net.neg() });
    }
    const unlisted = venuePositions.map((p) => p.venueMarketId).filter((ticker) => !byTicker.has(ticker));
    const catalogIds = await marketIdsOf(db, column, unlisted);
    for (const position of venuePositions) {
      const known = byTicker.get(position.venueMarketId);
      const venueNet = new Decimal(position.netYes);
      const ourNet = known?.ourNetYes ?? new Decimal(0);
      byTicker.set(position.venueMarketId, {
        marketId: known?.marketId ?? catalogIds.get(position.venueMarketId) ?? null,
        venueMarketId: position.venueMarketId,
        venueNetYes: venueNet,
        ourNetYes: ourNet,
        drift: venueNet.sub(ourNet),
      });
    }
    const positions = [...byTicker.values()]
      .filter((p) => !p.venueNetYes.isZero() || !p.ourNetYes.isZero())
      .sort((a, b) => a.venueMarketId.localeCompare(b.venueMarketId));
    accounts.push({ venue: venueName(column), balance: new Decimal(balance), positions, inSync: positions.every((p) => p.drift.isZero()) });
  }
  return accounts;
}

/** Our market ids of venue tickers we hold no position on (one query): the venue holds what we did not record. */
async function marketIdsOf(db: Db, venue: string, venueMarketIds: string[]): Promise<Map<string, string>> {
  if (venueMarketIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; venue_market_id: string }[]>`
    SELECT id, venue_market_id FROM markets WHERE venue::text = ${venue} AND venue_market_id = ANY(${venueMarketIds})`;
  return new Map(rows.map((row) => [row.venue_market_id, row.id]));
}
