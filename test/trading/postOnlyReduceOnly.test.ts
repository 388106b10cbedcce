/**
 * Post-only and reduce-only orders (issue 30) on the simulated venues, through the public API: a
 * post-only order rests, or is refused and places nothing when it would take; a reduce-only order
 * is a sell of what is held.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, newTrader, placeOrder, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Post-only');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const privateMarket = async (title: string, venue = 'sim-kalshi') =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue, fair_value: '0.5' } }), 'market');
const bookOf = async (id: string) => ok(await call<Json>(trader.base, 'GET', `/v1/markets/${id}/orderbook?depth=1`, { key: trader.secret }), 'book');

it.each(['sim-kalshi', 'sim-polymarket'])('on %s a post-only order rests below the ask, and is refused, placing nothing, at the ask', async (venue) => {
  const market = await privateMarket(`Post-only on ${venue}`, venue);
  const sub = await createSubaccount(trader, `maker ${venue}`, '1000');
  const book = await bookOf(market.id);
  const below = D(book.yes.asks[0].price).sub(venue === 'sim-kalshi' ? '0.01' : '0.01').toFixed();
  const rests = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: below, quantity: '5', post_only: true }), 'resting post-only');
  expect(rests).toMatchObject({ status: 'open', post_only: true, reduce_only: false });

  const crossing = await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: book.yes.asks[0].price, quantity: '5', post_only: true });
  expect(crossing.status).toBe(400);
  expect((crossing.body as Json).error).toMatchObject({ code: 'invalid_request', param: 'post_only' });
  expect((crossing.body as Json).error.message).toMatch(/post.only/i);
  // Nothing was placed: the ask is untouched, no fill, the order is recorded rejected.
  expect((await bookOf(market.id)).yes.asks[0]).toEqual(book.yes.asks[0]);
  const orders = ok(await call<Json>(trader.base, 'GET', `/v1/orders?subaccount_id=${sub}`, { key: trader.secret }), 'orders').data;
  expect(orders.map((o: Json) => [o.status, o.filled_quantity]).sort()).toEqual([['open', '0'], ['rejected', '0']]);
  // A NO buy crossing through the complement is a taker too.
  const noCross = await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'no', action: 'buy', type: 'limit', price: D(1).sub(book.yes.bids[0].price).toFixed(), quantity: '5', post_only: true });
  expect(noCross.status).toBe(400);
});

it('a post-only order that could not rest, and reduce-only buys, are refused before anything is sent', async () => {
  const market = await privateMarket('Refused flags');
  const sub = await createSubaccount(trader, 'refused', '1000');
  const base = { subaccount_id: sub, market_id: market.id, side: 'yes', quantity: '5' };
  expectError(await placeOrder(trader, { ...base, action: 'buy', type: 'market', post_only: true }), 400, 'invalid_request');
  expectError(await placeOrder(trader, { ...base, action: 'buy', type: 'limit', price: '0.10', time_in_force: 'ioc', post_only: true }), 400, 'invalid_request');
  const buy = await placeOrder(trader, { ...base, action: 'buy', type: 'limit', price: '0.10', reduce_only: true });
  expect([buy.status, (buy.body as Json).error?.param]).toEqual([400, 'reduce_only']);
  expect(ok(await call<Json>(trader.base, 'GET', `/v1/orders?subaccount_id=${sub}`, { key: trader.secret }), 'orders').data).toEqual([]);
});

it('a reduce-only sell sells what is held, and no more', async () => {
  const market = await privateMarket('Reduce-only');
  const sub = await createSubaccount(trader, 'reducer', '1000');
  const book = await bookOf(market.id);
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: book.yes.asks[0].price, quantity: '6', time_in_force: 'ioc' }), 'buy 6');
  const tooMany = await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'sell', type: 'limit', price: '0.99', quantity: '7', reduce_only: true });
  expect([tooMany.status, (tooMany.body as Json).error?.code]).toEqual([422, 'insufficient_position']);
  const sells = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'sell', type: 'limit', price: '0.99', quantity: '6', reduce_only: true }), 'reduce-only sell');
  expect(sells).toMatchObject({ status: 'open', reduce_only: true });
});
