/**
 * A live order on Kalshi: what the gateway adds to the venue's own time. Against the Kalshi fake
 * (fakes/kalshi, Trade API v2 as of 2026-08; docs/kalshi-fake.md), in one run, at 1 connection and
 * at BENCH_CONNECTIONS (50):
 *
 *  - baseline: the fake's own service time for a V2 create (`POST /trade-api/v2/portfolio/events/orders`,
 *    a resting limit bid that crosses nothing), sent directly by a keep-alive undici client, each
 *    request signed with our signer (core/venues/kalshi/signing.ts) BEFORE its clock starts, the body
 *    built by our own wire mapping (orderWire.ts createOrderBody), so it is the body the core sends;
 *  - through the gateway: `POST /v1/orders` with a live key (`mk_live_`), the equivalent order (YES
 *    buy limit, 1 contract, gtc), each request with its own Idempotency-Key, through `npm start`
 *    (gateway and core in one process, bin/start.ts) on a fresh PostgreSQL database, which sends it to
 *    the same fake with the subaccount's attached credentials.
 *
 * The same load generator drives both (a closed loop of N lanes over an undici keep-alive pool of N
 * connections, in this process; latency from just before the request is handed to the pool to the
 * last byte of the answer). Every request is answered before a target ends, so afterwards the fake
 * can be counted exactly: it must hold one order per request sent (zero duplicates, zero lost).
 *
 * Rate limits: the fake runs at Kalshi's highest tier (premier: 1000 write tokens/s per key, a create
 * costs 10, so 100 creates/s per key) and the core at KALSHI_TIER=premier (its client-side buckets
 * allow 90/s per credential). One key cannot carry this load, so the load is spread: the direct
 * client round-robins over DIRECT_KEYS keys (one fake account each), the gateway's requests over
 * GATEWAY_SUBACCOUNTS live subaccounts, each with its own Kalshi credential (one fake account and key
 * each). The 429s the fake answered are counted and printed; they must be 0 for the figures to be the
 * service time and not a rate limit.
 *
 * Run alone: npx tsx bench/liveOrder.ts (BENCH_PROFILE=live also writes a CPU profile of the service
 * and summarises it; those figures are under the profiler).
 */
import { generateKeyPair, randomBytes, randomUUID, createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey, createDashboardToken } from '../core/services/accounts/apiKeys';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { createOrderBody } from '../core/venues/kalshi/orderWire';
import { createKalshiSigner, type KalshiSigner } from '../core/venues/kalshi/signing';
import { formatProfileSummary, summarizeProfile, type ProfileSummary } from './profileSummary';
import {
  RESULTS_DIR,
  busyNote,
  cpuProbe,
  createBenchDatabase,
  onCleanup,
  postgresBackendPids,
  runAsBenchmarkMain,
  sleep,
  startChild,
  type CpuReport,
  type ManagedChild,
} from './support';

const HIGH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CONNECTION_STEPS = [1, HIGH_CONNECTIONS];
/** Four measured targets: each window is half of BENCH_SECONDS, so the bench stays well under a minute by default. */
const WINDOW_SECONDS = Number(process.env.BENCH_SECONDS ?? 10) / 2;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const WARMUP_MAX_SECONDS = Number(process.env.BENCH_WARMUP_MAX_SECONDS ?? 20);
/** BENCH_PROFILE=live: the service runs under --cpu-prof (its figures then are the profiler's); `all` leaves this bench alone. */
const PROFILE = process.env.BENCH_PROFILE === 'live';

const DIRECT_KEYS = 64;
const GATEWAY_SUBACCOUNTS = 16;
/** The fake's default catalog (fakes/kalshi/markets.ts): whole-cent prices, whole contracts. */
const TICKER = 'KXFAKEFED-26DEC-T4.00';
/** A YES bid for 1 contract: nobody sells, so every order rests and none crosses another. */
const ORDER = { side: 'yes', action: 'buy', type: 'limit', quantity: '1' } as const;
/**
 * Each path rests at its own price level: our answer to POST /v1/orders carries the order's queue
 * position, read from the venue (GET /portfolio/orders/{id}/queue_position), and the fake counts
 * the orders ahead by walking the level, so the gateway's orders must not queue behind the tens of
 * thousands the direct client places.
 */
const DIRECT_PRICE = '0.05';
const GATEWAY_PRICE = '0.04';
const CREATE_PATH = '/trade-api/v2/portfolio/events/orders';

// ---------------------------------------------------------------------------------------------
// Report.

export interface LoopFigures {
  /** 2xx answers per second in the measured window. */
  ordersPerSecond: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** Answers completed inside the window. */
  responses: number;
  /** Requests sent over the whole run (warm-up included), every one answered or failed. */
  sent: number;
  /** Statuses over the whole run; `error` = a transport error (no answer). */
  statuses: Record<string, number>;
  warmupSeconds: number;
  seconds: number;
  cpu?: CpuReport;
}

export interface LiveOrderStep {
  connections: number;
  baseline: LoopFigures;
  gateway: LoopFigures;
  /** Gateway minus baseline, at each percentile. */
  addedMs: { p50: number; p99: number };
}

export interface OrderCount {
  /** Requests sent (sanity order, JIT warm-up, warm-ups and windows). */
  requests: number;
  /** Requests answered with success (201 from the fake, 200 from the gateway). */
  accepted: number;
  /** Orders the fake holds for these accounts. */
  ordersAtFake: number;
  /** Orders whose client_order_id the fake holds more than once. */
  duplicates: number;
  /** Accepted requests whose order the fake does not hold. */
  lost: number;
  /** Orders at the fake that no accepted request accounts for (a re-send, or an answer we lost). */
  strays: number;
}

export interface LiveOrderReport {
  date: string;
  settings: Record<string, string | number>;
  steps: LiveOrderStep[];
  direct: OrderCount;
  gateway: OrderCount & { ordersInDatabase: number; byStatus: Record<string, number> };
  /** 429s the fake answered, per client. */
  rateLimited: { direct: number; gateway: number };
  /** CPU time of one RSA-PSS signature with our signer, in this process (the core pays it per order too). */
  signMs: number;
  profile?: ProfileSummary & { cpuprofile: string };
}

/**
 * True when every request was accepted and the fake holds exactly one order for each, on both paths
 * (and our database one order per gateway request).
 */
export function liveOrderCountsHold(report: LiveOrderReport): boolean {
  const ok = (c: OrderCount) =>
    c.duplicates === 0 && c.lost === 0 && c.strays === 0 && c.accepted === c.requests && c.ordersAtFake === c.requests;
  return ok(report.direct) && ok(report.gateway) && report.gateway.ordersInDatabase === report.gateway.requests;
}

// ---------------------------------------------------------------------------------------------
// Load: a closed loop of lanes over one keep-alive pool.

interface PreparedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface LoopOptions {
  origin: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** The next request; built (and signed) before its clock starts. */
  next(): PreparedRequest;
  /** Every answer, warm-up included. */
  onAnswer(status: number, body: string): void;
  onWindowStart?(): void;
  onWindowEnd?(): void;
  /** When this resolves (a server died), the loop stops and rejects with its message. */
  abort?: Promise<string>;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * N lanes, each sending its next request as soon as the previous one is answered, over a pool of N
 * keep-alive connections (pipelining 1). A warm-up (at least `warmupSeconds`, until every lane has
 * been answered, at most WARMUP_MAX_SECONDS) is discarded; then the window. When it closes, no new
 * request starts and the loop waits for the ones in flight, so every request sent is answered or
 * counted as an error.
 */
async function closedLoop(options: LoopOptions): Promise<LoopFigures> {
  const pool = new Pool(options.origin, {
    connections: options.connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  let phase: 'warmup' | 'measure' | 'done' = 'warmup';
  let abortReason: string | undefined;
  const stopOnCleanup = onCleanup(`stop load on ${options.origin}`, () => {
    abortReason ??= 'the benchmark is shutting down';
    phase = 'done';
  });
  void options.abort?.then((reason) => {
    abortReason ??= reason;
    phase = 'done';
  });

  let latencies = new Float64Array(1 << 14);
  let count = 0;
  let ok = 0;
  let sent = 0;
  const statuses: Record<string, number> = {};
  const answeredLanes = new Set<number>();
  const started = performance.now();
  let windowStart = 0;
  let windowEnd = 0;
  let windowTimer: NodeJS.Timeout | undefined;
  const openWindow = () => {
    if (phase !== 'warmup') return;
    phase = 'measure';
    windowStart = performance.now();
    options.onWindowStart?.();
    windowTimer = setTimeout(() => {
      if (phase !== 'measure') return;
      phase = 'done';
      windowEnd = performance.now();
      options.onWindowEnd?.();
    }, options.seconds * 1000);
  };
  const capTimer = setTimeout(openWindow, Math.max(options.warmupSeconds, WARMUP_MAX_SECONDS) * 1000);
  const minWarmupTimer = setTimeout(() => {
    if (answeredLanes.size >= options.connections) openWindow();
  }, options.warmupSeconds * 1000);

  const lane = async (index: number) => {
    while (phase !== 'done') {
      const request = options.next();
      sent += 1;
      const t0 = performance.now();
      let status: string;
      try {
        const response = await pool.request({ method: 'POST', path: request.path, headers: request.headers, body: request.body });
        const text = await response.body.text();
        status = String(response.statusCode);
        options.onAnswer(response.statusCode, text);
        if (phase === 'measure') {
          if (count === latencies.length) {
            const grown = new Float64Array(latencies.length * 2);
            grown.set(latencies);
            latencies = grown;
          }
          latencies[count++] = performance.now() - t0;
          if (response.statusCode >= 200 && response.statusCode < 300) ok += 1;
        }
      } catch (error) {
        status = 'error';
        if (statuses.error === undefined) process.stderr.write(`  load error on ${options.origin}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (phase === 'warmup') {
        answeredLanes.add(index);
        if (answeredLanes.size >= options.connections && performance.now() - started >= options.warmupSeconds * 1000) openWindow();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, index) => lane(index)));
  } finally {
    clearTimeout(capTimer);
    clearTimeout(minWarmupTimer);
    clearTimeout(windowTimer);
    stopOnCleanup.cancel();
    await pool.close();
  }
  if (abortReason !== undefined) throw new Error(`load against ${options.origin} stopped: ${abortReason}`);
  const seconds = (windowEnd - windowStart) / 1000;
  const sorted = latencies.slice(0, count).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    ordersPerSecond: Math.round(ok / seconds),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      mean: round(count ? sum / count : NaN),
      max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
    },
    responses: count,
    sent,
    statuses,
    warmupSeconds: round((windowStart - started) / 1000),
    seconds: round(seconds),
  };
}

// ---------------------------------------------------------------------------------------------
// Set-up helpers.

interface KeyPair {
  keyId: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

const generateRsa = promisify(generateKeyPair);

async function newKalshiKey(): Promise<KeyPair> {
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { keyId: randomUUID(), publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/** `fakes/kalshi/start.ts` prints one line with its URLs (port 0: a free port); wait for it. */
async function fakeUrls(fake: ManagedChild): Promise<{ restUrl: string; wsUrl: string; origin: string }> {
  let exited = false;
  void fake.exited.then(() => (exited = true));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && !exited; await sleep(50)) {
    const match = /REST (http:\/\/\S+)\s+WebSocket (ws:\/\/\S+)\s+control (http:\/\/\S+)\/_fake\//.exec(fake.tail());
    if (match) return { restUrl: match[1]!, wsUrl: match[2]!, origin: match[3]! };
  }
  throw new Error(`the Kalshi fake did not start\n${fake.tail()}`);
}

async function json(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as any) };
}

function expectStatus(what: string, got: { status: number; body: unknown }, status: number) {
  // Bodies here are our API's answers or the fake's: none carries a private key.
  if (got.status !== status) throw new Error(`${what}: expected ${status}, got ${got.status} ${JSON.stringify(got.body).slice(0, 300)}`);
}

function signCostMs(signer: KalshiSigner): number {
  for (let i = 0; i < 50; i += 1) signer.request('POST', CREATE_PATH);
  const n = 500;
  const started = performance.now();
  for (let i = 0; i < n; i += 1) signer.request('POST', CREATE_PATH);
  return round((performance.now() - started) / n, 3);
}

// ---------------------------------------------------------------------------------------------

export async function runLiveOrderBench(): Promise<LiveOrderReport> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const [directKeys, gatewayKeys] = await Promise.all([
    Promise.all(Array.from({ length: DIRECT_KEYS }, newKalshiKey)),
    Promise.all(Array.from({ length: GATEWAY_SUBACCOUNTS }, newKalshiKey)),
  ]);
  const directUser = (i: number) => `bench-direct-${i}`;
  const gatewayUser = (i: number) => `bench-gateway-${i}`;

  // The fake's configuration holds public keys only (docs/kalshi-fake.md).
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-bench-kalshi-'));
  onCleanup(`remove ${configDir}`, () => fs.rmSync(configDir, { recursive: true, force: true }));
  const configFile = path.join(configDir, 'fake.json');
  const account = (userId: string, key: KeyPair) => ({ user_id: userId, balance_dollars: '100000.00', keys: [{ key_id: key.keyId, public_key_pem: key.publicKeyPem }] });
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      rate_tier: 'premier',
      accounts: [...directKeys.map((k, i) => account(directUser(i), k)), ...gatewayKeys.map((k, i) => account(gatewayUser(i), k))],
    }),
  );

  const database = await createBenchDatabase();
  const db = createPrismaClient(database.url, 4);
  const children: ManagedChild[] = [];
  try {
    // Before the service starts, so that it creates no demo workspace.
    const workspace = await createWorkspace(db, 'bench-live');
    const { secret: liveSecret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'live', rateLimit: 100_000 });
    const { secret: dashboardSecret } = await createDashboardToken(db, workspace.id);

    const fake = startChild({
      label: 'kalshi-fake',
      script: 'fakes/kalshi/start.ts',
      env: { KALSHI_FAKE_HOST: '127.0.0.1', KALSHI_FAKE_PORT: '0', KALSHI_FAKE_ENVIRONMENT: 'production', KALSHI_FAKE_CONFIG: configFile, KALSHI_FAKE_SEED_BOOKS: 'false' },
    });
    children.push(fake);
    const urls = await fakeUrls(fake);

    const profileDir = path.join(RESULTS_DIR, 'profiles', `live-order-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    if (PROFILE) fs.mkdirSync(profileDir, { recursive: true });
    const service = startChild({
      label: 'live-single',
      script: 'bin/start.ts',
      nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      env: {
        DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
        INTERNAL_TOKEN: randomBytes(32).toString('base64url'), RATE_LIMIT_DEFAULT: '100000',
        NODE_ENV: process.env.BENCH_NODE_ENV,
        CREDENTIALS_KEK: randomBytes(32).toString('base64'),
        KALSHI_PRODUCTION_URL: urls.restUrl, KALSHI_PRODUCTION_WS_URL: urls.wsUrl,
        KALSHI_TIER: 'premier', KALSHI_TIMEOUT_MS: '5000',
        // The live catalog is synced from the fake once at start-up (and every 10 minutes: not during the run).
        KALSHI_CATALOG_SYNC_MS: '600000', KALSHI_CATALOG_ENVIRONMENT: 'production',
      },
    });
    children.push(service);
    const listening = await service.waitForLog((line) => line.msg === 'listening', 60_000);
    const gatewayUrl = String(listening.url);
    const died = Promise.race([fake, service].map((child) => child.exited.then(({ code, signal }) => `${child.label} exited (${signal ?? `code ${code}`})\n${child.tail()}`)));

    let market: { id: string } | null = null;
    for (const deadline = Date.now() + 30_000; !market; await sleep(100)) {
      market = await db.market.findFirst({ where: { environment: 'live', venue: 'kalshi', venueMarketId: TICKER }, select: { id: true } });
      if (!market && Date.now() > deadline) throw new Error(`the start-up catalog sync did not bring ${TICKER} into the live catalog\n${service.tail()}`);
    }

    // Live subaccounts through the API: limits lifted (the bench measures placement, not refusals), credentials attached.
    const api = (method: string, route: string, body?: unknown) => json(`${gatewayUrl}${route}`, { method, body, headers: { authorization: `Bearer ${liveSecret}` } });
    const subaccounts: string[] = [];
    for (const [i, key] of gatewayKeys.entries()) {
      const created = await api('POST', '/v1/subaccounts', { name: `bench-live-${i}` });
      expectStatus('POST /v1/subaccounts', created, 200);
      const id = String(created.body.id);
      expectStatus('PUT /v1/risk_limits', await api('PUT', `/v1/risk_limits/${id}`, { max_open_orders: null, max_orders_per_minute: null }), 200);
      const attached = await json(`${gatewayUrl}/v1/subaccounts/${id}/credentials/kalshi`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${dashboardSecret}`, 'x-environment': 'live' },
        body: { key_id: key.keyId, private_key: key.privateKeyPem, environment: 'production' },
      });
      expectStatus('PUT /v1/subaccounts/{id}/credentials/kalshi', attached, 200);
      subaccounts.push(id);
    }

    // Requests of each path. The direct client signs with our signer and sends the body our wire mapping builds.
    const signers = directKeys.map((k) => createKalshiSigner(k.keyId, createPrivateKey(k.privateKeyPem)));
    let directSequence = 0;
    const nextDirect = (): PreparedRequest => {
      const n = directSequence++;
      const built = createOrderBody({ clientOrderId: `bench-direct-${n}`, venueMarketId: TICKER, ...ORDER, price: DIRECT_PRICE, timeInForce: 'gtc' });
      if (!built.ok) throw new Error(built.refusal.message);
      return {
        path: CREATE_PATH,
        headers: { accept: 'application/json', ...signers[n % signers.length]!.request('POST', CREATE_PATH), 'content-type': 'application/json' },
        body: JSON.stringify(built.body),
      };
    };
    let gatewaySequence = 0;
    const nextGateway = (): PreparedRequest => {
      const n = gatewaySequence++;
      return {
        path: '/v1/orders',
        headers: { authorization: `Bearer ${liveSecret}`, 'content-type': 'application/json', 'idempotency-key': `bench-live-${n}` },
        body: JSON.stringify({ subaccount_id: subaccounts[n % subaccounts.length], market_id: market.id, ...ORDER, price: GATEWAY_PRICE }),
      };
    };
    const directAccepted = new Set<string>();
    const gatewayAccepted: string[] = [];
    const otherAnswers: string[] = [];
    const onDirect = (status: number, body: string) => {
      if (status === 201) directAccepted.add(String((JSON.parse(body) as { client_order_id: string }).client_order_id));
      else if (otherAnswers.length < 5) otherAnswers.push(`fake ${status} ${body.slice(0, 200)}`);
    };
    const onGateway = (status: number, body: string) => {
      if (status === 200) {
        const order = JSON.parse(body) as { id: string; status: string };
        gatewayAccepted.push(order.id);
        if (order.status !== 'open' && otherAnswers.length < 5) otherAnswers.push(`gateway 200 with status ${order.status}`);
      } else if (otherAnswers.length < 5) otherAnswers.push(`gateway ${status} ${body.slice(0, 200)}`);
    };

    // One order each way first: both paths work before anything is measured.
    const once = async (origin: string, request: PreparedRequest, onAnswer: (status: number, body: string) => void) => {
      const response = await fetch(`${origin}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
      const text = await response.text();
      onAnswer(response.status, text);
      return { status: response.status, body: text };
    };
    const firstDirect = await once(urls.origin, nextDirect(), onDirect);
    if (firstDirect.status !== 201) throw new Error(`the fake refused a signed V2 create: ${firstDirect.status} ${firstDirect.body.slice(0, 300)}`);
    const firstGateway = await once(gatewayUrl, nextGateway(), onGateway);
    if (firstGateway.status !== 200) throw new Error(`POST /v1/orders with the live key: ${firstGateway.status} ${firstGateway.body.slice(0, 300)}\n${service.tail()}`);
    if (!/"status":"open"/.test(firstGateway.body)) throw new Error(`the first live order does not rest: ${firstGateway.body.slice(0, 300)}`);

    const probe = () =>
      cpuProbe(() => ({ 'Kalshi fake': [fake.pid], 'service (gateway + core)': [service.pid], PostgreSQL: postgresBackendPids(database.name) }));
    /** The last gateway window (the high-connection one when the run ends): what a profile summarises. */
    const gatewayWindow = { from: 0n, to: 0n };
    const measure = async (target: 'baseline' | 'gateway', connections: number, warmupSeconds: number, seconds: number) => {
      const cpu = probe();
      const figures = await closedLoop({
        origin: target === 'baseline' ? urls.origin : gatewayUrl,
        connections,
        warmupSeconds,
        seconds,
        next: target === 'baseline' ? nextDirect : nextGateway,
        onAnswer: target === 'baseline' ? onDirect : onGateway,
        onWindowStart: () => {
          cpu.start();
          if (target === 'gateway') gatewayWindow.from = process.hrtime.bigint();
        },
        onWindowEnd: () => {
          cpu.end();
          if (target === 'gateway') gatewayWindow.to = process.hrtime.bigint();
        },
        abort: died,
      });
      figures.cpu = cpu.result(figures.ordersPerSecond);
      return figures;
    };

    // JIT: both paths at full load first, discarded (the gateway keeps getting faster for its first thousands of requests).
    log(`  JIT warm-up: both paths at ${HIGH_CONNECTIONS} connections, ${WARMUP_SECONDS} s each (discarded)`);
    await measure('baseline', HIGH_CONNECTIONS, WARMUP_SECONDS, 0.5);
    await measure('gateway', HIGH_CONNECTIONS, WARMUP_SECONDS, 0.5);

    const steps: LiveOrderStep[] = [];
    for (const connections of CONNECTION_STEPS) {
      log(`  ${connections} connection(s): fake directly, then through the gateway (warm-up ${WARMUP_SECONDS} s, window ${WINDOW_SECONDS} s each)`);
      const baseline = await measure('baseline', connections, WARMUP_SECONDS, WINDOW_SECONDS);
      const gateway = await measure('gateway', connections, WARMUP_SECONDS, WINDOW_SECONDS);
      const step = {
        connections,
        baseline,
        gateway,
        addedMs: { p50: round(gateway.latencyMs.p50 - baseline.latencyMs.p50), p99: round(gateway.latencyMs.p99 - baseline.latencyMs.p99) },
      };
      steps.push(step);
      log(formatStep(step));
    }

    // Count: what the fake holds, against what was answered (and, for the gateway, what our database holds).
    const held = await json(`${urls.origin}/_fake/orders`);
    expectStatus('GET /_fake/orders', held, 200);
    const orders = held.body.orders as { user_id: string; client_order_id: string }[];
    const count = (prefix: string, accepted: readonly string[], requests: number): OrderCount => {
      const mine = orders.filter((o) => o.user_id.startsWith(prefix));
      const perId = new Map<string, number>();
      for (const o of mine) perId.set(o.client_order_id, (perId.get(o.client_order_id) ?? 0) + 1);
      const acceptedSet = new Set(accepted);
      let duplicates = 0;
      for (const n of perId.values()) if (n > 1) duplicates += n - 1;
      return {
        requests,
        accepted: accepted.length,
        ordersAtFake: mine.length,
        duplicates,
        lost: [...acceptedSet].filter((id) => !perId.has(id)).length + (accepted.length - acceptedSet.size),
        strays: [...perId.keys()].filter((id) => !acceptedSet.has(id)).length,
      };
    };
    const direct = count('bench-direct-', [...directAccepted], directSequence);
    const gatewayCount = count('bench-gateway-', gatewayAccepted, gatewaySequence);
    const byStatusRows = await db.order.groupBy({ by: ['status'], where: { workspaceId: workspace.id }, _count: { _all: true } });
    const byStatus = Object.fromEntries(byStatusRows.map((row) => [row.status, row._count._all]));
    const requests = await json(`${urls.origin}/_fake/requests`);
    const rateLimited = { direct: 0, gateway: 0 };
    const directKeyIds = new Set(directKeys.map((k) => k.keyId));
    const gatewayKeyIds = new Set(gatewayKeys.map((k) => k.keyId));
    for (const r of requests.body.requests as { keyId: string | null; status: number | string }[]) {
      if (r.status !== 429 || r.keyId === null) continue;
      if (directKeyIds.has(r.keyId)) rateLimited.direct += 1;
      if (gatewayKeyIds.has(r.keyId)) rateLimited.gateway += 1;
    }
    for (const answer of otherAnswers) log(`  WARNING unexpected answer: ${answer}`);

    let profile: LiveOrderReport['profile'];
    if (PROFILE) {
      await service.stop();
      const exitedAt = process.hrtime.bigint();
      const mainThread = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${service.pid}.0.`));
      if (!mainThread) throw new Error(`no main-thread CPU profile for pid ${service.pid} in ${profileDir}`);
      const file = path.join(profileDir, mainThread);
      const window = { startBeforeEndUs: Number(exitedAt - gatewayWindow.from) / 1000, endBeforeEndUs: Number(exitedAt - gatewayWindow.to) / 1000 };
      profile = { ...summarizeProfile(file, window), cpuprofile: path.relative(process.cwd(), file) };
      fs.writeFileSync(path.join(RESULTS_DIR, 'profile-live-order.txt'), `${formatProfileSummary(profile, 40)}\n`);
    }

    return {
      date: new Date().toISOString(),
      settings: {
        connections: CONNECTION_STEPS.join(' and '),
        warmupSeconds: WARMUP_SECONDS,
        windowSeconds: WINDOW_SECONDS,
        directKeys: DIRECT_KEYS,
        gatewaySubaccounts: GATEWAY_SUBACCOUNTS,
        fakeRateTier: 'premier (1000 write tokens/s per key; a create costs 10)',
        kalshiTier: 'premier',
        order: `${TICKER}: direct bid ${DIRECT_PRICE} x 1.00 good_till_canceled; POST /v1/orders yes buy limit ${GATEWAY_PRICE} x 1 (bid ${GATEWAY_PRICE} x 1.00 good_till_canceled)`,
        nodeEnv: process.env.BENCH_NODE_ENV ?? '(unset)',
        profiled: PROFILE ? 'yes: the service ran under --cpu-prof' : 'no',
      },
      steps,
      direct,
      gateway: { ...gatewayCount, ordersInDatabase: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus },
      rateLimited,
      signMs: signCostMs(signers[0]!),
      profile,
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await db.$disconnect();
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------
// Output.

const fmt = (value: number) => (Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : '–');
const signed = (value: number) => `${value >= 0 ? '+' : ''}${fmt(value)}`;

function formatStep(step: LiveOrderStep): string {
  const row = (label: string, f: LoopFigures) =>
    `    ${label.padEnd(26)} ${fmt(f.ordersPerSecond).padStart(8)} orders/s  p50 ${fmt(f.latencyMs.p50).padStart(7)} ms  p99 ${fmt(f.latencyMs.p99).padStart(7)} ms  (${f.responses} answers in ${f.seconds} s; whole run ${JSON.stringify(f.statuses)})`;
  // CPU per group in the window: cores, and ms per order for the processes that serve it.
  const cpu = (f: LoopFigures) => {
    if (!f.cpu) return '';
    return Object.entries(f.cpu.cores)
      .map(([group, cores]) => {
        const perOrder = group === 'other processes' || group === 'machine (all)' ? '' : ` (${fmt(f.cpu!.msPerRequest[group]!)} ms/order)`;
        return `${group.replace('load generator (autocannon)', 'load generator')} ${cores}${perOrder}`;
      })
      .join(', ');
  };
  const note = (label: string, f: LoopFigures) => {
    const text = busyNote(f.cpu?.cores['other processes'], label);
    return text ? [`    ${text}`] : [];
  };
  return [
    `  ${step.connections} connection(s):`,
    row('Kalshi fake directly', step.baseline),
    row('POST /v1/orders (gateway)', step.gateway),
    `    ${'added by the gateway'.padEnd(26)} ${''.padStart(8)}           p50 ${signed(step.addedMs.p50).padStart(7)} ms  p99 ${signed(step.addedMs.p99).padStart(7)} ms`,
    `    cpu cores, fake directly: ${cpu(step.baseline)}`,
    `    cpu cores, gateway:       ${cpu(step.gateway)}`,
    ...note('the direct run', step.baseline),
    ...note('the gateway run', step.gateway),
  ].join('\n');
}

export function formatLiveOrderReport(report: LiveOrderReport): string {
  const counted = (label: string, c: OrderCount) =>
    `  ${label}: ${c.requests} requests, ${c.accepted} accepted, ${c.ordersAtFake} orders at the fake; duplicates ${c.duplicates}, lost ${c.lost}, strays ${c.strays}`;
  const lines = [
    `  | connections | fake p50 / p99 ms | gateway p50 / p99 ms | added p50 / p99 ms | fake orders/s | gateway orders/s |`,
    ...report.steps.map(
      (s) =>
        `  | ${String(s.connections).padStart(11)} | ${`${fmt(s.baseline.latencyMs.p50)} / ${fmt(s.baseline.latencyMs.p99)}`.padStart(17)} | ${`${fmt(s.gateway.latencyMs.p50)} / ${fmt(s.gateway.latencyMs.p99)}`.padStart(20)} | ${`${signed(s.addedMs.p50)} / ${signed(s.addedMs.p99)}`.padStart(18)} | ${fmt(s.baseline.ordersPerSecond).padStart(13)} | ${fmt(s.gateway.ordersPerSecond).padStart(16)} |`,
    ),
    counted('fake directly', report.direct),
    `${counted('through the gateway', report.gateway)}; orders in our database ${report.gateway.ordersInDatabase} ${JSON.stringify(report.gateway.byStatus)}`,
    `  ${report.rateLimited.direct + report.rateLimited.gateway > 0 ? '!!! ' : ''}429s from the fake: direct ${report.rateLimited.direct}, gateway ${report.rateLimited.gateway} (must be 0: rate limits are not what is measured)`,
    `  one RSA-PSS signature with our signer: ${report.signMs} ms of CPU (the core signs every order)`,
    liveOrderCountsHold(report)
      ? '  every request accepted, and the fake holds exactly one order per request on both paths'
      : '  FAILED: not every request was accepted with exactly one order at the fake (and, through the gateway, in our database)',
  ];
  if (report.profile) lines.unshift('  (the service ran under --cpu-prof: these figures are not comparable with unprofiled runs)');
  if (report.profile) lines.push(`  profile of the service over the last gateway window (under --cpu-prof): bench-results/profile-live-order.txt, ${report.profile.cpuprofile}`);
  return lines.join('\n');
}

export function writeLiveOrderReport(report: LiveOrderReport): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'live-order.json'), `${JSON.stringify(report, null, 2)}\n`);
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    const report = await runLiveOrderBench();
    writeLiveOrderReport(report);
    process.stdout.write(`${formatLiveOrderReport(report)}\n  details: bench-results/live-order.json\n`);
    if (report.profile) process.stdout.write(`\n${formatProfileSummary(report.profile, 20)}\n`);
    return liveOrderCountsHold(report) ? 0 : 1;
  });
}
