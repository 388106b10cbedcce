import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { databaseUrl, INTERNAL_SECRET, redisUrl } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startProcess, type ServiceProcess } from '../support/processes';

/**
 * The production shape: one core process and two gateway processes sharing Redis, talking over
 * real HTTP. Rate limits and revocations must hold across the replicas; a dead or hung core is a
 * 502 within the gateway's timeout.
 */
describe('core and two gateway processes sharing Redis', () => {
  let db: Db;
  let core: ServiceProcess;
  let gateways: ServiceProcess[] = [];
  const common = { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info', REDIS_URL: redisUrl(), DATABASE_URL: databaseUrl() };

  beforeAll(async () => {
    db = createPrismaClient(databaseUrl(), 2);
    core = await startProcess('bin/startCore.ts', { ...common, CORE_PORT: '0' });
    gateways = await Promise.all(
      [0, 1].map(() => startProcess('bin/startGateway.ts', { ...common, PORT: '0', CORE_URL: core.url, CORE_TIMEOUT_MS: '1500' })),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...gateways, core].map((p) => p.stop()));
    await db.$disconnect();
  });

  it('a key limited to 5 requests per second gets 429 past 5, whichever replica it hits', async () => {
    const { workspace } = await buildWorkspace(db);
    const { secret } = await buildApiKey(db, workspace.id, 'test', 5);
    // Warm both replicas' authentication caches, then wait for a fresh window.
    for (const gateway of gateways) expect((await call(gateway.url, 'GET', '/v1/fills', { key: secret })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Ten requests at once, alternating replicas: one shared budget of five a second. Each check
    // happens between the first send and the last answer, so at most 5 pass per second of that
    // span: exactly 5 when the burst takes under a second (as it does, in ~50 ms), where budgets
    // kept per replica would let 10 through; a stalled machine cannot make it fail spuriously.
    const sentAt = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(gateways[i % 2].url, 'GET', '/v1/fills', { key: secret })),
    );
    const windows = Math.max(1, Math.ceil((Date.now() - sentAt) / 1000));
    const statuses = responses.map((r) => r.status);
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(Math.min(10, 5 * windows));
    expect(statuses.filter((s) => s === 429)).toHaveLength(10 - passed);
    for (const ok of responses.filter((r) => r.status === 200)) expect(ok.headers.get('ratelimit-limit')).toBe('5');
    const limited = responses.find((r) => r.status === 429);
    expect(envelopeOf(limited!).code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a key revoked through one replica is refused by the other at once', async () => {
    const { workspace, secret, key } = await buildWorkspace(db);
    const { secret: dashboard } = await createDashboardToken(db, workspace.id);
    for (const gateway of gateways) expect((await call(gateway.url, 'GET', '/v1/markets', { key: secret })).status).toBe(200);
    const revoked = await call(gateways[0].url, 'DELETE', `/v1/api_keys/${key.id}`, { key: dashboard });
    expect(revoked.status).toBe(200);
    const other = await call(gateways[1].url, 'GET', '/v1/markets', { key: secret });
    expect(other.status).toBe(401);
    expect(envelopeOf(other).code).toBe('unauthorized');
  });

  it('serves the analysts’ GraphQL through a gateway process, over HTTP to the core, which refuses it sent directly', async () => {
    const { workspace } = await buildWorkspace(db);
    const { secret } = await createDashboardToken(db, workspace.id, 'read_only');
    const body = { query: '{ workspace { id } }' };
    const answered = await call(gateways[1].url, 'POST', '/analyst/graphql', { key: secret, body });
    expect(answered.status).toBe(200);
    expect(answered.body.data.workspace.id).toBe(workspace.id);
    const direct = await call(core.url, 'POST', '/analyst/graphql', { key: secret, body });
    expect(direct.status).toBe(401);
    expect(direct.body.errors[0].extensions.code).toBe('unauthorized');
  });

  it('answers 502 upstream_unavailable within the timeout when the core hangs', async () => {
    const hung = http.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const gateway = await startProcess('bin/startGateway.ts', { ...common, PORT: '0', CORE_URL: hungUrl, CORE_TIMEOUT_MS: '800' });
    try {
      const started = Date.now();
      const response = await call(gateway.url, 'GET', '/v1/markets', { key: `mk_test_${'C'.repeat(40)}` });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(502);
      expect(envelopeOf(response).code).toBe('upstream_unavailable');
      expect(elapsed).toBeGreaterThanOrEqual(700);
      expect(elapsed).toBeLessThan(3000);
    } finally {
      await gateway.stop();
      hung.closeAllConnections();
      hung.close();
    }
  }, 60_000);

  it('answers 502 upstream_unavailable when the core is down, and recovers when it is back', async () => {
    const { secret } = await buildWorkspace(db);
    await core.stop('SIGKILL');
    const down = await call(gateways[1].url, 'GET', '/v1/markets', { key: secret });
    expect(down.status).toBe(502);
    expect(envelopeOf(down).code).toBe('upstream_unavailable');
    const port = new URL(core.url).port;
    core = await startProcess('bin/startCore.ts', { ...common, CORE_PORT: port });
    expect((await call(gateways[1].url, 'GET', '/v1/markets', { key: secret })).status).toBe(200);
  }, 60_000);
});
