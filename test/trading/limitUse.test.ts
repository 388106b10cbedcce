/**
 * Risk statistics report each subaccount's use of its limits as the pre-trade check measures it:
 * worked figures after a fill and two resting buys, and an order that brings a figure exactly to
 * its limit passes while one contract more is refused.
 *
 * Markets used only by this file: sim-kalshi SENATE-CTRL (resting buys far below the bids) and
 * SHUTDOWN-Q (a market buy that fills).
 */
import { call } from '../support/http';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, feesOf, fillsOf, marketOf, newTrader, placed, placeOrder, setRiskLimits, type Market, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let senate: Market;
let shutdown: Market;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0], 'Limit use');
  [senate, shutdown] = await Promise.all([marketOf(stack.core.db, 'sim_kalshi', 'SENATE-CTRL'), marketOf(stack.core.db, 'sim_kalshi', 'SHUTDOWN-Q')]);
});
afterAll(() => stack.close());

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

const restingBuy = (subaccount: string, quantity: string, price: string) =>
  ({ subaccount_id: subaccount, market_id: senate.id, side: 'yes', action: 'buy', type: 'limit', price, quantity }) as const;

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
