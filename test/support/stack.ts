import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../core/config';
import { openCore, type CoreService } from '../../core/coreService';
import { createRevocationBus } from '../../contract/revocationBus';
import { createLogger, type Logger } from '../../core/support/logger';
import { httpTransport, inProcessTransport } from '../../gateway/coreClient';
import { openGateway } from '../../gateway/gatewayService';
import { INTERNAL_SECRET } from './env';

export interface Stack {
  core: CoreService;
  /** Base URLs of the gateways, on loopback. */
  gateways: string[];
  coreUrl?: string;
  close(): Promise<void>;
}

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The service on real loopback HTTP. `single`: gateway and core in one process, as `npm start`.
 * `split`: the core on its own HTTP server and `gateways` gateways calling it over HTTP.
 * `options.logger`: where the stack logs, for a suite that reads what the core reported.
 */
export async function startStack(config: Config, mode: 'single' | 'split' = 'single', gatewayCount = 1, options: { logger?: Logger } = {}): Promise<Stack> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, 'test');
  const core = await openCore(config, INTERNAL_SECRET, logger);
  const servers: http.Server[] = [];
  const closers: (() => Promise<void>)[] = [];
  let coreUrl: string | undefined;
  if (mode === 'split') {
    const coreServer = http.createServer(core.handler);
    servers.push(coreServer);
    coreUrl = await listen(coreServer);
  }
  const gateways: string[] = [];
  for (let i = 0; i < (mode === 'single' ? 1 : gatewayCount); i += 1) {
    const revocations = mode === 'single' ? core.revocations : createRevocationBus(config.REDIS_URL);
    const gateway = openGateway(config, {
      transport: mode === 'single' ? inProcessTransport(core) : httpTransport(coreUrl!),
      internalSecret: INTERNAL_SECRET,
      revocations,
      revocationsReachUs: mode === 'single' || revocations.shared,
      logger,
      // As `npm start`: one port serves the core's metrics with the gateway's.
      ...(mode === 'single' ? { coreMetrics: core.metrics, events: core.events } : {}),
    });
    const server = http.createServer(gateway.app.callback());
    servers.push(server);
    gateways.push(await listen(server));
    closers.push(() => gateway.close());
    if (mode === 'split') closers.push(() => revocations.close());
  }
  return {
    core,
    gateways,
    coreUrl,
    async close() {
      await Promise.all(servers.map(closeServer));
      for (const close of closers) await close();
      await core.close();
    },
  };
}

/**
 * Waits until `base` answers GET /readyz with 200 (a new process is ready once, e.g., its Redis
 * subscription is active), polling; fails with the last report after `timeoutMs`.
 */
export async function untilReady(base: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${base}/readyz`);
    const report = await response.text();
    if (response.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${base} not ready after ${timeoutMs} ms: ${report}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
