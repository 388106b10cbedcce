import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Config } from '../../core/config';
import { inProcessTransport, type CoreRequest, type CoreTransport } from '../../gateway/coreClient';
import { openGateway, type GatewayService } from '../../gateway/gatewayService';
import type { Logger } from '../../core/support/logger';
import { INTERNAL_SECRET } from './env';
import type { Stack } from './stack';

/**
 * Gateways of a suite's own on loopback, beside its stack's: the same core with other settings, or
 * through a transport the suite watches or holds. `closeAll()` (afterAll) closes their servers,
 * connections included, then the gateways.
 */
export class OwnGateways {
  private readonly servers: http.Server[] = [];
  private readonly gateways: GatewayService[] = [];

  constructor(private readonly stack: () => Stack) {}

  /** A gateway with `config` over `transport` (in process to the stack's core by default); its base URL. */
  async start(config: Config, options: { transport?: CoreTransport; logger?: Logger; coreEvents?: boolean } = {}): Promise<string> {
    const { core } = this.stack();
    const gateway = openGateway(config, {
      transport: options.transport ?? inProcessTransport(core),
      internalSecret: INTERNAL_SECRET,
      revocations: core.revocations,
      revocationsReachUs: true,
      logger: options.logger ?? pino({ level: 'silent' }),
      ...(options.coreEvents ? { events: core.events } : {}),
    });
    this.gateways.push(gateway);
    const server = http.createServer(gateway.app.callback());
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async closeAll(): Promise<void> {
    for (const server of this.servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const gateway of this.gateways.splice(0)) await gateway.close();
  }
}

/**
 * The stack's core in process, each request shown to `watch` first; `watch` may hold a request by
 * answering a promise (the call goes on once it settles).
 */
export function watchedTransport(stack: Stack, watch: (request: CoreRequest) => void | Promise<void>): CoreTransport {
  const inner = inProcessTransport(stack.core);
  return {
    send: async (request) => {
      await watch(request);
      return inner.send(request);
    },
    stream: async (request) => {
      await watch(request);
      return inner.stream(request);
    },
    close: () => inner.close(),
  };
}
