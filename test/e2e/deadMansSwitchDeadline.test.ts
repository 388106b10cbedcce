/**
 * The dead-man's switch's cancels keep within its lease (docs/dead-mans-switch.md): each venue call
 * of a cancellation pass has a deadline of half the lease (DEAD_MANS_SWITCH_LEASE_MS) from the
 * renewal before it, whatever the venue's own timeout. Against the Kalshi fake on loopback and real
 * PostgreSQL: Kalshi holds the first cancel for 6 s while a Kalshi call alone may take 20 s
 * (KALSHI_TIMEOUT_MS); with a 2 s lease the sweeper gives that cancel up after 1 s, reports it,
 * keeps its lease (no core takes the cancellation over) and cancels the order on its next pass,
 * long before the held cancel would have been answered.
 */
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { CREATE_PATH, eventually, FED, liveCoreSettings, liveMarketId, liveSubaccount, newLiveTrader, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { CoreLog } from '../support/retryingClients';
import { startStack, type Stack } from '../support/stack';

const dana = newKalshiKey();
const HELD_MS = 6000;

let fake: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let sub: string;
const log = new CoreLog();

beforeAll(async () => {
  fake = await startKalshiFake('production', [{ userId: 'user-dana', key: dana }]);
  stack = await startStack(
    testConfig(
      await liveCoreSettings('dms_deadline', fake, { KALSHI_TIMEOUT_MS: '20000', DEAD_MANS_SWITCH_LEASE_MS: '2000', DEAD_MANS_SWITCH_SWEEP_MS: '50' }),
    ),
    'single',
    1,
    { logger: log.logger },
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'DMS deadline');
  fed = await liveMarketId(stack.core.db, FED);
  sub = await liveSubaccount(trader, 'dana', { key: dana, environment: 'production' });
}, 60_000);
afterAll(async () => {
  fake?.clearFaults();
  await stack?.close();
  await fake?.close();
});

it('a cancel the venue holds is given up at half the lease: the lease kept, the order canceled on the next pass, long before the venue would have answered', async () => {
  const placed = await placeLive(trader, { subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '1' });
  expect(placed.body).toMatchObject({ status: 'open' });
  // Kalshi holds the next cancel 6 s before it acts on it.
  fake.injectFault({ fault: { kind: 'delay', ms: HELD_MS, placeBeforeDelay: false }, method: 'DELETE', pathPrefix: `${CREATE_PATH}/`, times: 1 });
  const armed = await call<{ id: string }>(trader.base, 'PUT', '/v1/dead_mans_switch', { key: trader.live, body: { subaccount_id: sub, timeout_seconds: 1 } });
  expect(armed.status).toBe(200);
  const armedAt = Date.now();

  // Lapse (1 s) + the held cancel given up (1 s) + the next pass: well within 5 s; waiting for the
  // held cancel instead would take 1 + 6 s.
  const done = await eventually('the cancellation complete', async () => {
    const row = await stack.core.db.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.body.id } });
    return row.cancelCompletedAt ? row : undefined;
  }, 5000);
  expect(done.cancelCompletedAt!.getTime() - armedAt).toBeLessThan(1000 + HELD_MS);
  expect(done).toMatchObject({ state: 'fired', firings: 1, ordersCanceled: 1 });
  expect(fake.exchange.allOrders().filter((o) => o.clientOrderId === placed.body.id).map((o) => o.status)).toEqual(['canceled']);
  expect(log.linesStartingWith("some cancels of a dead-man's switch failed")).toHaveLength(1);
  // Its lease renewed throughout: no core took the cancellation over.
  expect(log.linesStartingWith("took up a dead-man's switch cancellation")).toEqual([]);
  // Let the held request end before the fake closes.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, armedAt + 1000 + HELD_MS - Date.now())));
}, 30_000);
