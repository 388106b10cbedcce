/**
 * POST /v1/orders through the gateway (gateway + core in one child process, as `npm start`, on a
 * fresh PostgreSQL database): resting limit buys on a simulated market, each with its own
 * Idempotency-Key, spread over several subaccounts. Baseline, in the same run: single-row INSERTs
 * with a unique text key into PostgreSQL from 16 concurrent clients (a pg loop, as pgbench would).
 * Afterwards the database is counted: every 200 answer has its order row (zero lost) and no
 * Idempotency-Key has two orders (zero duplicates).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/apiKeys';
import { seedSimulatedMarkets } from '../core/services/marketCatalog';
import { createWorkspace } from '../core/services/workspaces';
import { createBenchDatabase, RESULTS_DIR, runAsBenchmarkMain, startChild, type BenchDatabase } from './support';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SUBACCOUNTS = 8;
const INSERT_CLIENTS = 16;

export interface OrderPlacementReport {
  insertRowsPerSecond: number;
  ordersPerSecond: number;
  latencyMs: { p50: number; p99: number };
  ratio: number;
  answered: number;
  ok: number;
  non2xx: Record<string, number>;
  ordersInDatabase: number;
  duplicates: number;
  lost: number;
}

async function insertBaseline(url: string, seconds: number): Promise<number> {
  const pool = new Pool({ connectionString: url, max: INSERT_CLIENTS });
  try {
    await pool.query('CREATE TABLE bench_insert (key text PRIMARY KEY, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    let count = 0;
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: INSERT_CLIENTS }, async (_, lane) => {
        let i = 0;
        while (Date.now() < end) {
          await pool.query('INSERT INTO bench_insert (key, payload) VALUES ($1, $2)', [`${lane}-${i++}`, 'x'.repeat(64)]);
          count += 1;
        }
      }),
    );
    return Math.round(count / seconds);
  } finally {
    await pool.end();
  }
}

export async function runOrderPlacementBench(): Promise<OrderPlacementReport> {
  const database: BenchDatabase = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  try {
    await seedSimulatedMarkets(db);
    const workspace = await createWorkspace(db, 'bench');
    const { key, secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', rateLimit: 100_000 });
    const market = await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC' } });
    const subaccounts: string[] = [];
    for (let i = 0; i < SUBACCOUNTS; i += 1) {
      const id = `sa_${randomBytes(13).toString('hex').slice(0, 26)}`;
      await db.subaccount.create({
        data: {
          id, workspaceId: workspace.id, environment: 'test', name: `bench-${i}`, cashBalance: '1000000',
          riskLimits: { create: {} }, // every limit null: the benchmark measures placement, not refusals
        },
      });
      subaccounts.push(id);
    }

    process.stdout.write(`  baseline: single-row INSERT, ${INSERT_CLIENTS} clients, ${SECONDS} s ...\n`);
    const insertRowsPerSecond = await insertBaseline(database.url, SECONDS);

    const server = startChild({
      label: 'orders-single',
      script: 'bin/start.ts',
      env: {
        DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
        INTERNAL_TOKEN: randomBytes(32).toString('base64url'), RATE_LIMIT_DEFAULT: '100000',
      },
    });
    try {
      const listening = await server.waitForLog((line) => line.msg === 'listening', 60_000);
      const url = String(listening.url);
      let sequence = 0;
      const answers = new Map<string, { status: number; orderId?: string }>();
      const latencies: number[] = [];
      const run = (duration: number, record: boolean) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${url}/v1/orders`,
              connections: CONNECTIONS,
              duration,
              requests: [
                {
                  method: 'POST',
                  setupRequest: (request: any) => {
                    const n = sequence++;
                    const idempotencyKey = `bench-${n}`;
                    return {
                      ...request,
                      headers: {
                        authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey,
                      },
                      body: JSON.stringify({
                        subaccount_id: subaccounts[n % SUBACCOUNTS], market_id: market.id, side: 'yes', action: 'buy',
                        type: 'limit', price: '0.05', quantity: '1',
                      }),
                    };
                  },
                  onResponse: (status: number, body: string, context: any) => {
                    void context;
                    const match = /"id":"(ord_[0-9a-z]+)"/.exec(body);
                    answers.set(`r${answers.size}`, { status, orderId: match?.[1] });
                  },
                },
              ],
            } as autocannon.Options,
            (error) => (error ? reject(error) : resolve()),
          );
          if (record) instance.on('response', (_client: unknown, _status: number, _bytes: number, time: number) => latencies.push(time));
        });
      process.stdout.write(`  warm-up 3 s, then ${SECONDS} s at ${CONNECTIONS} connections ...\n`);
      await run(3, false);
      const warmupAnswers = answers.size;
      const started = Date.now();
      await run(SECONDS, true);
      const elapsed = (Date.now() - started) / 1000;

      const all = [...answers.values()];
      const measured = all.slice(warmupAnswers);
      const ok = all.filter((a) => a.status === 200);
      const non2xx: Record<string, number> = {};
      for (const a of all) if (a.status !== 200) non2xx[a.status] = (non2xx[a.status] ?? 0) + 1;
      const [counts] = await db.$queryRaw<{ total: number; distinct_keys: number }[]>`
        SELECT count(*)::int AS total, count(DISTINCT client_order_id)::int AS distinct_keys
          FROM orders WHERE workspace_id = ${workspace.id}`;
      const okIds = ok.map((a) => a.orderId).filter((id): id is string => Boolean(id));
      const found = await db.order.count({ where: { id: { in: okIds } } });
      latencies.sort((a, b) => a - b);
      const pick = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] * 100) / 100;
      const ordersPerSecond = Math.round(measured.filter((a) => a.status === 200).length / elapsed);
      void key;
      return {
        insertRowsPerSecond,
        ordersPerSecond,
        latencyMs: { p50: pick(50), p99: pick(99) },
        ratio: Math.round((ordersPerSecond / insertRowsPerSecond) * 1000) / 1000,
        answered: all.length,
        ok: ok.length,
        non2xx,
        ordersInDatabase: counts.total,
        duplicates: counts.total - counts.distinct_keys,
        lost: okIds.length - found + (ok.length - okIds.length),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

export function formatOrderPlacementReport(r: OrderPlacementReport): string {
  return [
    `  PostgreSQL single-row INSERT (${INSERT_CLIENTS} clients): ${r.insertRowsPerSecond.toLocaleString('en-US')} rows/s`,
    `  POST /v1/orders through the gateway: ${r.ordersPerSecond.toLocaleString('en-US')} orders/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`,
    `  ratio orders/inserts: ${r.ratio} (goal >= 0.20)`,
    `  answers ${r.answered} (200: ${r.ok}, other: ${JSON.stringify(r.non2xx)}); orders in the database ${r.ordersInDatabase}; duplicates ${r.duplicates}; lost ${r.lost}`,
  ].join('\n');
}

export async function writeOrderPlacementReport(report: OrderPlacementReport) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'order-placement.json'), `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`);
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    const report = await runOrderPlacementBench();
    await writeOrderPlacementReport(report);
    process.stdout.write(`${formatOrderPlacementReport(report)}\n`);
    return report.duplicates === 0 && report.lost === 0 ? 0 : 1;
  });
}
