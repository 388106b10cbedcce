/**
 * Expiring (gtd) orders (issue 30) on the simulated venues, through the public API: a limit order
 * with expires_at rests until then, leaves the book at its time by the venue's own expiry, and ends
 * `expired` with its reserved cash released and an order.expired event; refusals place nothing.
 */
import { eventually } from '../support/kalshiLive';
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, getOrder, newTrader, placeOrder, portfolioOf, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  // The expiry sweep on: this core records its own venue's expired orders (another suite's core does not know them and leaves them).
  stack = await startStack(testConfig({ ORDER_EXPIRY_SWEEP_MS: '50' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Expiring orders');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const privateMarket = async (title: string, venue: string) =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue, fair_value: '0.5' } }), 'market');
const bookOf = async (id: string) => ok(await call<Json>(trader.base, 'GET', `/v1/markets/${id}/orderbook?depth=20`, { key: trader.secret }), 'book');
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

it.each(['sim-kalshi', 'sim-polymarket'])('on %s a gtd order rests until its expires_at, then ends expired with its cash released', async (venue) => {
  const market = await privateMarket(`Expiring on ${venue}`, venue);
  const sub = await createSubaccount(trader, `gtd ${venue}`, '1000');
  const book = await bookOf(market.id);
  const price = D(book.yes.bids[0].price).sub('0.05').toFixed();
  const expiresAt = inFuture(1500);
  const order = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '10', expires_at: expiresAt }), 'gtd order');
  expect(order).toMatchObject({ status: 'open', time_in_force: 'gtd', expires_at: expiresAt });
  expect(D((await portfolioOf(trader, sub)).reserved_cash).gte(D(price).mul(10))).toBe(true);
  const atPrice = async () => D((await bookOf(market.id)).yes.bids.find((l: Json) => D(l.price).eq(price))?.quantity ?? 0);
  const withOurs = await atPrice();
  expect(withOurs.gte(10)).toBe(true);

  const ended = await eventually('the order expired', async () => {
    const now = await getOrder(trader, order.id);
    return now.status === 'open' ? undefined : now;
  }, 30_000);
  expect(ended.status).toBe('expired');
  expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
  expect(D((await portfolioOf(trader, sub)).reserved_cash).toFixed()).toBe('0');
  // Off the book: the level holds 10 less (the market maker's own quotes there are untouched).
  expect((await atPrice()).toFixed()).toBe(withOurs.sub(10).toFixed());
  const event = await eventually('the order.expired event', async () => {
    const page = ok(await call<Json>(trader.base, 'GET', `/v1/events?types=order.expired&subaccount_id=${sub}`, { key: trader.secret }), 'events');
    return page.data.find((e: Json) => e.data.id === order.id && e.previous_status === 'open');
  });
  expect(event.data).toMatchObject({ status: 'expired', expires_at: expiresAt });
  // It can no longer be canceled: it is final.
  expect((await call<Json>(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret })).status).toBe(409);
});

it('a gtd order canceled before its time is canceled, not expired', async () => {
  const market = await privateMarket('Canceled before expiry', 'sim-kalshi');
  const sub = await createSubaccount(trader, 'gtd canceled', '1000');
  const order = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'no', action: 'buy', type: 'limit', price: '0.10', quantity: '3', expires_at: inFuture(60_000) }), 'gtd');
  const canceled = ok(await call<Json>(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret }), 'cancel');
  expect(canceled).toMatchObject({ status: 'canceled', time_in_force: 'gtd' });
});

it('expiry refusals name expires_at and place nothing', async () => {
  const market = await privateMarket('Expiry refusals', 'sim-polymarket');
  const sub = await createSubaccount(trader, 'gtd refusals', '1000');
  const base = { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', quantity: '5' };
  const refused = async (body: Json) => {
    const answer = await placeOrder(trader, body);
    expectError(answer, 400, 'invalid_request');
    return (answer.body as Json).error.param;
  };
  expect(await refused({ ...base, type: 'limit', price: '0.10', expires_at: new Date(Date.now() - 1000).toISOString() })).toBe('expires_at');
  expect(await refused({ ...base, type: 'limit', price: '0.10', time_in_force: 'ioc', expires_at: inFuture(60_000) })).toBe('expires_at');
  expect(await refused({ ...base, type: 'limit', price: '0.10', time_in_force: 'gtd' })).toBe('expires_at');
  expect(await refused({ ...base, type: 'market', expires_at: inFuture(60_000) })).toBe('expires_at');
  expect(await refused({ ...base, type: 'limit', price: '0.10', expires_at: 'tomorrow' })).toBe('expires_at');
  expect(ok(await call<Json>(trader.base, 'GET', `/v1/orders?subaccount_id=${sub}`, { key: trader.secret }), 'orders').data).toEqual([]);
});
