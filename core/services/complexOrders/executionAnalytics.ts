/**
 * Predicted vs realized execution over the scope's final complex orders, in PostgreSQL: fill rates
 * and the error of the predicted average price (bps), overall and by venue, strategy and market.
 * Two queries, whatever the number of orders and fills; no fill is read: each child's order carries
 * its filled quantity and the exact Σ price × quantity of its fills (`filled_notional`, kept by a
 * trigger on fills).
 * Formulas, filters and a worked example: docs/execution-analytics.md.
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/prismaClient';
import { sqlList } from '../../db/sqlLists';
import { FINAL_COMPLEX_ORDER_STATUSES } from '../../domain/orderLifecycle';
import { invalidRequest, notFound } from '../../domain/errors';
import { daysBefore } from '../../../contract/instants';
import { BPS_DECIMALS, Decimal, formatDecimal, RATIO_DECIMALS, roundBps, roundRatio } from '../../domain/decimals';
import { requireStrategy } from '../../domain/planning';
import { venueFilterColumn, venueName, type VenueColumn, type VenueName } from '../../venues/venueModules';
import { marketVisibleTo, type Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

const DAY_MS = 86_400_000;
/** Default range: the last 30 days. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one request may cover. */
export const MAX_RANGE_DAYS = 366;

export interface ExecutionAnalyticsFilter {
  from?: Date | null;
  to?: Date | null;
  subaccountId?: string | null;
  strategy?: string | null;
  /** API spelling, e.g. `sim-kalshi`. */
  venue?: string | null;
  marketId?: string | null;
}

/** The figures of one group of complex orders (or, by venue, of (complex order, venue) pairs). */
export interface ExecutionGroupFigures {
  complexOrderCount: number;
  /** Σ quantity of the complex orders (by venue: Σ quantity of that venue's child orders). */
  intendedQuantity: string;
  /** Σ predicted_filled_quantity (by venue: Σ expected_filled_quantity of that venue's children). */
  predictedFilledQuantity: string;
  /** Σ quantity of the fills of their child orders (by venue: of that venue's children). */
  filledQuantity: string;
  /** predicted filled / intended, printed with 6 decimals ("0.727273", "1.000000"); null when nothing was intended (an empty group). */
  predictedFillRate: string | null;
  /** filled / intended, printed with 6 decimals; null when nothing was intended (an empty group). */
  fillRate: string | null;
  /** How many orders (by venue: (order, venue) pairs) had both a fill and a predicted average. */
  priceErrorCount: number;
  /** Mean, median and 90th percentile (percentile_cont) of the price error, bps printed with 2 decimals ("250.00"); null when none was measured. */
  priceErrorMeanBps: string | null;
  priceErrorP50Bps: string | null;
  priceErrorP90Bps: string | null;
}

export interface VenueExecutionFigures extends ExecutionGroupFigures {
  venue: VenueName;
  childOrderCount: number;
}

export interface StrategyExecutionFigures extends ExecutionGroupFigures {
  strategy: string;
}

export interface MarketExecutionFigures extends ExecutionGroupFigures {
  marketId: string;
}

export interface ExecutionAnalytics {
  /** The range covered (creation time of the complex orders), from inclusive, to exclusive, RFC 3339. */
  from: string;
  to: string;
  overall: ExecutionGroupFigures;
  byVenue: VenueExecutionFigures[];
  byStrategy: StrategyExecutionFigures[];
  byMarket: MarketExecutionFigures[];
}

/** One aggregated row as PostgreSQL answers it: sums and statistics as exact numeric text. */
interface GroupRow {
  complex_order_count: number;
  intended: string;
  predicted_filled: string;
  filled: string;
  measured: number;
  mean_bps: string | null;
  p50_bps: string | null;
  p90_bps: string | null;
}

interface OrderGroupRow extends GroupRow {
  dimension: 'overall' | 'strategy' | 'market';
  strategy: string | null;
  market_id: string | null;
}

interface VenueGroupRow extends GroupRow {
  venue: VenueColumn;
  child_order_count: number;
}

/**
 * percentile_cont(p) of a sorted numeric array, evaluated in numeric (percentile_cont itself works
 * in double precision, whose last digit can flip a rounding to 2 decimals): the value at the
 * 0-based position p × (n − 1), linearly interpolated between the two closest ranks. NULL for an
 * empty or NULL array.
 */
function percentileOf(sorted: Prisma.Sql, fraction: string): Prisma.Sql {
  const position = Prisma.sql`(${fraction}::numeric * (cardinality(${sorted}) - 1))`;
  return Prisma.sql`((${sorted})[floor(${position})::int + 1]
    + (${position} - floor(${position})) * ((${sorted})[ceil(${position})::int + 1] - (${sorted})[floor(${position})::int + 1]))`;
}

/** The statistics of a group's errors, from its `errors` array (sorted, NULLs left out). */
const STATISTICS = Prisma.sql`
  count(error_bps)::int AS measured,
  avg(error_bps)::text AS mean_bps,
  array_agg(error_bps ORDER BY error_bps) FILTER (WHERE error_bps IS NOT NULL) AS errors`;

const SELECT_STATISTICS = Prisma.sql`
  ${percentileOf(Prisma.sql`errors`, '0.5')}::text AS p50_bps,
  ${percentileOf(Prisma.sql`errors`, '0.9')}::text AS p90_bps`;

/**
 * Execution analytics of the scope's final complex orders (completed, canceled, failed) created in
 * [from, to): predicted vs realized fill rates and the error of the predicted average price, in bps,
 * overall and by venue, strategy and market. `to` defaults to now and `from` to 30 days before `to`;
 * the range may cover at most 366 days.
 */
export async function executionAnalytics(db: Db, scope: Scope, filter: ExecutionAnalyticsFilter): Promise<ExecutionAnalytics> {
  const { from, to } = rangeOf(filter.from ?? null, filter.to ?? null);
  const strategy = filter.strategy ?? null;
  if (strategy !== null) requireStrategy(strategy);
  const venue = venueFilterColumn(filter.venue);
  const subaccountId = filter.subaccountId ?? null;
  if (subaccountId !== null) await getSubaccount(db, scope, subaccountId);
  const marketId = filter.marketId ?? null;
  if (marketId !== null) {
    const market = await db.market.findUnique({ where: { id: marketId }, select: { environment: true, workspaceId: true } });
    if (!market || !marketVisibleTo(market, scope)) throw notFound('market', marketId);
  }

  // The complex orders that count: the scope's, final, created in [from, to), and the filters.
  // s = +1 for a buy, −1 for a sell: a positive error is always worse than predicted.
  const orders = Prisma.sql`
    SELECT c.id, c.market_id, c.strategy, c.quantity, c.predicted_filled_quantity, c.predicted_average_price,
           CASE c.action WHEN 'buy' THEN 1 ELSE -1 END AS s
      FROM complex_orders c
     WHERE c.workspace_id = ${scope.workspaceId} AND c.environment = ${scope.environment}::"Environment"
       AND c.status IN ${sqlList(FINAL_COMPLEX_ORDER_STATUSES)}
       AND c.created_at >= ${from.toISOString()}::timestamptz AND c.created_at < ${to.toISOString()}::timestamptz
       AND (${subaccountId}::text IS NULL OR c.subaccount_id = ${subaccountId})
       AND (${strategy}::text IS NULL OR c.strategy = ${strategy})
       AND (${marketId}::text IS NULL OR c.market_id = ${marketId})
       AND (${venue}::text IS NULL
            OR EXISTS (SELECT 1 FROM child_orders v WHERE v.complex_order_id = c.id AND v.venue = ${venue}::text))`;

  const [orderGroups, venueGroups] = await Promise.all([
    // Overall, by strategy and by market: one error per complex order.
    db.$queryRaw<OrderGroupRow[]>`
      WITH co AS (${orders}),
      realized AS (
        SELECT ch.complex_order_id, sum(o.filled_quantity) AS filled, sum(o.filled_notional) AS notional
          FROM co JOIN child_orders ch ON ch.complex_order_id = co.id JOIN orders o ON o.id = ch.order_id
         GROUP BY ch.complex_order_id),
      measured AS (
        SELECT co.strategy, co.market_id, co.quantity, co.predicted_filled_quantity, coalesce(r.filled, 0) AS filled,
               CASE WHEN r.filled > 0 AND co.predicted_average_price > 0
                    THEN co.s * (r.notional - co.predicted_average_price * r.filled) * 10000 / (co.predicted_average_price * r.filled)
               END AS error_bps
          FROM co LEFT JOIN realized r ON r.complex_order_id = co.id),
      grouped AS (
        SELECT CASE WHEN GROUPING(strategy) = 0 THEN 'strategy' WHEN GROUPING(market_id) = 0 THEN 'market' ELSE 'overall' END AS dimension,
               strategy, market_id, count(*)::int AS complex_order_count,
               coalesce(sum(quantity), 0)::text AS intended,
               coalesce(sum(predicted_filled_quantity), 0)::text AS predicted_filled,
               coalesce(sum(filled), 0)::text AS filled,
               ${STATISTICS}
          FROM measured
         GROUP BY GROUPING SETS ((), (strategy), (market_id)))
      SELECT dimension, strategy, market_id, complex_order_count, intended, predicted_filled, filled, measured, mean_bps,
             ${SELECT_STATISTICS}
        FROM grouped
       ORDER BY dimension, strategy, market_id`,
    // By venue: one error per (complex order, venue), against that venue's children's expectation.
    db.$queryRaw<VenueGroupRow[]>`
      WITH co AS (${orders}),
      planned AS (
        SELECT ch.complex_order_id, ch.venue, co.s, count(*)::int AS children, sum(ch.quantity) AS ordered,
               sum(ch.expected_filled_quantity) AS expected_filled, sum(ch.expected_notional) AS expected_notional
          FROM co JOIN child_orders ch ON ch.complex_order_id = co.id
         WHERE ${venue}::text IS NULL OR ch.venue = ${venue}::text
         GROUP BY ch.complex_order_id, ch.venue, co.s),
      realized AS (
        SELECT ch.complex_order_id, ch.venue, sum(o.filled_quantity) AS filled, sum(o.filled_notional) AS notional
          FROM co JOIN child_orders ch ON ch.complex_order_id = co.id JOIN orders o ON o.id = ch.order_id
         WHERE ${venue}::text IS NULL OR ch.venue = ${venue}::text
         GROUP BY ch.complex_order_id, ch.venue),
      measured AS (
        SELECT p.venue, p.children, p.ordered, p.expected_filled, coalesce(r.filled, 0) AS filled,
               CASE WHEN r.filled > 0 AND p.expected_filled > 0 AND p.expected_notional > 0
                    THEN p.s * (r.notional * p.expected_filled - p.expected_notional * r.filled) * 10000 / (p.expected_notional * r.filled)
               END AS error_bps
          FROM planned p LEFT JOIN realized r ON r.complex_order_id = p.complex_order_id AND r.venue = p.venue),
      grouped AS (
        SELECT venue, count(*)::int AS complex_order_count, sum(children)::int AS child_order_count,
               sum(ordered)::text AS intended, sum(expected_filled)::text AS predicted_filled, sum(filled)::text AS filled,
               ${STATISTICS}
          FROM measured
         GROUP BY venue)
      SELECT venue, complex_order_count, child_order_count, intended, predicted_filled, filled, measured, mean_bps,
             ${SELECT_STATISTICS}
        FROM grouped
       ORDER BY venue`,
  ]);

  const overall = orderGroups.find((row) => row.dimension === 'overall');
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    overall: overall ? figuresOf(overall) : figuresOf(EMPTY),
    byVenue: venueGroups
      .map((row) => ({ venue: venueName(row.venue), childOrderCount: row.child_order_count, ...figuresOf(row) }))
      .sort((a, b) => a.venue.localeCompare(b.venue)),
    byStrategy: orderGroups
      .filter((row) => row.dimension === 'strategy')
      .map((row) => ({ strategy: row.strategy!, ...figuresOf(row) }))
      .sort((a, b) => a.strategy.localeCompare(b.strategy)),
    byMarket: orderGroups
      .filter((row) => row.dimension === 'market')
      .map((row) => ({ marketId: row.market_id!, ...figuresOf(row) }))
      .sort((a, b) => a.marketId.localeCompare(b.marketId)),
  };
}

const EMPTY: GroupRow = {
  complex_order_count: 0, intended: '0', predicted_filled: '0', filled: '0', measured: 0, mean_bps: null, p50_bps: null, p90_bps: null,
};

function figuresOf(row: GroupRow): ExecutionGroupFigures {
  const intended = new Decimal(row.intended);
  return {
    complexOrderCount: row.complex_order_count,
    intendedQuantity: formatDecimal(intended),
    predictedFilledQuantity: formatDecimal(row.predicted_filled),
    filledQuantity: formatDecimal(row.filled),
    predictedFillRate: intended.isZero() ? null : fixed(roundRatio(new Decimal(row.predicted_filled).div(intended)), RATIO_DECIMALS),
    fillRate: intended.isZero() ? null : fixed(roundRatio(new Decimal(row.filled).div(intended)), RATIO_DECIMALS),
    priceErrorCount: row.measured,
    priceErrorMeanBps: roundedBps(row.mean_bps),
    priceErrorP50Bps: roundedBps(row.p50_bps),
    priceErrorP90Bps: roundedBps(row.p90_bps),
  };
}

/** Half away from zero to 2 decimals, as every bps figure of the planner and the TCA, printed with exactly 2. */
function roundedBps(value: string | null): string | null {
  return value === null ? null : fixed(roundBps(value), BPS_DECIMALS);
}

/** A rounded figure printed with exactly `places` decimals ("1.000000", "-250.00"); never "-0.00". */
function fixed(rounded: Decimal, places: number): string {
  return (rounded.isZero() ? new Decimal(0) : rounded).toFixed(places);
}

/** [from, to): to defaults to now, from to 30 days before to; from < to and at most 366 days. */
function rangeOf(fromInput: Date | null, toInput: Date | null): { from: Date; to: Date } {
  for (const [param, value] of [['from', fromInput], ['to', toInput]] as const) {
    if (value !== null && (!(value instanceof Date) || Number.isNaN(value.getTime()))) {
      throw invalidRequest(param, `${param} must be an RFC 3339 time such as "2026-11-22T00:00:00Z".`);
    }
  }
  const to = toInput ?? new Date();
  const from = fromInput ?? daysBefore(to, DEFAULT_RANGE_DAYS);
  if (from.getTime() >= to.getTime()) throw invalidRequest('from', 'from must be earlier than to.');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw invalidRequest('from', `The range covers at most ${MAX_RANGE_DAYS} days.`);
  }
  return { from, to };
}
