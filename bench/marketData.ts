/**
 * Market data, the hot path of every bot (issue 29), on PostgreSQL, in one run:
 *
 *  - `GET /v1/markets/{id}/orderbook` (depth 10, read from the simulated venue now, never cached)
 *    through bin/start.ts at BENCH_CONNECTIONS (50), against bench/bareServer.ts returning the
 *    same bytes at the same concurrency: the ratio of their rates and the gateway's p99;
 *  - the market-data stream: BENCH_STREAM_SUBSCRIBERS (1,000) SSE subscribers of one market on
 *    one gateway, then BENCH_STREAM_CHANGES (30) resting orders one after another, each adding to
 *    a level of the book: for each change and each subscriber, the time from sending the order to
 *    the subscriber reading its `delta` (conservative: the order's own work is in it). The
 *    gateway's own look (MARKET_STREAM_POLL_MS) is set to a minute: every delta follows the
 *    core's notice.
 *
 * Run alone: npx tsx bench/marketData.ts
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/accounts/apiKeys';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { GOALS, goalMet, goalText, type GoalResult } from './goals';
import { measure, type LoadResult } from './load';
import { createBenchDatabase, envNumber, getBytes, percentile, round, runAsBenchmarkMain, startChild, type BenchDatabase, type ManagedChild } from './support';

export interface MarketDataReport {
  orderBook: { gateway: LoadResult; bare: LoadResult; ratio: number; bodyBytes: number };
  stream: { subscribers: number; changes: number; latencyMs: { p50: number; p99: number; max: number }; orderAnswerMs: { p50: number; max: number }; samples: number };
}

async function prepareData(databaseUrl: string): Promise<{ secret: string; marketId: string }> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    await seedSimulatedMarkets(db);
    const workspace = await createWorkspace(db, 'Market data benchmark');
    const { secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'bench' });
    const market = await db.market.findFirst({ where: { venue: 'sim_kalshi', venueMarketId: 'CPI-ABOVE-3' }, select: { id: true } });
    if (!market) throw new Error('the seeded market sim_kalshi CPI-ABOVE-3 is missing');
    return { secret, marketId: market.id };
  } finally {
    await db.$disconnect();
  }
}

/**
 * One SSE subscriber that only counts `delta` messages, noting when each arrived (performance.now()):
 * over node:http directly (a fetch body's web stream costs the client more than the server's write).
 */
class DeltaCounter {
  readonly deltaTimes: number[] = [];
  snapshot = false;
  private request?: http.ClientRequest;
  private rest = '';

  open(url: string, headers: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.request = http.get(url, { headers: { ...headers, accept: 'text/event-stream' }, agent: false }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const now = performance.now();
          const text = this.rest + chunk;
          const end = text.lastIndexOf('\n\n');
          this.rest = end < 0 ? text : text.slice(end + 2);
          const complete = end < 0 ? '' : text.slice(0, end);
          for (let at = complete.indexOf('event: delta'); at >= 0; at = complete.indexOf('event: delta', at + 1)) this.deltaTimes.push(now);
          if (!this.snapshot && complete.includes('event: snapshot')) this.snapshot = true;
        });
        response.on('error', () => undefined);
        resolve();
      });
      this.request.on('error', reject);
    });
  }

  close() {
    this.request?.destroy();
  }
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export async function runMarketDataBench(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<MarketDataReport> {
  const connections = envNumber(process.env.BENCH_CONNECTIONS, 50);
  const seconds = envNumber(process.env.BENCH_SECONDS, 10);
  const warmupSeconds = envNumber(process.env.BENCH_WARMUP_SECONDS, 3);
  const warmupRequests = envNumber(process.env.BENCH_WARMUP_REQUESTS, 5000);
  const subscribers = envNumber(process.env.BENCH_STREAM_SUBSCRIBERS, 1000);
  const changes = envNumber(process.env.BENCH_STREAM_CHANGES, 30);
  const children: ManagedChild[] = [];
  let database: BenchDatabase | undefined;
  const counters: DeltaCounter[] = [];
  try {
    database = await createBenchDatabase();
    const { secret, marketId } = await prepareData(database.url);
    const auth = { authorization: `Bearer ${secret}` };
    const server = startChild({
      label: 'single',
      script: 'bin/start.ts',
      env: {
        HOST: '127.0.0.1', PORT: '0', DATABASE_URL: database.url, INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
        RATE_LIMIT_DEFAULT: '1000000', LOG_LEVEL: 'info',
        EVENT_STREAMS_PER_KEY: String(subscribers), EVENT_STREAMS_PER_WORKSPACE: String(subscribers), MARKET_STREAM_POLL_MS: '60000',
      },
    });
    children.push(server);
    const { url } = (await server.waitForLog((line) => line.msg === 'listening')) as { url: string };

    // 1. The book, as read: gateway vs bare node:http returning the same bytes. The market maker
    // never moves without an order, so every answer is the same book but for its as_of: the
    // gateway's answers are checked for status only.
    const bookUrl = `${url}/v1/markets/${marketId}/orderbook`;
    const sample = await getBytes(bookUrl, auth);
    if (sample.status !== 200) throw new Error(`GET ${bookUrl} answered ${sample.status}: ${sample.body.toString('utf8')}`);
    log(`market-data: GET /v1/markets/{id}/orderbook, ${connections} connections, ${seconds} s (after a warm-up)`);
    const gateway = await measure({ url: bookUrl, headers: auth, connections, warmupSeconds, warmupRequests, seconds });
    log(`  gateway: ${Math.round(gateway.requestsPerSecond)} req/s, p50 ${gateway.latencyMs.p50} ms, p99 ${gateway.latencyMs.p99} ms, non-2xx ${gateway.non2xx}`);
    const bareServer = startChild({ label: 'bare', script: 'bench/bareServer.ts', env: { PORT: '0', BENCH_BARE_BODY_BASE64: sample.body.toString('base64') } });
    children.push(bareServer);
    const { url: bareUrl } = (await bareServer.waitForLog((line) => line.msg === 'listening')) as { url: string };
    const bare = await measure({ url: `${bareUrl}/v1/markets/${marketId}/orderbook`, connections, warmupSeconds, warmupRequests, seconds, expectBody: sample.body.toString('utf8') });
    await bareServer.stop();
    const ratio = round(gateway.requestsPerSecond / Math.max(1, bare.requestsPerSecond), 3);
    log(`  bare node:http: ${Math.round(bare.requestsPerSecond)} req/s; ratio ${ratio}`);

    // 2. The stream: subscribers of one market, then resting orders one after another.
    const subaccount = await fetch(`${url}/v1/subaccounts`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench streams', starting_balance: '1000000' }) });
    if (subaccount.status !== 200) throw new Error(`POST /v1/subaccounts answered ${subaccount.status}`);
    const subaccountId = ((await subaccount.json()) as { id: string }).id;
    log(`market-data: ${subscribers} stream subscribers of one market`);
    for (let i = 0; i < subscribers; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, subscribers - i) }, async () => {
        const counter = new DeltaCounter();
        counters.push(counter);
        await counter.open(`${url}/v1/markets/stream?market_ids=${marketId}`, auth);
      }));
    }
    await until(() => counters.every((c) => c.snapshot), 60_000, 'every subscriber’s snapshot');
    const book = JSON.parse(sample.body.toString('utf8')) as { yes: { bids: { price: string }[] } };
    const price = book.yes.bids[1]?.price ?? book.yes.bids[0]!.price; // an existing level below the best: every order adds to it
    const latencies: number[] = [];
    const orderTimes: number[] = [];
    for (let n = 1; n <= changes; n += 1) {
      const sentAt = performance.now();
      const placed = await fetch(`${url}/v1/orders`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subaccount_id: subaccountId, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' }),
      });
      if (placed.status !== 200) throw new Error(`POST /v1/orders answered ${placed.status}: ${await placed.text()}`);
      orderTimes.push(performance.now() - sentAt);
      await until(() => counters.every((c) => c.deltaTimes.length >= n), 30_000, `delta ${n} at every subscriber`);
      for (const counter of counters) latencies.push(counter.deltaTimes[n - 1]! - sentAt);
    }
    const sorted = Float64Array.from(latencies).sort();
    const orders = Float64Array.from(orderTimes).sort();
    const stream = {
      subscribers, changes, samples: sorted.length,
      latencyMs: { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]!) },
      orderAnswerMs: { p50: round(percentile(orders, 50)), max: round(orders[orders.length - 1]!) },
    };
    log(`  delta to ${subscribers} subscribers, ${changes} changes: p50 ${stream.latencyMs.p50} ms, p99 ${stream.latencyMs.p99} ms, max ${stream.latencyMs.max} ms from sending the order (whose answer took p50 ${stream.orderAnswerMs.p50} ms, max ${stream.orderAnswerMs.max} ms)`);
    return { orderBook: { gateway, bare, ratio, bodyBytes: sample.body.length }, stream };
  } finally {
    counters.forEach((c) => c.close());
    for (const child of children) await child.stop();
    await database?.drop();
  }
}

export function formatMarketDataReport(report: MarketDataReport): string {
  const { orderBook, stream } = report;
  return [
    `  GET /v1/markets/{id}/orderbook: ${Math.round(orderBook.gateway.requestsPerSecond)} req/s, p99 ${orderBook.gateway.latencyMs.p99} ms; bare ${Math.round(orderBook.bare.requestsPerSecond)} req/s; ratio ${orderBook.ratio}`,
    `  stream delta to ${stream.subscribers} subscribers: p50 ${stream.latencyMs.p50} ms, p99 ${stream.latencyMs.p99} ms, max ${stream.latencyMs.max} ms over ${stream.samples} deliveries`,
  ].join('\n');
}

export function marketDataGoalResults(report: MarketDataReport): GoalResult[] {
  const book = { ratio: report.orderBook.ratio, p99Ms: report.orderBook.gateway.latencyMs.p99 };
  return [
    { id: 'orderBookRead', measured: `ratio ${book.ratio}, p99 ${book.p99Ms} ms (${Math.round(report.orderBook.gateway.requestsPerSecond)} req/s vs bare ${Math.round(report.orderBook.bare.requestsPerSecond)})`, met: goalMet(GOALS.orderBookRead, book) },
    { id: 'streamDeltaFanOut', measured: `p99 ${report.stream.latencyMs.p99} ms (p50 ${report.stream.latencyMs.p50}, max ${report.stream.latencyMs.max})`, met: goalMet(GOALS.streamDeltaFanOut, { p99Ms: report.stream.latencyMs.p99 }) },
  ];
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    const report = await runMarketDataBench();
    process.stdout.write(`${formatMarketDataReport(report)}\n`);
    for (const result of marketDataGoalResults(report)) process.stdout.write(`  ${GOALS[result.id].figure}: ${result.measured}; goal ${goalText(GOALS[result.id])}: ${result.met ? 'met' : 'MISSED'}\n`);
    return 0;
  });
}
