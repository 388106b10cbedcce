/**
 * The event stream in the production shape (docs/events.md): two core processes, each behind a
 * gateway process of its own, sharing PostgreSQL and Redis. A stream held by gateway B sees an
 * order placed through gateway A within 500 ms (whichever core numbers it, the announcement
 * crosses Redis); the per-credential and per-workspace stream limits hold across the replicas; a
 * key revoked through one gateway ends its streams on the other.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { createApiKey, createDashboardToken } from '../../core/services/accounts/apiKeys';
import { INTERNAL_SECRET, redisUrl } from '../support/env';
import { EventStreamClient } from '../support/eventStream';
import { buildWorkspace } from '../support/factories';
import { call, ok } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';
import { marketOf, type Market } from '../trading/helpers';

jest.setTimeout(120_000);

let db: Db;
let cores: ServiceProcess[] = [];
let gateways: ServiceProcess[] = [];
let market: Market;

beforeAll(async () => {
  const url = await ownDatabase('event_streams_two_gateways');
  const common = { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info', REDIS_URL: redisUrl(), DATABASE_URL: url, EVENT_STREAMS_PER_KEY: '2', EVENT_STREAMS_PER_WORKSPACE: '3', EVENT_STREAM_HEARTBEAT_MS: '200' };
  cores = await Promise.all([0, 1].map(() => startProcess('bin/startCore.ts', { ...common, CORE_PORT: '0' })));
  gateways = await Promise.all(cores.map((core) => startProcess('bin/startGateway.ts', { ...common, PORT: '0', CORE_URL: core.url, RATE_LIMIT_DEFAULT: '100000' })));
  db = createPrismaClient(url, 2);
  market = await marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS');
}, 120_000);

afterAll(async () => {
  await Promise.all([...gateways, ...cores].map((p) => p.stop()));
  await db?.$disconnect();
});

async function traderOn() {
  const { workspace, secret, key } = await buildWorkspace(db, { rateLimit: 100_000 });
  const subaccount = ok(await call(gateways[0]!.url, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'streams' } }), 'subaccount').id as string;
  return { workspace, secret, key, subaccount };
}

test('a stream on gateway B sees an order placed through gateway A, within 500 ms of its commit', async () => {
  const { secret, subaccount } = await traderOn();
  const stream = await EventStreamClient.open(gateways[1]!.url, { key: secret });
  try {
    expect(stream.status).toBe(200);
    for (let i = 0; i < 5; i += 1) {
      const order = ok(
        await call(gateways[0]!.url, 'POST', '/v1/orders', {
          key: secret,
          body: { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' },
        }),
        'order',
      );
      const rested = await stream.next((e) => e.data.id === order.id && e.type === 'order.rested', 3000, `order ${i} rested`);
      expect(rested.receivedAt - Date.parse(rested.created_at)).toBeLessThan(500);
    }
    const ids = stream.events.map((e) => e.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  } finally {
    stream.close();
  }
});

test('the per-credential limit counts the streams of both gateways; a closed stream frees its place', async () => {
  const { secret } = await traderOn();
  const first = await EventStreamClient.open(gateways[0]!.url, { key: secret });
  const second = await EventStreamClient.open(gateways[1]!.url, { key: secret });
  try {
    expect([first.status, second.status]).toEqual([200, 200]);
    // Tried again and again for well past the places' own expiry (3 heartbeats of 200 ms): the
    // places are renewed with their set, so a third stream is refused every time.
    const statuses = new Set<number>();
    for (let i = 0, until = Date.now() + 1500; Date.now() < until; i += 1) {
      const third = await EventStreamClient.open(gateways[i % 2]!.url, { key: secret });
      statuses.add(third.status);
      if (third.status === 429) {
        expect(third.error).toMatchObject({ code: 'rate_limited' });
        expect(third.headers.get('retry-after')).toBe('1');
      } else {
        third.close();
      }
    }
    expect([...statuses]).toEqual([429]);
    second.close();
    (await EventStreamClient.openOnceAdmitted(gateways[0]!.url, { key: secret })).close();
  } finally {
    first.close();
    second.close();
  }
});

test('a key revoked through gateway A ends its stream on gateway B', async () => {
  const { workspace, secret, key } = await traderOn();
  const { secret: dashboard } = await createDashboardToken(db, workspace.id);
  const stream = await EventStreamClient.open(gateways[1]!.url, { key: secret });
  expect(stream.status).toBe(200);
  ok(await call(gateways[0]!.url, 'DELETE', `/v1/api_keys/${key.id}`, { key: dashboard }), 'revoke');
  await stream.until((s) => s.closed, 3000, 'the end of the stream');
  const refused = await EventStreamClient.open(gateways[1]!.url, { key: secret });
  expect(refused.status).toBe(401);
});

test('the per-workspace limit counts every credential’s streams on both gateways', async () => {
  const { workspace, secret } = await traderOn();
  const { secret: other } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', rateLimit: 100_000 });
  const open = [
    await EventStreamClient.open(gateways[0]!.url, { key: secret }),
    await EventStreamClient.open(gateways[1]!.url, { key: secret }),
    await EventStreamClient.open(gateways[1]!.url, { key: other }),
  ];
  try {
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    // The other key has one stream of its two, but the workspace has its three: refused on either gateway.
    for (const gateway of gateways) {
      const fourth = await EventStreamClient.open(gateway.url, { key: other });
      expect(fourth.status).toBe(429);
      expect(fourth.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/at once per workspace/) });
    }
    // Another workspace is not counted with it.
    const neighbour = await EventStreamClient.open(gateways[0]!.url, { key: (await traderOn()).secret });
    expect(neighbour.status).toBe(200);
    neighbour.close();
    open[0]!.close();
    (await EventStreamClient.openOnceAdmitted(gateways[1]!.url, { key: other })).close();
  } finally {
    for (const stream of open) stream.close();
  }
});
