/**
 * The API's aggregations over 1,000,000 fills, timed through the same service functions the
 * resolvers call, warm, as the median and worst of 20 runs each (goals: bench/goals.ts):
 *
 *  - risk stats over positions, no working order (riskStats: positions, working orders, limits);
 *  - the one-year daily P&L history (pnlHistory: the `daily_pnl` rollup);
 *  - execution analytics over the 1,000,000 fills (executionAnalytics, behind
 *    GET /v1/analytics/execution): it joins final complex orders to their child orders and those
 *    children's fills, so every seeded fill belongs to a child order of a completed complex order;
 *  - risk stats again once 10,000 working orders (open or partially filled) were added.
 *
 * Each timed result is checked against the seed, so that a figure cannot come from a query that
 * skipped the rows: execution analytics must count every complex order and every fill's quantity,
 * the P&L history's fill counts must add up to the fills of its days, and the second risk stats must hold the working
 * buys' notional. A mismatch fails the benchmark.
 *
 * Seed (in SQL, on a fresh PostgreSQL database): 10 subaccounts; 2,500 completed complex orders, one
 * every ~3.5 hours over 365 days, on the simulated markets, each with 4 child orders sent as 4 filled
 * orders (10,000 orders); 100 fills of 1 contract per order (1,000,000 fills), on the complex
 * order's day; the daily rollup and positions those fills imply.
 */
import { performance } from 'node:perf_hooks';
import { createPrismaClient } from '../core/db/prismaClient';
import { Decimal } from '../core/domain/decimals';
import { createLogger } from '../core/support/logger';
import { executionAnalytics } from '../core/services/complexOrders/executionAnalytics';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { pnlHistory, riskStats } from '../core/services/risk/riskAnalytics';
import { openVenues } from '../core/venues/registry';
import { recordExecution } from '../core/services/orders/executions';
import { GOALS, goalMet, goalText, type GoalId, type GoalResult } from './goals';
import { busyNote, cpuProbe, createBenchDatabase, postgresBackendPids, runAsBenchmarkMain } from './support';

const COMPLEX_ORDERS = 2_500;
const CHILDREN_PER_COMPLEX_ORDER = 4;
const ORDERS = COMPLEX_ORDERS * CHILDREN_PER_COMPLEX_ORDER;
const FILLS_PER_ORDER = 100;
const FILLS = ORDERS * FILLS_PER_ORDER;
const WORKING_ORDERS = 10_000;
const DAYS = 365;
const RUNS = 20;
const DAY_MS = 86_400_000;

export interface AggregationTiming {
  figure: string;
  goal: { id: GoalId; text: string; met: boolean };
  median: number;
  max: number;
  /** Cores other processes used while the runs were timed. */
  otherCores?: number;
  /** What the result held, checked against the seed. */
  touched: string;
}

export interface AggregationReport {
  fills: number;
  seedSeconds: number;
  timings: AggregationTiming[];
}

/** Median and worst of RUNS warm runs, and the cores other processes used meanwhile (this process and the database's backends are ours). */
async function time(database: string, fn: () => Promise<unknown>): Promise<{ median: number; max: number; otherCores?: number }> {
  await fn();
  await fn(); // warm: plans cached, connections open
  const probe = cpuProbe(() => ({ 'postgres backends': postgresBackendPids(database) }));
  probe.start();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  probe.end();
  samples.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const otherCores = probe.result(RUNS)?.cores['other processes'];
  return { median: round(samples[Math.floor(samples.length / 2)]!), max: round(samples[samples.length - 1]!), otherCores };
}

function timing(id: GoalId, measured: { median: number; max: number; otherCores?: number }, touched: string): AggregationTiming {
  const goal = GOALS[id];
  return { figure: goal.figure, goal: { id, text: goalText(goal), met: goalMet(goal, { medianMs: measured.median }) }, ...measured, touched };
}

function expectEqual(what: string, actual: string | number, expected: string | number) {
  if (!new Decimal(actual).equals(expected)) throw new Error(`aggregations: ${what} is ${actual}, the seed has ${expected}: the query did not touch the seeded rows`);
}

export async function runAggregationBench(): Promise<AggregationReport> {
  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  try {
    await seedSimulatedMarkets(db);
    const seedStarted = performance.now();
    const ws = 'ws_benchaggregation0000000000';
    const pad = (expr: string, width: number) => `lpad((${expr})::text, ${width}, '0')`;
    await db.$executeRawUnsafe(`
      INSERT INTO workspaces (id, name) VALUES ('${ws}', 'aggregation bench');
      INSERT INTO subaccounts (id, workspace_id, environment, name, cash_balance)
        SELECT 'sa_bench' || ${pad('g', 18)}, '${ws}', 'test', 'bench ' || g, 1000000 FROM generate_series(0, 9) g;
      INSERT INTO risk_limits (subaccount_id, max_gross_exposure, max_open_orders)
        SELECT id, 100000, 500 FROM subaccounts WHERE workspace_id = '${ws}';
      CREATE TABLE bench_markets AS
        SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, venue FROM markets WHERE environment = 'test';
      INSERT INTO complex_orders (id, workspace_id, environment, subaccount_id, market_id, side, action, strategy, quantity, limit_price,
                                  status, prediction, arrival_mid, predicted_average_price, predicted_filled_quantity, predicted_fees,
                                  completed_at, created_at, updated_at)
        SELECT 'cxo_bench' || ${pad('c', 17)}, '${ws}', 'test', 'sa_bench' || ${pad('c % 10', 18)}, m.id,
               CASE WHEN c % 3 = 0 THEN 'no' ELSE 'yes' END::"OrderSide", CASE WHEN c % 4 = 0 THEN 'sell' ELSE 'buy' END::"OrderAction",
               (ARRAY['sweep', 'passive', 'twap'])[c % 3 + 1], ${CHILDREN_PER_COMPLEX_ORDER * FILLS_PER_ORDER}, 0.6,
               'completed', '{}'::jsonb, 0.5, 0.5 + (c % 7) / 100.0, ${CHILDREN_PER_COMPLEX_ORDER * FILLS_PER_ORDER * 0.95}, 1.2,
               t.at, t.at, t.at
          FROM generate_series(0, ${COMPLEX_ORDERS - 1}) c
          JOIN bench_markets m ON m.n = c % (SELECT count(*) FROM bench_markets)
          CROSS JOIN LATERAL (SELECT now() - interval '1 hour' - (c * ${DAYS * DAY_MS} / ${COMPLEX_ORDERS}) * interval '1 millisecond' AS at) t;
      INSERT INTO orders (id, workspace_id, environment, subaccount_id, market_id, venue, complex_order_id, side, action, type, time_in_force,
                          price, quantity, filled_quantity, status, client_order_id, created_at, updated_at)
        SELECT 'ord_bench' || ${pad('g', 17)}, '${ws}', 'test', c.subaccount_id, c.market_id, m.venue, c.id, c.side, c.action, 'limit', 'ioc',
               0.6, ${FILLS_PER_ORDER}, ${FILLS_PER_ORDER}, 'filled', 'chd_bench' || ${pad('g', 17)}, c.created_at, c.created_at
          FROM generate_series(0, ${ORDERS - 1}) g
          JOIN complex_orders c ON c.id = 'cxo_bench' || ${pad(`g / ${CHILDREN_PER_COMPLEX_ORDER}`, 17)}
          JOIN markets m ON m.id = c.market_id;
      INSERT INTO child_orders (id, complex_order_id, order_id, market_id, venue, price, quantity, time_in_force, status,
                                expected_filled_quantity, expected_notional, expected_fees, scheduled_at, sent_at, created_at)
        SELECT o.client_order_id, o.complex_order_id, o.id, o.market_id, o.venue, 0.6, o.quantity, 'ioc', 'sent',
               o.quantity * 0.95, o.quantity * 0.95 * 0.5, 0.3, o.created_at, o.created_at, o.created_at
          FROM orders o WHERE o.workspace_id = '${ws}';
      INSERT INTO fills (id, workspace_id, environment, subaccount_id, order_id, market_id, venue, venue_fill_id, side, action,
                         price, quantity, fee, realized_pnl, is_taker, created_at)
        SELECT 'fill_bench' || ${pad('g', 16)}, '${ws}', 'test', o.subaccount_id, o.id, o.market_id, o.venue,
               'bench-' || g, o.side, o.action, 0.4 + (g % 20) / 100.0, 1, 0.02,
               CASE WHEN o.action = 'sell' THEN ((g % 20) - 10) / 100.0 - 0.02 ELSE -0.02 END, true,
               o.created_at + (g / ${ORDERS}) * interval '1 second'
          FROM generate_series(0, ${FILLS - 1}) g
          JOIN orders o ON o.id = 'ord_bench' || ${pad(`g % ${ORDERS}`, 17)};
      INSERT INTO daily_pnl (subaccount_id, day, workspace_id, environment, realized_pnl, fees, fill_count, volume)
        SELECT subaccount_id, (created_at AT TIME ZONE 'UTC')::date, '${ws}', 'test', sum(realized_pnl), sum(fee), count(*), sum(price * quantity)
          FROM fills WHERE workspace_id = '${ws}' GROUP BY 1, 2;
      INSERT INTO positions (subaccount_id, market_id, side, quantity, cost_basis, realized_pnl)
        SELECT subaccount_id, market_id, side, sum(CASE WHEN action = 'buy' THEN quantity ELSE -quantity END),
               0.5 * sum(CASE WHEN action = 'buy' THEN quantity ELSE -quantity END), sum(realized_pnl)
          FROM fills WHERE workspace_id = '${ws}' GROUP BY 1, 2, 3
        HAVING sum(CASE WHEN action = 'buy' THEN quantity ELSE -quantity END) > 0;
      ANALYZE;
    `);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const venues = await openVenues(db, createLogger('silent', 'bench'), (orderId, fills) => recordExecution(db, orderId, { fills }));
    const scope = { workspaceId: ws, environment: 'test' as const };
    const timings: AggregationTiming[] = [];
    try {
      // 1. Risk stats while no order works: positions and limits.
      let stats = await riskStats(db, venues, scope, {});
      expectEqual('the open-order notional with no working order', stats.openOrderNotional.toString(), 0);
      timings.push(timing('riskStatsPositions', await time(database.name, () => riskStats(db, venues, scope, {})), `${stats.byMarket.length} markets, 0 working orders`));

      // 2. The one-year daily P&L history, from the rollup: its fill counts must add up to the fills of those days.
      const to = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - (DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
      const [{ fills: fillsInRange }] = await db.$queryRawUnsafe<{ fills: number }[]>(
        `SELECT count(*)::int AS fills FROM fills
          WHERE workspace_id = '${ws}' AND (created_at AT TIME ZONE 'UTC')::date BETWEEN '${from}'::date AND '${to}'::date`,
      );
      const history = await pnlHistory(db, scope, { from, to });
      const historyFills = history.reduce((sum, day) => sum + day.fills, 0);
      expectEqual("the P&L history's fill count", historyFills, fillsInRange!);
      timings.push(timing('pnlHistory', await time(database.name, () => pnlHistory(db, scope, { from, to })), `${history.length} days, ${historyFills} fills`));

      // 3. Execution analytics over every complex order of the year, hence every fill.
      const range = { from: new Date(Date.now() - DAYS * DAY_MS), to: new Date() };
      const analytics = await executionAnalytics(db, scope, range);
      expectEqual('execution analytics\' complex order count', analytics.overall.complexOrderCount, COMPLEX_ORDERS);
      expectEqual('execution analytics\' filled quantity (1 contract a fill)', analytics.overall.filledQuantity, FILLS);
      timings.push(
        timing(
          'executionAnalytics',
          await time(database.name, () => executionAnalytics(db, scope, range)),
          `${analytics.overall.complexOrderCount} complex orders, ${ORDERS} child orders, filled quantity ${analytics.overall.filledQuantity} (${FILLS} fills of 1)`,
        ),
      );

      // 4. Risk stats with 10,000 working orders: open, every 5th partially filled (3 of 10), one every 8 s over the last day.
      await db.$executeRawUnsafe(`
        INSERT INTO orders (id, workspace_id, environment, subaccount_id, market_id, venue, side, action, type, time_in_force,
                            price, quantity, filled_quantity, status, client_order_id, created_at, updated_at)
          SELECT 'ord_benchw' || ${pad('g', 16)}, '${ws}', 'test', 'sa_bench' || ${pad('g % 10', 18)}, m.id, m.venue,
                 CASE WHEN g % 3 = 0 THEN 'no' ELSE 'yes' END::"OrderSide", CASE WHEN g % 4 = 0 THEN 'sell' ELSE 'buy' END::"OrderAction",
                 'limit', 'gtc', 0.05 + (g % 90) / 100.0, 10, CASE WHEN g % 5 = 0 THEN 3 ELSE 0 END,
                 CASE WHEN g % 5 = 0 THEN 'partially_filled' ELSE 'open' END::"OrderStatus", 'benchw-' || g,
                 now() - g * interval '8 seconds', now() - g * interval '8 seconds'
            FROM generate_series(0, ${WORKING_ORDERS - 1}) g JOIN bench_markets m ON m.n = g % (SELECT count(*) FROM bench_markets);
        ANALYZE orders;
      `);
      const [{ notional }] = await db.$queryRawUnsafe<{ notional: string }[]>(
        `SELECT sum((quantity - filled_quantity) * price)::text AS notional FROM orders
          WHERE workspace_id = '${ws}' AND status IN ('open', 'partially_filled') AND action = 'buy'`,
      );
      stats = await riskStats(db, venues, scope, {});
      expectEqual('risk stats\' open-order notional (working buys)', stats.openOrderNotional.toString(), notional!);
      timings.push(
        timing('riskStatsWorkingOrders', await time(database.name, () => riskStats(db, venues, scope, {})), `${WORKING_ORDERS} working orders, open-order notional ${notional}`),
      );
    } finally {
      venues.close();
    }
    return { fills: FILLS, seedSeconds, timings };
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

export function formatAggregationReport(r: AggregationReport): string {
  return [
    `  ${r.fills.toLocaleString('en-US')} fills seeded in ${r.seedSeconds} s`,
    ...r.timings.flatMap((t) => {
      const note = busyNote(t.otherCores, t.figure);
      return [
        `  ${t.figure}: median ${t.median} ms, worst ${t.max} ms (goal ${t.goal.text}: ${t.goal.met ? 'met' : 'MISSED'}); ${t.touched}`,
        ...(note ? [`    ${note}`] : []),
      ];
    }),
  ].join('\n');
}

/** The summary's rows. */
export function aggregationGoalResults(r: AggregationReport): GoalResult[] {
  return r.timings.map((t) => ({ id: t.goal.id, measured: `median ${t.median} ms, worst ${t.max} ms`, met: t.goal.met, otherCores: t.otherCores }));
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    process.stdout.write(`${formatAggregationReport(await runAggregationBench())}\n`);
    return 0;
  });
}
