/**
 * `GET /v1/markets/{id}` through the gateway, against a bare `node:http` server returning the same
 * bytes, on PostgreSQL, in one run:
 *
 *  - single: bin/start.ts (gateway and core in one process, in-process transport, as `npm start`),
 *    with the gateway's catalog cache (CATALOG_CACHE_MS 1 s);
 *  - bare:   bench/bareServer.ts, the body the gateway returned for the market;
 *  - single, no cache: the same with CATALOG_CACHE_MS=0 (every request runs GetMarket in the core);
 *  - split+redis, no cache: bin/startCore.ts + bin/startGateway.ts (HTTP transport) with REDIS_URL
 *    (the gateway caches authentications, keeps rate-limit counters in Redis), CATALOG_CACHE_MS=0;
 *  - BENCH_SPLIT_CACHED=1 adds split (no Redis, so no auth cache) and split+redis, both with the
 *    catalog cache on.
 *
 * Every server is a child process; autocannon runs in this process, alone on its event loop. Each
 * target gets a warm-up (discarded) then the measured run, at the same connection count.
 * BENCH_PROFILE=1 (or single | split | all) adds CPU-profiled runs and summarises where the time goes.
 *
 * Run alone: npx tsx bench/gatewayMarket.ts
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrismaClient } from '../core/db/prismaClient';
import { createApiKey } from '../core/services/accounts/apiKeys';
import { seedSimulatedMarkets } from '../core/services/catalog/simulatedCatalog';
import { createWorkspace } from '../core/services/accounts/workspaces';
import { GOALS, goalMet, goalText, type GoalId, type GoalResult } from './goals';
import { measure, type LoadResult } from './load';
import { formatProfileSummary, summarizeProfile, type ProfileSummary } from './profileSummary';
import {
  RESULTS_DIR,
  ROOT,
  busyNote,
  cpuProbe,
  formatCpuCores,
  createBenchDatabase,
  postgresBackendPids,
  getBytes,
  runAsBenchmarkMain,
  startChild,
  type BenchDatabase,
  type CpuReport,
  type ManagedChild,
} from './support';

export interface GatewayMarketOptions {
  connections?: number;
  /** Minimum warm-up per target (the warm-up also waits for warmupRequests responses). */
  warmupSeconds?: number;
  warmupRequests?: number;
  warmupMaxSeconds?: number;
  seconds?: number;
  /** NODE_ENV for the servers (unset by default, as with `npm start`). */
  nodeEnv?: string;
  /** Also measure split mode with the catalog cache on: without Redis, and with Redis. */
  splitCached?: boolean;
  redisUrl?: string;
  /** CPU-profiled extra runs to summarise: of `single`, and of `split` (its gateway and its core). */
  profile?: ('single' | 'split')[];
  /** Where to write gateway-market.json (and profiles). */
  resultsDir?: string;
  log?: (line: string) => void;
  /** Print the report table at the end (run.ts prints it in its own summary instead). */
  printReport?: boolean;
}

export interface TargetResult extends LoadResult {
  target: string;
  description: string;
  /** CPU used during the measured window, per process group. */
  cpu?: CpuReport;
  /** Gateway req/s divided by bare req/s in the same run. */
  ratioToBare?: number;
  goal?: { id: GoalId; text: string; met: boolean };
}

export type ProfiledProcess = ProfileSummary & { process: string; cpuprofile: string; run: TargetResult };

export interface GatewayMarketReport {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  settings: {
    connections: number;
    warmup: string;
    seconds: number;
    nodeEnv: string;
    loadGenerator: string;
    database: string;
  };
  loadAverageAtStart: number[];
  /** The code measured: HEAD and whether the working tree had changes (read-only git calls). */
  source: { commit: string; dirtyFiles: number };
  marketId: string;
  bodyBytes: number;
  targets: TargetResult[];
  profiles?: ProfiledProcess[];
}

const num = (value: string | undefined, fallback: number) => (value && Number.isFinite(Number(value)) ? Number(value) : fallback);

/** The workspace, its test key and the market the load asks for, created before any server starts. */
async function prepareData(databaseUrl: string): Promise<{ secret: string; marketId: string }> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    await seedSimulatedMarkets(db);
    const workspace = await createWorkspace(db, 'Benchmark workspace');
    // No per-key limit: the core's RATE_LIMIT_DEFAULT (set very high for the servers) applies.
    const { secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'bench' });
    const market = await db.market.findFirst({ where: { venue: 'sim_kalshi', venueMarketId: 'FED-CUT-DEC' }, select: { id: true } });
    if (!market) throw new Error('the seeded market sim_kalshi FED-CUT-DEC is missing');
    return { secret, marketId: market.id };
  } finally {
    await db.$disconnect();
  }
}

export async function runGatewayMarketBench(options: GatewayMarketOptions = {}): Promise<GatewayMarketReport> {
  const connections = options.connections ?? num(process.env.BENCH_CONNECTIONS, 50);
  const warmupSeconds = options.warmupSeconds ?? num(process.env.BENCH_WARMUP_SECONDS, 3);
  const warmupRequests = options.warmupRequests ?? num(process.env.BENCH_WARMUP_REQUESTS, 5000);
  const warmupMaxSeconds = options.warmupMaxSeconds ?? num(process.env.BENCH_WARMUP_MAX_SECONDS, 20);
  const nodeEnv = options.nodeEnv ?? process.env.BENCH_NODE_ENV;
  const seconds = options.seconds ?? num(process.env.BENCH_SECONDS, 10);
  const splitCached = options.splitCached ?? process.env.BENCH_SPLIT_CACHED === '1';
  const redisUrl = options.redisUrl ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // BENCH_PROFILE=1 or single: the single-process server; split: both split processes; all: both.
  const profileSetting = process.env.BENCH_PROFILE ?? '';
  const profileKinds =
    options.profile ??
    (profileSetting === 'all' ? ['single', 'split'] : profileSetting === 'split' ? ['split'] : ['1', 'single'].includes(profileSetting) ? ['single'] : []);
  const resultsDir = options.resultsDir ?? RESULTS_DIR;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));

  const children: ManagedChild[] = [];
  const start = (...args: Parameters<typeof startChild>) => {
    const child = startChild(...args);
    children.push(child);
    return child;
  };
  let database: BenchDatabase | undefined;
  const loadAverageAtStart = os.loadavg().map((value) => Math.round(value * 100) / 100);
  try {
    database = await createBenchDatabase();
    log(`gateway-market: database ${database.name} created and migrated`);
    const { secret, marketId } = await prepareData(database.url);
    const auth = { authorization: `Bearer ${secret}` };
    const internalToken = randomBytes(32).toString('base64url');
    const serverEnv = {
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      INTERNAL_TOKEN: internalToken,
      // Far above what the machine can serve, so that the limiter never answers 429.
      RATE_LIMIT_DEFAULT: '1000000',
      LOG_LEVEL: 'info',
      NODE_ENV: nodeEnv,
    };
    const databaseName = database.name;
    /** Load on `url`, with CPU accounting of the given server processes and of this database's backends. */
    const load = async (
      url: string,
      expectBody: string,
      headers: Record<string, string> | undefined,
      servers: Record<string, ManagedChild>,
      window: { onWindowStart?: () => void; onWindowEnd?: () => void } = {},
    ) => {
      const probe = cpuProbe(() => ({
        ...Object.fromEntries(Object.entries(servers).map(([name, child]) => [name, [child.pid]])),
        'postgres backends': postgresBackendPids(databaseName),
      }));
      const result = await measure({
        url, headers, connections, warmupSeconds, warmupRequests, warmupMaxSeconds, seconds, expectBody,
        onWindowStart: () => {
          probe.start();
          window.onWindowStart?.();
        },
        onWindowEnd: () => {
          window.onWindowEnd?.();
          probe.end();
        },
        abort: Promise.race(
          Object.values(servers).map((child) =>
            child.exited.then(({ code, signal }) => `${child.label} exited (${signal ?? `code ${code}`}) under load\n${child.tail()}`),
          ),
        ),
      });
      return { ...result, cpu: probe.result(result.requestsPerSecond) };
    };
    const targets: TargetResult[] = [];
    let body: Buffer | undefined;

    /** The market through a gateway at `baseUrl`: fetched once, checked against the reference bytes. */
    const marketBody = async (baseUrl: string, label: string) => {
      const response = await getBytes(`${baseUrl}/v1/markets/${marketId}`, auth);
      if (response.status !== 200) throw new Error(`${label}: GET /v1/markets/${marketId} answered ${response.status}: ${response.body.toString('utf8')}`);
      // The same market in every deployment but for `as_of`: when that process's simulated venue last changed its book (its start).
      const withoutAsOf = (bytes: Buffer) => JSON.stringify({ ...(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>), as_of: undefined });
      if (body && withoutAsOf(response.body) !== withoutAsOf(body)) throw new Error(`${label}: the market's JSON differs from the single-process gateway's`);
      return response.body;
    };
    const record = (target: string, description: string, result: LoadResult & { cpu?: CpuReport }) => {
      const entry: TargetResult = { target, description, ...result };
      targets.push(entry);
      log(`  ${formatRow(entry)}`);
      if (entry.cpu) log(`  ${' '.repeat(21)} ${formatCpuCores(entry.cpu)}`);
      warnIfUnclean(entry, log);
      return entry;
    };

    /** Starts a deployment; `nodeArgs` go to every process of it (used for --cpu-prof). */
    const launch = async (kind: 'single' | 'split', target: string, nodeArgs: string[] = [], redis?: string, env: Record<string, string> = {}) => {
      if (kind === 'single') {
        const server = start({ label: target, script: 'bin/start.ts', env: { ...serverEnv, PORT: '0', ...env }, nodeArgs });
        const { url } = (await server.waitForLog((line) => line.msg === 'listening')) as { url: string };
        return { url, servers: { server } as Record<string, ManagedChild> };
      }
      const core = start({ label: `${target} core`, script: 'bin/startCore.ts', env: { ...serverEnv, CORE_PORT: '0', REDIS_URL: redis, ...env }, nodeArgs });
      const { port: corePort } = (await core.waitForLog((line) => line.msg === 'core listening')) as { port: number };
      const gateway = start({
        label: `${target} gateway`,
        script: 'bin/startGateway.ts',
        env: { ...serverEnv, DATABASE_URL: undefined, PORT: '0', CORE_URL: `http://127.0.0.1:${corePort}`, REDIS_URL: redis, ...env },
        nodeArgs,
      });
      const { port } = (await gateway.waitForLog((line) => line.msg === 'gateway listening')) as { port: number };
      return { url: `http://127.0.0.1:${port}`, servers: { gateway, core } as Record<string, ManagedChild> };
    };
    const stopAll = async (servers: Record<string, ManagedChild>) => {
      // The gateway first: it holds connections to the core.
      for (const name of ['gateway', 'server', 'core']) await servers[name]?.stop();
    };

    log(
      `gateway-market: ${connections} connections; per target a warm-up of >= ${warmupSeconds} s and >= ${warmupRequests} responses ` +
        `(at most ${warmupMaxSeconds} s) on the same connections, then ${seconds} s measured`,
    );
    // The gateway targets, in order; the first one's answer is the reference body for all.
    const gatewayTargets: { target: string; description: string; kind: 'single' | 'split'; redis?: string; uncached?: boolean; goal?: GoalId }[] = [
      { target: 'single', description: 'gateway + core in one process (bin/start.ts, in-process transport)', kind: 'single', goal: 'marketCached' },
      {
        target: 'single, no cache', description: 'the same with CATALOG_CACHE_MS=0 (every request runs GetMarket in the core)',
        kind: 'single', uncached: true, goal: 'marketUncached',
      },
      {
        target: 'split+redis, no cache', description: 'bin/startCore.ts + bin/startGateway.ts over HTTP with REDIS_URL (auth cache on), CATALOG_CACHE_MS=0',
        kind: 'split', redis: redisUrl, uncached: true, goal: 'marketSplitRedisUncached',
      },
    ];
    if (splitCached) {
      gatewayTargets.push(
        { target: 'split', description: 'bin/startCore.ts + bin/startGateway.ts over HTTP, no Redis (auth cache off), catalog cache on', kind: 'split' },
        {
          target: 'split+redis', description: 'split with REDIS_URL (auth cache on, rate-limit counters in Redis), catalog cache on',
          kind: 'split', redis: redisUrl, goal: 'marketCached',
        },
      );
    }
    const goalOf = new Map<string, GoalId>();
    for (const [index, spec] of gatewayTargets.entries()) {
      log(`gateway-market: ${spec.target} (${spec.description})`);
      const { url, servers } = await launch(spec.kind, spec.target, [], spec.redis, spec.uncached ? { CATALOG_CACHE_MS: '0' } : {});
      const answer = await marketBody(url, spec.target);
      body ??= answer;
      if (spec.goal) goalOf.set(spec.target, spec.goal);
      // Every answer of one deployment is the same bytes (its book is not moved during the run).
      record(spec.target, spec.description, await load(`${url}/v1/markets/${marketId}`, answer.toString('utf8'), auth, servers));
      await stopAll(servers);
      if (index > 0) continue;
      // The baseline, right after the first target: bare node:http with the same bytes.
      log(`gateway-market: bare node:http baseline (${body.length} bytes of JSON)`);
      const server = start({ label: 'bare', script: 'bench/bareServer.ts', env: { PORT: '0', BENCH_BARE_BODY_BASE64: body.toString('base64') } });
      const { url: bareUrl } = (await server.waitForLog((line) => line.msg === 'listening')) as { url: string };
      const check = await getBytes(`${bareUrl}/v1/markets/${marketId}`);
      if (!check.body.equals(body)) throw new Error("bare: the baseline does not return the gateway's bytes");
      record('bare', 'bare node:http server returning the same bytes', await load(`${bareUrl}/v1/markets/${marketId}`, body.toString('utf8'), undefined, { server }));
      await server.stop();
    }
    if (!body) throw new Error('no gateway target ran');

    const bare = targets.find((t) => t.target === 'bare')!;
    for (const target of targets) {
      if (target === bare) continue;
      target.ratioToBare = Math.round((1000 * target.requestsPerSecond) / Math.max(1, bare.requestsPerSecond)) / 1000;
      const id = goalOf.get(target.target);
      if (id) {
        const measured = { ratio: target.ratioToBare, p50Ms: target.latencyMs.p50, p99Ms: target.latencyMs.p99 };
        target.goal = { id, text: goalText(GOALS[id]), met: goalMet(GOALS[id], measured) };
      }
    }

    // 5. Optional: where the servers spend their time under the same load (separate, profiled runs).
    const profiles: ProfiledProcess[] = [];
    for (const kind of profileKinds) {
      // One directory per run: Node writes a profile per thread (the main thread, and tsx's module
      // loader thread), named CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; ours is thread 0.
      const profileDir = path.join(resultsDir, 'profiles', `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      fs.mkdirSync(profileDir, { recursive: true });
      log(`gateway-market: ${kind} again, under --cpu-prof (these figures are not the benchmark's)`);
      const { url, servers } = await launch(kind, `${kind} (profiled)`, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
      const profiledAnswer = await marketBody(url, `${kind} (profiled)`);
      let measuredFrom = 0n;
      let measuredTo = 0n;
      const result = await load(`${url}/v1/markets/${marketId}`, profiledAnswer.toString('utf8'), auth, servers, {
        onWindowStart: () => (measuredFrom = process.hrtime.bigint()),
        onWindowEnd: () => (measuredTo = process.hrtime.bigint()),
      });
      const run: TargetResult = { target: `${kind} (profiled)`, description: `${kind} under --cpu-prof`, ...result };
      log(`  ${formatRow(run)}`);
      for (const [name, child] of Object.entries(servers)) {
        await child.stop();
        const exitedAt = process.hrtime.bigint();
        const mainThread = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${child.pid}.0.`));
        if (!mainThread) throw new Error(`no main-thread CPU profile for pid ${child.pid} in ${profileDir}`);
        const file = path.join(profileDir, mainThread);
        const summary = summarizeProfile(file, {
          startBeforeEndUs: Number(exitedAt - measuredFrom) / 1000,
          endBeforeEndUs: Number(exitedAt - measuredTo) / 1000,
        });
        const label = kind === 'single' ? 'single' : `split-${name}`;
        log(`\n  == ${label}: ${formatProfileSummary(summary, 15).split('\n').join('\n  ')}`);
        fs.writeFileSync(path.join(resultsDir, `profile-${label}.txt`), `${formatProfileSummary(summary, 40)}\n`);
        profiles.push({ process: label, ...summary, cpuprofile: path.relative(process.cwd(), file), run });
      }
    }

    const report: GatewayMarketReport = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${os.platform()} ${os.release()}` },
      settings: {
        connections,
        warmup: `>= ${warmupSeconds} s, >= ${warmupRequests} responses and every connection answered; at most ${warmupMaxSeconds} s`,
        seconds,
        nodeEnv: nodeEnv ?? '(unset)',
        loadGenerator: 'autocannon 9 (programmatic API, in the benchmark process, no workers, pipelining 1), one continuous run per target',
        database: 'PostgreSQL (fresh database per run)',
      },
      loadAverageAtStart,
      source: sourceState(),
      marketId,
      bodyBytes: body.length,
      targets,
      profiles: profiles.length ? profiles : undefined,
    };
    fs.mkdirSync(resultsDir, { recursive: true });
    fs.writeFileSync(path.join(resultsDir, 'gateway-market.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (options.printReport ?? true) {
      log('');
      log(formatGatewayMarketReport(report));
    }
    log(`  written to ${path.relative(process.cwd(), path.join(resultsDir, 'gateway-market.json'))}`);
    return report;
  } finally {
    for (const child of children.reverse()) await child.stop();
    await database?.drop();
  }
}

function sourceState(): GatewayMarketReport['source'] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const changes = git('status', '--porcelain', '--untracked-files=no');
    return { commit: git('rev-parse', '--short', 'HEAD'), dirtyFiles: changes ? changes.split('\n').length : 0 };
  } catch {
    return { commit: 'unknown', dirtyFiles: 0 };
  }
}

function formatRow(t: TargetResult): string {
  return (
    `${t.target.padEnd(21)} ${String(t.requestsPerSecond).padStart(7)} req/s  ` +
    `p50 ${t.latencyMs.p50.toFixed(2).padStart(6)} ms  p99 ${t.latencyMs.p99.toFixed(2).padStart(6)} ms  ` +
    `non-2xx ${t.non2xx}  errors ${t.errors}  mismatches ${t.mismatches}  ` +
    `(after ${t.warmup.seconds} s / ${t.warmup.responses} responses of warm-up)`
  );
}

/** CPU milliseconds the server processes (gateway and core) spent per request. */
function serverMsPerRequest(t: TargetResult): number | undefined {
  if (!t.cpu) return undefined;
  const groups = ['server', 'gateway', 'core'].filter((group) => group in t.cpu!.msPerRequest);
  return groups.reduce((sum, group) => sum + t.cpu!.msPerRequest[group]!, 0);
}

function warnIfUnclean(t: TargetResult, log: (line: string) => void): void {
  const problems = [
    t.non2xx ? `${t.non2xx} non-2xx responses (${JSON.stringify(t.statusCodes)})` : '',
    t.errors ? `${t.errors} connection errors` : '',
    t.timeouts ? `${t.timeouts} timeouts` : '',
    t.mismatches ? `${t.mismatches} responses with a different body` : '',
    t.warmup.non2xx ? `${t.warmup.non2xx} non-2xx responses during the warm-up` : '',
  ].filter(Boolean);
  const note = busyNote(t.cpu?.cores['other processes'], t.target);
  if (note) log(`  ${note}`);
  if (!problems.length) return;
  log('');
  log('  !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  log(`  !!! WARNING: ${t.target}: ${problems.join('; ')}`);
  log('  !!! the figures above do not measure successful requests only; do not compare them.');
  log('  !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  log('');
}

export function formatGatewayMarketReport(report: GatewayMarketReport): string {
  const header =
    `  ${'target'.padEnd(21)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)} ${'ratio'.padStart(7)} ` +
    `${'srv cpu ms/req'.padStart(15)}  goal`;
  const rows = report.targets.map((t) => {
    const goals = t.goal ? `${t.goal.text}: ${t.goal.met ? 'met' : 'MISSED'}` : t.target === 'bare' ? 'baseline' : '-';
    return (
      `  ${t.target.padEnd(21)} ${String(t.requestsPerSecond).padStart(8)} ${t.latencyMs.p50.toFixed(2).padStart(8)} ` +
      `${t.latencyMs.p99.toFixed(2).padStart(8)} ${String(t.non2xx).padStart(8)} ${(t.ratioToBare?.toFixed(3) ?? '-').padStart(7)} ` +
      `${(serverMsPerRequest(t)?.toFixed(3) ?? '?').padStart(15)}  ${goals}`
    );
  });
  return [
    `GET /v1/markets/{id}: ${report.settings.connections} connections, ${report.settings.seconds} s measured per target after a warm-up ` +
      `(${report.settings.warmup}); ${report.bodyBytes}-byte body; ${report.machine.cpus} CPUs; NODE_ENV ${report.settings.nodeEnv}; ` +
      `load average at start ${report.loadAverageAtStart.join(' ')}; code ${report.source.commit}` +
      `${report.source.dirtyFiles ? ` + ${report.source.dirtyFiles} modified files` : ''}`,
    header,
    ...rows,
  ].join('\n');
}

/** The summary's rows: each target with a goal, its ratio to bare in the same run. */
export function gatewayMarketGoalResults(report: GatewayMarketReport): GoalResult[] {
  const bare = report.targets.find((t) => t.target === 'bare');
  const others = (t?: TargetResult) => t?.cpu?.cores['other processes'] ?? 0;
  return report.targets.flatMap((t) => {
    if (!t.goal) return [];
    const measured =
      `${t.requestsPerSecond.toLocaleString('en-US')} req/s, p99 ${t.latencyMs.p99} ms, ` +
      `ratio ${t.ratioToBare} of bare node:http's ${bare?.requestsPerSecond.toLocaleString('en-US')} req/s`;
    return [{ id: t.goal.id, measured, met: t.goal.met, otherCores: Math.max(others(t), others(bare)) }];
  });
}

if (require.main === module) {
  runAsBenchmarkMain(__filename, async () => {
    await runGatewayMarketBench();
    return 0;
  });
}
