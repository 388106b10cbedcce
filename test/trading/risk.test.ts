/**
 * Pre-trade risk through the REST API: every limit of PUT /v1/risk_limits/{subaccount_id}, set
 * low, rejects the order that breaks it with 422 risk_limit_exceeded naming the limit; the
 * workspace kill switch; insufficient funds and position. A rejected order leaves no order, no
 * fill and no receipt. Concurrent orders cannot pass a limit together. The risk statistics report
 * each limit's use as the check measures it.
 *
 * Markets used only by this file: sim-kalshi SENATE-CTRL (resting buys far below the bids) and
 * SHUTDOWN-Q (buy at the ask, sell at the bid).
 */
import { call } from '../support/http';
import { BACKENDS } from '../support/backends';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import {
  bestPrices,
  countsOf,
  createSubaccount,
  D,
  expectError,
  feesOf,
  fillsOf,
  marketOf,
  newTrader,
  placed,
  placeOrder,
  portfolioOf,
  setRiskLimits,
  sum,
  type Market,
  type OrderBody,
  type Trader,
} from './helpers';

let stack: Stack;
let trader: Trader;
let senate: Market;
let shutdown: Market;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0], 'Risk');
  [senate, shutdown] = await Promise.all([marketOf(stack.core.db, 'sim_kalshi', 'SENATE-CTRL'), marketOf(stack.core.db, 'sim_kalshi', 'SHUTDOWN-Q')]);
});
afterAll(() => stack.close());

/** A limit buy far below the market maker's bids (0.56 and down): it rests. */
const restingBuy = (subaccount: string, quantity = '10', price = '0.30'): OrderBody => ({
  subaccount_id: subaccount, market_id: senate.id, side: 'yes', action: 'buy', type: 'limit', price, quantity,
});

/** Places `body`, expects the rejection, and checks that nothing was written for the subaccount. */
async function expectRejected(subaccount: string, body: OrderBody, status: number, code: string, limit?: string, who = trader) {
  const before = await countsOf(stack.core.db, subaccount);
  const response = await placeOrder(who, body);
  const error = expectError(response, status, code, limit ? { limit } : {});
  expect(await countsOf(stack.core.db, subaccount)).toEqual(before);
  return error;
}

describe('each risk limit rejects the order that breaks it, and only that one', () => {
  it('max_order_notional', async () => {
    const subaccount = await createSubaccount(trader, 'notional');
    await setRiskLimits(trader, subaccount, { max_order_notional: '3' });
    const error = await expectRejected(subaccount, restingBuy(subaccount, '11'), 422, 'risk_limit_exceeded', 'max_order_notional');
    expect(error.message).toMatch(/max_order_notional/);
    // A market buy is valued at the worst price, 1: 4 contracts may cost 4 > 3.
    await expectRejected(subaccount, { ...restingBuy(subaccount, '4'), type: 'market', price: undefined }, 422, 'risk_limit_exceeded', 'max_order_notional');
    expect((await placed(trader, restingBuy(subaccount, '10'))).status).toBe('open'); // 3.00 is at the limit
  });

  it('max_position_per_market (open buys count)', async () => {
    const subaccount = await createSubaccount(trader, 'position');
    await setRiskLimits(trader, subaccount, { max_position_per_market: '10' });
    await expectRejected(subaccount, restingBuy(subaccount, '11'), 422, 'risk_limit_exceeded', 'max_position_per_market');
    expect((await placed(trader, restingBuy(subaccount, '6'))).status).toBe('open');
    await expectRejected(subaccount, restingBuy(subaccount, '5'), 422, 'risk_limit_exceeded', 'max_position_per_market');
    expect((await placed(trader, restingBuy(subaccount, '4'))).status).toBe('open');
  });

  it('max_gross_exposure (positions at cost plus open buys)', async () => {
    const subaccount = await createSubaccount(trader, 'gross');
    await setRiskLimits(trader, subaccount, { max_gross_exposure: '3' });
    expect((await placed(trader, restingBuy(subaccount, '10'))).status).toBe('open'); // 3.00
    await expectRejected(subaccount, restingBuy(subaccount, '1'), 422, 'risk_limit_exceeded', 'max_gross_exposure');
  });

  it('max_open_orders', async () => {
    const subaccount = await createSubaccount(trader, 'open orders');
    await setRiskLimits(trader, subaccount, { max_open_orders: 2 });
    const first = await placed(trader, restingBuy(subaccount, '1'));
    await placed(trader, restingBuy(subaccount, '1'));
    await expectRejected(subaccount, restingBuy(subaccount, '1'), 422, 'risk_limit_exceeded', 'max_open_orders');
    // Canceling one frees a slot.
    expect((await call(trader.base, 'DELETE', `/v1/orders/${first.id}`, { key: trader.secret })).status).toBe(200);
    expect((await placed(trader, restingBuy(subaccount, '1'))).status).toBe('open');
  });

  it('max_orders_per_minute', async () => {
    const subaccount = await createSubaccount(trader, 'per minute');
    await setRiskLimits(trader, subaccount, { max_orders_per_minute: 2 });
    const first = await placed(trader, restingBuy(subaccount, '1'));
    await call(trader.base, 'DELETE', `/v1/orders/${first.id}`, { key: trader.secret }); // canceled orders still count
    await placed(trader, restingBuy(subaccount, '1'));
    await expectRejected(subaccount, restingBuy(subaccount, '1'), 422, 'risk_limit_exceeded', 'max_orders_per_minute');
  });

  it('max_daily_realized_loss, once a loss is realized (bought at the ask, sold at the bid)', async () => {
    const subaccount = await createSubaccount(trader, 'daily loss');
    const buy = await placed(trader, { subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'buy', type: 'market', quantity: '20' });
    const sell = await placed(trader, { subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'sell', type: 'market', quantity: '20' });
    const buyFills = await fillsOf(trader, buy.id);
    const sellFills = await fillsOf(trader, sell.id);
    expect(sum(buyFills.map((f) => f.quantity)).toFixed()).toBe('20');
    expect(sum(sellFills.map((f) => f.quantity)).toFixed()).toBe('20');
    const bought = sum(buyFills.map((f) => D(f.price).mul(f.quantity)));
    const sold = sum(sellFills.map((f) => D(f.price).mul(f.quantity)));
    const realized = sold.sub(bought).sub(feesOf(buyFills)).sub(feesOf(sellFills));
    expect(realized.isNegative()).toBe(true);
    const balance = await portfolioOf(trader, subaccount);
    expect(D(balance.realized_pnl_today).eq(realized)).toBe(true);

    const loss = realized.neg();
    await setRiskLimits(trader, subaccount, { max_daily_realized_loss: loss.add('1').toFixed() });
    expect((await placed(trader, restingBuy(subaccount, '1'))).status).toBe('open'); // under the limit: allowed
    await setRiskLimits(trader, subaccount, { max_daily_realized_loss: loss.sub('0.01').toFixed() });
    await expectRejected(subaccount, restingBuy(subaccount, '1'), 422, 'risk_limit_exceeded', 'max_daily_realized_loss');
  });
});

describe('filled orders free what they held', () => {
  it('a filled marketable order is no longer open: with max_open_orders = 1, five in a row are accepted and nothing stays reserved', async () => {
    const subaccount = await createSubaccount(trader, 'one at a time');
    await setRiskLimits(trader, subaccount, { max_open_orders: 1 });
    for (let i = 0; i < 5; i += 1) {
      const response = await placeOrder(trader, { subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'buy', type: 'market', quantity: '1' });
      expect({ attempt: i, status: response.status, body: response.body }).toMatchObject({ attempt: i, status: 200 });
    }
    const working = await call(trader.base, 'GET', `/v1/orders?subaccount_id=${subaccount}&status=working`, { key: trader.secret });
    expect(working.body.data).toEqual([]);
    const balance = await portfolioOf(trader, subaccount);
    expect(balance.reserved_cash).toBe('0');
  });
});

describe('the workspace kill switch', () => {
  it('rejects every order with limit kill_switch while on; turning it off allows orders again', async () => {
    const own = await newTrader(stack.core.db, stack.gateways[0], 'Kill switch');
    const subaccount = await createSubaccount(own, 'halted');
    const on = await call(own.base, 'PUT', '/v1/risk/kill_switch', { key: own.secret, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ trading_halted: true });

    await expectRejected(subaccount, restingBuy(subaccount, '1'), 422, 'risk_limit_exceeded', 'kill_switch', own);
    await expectRejected(
      subaccount, { subaccount_id: subaccount, market_id: shutdown.id, side: 'no', action: 'buy', type: 'market', quantity: '1' },
      422, 'risk_limit_exceeded', 'kill_switch', own,
    );

    // Other workspaces keep trading.
    const elsewhere = await createSubaccount(trader, 'not halted');
    expect((await placed(trader, restingBuy(elsewhere, '1'))).status).toBe('open');

    const off = await call(own.base, 'PUT', '/v1/risk/kill_switch', { key: own.secret, body: { enabled: false } });
    expect(off.body).toMatchObject({ trading_halted: false });
    expect((await placed(own, restingBuy(subaccount, '1'))).status).toBe('open');
  });
});

describe('funds and positions', () => {
  it('insufficient_funds for a test subaccount with a small starting balance (open buys reserve cash)', async () => {
    const subaccount = await createSubaccount(trader, 'small', '5');
    await expectRejected(subaccount, restingBuy(subaccount, '20'), 422, 'insufficient_funds'); // 6.00 > 5
    expect((await placed(trader, restingBuy(subaccount, '10'))).status).toBe('open'); // 3.00
    await expectRejected(subaccount, restingBuy(subaccount, '7'), 422, 'insufficient_funds'); // 2.10 > 2.00 left
    expect((await portfolioOf(trader, subaccount)).available_cash).toBe('2');
  });

  it('the fee counts: a taker buy whose notional takes all the cash is insufficient_funds, never negative cash', async () => {
    const { ask, askQuantity } = await bestPrices(stack, shutdown);
    expect(askQuantity.gte(10)).toBe(true);
    // Exactly the notional of 10 contracts at the ask; the Kalshi taker fee on top cannot be paid.
    const subaccount = await createSubaccount(trader, 'exact cash', ask.mul(10).toFixed());
    const buy: OrderBody = {
      subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'buy', type: 'limit', price: ask.toFixed(2), quantity: '10', time_in_force: 'ioc',
    };
    const response = await placeOrder(trader, buy);
    const balance = await portfolioOf(trader, subaccount);
    expect(D(balance.cash_balance).isNegative() ? `cash went negative: ${balance.cash_balance}` : 'cash >= 0').toBe('cash >= 0');
    expectError(response, 422, 'insufficient_funds');
    expect(await countsOf(stack.core.db, subaccount)).toEqual({ orders: 0, fills: 0, receipts: 0 });
    expect(D(balance.cash_balance).eq(ask.mul(10))).toBe(true);
  });

  it('insufficient_position when selling more than held (and not already offered)', async () => {
    const subaccount = await createSubaccount(trader, 'seller');
    const sellAt = (quantity: string, price = '0.95'): OrderBody => ({
      subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'sell', type: 'limit', price, quantity,
    });
    await expectRejected(subaccount, sellAt('1'), 422, 'insufficient_position');
    const buy = await placed(trader, { subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'buy', type: 'market', quantity: '3' });
    expect(sum((await fillsOf(trader, buy.id)).map((f) => f.quantity)).toFixed()).toBe('3');
    await expectRejected(subaccount, sellAt('4'), 422, 'insufficient_position');
    // NO contracts are not YES contracts.
    await expectRejected(subaccount, { ...sellAt('1'), side: 'no', price: '0.90' }, 422, 'insufficient_position');
    expect((await placed(trader, sellAt('2'))).status).toBe('open');
    await expectRejected(subaccount, sellAt('2'), 422, 'insufficient_position'); // 1 left not already offered
  });
});

/** On each database the service runs on: the embedded PGlite runs every connection on one session. */
describe.each(BACKENDS)('concurrency on %s', (_database, configOf) => {
  let own: Stack;
  let buyer: Trader;
  let market: Market;
  beforeAll(async () => {
    own = await startStack(configOf());
    buyer = await newTrader(own.core.db, own.gateways[0], 'Risk concurrency');
    market = await marketOf(own.core.db, 'sim_kalshi', 'SENATE-CTRL');
  }, 60_000);
  afterAll(() => own.close());
  const buy = (subaccount: string, quantity: string): OrderBody => ({ ...restingBuy(subaccount, quantity), market_id: market.id });

  it('with max_open_orders = 3, 10 concurrent resting orders: exactly 3 accepted', async () => {
    const subaccount = await createSubaccount(buyer, 'concurrent');
    await setRiskLimits(buyer, subaccount, { max_open_orders: 3 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => placeOrder(buyer, buy(subaccount, '1'))));
    const accepted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(3);
    for (const r of accepted) expect(r.body.status).toBe('open');
    for (const r of refused) expectError(r, 422, 'risk_limit_exceeded', { limit: 'max_open_orders' });
    expect(await countsOf(own.core.db, subaccount)).toEqual({ orders: 3, fills: 0, receipts: 0 });
  });

  it('concurrent buys cannot together spend more than the cash', async () => {
    const subaccount = await createSubaccount(buyer, 'concurrent cash', '10');
    const responses = await Promise.all(Array.from({ length: 10 }, () => placeOrder(buyer, buy(subaccount, '10')))); // 3.00 each
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of responses.filter((x) => x.status !== 200)) expectError(r, 422, 'insufficient_funds');
    expect(D((await portfolioOf(buyer, subaccount)).available_cash).eq('1')).toBe(true);
  });
});

interface LimitUse {
  limit: string;
  value: string | null;
  current: string;
  utilisation: string | null;
}

async function limitUseOf(subaccount: string): Promise<Map<string, LimitUse>> {
  const response = await call<{ limits: { subaccount_id: string; limits: LimitUse[] }[] }>(trader.base, 'GET', `/v1/risk/stats?subaccount_id=${subaccount}`, { key: trader.secret });
  expect(response.status).toBe(200);
  expect(response.body.limits.map((l) => l.subaccount_id)).toEqual([subaccount]);
  return new Map(response.body.limits[0].limits.map((use) => [use.limit, use]));
}

describe('limit use in the risk statistics', () => {
  it('gives every limit its current figure and utilisation, measured as the pre-trade check measures it', async () => {
    const subaccount = await createSubaccount(trader, 'Limit use', '10000');
    await setRiskLimits(trader, subaccount, {
      max_order_notional: '50', max_position_per_market: '120', max_gross_exposure: '100',
      max_daily_realized_loss: '10', max_open_orders: 8, max_orders_per_minute: 6,
    });
    const bought = await placed(trader, { subaccount_id: subaccount, market_id: shutdown.id, side: 'yes', action: 'buy', type: 'market', quantity: '10' });
    expect(bought.status).toBe('filled');
    const fees = feesOf(await fillsOf(trader, bought.id));
    const cost = D(bought.average_fill_price!).mul(10);
    await placed(trader, restingBuy(subaccount, '10', '0.30')); // notional 3
    await placed(trader, restingBuy(subaccount, '20', '0.25')); // notional 5

    const use = await limitUseOf(subaccount);
    const figures = (limit: string) => {
      const row = use.get(limit)!;
      return { value: row.value, current: D(row.current).toFixed(), utilisation: row.utilisation === null ? null : D(row.utilisation).toFixed() };
    };
    // The largest working order: 20 x 0.25.
    expect(figures('max_order_notional')).toEqual({ value: '50', current: '5', utilisation: '0.1' });
    // SENATE-CTRL yes: nothing held, 10 + 20 wanted by the open buys (SHUTDOWN-Q holds only 10).
    expect(figures('max_position_per_market')).toEqual({ value: '120', current: '30', utilisation: '0.25' });
    // Positions at cost plus the open buys' notional (3 + 5).
    const gross = cost.add(8);
    expect(figures('max_gross_exposure')).toEqual({ value: '100', current: gross.toFixed(), utilisation: gross.div(100).toDecimalPlaces(4).toFixed() });
    // Buying realizes nothing but the fees.
    expect(figures('max_daily_realized_loss')).toEqual({ value: '10', current: fees.toFixed(), utilisation: fees.div(10).toDecimalPlaces(4).toFixed() });
    expect(figures('max_open_orders')).toEqual({ value: '8', current: '2', utilisation: '0.25' });
    expect(figures('max_orders_per_minute')).toEqual({ value: '6', current: '3', utilisation: '0.5' });

    // The pre-trade check counts the same gross exposure: up to the limit passes, beyond is refused.
    await setRiskLimits(trader, subaccount, { max_gross_exposure: gross.add('0.30').toFixed() });
    await placed(trader, restingBuy(subaccount, '1', '0.30'));
    const refused = await placeOrder(trader, restingBuy(subaccount, '1', '0.01'));
    const error = expectError(refused, 422, 'risk_limit_exceeded', { limit: 'max_gross_exposure' });
    expect(error.message).toContain(`Gross exposure would reach ${gross.add('0.31').toFixed()}`);
    const after = await limitUseOf(subaccount);
    expect(D(after.get('max_gross_exposure')!.current).eq(gross.add('0.30'))).toBe(true);
    expect(after.get('max_gross_exposure')!.utilisation).not.toBeNull();
    expect(D(after.get('max_gross_exposure')!.utilisation!).eq(1)).toBe(true);
  });

  it('has no utilisation where there is no limit, or a limit of zero', async () => {
    const subaccount = await createSubaccount(trader, 'No limits', '100');
    await setRiskLimits(trader, subaccount, {
      max_order_notional: null, max_position_per_market: '0', max_gross_exposure: null,
      max_daily_realized_loss: null, max_open_orders: null, max_orders_per_minute: null,
    });
    const use = await limitUseOf(subaccount);
    expect([...use.values()]).toEqual([
      { limit: 'max_order_notional', value: null, current: '0', utilisation: null },
      { limit: 'max_position_per_market', value: '0', current: '0', utilisation: null },
      { limit: 'max_gross_exposure', value: null, current: '0', utilisation: null },
      { limit: 'max_daily_realized_loss', value: null, current: '0', utilisation: null },
      { limit: 'max_open_orders', value: null, current: '0', utilisation: null },
      { limit: 'max_orders_per_minute', value: null, current: '0', utilisation: null },
    ]);
  });
});
