/**
 * Risk statistics and a one-year daily P&L history over 1,000,000 fills (issue goal: at most
 * 100 ms each). Seeds a fresh PostgreSQL database in SQL: 10 subaccounts, 10,000 orders over the
 * simulated markets, 1,000,000 fills spread over 365 days, and the daily rollup and positions
 * those fills imply. Then times the same service functions the API's resolvers call, warm, as the
 * median and worst of 20 runs each.
 */
import { performance } from 'node:perf_hooks';
import { createPrismaClient } from '../core/db/prismaClient';
import { createLogger } from '../core/support/logger';
import { seedSimulatedMarkets } from '../core/services/marketCatalog';
import { pnlHistory, riskStats } from '../core/services/riskAnalytics';
import { openVenues } from '../core/venues/registry';
import { recordExecution } from '../core/services/executions';
import { createBenchDatabase, runAsBenchmarkMain } from './support';

const FILLS = Number(process.env.BENCH_FILLS ?? 1_000_000);
const ORDERS = 10_000;
const RUNS = 20;

export interface AggregationReport {
  fills: number;
  seedSeconds: number;
  riskStatsMs: { median: number; max: number };
  pnlHistoryMs: { median: number; max: number; days: number };
}

async function time(fn: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  await fn();
  await fn(); // warm: plans cached, connections open
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { median: round(samples[Math.floor(samples.length / 2)]), max: round(samples[samples.length - 1]) };
}

export async function runAggregationBench(): Promise<AggregationReport> {
  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  try {
    await seedSimulatedMarkets(db);
    const seedStarted = performance.now();
    const ws = 'ws_benchaggregation0000000000';
    await db.$executeRawUnsafe(`
      INSERT INTO workspaces (id, name) VALUES ('${ws}', 'aggregation bench');
      INSERT INTO subaccounts (id, workspace_id, environment, name, cash_balance)
        SELECT 'sa_bench' || lpad(g::text, 18, '0'), '${ws}', 'test', 'bench ' || g, 1000000 FROM generate_series(0, 9) g;
      INSERT INTO risk_limits (subaccount_id, max_gross_exposure, max_open_orders)
        SELECT id, 100000, 500 FROM subaccounts WHERE workspace_id = '${ws}';
      CREATE TEMP TABLE bench_markets AS
        SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, venue FROM markets WHERE environment = 'test';
      INSERT INTO orders (id, workspace_id, environment, subaccount_id, market_id, venue, side, action, type, time_in_force,
                          price, quantity, filled_quantity, status, client_order_id, created_at, updated_at)
        SELECT 'ord_bench' || lpad(g::text, 17, '0'), '${ws}', 'test', 'sa_bench' || lpad((g % 10)::text, 18, '0'),
               m.id, m.venue, CASE WHEN g % 3 = 0 THEN 'no' ELSE 'yes' END::"OrderSide",
               CASE WHEN g % 4 = 0 THEN 'sell' ELSE 'buy' END::"OrderAction", 'limit', 'gtc',
               0.5, ${FILLS / ORDERS}, ${FILLS / ORDERS}, 'filled', 'bench-' || g, now(), now()
          FROM generate_series(0, ${ORDERS - 1}) g JOIN bench_markets m ON m.n = g % (SELECT count(*) FROM bench_markets);
      INSERT INTO fills (id, workspace_id, environment, subaccount_id, order_id, market_id, venue, venue_fill_id, side, action,
                         price, quantity, fee, realized_pnl, is_taker, created_at)
        SELECT 'fill_bench' || lpad(g::text, 16, '0'), '${ws}', 'test', o.subaccount_id, o.id, o.market_id, o.venue,
               'bench-' || g, o.side, o.action, 0.4 + (g % 20) / 100.0, 1, 0.02,
               CASE WHEN o.action = 'sell' THEN ((g % 20) - 10) / 100.0 - 0.02 ELSE -0.02 END, true,
               now() - ((g % 365) || ' days')::interval
          FROM generate_series(0, ${FILLS - 1}) g
          JOIN orders o ON o.id = 'ord_bench' || lpad((g % ${ORDERS})::text, 17, '0');
      INSERT INTO daily_pnl (subaccount_id, day, workspace_id, environment, realized_pnl, fees, fill_count, volume)
        SELECT subaccount_id, (created_at AT TIME ZONE 'UTC')::date, '${ws}', 'test', sum(realized_pnl), sum(fee), count(*), sum(price * quantity)
          FROM fills WHERE workspace_id = '${ws}' GROUP BY 1, 2;
      INSERT INTO positions (subaccount_id, market_id, side, quantity, average_cost, realized_pnl)
        SELECT subaccount_id, market_id, side, sum(CASE WHEN action = 'buy' THEN quantity ELSE -quantity END),
               0.5, sum(realized_pnl)
          FROM fills WHERE workspace_id = '${ws}' GROUP BY 1, 2, 3
        HAVING sum(CASE WHEN action = 'buy' THEN quantity ELSE -quantity END) > 0;
      ANALYZE;
    `);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const venues = await openVenues(db, createLogger('silent', 'bench'), (orderId, fills) => recordExecution(db, orderId, { fills }));
    const scope = { workspaceId: ws, environment: 'test' as const };
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    let days = 0;
    const riskStatsMs = await time(() => riskStats(db, venues, scope, {}));
    const pnl = await time(async () => {
      days = (await pnlHistory(db, scope, { from, to })).length;
    });
    venues.close();
    return { fills: FILLS, seedSeconds, riskStatsMs, pnlHistoryMs: { ...pnl, days } };
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

export function formatAggregationReport(r: AggregationReport): string {
  return [
    `  ${r.fills.toLocaleString('en-US')} fills seeded in ${r.seedSeconds} s`,
    `  risk stats: median ${r.riskStatsMs.median} ms, worst ${r.riskStatsMs.max} ms (goal <= 100 ms)`,
    `  P&L history, ${r.pnlHistoryMs.days} days: median ${r.pnlHistoryMs.median} ms, worst ${r.pnlHistoryMs.max} ms (goal <= 100 ms)`,
  ].join('\n');
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    process.stdout.write(`${formatAggregationReport(await runAggregationBench())}\n`);
    return 0;
  });
}
