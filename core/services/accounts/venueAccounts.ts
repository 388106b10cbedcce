import type { Db } from '../../db/prismaClient';
import { Decimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import { positionsNet, venueName, type VenueName } from '../../venues/venueModules';
import type { LiveVenue, VenueRegistry, VenueSettlement } from '../../venues/venue';
import { settlementDrift, type MarketResult } from '../../domain/settlement';

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

/** One market's settlement of the account as the venue recorded it beside ours (core/domain/settlement.ts settlementDrift). */
export interface SettlementComparison {
  /** Our market id; null when our catalog does not list the venue's market. */
  marketId: string | null;
  venueMarketId: string;
  /** Ours; null when we have not booked one. */
  settlementId: string | null;
  result: string;
  /** Null when the venue's record does not say (a Polymarket redemption). */
  venueYesQuantity: Decimal | null;
  venueNoQuantity: Decimal | null;
  venuePayout: Decimal;
  /** Polymarket: whether the wallet has redeemed its tokens (`redeemable`, `redeemed`); null where the venue pays by itself. */
  redemption: 'redeemable' | 'redeemed' | null;
  ourYesQuantity: Decimal;
  ourNoQuantity: Decimal;
  ourPayout: Decimal;
  /** Venue minus ours, in net YES contracts and in dollars (null: not comparable); anything but 0 needs an operator. */
  quantityDrift: Decimal | null;
  payoutDrift: Decimal | null;
}

/** A subaccount's account at one live venue: the venue's cash, its positions and its settlements compared with ours. */
export interface VenueAccountView {
  venue: VenueName;
  balance: Decimal;
  positions: PositionComparison[];
  /**
   * The settlements of the last SETTLEMENT_COMPARISON_DAYS, the venue's and ours, market by market;
   * null when the venue's records could not be read now (then the account is not known in sync).
   */
  settlements: SettlementComparison[] | null;
  inSync: boolean;
}

/** How far back settlements are compared. */
export const SETTLEMENT_COMPARISON_DAYS = 30;

/**
 * The subaccount's accounts at the live venues it has credentials for, read from the venues now
 * (Kalshi: `GET /portfolio/balance`, `GET /portfolio/positions`, `GET /portfolio/settlements`) and
 * compared with our positions and settlements. Only markets where either side holds something are
 * listed. A venue that cannot be asked makes
 * the whole answer `venue_unavailable`: a balance is never made up.
 */
export async function venueAccountsOf(db: Db, venues: VenueRegistry, subaccountId: string): Promise<VenueAccountView[]> {
  const accounts: VenueAccountView[] = [];
  for (const [column, live] of venues.live) {
    const venue = await live.forSubaccount(subaccountId);
    if (!venue) continue;
    const since = new Date(Date.now() - SETTLEMENT_COMPARISON_DAYS * 86_400_000);
    const [balance, venuePositions, settlements, ours] = await Promise.all([
      venue.balance(),
      venue.positions(),
      // A venue's settlement records come from another service at some venues (Polymarket's Data
      // API): when they cannot be read now, the rest of the account still answers, its settlements null.
      settlementComparisons(db, venue, column, subaccountId, since).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'venue_unavailable') return null;
        throw error;
      }),
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
    // Tokens of a resolved market the wallet has yet to redeem (Polymarket) are compared as its settlement, not as a position.
    const redeemable = new Set((settlements ?? []).filter((s) => s.redemption === 'redeemable').map((s) => s.venueMarketId));
    const held = venuePositions.filter((p) => !redeemable.has(p.venueMarketId));
    const unlisted = held.map((p) => p.venueMarketId).filter((ticker) => !byTicker.has(ticker));
    const catalogIds = await marketIdsOf(db, column, unlisted);
    for (const position of held) {
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
    const inSync = positions.every((p) => p.drift.isZero()) && settlements !== null && settlements.every((c) => (c.quantityDrift?.isZero() ?? true) && (c.payoutDrift?.isZero() ?? true));
    accounts.push({ venue: venueName(column), balance: new Decimal(balance), positions, settlements, inSync });
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

/**
 * The venue's settlement records of the account since `since` beside our settlements of the
 * subaccount on that venue since then: every market either side settled. A venue without records
 * of its own (no `settlementsSince`) compares none.
 */
async function settlementComparisons(db: Db, venue: LiveVenue, column: string, subaccountId: string, since: Date): Promise<SettlementComparison[]> {
  if (!venue.settlementsSince) return [];
  const [records, ours] = await Promise.all([
    venue.settlementsSince(since),
    db.$queryRaw<{ id: string; market_id: string; venue_market_id: string; result: string; yes_quantity: string; no_quantity: string; payout: string }[]>`
      SELECT s.id, s.market_id, m.venue_market_id, s.result::text, s.yes_quantity::text, s.no_quantity::text, s.payout::text
        FROM settlements s JOIN markets m ON m.id = s.market_id
       WHERE s.subaccount_id = ${subaccountId} AND m.venue = ${column} AND s.settled_at >= ${since}`,
  ]);
  const byTicker = new Map(ours.map((row) => [row.venue_market_id, row]));
  const catalogIds = await marketIdsOf(db, column, records.map((r) => r.venueMarketId).filter((ticker) => !byTicker.has(ticker)));
  const zero = new Decimal(0);
  const compared = new Set<string>();
  const comparisons: SettlementComparison[] = [];
  const compare = (ticker: string, record: VenueSettlement | undefined) => {
    compared.add(ticker);
    const our = byTicker.get(ticker);
    const result = (our?.result ?? record?.result)!;
    const ourFigures = { result: result as MarketResult, yesQuantity: new Decimal(our?.yes_quantity ?? 0), noQuantity: new Decimal(our?.no_quantity ?? 0), payout: new Decimal(our?.payout ?? 0) };
    const quantity = (value: string | null | undefined) => (record === undefined ? zero : value === null || value === undefined ? null : new Decimal(value));
    const venueFigures = { yesQuantity: quantity(record?.yesQuantity), noQuantity: quantity(record?.noQuantity), payout: new Decimal(record?.payout ?? 0) };
    const drift = settlementDrift(ourFigures, venueFigures, positionsNet(column));
    comparisons.push({
      marketId: our?.market_id ?? catalogIds.get(ticker) ?? null,
      venueMarketId: ticker,
      settlementId: our?.id ?? null,
      result,
      venueYesQuantity: venueFigures.yesQuantity,
      venueNoQuantity: venueFigures.noQuantity,
      venuePayout: venueFigures.payout,
      redemption: record?.redemption ?? null,
      ourYesQuantity: our ? ourFigures.yesQuantity : zero,
      ourNoQuantity: our ? ourFigures.noQuantity : zero,
      ourPayout: our ? ourFigures.payout : zero,
      quantityDrift: drift.quantity,
      payoutDrift: drift.payout,
    });
  };
  for (const record of records) if (!compared.has(record.venueMarketId)) compare(record.venueMarketId, record);
  for (const row of ours) if (!compared.has(row.venue_market_id)) compare(row.venue_market_id, undefined);
  return comparisons.sort((a, b) => a.venueMarketId.localeCompare(b.venueMarketId));
}
