import { Decimal, roundShare } from '../../domain/decimals';
import type { Db } from '../../db/prismaClient';
import type { RiskLimits } from '../../generated/prisma/client';
import { concentration, marketRisk, type MarketRisk } from '../../domain/binaryRisk';
import { limitUtilisation } from '../../domain/limitUsage';
import type { RiskLimitValues } from '../../domain/preTradeRisk';
import { invalidRequest } from '../../domain/errors';
import { DATE_RULE, daysBefore, isStorableInstant } from '../../../contract/instants';
import { venueName, type VenueColumn } from '../../venues/venueModules';
import type { VenueRegistry } from '../../venues/venue';
import { loadLimitUsage } from './limitUsage';
import { markPrice } from './positions';
import type { Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 3660;

/**
 * Realized P&L per UTC day, from the daily rollup (maintained with every fill), with every day of
 * the range present (zero where nothing happened) and the running total.
 */
export async function pnlHistory(db: Db, scope: Scope, filter: { subaccountId?: string | null; from?: string | null; to?: string | null }) {
  if (filter.subaccountId != null) await getSubaccount(db, scope, filter.subaccountId);
  const to = parseDay('to', filter.to) ?? new Date(new Date().toISOString().slice(0, 10));
  const from = parseDay('from', filter.from) ?? daysBefore(to, 29);
  if (from > to) throw invalidRequest('from', 'from must not be later than to.');
  if ((to.getTime() - from.getTime()) / 86_400_000 >= MAX_DAYS) throw invalidRequest('from', `A history covers at most ${MAX_DAYS} days.`);
  const rows = await db.$queryRaw<{ day: string; realized_pnl: string; fees: string; fills: number; volume: string }[]>`
    SELECT to_char(d, 'YYYY-MM-DD') AS day,
           coalesce(sum(p.realized_pnl), 0)::text AS realized_pnl,
           coalesce(sum(p.fees), 0)::text AS fees,
           coalesce(sum(p.fill_count), 0)::int AS fills,
           coalesce(sum(p.volume), 0)::text AS volume
      FROM generate_series(${from.toISOString().slice(0, 10)}::date, ${to.toISOString().slice(0, 10)}::date, interval '1 day') AS d
      LEFT JOIN daily_pnl p
        ON p.day = d::date AND p.workspace_id = ${scope.workspaceId} AND p.environment = ${scope.environment}::"Environment"
       AND (${filter.subaccountId ?? null}::text IS NULL OR p.subaccount_id = ${filter.subaccountId ?? null})
     GROUP BY d ORDER BY d`;
  let cumulative = new Decimal(0);
  return rows.map((row) => {
    cumulative = cumulative.add(row.realized_pnl);
    return {
      date: row.day,
      realizedPnl: new Decimal(row.realized_pnl),
      cumulativeRealizedPnl: cumulative,
      fees: new Decimal(row.fees),
      fills: row.fills,
      volume: new Decimal(row.volume),
    };
  });
}

function parseDay(param: string, value: string | null | undefined): Date | undefined {
  if (value == null) return undefined;
  const date = DAY.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw invalidRequest(param, `${param} must be a UTC date such as 2026-11-22.`);
  }
  if (!isStorableInstant(date)) throw invalidRequest(param, `${param} ${DATE_RULE}.`);
  return date;
}

interface MarketRow extends MarketRisk {
  marketId: string;
  venue: VenueColumn;
  yesQuantity: Decimal;
  noQuantity: Decimal;
  realizedPnl: Decimal;
  openOrderNotional: Decimal;
}

/**
 * Portfolio risk of the scope (or one subaccount): exposure by market and by venue, concentration,
 * open-order notional, realized and unrealized P&L, the worst case of the binary payoffs, and how
 * much of each risk limit every subaccount uses. Reads positions and working orders, never fills.
 */
export async function riskStats(db: Db, venues: VenueRegistry, scope: Scope, filter: { subaccountId?: string | null }) {
  if (filter.subaccountId != null) await getSubaccount(db, scope, filter.subaccountId);
  const subaccountFilter = filter.subaccountId ?? null;
  const [positions, openOrders, subaccounts, workspace] = await Promise.all([
    db.position.findMany({
      where: {
        subaccount: { workspaceId: scope.workspaceId, environment: scope.environment, status: 'active' },
        ...(subaccountFilter ? { subaccountId: subaccountFilter } : {}),
      },
      include: { market: { select: { id: true, venue: true, venueMarketId: true, status: true } } },
    }),
    // Working orders from their totals (working_order_totals, kept by a trigger on orders): the cost
    // does not grow with the number of working orders.
    db.$queryRaw<{ market_id: string; action: 'buy' | 'sell'; notional: string }[]>`
      SELECT t.market_id, t.action, sum(t.notional)::text AS notional
        FROM working_order_totals t JOIN subaccounts s ON s.id = t.subaccount_id
       WHERE s.workspace_id = ${scope.workspaceId} AND s.environment = ${scope.environment}::"Environment"
         AND (${subaccountFilter}::text IS NULL OR t.subaccount_id = ${subaccountFilter}) AND t.orders > 0
       GROUP BY t.market_id, t.action`,
    db.subaccount.findMany({
      where: {
        workspaceId: scope.workspaceId, environment: scope.environment, status: 'active',
        ...(subaccountFilter ? { id: subaccountFilter } : {}),
      },
      include: { riskLimits: true },
      orderBy: { id: 'asc' },
    }),
    db.workspace.findUniqueOrThrow({ where: { id: scope.workspaceId }, select: { tradingHalted: true } }),
  ]);

  // Positions and open orders per market.
  const byMarket = new Map<string, { venue: VenueColumn; venueMarketId: string; yes?: (typeof positions)[number]; no?: (typeof positions)[number]; realized: Decimal; openNotional: Decimal }>();
  const holdingOf = (marketId: string, venue: VenueColumn, venueMarketId: string) => {
    let entry = byMarket.get(marketId);
    if (!entry) byMarket.set(marketId, (entry = { venue, venueMarketId, realized: new Decimal(0), openNotional: new Decimal(0) }));
    return entry;
  };
  // Aggregated over subaccounts: the same market held by two subaccounts is one exposure.
  const aggregate = new Map<string, { yesQ: Decimal; yesCost: Decimal; noQ: Decimal; noCost: Decimal }>();
  // A settled market is no longer a risk: it leaves the breakdown, and its realized P&L (its
  // settlement's included) stays in the total.
  let settledRealized = new Decimal(0);
  for (const p of positions) {
    if (p.market.status === 'settled') {
      settledRealized = settledRealized.add(p.realizedPnl.toString());
      continue;
    }
    const entry = holdingOf(p.marketId, p.market.venue, p.market.venueMarketId);
    entry.realized = entry.realized.add(p.realizedPnl.toString());
    const a = aggregate.get(p.marketId) ?? { yesQ: new Decimal(0), yesCost: new Decimal(0), noQ: new Decimal(0), noCost: new Decimal(0) };
    const quantity = new Decimal(p.quantity.toString());
    const cost = new Decimal(p.costBasis.toString());
    if (p.side === 'yes') {
      a.yesQ = a.yesQ.add(quantity);
      a.yesCost = a.yesCost.add(cost);
    } else {
      a.noQ = a.noQ.add(quantity);
      a.noCost = a.noCost.add(cost);
    }
    aggregate.set(p.marketId, a);
  }
  const marketsOfOrders = [...new Set(openOrders.map((o) => o.market_id).filter((id) => !byMarket.has(id)))];
  if (marketsOfOrders.length) {
    const listed = await db.market.findMany({ where: { id: { in: marketsOfOrders } }, select: { id: true, venue: true, venueMarketId: true } });
    for (const m of listed) holdingOf(m.id, m.venue, m.venueMarketId);
  }
  for (const o of openOrders) {
    const entry = byMarket.get(o.market_id)!;
    if (o.action === 'buy') entry.openNotional = entry.openNotional.add(o.notional);
  }

  const markets: MarketRow[] = await Promise.all(
    [...byMarket.entries()].map(async ([marketId, entry]) => {
      const a = aggregate.get(marketId) ?? { yesQ: new Decimal(0), yesCost: new Decimal(0), noQ: new Decimal(0), noCost: new Decimal(0) };
      const yesMid = await markPrice(venues, { venue: entry.venue, venueMarketId: entry.venueMarketId }, 'yes');
      const risk = marketRisk({
        yesQuantity: a.yesQ,
        yesCost: a.yesCost,
        noQuantity: a.noQ,
        noCost: a.noCost,
        yesMid,
      });
      return { marketId, venue: entry.venue, yesQuantity: a.yesQ, noQuantity: a.noQ, realizedPnl: entry.realized, openOrderNotional: entry.openNotional, ...risk };
    }),
  );
  markets.sort((x, y) => y.grossExposure.comparedTo(x.grossExposure) || x.marketId.localeCompare(y.marketId));

  const sum = (rows: MarketRow[], pick: (r: MarketRow) => Decimal) => rows.reduce((acc, r) => acc.add(pick(r)), new Decimal(0));
  const venuesSeen = [...new Set(markets.map((m) => m.venue))].sort();
  const byVenue = venuesSeen.map((venue) => {
    const rows = markets.filter((m) => m.venue === venue);
    return {
      venue: venueName(venue),
      grossExposure: sum(rows, (r) => r.grossExposure),
      netExposure: sum(rows, (r) => r.netExposure),
      marketValue: sum(rows, (r) => r.marketValue),
      openOrderNotional: sum(rows, (r) => r.openOrderNotional),
      unrealizedPnl: sum(rows, (r) => r.unrealizedPnl),
      worstCaseLoss: sum(rows, (r) => r.worstCaseLoss),
    };
  });
  const spread = concentration(markets.map((m) => m.grossExposure));

  const usage = await loadLimitUsage(db, subaccounts.map((s) => s.id));
  const limitUse = subaccounts.map((s) => ({ subaccountId: s.id, limits: limitUtilisation(limitValuesOf(s.riskLimits), usage.get(s.id)!) }));

  return {
    tradingHalted: workspace.tradingHalted,
    grossExposure: sum(markets, (r) => r.grossExposure),
    netExposure: sum(markets, (r) => r.netExposure),
    marketValue: sum(markets, (r) => r.marketValue),
    openOrderNotional: sum(markets, (r) => r.openOrderNotional),
    realizedPnl: sum(markets, (r) => r.realizedPnl).add(settledRealized),
    unrealizedPnl: sum(markets, (r) => r.unrealizedPnl),
    worstCaseLoss: sum(markets, (r) => r.worstCaseLoss),
    largestMarketShare: roundShare(spread.largestShare),
    herfindahl: roundShare(spread.herfindahl),
    byVenue,
    byMarket: markets,
    limits: limitUse,
  };
}

/** A subaccount's limits as the pre-trade check reads them; no row, no limits. */
function limitValuesOf(limits: RiskLimits | null): RiskLimitValues {
  const decimal = (value: { toString(): string } | null | undefined) => (value == null ? null : new Decimal(value.toString()));
  return {
    maxOrderNotional: decimal(limits?.maxOrderNotional),
    maxPositionPerMarket: decimal(limits?.maxPositionPerMarket),
    maxGrossExposure: decimal(limits?.maxGrossExposure),
    maxDailyRealizedLoss: decimal(limits?.maxDailyRealizedLoss),
    maxOpenOrders: limits?.maxOpenOrders ?? null,
    maxOrdersPerMinute: limits?.maxOrdersPerMinute ?? null,
  };
}

export type RiskStats = Awaited<ReturnType<typeof riskStats>>;
export type PnlDay = Awaited<ReturnType<typeof pnlHistory>>[number];
