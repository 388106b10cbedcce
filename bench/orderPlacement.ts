/**
 * POST /v1/orders through the gateway (gateway and core in one child process, bin/start.ts, as
 * `npm start`, on a fresh PostgreSQL database, LOG_LEVEL info), three targets in one run, each
 * beside a baseline of single-row INSERTs measured just before it at the same concurrency:
 *
 *  - sequential: 1 connection, resting limit buys on 1 subaccount; baseline 1 INSERT client;
 *  - one subaccount: BENCH_CONNECTIONS (50) connections, resting limit buys on 1 subaccount;
 *    baseline 50 INSERT clients;
 *  - many subaccounts: 50 connections, IOC limit buys round-robin over 50 subaccounts; baseline
 *    50 INSERT clients. The IOC buys are priced under the book's best ask, so each is canceled unfilled
 *    and nothing rests.
 *
 * Every order is a YES buy of 1 contract at 0.05 on sim-kalshi FED-CUT-DEC with its own
 * Idempotency-Key; every 4th request also sends its own client_order_id. Each subaccount's risk
 * limits are all null (no per-minute or open-order cap): the benchmark measures placement, not
 * refusals. Before the targets, a JIT warm-up at 50 connections on subaccounts of its own.
 *
 * After each target (and the warm-up), once no idempotency claim is in flight, the database is
 * counted against every request sent and every answer (bench/orderAccounting.ts): no key or
 * client_order_id with two orders, no order unaccounted for, no 200 answer without its order.
 * The count's SQL is first run over planted duplicates (selfCheckOrderCount). Every answer must be
 * a 200. The run fails otherwise.
 *
 * Run alone: npx tsx bench/orderPlacement.ts
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/accounts/apiKeys';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { GOALS, goalMet, goalText, type GoalId, type GoalResult } from './goals';
import { summariseProfiledWindows } from './profileSummary';
import { measure, type LoadResult } from './load';
import {
  countOrders,
  formatOrderCount,
  orderCountHolds,
  selfCheckOrderCount,
  waitForSettledClaims,
  type OrderCount,
  type SentOrder,
} from './orderAccounting';
import {
  RESULTS_DIR,
  busyNote,
  cpuProbe,
  createBenchDatabase,
  envNumber,
  formatCpuCores,
  percentile,
  postgresBackendPids,
  round,
  runAsBenchmarkMain,
  startChild,
  type CpuReport,
} from './support';

const CONNECTIONS = envNumber(process.env.BENCH_CONNECTIONS, 50);
const SECONDS = envNumber(process.env.BENCH_SECONDS, 10);
const WARMUP_SECONDS = envNumber(process.env.BENCH_WARMUP_SECONDS, 3);
const WARMUP_REQUESTS = envNumber(process.env.BENCH_WARMUP_REQUESTS, 5000);
const WARMUP_MAX_SECONDS = envNumber(process.env.BENCH_WARMUP_MAX_SECONDS, 20);
/** Every n-th request sends its own client_order_id; the others get one derived from their Idempotency-Key. */
const EXPLICIT_CLIENT_ORDER_ID_EVERY = 4;
/** The INSERT baseline's own warm-up (connections opened, plans cached), discarded. */
const INSERT_WARMUP_SECONDS = 1;

interface OrderTargetSpec {
  target: 'warm-up' | 'sequential' | 'one subaccount' | 'many subaccounts';
  /** Short, for Idempotency-Keys and client order ids. */
  tag: string;
  description: string;
  connections: number;
  subaccounts: number;
  timeInForce: 'gtc' | 'ioc';
  goal?: GoalId;
}

const WARMUP: OrderTargetSpec = {
  target: 'warm-up', tag: 'w', connections: CONNECTIONS, subaccounts: 8, timeInForce: 'gtc',
  description: `JIT warm-up: ${CONNECTIONS} connections, resting limit buys over 8 subaccounts of its own (figures discarded)`,
};
const TARGETS: OrderTargetSpec[] = [
  {
    target: 'sequential', tag: 's', connections: 1, subaccounts: 1, timeInForce: 'gtc', goal: 'orderSequential',
    description: '1 connection, sequential: resting limit buys on 1 subaccount',
  },
  {
    target: 'one subaccount', tag: 'o', connections: CONNECTIONS, subaccounts: 1, timeInForce: 'gtc', goal: 'orderOneSubaccount',
    description: `${CONNECTIONS} connections, resting limit buys on 1 subaccount`,
  },
  {
    target: 'many subaccounts', tag: 'm', connections: CONNECTIONS, subaccounts: CONNECTIONS, timeInForce: 'ioc', goal: 'orderManySubaccounts',
    description: `${CONNECTIONS} connections, IOC limit buys (canceled unfilled) round-robin over ${CONNECTIONS} subaccounts`,
  },
];

export interface InsertBaseline {
  clients: number;
  rowsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  seconds: number;
  /** Cores other processes used in the window (this process and the database's backends are ours). */
  otherCores?: number;
}

export interface OrderTargetResult {
  target: string;
  description: string;
  connections: number;
  subaccounts: number;
  timeInForce: string;
  load: LoadResult;
  cpu?: CpuReport;
  baseline?: InsertBaseline;
  /** Orders/s ÷ INSERT rows/s at the same concurrency, in the same run. */
  ratio?: number;
  goal?: { id: GoalId; text: string; met: boolean };
  /** Answers over the whole run (warm-up included): HTTP statuses, and the order statuses of the 200s. */
  statuses: Record<string, number>;
  orderStatuses: Record<string, number>;
  /** Idempotency claims still in flight when the count ran (after waiting up to 30 s). */
  inFlightAtCount: number;
  /**
   * WAL flushes (pg_stat_wal.wal_sync, the whole server: the sequencer's and every other commit
   * included) per order sent, over the target's warm-up and window: each is a wait on the disk in
   * some commit (about 0.12 ms on this machine's disk, pg_test_fsync; more on networked storage).
   */
  walFlushesPerOrder: number;
  count: OrderCount;
}

export interface OrderPlacementReport {
  date: string;
  settings: { connections: number; seconds: number; warmup: string; server: string };
  /** The duplicate/lost count found every planted case before the real counts. */
  countSelfCheck: 'passed';
  warmup: OrderTargetResult;
  targets: OrderTargetResult[];
}

/** True when every count holds and every answer was a 200. */
export function orderPlacementHolds(report: OrderPlacementReport): boolean {
  return [report.warmup, ...report.targets].every((t) => orderCountHolds(t.count) && t.count.ok === t.count.answered);
}

/** What does not hold, for the failure line. */
export function orderPlacementProblems(report: OrderPlacementReport): string {
  return [report.warmup, ...report.targets]
    .filter((t) => !orderCountHolds(t.count) || t.count.ok !== t.count.answered)
    .map((t) => `${t.target}: ${formatOrderCount(t.count)}; answers ${JSON.stringify(t.statuses)}`)
    .join('; ');
}


/**
 * Single-row INSERTs with a unique text key, from `clients` concurrent pg connections in a closed
 * loop (as pgbench would): a second of warm-up, then `seconds` measured.
 */
async function insertBaseline(url: string, database: string, clients: number, seconds: number): Promise<InsertBaseline> {
  const pool = new Pool({ connectionString: url, max: clients });
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS bench_insert (key text PRIMARY KEY, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');
    const prefix = randomBytes(6).toString('hex');
    const payload = 'x'.repeat(64);
    const latencies: number[] = [];
    let stop = false;
    let windowStart = Infinity;
    let windowEnd = Infinity;
    const lanes = Array.from({ length: clients }, async (_, lane) => {
      let i = 0;
      while (!stop) {
        const started = performance.now();
        await pool.query('INSERT INTO bench_insert (key, payload) VALUES ($1, $2)', [`${prefix}-${lane}-${i++}`, payload]);
        const ended = performance.now();
        // Only INSERTs that started and ended inside the window count.
        if (started >= windowStart && ended <= windowEnd) latencies.push(ended - started);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, INSERT_WARMUP_SECONDS * 1000));
    const probe = cpuProbe(() => ({ 'postgres backends': postgresBackendPids(database) }));
    probe.start();
    windowStart = performance.now();
    windowEnd = windowStart + seconds * 1000;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    probe.end();
    stop = true;
    await Promise.all(lanes);
    latencies.sort((a, b) => a - b);
    return {
      clients,
      rowsPerSecond: Math.round(latencies.length / seconds),
      latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
      seconds,
      otherCores: probe.result(latencies.length / seconds)?.cores['other processes'],
    };
  } finally {
    await pool.end();
  }
}

export async function runOrderPlacementBench(): Promise<OrderPlacementReport> {
  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  const counter = new Client({ connectionString: database.url });
  await counter.connect();
  try {
    await selfCheckOrderCount(counter);
    process.stdout.write('  duplicate/lost count: self-check over planted duplicates passed\n');

    await seedSimulatedMarkets(db);
    const workspace = await createWorkspace(db, 'bench');
    // No per-key limit: RATE_LIMIT_DEFAULT (set far above what the machine serves) applies.
    const { key, secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'bench' });
    const market = await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC' } });
    const createSubaccounts = async (spec: OrderTargetSpec) => {
      const ids: string[] = [];
      for (let i = 0; i < spec.subaccounts; i += 1) {
        const id = `sa_${randomBytes(13).toString('hex').slice(0, 26)}`;
        await db.subaccount.create({
          data: {
            id, workspaceId: workspace.id, environment: 'test', name: `bench ${spec.target} ${i}`, cashBalance: '1000000',
            riskLimits: { create: {} }, // every limit null: no per-minute cap, no open-order cap
          },
        });
        ids.push(id);
      }
      return ids;
    };

    // BENCH_PROFILE=orders: the service runs under --cpu-prof (its figures are then the profiler's),
    // and each target's measured window is summarised by layer (profileSummary.ts).
    const profileDir = process.env.BENCH_PROFILE === 'orders' ? path.join(RESULTS_DIR, 'profiles', `orders-${Date.now()}`) : null;
    const windows: { target: string; from: bigint; to: bigint }[] = [];
    const server = startChild({
      label: 'orders-single',
      script: 'bin/start.ts',
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      env: {
        DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
        INTERNAL_TOKEN: randomBytes(32).toString('base64url'), RATE_LIMIT_DEFAULT: '1000000',
      },
    });
    try {
      const listening = await server.waitForLog((line) => line.msg === 'listening', 60_000);
      const url = String(listening.url);
      const runTag = randomBytes(4).toString('hex');

      const runTarget = async (spec: OrderTargetSpec, warmup: { requests: number; seconds: number; measuredSeconds: number }): Promise<OrderTargetResult> => {
        const subaccountIds = await createSubaccounts(spec);
        const baseline = spec.goal ? await insertBaseline(database.url, database.name, spec.connections, SECONDS) : undefined;
        if (baseline) {
          process.stdout.write(
            `  baseline for ${spec.target}: single-row INSERT, ${baseline.clients} client(s): ${baseline.rowsPerSecond.toLocaleString('en-US')} rows/s, ` +
              `p50 ${baseline.latencyMs.p50} ms, p99 ${baseline.latencyMs.p99} ms\n`,
          );
          const note = busyNote(baseline.otherCores, `${spec.target}'s INSERT baseline`);
          if (note) process.stdout.write(`    ${note}\n`);
        }
        const sent: SentOrder[] = [];
        let n = 0;
        const walBefore = await walFlushes(counter);
        const probe = cpuProbe(() => ({ server: [server.pid], 'postgres backends': postgresBackendPids(database.name) }));
        const load = await measure({
          url: `${url}/v1/orders`,
          connections: spec.connections,
          warmupSeconds: warmup.seconds,
          warmupRequests: warmup.requests,
          warmupMaxSeconds: WARMUP_MAX_SECONDS,
          seconds: warmup.measuredSeconds,
          onWindowStart: () => {
            probe.start();
            windows.push({ target: spec.target, from: process.hrtime.bigint(), to: 0n });
          },
          onWindowEnd: () => {
            probe.end();
            windows[windows.length - 1]!.to = process.hrtime.bigint();
          },
          abort: server.exited.then(({ code, signal }) => `the server exited (${signal ?? `code ${code}`}) under load\n${server.tail()}`),
          request: {
            method: 'POST',
            setupRequest: (request, context) => {
              const i = n++;
              const order: SentOrder = {
                idempotencyKey: `bench-${runTag}-${spec.tag}-${i}`,
                clientOrderId: i % EXPLICIT_CLIENT_ORDER_ID_EVERY === EXPLICIT_CLIENT_ORDER_ID_EVERY - 1 ? `bench-${runTag}-${spec.tag}-${i}` : null,
              };
              sent.push(order);
              context.order = order;
              return {
                ...request,
                headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': order.idempotencyKey },
                body: JSON.stringify({
                  subaccount_id: subaccountIds[i % subaccountIds.length], market_id: market.id, side: 'yes', action: 'buy',
                  type: 'limit', price: '0.05', quantity: '1', time_in_force: spec.timeInForce,
                  ...(order.clientOrderId ? { client_order_id: order.clientOrderId } : {}),
                }),
              };
            },
            onResponse: (status, body, context) => {
              const order = context.order as SentOrder;
              order.status = status;
              if (status !== 200) return;
              try {
                const answer = JSON.parse(body) as { id?: string; status?: string };
                order.orderId = answer.id ?? null;
                order.orderStatus = answer.status;
              } catch {
                order.orderId = null;
              }
            },
          },
        });
        const cpu = probe.result(load.requestsPerSecond);
        const walFlushesPerOrder = ((await walFlushes(counter)) - walBefore) / Math.max(1, sent.length);
        const inFlightAtCount = await waitForSettledClaims(counter, key.id);
        const count = await countOrders(counter, { schema: 'public', workspaceId: workspace.id, apiKeyId: key.id, subaccountIds }, sent);
        const statuses: Record<string, number> = {};
        const orderStatuses: Record<string, number> = {};
        for (const order of sent) {
          if (order.status !== undefined) statuses[order.status] = (statuses[order.status] ?? 0) + 1;
          if (order.orderStatus) orderStatuses[order.orderStatus] = (orderStatuses[order.orderStatus] ?? 0) + 1;
        }
        const ratio = baseline ? round(load.requestsPerSecond / Math.max(1, baseline.rowsPerSecond), 3) : undefined;
        const goalId = spec.goal;
        const result: OrderTargetResult = {
          target: spec.target, description: spec.description, connections: spec.connections, subaccounts: spec.subaccounts,
          timeInForce: spec.timeInForce, load, cpu, baseline, ratio, statuses, orderStatuses, inFlightAtCount, count, walFlushesPerOrder: round(walFlushesPerOrder, 2),
          goal: goalId
            ? { id: goalId, text: goalText(GOALS[goalId]), met: goalMet(GOALS[goalId], { ratio, p50Ms: load.latencyMs.p50, p99Ms: load.latencyMs.p99 }) }
            : undefined,
        };
        process.stdout.write(`${formatTarget(result)}\n`);
        return result;
      };

      process.stdout.write(`  ${WARMUP.description} ...\n`);
      const warmupResult = await runTarget(WARMUP, { requests: WARMUP_REQUESTS, seconds: WARMUP_SECONDS, measuredSeconds: 1 });
      const targets: OrderTargetResult[] = [];
      for (const spec of TARGETS) {
        process.stdout.write(`  ${spec.target}: ${spec.description}; warm-up >= ${WARMUP_SECONDS} s, then ${SECONDS} s measured\n`);
        targets.push(await runTarget(spec, { requests: 0, seconds: WARMUP_SECONDS, measuredSeconds: SECONDS }));
      }
      if (profileDir) await summariseProfiledWindows(server, profileDir, 'orders', windows.filter((w) => w.target !== WARMUP.target));
      return {
        date: new Date().toISOString(),
        settings: {
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmup:
            `JIT warm-up >= ${WARMUP_SECONDS} s and >= ${WARMUP_REQUESTS} responses (at most ${WARMUP_MAX_SECONDS} s); ` +
            `then per target >= ${WARMUP_SECONDS} s and every connection answered, on the same connections`,
          server: 'bin/start.ts (gateway + core in one process), LOG_LEVEL info, fresh PostgreSQL database',
        },
        countSelfCheck: 'passed',
        warmup: warmupResult,
        targets,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await counter.end();
    await db.$disconnect();
    await database.drop();
  }
}

/** WAL flushes of the whole PostgreSQL server so far (pg_stat_wal, PostgreSQL 14+). */
async function walFlushes(client: Client): Promise<number> {
  const { rows } = await client.query<{ wal_sync: string }>('SELECT wal_sync::text FROM pg_stat_wal');
  return Number(rows[0]!.wal_sync);
}

function formatTarget(t: OrderTargetResult): string {
  const lines = [
    `  ${t.target}: ${t.load.requestsPerSecond.toLocaleString('en-US')} orders/s, p50 ${t.load.latencyMs.p50} ms, p99 ${t.load.latencyMs.p99} ms` +
      (t.ratio !== undefined ? `, ratio to INSERTs at ${t.baseline!.clients} client(s) ${t.ratio}` : '') +
      (t.goal ? ` (goal ${t.goal.text}: ${t.goal.met ? 'met' : 'MISSED'})` : ''),
    `    answers ${JSON.stringify(t.statuses)}, order statuses ${JSON.stringify(t.orderStatuses)}; ${formatOrderCount(t.count)}` +
      (t.inFlightAtCount ? `; ${t.inFlightAtCount} claims still in flight at the count` : ''),
  ];
  if (t.cpu) lines.push(`    ${formatCpuCores(t.cpu, 'order')}`);
  lines.push(`    WAL flushes (pg_stat_wal.wal_sync) per order sent: ${t.walFlushesPerOrder}`);
  const problems = [
    t.load.errors ? `${t.load.errors} connection errors` : '',
    t.load.timeouts ? `${t.load.timeouts} timeouts` : '',
    t.count.ok !== t.count.answered ? `${t.count.answered - t.count.ok} answers other than 200` : '',
    orderCountHolds(t.count) ? '' : 'the order count does not hold (duplicates, strays or lost orders)',
  ].filter(Boolean);
  if (problems.length) lines.push(`    !!! WARNING: ${t.target}: ${problems.join('; ')}`);
  const note = busyNote(t.cpu?.cores['other processes'], t.target);
  if (note) lines.push(`    ${note}`);
  return lines.join('\n');
}

export function formatOrderPlacementReport(r: OrderPlacementReport): string {
  return [
    `  duplicate/lost count self-check: ${r.countSelfCheck}`,
    ...r.targets.map(formatTarget),
    `  warm-up: ${formatOrderCount(r.warmup.count)}`,
  ].join('\n');
}

const n = (value: number) => value.toLocaleString('en-US');

/** The summary's rows: each target against its goal, beside its INSERT baseline. */
export function orderPlacementGoalResults(report: OrderPlacementReport): GoalResult[] {
  return report.targets.flatMap((t) => {
    if (!t.goal || !t.baseline) return [];
    const b = t.baseline;
    const measured =
      t.connections === 1
        ? `p50 ${t.load.latencyMs.p50} / p99 ${t.load.latencyMs.p99} ms, ${n(t.load.requestsPerSecond)} orders/s, ` +
          `ratio ${t.ratio} of INSERTs at 1 client (p50 ${b.latencyMs.p50} / p99 ${b.latencyMs.p99} ms)`
        : `${n(t.load.requestsPerSecond)} orders/s, p99 ${t.load.latencyMs.p99} ms, ratio ${t.ratio} of ${n(b.rowsPerSecond)} INSERTs/s at ${b.clients} clients`;
    const otherCores = Math.max(t.cpu?.cores['other processes'] ?? 0, b.otherCores ?? 0);
    return [{ id: t.goal.id, measured, met: t.goal.met, otherCores }];
  });
}

export async function writeOrderPlacementReport(report: OrderPlacementReport) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'order-placement.json'), `${JSON.stringify(report, null, 2)}\n`);
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    const report = await runOrderPlacementBench();
    await writeOrderPlacementReport(report);
    process.stdout.write(`\n${formatOrderPlacementReport(report)}\n`);
    if (orderPlacementHolds(report)) return 0;
    process.stderr.write(`FAILED order placement: ${orderPlacementProblems(report)}\n`);
    return 1;
  });
}
