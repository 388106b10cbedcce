/**
 * Plumbing shared by the benchmarks: child processes that cannot outlive the benchmark, a fresh
 * PostgreSQL database that is always dropped, and clean-up that runs on success, failure and
 * Ctrl-C alike.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import { applyMigrations } from '../core/db/migrate';

export const ROOT = path.resolve(__dirname, '..');
export const RESULTS_DIR = path.join(ROOT, 'bench-results');

// ---------------------------------------------------------------------------------------------
// Clean-up: LIFO, each step once, on normal completion, on failure and on SIGINT/SIGTERM.

type CleanupStep = () => Promise<void> | void;
const cleanupSteps: { label: string; step: CleanupStep }[] = [];
const liveChildren = new Set<ChildProcess>();
let signalHandlersInstalled = false;

let cleanupRun: Promise<void> | undefined;
/** Steps the main flow is running itself (handle.run()); a clean-up run waits for them too. */
const stepsInFlight = new Set<Promise<unknown>>();
let shuttingDown = false;

export interface CleanupHandle {
  /** Runs the step now (once) and unregisters it; resolves at once if clean-up already took it. */
  run(): Promise<void>;
  /** Unregisters the step without running it. */
  cancel(): void;
}

/** Registers a clean-up step. */
export function onCleanup(label: string, step: CleanupStep): CleanupHandle {
  const entry = { label, step };
  cleanupSteps.push(entry);
  const take = () => {
    const index = cleanupSteps.indexOf(entry);
    if (index >= 0) cleanupSteps.splice(index, 1);
    return index >= 0;
  };
  return {
    async run() {
      if (!take()) return;
      const running = Promise.resolve().then(entry.step);
      stepsInFlight.add(running);
      try {
        await running;
      } finally {
        stepsInFlight.delete(running);
      }
    },
    cancel() {
      take();
    },
  };
}

/**
 * Runs every pending clean-up step, newest first; a failing step is reported and the rest still
 * run. Concurrent callers (the signal handler and the main flow) share one run.
 */
export function runCleanups(): Promise<void> {
  cleanupRun ??= (async () => {
    while (cleanupSteps.length) {
      const { label, step } = cleanupSteps.pop()!;
      try {
        await step();
      } catch (error) {
        process.stderr.write(`bench: clean-up "${label}" failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    await Promise.allSettled([...stepsInFlight]);
  })().finally(() => {
    cleanupRun = undefined;
  });
  return cleanupRun;
}

/** True once Ctrl-C / SIGTERM was received: nothing new may be started. */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

/**
 * Ctrl-C / SIGTERM: clean up (stop children, drop the database), then exit 130/143. On any exit,
 * children still alive are SIGKILLed synchronously as a last resort.
 */
export function installSignalHandlers(): void {
  if (signalHandlersInstalled) return;
  signalHandlersInstalled = true;
  let stopping = false;
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // The same Ctrl-C often arrives twice (from the terminal and relayed by a parent): only a
      // later, deliberate second signal forces an immediate exit.
      if (Date.now() - firstSignalAt < 3000) return;
      killAllChildrenNow();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    firstSignalAt = Date.now();
    shuttingDown = true;
    process.stderr.write(`\nbench: ${signal}, cleaning up...\n`);
    const hardStop = setTimeout(() => {
      killAllChildrenNow();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }, 15_000);
    hardStop.unref();
    void runCleanups().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAllChildrenNow);
}

function killAllChildrenNow(): void {
  for (const child of liveChildren) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes.

export interface ChildOptions {
  /** Short name used in messages. */
  label: string;
  /** Script path relative to the repository root, run with tsx's loader. */
  script: string;
  env: Record<string, string | undefined>;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

export interface ManagedChild {
  label: string;
  pid: number;
  /** Resolves with the first JSON log line on stdout that `match` accepts. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. Idempotent. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  tail(): string;
  /** Resolves when the process has exited, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Variables a child must not inherit from the shell running the benchmark: the benchmark sets them. */
const CONTROLLED = [
  'DATABASE_URL', 'REDIS_URL', 'CORE_URL', 'PORT', 'CORE_PORT', 'HOST', 'INTERNAL_TOKEN', 'RATE_LIMIT_DEFAULT',
  'AUTH_CACHE_TTL_MS', 'CATALOG_CACHE_MS', 'LOG_LEVEL', 'NODE_OPTIONS', 'NODE_ENV', 'PGLITE_DATA_DIR', 'BENCH_WORKER',
];

/**
 * Starts `node --import tsx --import bench/childGuard.ts <script>` directly (not through the tsx
 * CLI, which would add a wrapper process), with an IPC channel so that the child stops itself if
 * this process dies. It is killed by pid in clean-up in any case.
 */
export function startChild(options: ChildOptions): ManagedChild {
  if (shuttingDown) throw new Error(`${options.label}: not started, the benchmark is shutting down`);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !CONTROLLED.includes(name)) env[name] = value;
  // No live Kalshi catalog sync under measurement (it would page Kalshi's catalog); a benchmark may turn it on.
  env.KALSHI_CATALOG_SYNC_MS = '0';
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;

  const guard = pathToFileURL(path.join(ROOT, 'bench/childGuard.ts')).href;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', '--import', guard, options.script], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`${options.label}: could not start ${options.script}`);
  liveChildren.add(child);

  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
  };
  type Waiter = { match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void };
  const waiters = new Set<Waiter>();
  let stdoutRest = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdoutRest += chunk;
    let newline: number;
    while ((newline = stdoutRest.indexOf('\n')) >= 0) {
      const line = stdoutRest.slice(0, newline);
      stdoutRest = stdoutRest.slice(newline + 1);
      if (!line.trim()) continue;
      remember(line);
      if (!line.startsWith('{')) continue;
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      for (const waiter of waiters) {
        if (waiter.match(parsed)) {
          waiters.delete(waiter);
          waiter.resolve(parsed);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.trim()) remember(`[stderr] ${line}`);
  });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    });
  });
  // The IPC channel is only a lifeline for the child; it must not keep this process alive.
  child.channel?.unref();
  child.on('error', (error) => remember(`[spawn error] ${error.message}`));

  const tail = () => lines.slice(-15).join('\n');
  let stopping: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  const managed: ManagedChild = {
    label: options.label,
    pid: child.pid,
    tail,
    exited,
    waitForLog(match, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`${options.label}: not ready after ${timeoutMs} ms\n${tail()}`));
        }, timeoutMs);
        waiters.add(waiter);
        void exited.then(({ code, signal }) => {
          if (!waiters.delete(waiter)) return;
          clearTimeout(timer);
          reject(new Error(`${options.label}: exited (${signal ?? `code ${code}`}) before it was ready\n${tail()}`));
        });
      });
    },
    stop(graceMs = 5000) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const result = await exited;
          clearTimeout(timer);
          return result;
        }
        return exited;
      })();
      return stopping;
    },
  };
  const cleanup = onCleanup(`stop ${options.label} (pid ${child.pid})`, async () => {
    await managed.stop();
  });
  void exited.then(() => cleanup.cancel());
  return managed;
}

// ---------------------------------------------------------------------------------------------
// Entry points: a light supervisor and the worker that does the work.

/**
 * Runs a benchmark's `main` in a worker process under a light supervisor (this process). Why: the
 * tsx CLI (`npm run bench` is `tsx bench/run.ts`) answers Ctrl-C by SIGKILLing its child when that
 * child's event loop does not acknowledge the signal within 30 ms, which a process driving
 * autocannon or a tight benchmark loop often cannot; SIGKILL would leave the database behind. The
 * supervisor's loop is idle, so it always acknowledges; it forwards the signal, waits for the
 * worker to clean up, and afterwards drops any database the worker left (names end in its pid).
 */
export function runAsBenchmarkMain(script: string, main: () => Promise<number>): void {
  if (process.env.BENCH_WORKER === '1') {
    installSignalHandlers();
    main().then(
      async (code) => {
        await runCleanups();
        process.exit(code);
      },
      async (error: unknown) => {
        process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
        await runCleanups();
        process.exit(1);
      },
    );
    return;
  }
  const guard = pathToFileURL(path.join(ROOT, 'bench/childGuard.ts')).href;
  const worker = spawn(process.execPath, ['--import', 'tsx', '--import', guard, script], {
    cwd: ROOT,
    env: { ...process.env, BENCH_WORKER: '1' },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = signal;
    if (worker.exitCode === null && worker.signalCode === null) worker.kill(signal);
    setTimeout(() => worker.kill('SIGKILL'), 30_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  worker.on('exit', (code, signal) => {
    void dropLeftoverDatabases(worker.pid!).finally(() => {
      if (signalled) process.exit(signalled === 'SIGINT' ? 130 : 143);
      process.exit(code ?? (signal ? 1 : 0));
    });
  });
}

async function dropLeftoverDatabases(workerPid: number): Promise<void> {
  try {
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'mkapi\\_bench\\_%\\_' || $1::text`,
        [String(workerPid)],
      );
      for (const { datname } of rows) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        process.stderr.write(`bench: dropped database ${datname} left by the worker\n`);
      }
    } finally {
      await admin.end();
    }
  } catch (error) {
    process.stderr.write(`bench: could not check for leftover databases: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

// ---------------------------------------------------------------------------------------------
// A fresh PostgreSQL database per run, migrated, always dropped.

export const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `mkapi_bench_${Date.now()}_${process.pid}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const drop = onCleanup(`drop database ${name}`, () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).run;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return { name, url: url.toString(), drop };
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------

/** One request, the body as bytes; for setting up and checking targets, not for load. */
export async function getBytes(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A numeric setting from the environment, or `fallback` when unset or not a number. */
export const envNumber = (value: string | undefined, fallback: number) => (value && Number.isFinite(Number(value)) ? Number(value) : fallback);

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The nearest-rank percentile of ascending values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting over the measured window, from /proc (Linux; empty figures elsewhere).

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux (getconf CLK_TCK)

function readProcCpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return undefined;
  }
}

function readMachineCpuMs(): { busy: number; total: number } | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...values] = line.trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy: busy * CLOCK_TICK_MS, total: (busy + idle! + iowait!) * CLOCK_TICK_MS };
  } catch {
    return undefined;
  }
}

/** The PostgreSQL backends serving `database` right now (their process title names it). */
export function postgresBackendPids(database: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface CpuReport {
  windowSeconds: number;
  /** CPU used, in cores (CPU-seconds per second), per group and for the whole machine. */
  cores: Record<string, number>;
  /** CPU milliseconds per successful request, per group. */
  msPerRequest: Record<string, number>;
  machineCores: number;
}

/**
 * Samples CPU time of groups of processes (plus this process, the load generator, and the whole
 * machine) at the start and end of the measured window. `groups` is evaluated at start, so that
 * pool connections opened during the warm-up are included.
 */
export function cpuProbe(groups: () => Record<string, number[]>) {
  let startAt = 0;
  let startGroups: Record<string, number[]> = {};
  let startTimes = new Map<number, number>();
  let startSelf = 0;
  let startMachine: { busy: number; total: number } | undefined;
  let report: Omit<CpuReport, 'msPerRequest'> | undefined;
  let raw: Record<string, number> = {};
  const selfMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  return {
    start() {
      startAt = performance.now();
      startGroups = groups();
      startTimes = new Map();
      for (const pid of Object.values(startGroups).flat()) startTimes.set(pid, readProcCpuMs(pid) ?? NaN);
      startSelf = selfMs();
      startMachine = readMachineCpuMs();
    },
    end() {
      const seconds = (performance.now() - startAt) / 1000;
      const cores: Record<string, number> = {};
      let ours = 0;
      for (const [group, pids] of Object.entries(startGroups)) {
        let ms = 0;
        for (const pid of pids) {
          const delta = (readProcCpuMs(pid) ?? NaN) - startTimes.get(pid)!;
          if (Number.isFinite(delta)) ms += delta;
        }
        cores[group] = ms / 1000 / seconds;
        ours += ms;
      }
      const self = selfMs() - startSelf;
      cores['load generator (autocannon)'] = self / 1000 / seconds;
      ours += self;
      const machine = readMachineCpuMs();
      if (machine && startMachine) {
        const busy = machine.busy - startMachine.busy;
        cores['other processes'] = Math.max(0, (busy - ours) / 1000 / seconds);
        cores['machine (all)'] = busy / 1000 / seconds;
      }
      raw = { ...cores };
      for (const key of Object.keys(cores)) cores[key] = Math.round(cores[key]! * 100) / 100;
      report = { windowSeconds: Math.round(seconds * 100) / 100, cores, machineCores: os.cpus().length };
    },
    /** The figures, with CPU ms per request for `requests` successful requests. */
    result(requestsPerSecond: number): CpuReport | undefined {
      if (!report) return undefined;
      const msPerRequest: Record<string, number> = {};
      for (const [group, cores] of Object.entries(raw)) {
        msPerRequest[group] = requestsPerSecond > 0 ? Math.round((1000 * cores * 1000) / requestsPerSecond) / 1000 : NaN;
      }
      return { ...report, msPerRequest };
    },
  };
}

/** Above this many cores used by other processes in a window, that window's figures are depressed and noisy. */
export const OTHER_LOAD_NOTE_CORES = 0.25;

/** The NOTE printed when other processes used more than OTHER_LOAD_NOTE_CORES (`otherCores`) during `label`'s window. */
export function busyNote(otherCores: number | undefined, label: string): string | undefined {
  const others = otherCores ?? 0;
  if (others <= OTHER_LOAD_NOTE_CORES) return undefined;
  return `!!! NOTE: other processes used ${others.toFixed(2)} CPU cores during ${label}'s window: its figures are depressed and noisy.`;
}

/** "server 0.95 (1.234 ms/req), postgres backends 0.40 (...), ...; machine 1.9 of 2". */
export function formatCpuCores(cpu: CpuReport, unit = 'req'): string {
  const parts = Object.entries(cpu.cores)
    .filter(([group]) => group !== 'machine (all)')
    .map(([group, cores]) => `${group} ${cores.toFixed(2)}${Number.isFinite(cpu.msPerRequest[group]) && group !== 'other processes' ? ` (${cpu.msPerRequest[group]!.toFixed(3)} ms/${unit})` : ''}`);
  return `cpu cores: ${parts.join(', ')}; machine ${cpu.cores['machine (all)']?.toFixed(2) ?? '?'} of ${cpu.machineCores}`;
}
