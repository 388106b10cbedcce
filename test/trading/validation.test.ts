/**
 * Order input validation on both simulated venues: every bad price or quantity answers 400
 * invalid_request naming the field, before anything is written (no order, no stored
 * Idempotency-Key). Then the other refusals of POST /v1/orders: missing price, a market order
 * that would rest, unknown markets, other workspaces' subaccounts, and test/live separation.
 *
 * Markets used only by this file: TEMP-RECORD-YR on both venues (tick 0.01), pm-hurricane-cat5
 * (tick 0.001); valid orders rest far below the bids.
 */
import { testConfig } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import {
  countsOf,
  createSubaccount,
  expectError,
  HIGH_RATE_LIMIT,
  marketOf,
  newTrader,
  placed,
  placeOrder,
  type Market,
  type OrderBody,
  type Trader,
} from './helpers';

let stack: Stack;
let trader: Trader;
let subaccount: string;
const markets: Record<'kalshi' | 'polymarket', Market> = {} as Record<'kalshi' | 'polymarket', Market>;
let pmFineTick: Market;

beforeAll(async () => {
  stack = await startStack(testConfig());
  const db = stack.core.db;
  trader = await newTrader(db, stack.gateways[0], 'Validation');
  subaccount = await createSubaccount(trader, 'validation');
  markets.kalshi = await marketOf(db, 'sim_kalshi', 'TEMP-RECORD-YR');
  markets.polymarket = await marketOf(db, 'sim_polymarket', 'pm-temp-record-yr');
  pmFineTick = await marketOf(db, 'sim_polymarket', 'pm-hurricane-cat5');
});
afterAll(() => stack.close());

const VALID = { price: '0.30', quantity: '10' };

const order = (market: Market, fields: Record<string, unknown>): Record<string, unknown> => ({
  subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', ...VALID, ...fields,
});

type Case = [description: string, fields: Record<string, unknown>, param: 'price' | 'quantity'];

const BOTH_VENUES: Case[] = [
  ['a negative quantity', { quantity: '-5' }, 'quantity'],
  ['a zero quantity', { quantity: '0' }, 'quantity'],
  ['a huge quantity "999999999999"', { quantity: '999999999999' }, 'quantity'],
  ['an exponent quantity "1e30"', { quantity: '1e30' }, 'quantity'],
  ['a non-numeric quantity', { quantity: 'abc' }, 'quantity'],
  ['a JSON number quantity', { quantity: 10 }, 'quantity'],
  ['an empty quantity', { quantity: '' }, 'quantity'],
  ['a missing quantity', { quantity: undefined }, 'quantity'],
  ['a negative price', { price: '-0.30' }, 'price'],
  ['a zero price', { price: '0' }, 'price'],
  ['a price of 1', { price: '1' }, 'price'],
  ['a price of 1.5', { price: '1.5' }, 'price'],
  ['an off-tick price 0.435', { price: '0.435' }, 'price'],
  ['a price with binary error "0.30000000000000004"', { price: '0.30000000000000004' }, 'price'],
  ['a huge price "999999999999"', { price: '999999999999' }, 'price'],
  ['an exponent price "1e30"', { price: '1e30' }, 'price'],
  ['a non-numeric price', { price: 'abc' }, 'price'],
  ['a JSON number price 0.5', { price: 0.5 }, 'price'],
];

const CASES: [venue: 'kalshi' | 'polymarket', ...Case][] = [
  ...BOTH_VENUES.map((c) => ['kalshi', ...c] as ['kalshi', ...Case]),
  ...BOTH_VENUES.map((c) => ['polymarket', ...c] as ['polymarket', ...Case]),
  ['kalshi', 'a fractional Kalshi quantity "1.5"', { quantity: '1.5' }, 'quantity'],
  ['polymarket', 'a quantity below the Polymarket minimum size (4.99 < 5)', { quantity: '4.99' }, 'quantity'],
  ['polymarket', 'a quantity finer than 0.01 share', { quantity: '10.005' }, 'quantity'],
  ['kalshi', 'a market order whose worst price is off tick', { type: 'market', price: '0.435' }, 'price'],
  ['polymarket', 'a market order whose worst price is 1', { type: 'market', price: '1' }, 'price'],
];

describe('bad prices and quantities answer 400 invalid_request with the param, and write nothing', () => {
  let sequence = 0;
  it.each(CASES)('sim-%s: %s', async (venue, _description, fields, param) => {
    const key = `validation-${process.pid}-${Date.now()}-${(sequence += 1)}`;
    const before = await countsOf(stack.core.db, subaccount);
    const response = await placeOrder(trader, order(markets[venue], fields), { 'Idempotency-Key': key });
    expectError(response, 400, 'invalid_request', { param });
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
    expect(await stack.core.db.idempotencyRecord.count({ where: { apiKeyId: trader.keyId, key } })).toBe(0);
  });

  it('sim-polymarket on a 0.001 tick: 0.0805 is off tick, 0.005 is fine', async () => {
    const bad = await placeOrder(trader, order(pmFineTick, { price: '0.0805', quantity: '10' }));
    expectError(bad, 400, 'invalid_request', { param: 'price' });
    const good = await placed(trader, order(pmFineTick, { price: '0.005', quantity: '10' }) as unknown as OrderBody);
    expect(good).toMatchObject({ status: 'open', price: '0.005' });
  });

  it('the valid order of the table is accepted on both venues (the table fails for the reason it names)', async () => {
    for (const venue of ['kalshi', 'polymarket'] as const) {
      const response = await placeOrder(trader, order(markets[venue], {}));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'open', price: '0.3', quantity: '10' });
    }
  });
});

describe('other refusals of POST /v1/orders', () => {
  it('a limit order without a price: 400 param price', async () => {
    const before = await countsOf(stack.core.db, subaccount);
    expectError(await placeOrder(trader, order(markets.kalshi, { price: undefined })), 400, 'invalid_request', { param: 'price' });
    expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
  });

  it('a market order with time_in_force gtc: 400 param time_in_force', async () => {
    const before = await countsOf(stack.core.db, subaccount);
    const response = await placeOrder(trader, order(markets.kalshi, { type: 'market', price: undefined, time_in_force: 'gtc' }));
    expectError(response, 400, 'invalid_request', { param: 'time_in_force' });
    expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
  });

  it('an unknown side, action, type or field: 400 with the param', async () => {
    expectError(await placeOrder(trader, order(markets.kalshi, { side: 'maybe' })), 400, 'invalid_request', { param: 'side' });
    expectError(await placeOrder(trader, order(markets.kalshi, { action: 'hold' })), 400, 'invalid_request', { param: 'action' });
    expectError(await placeOrder(trader, order(markets.kalshi, { type: 'stop' })), 400, 'invalid_request', { param: 'type' });
    expectError(await placeOrder(trader, order(markets.kalshi, { stop_price: '0.5' })), 400, 'invalid_request', { param: 'stop_price' });
  });

  it('a malformed client_order_id or Idempotency-Key: 400 with the param, nothing written', async () => {
    const before = await countsOf(stack.core.db, subaccount);
    expectError(await placeOrder(trader, order(markets.kalshi, { client_order_id: 'not valid!' })), 400, 'invalid_request', { param: 'client_order_id' });
    expectError(await placeOrder(trader, order(markets.kalshi, { client_order_id: 'x'.repeat(65) })), 400, 'invalid_request', { param: 'client_order_id' });
    expectError(await placeOrder(trader, order(markets.kalshi, {}), { 'Idempotency-Key': 'has a space' }), 400, 'invalid_request', { param: 'Idempotency-Key' });
    expectError(await placeOrder(trader, order(markets.kalshi, {}), { 'Idempotency-Key': 'k'.repeat(256) }), 400, 'invalid_request', { param: 'Idempotency-Key' });
    // Sent but empty or blank: refused, never taken for "no key" (the retry would place a second order).
    expectError(await placeOrder(trader, order(markets.kalshi, {}), { 'Idempotency-Key': '' }), 400, 'invalid_request', { param: 'Idempotency-Key' });
    expectError(await placeOrder(trader, order(markets.kalshi, {}), { 'Idempotency-Key': '   ' }), 400, 'invalid_request', { param: 'Idempotency-Key' });
    expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
  });

  it('an unknown market: 404 not_found', async () => {
    const response = await placeOrder(trader, { ...order(markets.kalshi, {}), market_id: 'mkt_00000000000000000000000000' });
    expectError(response, 404, 'not_found');
  });

  it('another workspace’s subaccount: 404 not_found, and nothing is written to it', async () => {
    const other = await newTrader(stack.core.db, stack.gateways[0], 'Validation other');
    const theirs = await createSubaccount(other, 'theirs');
    const response = await placeOrder(trader, { ...order(markets.kalshi, {}), subaccount_id: theirs });
    expectError(response, 404, 'not_found');
    expect(await countsOf(stack.core.db, theirs)).toEqual({ orders: 0, fills: 0, receipts: 0 });
  });

  it('another workspace’s order: 404 to GET and DELETE, absent from lists, and it stays open', async () => {
    const mine = await placed(trader, order(markets.kalshi, {}) as unknown as OrderBody);
    const other = await newTrader(stack.core.db, stack.gateways[0], 'Validation snooper');
    expectError(await call(other.base, 'GET', `/v1/orders/${mine.id}`, { key: other.secret }), 404, 'not_found');
    expectError(await call(other.base, 'DELETE', `/v1/orders/${mine.id}`, { key: other.secret }), 404, 'not_found');
    // Filtering by its ids is refused as reading them is: 404 naming the filter.
    expectError(await call(other.base, 'GET', `/v1/orders?subaccount_id=${subaccount}`, { key: other.secret }), 404, 'not_found', { param: 'subaccount_id' });
    expectError(await call(other.base, 'GET', `/v1/fills?order_id=${mine.id}`, { key: other.secret }), 404, 'not_found', { param: 'order_id' });
    expectError(await call(other.base, 'GET', `/v1/receipts?order_id=${mine.id}`, { key: other.secret }), 404, 'not_found', { param: 'order_id' });
    expect(JSON.stringify((await call(other.base, 'GET', '/v1/orders', { key: other.secret })).body)).not.toContain(mine.id);
    expect(await call(trader.base, 'GET', `/v1/orders/${mine.id}`, { key: trader.secret })).toMatchObject({ status: 200, body: { status: 'open' } });
  });
});

describe('test and live data are separate', () => {
  it('a live key cannot trade on a test market or with a test subaccount (404), and sees no test orders', async () => {
    const { workspace, secret: testSecret } = await buildWorkspace(stack.core.db, { rateLimit: HIGH_RATE_LIMIT, name: 'Live and test' });
    const { secret: liveSecret } = await buildApiKey(stack.core.db, workspace.id, 'live', HIGH_RATE_LIMIT);
    const testTrader: Trader = { ...trader, secret: testSecret, workspaceId: workspace.id };
    const liveTrader: Trader = { ...trader, secret: liveSecret, workspaceId: workspace.id };
    const testSubaccount = await createSubaccount(testTrader, 'test side');
    const liveSubaccount = await createSubaccount(liveTrader, 'live side');

    const testOrder = await placed(testTrader, { ...(order(markets.kalshi, {}) as unknown as OrderBody), subaccount_id: testSubaccount });
    expect(testOrder.status).toBe('open');

    // A test market does not exist for a live key.
    expectError(await placeOrder(liveTrader, { ...order(markets.kalshi, {}), subaccount_id: liveSubaccount }), 404, 'not_found');
    // Nor does a test subaccount.
    expectError(await placeOrder(liveTrader, { ...order(markets.kalshi, {}), subaccount_id: testSubaccount }), 404, 'not_found');
    expect(await countsOf(stack.core.db, liveSubaccount)).toEqual({ orders: 0, fills: 0, receipts: 0 });

    const liveOrders = await call(stack.gateways[0], 'GET', '/v1/orders', { key: liveSecret });
    expect(liveOrders.status).toBe(200);
    expect(liveOrders.body.data).toEqual([]);
    expectError(await call(stack.gateways[0], 'GET', `/v1/orders/${testOrder.id}`, { key: liveSecret }), 404, 'not_found');
    expectError(await call(stack.gateways[0], 'DELETE', `/v1/orders/${testOrder.id}`, { key: liveSecret }), 404, 'not_found');
    expect((await call(stack.gateways[0], 'GET', '/v1/fills', { key: liveSecret })).body.data).toEqual([]);

    // The test key still sees its order, still open.
    const testOrders = await call(stack.gateways[0], 'GET', '/v1/orders', { key: testSecret });
    expect(testOrders.body.data.map((o: { id: string }) => o.id)).toEqual([testOrder.id]);
  });
});

describe('decimals that numeric(24,6) cannot store exactly are refused, never rounded (400 naming the param, not a 500)', () => {
  const TOO_FINE = '999999999999999999.9999999'; // would round up past the largest storable value
  const SEVEN_PLACES = '12.0000001';

  it.each([
    ['max_order_notional', TOO_FINE],
    ['max_gross_exposure', SEVEN_PLACES],
    ['max_daily_realized_loss', '0.0000001'],
    ['max_position_per_market', TOO_FINE],
  ])('PUT /v1/risk_limits: %s %j', async (param, value) => {
    const response = await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, { key: trader.secret, body: { [param]: value } });
    const error = expectError(response, 400, 'invalid_request', { param });
    expect(error.message).toContain('6 decimal places');
  });

  it.each([[TOO_FINE], [SEVEN_PLACES]])('POST /v1/subaccounts: starting_balance %j', async (value) => {
    const response = await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.secret, body: { name: 'too fine', starting_balance: value } });
    expectError(response, 400, 'invalid_request', { param: 'starting_balance' });
  });

  it.each([
    ['quantity', { quantity: TOO_FINE }],
    ['price', { price: '0.3000001' }],
  ])('POST /v1/orders: %s', async (param, fields) => {
    const before = await countsOf(stack.core.db, subaccount);
    const response = await placeOrder(trader, order(markets.polymarket, fields));
    expectError(response, 400, 'invalid_request', { param });
    expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
  });

  it('the largest storable amount, and extra places that are only trailing zeros, are accepted and read back exactly', async () => {
    const largest = '999999999999999999.999999';
    const put = await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, {
      key: trader.secret, body: { max_gross_exposure: largest, max_daily_realized_loss: '12.50000000' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ max_gross_exposure: largest, max_daily_realized_loss: '12.5' });
    const response = await placeOrder(trader, order(markets.polymarket, { price: '0.300000000', quantity: '10.000000' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'open', price: '0.3', quantity: '10' });
    await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, { key: trader.secret, body: { max_gross_exposure: null, max_daily_realized_loss: null } });
  });
});
