/**
 * The operator's view of a live venue (docs/operations.md), against the Kalshi fake on loopback:
 * every call through a live account is counted and timed under `venue="kalshi"`, a placement by
 * its outcome, and /readyz reports Kalshi `up` or `down` by whether it answered the core's last
 * call, without calling it and without ever making the service unready. The reconciler is off: an
 * order whose answer was lost stays `unknown`, which the backlog gauge then counts.
 */
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { CREATE_PATH, FED, liveCoreSettings, liveMarketId, liveSubaccount, newLiveTrader, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { scrape } from '../support/metrics';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey();
let production: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let subaccount: string;

beforeAll(async () => {
  production = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  stack = await startStack(testConfig(await liveCoreSettings('ops_live_venue', production, { KALSHI_TIMEOUT_MS: '1000' })));
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]);
  fed = await liveMarketId(stack.core.db, FED);
  subaccount = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await production?.close();
});

const order = () => placeLive(trader, { subaccount_id: subaccount, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' });
const kalshiView = async () => (await call(trader.base, 'GET', '/readyz')).body.checks.core.venues.kalshi as { status: string; last_call_at?: string };

it('before any call Kalshi is unknown; an accepted order counts as accepted and makes it up', async () => {
  expect(await kalshiView()).toEqual({ status: 'unknown' });
  const before = await scrape(trader.base);
  const placed = await order();
  expect(placed.status).toBe(200);
  expect(placed.body.status).toBe('open');
  const after = await scrape(trader.base);
  const accepted = { venue: 'kalshi', outcome: 'accepted' };
  expect(after.value('mk_venue_orders_total', accepted) - before.value('mk_venue_orders_total', accepted)).toBe(1);
  const places = { venue: 'kalshi', operation: 'place_order' };
  expect(after.value('mk_venue_call_duration_seconds', places) - before.value('mk_venue_call_duration_seconds', places)).toBe(1);
  const view = await kalshiView();
  expect(view.status).toBe('up');
  expect(Number.isNaN(Date.parse(view.last_call_at!))).toBe(false);
});

it('an answer lost on the way back: the order counts as unknown, Kalshi as down (the service stays ready), the backlog holds it', async () => {
  production.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: CREATE_PATH });
  const before = await scrape(trader.base);
  const placed = await order();
  expect(placed.status).toBe(200);
  expect(placed.body.status).toBe('unknown');
  const after = await scrape(trader.base);
  const unknown = { venue: 'kalshi', outcome: 'unknown' };
  expect(after.value('mk_venue_orders_total', unknown) - before.value('mk_venue_orders_total', unknown)).toBe(1);
  expect(after.value('mk_reconciler_backlog_orders', { venue: 'kalshi', status: 'unknown' })).toBe(1);

  const readiness = await call(trader.base, 'GET', '/readyz');
  expect(readiness.status).toBe(200);
  expect(readiness.body.checks.core.venues.kalshi.status).toBe('down');

  // The next answer brings it back.
  expect((await order()).body.status).toBe('open');
  expect((await kalshiView()).status).toBe('up');
});
