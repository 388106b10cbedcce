/**
 * `npm run bench`: every benchmark in turn, then one summary table with a row per goal of
 * bench/goals.ts (figure, measured, goal, met or missed). Starts and stops everything it needs (a
 * fresh PostgreSQL database, the servers as child processes) and cleans up on success, failure and
 * Ctrl-C. Exits 0 when every benchmark ran and every order count held (goals missed are reported,
 * not fatal); 1 when a benchmark could not run or an order count found a duplicate, stray or lost
 * order (or an answer other than 200).
 *
 * Settings (environment; see bench/README.md): BENCH_PG_ADMIN_URL, BENCH_REDIS_URL, BENCH_CONNECTIONS (50),
 * BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3) / BENCH_WARMUP_REQUESTS (5000) /
 * BENCH_WARMUP_MAX_SECONDS (20), BENCH_SPLIT_CACHED=1 (also split mode with the catalog cache on),
 * BENCH_PROFILE=single|split|all (CPU-profiled extra runs, summarised; `live`: the live-order
 * bench's service runs under the profiler instead; `orders`, `events`: the same for those benches),
 * BENCH_NODE_ENV; the event log's BENCH_EVENT_* (bench/events.ts).
 * Tenant isolation (bench/tenantIsolation.ts): BENCH_TENANT_* (BENCH_TENANT_REDIS=1 also with REDIS_URL).
 */
import { formatGatewayMarketReport, gatewayMarketGoalResults, runGatewayMarketBench, type GatewayMarketReport } from './gatewayMarket';
import { aggregationGoalResults, formatAggregationReport, runAggregationBench, type AggregationReport } from './aggregations';
import { formatEventsReport, runEventsBench, writeEventsReport, type EventsReport } from './events';
import { formatGoalSummary } from './goals';
import { formatMarketDataReport, marketDataGoalResults, runMarketDataBench, type MarketDataReport } from './marketData';
import { formatTenantIsolationReport, runTenantIsolationBench, tenantIsolationGoalResults, writeTenantIsolationReport, type TenantIsolationReport } from './tenantIsolation';
import { runMatchingEngineBench, type MatchingEngineBenchResult } from './matchingEngine';
import { formatLiveOrderReport, liveOrderCountsHold, runLiveOrderBench, writeLiveOrderReport, type LiveOrderReport } from './liveOrder';
import {
  formatOrderPlacementReport,
  orderPlacementGoalResults,
  orderPlacementHolds,
  orderPlacementProblems,
  runOrderPlacementBench,
  writeOrderPlacementReport,
  type OrderPlacementReport,
} from './orderPlacement';
import { OTHER_LOAD_NOTE_CORES, runAsBenchmarkMain, runCleanups } from './support';

async function main(): Promise<number> {
  const started = Date.now();
  const failures: string[] = [];

  let matching: MatchingEngineBenchResult | undefined;
  process.stdout.write('== matching engine (in-process micro-benchmark)\n');
  try {
    matching = await runMatchingEngineBench();
    process.stdout.write(`  ${matching.opsPerSecond.toLocaleString('en-US')} ops/s (${matching.operations.toLocaleString('en-US')} operations in ${matching.seconds.toFixed(2)} s)\n\n`);
  } catch (error) {
    failures.push(`matching engine: ${error instanceof Error ? error.message : String(error)}`);
  }

  let gateway: GatewayMarketReport | undefined;
  process.stdout.write('== GET /v1/markets/{id}: gateway vs bare node:http, on PostgreSQL\n');
  try {
    gateway = await runGatewayMarketBench({ printReport: false });
  } catch (error) {
    failures.push(`gateway-market: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let orders: OrderPlacementReport | undefined;
  process.stdout.write('\n== POST /v1/orders through the gateway vs single-row INSERTs at the same concurrency, on PostgreSQL\n');
  try {
    orders = await runOrderPlacementBench();
    await writeOrderPlacementReport(orders);
    if (!orderPlacementHolds(orders)) failures.push(`order placement: ${orderPlacementProblems(orders)}`);
  } catch (error) {
    failures.push(`order placement: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let liveOrder: LiveOrderReport | undefined;
  process.stdout.write('\n== a live order on Kalshi (the fake): the gateway\'s added latency over the fake\'s own service time\n');
  try {
    liveOrder = await runLiveOrderBench();
    writeLiveOrderReport(liveOrder);
    if (!liveOrderCountsHold(liveOrder)) {
      const { direct, gateway } = liveOrder;
      failures.push(
        `live order: gateway ${gateway.requests} requests, ${gateway.accepted} accepted, ${gateway.ordersAtFake} at the fake, ${gateway.ordersInDatabase} in the database, ${gateway.duplicates} duplicates, ${gateway.lost} lost, ${gateway.strays} strays; ` +
          `direct ${direct.requests} requests, ${direct.accepted} accepted, ${direct.ordersAtFake} at the fake, ${direct.duplicates} duplicates, ${direct.lost} lost, ${direct.strays} strays`,
      );
    }
  } catch (error) {
    failures.push(`live order: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let aggregations: AggregationReport | undefined;
  process.stdout.write('\n== aggregations over 1,000,000 fills: risk stats, P&L history, execution analytics, risk stats with 10,000 working orders\n');
  try {
    aggregations = await runAggregationBench();
  } catch (error) {
    failures.push(`aggregations: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let events: EventsReport | undefined;
  process.stdout.write('\n== event log: SSE fan-out with 1,000 idle streams and 1,000 streams of one workspace; the event triggers on the order path; the sequencer\'s round\n');
  try {
    events = await runEventsBench();
    writeEventsReport(events);
    if (events.problems.length) failures.push(`event log: ${events.problems.join('; ')}`);
  } catch (error) {
    failures.push(`event log: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let marketData: MarketDataReport | undefined;
  process.stdout.write('\n== market data: GET /v1/markets/{id}/orderbook vs bare node:http; a stream delta to 1,000 subscribers of one market\n');
  try {
    marketData = await runMarketDataBench();
  } catch (error) {
    failures.push(`market data: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  let tenants: TenantIsolationReport | undefined;
  process.stdout.write('\n== tenant isolation: a neighbour workspace\'s GET /v1/markets during an introspection bomb and a reconnect storm of a hostile workspace\n');
  try {
    tenants = await runTenantIsolationBench();
    writeTenantIsolationReport(tenants);
    if (tenants.problems.length) failures.push(`tenant isolation: ${tenants.problems.join('; ')}`);
  } catch (error) {
    failures.push(`tenant isolation: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await runCleanups();
  }

  process.stdout.write(`\n== summary (${Math.round((Date.now() - started) / 1000)} s)\n`);
  if (matching) process.stdout.write(`matching engine: ${matching.opsPerSecond.toLocaleString('en-US')} ops/s\n`);
  if (gateway) process.stdout.write(`${formatGatewayMarketReport(gateway)}\n  details: bench-results/gateway-market.json\n`);
  if (orders) process.stdout.write(`order placement:\n${formatOrderPlacementReport(orders)}\n  details: bench-results/order-placement.json\n`);
  if (liveOrder) process.stdout.write(`live order on Kalshi (fake):\n${formatLiveOrderReport(liveOrder)}\n  details: bench-results/live-order.json\n`);
  if (aggregations) process.stdout.write(`aggregations:\n${formatAggregationReport(aggregations)}\n`);
  if (events) process.stdout.write(`event log:\n${formatEventsReport(events)}\n  details: bench-results/events.json\n`);
  if (marketData) process.stdout.write(`market data:\n${formatMarketDataReport(marketData)}\n`);
  if (tenants) process.stdout.write(`tenant isolation:\n${formatTenantIsolationReport(tenants)}\n  details: bench-results/tenant-isolation.json\n`);
  process.stdout.write('\ngoals (bench/goals.ts):\n');
  process.stdout.write(
    `${formatGoalSummary(
      [
        ...(orders ? orderPlacementGoalResults(orders) : []),
        ...(gateway ? gatewayMarketGoalResults(gateway) : []),
        ...(aggregations ? aggregationGoalResults(aggregations) : []),
        ...(tenants ? tenantIsolationGoalResults(tenants) : []),
        ...(marketData ? marketDataGoalResults(marketData) : []),
      ],
      OTHER_LOAD_NOTE_CORES,
    )}\n`,
  );
  for (const failure of failures) process.stderr.write(`FAILED ${failure}\n`);
  return failures.length ? 1 : 0;
}

runAsBenchmarkMain(__filename, main);
