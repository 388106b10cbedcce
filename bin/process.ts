import type http from 'node:http';
import { ConfigError, loadConfig, type Config } from '../core/config';

/** Config for a process: a bad value prints one line and exits 2. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Runs `main`; a failure prints one line (no stack) and exits 1. */
export function run(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

/** Runs a command whose result is its exit code; a failure prints one line (no stack) and exits 2. */
export function exitWith(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}

/** Closes everything on SIGINT/SIGTERM, once. */
export function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export function requireSetting(config: Config, name: 'INTERNAL_TOKEN' | 'CORE_URL'): string {
  const value = config[name];
  if (!value) {
    process.stderr.write(`invalid configuration: ${name} is required when gateway and core run as separate processes\n`);
    process.exit(2);
  }
  return value;
}

/**
 * Stops taking requests and waits for those in progress (a shutdown that loses no order): no new
 * connections; every answer from now on closes its connection (`Connection: close`), and a
 * keep-alive connection is closed as soon as it is idle (a gateway's pool to the core keeps its
 * connections 60 s otherwise); after `graceMs`, whatever is still open is cut.
 */
export function closeGracefully(server: http.Server, graceMs: number): Promise<void> {
  server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  return closed.finally(() => {
    clearInterval(idle);
    clearTimeout(cut);
  });
}

/** How long a stopping process waits for its requests: the longest one may take (CORE_TIMEOUT_MS), and a second. */
export const shutdownGraceMs = (config: Pick<Config, 'CORE_TIMEOUT_MS'>) => config.CORE_TIMEOUT_MS + 1000;
