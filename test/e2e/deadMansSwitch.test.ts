/**
 * The dead-man's switch's acceptance (issue 14), with real processes: two cores (`npm run
 * start:core`), each behind its own gateway (`npm run start:gateway`), on one PostgreSQL database,
 * trading on one set of simulated books (`npm run start:sim-venue`) and, live, on the Kalshi fake
 * (docs/kalshi-fake.md), which runs in this process so that its own order records can be read.
 *
 * One workspace arms two switches at 2 s: its live key's (covering its live Kalshi orders) and its
 * test key's (covering its sim-kalshi and sim-polymarket orders). Heartbeats keep them alive while
 * core A is killed (SIGKILL) and started again on its port; then they stop. Asserted on the venue
 * side: every order is canceled at the Kalshi fake (its record's own time) and in the simulated
 * venues' service within timeout + 1 s of the last recorded keep-alive, with exactly one cancel
 * request per order at the fake; each switch fired exactly once (its `firings` count, and one
 * "lapsed" line in all the cores' logs); new orders are refused with 409 dead_mans_switch_fired
 * through both gateways; and re-arming lets orders in again. The figures are printed once.
 *
 * Then a core killed mid-firing: the Kalshi fake refuses the cancels (429) while the core that
 * claimed the firing is killed; another core takes the cancellation up once its lease (2 s here)
 * has run out, and finishes it, the switch still fired once.
 *
 * Nothing here polls with the workspace's keys until the switches have fired: any request of the
 * workspace would keep them alive. A database of this suite's own.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { SimVenueService } from '../../core/venues/sim/remote/client';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { INTERNAL_SECRET } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, closedPort, type ApiResponse } from '../support/http';
import { newKalshiKey } from '../support/kalshiKeys';
import { attachKalshi, CREATE_PATH, FED, newKek, startKalshiFake } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';
import { untilReady } from '../support/stack';
import { expectError, marketOf } from '../trading/helpers';

const TIMEOUT_SECONDS = 2;
const alice = newKalshiKey();

let db: Db;
let fake: KalshiFake;
let sim: ServiceProcess;
let simClient: SimVenueService;
const cores: ServiceProcess[] = [];
const gateways: ServiceProcess[] = [];
let coreEnv: Record<string, string>;

const startCore = async (port: number) => {
  const core = await startProcess('bin/startCore.ts', { ...coreEnv, CORE_PORT: String(port) });
  cores.push(core);
  return core;
};

beforeAll(async () => {
  const url = await ownDatabase('dead_mans_switch_e2e');
  db = createPrismaClient(url, 2);
  fake = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  sim = await startProcess('bin/startSimVenue.ts', { SIM_VENUE_PORT: '0', INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info' });
  simClient = new SimVenueService({ url: sim.url, token: INTERNAL_SECRET, timeoutMs: 2000 });
  coreEnv = {
    DATABASE_URL: url,
    INTERNAL_TOKEN: INTERNAL_SECRET,
    LOG_LEVEL: 'info',
    SIM_VENUE_URL: sim.url,
    KALSHI_PRODUCTION_URL: fake.baseUrl,
    KALSHI_PRODUCTION_WS_URL: fake.wsUrl,
    KALSHI_CATALOG_SYNC_MS: '10000', // the start-up sync brings the fake's markets in
    KALSHI_TIMEOUT_MS: '1000',
    CREDENTIALS_KEK: newKek(),
    DEAD_MANS_SWITCH_LEASE_MS: '2000', // a core killed mid-firing is succeeded after 2 s
  };
  const ports = [await closedPort(), await closedPort()];
  for (const port of ports) {
    const core = await startCore(port);
    gateways.push(await startProcess('bin/startGateway.ts', { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info', PORT: '0', CORE_URL: core.url, RATE_LIMIT_DEFAULT: '100000' }));
  }
}, 120_000);

afterAll(async () => {
  for (const running of [...gateways, ...cores]) await running.stop('SIGKILL');
  await sim?.stop('SIGKILL');
  await simClient?.close();
  await fake?.close();
  await db?.$disconnect();
});

const dead = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something, at most `timeoutMs`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await dead(20);
  }
}

const ok = (response: ApiResponse, what: string) => {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};

it('armed at 2 s, heartbeats stop: every open order on the Kalshi fake and the simulated venues is canceled within timeout + 1 s, new orders are refused, and with a core killed and restarted in between it fires exactly once', async () => {
  const [gw1, gw2] = gateways.map((g) => g.url) as [string, string];
  const { workspace, secret: live, dashboardSecret } = await buildWorkspace(db, { environment: 'live', rateLimit: 100_000, name: 'DMS acceptance' });
  const { secret: test } = await buildApiKey(db, workspace.id, 'test', 100_000);
  const fed = await until('the live catalog sync bringing FED', async () => (await db.market.findFirst({ where: { environment: 'live', venueMarketId: FED } }))?.id, 30_000);
  const [snow, gold] = [await marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS'), await marketOf(db, 'sim_polymarket', 'pm-ai-imo-gold')];

  // A live subaccount with Alice's Kalshi key (attached through gateway 1 with the dashboard token), and a test one.
  const liveSub = ok(await call(gw1, 'POST', '/v1/subaccounts', { key: live, body: { name: 'live bot' } }), 'live subaccount').id as string;
  ok(await attachKalshi({ base: gw1, live, dashboard: dashboardSecret }, liveSub, alice, 'production'), 'attach');
  const testSub = ok(await call(gw2, 'POST', '/v1/subaccounts', { key: test, body: { name: 'test bot' } }), 'test subaccount').id as string;

  // Resting orders through both gateways (so through both cores): three on Kalshi, four on the simulated venues.
  const liveOrders: string[] = [];
  for (const [gateway, price] of [[gw1, '0.10'], [gw2, '0.11'], [gw1, '0.12']] as const) {
    const order = ok(await call(gateway, 'POST', '/v1/orders', { key: live, body: { subaccount_id: liveSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' } }), 'live order');
    expect(order.status).toBe('open');
    liveOrders.push(order.id);
  }
  const testOrders: { id: string; venue: 'sim-kalshi' | 'sim-polymarket' }[] = [];
  for (const [gateway, market, venue, quantity] of [[gw1, snow, 'sim-kalshi', '1'], [gw2, snow, 'sim-kalshi', '2'], [gw1, gold, 'sim-polymarket', '5'], [gw2, gold, 'sim-polymarket', '6']] as const) {
    const order = ok(await call(gateway, 'POST', '/v1/orders', { key: test, body: { subaccount_id: testSub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity } }), 'test order');
    expect(order.status).toBe('open');
    testOrders.push({ id: order.id, venue });
  }
  const atFake = () => fake.exchange.allOrders().filter((o) => liveOrders.includes(o.clientOrderId));
  expect(atFake().map((o) => o.status)).toEqual(['resting', 'resting', 'resting']);

  // Armed at 2 s: the live key's switch through gateway 1, the test key's through gateway 2.
  const liveSwitch = ok(await call(gw1, 'PUT', '/v1/dead_mans_switch', { key: live, body: { timeout_seconds: TIMEOUT_SECONDS } }), 'arm live');
  const testSwitch = ok(await call(gw2, 'PUT', '/v1/dead_mans_switch', { key: test, body: { subaccount_id: testSub, timeout_seconds: TIMEOUT_SECONDS } }), 'arm test');
  const beat = async (gateway: string) => {
    for (const key of [live, test]) ok(await call(gateway, 'POST', '/v1/heartbeat', { key }), 'heartbeat');
  };

  // Heartbeats through gateway 2 every 300 ms while core A is killed and started again on its port.
  let beating = true;
  const heartbeats = (async () => {
    while (beating) {
      await beat(gw2);
      await dead(300);
    }
  })();
  const coreA = cores[0]!;
  await coreA.stop('SIGKILL');
  const restarted = await startCore(Number(new URL(coreA.url).port));
  await untilReady(gw1);
  await dead(2 * TIMEOUT_SECONDS * 1000); // alive for twice the timeout on heartbeats alone
  beating = false;
  await heartbeats;
  await beat(gw1); // the last heartbeats, through the restarted core

  // From here on, nothing of the workspace: the switches lapse 2 s after the last keep-alive.
  const lastKeepAlive = async () => {
    const rows = await db.deadMansSwitch.findMany({ where: { id: { in: [liveSwitch.id, testSwitch.id] } } });
    expect(rows.map((row) => row.state)).toEqual(['armed', 'armed']);
    return Math.max(...rows.map((row) => row.lastHeartbeatAt.getTime()));
  };
  await dead(100); // a request's own keep-alive is written in the background: let the last one land
  const heartbeatEnd = await lastKeepAlive();
  const bound = heartbeatEnd + TIMEOUT_SECONDS * 1000 + 1000;

  // The venue side: Kalshi's own records (canceled, with their own time) and the simulated venues' service.
  const canceledAtFake = await until('every live order canceled at the Kalshi fake', async () => {
    const orders = atFake();
    return orders.every((o) => o.status === 'canceled') ? Math.max(...orders.map((o) => o.updatedMs)) : undefined;
  }, 10_000);
  const canceledAtSim = await until('every test order canceled at the simulated venues', async () => {
    const states = await Promise.all(testOrders.map((o) => simClient.venue(o.venue).getOrder(o.id)));
    return states.every((state) => state?.status === 'canceled') ? Date.now() : undefined;
  }, 10_000);
  expect(canceledAtFake).toBeLessThanOrEqual(bound);
  expect(canceledAtSim).toBeLessThanOrEqual(bound);
  expect(canceledAtFake).toBeGreaterThan(heartbeatEnd + TIMEOUT_SECONDS * 1000 - 1); // not before it lapsed

  // Both switches complete; then several rounds of both cores' sweepers change nothing.
  const completed = await until('both cancellations complete', async () => {
    const rows = await db.deadMansSwitch.findMany({ where: { id: { in: [liveSwitch.id, testSwitch.id] } }, orderBy: { environment: 'asc' } });
    return rows.every((row) => row.cancelCompletedAt !== null) ? rows : undefined;
  }, 10_000);
  await dead(1500);
  const settled = await db.deadMansSwitch.findMany({ where: { id: { in: [liveSwitch.id, testSwitch.id] } }, orderBy: { environment: 'asc' } });
  expect(settled).toEqual(completed);
  expect(settled.map((row) => [row.environment, row.state, row.firings, row.ordersCanceled])).toEqual([['test', 'fired', 1, 4], ['live', 'fired', 1, 3]]);
  const kalshiCancels = fake.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE');
  expect(kalshiCancels.map((r) => r.status)).toEqual([200, 200, 200]);
  expect(new Set(kalshiCancels.map((r) => r.path)).size).toBe(3);
  expect(kalshiCancels.every((r) => r.path.startsWith(`${CREATE_PATH}/`))).toBe(true);
  const lapsedLines = cores.map((core) => core.output().split('\n').filter((line) => line.includes("dead-man's switch lapsed")).length);
  expect(lapsedLines.reduce((a, b) => a + b, 0)).toBe(2);
  // No sweep, pass, cancel or venue heartbeat (the seam's covered-accounts query runs: a live switch was armed) failed on any core.
  for (const core of cores) expect(core.output()).not.toMatch(/sweep failed|pass failed|cancels of a dead-man's switch failed|heartbeats failed/);

  // Our records agree, and new orders are refused through both gateways, live and test.
  for (const id of liveOrders) expect((await db.order.findUniqueOrThrow({ where: { id } })).status).toBe('canceled');
  for (const { id } of testOrders) expect((await db.order.findUniqueOrThrow({ where: { id } })).status).toBe('canceled');
  for (const gateway of [gw1, gw2]) {
    expectError(await call(gateway, 'POST', '/v1/orders', { key: live, body: { subaccount_id: liveSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' } }), 409, 'dead_mans_switch_fired');
    expectError(await call(gateway, 'POST', '/v1/orders', { key: test, body: { subaccount_id: testSub, market_id: snow.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1' } }), 409, 'dead_mans_switch_fired');
  }
  expect(atFake()).toHaveLength(3); // nothing more reached Kalshi

  // Re-armed, the live key trades again.
  ok(await call(gw2, 'PUT', '/v1/dead_mans_switch', { key: live, body: { timeout_seconds: 600 } }), 're-arm');
  const again = ok(await call(gw1, 'POST', '/v1/orders', { key: live, body: { subaccount_id: liveSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' } }), 'order after re-arm');
  expect(again.status).toBe('open');
  ok(await call(gw1, 'DELETE', '/v1/dead_mans_switch', { key: live }), 'disarm');

  console.log(
    `dead-man's switch acceptance (timeout ${TIMEOUT_SECONDS} s, sweeper 250 ms, core A killed and restarted while armed): ` +
      `last keep-alive +${canceledAtFake - heartbeatEnd} ms: all 3 Kalshi orders canceled at the fake; +${canceledAtSim - heartbeatEnd} ms: all 4 simulated orders seen canceled (bound +${TIMEOUT_SECONDS * 1000 + 1000} ms); ` +
      `firings ${settled.map((row) => row.firings).join(', ')}; Kalshi cancel requests ${kalshiCancels.length} for 3 orders; restarted core ${restarted.url}`,
  );
}, 120_000);

it('a core killed mid-firing: another core takes the cancellation up when its lease runs out and finishes it; the switch fired once', async () => {
  const alive = (core: ServiceProcess) => core.child.exitCode === null && core.child.signalCode === null;
  expect(cores.filter(alive)).toHaveLength(2);
  const gateway = gateways[1]!.url;
  const { secret: live, dashboardSecret } = await buildWorkspace(db, { environment: 'live', rateLimit: 100_000, name: 'DMS mid-firing' });
  const fed = (await db.market.findFirstOrThrow({ where: { environment: 'live', venueMarketId: FED } })).id;
  const sub = ok(await call(gateway, 'POST', '/v1/subaccounts', { key: live, body: { name: 'bot' } }), 'subaccount').id as string;
  ok(await attachKalshi({ base: gateway, live, dashboard: dashboardSecret }, sub, alice, 'production'), 'attach');
  const orders: string[] = [];
  for (const price of ['0.05', '0.06']) {
    orders.push(ok(await call(gateway, 'POST', '/v1/orders', { key: live, body: { subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' } }), 'order').id);
  }
  const atFake = () => fake.exchange.allOrders().filter((o) => orders.includes(o.clientOrderId));
  const cancels = () => fake.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE' && atFake().some((o) => r.path.endsWith(`/${o.orderId}`)));

  // Kalshi answers every cancel 429 (nothing canceled) while the firing core is found and killed.
  fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'DELETE', pathPrefix: `${CREATE_PATH}/`, times: Infinity });
  const armed = ok(await call(gateway, 'PUT', '/v1/dead_mans_switch', { key: live, body: { subaccount_id: sub, timeout_seconds: 1 } }), 'arm');
  const lapsedIn = (core: ServiceProcess) => core.output().split('\n').filter((line) => line.includes("dead-man's switch lapsed") && line.includes(armed.id)).length;
  const firing = await until('a core firing the switch', async () => cores.filter(alive).find((core) => lapsedIn(core) > 0), 10_000);
  await until('its cancels reaching Kalshi (refused)', async () => (cancels().length > 0 ? true : undefined), 10_000);
  await firing.stop('SIGKILL');
  const killedAt = Date.now();
  fake.clearFaults();
  expect(atFake().map((o) => o.status)).toEqual(['resting', 'resting']);

  // The other core takes it up once the dead core's lease (2 s) has run out, and cancels both.
  const completed = await until('the cancellation completed by another core', async () => {
    const row = await db.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } });
    return row.cancelCompletedAt ? row : undefined;
  }, 15_000);
  expect(atFake().map((o) => o.status)).toEqual(['canceled', 'canceled']);
  expect(completed).toMatchObject({ state: 'fired', firings: 1, ordersCanceled: 2, cancelHolder: null });
  const successor = cores.filter(alive);
  expect(successor).toHaveLength(1);
  expect(successor[0]!.output()).toContain("took up a dead-man's switch cancellation");
  expect(cores.map(lapsedIn).reduce((a, b) => a + b, 0)).toBe(1);
  const refusedCancels = cancels().filter((r) => r.status === 429).length;
  expect(cancels().filter((r) => r.status === 200)).toHaveLength(2);
  console.log(
    `dead-man's switch, core killed mid-firing (lease 2 s): ${refusedCancels} cancels refused before the kill; both orders canceled by the successor ${Math.max(...atFake().map((o) => o.updatedMs)) - killedAt} ms after the kill; firings ${completed.firings}`,
  );
}, 60_000);
