/**
 * The dead-man's switch over both live venues (issue 14's acceptance: "armed at 2 s, heartbeats
 * stop, every open order on both fakes is cancelled within timeout + 1 s, new orders are refused
 * with a clear error; with two gateways and a core killed and restarted in between, it still fires
 * exactly once"), with real processes as in test/e2e/deadMansSwitch.test.ts: two cores (`npm run
 * start:core`, the compiled dist/), each behind its own gateway (`npm run start:gateway`), on one
 * PostgreSQL database, trading live on the Kalshi fake (docs/kalshi-fake.md) and the Polymarket
 * CLOB V2 fake (docs/polymarket-fake.md), both in this process so that their own order records
 * can be read.
 *
 * One live subaccount holds a Kalshi key and a Polymarket wallet key (API credentials derived with
 * L1 auth by each core that opens the account). Its live key rests orders on both venues through
 * both gateways and arms the workspace's switch at 2 s; heartbeats keep it alive while core A is
 * killed (SIGKILL) and started again on its port; then they stop. Asserted on the venue side: every
 * order is canceled at the Kalshi fake (its record's own time) and at the Polymarket fake (the time
 * its exchange emitted the CANCELLATION) within timeout + 1 s of the last recorded keep-alive, with
 * one cancel request per order at each; the switch fired exactly once (its `firings`, and one
 * "lapsed" line in all the cores' logs); new orders on either venue are refused with 409
 * dead_mans_switch_fired through both gateways, and nothing more reaches either fake; re-armed, the
 * key trades on both again. The figures are printed once.
 *
 * Written against the cancels the sweeper sends on every venue. Polymarket's own heartbeats
 * (`LiveVenue.heartbeat`) are not implemented by the Polymarket adapter on this branch; once they
 * are, the same assertions hold (the fake's heartbeat timeout is 10 s: it cannot be what cancels
 * within 3 s).
 *
 * Nothing here polls with the workspace's key until the switch has fired: any request of the
 * workspace would keep it alive. A database of this suite's own.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import type { OrderRecord as PolymarketOrder } from '../../fakes/polymarket/exchange';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { INTERNAL_SECRET } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, closedPort, type ApiResponse } from '../support/http';
import { newKalshiKey } from '../support/kalshiKeys';
import { attachKalshi, CREATE_PATH, eventually, FED, newKek, startKalshiFake } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { insertLivePolymarketMarket, newPolymarketTrader, PM_FED } from '../support/polymarketLive';
import { startProcess, type ServiceProcess } from '../support/processes';
import { untilReady } from '../support/stack';
import { expectError } from '../trading/helpers';

const TIMEOUT_SECONDS = 2;
const alice = newKalshiKey();
const wallet = newPolymarketTrader();

let db: Db;
let kalshi: KalshiFake;
let clob: PolymarketFake;
const cores: ServiceProcess[] = [];
const gateways: ServiceProcess[] = [];
let coreEnv: Record<string, string>;
/** When the Polymarket fake's exchange took each order off its book (its CANCELLATION event). */
const polymarketCanceledAt = new Map<string, number>();

const startCore = async (port: number) => {
  const core = await startProcess('bin/startCore.ts', { ...coreEnv, CORE_PORT: String(port) });
  cores.push(core);
  return core;
};

beforeAll(async () => {
  const url = await ownDatabase('dead_mans_switch_both_venues');
  db = createPrismaClient(url, 2);
  kalshi = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  clob = await PolymarketFake.start({});
  clob.exchange.wallets.seedCollateral(wallet.address, '1000');
  clob.exchange.events.on((event) => {
    if (event.kind === 'order' && event.type === 'CANCELLATION') polymarketCanceledAt.set(event.order.id, Date.now());
  });
  coreEnv = {
    DATABASE_URL: url,
    INTERNAL_TOKEN: INTERNAL_SECRET,
    LOG_LEVEL: 'info',
    KALSHI_PRODUCTION_URL: kalshi.baseUrl,
    KALSHI_PRODUCTION_WS_URL: kalshi.wsUrl,
    KALSHI_CATALOG_SYNC_MS: '10000', // the start-up sync brings the fake's markets in
    KALSHI_TIMEOUT_MS: '1000',
    POLYMARKET_CLOB_URL: clob.baseUrl,
    POLYMARKET_CHAIN_ID: '80002',
    POLYMARKET_TIMEOUT_MS: '1000',
    CREDENTIALS_KEK: newKek(),
  };
  for (const port of [await closedPort(), await closedPort()]) {
    const core = await startCore(port);
    gateways.push(await startProcess('bin/startGateway.ts', { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info', PORT: '0', CORE_URL: core.url, RATE_LIMIT_DEFAULT: '100000' }));
  }
}, 120_000);

afterAll(async () => {
  for (const running of [...gateways, ...cores]) await running.stop('SIGKILL');
  await Promise.all([kalshi?.close(), clob?.close()]);
  await db?.$disconnect();
});

const dead = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (response: ApiResponse, what: string) => {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};

it('armed at 2 s, heartbeats stop: every open order on the Kalshi and Polymarket fakes is canceled within timeout + 1 s, new orders are refused, and with a core killed and restarted in between it fires exactly once', async () => {
  const [gw1, gw2] = gateways.map((g) => g.url) as [string, string];
  const { secret: live, dashboardSecret } = await buildWorkspace(db, { environment: 'live', rateLimit: 100_000, name: 'DMS on both venues' });
  const kalshiMarket = await eventually('the live catalog sync bringing FED', async () => (await db.market.findFirst({ where: { environment: 'live', venue: 'kalshi', venueMarketId: FED } }))?.id, 30_000);
  const polymarketMarket = await insertLivePolymarketMarket(db, PM_FED);

  // One live subaccount, both credentials attached with the dashboard token (through each gateway).
  const sub = ok(await call(gw1, 'POST', '/v1/subaccounts', { key: live, body: { name: 'two-venue bot' } }), 'live subaccount').id as string;
  ok(await attachKalshi({ base: gw1, live, dashboard: dashboardSecret }, sub, alice, 'production'), 'attach Kalshi');
  ok(await call(gw2, 'PUT', `/v1/subaccounts/${sub}/credentials/polymarket`, { key: dashboardSecret, headers: { 'x-environment': 'live' }, body: { private_key: wallet.privateKey } }), 'attach Polymarket');

  // Resting orders through both gateways (so through both cores): three on Kalshi, four on Polymarket (YES and NO).
  const place = (gateway: string, body: Record<string, string>) => call(gateway, 'POST', '/v1/orders', { key: live, body: { subaccount_id: sub, action: 'buy', type: 'limit', ...body } });
  const kalshiOrders: string[] = [];
  for (const [gateway, price] of [[gw1, '0.10'], [gw2, '0.11'], [gw1, '0.12']] as const) {
    const order = ok(await place(gateway, { market_id: kalshiMarket, side: 'yes', price, quantity: '1' }), 'Kalshi order');
    expect(order).toMatchObject({ venue: 'kalshi', status: 'open' });
    kalshiOrders.push(order.id);
  }
  const polymarketOrders: { id: string; hash: string }[] = [];
  for (const [gateway, side, price] of [[gw1, 'yes', '0.10'], [gw2, 'yes', '0.11'], [gw1, 'no', '0.12'], [gw2, 'no', '0.13']] as const) {
    const order = ok(await place(gateway, { market_id: polymarketMarket, side, price, quantity: '5' }), 'Polymarket order');
    expect(order).toMatchObject({ venue: 'polymarket', status: 'open' });
    polymarketOrders.push({ id: order.id, hash: order.venue_order_id });
  }
  const atKalshi = () => kalshi.exchange.allOrders().filter((o) => kalshiOrders.includes(o.clientOrderId));
  const ourPolymarket = () => clob.exchange.allOrders().filter((o) => o.makerAddress.toLowerCase() === wallet.address.toLowerCase());
  const atPolymarket = () => polymarketOrders.map((o) => ourPolymarket().find((venue) => venue.id === o.hash)).filter((o): o is PolymarketOrder => o !== undefined);
  expect(atKalshi().map((o) => o.status)).toEqual(['resting', 'resting', 'resting']);
  expect(atPolymarket().map((o) => o.status)).toEqual(['LIVE', 'LIVE', 'LIVE', 'LIVE']);
  expect(ourPolymarket()).toHaveLength(4);

  // Armed at 2 s for the whole workspace (both venues), through gateway 1.
  const armed = ok(await call(gw1, 'PUT', '/v1/dead_mans_switch', { key: live, body: { timeout_seconds: TIMEOUT_SECONDS } }), 'arm');
  const beat = async (gateway: string) => ok(await call(gateway, 'POST', '/v1/heartbeat', { key: live }), 'heartbeat');

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
  await beat(gw1); // the last heartbeat, through the restarted core
  expect(atKalshi().map((o) => o.status)).toEqual(['resting', 'resting', 'resting']);
  expect(atPolymarket().map((o) => o.status)).toEqual(['LIVE', 'LIVE', 'LIVE', 'LIVE']);

  // From here on, nothing of the workspace: the switch lapses 2 s after the last keep-alive.
  await dead(100); // a request's own keep-alive is written in the background: let the last one land
  const row = await db.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } });
  expect(row.state).toBe('armed');
  const heartbeatEnd = row.lastHeartbeatAt.getTime();
  const bound = heartbeatEnd + TIMEOUT_SECONDS * 1000 + 1000;

  // The venue side: each fake's own records.
  const canceledAtKalshi = await eventually('every order canceled at the Kalshi fake', async () => {
    const orders = atKalshi();
    return orders.every((o) => o.status === 'canceled') ? Math.max(...orders.map((o) => o.updatedMs)) : undefined;
  }, 10_000, 20);
  const canceledAtPolymarket = await eventually('every order canceled at the Polymarket fake', async () => {
    const orders = atPolymarket();
    return orders.every((o) => o.status === 'CANCELED') ? Math.max(...orders.map((o) => polymarketCanceledAt.get(o.id)!)) : undefined;
  }, 10_000, 20);
  expect(canceledAtKalshi).toBeLessThanOrEqual(bound);
  expect(canceledAtPolymarket).toBeLessThanOrEqual(bound);
  // Not before it lapsed.
  expect(Math.min(...atKalshi().map((o) => o.updatedMs))).toBeGreaterThan(heartbeatEnd + TIMEOUT_SECONDS * 1000 - 1);
  expect(Math.min(...polymarketCanceledAt.values())).toBeGreaterThan(heartbeatEnd + TIMEOUT_SECONDS * 1000 - 1);

  // The cancellation completes; several rounds of both cores' sweepers then change nothing.
  const completed = await eventually('the cancellation complete', async () => {
    const now = await db.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } });
    return now.cancelCompletedAt !== null ? now : undefined;
  }, 10_000);
  await dead(1500);
  const settled = await db.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } });
  expect(settled).toEqual(completed);
  expect([settled.state, settled.firings, settled.ordersCanceled]).toEqual(['fired', 1, 7]);
  // One cancel request per order at each venue.
  const kalshiCancels = kalshi.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE');
  expect(kalshiCancels.map((r) => r.status)).toEqual([200, 200, 200]);
  expect(new Set(kalshiCancels.map((r) => r.path)).size).toBe(3);
  expect(kalshiCancels.every((r) => r.path.startsWith(`${CREATE_PATH}/`))).toBe(true);
  const ourApiKeys = new Set(clob.exchange.accountsOwnedBy(wallet.address).map((a) => a.apiKey));
  const polymarketCancels = clob.requests.filter((r) => r.method === 'DELETE' && r.path === '/order' && r.apiKey !== null && ourApiKeys.has(r.apiKey));
  expect(polymarketCancels.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  const lapsedLines = cores.map((core) => core.output().split('\n').filter((line) => line.includes("dead-man's switch lapsed")).length);
  expect(lapsedLines.reduce((a, b) => a + b, 0)).toBe(1);
  for (const core of cores) expect(core.output()).not.toMatch(/sweep failed|pass failed|cancels of a dead-man's switch failed|heartbeats failed/);

  // Our records agree, and new orders on either venue are refused through both gateways; nothing more reaches either fake.
  for (const id of [...kalshiOrders, ...polymarketOrders.map((o) => o.id)]) expect((await db.order.findUniqueOrThrow({ where: { id } })).status).toBe('canceled');
  const postsBefore = clob.requests.filter((r) => r.method === 'POST' && r.path === '/order').length;
  for (const gateway of [gw1, gw2]) {
    for (const body of [{ market_id: kalshiMarket, quantity: '1' }, { market_id: polymarketMarket, quantity: '5' }]) {
      const refusal = expectError(await place(gateway, { ...body, side: 'yes', price: '0.10' }), 409, 'dead_mans_switch_fired');
      expect(refusal.message).toBe(`A dead-man's switch covering subaccount '${sub}' has lapsed: its open orders are canceled and no new order is accepted until the switch is re-armed or disarmed.`);
    }
  }
  expect(atKalshi()).toHaveLength(3);
  expect(kalshi.exchange.allOrders().filter((o) => o.userId === 'user-alice')).toHaveLength(3);
  expect(ourPolymarket()).toHaveLength(4);
  expect(clob.requests.filter((r) => r.method === 'POST' && r.path === '/order')).toHaveLength(postsBefore);

  // Re-armed, the live key trades on both venues again; then disarmed.
  ok(await call(gw2, 'PUT', '/v1/dead_mans_switch', { key: live, body: { timeout_seconds: 600 } }), 're-arm');
  expect(ok(await place(gw1, { market_id: polymarketMarket, side: 'yes', price: '0.10', quantity: '5' }), 'Polymarket order after re-arm')).toMatchObject({ status: 'open' });
  expect(ok(await place(gw2, { market_id: kalshiMarket, side: 'yes', price: '0.10', quantity: '1' }), 'Kalshi order after re-arm')).toMatchObject({ status: 'open' });
  expect(ourPolymarket().filter((o) => o.status === 'LIVE')).toHaveLength(1);
  ok(await call(gw1, 'DELETE', '/v1/dead_mans_switch', { key: live }), 'disarm');

  console.log(
    `dead-man's switch on both live fakes (timeout ${TIMEOUT_SECONDS} s, sweeper 250 ms, core A killed and restarted while armed): last keep-alive ` +
      `+${canceledAtKalshi - heartbeatEnd} ms: all 3 Kalshi orders canceled at the Kalshi fake; +${canceledAtPolymarket - heartbeatEnd} ms: all 4 Polymarket orders canceled at the Polymarket fake ` +
      `(bound +${TIMEOUT_SECONDS * 1000 + 1000} ms); firings ${settled.firings}, orders canceled ${settled.ordersCanceled}; cancel requests: Kalshi ${kalshiCancels.length}, Polymarket ${polymarketCancels.length}; ` +
      `"lapsed" log lines over ${cores.length} core processes: ${lapsedLines.join('+')}; restarted core ${restarted.url}`,
  );
}, 120_000);
