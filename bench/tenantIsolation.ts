/**
 * What one hostile workspace costs a neighbour workspace (issue 25), on the real stack: the
 * service as `npm start` runs it (dist/bin/start.js after `node scripts/build.js`: gateway and core
 * in one process, in-process notices, no Redis; with BENCH_TENANT_REDIS=1 the same again with
 * REDIS_URL), over loopback HTTP, on a fresh PostgreSQL database, LOG_LEVEL info, every other
 * setting at its default (RATE_LIMIT_DEFAULT 50 requests/s included: the hostile workspace's
 * credentials get it; the benchmark's own two setup keys and the neighbour's key are created with
 * 100,000/s, so that measuring is never limited).
 *
 * Two workspaces: A (hostile) and B (the neighbour). B's figure is always the same: `GET
 * /v1/markets?limit=20` with its API key, NEIGHBOUR_RATE (200) requests a second over up to
 * NEIGHBOUR_CONNECTIONS keep-alive connections, each started when due (an open loop, a busy bot's
 * pace) and timed from when it was due (a request held behind a stalled one counts its wait: no
 * coordinated omission); a small node:http client in the benchmark's process, not autocannon (a
 * blocked server answers a request tens of seconds late, which autocannon would count as a timeout
 * and leave out of its percentiles). Not a closed loop as fast as the server answers: such a
 * neighbour takes the whole machine by itself (1.6 of 2 cores here), and then any other work, a
 * hostile tenant's or not, lengthens its queue in proportion: it would measure the share of CPU,
 * which no isolation between tenants can keep. A window's latencies are those of the requests *started* in it,
 * each awaited until it is answered or TAIL_SECONDS after the window closed (then counted at that
 * age, as a lower bound, and marked unanswered). Each scenario runs on a fresh service process
 * (same database), so that its RSS starts from the same place: the neighbour warms it up, its
 * quiet window is measured, then the same window with the hostile load running.
 *
 * The hostile load runs in a child process (this file with BENCH_TENANT_ROLE set), so that its
 * reading does not stall the neighbour's event loop here; its CPU is accounted apart.
 *
 * 1. Introspection bomb: HOSTILE_REQUESTS concurrent loops, each a POST /analyst/graphql of a
 *    query of BOMB_ALIASES aliases of `__schema { ...F }` (F: types { name kind fields { name type
 *    { name kind ofType { name kind } } } }; ~24 KB), sent again as soon as it is answered, for
 *    the window; `X-Environment: test` and either A's dashboard token (Bearer mk_dash_…) or A's
 *    dashboard session cookie (a read-only analyst; signed in with POST /v1/session). Figures: the
 *    hostile answers by status, their latency (p50/max; those unanswered TAIL_SECONDS after the
 *    window counted at that age), server RSS before the attack, its peak and after it (once the
 *    hostile requests were answered or given up), the neighbour's p50/p99 quiet vs during.
 * 2. Reconnect storm: A's log holds STORM_EVENTS real events (resting buys placed through REST,
 *    `order.accepted` and `order.rested` each, then all canceled by one SQL statement, whose
 *    trigger writes `order.canceled`, as bench/events.ts makes its bursts). STORM_CLIENTS SSE
 *    clients of A, spread over A's API keys (created through POST /v1/api_keys with A's dashboard
 *    token, as many as the service allows: EVENT_STREAMS_PER_KEY is 10 by default), each connect
 *    to GET /v1/events/stream with `Last-Event-ID` the log's first event (so each replays the rest
 *    of it), read until they have every event, disconnect and connect again, for the window (a
 *    refused connection is tried again after STORM_REFUSED_PAUSE_MS). Figures: A's answers by
 *    status, replays completed and their time, the neighbour's p50/p99 quiet vs during, server RSS
 *    at the start, its peak, and after the storm (read every second for 30 s after the clients
 *    closed: the goal is on the last reading, once the idle process has returned what it can).
 *
 * Goals (bench/goals.ts): the bomb, neighbour p99 during ÷ quiet <= 2, every hostile request
 * answered (refused) in under 100 ms, RSS growth under 20 MB (token and cookie, the worse of the
 * two); the storm, neighbour p99 during ÷ quiet <= 3, RSS after the storm within 50 MB of its start.
 * A missed goal is reported, not fatal. A service that dies under the hostile load is a result
 * (reported, and the next scenario starts a fresh one); the run fails only when the benchmark
 * could not run (no database, a service that does not start, a neighbour answered other than 200
 * when quiet, a seed step failing other than by a refusal of A's extra keys).
 *
 * Run alone: npx tsx bench/tenantIsolation.ts   (~2 min; see bench/README.md for the settings)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { createPrismaClient } from '../core/db/prismaClient';
import { eventId } from '../contract/eventTypes';
import { createApiKey, createDashboardToken } from '../core/services/accounts/apiKeys';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { createUser } from '../core/services/accounts/users';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { REFUSAL_DELAY_MS } from '../gateway/refusalDelay';
import { GOALS, goalMet, goalText, type GoalResult } from './goals';
import {
  RESULTS_DIR,
  ROOT,
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
  type ManagedChild,
} from './support';

const SECONDS = envNumber(process.env.BENCH_TENANT_SECONDS, 5);
const WARMUP_SECONDS = envNumber(process.env.BENCH_TENANT_WARMUP_SECONDS, 2);
const TAIL_SECONDS = envNumber(process.env.BENCH_TENANT_TAIL_SECONDS, 10);
const NEIGHBOUR_CONNECTIONS = envNumber(process.env.BENCH_TENANT_CONNECTIONS, 8);
/** The neighbour's requests per second: a busy bot's pace, leaving the machine room (see the header). */
const NEIGHBOUR_RATE = envNumber(process.env.BENCH_TENANT_RATE, 200);
const HOSTILE_REQUESTS = envNumber(process.env.BENCH_TENANT_BOMB_CONCURRENCY, 20);
const BOMB_ALIASES = envNumber(process.env.BENCH_TENANT_BOMB_ALIASES, 1000);
const STORM_CLIENTS = envNumber(process.env.BENCH_TENANT_STORM_CLIENTS, 240);
const STORM_EVENTS = envNumber(process.env.BENCH_TENANT_STORM_EVENTS, 3000);
const STORM_REFUSED_PAUSE_MS = 100;
/** The service's default EVENT_STREAMS_PER_KEY: A asks for this many keys' worth of streams. */
const STREAMS_PER_KEY = 10;
/** After the storm: RSS read every second this long (V8 returns memory some 25 s into idleness). */
const RSS_SETTLE_MAX_SECONDS = 30;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WITH_REDIS = process.env.BENCH_TENANT_REDIS === '1';
/** Rate limit of the benchmark's own keys (A's trader for the seed, B's): the service's maximum per key. */
const UNLIMITED = 100_000;

const n = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : String(value));

function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN) };
}

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? round(Number(kb) / 1024, 1) : NaN;
  } catch {
    return NaN;
  }
}

/** The bomb's document: `aliases` copies of the whole schema's introspection, ~24 bytes each. */
export function bombQuery(aliases: number): string {
  const fragment = 'fragment F on __Schema { types { name kind fields { name type { name kind ofType { name kind } } } } }';
  return `query Bomb { ${Array.from({ length: aliases }, (_, i) => `s${i}: __schema { ...F }`).join(' ')} }\n${fragment}`;
}

// ---------------------------------------------------------------------------------------------
// The neighbour: GETs at a fixed rate (an open loop) over keep-alive connections, windows by start time.

interface Sample {
  startedAt: number;
  ms: number;
  status: number | 'error' | 'unanswered';
  /** A connection error's code (ECONNRESET, ...). */
  error?: string;
}

export interface NeighbourWindow {
  seconds: number;
  requests: number;
  answeredPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answers by status; `error` a connection error, `unanswered` still waiting TAIL_SECONDS after the window (counted at that age). */
  statuses: Record<string, number>;
  /** Connection errors by code. */
  errors: Record<string, number>;
  cpu?: CpuReport;
}

class Neighbour {
  private readonly agent: http.Agent;
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly connections: number,
    private readonly rate: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  private get(inFlight: Map<http.ClientRequest, Sample>, scheduledAt: number): Promise<Sample> {
    return new Promise((resolve) => {
      // Counted from when it was due, not from when a socket took it: a server that stalls delays
      // the requests queued behind it too (no coordinated omission).
      const sample: Sample = { startedAt: scheduledAt, ms: 0, status: 'error' };
      const request = http.get(this.url, { agent: this.agent, headers: this.headers });
      inFlight.set(request, sample);
      const done = (status: Sample['status'], error?: Error) => {
        if (!inFlight.delete(request)) return;
        sample.ms = performance.now() - sample.startedAt;
        sample.status = status;
        if (error) sample.error = (error as NodeJS.ErrnoException).code ?? error.message;
        resolve(sample);
      };
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 'error'));
        response.on('error', (error) => done('error', error));
      });
      request.on('error', (error) => done('error', error));
    });
  }

  /**
   * Runs the load for `seconds` (after `warmupSeconds` not counted): NEIGHBOUR_RATE requests a
   * second, each started when it is due whatever the others are doing (an open loop); the requests
   * started in the window are awaited up to `tailSeconds` after it. `hooks` mark the window (CPU
   * accounting).
   */
  async run(seconds: number, options: { warmupSeconds?: number; tailSeconds?: number; onWindowStart?: () => void; onWindowEnd?: () => void } = {}): Promise<NeighbourWindow> {
    const inFlight = new Map<http.ClientRequest, Sample>();
    const samples: Sample[] = [];
    const began = performance.now();
    const from = began + (options.warmupSeconds ?? 0) * 1000;
    const to = from + seconds * 1000;
    let opened = false;
    const windowStart = setTimeout(() => {
      opened = true;
      options.onWindowStart?.();
    }, Math.max(0, from - performance.now()));
    const windowEnd = setTimeout(() => options.onWindowEnd?.(), Math.max(0, to - performance.now()));
    const started: Promise<void>[] = [];
    const intervalMs = 1000 / this.rate;
    for (let n = 0; ; n += 1) {
      const due = began + n * intervalMs;
      if (due >= to) break;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      started.push(
        this.get(inFlight, due).then((sample) => {
          if (sample.startedAt >= from && sample.startedAt < to) samples.push(sample);
        }),
      );
    }
    const workers = started;
    const all = Promise.all(workers);
    await sleep(Math.max(0, to - performance.now()));
    let tail: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (tail = setTimeout(resolve, (options.tailSeconds ?? TAIL_SECONDS) * 1000)))]);
    clearTimeout(tail);
    clearTimeout(windowStart);
    clearTimeout(windowEnd);
    if (!opened) options.onWindowStart?.();
    const now = performance.now();
    for (const [request, sample] of inFlight) {
      if (sample.startedAt >= from && sample.startedAt < to) samples.push({ ...sample, ms: now - sample.startedAt, status: 'unanswered' });
      request.destroy();
    }
    inFlight.clear();
    const statuses: Record<string, number> = {};
    const errors: Record<string, number> = {};
    for (const sample of samples) {
      statuses[String(sample.status)] = (statuses[String(sample.status)] ?? 0) + 1;
      if (sample.error) errors[sample.error] = (errors[sample.error] ?? 0) + 1;
    }
    const answered = samples.filter((s) => typeof s.status === 'number').length;
    return { seconds, requests: samples.length, answeredPerSecond: Math.round(answered / seconds), latencyMs: spread(samples.map((s) => s.ms)), statuses, errors };
  }

  close() {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The hostile side, in a child process: this file with BENCH_TENANT_ROLE=bomb|storm and its
// settings in BENCH_TENANT_CONFIG. It prints {"msg":"hostile started"} once its first requests
// are out and, on SIGTERM, stops, waits for what is in flight (up to tailMs), and prints
// {"msg":"hostile result", ...}.

interface BombConfig {
  role: 'bomb';
  /** Answers to requests started this long after the first are counted (the neighbour's own warm-up before its window). */
  warmupMs: number;
  base: string;
  headers: Record<string, string>;
  concurrency: number;
  aliases: number;
  tailMs: number;
}

interface StormConfig {
  role: 'storm';
  base: string;
  /** One per client (a key's secret repeated for each of its streams). */
  secrets: string[];
  lastEventId: string;
  /** Events each replay must receive (the log after lastEventId). */
  expected: number;
  refusedPauseMs: number;
}

export interface BombResult {
  requests: number;
  statuses: Record<string, number>;
  /** Answered requests' latency (ms), of those started after the first second (the warm-up the neighbour has too). */
  latencyMs: { p50: number; p99: number; max: number };
  /**
   * The same, of the answers to the query itself (every status but 429), and of the 429s: a
   * credential past its own rate or concurrency is refused REFUSAL_DELAY_MS late on purpose
   * (gateway/refusalDelay.ts), so those are reported apart from the goal on the query's answer.
   */
  queryAnsweredMs: { p50: number; p99: number; max: number };
  rateLimitedMs: { p50: number; p99: number; max: number };
  /** Requests still unanswered when given up (tailMs after the window), and their age then. */
  unanswered: number;
  /** Of those, the ones whose answer had begun (its head, by status) but not ended. */
  unansweredBegun: Record<string, number>;
  unansweredAgeMs: number;
  bytes: number;
  /** The start of the first answer of each status. */
  samples: Record<string, string>;
}

export interface StormResult {
  connects: number;
  /** Answers by status (when their head arrived; `error` a connection error). */
  statuses: Record<string, number>;
  /** Time from connecting to the answer's head. */
  answerMs: { p50: number; p99: number; max: number };
  /** Connections still waiting for their answer, and streams still replaying, when the storm stopped. */
  waitingAtStop: number;
  replayingAtStop: number;
  replays: number;
  replayMs: { p50: number; p99: number; max: number };
  /** Streams that ended before they had every event (the service hung up). */
  endedEarly: number;
  events: number;
  bytes: number;
  samples: Record<string, string>;
}

function printLine(line: Record<string, unknown>) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function runBombRole(config: BombConfig) {
  const body = JSON.stringify({ query: bombQuery(config.aliases) });
  const url = new URL('/analyst/graphql', config.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.concurrency });
  const inFlight = new Map<http.ClientRequest, number>();
  const begun = new Map<http.ClientRequest, string>();
  const statuses: Record<string, number> = {};
  const samples: Record<string, string> = {};
  const latencies: number[] = [];
  const queryAnswered: number[] = [];
  const rateLimited: number[] = [];
  let bytes = 0;
  let requests = 0;
  let stopping = false;
  const countedFrom = performance.now() + config.warmupMs;
  const once = () =>
    new Promise<void>((resolve) => {
      const startedAt = performance.now();
      requests += 1;
      const request = http.request(url, {
        method: 'POST',
        agent,
        headers: { ...config.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      });
      inFlight.set(request, startedAt);
      const done = (status: string) => {
        begun.delete(request);
        if (!inFlight.delete(request)) return resolve();
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== 'error' && startedAt >= countedFrom) {
          const ms = performance.now() - startedAt;
          latencies.push(ms);
          (status === '429' ? rateLimited : queryAnswered).push(ms);
        }
        resolve();
      };
      request.on('response', (response) => {
        const status = String(response.statusCode);
        begun.set(request, status);
        let head = '';
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (samples[status] === undefined && head.length < 300) head += chunk.subarray(0, 300 - head.length).toString('utf8');
        });
        response.on('end', () => {
          samples[status] ??= head;
          done(status);
        });
        response.on('error', () => done('error'));
      });
      request.on('error', () => done('error'));
      request.end(body);
    });
  const workers = Array.from({ length: config.concurrency }, async () => {
    while (!stopping) await once();
  });
  printLine({ msg: 'hostile started' });
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  stopping = true;
  let tail: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(workers), new Promise<void>((resolve) => (tail = setTimeout(resolve, config.tailMs)))]);
  clearTimeout(tail);
  const now = performance.now();
  const ages = [...inFlight.values()].map((startedAt) => now - startedAt);
  const unanswered = inFlight.size;
  const unansweredBegun: Record<string, number> = {};
  for (const request of inFlight.keys()) {
    const status = begun.get(request);
    if (status) unansweredBegun[status] = (unansweredBegun[status] ?? 0) + 1;
  }
  for (const request of [...inFlight.keys()]) request.destroy();
  inFlight.clear();
  const result: BombResult = {
    requests,
    statuses,
    latencyMs: spread(latencies),
    queryAnsweredMs: spread(queryAnswered),
    rateLimitedMs: spread(rateLimited),
    unanswered,
    unansweredBegun,
    unansweredAgeMs: round(Math.max(0, ...ages)),
    bytes,
    samples,
  };
  printLine({ msg: 'hostile result', result });
}

const DATA_LINE = Buffer.from('data: {');

async function runStormRole(config: StormConfig) {
  const url = new URL('/v1/events/stream', config.base);
  const open = new Set<http.ClientRequest>();
  const statuses: Record<string, number> = {};
  const samples: Record<string, string> = {};
  const replayMs: number[] = [];
  const answerMs: number[] = [];
  const waiting = new Set<http.ClientRequest>();
  let connects = 0;
  let endedEarly = 0;
  let events = 0;
  let bytes = 0;
  let stopping = false;
  /** One connection: answered status, and whether it received every event. */
  const connect = (secret: string) =>
    new Promise<number | 'error'>((resolve) => {
      const startedAt = performance.now();
      connects += 1;
      const request = http.get(url, { agent: false, headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream', 'last-event-id': config.lastEventId } });
      open.add(request);
      waiting.add(request);
      let settled = false;
      const settle = (status: number | 'error') => {
        open.delete(request);
        waiting.delete(request);
        if (settled) return;
        settled = true;
        resolve(status);
      };
      request.on('error', () => {
        if (waiting.has(request) && !stopping) statuses.error = (statuses.error ?? 0) + 1;
        settle('error');
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        waiting.delete(request);
        statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
        answerMs.push(performance.now() - startedAt);
        if (status !== 200) {
          let head = '';
          response.on('data', (chunk: Buffer) => {
            if (head.length < 300) head += chunk.subarray(0, 300 - head.length).toString('utf8');
          });
          response.on('end', () => {
            samples[String(status)] ??= head;
            settle(status);
          });
          response.on('error', () => settle(status));
          return;
        }
        let count = 0;
        let carry = Buffer.alloc(0);
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const text = carry.length ? Buffer.concat([carry, chunk]) : chunk;
          for (let at = text.indexOf(DATA_LINE); at >= 0; at = text.indexOf(DATA_LINE, at + DATA_LINE.length)) count += 1;
          carry = Buffer.from(text.subarray(Math.max(0, text.length - (DATA_LINE.length - 1))));
          if (count >= config.expected && !settled) {
            events += count;
            replayMs.push(performance.now() - startedAt);
            request.destroy();
            settle(200);
          }
        });
        response.on('close', () => {
          if (settled) return;
          events += count;
          if (!stopping) endedEarly += 1;
          settle(200);
        });
      });
    });
  const clients = config.secrets.map(async (secret) => {
    while (!stopping) {
      const status = await connect(secret);
      if (status !== 200 && !stopping) await sleep(config.refusedPauseMs);
    }
  });
  printLine({ msg: 'hostile started' });
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  stopping = true;
  const waitingAtStop = waiting.size;
  const replayingAtStop = open.size - waiting.size;
  for (const request of [...open]) request.destroy();
  await Promise.race([Promise.all(clients), sleep(2000)]);
  const result: StormResult = {
    connects, statuses, answerMs: spread(answerMs), waitingAtStop, replayingAtStop, replays: replayMs.length, replayMs: spread(replayMs), endedEarly, events, bytes, samples,
  };
  printLine({ msg: 'hostile result', result });
}

/** Starts the hostile child and waits until its load is out. */
async function startHostile(config: BombConfig | StormConfig): Promise<ManagedChild> {
  const child = startChild({
    label: `hostile ${config.role}`,
    script: 'bench/tenantIsolation.ts',
    env: { BENCH_TENANT_ROLE: config.role, BENCH_TENANT_CONFIG: JSON.stringify(config) },
  });
  await child.waitForLog((line) => line.msg === 'hostile started', 30_000);
  return child;
}

/** Stops the hostile child (SIGTERM) and answers what it measured. */
async function stopHostile<T>(child: ManagedChild, waitMs: number): Promise<T> {
  const result = child.waitForLog((line) => line.msg === 'hostile result', waitMs + 10_000);
  void child.stop(waitMs + 5000);
  return (await result).result as T;
}

// ---------------------------------------------------------------------------------------------

export interface BombRun {
  credential: 'dashboard token' | 'session cookie';
  quiet: NeighbourWindow;
  during: NeighbourWindow;
  /** during p99 ÷ quiet p99 (unanswered requests counted at their age when given up). */
  ratio: number;
  /** The neighbour's requests of the window answered other than 200, failed or unanswered: any is a missed goal. */
  neighbourFailures: number;
  hostile: BombResult;
  /** The hostile requests' worst time to an answer: the slowest answered, or the age of one never answered. */
  hostileWorstMs: number;
  rssMb: { before: number; peak: number; after: number; growth: number };
  serverDied: string | null;
}

export interface StormRun {
  quiet: NeighbourWindow;
  during: NeighbourWindow;
  ratio: number;
  neighbourFailures: number;
  clients: number;
  keys: number;
  /** Events each replay receives (the log after Last-Event-ID). */
  replayEvents: number;
  hostile: StormResult;
  rssMb: { start: number; peak: number; after: number; afterSeconds: number; growth: number; settle: number[] };
  serverDied: string | null;
}

export interface TenantVariant {
  name: 'no Redis' | 'Redis';
  bomb: BombRun[];
  storm: StormRun | null;
}

export interface TenantIsolationReport {
  date: string;
  settings: Record<string, unknown>;
  seed: {
    stormKeysWanted: number;
    stormKeysCreated: number;
    stormKeysRefused: number;
    stormKeyRefusal?: string;
    events: number;
    queryBytes: number;
  };
  variants: TenantVariant[];
  problems: string[];
}

export async function runTenantIsolationBench(): Promise<TenantIsolationReport> {
  const problems: string[] = [];
  // What `npm start` runs: dist/, built from the sources (a second when nothing changed).
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js')], { cwd: ROOT, stdio: 'inherit' });
  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  const internalToken = randomBytes(32).toString('base64url');
  const serverEnv = (redis: boolean) => ({
    DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', INTERNAL_TOKEN: internalToken,
    REDIS_URL: redis ? REDIS_URL : undefined,
  });
  let serverNumber = 0;
  const startServer = async (redis: boolean) => {
    const server = startChild({ label: `tenant-service-${++serverNumber}`, script: 'dist/bin/start.js', nodeArgs: ['--enable-source-maps'], env: serverEnv(redis) });
    const base = String((await server.waitForLog((line) => line.msg === 'listening', 60_000)).url);
    return { server, base };
  };
  try {
    await seedSimulatedMarkets(db);
    const hostile = await createWorkspace(db, 'bench tenant A (hostile)');
    const neighbour = await createWorkspace(db, 'bench tenant B (neighbour)');
    const trader = await createApiKey(db, { workspaceId: hostile.id, environment: 'test', name: 'bench seed trader', rateLimit: UNLIMITED });
    const neighbourKey = await createApiKey(db, { workspaceId: neighbour.id, environment: 'test', name: 'bench neighbour', rateLimit: UNLIMITED });
    const dashboard = await createDashboardToken(db, hostile.id);
    const email = `hostile-${randomBytes(4).toString('hex')}@bench.example`;
    const password = randomBytes(18).toString('base64url');
    await createUser(db, { workspaceId: hostile.id, email, password, scope: 'full' });
    const market = await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC' } });
    const subaccount = (
      await db.subaccount.create({ data: { id: `sa_${randomBytes(13).toString('hex')}`, workspaceId: hostile.id, environment: 'test', name: 'bench tenant resting', cashBalance: '1000000', riskLimits: { create: {} } } })
    ).id;

    // Through the service, like a customer: A's keys for the storm, A's session, A's event log.
    const seeding = await startServer(false);
    let stormSecrets: string[] = [];
    let cookie = '';
    let stormKeyRefusal: string | undefined;
    const stormKeysWanted = Math.ceil(STORM_CLIENTS / STREAMS_PER_KEY);
    let stormKeysRefused = 0;
    let events = 0;
    let firstEventId = '';
    try {
      const base = seeding.base;
      for (let i = 0; i < stormKeysWanted; i += 1) {
        const response = await fetch(`${base}/v1/api_keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${dashboard.secret}`, 'x-environment': 'test', 'content-type': 'application/json' },
          body: JSON.stringify({ name: `storm ${i}`, environment: 'test' }),
        });
        const body = (await response.json()) as { secret?: string; error?: { message?: string } };
        if (response.status === 200 && body.secret) stormSecrets.push(body.secret);
        else {
          stormKeysRefused += 1;
          stormKeyRefusal ??= `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
        }
      }
      if (stormSecrets.length === 0) stormSecrets = [trader.secret]; // the seed's key: the storm still runs, on one key
      process.stdout.write(`  A's keys for the storm: ${stormSecrets.length} created through POST /v1/api_keys of ${stormKeysWanted} asked, ${stormKeysRefused} refused${stormKeyRefusal ? ` (first: ${stormKeyRefusal})` : ''}\n`);

      const signIn = await fetch(`${base}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      cookie = signIn.headers.getSetCookie().find((c) => c.startsWith('mk_session='))?.split(';')[0] ?? '';
      if (signIn.status !== 200 || !cookie) throw new Error(`signing in as A's user answered ${signIn.status}: ${await signIn.text()}`);

      // A's log: resting buys through REST (two events each), then one statement cancels them all (a third).
      const orders = Math.ceil(STORM_EVENTS / 3);
      const seeded = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < orders) {
            const i = next++;
            const response = await fetch(`${base}/v1/orders`, {
              method: 'POST',
              headers: { authorization: `Bearer ${trader.secret}`, 'content-type': 'application/json', 'idempotency-key': `bench-tenant-${i}` },
              body: JSON.stringify({ subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '1', time_in_force: 'gtc' }),
            });
            if (response.status !== 200) throw new Error(`a resting order of A's log was answered ${response.status}: ${await response.text()}`);
          }
        }),
      );
      await sql.query(`UPDATE orders SET status = 'canceled', updated_at = now() WHERE subaccount_id = $1 AND status = 'open'`, [subaccount]);
      // Every event numbered by the sequencer (it runs in the service every 50 ms).
      for (let waited = 0; ; waited += 100) {
        const { rows } = await sql.query<{ all: string; unnumbered: string; first: string | null }>(
          `SELECT count(*) AS all, count(*) FILTER (WHERE seq IS NULL) AS unnumbered, min(seq)::text AS first FROM events WHERE workspace_id = $1 AND environment = 'test'`,
          [hostile.id],
        );
        if (Number(rows[0]!.unnumbered) === 0 && rows[0]!.first) {
          events = Number(rows[0]!.all);
          firstEventId = eventId(rows[0]!.first);
          break;
        }
        if (waited > 30_000) throw new Error(`A's events were not all numbered after 30 s: ${JSON.stringify(rows[0])}`);
        await sleep(100);
      }
      process.stdout.write(`  A's log: ${n(events)} events (${n(orders)} resting buys through REST, canceled by one statement) in ${round((performance.now() - seeded) / 1000, 1)} s; replayed from ${firstEventId}\n`);
    } finally {
      await seeding.server.stop();
    }

    const neighbourHeaders = { authorization: `Bearer ${neighbourKey.secret}` };
    const bombHeaders = {
      'dashboard token': { authorization: `Bearer ${dashboard.secret}`, 'x-environment': 'test' },
      'session cookie': { cookie, 'x-environment': 'test' },
    } as const;

    const variants: TenantVariant[] = [];
    for (const redis of WITH_REDIS ? [false, true] : [false]) {
      const name = redis ? 'Redis' : 'no Redis';
      process.stdout.write(`  -- ${name === 'Redis' ? `with REDIS_URL (${REDIS_URL})` : 'no Redis (in-process notices and stream admission)'}\n`);
      const variant: TenantVariant = { name, bomb: [], storm: null };
      variants.push(variant);

      for (const credential of ['dashboard token', 'session cookie'] as const) {
        const run = await scenario(redis, async (base, server, neighbourLoad, probe) => {
          const rss = { before: rssMb(server.pid), peak: 0 };
          const hostileChild = await startHostile({ role: 'bomb', base, headers: bombHeaders[credential], concurrency: HOSTILE_REQUESTS, aliases: BOMB_ALIASES, tailMs: TAIL_SECONDS * 1000, warmupMs: 1000 });
          const peak = pollPeak(server.pid);
          const cpu = probe(hostileChild.pid);
          // A second of the attack before the window, as the storm has: the service's first bomb
          // runs its refusal's code cold (hundreds of ms, once per process), and the window
          // measures the attack as it goes on.
          const during = await neighbourLoad.run(SECONDS, { warmupSeconds: 1, onWindowStart: () => cpu.start(), onWindowEnd: () => cpu.end() });
          during.cpu = cpu.result(during.answeredPerSecond);
          const hostileResult = await stopHostile<BombResult>(hostileChild, TAIL_SECONDS * 1000);
          const after = rssMb(server.pid);
          rss.peak = Math.max(peak.stop(), after);
          return { during, hostileResult, rss: { ...rss, after } };
        });
        const { during, hostileResult, rss } = run.result;
        const bomb: BombRun = {
          credential,
          quiet: run.quiet,
          during,
          ratio: ratioOf(run.quiet, during),
          neighbourFailures: failures(during),
          hostile: hostileResult,
          hostileWorstMs: round(Math.max(hostileResult.queryAnsweredMs.max || 0, hostileResult.unansweredAgeMs)),
          rssMb: { before: rss.before, peak: rss.peak, after: rss.after, growth: round(rss.after - rss.before, 1) },
          serverDied: run.serverDied,
        };
        variant.bomb.push(bomb);
        process.stdout.write(`${formatBombRun(bomb)}\n`);
      }

      const clientsPerKey = Math.ceil(STORM_CLIENTS / stormSecrets.length);
      const clientSecrets = Array.from({ length: STORM_CLIENTS }, (_, i) => stormSecrets[Math.floor(i / clientsPerKey)]!);
      const run = await scenario(redis, async (base, server, neighbourLoad, probe) => {
        const start = rssMb(server.pid);
        const hostileChild = await startHostile({ role: 'storm', base, secrets: clientSecrets, lastEventId: firstEventId, expected: events - 1, refusedPauseMs: STORM_REFUSED_PAUSE_MS });
        const peak = pollPeak(server.pid);
        const cpu = probe(hostileChild.pid);
        const during = await neighbourLoad.run(SECONDS, { warmupSeconds: 1, onWindowStart: () => cpu.start(), onWindowEnd: () => cpu.end() });
        during.cpu = cpu.result(during.answeredPerSecond);
        const hostileResult = await stopHostile<StormResult>(hostileChild, 2000);
        const stormPeak = peak.stop();
        // After the clients closed: RSS every second for RSS_SETTLE_MAX_SECONDS. It first holds
        // still at a plateau (what V8 and the allocator kept after the burst), then falls once V8's
        // memory reducer runs on the idle process (about 25 s here): the goal is on the last
        // reading, the memory returned; the plateau is reported beside it.
        const settle = [rssMb(server.pid)];
        const settleStarted = performance.now();
        while (performance.now() - settleStarted < RSS_SETTLE_MAX_SECONDS * 1000) {
          await sleep(1000);
          settle.push(rssMb(server.pid));
        }
        const after = settle[settle.length - 1]!;
        return { during, hostileResult, rss: { start, peak: Math.max(stormPeak, ...settle), after, afterSeconds: round((performance.now() - settleStarted) / 1000, 1), growth: round(after - start, 1), settle } };
      });
      const storm: StormRun = {
        quiet: run.quiet,
        during: run.result.during,
        ratio: ratioOf(run.quiet, run.result.during),
        neighbourFailures: failures(run.result.during),
        clients: STORM_CLIENTS,
        keys: stormSecrets.length,
        replayEvents: events - 1,
        hostile: run.result.hostileResult,
        rssMb: run.result.rss,
        serverDied: run.serverDied,
      };
      variant.storm = storm;
      process.stdout.write(`${formatStormRun(storm)}\n`);
    }

    return {
      date: new Date().toISOString(),
      settings: {
        server: 'dist/bin/start.js (gateway + core in one process), LOG_LEVEL info, every other setting at its default (RATE_LIMIT_DEFAULT 50/s for A); a fresh service process per scenario, one database',
        seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, tailSeconds: TAIL_SECONDS, neighbourConnections: NEIGHBOUR_CONNECTIONS, neighbourRate: NEIGHBOUR_RATE,
        bombConcurrency: HOSTILE_REQUESTS, bombAliases: BOMB_ALIASES, stormClients: STORM_CLIENTS, stormEvents: STORM_EVENTS, stormRefusedPauseMs: STORM_REFUSED_PAUSE_MS,
        redis: WITH_REDIS ? REDIS_URL : null,
      },
      seed: { stormKeysWanted, stormKeysCreated: stormSecrets.length, stormKeysRefused, stormKeyRefusal, events, queryBytes: Buffer.byteLength(bombQuery(BOMB_ALIASES)) },
      variants,
      problems,
    };

    /**
     * One scenario on a fresh service: the neighbour warms it up and measures its quiet window,
     * then `attack` runs (its own window with the hostile load); the service is stopped after.
     */
    async function scenario<T>(redis: boolean, attack: (base: string, server: ManagedChild, neighbourLoad: Neighbour, probe: (hostilePid: number) => ReturnType<typeof cpuProbe>) => Promise<T>) {
      const { server, base } = await startServer(redis);
      let serverDied: string | null = null;
      let stopping = false;
      void server.exited.then(({ code, signal }) => {
        if (!stopping) serverDied = `the service exited (${signal ?? `code ${code}`}) under the hostile load`;
      });
      const neighbourLoad = new Neighbour(`${base}/v1/markets?limit=20`, neighbourHeaders, NEIGHBOUR_CONNECTIONS, NEIGHBOUR_RATE);
      const probe = (hostilePid?: number) =>
        cpuProbe(() => ({ server: [server.pid], 'postgres backends': postgresBackendPids(database.name), ...(hostilePid ? { 'hostile client': [hostilePid] } : {}) }));
      try {
        const cpu = probe();
        const quiet = await neighbourLoad.run(SECONDS, { warmupSeconds: WARMUP_SECONDS, onWindowStart: () => cpu.start(), onWindowEnd: () => cpu.end() });
        quiet.cpu = cpu.result(quiet.answeredPerSecond);
        const bad = Object.keys(quiet.statuses).filter((status) => status !== '200');
        if (bad.length) throw new Error(`the neighbour's quiet window was answered ${JSON.stringify(quiet.statuses)}\n${server.tail()}`);
        const result = await attack(base, server, neighbourLoad, probe);
        return { quiet, result, serverDied };
      } finally {
        stopping = true;
        neighbourLoad.close();
        await server.stop(3000); // one still busy with the hostile load's work is killed
      }
    }
  } finally {
    await sql.end();
    await db.$disconnect();
    await database.drop();
  }
}

/** Reads RSS every 200 ms until stop() (answers the highest reading). */
function pollPeak(pid: number) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now > peak) peak = now;
  }, 200);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** during p99 ÷ quiet p99. */
function ratioOf(quiet: NeighbourWindow, during: NeighbourWindow): number {
  return during.requests ? round(during.latencyMs.p99 / quiet.latencyMs.p99, 2) : Infinity;
}

const failures = (w: NeighbourWindow) => Object.entries(w.statuses).reduce((sum, [status, count]) => sum + (status === '200' ? 0 : count), 0);

/** The ratio a goal judges: any failed or unanswered request of the neighbour misses it whatever the ratio. */
const judgedRatio = (r: { ratio: number; neighbourFailures: number }) => (r.neighbourFailures ? Infinity : r.ratio);

// ---------------------------------------------------------------------------------------------
// Reporting.

const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${status} × ${n(count)}`)
    .join(', ') || 'none';

const ratioText = (r: { ratio: number; neighbourFailures: number }) =>
  `${Number.isFinite(r.ratio) ? `${r.ratio}x` : 'n/a'}${r.neighbourFailures ? ` (and ${r.neighbourFailures} of the neighbour's requests failed or unanswered)` : ''}`;

function formatNeighbour(label: string, w: NeighbourWindow): string {
  const errors = Object.keys(w.errors).length ? `; connection errors ${statusText(w.errors)}` : '';
  const lines = [`      neighbour ${label}: p50 ${w.latencyMs.p50} / p99 ${w.latencyMs.p99} / max ${n(w.latencyMs.max)} ms, ${n(w.answeredPerSecond)} answers/s over ${n(w.requests)} requests (${statusText(w.statuses)}${errors})`];
  if (w.cpu) lines.push(`        ${formatCpuCores(w.cpu)} (load generator: the neighbour's client)`);
  const note = busyNote(w.cpu?.cores['other processes'], `the neighbour ${label}`);
  if (note) lines.push(`        ${note}`);
  return lines.join('\n');
}

const mark = (met: boolean) => (met ? 'met' : 'MISSED');

function formatBombRun(r: BombRun): string {
  const h = r.hostile;
  const goals = GOALS.tenantIntrospectionBomb.atMost;
  const lines = [
    `    introspection bomb, ${r.credential} (${HOSTILE_REQUESTS} concurrent POST /analyst/graphql, ${n(BOMB_ALIASES)} aliases of __schema):`,
    formatNeighbour('quiet', r.quiet),
    formatNeighbour('during', r.during),
    `      neighbour p99 during ÷ quiet: ${ratioText(r)} (goal <= ${goals.ratio}x: ${mark(judgedRatio(r) <= goals.ratio)})`,
    `      hostile: ${n(h.requests)} requests sent, answered ${statusText(h.statuses)}; latency p50 ${n(h.latencyMs.p50)} / max ${n(h.latencyMs.max)} ms; ` +
      `${h.unanswered} unanswered ${TAIL_SECONDS} s after the window (age ${n(h.unansweredAgeMs)} ms${Object.keys(h.unansweredBegun).length ? `; of them, answers begun but not ended: ${statusText(h.unansweredBegun)}` : ''}); ${n(h.bytes / 1e6)} MB received`,
    `      the query's own answers (not 429): p50 ${n(h.queryAnsweredMs.p50)} / max ${n(h.queryAnsweredMs.max)} ms; 429s (answered ${REFUSAL_DELAY_MS.min}-${REFUSAL_DELAY_MS.max} ms late on purpose): p50 ${n(h.rateLimitedMs.p50)} / max ${n(h.rateLimitedMs.max)} ms`,
    `      hostile worst time to the query's answer: ${h.unanswered ? '>= ' : ''}${n(r.hostileWorstMs)} ms (goal <= ${goals.maxMs} ms: ${mark(r.hostileWorstMs <= goals.maxMs)})`,
    `      server RSS: ${r.rssMb.before} MB before → peak ${r.rssMb.peak} → ${r.rssMb.after} MB after; growth ${r.rssMb.growth} MB (goal <= ${goals.growthMb} MB: ${mark(r.rssMb.growth <= goals.growthMb)})`,
  ];
  for (const [status, sample] of Object.entries(h.samples)) lines.push(`      hostile answer ${status} begins: ${sample.slice(0, 160).replace(/\s+/g, ' ')}`);
  if (r.serverDied) lines.push(`      !!! ${r.serverDied}`);
  return lines.join('\n');
}

function formatStormRun(r: StormRun): string {
  const h = r.hostile;
  const goals = GOALS.tenantReconnectStorm.atMost;
  const lines = [
    `    reconnect storm (${r.clients} SSE clients of A over ${r.keys} keys, each replaying ${n(r.replayEvents)} events from Last-Event-ID, then reconnecting):`,
    formatNeighbour('quiet', r.quiet),
    formatNeighbour('during', r.during),
    `      neighbour p99 during ÷ quiet: ${ratioText(r)} (goal <= ${goals.ratio}x: ${mark(judgedRatio(r) <= goals.ratio)})`,
    `      hostile: ${n(h.connects)} connections, answered ${statusText(h.statuses)} (answer's head p50 ${n(h.answerMs.p50)} / max ${n(h.answerMs.max)} ms); ` +
      `at the stop ${h.waitingAtStop} still waiting for an answer, ${h.replayingAtStop} still replaying; ${n(h.replays)} full replays (p50 ${n(h.replayMs.p50)} / max ${n(h.replayMs.max)} ms), ` +
      `${h.endedEarly} ended early by the service; ${n(h.events)} events, ${n(h.bytes / 1e6)} MB received`,
    `      server RSS: ${r.rssMb.start} MB at the start → peak ${r.rssMb.peak} → ${r.rssMb.after} MB ${r.rssMb.afterSeconds} s after the clients closed (readings ${r.rssMb.settle.join(', ')}); ` +
      `after − start ${r.rssMb.growth} MB (goal <= ${goals.growthMb} MB: ${mark(r.rssMb.growth <= goals.growthMb)})`,
  ];
  for (const [status, sample] of Object.entries(h.samples)) lines.push(`      hostile answer ${status} begins: ${sample.slice(0, 160).replace(/\s+/g, ' ')}`);
  if (r.serverDied) lines.push(`      !!! ${r.serverDied}`);
  return lines.join('\n');
}

/** The summary rows (bench/goals.ts): the bomb's worse credential, and the storm; one per variant measured (no Redis first). */
export function tenantIsolationGoalResults(report: TenantIsolationReport): GoalResult[] {
  const variant = report.variants[0];
  if (!variant) return [];
  const results: GoalResult[] = [];
  if (variant.bomb.length) {
    const ratio = Math.max(...variant.bomb.map(judgedRatio));
    const maxMs = Math.max(...variant.bomb.map((b) => b.hostileWorstMs));
    const growthMb = Math.max(...variant.bomb.map((b) => b.rssMb.growth));
    const each = variant.bomb
      .map((b) => `${b.credential}: neighbour p99 ${b.during.latencyMs.p99} vs ${b.quiet.latencyMs.p99} ms (${ratioText(b)}), hostile ${statusText(b.hostile.statuses)}${b.hostile.unanswered ? ` + ${b.hostile.unanswered} unanswered` : ''}, worst ${b.hostile.unanswered ? '>= ' : ''}${n(b.hostileWorstMs)} ms, RSS +${b.rssMb.growth} MB${b.serverDied ? ', SERVICE DIED' : ''}`)
      .join('; ');
    const others = Math.max(...variant.bomb.map((b) => b.during.cpu?.cores['other processes'] ?? 0));
    results.push({ id: 'tenantIntrospectionBomb', measured: each, met: goalMet(GOALS.tenantIntrospectionBomb, { ratio, maxMs, growthMb }), otherCores: others });
  }
  const storm = variant.storm;
  if (storm) {
    results.push({
      id: 'tenantReconnectStorm',
      measured: `neighbour p99 ${storm.during.latencyMs.p99} vs ${storm.quiet.latencyMs.p99} ms (${ratioText(storm)}); A ${statusText(storm.hostile.statuses)}; RSS ${storm.rssMb.start} → peak ${storm.rssMb.peak} → ${storm.rssMb.after} MB (${storm.rssMb.growth >= 0 ? '+' : ''}${storm.rssMb.growth})${storm.serverDied ? '; SERVICE DIED' : ''}`,
      met: goalMet(GOALS.tenantReconnectStorm, { ratio: judgedRatio(storm), growthMb: storm.rssMb.growth }),
      otherCores: storm.during.cpu?.cores['other processes'],
    });
  }
  return results;
}

export function formatTenantIsolationReport(r: TenantIsolationReport): string {
  const lines = [
    `  A's extra keys: ${r.seed.stormKeysCreated} created of ${r.seed.stormKeysWanted} asked, ${r.seed.stormKeysRefused} refused${r.seed.stormKeyRefusal ? ` (${r.seed.stormKeyRefusal})` : ''}; A's log ${n(r.seed.events)} events; the bomb's query ${n(r.seed.queryBytes)} bytes`,
  ];
  for (const variant of r.variants) {
    lines.push(`  ${variant.name}:`);
    for (const bomb of variant.bomb) lines.push(formatBombRun(bomb));
    if (variant.storm) lines.push(formatStormRun(variant.storm));
  }
  for (const result of tenantIsolationGoalResults(r)) {
    lines.push(`  goal ${GOALS[result.id].figure}: ${goalText(GOALS[result.id])}: ${result.met ? 'met' : 'MISSED'}`);
  }
  for (const problem of r.problems) lines.push(`  !!! ${problem}`);
  return lines.join('\n');
}

export function writeTenantIsolationReport(report: TenantIsolationReport) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'tenant-isolation.json'), `${JSON.stringify(report, null, 2)}\n`);
}

if (require.main === module) {
  const role = process.env.BENCH_TENANT_ROLE;
  if (role) {
    const config = JSON.parse(process.env.BENCH_TENANT_CONFIG ?? '{}') as BombConfig | StormConfig;
    (config.role === 'bomb' ? runBombRole(config) : runStormRole(config)).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`hostile ${role} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      },
    );
  } else {
    runAsBenchmarkMain(__filename, async () => {
      const started = Date.now();
      const report = await runTenantIsolationBench();
      writeTenantIsolationReport(report);
      process.stdout.write(`\n== tenant isolation summary (${Math.round((Date.now() - started) / 1000)} s)\n${formatTenantIsolationReport(report)}\n  details: bench-results/tenant-isolation.json\n`);
      return report.problems.length ? 1 : 0;
    });
  }
}
