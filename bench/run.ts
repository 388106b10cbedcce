/**
 * `npm run bench`: every benchmark in turn, then one summary table. Starts and stops everything it
 * needs (a fresh PostgreSQL database, the servers as child processes) and cleans up on success,
 * failure and Ctrl-C. Exits 0 when every benchmark ran (goals missed are reported, not fatal), 1
 * when one failed.
 *
 * Settings (environment): BENCH_PG_ADMIN_URL, BENCH_CONNECTIONS (50), BENCH_WARMUP_SECONDS (3),
 * BENCH_SECONDS (10), BENCH_SPLIT_REDIS=1 (also split mode with Redis), BENCH_PROFILE=1 (CPU
 * profile of the single-process server under load).
 */
import { formatGatewayMarketReport, runGatewayMarketBench, type GatewayMarketReport } from './gatewayMarket';
import { runMatchingEngineBench, type MatchingEngineBenchResult } from './matchingEngine';
import { runAsBenchmarkMain, runCleanups } from './support';

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

  process.stdout.write(`\n== summary (${Math.round((Date.now() - started) / 1000)} s)\n`);
  if (matching) process.stdout.write(`matching engine: ${matching.opsPerSecond.toLocaleString('en-US')} ops/s\n`);
  if (gateway) process.stdout.write(`${formatGatewayMarketReport(gateway)}\n  details: bench-results/gateway-market.json\n`);
  for (const failure of failures) process.stderr.write(`FAILED ${failure}\n`);
  return failures.length ? 1 : 0;
}

runAsBenchmarkMain(__filename, main);
