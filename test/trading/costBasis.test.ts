/**
 * A position's cost basis is an exact sum, not a rounded average times a quantity: 10 @ 0.63 and
 * 20 @ 0.64 cost 19.1 in `GET /v1/positions` and `GET /v1/portfolio` (they showed 19.1000001 when
 * the cost was derived from an average rounded to 8 places), and selling it all realizes exactly
 * proceeds minus 19.1 (docs/decimals.md, "Cost basis"). The fills go through the real recording
 * path (recordExecution, as a venue's fills do) at prices chosen here; the figures are read back
 * through the public API.
 */
import { newId } from '../../core/domain/ids';
import { recordExecution } from '../../core/services/orders/executions';
import type { VenueFill } from '../../core/venues/venue';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, marketOf, newTrader, portfolioOf, positionsOf, type Market, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let market: Market;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Cost basis');
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
});

afterAll(async () => {
  await stack?.close();
});

/** An order of the subaccount's, filled by `fills` through the recording path a venue's fills take. */
async function filled(subaccountId: string, action: 'buy' | 'sell', fills: { price: string; quantity: string }[]) {
  const db = stack.core.db;
  const quantity = fills.reduce((total, f) => total.add(f.quantity), D(0)).toFixed();
  const order = await db.order.create({
    data: {
      id: newId('order'), workspaceId: trader.workspaceId, environment: 'test', subaccountId, marketId: market.id, venue: market.venue,
      side: 'yes', action, type: 'limit', timeInForce: 'ioc', price: fills[0]!.price, quantity, status: 'open', clientOrderId: newId('order'),
    },
  });
  const venueFills: VenueFill[] = fills.map((fill, i) => ({
    venueFillId: `cost-${order.id}-${i}`, venueOrderId: `venue-${order.id}`, clientOrderId: order.id, venueMarketId: market.venueMarketId,
    side: 'yes', action, price: fill.price, quantity: fill.quantity, fee: '0', isTaker: true, executedAt: new Date().toISOString(),
  }));
  await recordExecution(db, order.id, { fills: venueFills });
}

const positionOf = (subaccountId: string) => positionsOf(trader, subaccountId, market.id);

it('10 @ 0.63 and 20 @ 0.64 cost exactly 19.1; selling it all at 0.70 realizes exactly 1.9', async () => {
  const subaccount = await createSubaccount(trader, 'cost basis', '1000');
  await filled(subaccount, 'buy', [{ price: '0.63', quantity: '10' }, { price: '0.64', quantity: '20' }]);

  const [held] = await positionOf(subaccount);
  expect(held).toMatchObject({ quantity: '30', cost_basis: '19.1', average_cost: '0.63666667', realized_pnl: '0' });
  // Unrealized is the value at the mark less the exact cost, not (mark - rounded average) x quantity.
  expect(held!.mark_price).not.toBeNull();
  expect(held!.unrealized_pnl).toBe(D(held!.mark_price!).mul(30).sub('19.1').toFixed());
  const balance = await portfolioOf(trader, subaccount);
  expect(balance).toMatchObject({ positions_cost: '19.1', cash_balance: '980.9', gross_exposure: '19.1' });

  // A third of it: 19.1 x 10 / 30 = 6.366667 released (rounded once), 12.733333 held.
  await filled(subaccount, 'sell', [{ price: '0.7', quantity: '10' }]);
  const [rest] = await positionOf(subaccount);
  expect(rest).toMatchObject({ quantity: '20', cost_basis: '12.733333', realized_pnl: '0.633333' });
  // The rest releases exactly what was left: 30 x 0.70 - 19.1 = 1.9 in all.
  await filled(subaccount, 'sell', [{ price: '0.7', quantity: '20' }]);
  expect(await positionOf(subaccount)).toEqual([]);
  expect(await portfolioOf(trader, subaccount)).toMatchObject({ realized_pnl: '1.9', positions_cost: '0', cash_balance: '1001.9' });
});
