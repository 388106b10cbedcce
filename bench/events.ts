/**
 * The event log's cost (issue 15), on the real stack: bin/start.ts (gateway and core in one
 * process, as `npm start`, in-process notices: no Redis) over loopback HTTP, on a fresh PostgreSQL
 * database, LOG_LEVEL info, every EVENT_* setting at its default but EVENT_STREAMS_PER_WORKSPACE (sequencer every 50 ms, hub poll
 * every 2 s, 10 streams per key: the benchmark opens its streams over many keys so that limit holds).
 *
 * Part 1, GET /v1/events/stream: ACTIVE_STREAMS streams of the trading workspace read every event
 * (parsed with eventsource-parser, latency from the event's created_at to its receipt), beside
 * each of these, in turn (none, idle, fan-out, idle, none: each baseline beside its variant):
 *  - none: no other stream (the baseline);
 *  - idle: 1,000 streams of 100 other workspaces (10 keys' worth: one key each, 10 streams per key),
 *    which receive nothing but heartbeats, so 100 more hubs on the gateway;
 *  - fan-out: 1,000 streams of the trading workspace itself (100 more keys of it, 10 streams each),
 *    so every event is written 1,000 more times. Their bytes are only counted, not parsed.
 * In each: the gateway's CPU with the streams open and nothing happening (the idle cost), then
 * (not in fan-out, whose 1,000 streams could not take ~800 events/s each from one client process)
 * a sustained window of orders placed through REST (resting limit buys, SUSTAINED_CONNECTIONS
 * connections, autocannon as in bench/load.ts): events/s received by the active streams and their
 * delivery latency, beside the orders' own rate and latency; then a burst: one SQL statement
 * cancels BURST resting orders at once (the orders_events trigger writes one order.canceled each,
 * as a mass cancel does), and the time from its COMMIT until every stream has every one of them
 * gives the pipeline's events/s (sequencer, hub read, fan-out, socket), and deliveries/s for
 * fan-out. Server RSS before and after the streams open.
 *
 * Part 2, the event write in the order's transaction: POST /v1/orders (the order path of
 * bench/orderPlacement.ts: 1 connection with resting buys, and BENCH_CONNECTIONS connections with
 * IOC buys over as many subaccounts) with the event triggers of orders and fills enabled and
 * disabled (ALTER TABLE ... DISABLE TRIGGER), alternating on, off, on, off; no stream open, the
 * sequencer running as always. Each window checks its events: some per order when on, none when off.
 *
 * Part 3, the sequencer: one round (mk_sequence_events numbering 15 new events) timed after a
 * VACUUM and with 100,000 and 300,000 events numbered since the last one (sequencerRounds).
 *
 * Every answer must be a 200 and every stream must receive every burst event; the run fails
 * otherwise. Run alone: npx tsx bench/events.ts
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import { Client } from 'pg';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/accounts/apiKeys';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { measure, type LoadResult } from './load';
import { summariseProfiledWindows, type ServerWindow } from './profileSummary';
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
  sleep,
  startChild,
  type CpuReport,
} from './support';

const CONNECTIONS = envNumber(process.env.BENCH_CONNECTIONS, 50);
/** Streams besides the active ones, in the idle and fan-out variants. */
const STREAMS = envNumber(process.env.BENCH_EVENT_STREAMS, 1000);
const ACTIVE_STREAMS = 4;
/** The gateway's default EVENT_STREAMS_PER_KEY: the benchmark opens this many streams per key. */
const STREAMS_PER_KEY = 10;
const SUSTAINED_CONNECTIONS = 8;
const SUSTAINED_SECONDS = envNumber(process.env.BENCH_EVENT_SECONDS, 6);
const BURST = envNumber(process.env.BENCH_EVENT_BURST, 1000);
const FANOUT_BURST = envNumber(process.env.BENCH_EVENT_FANOUT_BURST, 300);
const IDLE_SECONDS = 2;
const TRIGGER_SECONDS = envNumber(process.env.BENCH_EVENT_TRIGGER_SECONDS, 3);
/** Part 3: events numbered since the last vacuum at which a sequencer round is timed. */
const SEQUENCER_DEAD = [100_000, 300_000];
/** Streams opened at once while setting up a variant. */
const OPEN_CONCURRENCY = 50;
const DELIVERY_TIMEOUT_MS = 30_000;
/** The event triggers on the order path (migration event_log). */
const ORDER_PATH_TRIGGERS = [
  ['orders', 'orders_events'],
  ['fills', 'fills_events'],
] as const;

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const signed = (value: number, digits = 2) => `${value >= 0 ? '+' : ''}${round(value, digits)}`;

function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN) };
}

// ---------------------------------------------------------------------------------------------
// An SSE client over node:http: `parse` streams keep every event (eventsource-parser); the others
// only count the events' data lines (1,000 of them are read by this one process).

interface Received {
  id: string;
  type: string;
  objectId: string;
  createdAt: number;
  receivedAt: number;
}

const DATA_LINE = 'data: {';

class SseClient {
  readonly received: Received[] = [];
  count = 0;
  closed = false;
  /** Date.now() when `count` last grew. */
  lastAt = 0;
  private carry = '';
  private waiters: (() => void)[] = [];
  private constructor(private readonly request: http.ClientRequest) {}

  static open(base: string, secret: string, parse: boolean): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${base}/v1/events/stream`, { agent: false, headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream' } });
      const client = new SseClient(request);
      request.on('error', (error) => {
        client.end();
        reject(error);
      });
      request.on('response', (response) => {
        response.setEncoding('utf8');
        if (response.statusCode !== 200) {
          let body = '';
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => reject(new Error(`stream answered ${response.statusCode}: ${body}`)));
          return;
        }
        const parser = parse
          ? createParser({
              onEvent: (event) => {
                const value = JSON.parse(event.data) as { id: string; type: string; created_at: string; data: { id: string } };
                client.received.push({ id: value.id, type: value.type, objectId: value.data.id, createdAt: Date.parse(value.created_at), receivedAt: Date.now() });
                client.grew(1);
              },
            })
          : undefined;
        response.on('data', (chunk: string) => {
          if (parser) return parser.feed(chunk);
          const text = client.carry + chunk;
          let found = 0;
          for (let at = text.indexOf(DATA_LINE); at >= 0; at = text.indexOf(DATA_LINE, at + DATA_LINE.length)) found += 1;
          client.carry = text.slice(-(DATA_LINE.length - 1));
          if (found) client.grew(found);
        });
        response.on('close', () => client.end());
        resolve(client);
      });
    });
  }

  private grew(by: number) {
    this.count += by;
    this.lastAt = Date.now();
    this.wake();
  }
  private end() {
    this.closed = true;
    this.wake();
  }
  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `done` holds (checked as data arrives), false when the stream closed or the time ran out first. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  close() {
    this.request.destroy();
  }
}

/** Opens one stream per secret, OPEN_CONCURRENCY at a time; answers the streams and the seconds it took. */
async function openStreams(base: string, secrets: string[], parse: boolean): Promise<{ streams: SseClient[]; seconds: number }> {
  const started = performance.now();
  const streams: SseClient[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPEN_CONCURRENCY, secrets.length) }, async () => {
      while (next < secrets.length) streams.push(await SseClient.open(base, secrets[next++]!, parse));
    }),
  );
  return { streams, seconds: round((performance.now() - started) / 1000) };
}

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? round(Number(kb) / 1024, 1) : NaN;
  } catch {
    return NaN;
  }
}

// ---------------------------------------------------------------------------------------------

type Variant = 'none' | 'idle' | 'fan-out';

export interface SustainedResult {
  orders: { perSecond: number; p50: number; p99: number };
  /** Events created in the window that each active stream received, per second of window. */
  eventsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  cpu?: CpuReport;
}

export interface BurstResult {
  events: number;
  streams: number;
  /** The UPDATE's own time, from BEGIN to COMMIT returned. */
  transactionMs: number;
  /** From COMMIT returned to the last stream's last event. */
  allDeliveredMs: number;
  /** events ÷ allDeliveredMs (per stream), and events × streams ÷ allDeliveredMs. */
  eventsPerSecond: number;
  deliveriesPerSecond: number;
  /** Per active stream's event: created_at (the transaction's start) to receipt. */
  latencyMs: { p50: number; p99: number; max: number };
  /** Per stream (all of them): COMMIT returned to its last event. */
  streamDoneMs: { p50: number; p99: number; max: number };
  /** Streams that closed (or timed out) before receiving every event. */
  incomplete: number;
  cpu?: CpuReport;
}

export interface VariantRun {
  variant: Variant;
  otherStreams: number;
  openSeconds: number;
  rssMb: { before: number; open: number; afterBurst: number };
  /** Gateway CPU with the streams open and nothing happening. */
  idleServerCores?: number;
  sustained?: SustainedResult;
  burst: BurstResult;
}

export interface TriggerWindow {
  triggers: 'on' | 'off';
  connections: number;
  load: LoadResult;
  /** Events written during the window (and its requests' tails). */
  eventsWritten: number;
  answers: Record<string, number>;
  cpu?: CpuReport;
}

export interface SequencerRound {
  /** Events numbered since the table was last vacuumed (each left a dead index entry with seq NULL). */
  deadSinceVacuum: number;
  /** mk_sequence_events numbering 15 new events (a 50 ms round at 300 events/s). */
  ms: { p50: number; max: number };
}

export interface EventsReport {
  date: string;
  settings: Record<string, unknown>;
  runs: VariantRun[];
  triggers: TriggerWindow[];
  sequencer: SequencerRound[];
  /** Bytes of one order event as the stream sends it (its data line). */
  eventBytes: number;
  problems: string[];
}

export async function runEventsBench(): Promise<EventsReport> {
  const problems: string[] = [];
  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  try {
    await seedSimulatedMarkets(db);
    const market = await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC' } });
    const workspace = await createWorkspace(db, 'bench events');
    const trader = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'trader' });
    const subaccount = async (name: string) =>
      (await db.subaccount.create({ data: { id: `sa_${randomBytes(13).toString('hex')}`, workspaceId: workspace.id, environment: 'test', name, cashBalance: '1000000', riskLimits: { create: {} } } })).id;
    const restingSubaccount = await subaccount('bench events resting');
    const iocSubaccounts: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) iocSubaccounts.push(await subaccount(`bench events ioc ${i}`));
    const keysOf = async (count: number, workspaceOf: (i: number) => Promise<string>) => {
      const secrets: string[] = [];
      for (let i = 0; i < count; i += 1) secrets.push((await createApiKey(db, { workspaceId: await workspaceOf(i), environment: 'test', name: `streams ${i}` })).secret);
      return secrets.flatMap((secret) => Array<string>(STREAMS_PER_KEY).fill(secret));
    };
    const keyCount = Math.ceil(STREAMS / STREAMS_PER_KEY);
    const idleSecrets = (await keysOf(keyCount, async (i) => (await createWorkspace(db, `bench idle ${i}`)).id)).slice(0, STREAMS);
    const fanoutSecrets = (await keysOf(keyCount, async () => workspace.id)).slice(0, STREAMS);
    const activeSecrets = Array<string>(ACTIVE_STREAMS).fill(trader.secret);

    // BENCH_PROFILE=events: the service runs under --cpu-prof (its figures are then the profiler's),
    // and each sustained, burst and trigger window is summarised by layer (profileSummary.ts).
    const profileDir = process.env.BENCH_PROFILE === 'events' ? path.join(RESULTS_DIR, 'profiles', `events-${Date.now()}`) : null;
    const windows: ServerWindow[] = [];
    /** Marks a window of the server's profile (when profiled); end() closes it. */
    const profiled = (target: string) => {
      const window: ServerWindow = { target, from: process.hrtime.bigint(), to: 0n };
      return {
        end: () => {
          window.to = process.hrtime.bigint();
          if (profileDir) windows.push(window);
        },
      };
    };
    let burstNumber = 0;
    let sustainedNumber = 0;
    const server = startChild({
      label: 'events-single',
      script: 'bin/start.ts',
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      env: {
        DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
        INTERNAL_TOKEN: randomBytes(32).toString('base64url'), RATE_LIMIT_DEFAULT: '1000000',
        // Fan-out holds 1,000 streams of the trading workspace: past the per-workspace default (100).
        EVENT_STREAMS_PER_WORKSPACE: String(STREAMS + ACTIVE_STREAMS + 10),
      },
    });
    try {
      const base = String((await server.waitForLog((line) => line.msg === 'listening', 60_000)).url);
      const abort = server.exited.then(({ code, signal }) => `the server exited (${signal ?? `code ${code}`}) under load\n${server.tail()}`);
      const probe = () => cpuProbe(() => ({ server: [server.pid], 'postgres backends': postgresBackendPids(database.name) }));
      let orderNumber = 0;
      /** Order `i`: a YES buy of 1 at 0.05 with its own Idempotency-Key, as bench/orderPlacement.ts places them. */
      const orderRequest = (i: number, subaccountId: string, timeInForce: 'gtc' | 'ioc') => ({
        headers: { authorization: `Bearer ${trader.secret}`, 'content-type': 'application/json', 'idempotency-key': `bench-events-${i}` },
        body: JSON.stringify({ subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '1', time_in_force: timeInForce }),
      });
      const answers: Record<string, number> = {};
      const placeOrders = (connections: number, subaccounts: string[], timeInForce: 'gtc' | 'ioc', window: { warmupSeconds: number; warmupRequests?: number; seconds: number }, hooks: { onWindowStart?: () => void; onWindowEnd?: () => void } = {}) =>
        measure({
          url: `${base}/v1/orders`,
          connections,
          warmupSeconds: window.warmupSeconds,
          warmupRequests: window.warmupRequests,
          warmupMaxSeconds: 20,
          seconds: window.seconds,
          ...hooks,
          abort,
          request: {
            method: 'POST',
            setupRequest: (request) => {
              const i = orderNumber++;
              return { ...request, ...orderRequest(i, subaccounts[i % subaccounts.length]!, timeInForce) };
            },
            onResponse: (status) => {
              answers[status] = (answers[status] ?? 0) + 1;
            },
          },
        });

      process.stdout.write(`  JIT warm-up: ${SUSTAINED_CONNECTIONS} connections of resting buys, with ${ACTIVE_STREAMS} streams open ...\n`);
      const warmStreams = await openStreams(base, activeSecrets, true);
      await placeOrders(SUSTAINED_CONNECTIONS, [restingSubaccount], 'gtc', { warmupSeconds: 3, warmupRequests: 3000, seconds: 1 });
      await sleep(500);
      const sample = warmStreams.streams[0]!.received.length;
      for (const stream of warmStreams.streams) stream.close();
      if (sample === 0) problems.push('warm-up: the active streams received no event');
      const { rows: sizeRows } = await sql.query<{ bytes: number }>(`SELECT octet_length(snapshot::text) AS bytes FROM events WHERE type = 'order.rested' LIMIT 1`);
      const eventBytes = sizeRows[0]?.bytes ?? 0;

      const runs: VariantRun[] = [];
      for (const variant of ['none', 'idle', 'fan-out', 'idle', 'none'] as Variant[]) {
        const run = await runVariant(variant);
        runs.push(run);
        process.stdout.write(`${formatVariantRun(run)}\n`);
      }

      async function runVariant(variant: Variant): Promise<VariantRun> {
        const secrets = variant === 'idle' ? idleSecrets : variant === 'fan-out' ? fanoutSecrets : [];
        const rssBefore = rssMb(server.pid);
        const others = await openStreams(base, secrets, false);
        const active = await openStreams(base, activeSecrets, true);
        await sleep(300); // every stream has joined its hub
        const rssOpen = rssMb(server.pid);
        try {
          const idle = probe();
          idle.start();
          await sleep(IDLE_SECONDS * 1000);
          idle.end();
          const idleServerCores = idle.result(0)?.cores.server;

          let sustained: SustainedResult | undefined;
          if (variant !== 'fan-out') {
            const cpu = probe();
            let from = 0;
            let to = 0;
            let window: { end(): void } | undefined;
            const load = await placeOrders(SUSTAINED_CONNECTIONS, [restingSubaccount], 'gtc', { warmupSeconds: 1, seconds: SUSTAINED_SECONDS }, {
              onWindowStart: () => {
                cpu.start();
                window = profiled(`${variant} sustained ${++sustainedNumber}`);
                from = Date.now();
              },
              onWindowEnd: () => {
                cpu.end();
                window?.end();
                to = Date.now();
              },
            });
            await sleep(500); // the window's last events reach the streams
            const inWindow = active.streams.flatMap((s) => s.received.filter((e) => e.createdAt >= from && e.createdAt < to));
            const seconds = (to - from) / 1000;
            sustained = {
              orders: { perSecond: load.requestsPerSecond, p50: load.latencyMs.p50, p99: load.latencyMs.p99 },
              eventsPerSecond: Math.round(inWindow.length / active.streams.length / seconds),
              latencyMs: spread(inWindow.map((e) => e.receivedAt - e.createdAt)),
              cpu: cpu.result(inWindow.length / active.streams.length / seconds),
            };
            if (load.non2xx || load.errors || load.timeouts) problems.push(`${variant} sustained: ${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts`);
          }

          // Fan-out streams must receive every event of the burst; idle ones (other workspaces) none.
          const fanout = variant === 'fan-out' ? others.streams : [];
          const idleBefore = others.streams.map((stream) => stream.count);
          const burst = await cancelBurst(variant, variant === 'fan-out' ? FANOUT_BURST : BURST, active.streams, fanout);
          if (burst.incomplete) problems.push(`${variant} burst: ${burst.incomplete} of ${burst.streams} streams did not receive all ${burst.events} events`);
          if (variant === 'idle') {
            const leaked = others.streams.filter((stream, i) => stream.count !== idleBefore[i]).length;
            if (leaked) problems.push(`idle burst: ${leaked} streams of other workspaces received events of the trading workspace`);
          }
          return { variant, otherStreams: others.streams.length, openSeconds: others.seconds, rssMb: { before: rssBefore, open: rssOpen, afterBurst: rssMb(server.pid) }, idleServerCores, sustained, burst };
        } finally {
          for (const stream of [...active.streams, ...others.streams]) stream.close();
          await sleep(500); // the gateway frees their places before the next variant opens its own
        }
      }

      /** Places resting orders through REST (8 at a time) until the subaccount has at least `count`: a slow sustained window leaves too few. */
      async function restingOrders(count: number) {
        const open = async () => Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE subaccount_id = $1 AND status = 'open'`, [restingSubaccount])).rows[0]!.n);
        let missing = count - (await open());
        if (missing <= 0) return;
        await Promise.all(
          Array.from({ length: SUSTAINED_CONNECTIONS }, async () => {
            while (missing-- > 0) {
              const response = await fetch(`${base}/v1/orders`, { method: 'POST', ...orderRequest(orderNumber++, restingSubaccount, 'gtc') });
              if (response.status !== 200) throw new Error(`a resting order for the burst was answered ${response.status}: ${await response.text()}`);
            }
          }),
        );
      }

      /** Cancels `size` resting orders in one statement; waits until every stream has every order.canceled. */
      async function cancelBurst(variant: Variant, size: number, active: SseClient[], counted: SseClient[]): Promise<BurstResult> {
        await restingOrders(size);
        const countedBefore = counted.map((s) => s.count);
        const cpu = probe();
        cpu.start();
        const window = profiled(`${variant} burst ${++burstNumber}`);
        const began = performance.now();
        await sql.query('BEGIN');
        const { rows } = await sql.query<{ id: string }>(
          `UPDATE orders SET status = 'canceled', updated_at = now()
            WHERE id IN (SELECT id FROM orders WHERE subaccount_id = $1 AND status = 'open' ORDER BY created_at LIMIT $2) RETURNING id`,
          [restingSubaccount, size],
        );
        await sql.query('COMMIT');
        const committedAt = Date.now();
        const transactionMs = round(performance.now() - began);
        const ids = new Set(rows.map((row) => row.id));
        const doneAt: number[] = [];
        let incomplete = 0;
        await Promise.all([
          ...active.map(async (stream) => {
            const burstEvents = () => stream.received.filter((e) => e.type === 'order.canceled' && ids.has(e.objectId));
            if (await stream.until(() => burstEvents().length >= ids.size, DELIVERY_TIMEOUT_MS)) doneAt.push(Math.max(...burstEvents().map((e) => e.receivedAt)));
            else incomplete += 1;
          }),
          ...counted.map(async (stream, i) => {
            if (await stream.until(() => stream.count - countedBefore[i]! >= ids.size, DELIVERY_TIMEOUT_MS)) doneAt.push(stream.lastAt);
            else incomplete += 1;
          }),
        ]);
        cpu.end();
        window.end();
        const latencies = active.flatMap((s) => s.received.filter((e) => e.type === 'order.canceled' && ids.has(e.objectId)).map((e) => e.receivedAt - e.createdAt));
        const streams = active.length + counted.length;
        const allDeliveredMs = Math.max(1, ...doneAt.map((at) => at - committedAt));
        return {
          events: ids.size,
          streams,
          transactionMs,
          allDeliveredMs,
          eventsPerSecond: Math.round((ids.size * 1000) / allDeliveredMs),
          deliveriesPerSecond: Math.round((ids.size * streams * 1000) / allDeliveredMs),
          latencyMs: spread(latencies),
          streamDoneMs: spread(doneAt.map((at) => at - committedAt)),
          incomplete,
          cpu: cpu.result((ids.size * streams * 1000) / allDeliveredMs),
        };
      }

      // Part 2: the order path with the event triggers on and off, alternating.
      const triggers: TriggerWindow[] = [];
      let triggerNumber = 0;
      const setTriggers = async (on: boolean) => {
        for (const [table, trigger] of ORDER_PATH_TRIGGERS) await sql.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
      };
      const eventCount = async () => Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
      try {
        for (const connections of [1, CONNECTIONS]) {
          for (const on of [true, false, true, false, true, false]) {
            await setTriggers(on);
            const before = await eventCount();
            for (const key of Object.keys(answers)) delete answers[key];
            const cpu = probe();
            let window: { end(): void } | undefined;
            const load = await placeOrders(connections, connections === 1 ? [restingSubaccount] : iocSubaccounts, connections === 1 ? 'gtc' : 'ioc', { warmupSeconds: 1, seconds: TRIGGER_SECONDS }, {
              onWindowStart: () => {
                cpu.start();
                window = profiled(`triggers ${on ? 'on' : 'off'} at ${connections} ${++triggerNumber}`);
              },
              onWindowEnd: () => {
                cpu.end();
                window?.end();
              },
            });
            await sleep(300); // requests in flight at the window's end complete
            const result: TriggerWindow = { triggers: on ? 'on' : 'off', connections, load, eventsWritten: (await eventCount()) - before, answers: { ...answers }, cpu: cpu.result(load.requestsPerSecond) };
            triggers.push(result);
            process.stdout.write(`${formatTriggerWindow(result)}\n`);
            const sent = Object.values(result.answers).reduce((a, b) => a + b, 0);
            if (Object.keys(result.answers).some((status) => status !== '200')) problems.push(`triggers ${result.triggers}, ${connections} connection(s): answers ${JSON.stringify(result.answers)}`);
            if (on ? result.eventsWritten < sent : result.eventsWritten !== 0) problems.push(`triggers ${result.triggers}, ${connections} connection(s): ${result.eventsWritten} events for ${sent} orders`);
          }
        }
      } finally {
        await setTriggers(true);
      }
      if (profileDir) await summariseProfiledWindows(server, profileDir, 'events', windows);
      await server.stop(); // nothing numbers events behind part 3's back
      const sequencer = await sequencerRounds(sql);

      return {
        date: new Date().toISOString(),
        settings: {
          server: 'bin/start.ts (gateway + core in one process, in-process notices), LOG_LEVEL info, EVENT_* defaults, fresh PostgreSQL database',
          streams: STREAMS, activeStreams: ACTIVE_STREAMS, streamsPerKey: STREAMS_PER_KEY, sustainedConnections: SUSTAINED_CONNECTIONS,
          sustainedSeconds: SUSTAINED_SECONDS, burst: BURST, fanoutBurst: FANOUT_BURST, triggerSeconds: TRIGGER_SECONDS, connections: CONNECTIONS,
        },
        runs,
        triggers,
        sequencer,
        eventBytes,
        problems,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await sql.end();
    await db.$disconnect();
    await database.drop();
  }
}

/**
 * Part 3: the cost of one sequencer round (mk_sequence_events, as the core calls it every 50 ms)
 * as the events numbered since the last vacuum pile up. Numbering updates each event, so the
 * version it had before (seq NULL) stays in the seq index until VACUUM, and the round's search for
 * `seq IS NULL` walks them all. Autovacuum is off for `events` meanwhile, to hold the state between
 * two of its runs still (by default it runs when dead rows reach 20% of the table). Synthetic
 * events (mk_record_event), on the benchmark's database after the server stopped.
 */
async function sequencerRounds(sql: Client): Promise<SequencerRound[]> {
  await sql.query('ALTER TABLE events SET (autovacuum_enabled = false)');
  const record = (count: number) =>
    sql.query(`SELECT mk_record_event('order.accepted', 'ws_sequencer', 'test', NULL, 'order', 'ord_' || g, NULL, '{}'::jsonb) FROM generate_series(1, $1::integer) g`, [count]);
  const numberAll = async () => {
    while ((await sql.query('SELECT * FROM mk_sequence_events(100000)')).rows.length);
  };
  const measureRound = async (deadSinceVacuum: number): Promise<SequencerRound> => {
    const times: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      await record(15);
      const started = performance.now();
      await sql.query('SELECT * FROM mk_sequence_events(1000)');
      times.push(performance.now() - started);
    }
    const result = { deadSinceVacuum, ms: { p50: round(percentile(times.sort((a, b) => a - b), 50)), max: round(times[times.length - 1]!) } };
    process.stdout.write(`  sequencer round (15 new events) with ${n(deadSinceVacuum)} events numbered since the last vacuum: p50 ${result.ms.p50} ms, max ${result.ms.max} ms\n`);
    return result;
  };
  try {
    await numberAll();
    await sql.query('VACUUM events');
    const rounds = [await measureRound(0)];
    let dead = 21 * 15;
    for (const target of SEQUENCER_DEAD) {
      await record(target - dead);
      await numberAll();
      dead = target;
      rounds.push(await measureRound(dead));
      dead += 21 * 15;
    }
    return rounds;
  } finally {
    await sql.query('ALTER TABLE events RESET (autovacuum_enabled)');
  }
}

// ---------------------------------------------------------------------------------------------
// Reporting.

const VARIANT_TEXT: Record<Variant, string> = {
  none: 'no other stream',
  idle: `${n(STREAMS)} idle streams of ${Math.ceil(STREAMS / STREAMS_PER_KEY)} other workspaces`,
  'fan-out': `${n(STREAMS)} more streams of the same workspace`,
};

function formatVariantRun(run: VariantRun): string {
  const lines = [`  ${run.variant} (${VARIANT_TEXT[run.variant]}, + ${ACTIVE_STREAMS} active): opened in ${run.openSeconds} s; server RSS ${run.rssMb.before} → ${run.rssMb.open} MB open → ${run.rssMb.afterBurst} MB after the burst; idle server CPU ${run.idleServerCores?.toFixed(2) ?? '?'} cores`];
  const s = run.sustained;
  if (s) {
    lines.push(
      `    sustained (${SUSTAINED_CONNECTIONS} connections of resting buys): ${n(s.orders.perSecond)} orders/s (p50 ${s.orders.p50} / p99 ${s.orders.p99} ms); ` +
        `${n(s.eventsPerSecond)} events/s to each active stream, created_at → received p50 ${s.latencyMs.p50} / p99 ${s.latencyMs.p99} ms (max ${s.latencyMs.max})`,
    );
    if (s.cpu) lines.push(`      ${formatCpuCores(s.cpu, 'event')}`);
    const note = busyNote(s.cpu?.cores['other processes'], `${run.variant} sustained`);
    if (note) lines.push(`      ${note}`);
  }
  const b = run.burst;
  lines.push(
    `    burst (${n(b.events)} order.canceled in one transaction of ${b.transactionMs} ms, to ${n(b.streams)} streams): all delivered ${b.allDeliveredMs} ms after COMMIT: ` +
      `${n(b.eventsPerSecond)} events/s per stream, ${n(b.deliveriesPerSecond)} deliveries/s; created_at → received p50 ${b.latencyMs.p50} / p99 ${b.latencyMs.p99} ms; ` +
      `per stream done p50 ${b.streamDoneMs.p50} / p99 ${b.streamDoneMs.p99} ms${b.incomplete ? `; !!! ${b.incomplete} streams incomplete` : ''}`,
  );
  if (b.cpu) lines.push(`      ${formatCpuCores(b.cpu, 'delivery')}`);
  const note = busyNote(b.cpu?.cores['other processes'], `${run.variant} burst`);
  if (note) lines.push(`      ${note}`);
  return lines.join('\n');
}

function formatTriggerWindow(w: TriggerWindow): string {
  const lines = [
    `  triggers ${w.triggers}, ${w.connections} connection(s): ${n(w.load.requestsPerSecond)} orders/s, p50 ${w.load.latencyMs.p50} / p99 ${w.load.latencyMs.p99} ms; ${n(w.eventsWritten)} events written`,
  ];
  if (w.cpu) lines.push(`    ${formatCpuCores(w.cpu, 'order')}`);
  const note = busyNote(w.cpu?.cores['other processes'], `triggers ${w.triggers} at ${w.connections}`);
  if (note) lines.push(`    ${note}`);
  return lines.join('\n');
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** The summary: each variant's figures (mean of its runs) against the baseline's, and the triggers' cost. */
export function formatEventsReport(r: EventsReport): string {
  const lines: string[] = [`  one order event is ${r.eventBytes} bytes of snapshot`];
  const of = (variant: Variant) => r.runs.filter((run) => run.variant === variant);
  const none = of('none');
  const idle = of('idle');
  const fanout = of('fan-out');
  const sustained = (runs: VariantRun[], pick: (s: SustainedResult) => number) => mean(runs.flatMap((run) => (run.sustained ? [pick(run.sustained)] : [])));
  const burst = (runs: VariantRun[], pick: (b: BurstResult) => number) => mean(runs.map((run) => pick(run.burst)));
  const list = (runs: VariantRun[], pick: (run: VariantRun) => number | undefined) => runs.map((run) => pick(run) ?? NaN).join(' / ');
  if (none.length && idle.length) {
    lines.push(
      `  sustained, events/s to each active stream: none ${list(none, (x) => x.sustained?.eventsPerSecond)}, idle ${list(idle, (x) => x.sustained?.eventsPerSecond)}; ` +
        `ratio idle/none ${round(sustained(idle, (s) => s.eventsPerSecond) / sustained(none, (s) => s.eventsPerSecond), 3)}`,
      `  sustained, delivery p50/p99 ms: none ${list(none, (x) => x.sustained?.latencyMs.p50)} / ${list(none, (x) => x.sustained?.latencyMs.p99)}, idle ${list(idle, (x) => x.sustained?.latencyMs.p50)} / ${list(idle, (x) => x.sustained?.latencyMs.p99)}`,
      `  sustained, orders/s: none ${list(none, (x) => x.sustained?.orders.perSecond)}, idle ${list(idle, (x) => x.sustained?.orders.perSecond)}`,
      `  burst of ${BURST}, events/s per stream: none ${list(none, (x) => x.burst.eventsPerSecond)}, idle ${list(idle, (x) => x.burst.eventsPerSecond)}; ` +
        `ratio idle/none ${round(burst(idle, (b) => b.eventsPerSecond) / burst(none, (b) => b.eventsPerSecond), 3)}`,
      `  idle server CPU (cores): none ${list(none, (x) => x.idleServerCores)}, idle ${list(idle, (x) => x.idleServerCores)}, fan-out ${list(fanout, (x) => x.idleServerCores)}`,
      `  server RSS with the streams open (MB): none ${list(none, (x) => x.rssMb.open)}, idle ${list(idle, (x) => x.rssMb.open)}, fan-out ${list(fanout, (x) => x.rssMb.open)} (after its burst ${list(fanout, (x) => x.rssMb.afterBurst)})`,
    );
  }
  if (fanout.length) {
    lines.push(
      `  fan-out burst of ${FANOUT_BURST} to ${fanout[0]!.burst.streams} streams: ${list(fanout, (x) => x.burst.deliveriesPerSecond)} deliveries/s, all delivered in ${list(fanout, (x) => x.burst.allDeliveredMs)} ms ` +
        `(none's burst of ${BURST} to ${none[0]?.burst.streams ?? '?'}: ${list(none, (x) => x.burst.deliveriesPerSecond)} deliveries/s)`,
    );
  }
  for (const connections of [...new Set(r.triggers.map((w) => w.connections))]) {
    const windows = r.triggers.filter((w) => w.connections === connections);
    const on = windows.filter((w) => w.triggers === 'on');
    const off = windows.filter((w) => w.triggers === 'off');
    const each = (ws: TriggerWindow[], pick: (w: TriggerWindow) => number) => ws.map(pick).join(' / ');
    const p50 = (ws: TriggerWindow[]) => mean(ws.map((w) => w.load.latencyMs.p50));
    const p99 = (ws: TriggerWindow[]) => mean(ws.map((w) => w.load.latencyMs.p99));
    const rate = (ws: TriggerWindow[]) => mean(ws.map((w) => w.load.requestsPerSecond));
    const cpuMs = (ws: TriggerWindow[], group: string) => mean(ws.map((w) => w.cpu?.msPerRequest[group] ?? NaN));
    lines.push(
      `  POST /v1/orders, ${connections} connection(s), event triggers on vs off: p50 ${each(on, (w) => w.load.latencyMs.p50)} vs ${each(off, (w) => w.load.latencyMs.p50)} ms ` +
        `(${signed(p50(on) - p50(off))} ms, ratio ${round(p50(on) / p50(off), 3)}); p99 ${each(on, (w) => w.load.latencyMs.p99)} vs ${each(off, (w) => w.load.latencyMs.p99)} ms ` +
        `(${signed(p99(on) - p99(off))} ms); ${each(on, (w) => w.load.requestsPerSecond)} vs ${each(off, (w) => w.load.requestsPerSecond)} orders/s (ratio ${round(rate(on) / rate(off), 3)}); ` +
        `CPU ms/order, postgres ${each(on, (w) => w.cpu?.msPerRequest['postgres backends'] ?? NaN)} vs ${each(off, (w) => w.cpu?.msPerRequest['postgres backends'] ?? NaN)} ` +
        `(${signed(cpuMs(on, 'postgres backends') - cpuMs(off, 'postgres backends'), 3)}), server ${each(on, (w) => w.cpu?.msPerRequest.server ?? NaN)} vs ${each(off, (w) => w.cpu?.msPerRequest.server ?? NaN)} ` +
        `(${signed(cpuMs(on, 'server') - cpuMs(off, 'server'), 3)})`,
    );
  }
  if (r.sequencer.length) {
    lines.push(`  sequencer round numbering 15 events, p50 (max) ms by events numbered since the last vacuum: ${r.sequencer.map((x) => `${n(x.deadSinceVacuum)}: ${x.ms.p50} (${x.ms.max})`).join(', ')}`);
  }
  for (const problem of r.problems) lines.push(`  !!! ${problem}`);
  return lines.join('\n');
}

export function writeEventsReport(report: EventsReport) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'events.json'), `${JSON.stringify(report, null, 2)}\n`);
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    const started = Date.now();
    const report = await runEventsBench();
    writeEventsReport(report);
    process.stdout.write(`\n== event log summary (${Math.round((Date.now() - started) / 1000)} s)\n${formatEventsReport(report)}\n  details: bench-results/events.json\n`);
    return report.problems.length ? 1 : 0;
  });
}
