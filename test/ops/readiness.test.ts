/**
 * GET /healthz and GET /readyz (docs/operations.md) on the gateway and the core, against real
 * dependencies on loopback: ready (200) when the database, the core and Redis answer; 503 naming
 * what is down when one does not (Redis on a closed port, Redis or the core accepting connections
 * and never answering, the core unreachable from a split gateway, the database dropped under a
 * running core), and ready again when it is back, without a restart. Probes need no credential,
 * are never rate limited, and never show a URL, host or port of a dependency.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createRevocationBus } from '../../contract/revocationBus';
import { createLogger } from '../../core/support/logger';
import { httpTransport } from '../../gateway/coreClient';
import { openGateway } from '../../gateway/gatewayService';
import { INTERNAL_SECRET, redisUrl, testConfig } from '../support/env';
import { ADMIN_URL } from '../support/globalSetup';
import { call, closedPort, type ApiResponse } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, untilReady, type Stack } from '../support/stack';

interface CheckView {
  status: 'up' | 'down';
  ms: number;
  reason?: string;
  checks?: Record<string, CheckView>;
  venues?: Record<string, { status: string }>;
}
interface Report {
  status: 'ready' | 'unready';
  down: string[];
  checks: Record<string, CheckView>;
  venues?: Record<string, { status: string }>;
}

const readyz = (base: string) => call<Report>(base, 'GET', '/readyz');

/** A 503 naming exactly `down`, and nothing of the dependency's address in the body. */
function expectUnready(response: ApiResponse<Report>, down: string[], secrets: string[]) {
  expect(response.status).toBe(503);
  expect(response.body.status).toBe('unready');
  expect(response.body.down).toEqual(down);
  for (const name of down) expect(response.body.checks[name].status).toBe('down');
  const text = JSON.stringify(response.body);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/redis:\/\/|postgres(ql)?:\/\/|127\.0\.0\.1|ECONNREFUSED/);
}

/** A TCP server that accepts connections and never says a word: a hung Redis, or a hung core. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/** A gateway of its own, reaching the core at `coreUrl`, listening on loopback. */
async function splitGateway(coreUrl: string, overrides: Record<string, string> = {}) {
  const config = testConfig(overrides);
  const revocations = createRevocationBus(config.REDIS_URL);
  const gateway = openGateway(config, {
    transport: httpTransport(coreUrl),
    internalSecret: INTERNAL_SECRET,
    revocations,
    revocationsReachUs: revocations.shared,
    logger: createLogger('silent', 'test'),
  });
  const server = http.createServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
      await revocations.close();
    },
  };
}

describe('everything up (one process, PostgreSQL and Redis)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(testConfig({ REDIS_URL: redisUrl() }));
    await untilReady(stack.gateways[0]); // the revocation subscription is made once the process runs
  });
  afterAll(() => stack.close());

  it('GET /healthz is 200 {"status":"ok"}, with no credential', async () => {
    const response = await call(stack.gateways[0], 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /readyz is 200: the core with its database and Redis, the gateway’s Redis, and the venues as known', async () => {
    const response = await readyz(stack.gateways[0]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ready',
      down: [],
      checks: {
        core: { status: 'up', checks: { database: { status: 'up' }, redis: { status: 'up' } } },
        redis: { status: 'up' },
      },
    });
    // Venues are reported, not checked: the simulated ones run in the core; live Kalshi and Polymarket were never called yet.
    expect(response.body.checks.core.venues).toEqual({ 'sim-kalshi': { status: 'up' }, 'sim-polymarket': { status: 'up' }, kalshi: { status: 'unknown' }, polymarket: { status: 'unknown' } });
  });

  it('probes are never refused by a rate limit, and a credential sent with one changes nothing', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(stack.gateways[0], 'GET', i % 2 ? '/readyz' : '/healthz', { headers: { authorization: 'Bearer mk_test_nonsense' } })),
    );
    expect(statuses.map((r) => r.status)).toEqual(Array(60).fill(200));
  });
});

describe('Redis down', () => {
  it('on a closed port: 503 naming redis, at the gateway and in the core’s own report; /healthz still 200', async () => {
    const port = await closedPort();
    const stack = await startStack(testConfig({ REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}`, READINESS_TIMEOUT_MS: '500' }));
    try {
      const response = await readyz(stack.gateways[0]);
      expectUnready(response, ['core', 'redis'], [String(port), 'hunter2secret']);
      expect(response.body.checks.core).toMatchObject({ reason: 'not ready: redis down', checks: { database: { status: 'up' }, redis: { status: 'down' } } });
      expect((await call(stack.gateways[0], 'GET', '/healthz')).status).toBe(200);
    } finally {
      await stack.close();
    }
  });

  it('accepting connections and never answering: the probe gives up after READINESS_TIMEOUT_MS and says so', async () => {
    const hung = await silentServer();
    const stack = await startStack(testConfig({ REDIS_URL: `redis://127.0.0.1:${hung.port}`, READINESS_TIMEOUT_MS: '300' }));
    try {
      const response = await readyz(stack.gateways[0]);
      expectUnready(response, ['core', 'redis'], [String(hung.port)]);
      expect(response.body.checks.redis.reason).toBe('no answer within 300 ms');
      expect(response.body.checks.core.checks!.redis.reason).toBe('no answer within 300 ms');
    } finally {
      await stack.close();
      await hung.close();
    }
  });
});

describe('split: the core as seen from a gateway', () => {
  it('the core unreachable (nothing listens at CORE_URL): 503 naming core, "unreachable"', async () => {
    const port = await closedPort();
    const gateway = await splitGateway(`http://127.0.0.1:${port}`);
    try {
      const response = await readyz(gateway.url);
      expectUnready(response, ['core'], [String(port)]);
      expect(response.body.checks.core.reason).toBe('unreachable');
      expect((await call(gateway.url, 'GET', '/healthz')).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('a core that accepts and never answers: 503 after twice READINESS_TIMEOUT_MS (the core’s own checks get one)', async () => {
    const hung = await silentServer();
    // CORE_TIMEOUT_MS: the gateway's own request to the core ends soon after, so that it closes soon.
    const gateway = await splitGateway(`http://127.0.0.1:${hung.port}`, { READINESS_TIMEOUT_MS: '300', CORE_TIMEOUT_MS: '1000' });
    try {
      const response = await readyz(gateway.url);
      expectUnready(response, ['core'], [String(hung.port)]);
      expect(response.body.checks.core.reason).toBe('no answer within 600 ms');
    } finally {
      await gateway.close();
      await hung.close();
    }
  });

  it('the core up: 200 from the gateway and from the core’s own port', async () => {
    const stack = await startStack(testConfig(), 'split');
    try {
      const atGateway = await readyz(stack.gateways[0]);
      expect(atGateway.status).toBe(200);
      expect(atGateway.body.checks.core).toMatchObject({ status: 'up', checks: { database: { status: 'up' } } });
      expect(atGateway.body.checks.redis).toBeUndefined(); // no REDIS_URL: Redis is no dependency
      const atCore = await readyz(stack.coreUrl!);
      expect(atCore.status).toBe(200);
      expect(atCore.body).toMatchObject({ status: 'ready', down: [], checks: { database: { status: 'up' } } });
      expect(atCore.body.venues).toMatchObject({ 'sim-kalshi': { status: 'up' } });
    } finally {
      await stack.close();
    }
  });
});

describe('the database lost under a running core, and back', () => {
  // A database of its own, migrated, and a split stack: tens of seconds on a busy machine (a guard, not a measure).
  it('503 naming database at the core and core at the gateway while it is gone; 200 again once it is back, without a restart', async () => {
    const url = await ownDatabase('ops_readiness');
    const name = new URL(url).pathname.slice(1);
    const stack = await startStack(testConfig({ DATABASE_URL: url }), 'split');
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      expect((await readyz(stack.coreUrl!)).status).toBe(200);
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);

      const atCore = await readyz(stack.coreUrl!);
      expectUnready(atCore, ['database'], [name]);
      expect(atCore.body.checks.database.reason).toBe('unavailable');
      const atGateway = await readyz(stack.gateways[0]);
      expectUnready(atGateway, ['core'], [name]);
      expect(atGateway.body.checks.core).toMatchObject({ reason: 'not ready: database down', checks: { database: { status: 'down' } } });
      // Liveness is the process alone, and metrics still answer (the backlog, unread, is left out).
      expect((await call(stack.coreUrl!, 'GET', '/healthz')).status).toBe(200);
      const metrics = await fetch(`${stack.coreUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).not.toMatch(/^mk_reconciler_backlog_orders\{/m);

      await admin.query(`CREATE DATABASE "${name}"`);
      expect((await readyz(stack.coreUrl!)).status).toBe(200);
      expect((await readyz(stack.gateways[0])).status).toBe(200);
    } finally {
      await admin.end();
      await stack.close();
    }
  }, 120_000);
});
