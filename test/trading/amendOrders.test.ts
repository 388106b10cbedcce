/**
 * Amending orders (issue 30) on the simulated venues, through the public API: PATCH /v1/orders/{id}
 * with the venue's queue rules (a size decrease keeps queue_position; a price change moves the
 * order and its reserved cash and loses it), the pre-trade checks on the new terms, refusals that
 * change nothing, a crossing amend that trades, Idempotency-Key replays, and order.amended.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, getOrder, newTrader, placed, portfolioOf, setRiskLimits, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Amending orders');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const privateMarket = async (title: string, venue = 'sim-kalshi') =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue, fair_value: '0.5' } }), 'market');
const bookOf = async (id: string) => ok(await call<Json>(trader.base, 'GET', `/v1/markets/${id}/orderbook?depth=30`, { key: trader.secret }), 'book');
const amend = (id: string, body: Json, headers: Record<string, string> = {}) => call<Json>(trader.base, 'PATCH', `/v1/orders/${id}`, { key: trader.secret, body, headers });
const bidAt = async (marketId: string, price: string) => D((await bookOf(marketId)).yes.bids.find((l: Json) => D(l.price).eq(price))?.quantity ?? 0);

it.each(['sim-kalshi', 'sim-polymarket'])('on %s a size decrease keeps the queue place; a price change moves the order, its reserved cash, and loses it', async (venue) => {
  const market = await privateMarket(`Amend on ${venue}`, venue);
  const sub = await createSubaccount(trader, `amend ${venue}`, '1000');
  const price = D((await bookOf(market.id)).yes.bids[0].price).sub('0.03').toFixed();
  const first = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '20' });
  const second = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '20' });
  const ahead = (await getOrder(trader, second.id)).queue_position!;
  const level = await bidAt(market.id, price);

  // The first order shrinks where it stands: the second keeps its place, 6 fewer ahead of it.
  const smaller = ok(await amend(first.id, { quantity: '14' }), 'size down');
  expect(smaller).toMatchObject({ id: first.id, quantity: '14', remaining_quantity: '14', status: 'open', price: D(price).toFixed() });
  expect((await getOrder(trader, first.id)).queue_position).toMatchObject({ orders_ahead: ahead.orders_ahead - 1 });
  expect((await getOrder(trader, second.id)).queue_position).toEqual({ orders_ahead: ahead.orders_ahead, quantity_ahead: D(ahead.quantity_ahead).sub(6).toFixed() });
  expect((await bidAt(market.id, price)).toFixed()).toBe(level.sub(6).toFixed());

  // The second moves one tick down: off its level, at the back of the new one; its reserved cash follows.
  const reservedBefore = D((await portfolioOf(trader, sub)).reserved_cash);
  const lower = D(price).sub('0.01').toFixed();
  const moved = ok(await amend(second.id, { price: lower }), 'price');
  expect(moved).toMatchObject({ id: second.id, price: lower, quantity: '20', status: 'open' });
  expect((await bidAt(market.id, price)).toFixed()).toBe(level.sub(26).toFixed());
  const behind = (await getOrder(trader, second.id)).queue_position!;
  expect(D(behind.quantity_ahead).eq((await bidAt(market.id, lower)).sub(20))).toBe(true);
  expect(D((await portfolioOf(trader, sub)).reserved_cash).toFixed()).toBe(reservedBefore.sub(D('0.01').mul(20)).toFixed());

  // An order.amended event carries the new terms.
  const events = ok(await call<Json>(trader.base, 'GET', `/v1/events?types=order.amended&subaccount_id=${sub}`, { key: trader.secret }), 'events').data;
  expect(events.map((e: Json) => [e.data.id, e.data.price, e.data.quantity])).toEqual(
    expect.arrayContaining([[first.id, D(price).toFixed(), '14'], [second.id, lower, '20']]),
  );
});

it('an amend whose new price crosses trades at once; a post-only one is refused and rests as it was', async () => {
  const market = await privateMarket('Crossing amend');
  const sub = await createSubaccount(trader, 'crossing amend', '1000');
  const book = await bookOf(market.id);
  const ask = book.yes.asks[0];
  const resting = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: D(ask.price).sub('0.05').toFixed(), quantity: '2' });
  const crossed = ok(await amend(resting.id, { price: ask.price }), 'crossing');
  expect(crossed).toMatchObject({ status: 'filled', filled_quantity: '2', average_fill_price: D(ask.price).toFixed() });

  const maker = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: D(ask.price).sub('0.05').toFixed(), quantity: '2', post_only: true });
  const refused = await amend(maker.id, { price: (await bookOf(market.id)).yes.asks[0].price });
  expect([refused.status, refused.body.error?.code, refused.body.error?.param]).toEqual([400, 'invalid_request', 'post_only']);
  expect(await getOrder(trader, maker.id)).toMatchObject({ status: 'open', price: D(ask.price).sub('0.05').toFixed(), quantity: '2' });
});

it('the pre-trade checks judge the new terms in place of the old; refusals change nothing', async () => {
  const market = await privateMarket('Amend risk');
  const sub = await createSubaccount(trader, 'amend risk', '1000');
  const order = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.20', quantity: '10' });
  await setRiskLimits(trader, sub, { max_order_notional: '3' });
  // 0.20 x 15 = 3: at the limit (the order's own old notional does not count twice).
  ok(await amend(order.id, { quantity: '15' }), 'within the limit');
  const over = await amend(order.id, { quantity: '16' });
  expect([over.status, over.body.error?.code, over.body.error?.limit]).toEqual([422, 'risk_limit_exceeded', 'max_order_notional']);
  expect(await getOrder(trader, order.id)).toMatchObject({ quantity: '15', price: '0.2', status: 'open' });
  // A size decrease is never refused by a limit.
  await setRiskLimits(trader, sub, { max_order_notional: '1' });
  ok(await amend(order.id, { quantity: '12' }), 'size down under a tighter limit');

  const offTick = await amend(order.id, { price: '0.205' });
  expect([offTick.status, offTick.body.error?.param]).toEqual([400, 'price']);
  expect((await amend(order.id, {})).status).toBe(400);
  const canceled = ok(await call<Json>(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret }), 'cancel');
  expect(canceled.status).toBe('canceled');
  expect((await amend(order.id, { quantity: '5' })).status).toBe(409);
  expect(await getOrder(trader, order.id)).toMatchObject({ quantity: '12', status: 'canceled' });
});

it('a quantity not above what filled is 409; with an Idempotency-Key a retry replays the answer and amends nothing again', async () => {
  const market = await privateMarket('Amend partly filled');
  const sub = await createSubaccount(trader, 'amend partial', '1000');
  const book = await bookOf(market.id);
  const ask = book.yes.asks[0];
  // Buy through the ask's whole size and rest the rest: partly filled.
  const order = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: ask.price, quantity: D(ask.quantity).add(5).toFixed() });
  expect(order.status).toBe('partially_filled');
  const notAbove = await amend(order.id, { quantity: order.filled_quantity });
  expect([notAbove.status, notAbove.body.error?.code]).toEqual([409, 'conflict']);

  const key = { 'Idempotency-Key': `amend-${order.id}` };
  const total = D(order.filled_quantity).add(2).toFixed();
  const first = ok(await amend(order.id, { quantity: total }, key), 'amend');
  expect(first).toMatchObject({ quantity: total, remaining_quantity: '2', status: 'partially_filled' });
  const again = await amend(order.id, { quantity: total }, key);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(first);
  const reused = await amend(order.id, { quantity: D(total).add(1).toFixed() }, key);
  expect([reused.status, reused.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
});

it("another workspace's order is not found", async () => {
  const market = await privateMarket('Amend isolation');
  const sub = await createSubaccount(trader, 'amend isolation', '1000');
  const order = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' });
  const other = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
  const answer = await call<Json>(other.base, 'PATCH', `/v1/orders/${order.id}`, { key: other.secret, body: { quantity: '2' } });
  expect([answer.status, answer.body.error?.code]).toEqual([404, 'not_found']);
  expect(await getOrder(trader, order.id)).toMatchObject({ quantity: '1' });
});

it('concurrent amends of one order are each answered (200, or 409 while another is under way), never 5xx; the order ends on the terms its venue has', async () => {
  const market = await privateMarket('Concurrent amends');
  const sub = await createSubaccount(trader, 'concurrent amends', '1000');
  const price = D((await bookOf(market.id)).yes.bids[0].price).sub('0.04').toFixed();
  const before = await bidAt(market.id, price);
  const order = await placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '20' });
  const answers = await Promise.all(['19', '18', '17', '16', '15'].map((quantity) => amend(order.id, { quantity })));
  expect(answers.map((a) => a.status).filter((status) => status !== 200 && status !== 409)).toEqual([]);
  expect(answers.some((a) => a.status === 200)).toBe(true);
  const final = await getOrder(trader, order.id);
  expect(final.status).toBe('open');
  expect((await bidAt(market.id, price)).sub(before).toFixed()).toBe(final.remaining_quantity);
});
