import Decimal from 'decimal.js';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';

/**
 * POST /v1/complex_orders/preview over the simulated venues. IPO-MEGA-Q is this file's market:
 * no other test file trades it, so its books do not move under these tests.
 */
describe('complex order preview', () => {
  let stack: Stack;
  let base: string;
  let key: string;
  let subaccountId: string;
  let kalshiMarket: string;

  beforeAll(async () => {
    stack = await startStack(testConfig());
    base = stack.gateways[0];
    ({ secret: key } = await buildWorkspace(stack.core.db));
    const created = await call(base, 'POST', '/v1/subaccounts', { key, body: { name: 'planner', starting_balance: '1000000' } });
    subaccountId = created.body.id;
    await call(base, 'PUT', `/v1/risk_limits/${subaccountId}`, {
      key,
      body: { max_order_notional: null, max_gross_exposure: null, max_position_per_market: null },
    });
    kalshiMarket = (await stack.core.db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'IPO-MEGA-Q' } })).id;
  });
  afterAll(() => stack.close());

  const preview = (body: Record<string, unknown>) =>
    call(base, 'POST', '/v1/complex_orders/preview', {
      key,
      body: { subaccount_id: subaccountId, market_id: kalshiMarket, side: 'yes', action: 'buy', quantity: '5000', strategy: 'sweep', ...body },
    });

  it('plans a 5,000-contract sweep across both venues, with the alternatives it compared and why', async () => {
    const response = await preview({});
    expect(response.status).toBe(200);
    const { plan, market_ids_by_venue: markets } = response.body;
    expect(Object.keys(markets).sort()).toEqual(['sim-kalshi', 'sim-polymarket']);
    expect(plan.recommended.impact.expected_filled_quantity).toBe('5000');
    expect(plan.alternatives.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(['sweep:sim-kalshi', 'sweep:sim-polymarket']));
    expect(plan.reason.code).toEqual(expect.any(String));
    const impact = plan.recommended.impact;
    expect(new Decimal(impact.expected_average_price).gte(impact.arrival_mid)).toBe(true);
    expect(new Decimal(impact.slippage_bps).gte(0)).toBe(true);
    expect(new Decimal(impact.worst_price).gte(impact.expected_average_price)).toBe(true);
    const childQuantity = plan.recommended.children.reduce((sum: Decimal, c: { quantity: string }) => sum.add(c.quantity), new Decimal(0));
    expect(childQuantity.toFixed()).toBe('5000');
  });

  it('reads only: nothing is placed, and a second preview is the same', async () => {
    const first = await preview({});
    const second = await preview({});
    expect(second.body.plan.recommended).toEqual(first.body.plan.recommended);
    expect(await stack.core.db.order.count({ where: { subaccountId } })).toBe(0);
  });

  it('is honest: placing the recommended children on unchanged books realizes exactly the predicted notional and fees', async () => {
    const { body } = await preview({});
    const plan = body.plan.recommended;
    let notional = new Decimal(0);
    let fees = new Decimal(0);
    let filled = new Decimal(0);
    for (const child of plan.children) {
      const placed = await call(base, 'POST', '/v1/orders', {
        key,
        body: {
          subaccount_id: subaccountId, market_id: body.market_ids_by_venue[child.venue], side: child.side, action: child.action,
          type: child.type, price: child.price, quantity: child.quantity, time_in_force: child.time_in_force,
        },
      });
      expect(placed.status).toBe(200);
      const fills = await call(base, 'GET', `/v1/fills?order_id=${placed.body.id}`, { key });
      for (const fill of fills.body.data) {
        notional = notional.add(new Decimal(fill.price).mul(fill.quantity));
        fees = fees.add(fill.fee);
        filled = filled.add(fill.quantity);
      }
    }
    expect(filled.toFixed()).toBe(plan.impact.expected_filled_quantity);
    expect(notional.toFixed()).toBe(new Decimal(plan.impact.notional).toFixed());
    expect(fees.toFixed()).toBe(new Decimal(plan.impact.total_fees).toFixed());
  });

  it('a limit price stops the sweep: the expected fill is less than asked', async () => {
    const { body } = await preview({ limit_price: '0.20', quantity: '20000' });
    const impact = body.plan.recommended.impact;
    expect(new Decimal(impact.expected_filled_quantity).lt(20000)).toBe(true);
    expect(new Decimal(impact.worst_price).lte('0.20')).toBe(true);
  });

  it('answers in the envelope for bad input and for other workspaces’ ids', async () => {
    expect(envelopeOf(await preview({ quantity: '-5' }))).toMatchObject({ code: 'invalid_request', param: 'quantity' });
    expect(envelopeOf(await preview({ strategy: 'vwap' }))).toMatchObject({ code: 'invalid_request', param: 'strategy' });
    const other = await buildWorkspace(stack.core.db);
    const foreign = await call(base, 'POST', '/v1/complex_orders/preview', {
      key: other.secret,
      body: { subaccount_id: subaccountId, market_id: kalshiMarket, side: 'yes', action: 'buy', quantity: '10', strategy: 'sweep' },
    });
    expect(foreign.status).toBe(404);
    expect(envelopeOf(foreign).code).toBe('not_found');
  });
});
