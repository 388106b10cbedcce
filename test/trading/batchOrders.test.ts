/**
 * Batch placement (issue 30) on the simulated venues, through the public API: POST /v1/orders/batch
 * places up to 20 orders in turn, each answered on its own; the pre-trade checks see the orders
 * before; one Idempotency-Key replays every answer and places nothing again.
 */
import { randomUUID } from 'node:crypto';
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, newTrader, setRiskLimits, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Batch orders');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const privateMarket = async (title: string, venue = 'sim-kalshi') =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue, fair_value: '0.5' } }), 'market');
const batch = (orders: Json[], headers: Record<string, string> = {}) => call<Json>(trader.base, 'POST', '/v1/orders/batch', { key: trader.secret, body: { orders }, headers });
const ordersOf = async (sub: string) => ok(await call<Json>(trader.base, 'GET', `/v1/orders?subaccount_id=${sub}&limit=200`, { key: trader.secret }), 'orders').data as Json[];

it('a batch of 20 with one invalid order places 19 and answers the invalid one\'s error in its place; a replay of its key places nothing', async () => {
  const [kalshi, polymarket] = await Promise.all([privateMarket('Batch A'), privateMarket('Batch B', 'sim-polymarket')]);
  const sub = await createSubaccount(trader, 'batch', '1000');
  const orders = Array.from({ length: 20 }, (_, i) => ({
    subaccount_id: sub,
    market_id: i % 2 === 0 ? kalshi.id : polymarket.id,
    side: i % 3 === 0 ? 'no' : 'yes',
    action: 'buy',
    type: 'limit',
    price: (0.05 + (i % 5) * 0.01).toFixed(2),
    quantity: '5',
  }));
  orders[13] = { ...orders[13]!, price: '0.055', market_id: kalshi.id }; // off sim-kalshi's cent tick
  const key = { 'Idempotency-Key': randomUUID() };
  const answer = ok(await batch(orders, key), 'batch');
  expect(answer.data).toHaveLength(20);
  answer.data.forEach((entry: Json, i: number) => {
    if (i === 13) {
      expect(entry).toEqual({ order: null, error: { code: 'invalid_request', message: expect.stringContaining('0.055'), param: 'price', limit: null } });
    } else {
      expect(entry.error).toBeNull();
      expect(entry.order).toMatchObject({ status: 'open', market_id: orders[i]!.market_id, side: orders[i]!.side, price: D(orders[i]!.price).toFixed() });
    }
  });
  expect(await ordersOf(sub)).toHaveLength(19);

  const replay = await batch(orders, key);
  expect(replay.status).toBe(200);
  expect(replay.body).toEqual(answer);
  expect(await ordersOf(sub)).toHaveLength(19);
  const reused = await batch(orders.slice(0, 3), key);
  expect([reused.status, reused.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
});

it('the pre-trade checks see the orders before: the second is refused by the room the first took', async () => {
  const market = await privateMarket('Batch risk');
  const sub = await createSubaccount(trader, 'batch risk', '1000');
  await setRiskLimits(trader, sub, { max_position_per_market: '10' });
  const order = { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '6' };
  const answer = ok(await batch([order, order, { ...order, quantity: '4' }]), 'batch');
  expect(answer.data.map((e: Json) => e.order?.status ?? `${e.error.code}:${e.error.limit}`)).toEqual(['open', 'risk_limit_exceeded:max_position_per_market', 'open']);
});

it('refuses an empty batch, one of 21, and a malformed order naming its place; nothing is placed', async () => {
  const market = await privateMarket('Batch refusals');
  const sub = await createSubaccount(trader, 'batch refusals', '1000');
  const order = { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' };
  for (const orders of [[], Array.from({ length: 21 }, () => order)]) {
    const refused = await batch(orders);
    expect([refused.status, refused.body.error?.code, refused.body.error?.param]).toEqual([400, 'invalid_request', 'orders']);
  }
  const malformed = await batch([order, { ...order, time_in_force: 'forever' }]);
  expect([malformed.status, malformed.body.error?.param]).toEqual([400, 'orders.1.time_in_force']);
  const postOnly = ok(await batch([{ ...order, type: 'market', post_only: true }]), 'item refusal');
  expect(postOnly.data[0].error).toMatchObject({ code: 'invalid_request', param: 'post_only' });
  expect(await ordersOf(sub)).toEqual([]);
});
