import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { closedPort } from './http';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * The compiled form of an entry point (`bin/start.ts` -> `dist/bin/start.js`), which a process
 * runs as production does: `node`, no tsx. The build (scripts/build.js) runs in globalSetup, so
 * dist/ is never older than the sources under test. `node` itself is the service process, so a
 * SIGKILL reaches it.
 */
export function compiledEntryPoint(script: string): string {
  if (!/^bin\/\w+\.ts$/.test(script)) throw new Error(`not an entry point under bin/: ${script}`);
  return path.join('dist', script.replace(/\.ts$/, '.js'));
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts one of our entry points as a real process and waits for its "listening" log line, which
 * carries the port it bound (PORT=0 / CORE_PORT=0 let the OS choose).
 */
export function startProcess(script: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  // The scheduler stays off, as in testConfig(): another suite's due complex-order children are not ours to send.
  // The live Kalshi catalog sync too: it would call Kalshi itself.
  const child = spawn(process.execPath, [compiledEntryPoint(script)], { cwd: ROOT, env: { ...process.env, SCHEDULER_ENABLED: 'false', KALSHI_CATALOG_SYNC_MS: '0', LIVE_RECONCILER_ENABLED: 'false', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)|"url":"(http[^"]+)"/.exec(output);
      if (match && /listening/.test(output)) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[2] ?? `http://127.0.0.1:${match[1]}`,
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before listening:\n${output}`));
    });
  });
}

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A stack frame in a process's output: what a user must never see. */
export const STACK_FRAME = /^\s+at\s/m;

/** The CLI refused its arguments: exit 64, nothing on stdout, `error: …` naming why, then the usage (with `usageLine`), no stack. */
export function expectUsageRefusal(result: ProcessOutcome, reason: RegExp, usageLine: string): void {
  expect(result.code).toBe(64);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).toContain('usage:');
  expect(result.stderr).toContain(usageLine);
  expect(result.stderr).not.toMatch(STACK_FRAME);
}

/**
 * Runs one of our scripts to completion (the CLI): its exit code and whole output. `env` adds to
 * this process's environment (`undefined` removes a variable); `stdin`, when given, is written to
 * the process's stdin, which is otherwise /dev/null.
 */
export function runProcess(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  options: { stdin?: string } = {},
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
    const child = spawn(process.execPath, [compiledEntryPoint(script), ...args], {
      cwd: ROOT,
      env: merged,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    // 'close', not 'exit': the output streams may still hold data when the process has exited.
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  });
}

/**
 * Cores (`bin/startCore.ts`, all on `coreEnv`), each behind a gateway process of its own
 * (`bin/startGateway.ts`, rate limit out of the way). `cores` holds every core process started,
 * stopped ones included (their logs stay readable); `startCore(port)` starts another one, e.g. a
 * killed core again on its own port, which its gateway reaches again.
 */
export interface CoreCluster {
  readonly cores: ServiceProcess[];
  readonly gateways: ServiceProcess[];
  startCore(port: number): Promise<ServiceProcess>;
  /** SIGKILLs every process of the cluster. */
  stop(): Promise<void>;
}

export async function startCoreCluster(coreEnv: Record<string, string>, count = 2): Promise<CoreCluster> {
  const cores: ServiceProcess[] = [];
  const gateways: ServiceProcess[] = [];
  const startCore = async (port: number) => {
    const core = await startProcess('bin/startCore.ts', { ...coreEnv, CORE_PORT: String(port) });
    cores.push(core);
    return core;
  };
  const cluster: CoreCluster = {
    cores,
    gateways,
    startCore,
    async stop() {
      for (const running of [...gateways, ...cores]) await running.stop('SIGKILL');
    },
  };
  try {
    for (let i = 0; i < count; i += 1) {
      const core = await startCore(await closedPort());
      gateways.push(await startProcess('bin/startGateway.ts', { INTERNAL_TOKEN: coreEnv.INTERNAL_TOKEN ?? '', LOG_LEVEL: 'info', PORT: '0', CORE_URL: core.url, RATE_LIMIT_DEFAULT: '100000' }));
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
