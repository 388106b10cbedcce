/**
 * A market's order book through the public API (issue 29's first piece): read from its venue now,
 * both outcomes' views of one book. On the simulated venues, a resting order shows in the book with
 * its size added at its level, and the NO view is the YES view at the complement.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, marketOf, newTrader, placeOrder, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let stranger: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Order books');
  stranger = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
});
afterAll(async () => {
  await stack?.close();
});

type Level = { price: string; quantity: string };
const book = (marketId: string, query = '', key = trader.secret) => call<Record<string, any>>(trader.base, 'GET', `/v1/markets/${marketId}/orderbook${query}`, { key });
const at = (levels: Level[], price: string) => levels.find((level) => D(level.price).eq(price))?.quantity ?? '0';
const complement = (levels: Level[]) => levels.map((level) => ({ price: D(1).sub(level.price).toFixed(), quantity: level.quantity }));

it('a resting buy adds its size at its level of the YES bids, and of the NO asks at the complement; both views are one book', async () => {
  const market = await marketOf(stack.core.db, 'sim_kalshi', 'SHUTDOWN-Q');
  const before = ok(await book(market.id, '?depth=20'), 'book before');
  expect(before).toMatchObject({ market_id: market.id, venue: 'sim-kalshi', venue_market_id: 'SHUTDOWN-Q' });
  expect(before.yes.bids.length).toBeGreaterThan(0);
  expect(Date.parse(before.as_of)).not.toBeNaN();
  // Best first on every side.
  const prices = (levels: Level[]) => levels.map((level) => Number(level.price));
  expect(prices(before.yes.bids)).toEqual([...prices(before.yes.bids)].sort((a, b) => b - a));
  expect(prices(before.yes.asks)).toEqual([...prices(before.yes.asks)].sort((a, b) => a - b));

  const price = before.yes.bids[1]?.price ?? before.yes.bids[0].price;
  const sub = await createSubaccount(trader, 'book reader', '1000');
  const resting = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '7' }), 'resting');
  expect(resting.status).toBe('open');

  const after = ok(await book(market.id, '?depth=20'), 'book after');
  expect(at(after.yes.bids, price)).toBe(D(at(before.yes.bids, price)).add(7).toFixed());
  const noPrice = D(1).sub(price).toFixed();
  expect(at(after.no.asks, noPrice)).toBe(at(after.yes.bids, price));
  // The NO view is the YES view at the complement, side for side.
  expect(after.no.bids).toEqual(complement(after.yes.asks));
  expect(after.no.asks).toEqual(complement(after.yes.bids));
  expect(D(after.mid).eq(D(after.yes.bids[0].price).add(after.yes.asks[0].price).div(2))).toBe(true);
});

it('depth bounds the levels a side; a bad depth, an unknown market and another workspace’s market are refused', async () => {
  const market = await marketOf(stack.core.db, 'sim_polymarket', 'pm-fed-cut-dec');
  const one = ok(await book(market.id, '?depth=1'), 'depth 1');
  expect([one.yes.bids.length, one.yes.asks.length, one.no.bids.length, one.no.asks.length]).toEqual([1, 1, 1, 1]);
  const deflt = ok(await book(market.id), 'default depth');
  expect(deflt.yes.bids.length).toBeLessThanOrEqual(10);
  for (const query of ['?depth=0', '?depth=101', '?depth=abc', '?depth=2&depth=3', '?deep=2']) {
    expectError(await book(market.id, query), 400, 'invalid_request');
  }
  expectError(await book('mkt_unknown'), 404, 'not_found');
  const own = ok(await call<Record<string, any>>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title: 'Private book', venue: 'sim-kalshi', fair_value: '0.4' } }), 'private market');
  expect(ok(await book(own.id), 'own private book').yes.bids.length).toBeGreaterThan(0);
  expectError(await book(own.id, '', stranger.secret), 404, 'not_found');
});
