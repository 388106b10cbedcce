import Decimal from 'decimal.js';
import { checkPlannedChildren, type PlannedChildCheck, type PlanRiskState } from '../../core/domain/planPreTradeRisk';
import type { RiskLimitValues } from '../../core/domain/preTradeRisk';
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

  describe('risk: the subaccount’s pre-trade checks over the planned children', () => {
    const limits = (body: Record<string, unknown>) => call(base, 'PUT', `/v1/risk_limits/${subaccountId}`, { key, body });
    type Child = { venue: string; price: string; quantity: string };
    type Refusal = { child: number; venue: string; slice_index: number | null; price: string; quantity: string; code: string; limit: string | null; message: string };
    afterEach(async () => {
      await limits({ max_order_notional: null, max_open_orders: 500 });
      await call(base, 'PUT', '/v1/risk/kill_switch', { key, body: { enabled: false } });
    });

    it('with max_order_notional 250, a 5,000-contract sweep names the limit and each child it refuses; feasible stays the books’ verdict', async () => {
      expect((await limits({ max_order_notional: '250' })).status).toBe(200);
      const { status, body } = await preview({});
      expect(status).toBe(200);
      const recommended = body.plan.recommended;
      expect(recommended.feasible).toBe(true);
      expect(body.risk.alternative_id).toBe(recommended.id);
      expect(body.risk.passes).toBe(false);
      // Every child above 250 is refused by max_order_notional, with its figures; the others pass.
      const expected = recommended.children.flatMap((child: Child, index: number) => {
        const notional = new Decimal(child.price).mul(child.quantity);
        if (notional.lte(250)) return [];
        return [{
          child: index, venue: child.venue, slice_index: null, price: child.price, quantity: child.quantity,
          code: 'risk_limit_exceeded', limit: 'max_order_notional', message: `Order notional ${notional.toFixed()} exceeds max_order_notional 250.`,
        }];
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(body.risk.refusals).toEqual(expected);
      // Every alternative is checked, the recommended one among them.
      expect(body.risk.alternatives.map((a: { id: string }) => a.id)).toEqual(body.plan.alternatives.map((a: { id: string }) => a.id));
      expect(body.risk.alternatives.find((a: { id: string }) => a.id === recommended.id)).toEqual({ id: recommended.id, passes: false, refusals: expected });
      for (const alternative of body.risk.alternatives) {
        expect(alternative.refusals.every((r: Refusal) => r.limit === 'max_order_notional')).toBe(true);
      }
    });

    it('without the limit, every child passes', async () => {
      const { body } = await preview({});
      expect(body.risk).toMatchObject({ alternative_id: body.plan.recommended.id, passes: true, refusals: [] });
      for (const alternative of body.risk.alternatives) expect(alternative).toMatchObject({ passes: true, refusals: [] });
    });

    it('with the workspace kill switch on, every child is refused by kill_switch', async () => {
      expect((await call(base, 'PUT', '/v1/risk/kill_switch', { key, body: { enabled: true } })).status).toBe(200);
      const { body } = await preview({});
      expect(body.risk.passes).toBe(false);
      expect(body.risk.refusals.map((r: Refusal) => r.child)).toEqual(body.plan.recommended.children.map((_: Child, index: number) => index));
      for (const refusal of body.risk.refusals) {
        expect(refusal).toMatchObject({ code: 'risk_limit_exceeded', limit: 'kill_switch', message: expect.stringContaining('kill switch is on') });
      }
    });

    it('checks the children in sequence: with max_open_orders 1 the first child of the split passes and the second is refused', async () => {
      expect((await limits({ max_open_orders: 1 })).status).toBe(200);
      const { body } = await preview({});
      const split = body.plan.alternatives.find((a: { id: string }) => a.id === 'sweep:split');
      expect(split.children.length).toBeGreaterThanOrEqual(2);
      const risk = body.risk.alternatives.find((a: { id: string }) => a.id === 'sweep:split');
      expect(risk.passes).toBe(false);
      expect(risk.refusals.map((r: Refusal) => [r.child, r.limit, r.message])).toEqual(
        split.children.slice(1).map((_: Child, index: number) => [index + 1, 'max_open_orders', '1 orders are open; max_open_orders is 1.']),
      );
    });

    it('reads only: a refused preview writes no order, reservation, child, event or idempotency record, and leaves the cash', async () => {
      const db = stack.core.db;
      const { workspaceId } = await db.subaccount.findUniqueOrThrow({ where: { id: subaccountId } });
      const counts = async () => ({
        orders: await db.order.count({ where: { subaccountId } }),
        reservations: await db.workingOrderTotal.count({ where: { subaccountId } }),
        complexOrders: await db.complexOrder.count({ where: { subaccountId } }),
        children: await db.childOrder.count({ where: { complexOrder: { subaccountId } } }),
        events: await db.event.count({ where: { workspaceId } }),
        idempotency: await db.idempotencyRecord.count({ where: { apiKey: { workspaceId } } }), // this workspace's: other suites write theirs meanwhile
        cash: (await db.subaccount.findUniqueOrThrow({ where: { id: subaccountId } })).cashBalance.toString(),
      });
      expect((await limits({ max_order_notional: '250' })).status).toBe(200);
      const before = await counts();
      for (let i = 0; i < 3; i += 1) expect((await preview({})).body.risk.refusals.length).toBeGreaterThan(0);
      expect(await counts()).toEqual(before);
    });

    it('placed as previewed, the children the preview named are the ones rejected, with the same code and message', async () => {
      expect((await limits({ max_order_notional: '250' })).status).toBe(200);
      const { body } = await preview({});
      const placed = await call(base, 'POST', '/v1/complex_orders', {
        key,
        body: { subaccount_id: subaccountId, market_id: kalshiMarket, side: 'yes', action: 'buy', quantity: '5000', strategy: 'sweep' },
      });
      expect(placed.status).toBe(200);
      expect(placed.body.plan.recommended.children).toEqual(body.plan.recommended.children);
      const children = (await call(base, 'GET', `/v1/complex_orders/${placed.body.id}/children`, { key })).body.data;
      const rejected = children.flatMap((child: { status: string; reject_code: string; reject_reason: string }, index: number) =>
        child.status === 'rejected' ? [{ child: index, code: child.reject_code, message: child.reject_reason }] : []);
      expect(rejected).toEqual(body.risk.refusals.map((r: Refusal) => ({ child: r.child, code: r.code, message: r.message })));
      expect(rejected.length).toBeGreaterThan(0);
      expect(placed.body.status).toBe(rejected.length === children.length ? 'failed' : 'completed');
    });
  });
});

describe('checkPlannedChildren (the order path’s checks over a plan, in sequence)', () => {
  const D = (value: Decimal.Value) => new Decimal(value);
  const NONE: RiskLimitValues = {
    maxOrderNotional: null, maxPositionPerMarket: null, maxGrossExposure: null, maxDailyRealizedLoss: null, maxOpenOrders: null, maxOrdersPerMinute: null,
  };
  const state = (limits: Partial<RiskLimitValues>, more: Partial<PlanRiskState> = {}): PlanRiskState => ({
    subaccountId: 'sa_1',
    limits: { ...NONE, ...limits },
    exposure: {
      positionIncludingOpenBuys: D(0), grossExposure: D(0), openOrders: 0, ordersInLastMinute: 0, realizedPnlToday: D(0), availableCash: D(1000), sellableQuantity: D(0),
    },
    markets: new Map([['a', { positionIncludingOpenBuys: D(0), sellableQuantity: D(0) }], ['b', { positionIncludingOpenBuys: D(0), sellableQuantity: D(0) }]]),
    tradingHalted: false,
    deadMansSwitchLapsed: false,
    ...more,
  });
  const buy = (market: string, quantity: number, price: string, offsetMs = 0, rests = false): PlannedChildCheck => ({
    market, order: { action: 'buy', quantity: D(quantity), worstPrice: D(price), maxFee: D(0) }, offsetMs, rests, expectedFees: D('0.5'),
  });
  const limitsOf = (refusals: { child: number; limit: string | null }[]) => refusals.map((r) => [r.child, r.limit]);

  it('a later child sees the reservations of the earlier ones that passed, not of those refused', () => {
    // 100 + 150 reach 250 of 300: neither the third (200) nor the fourth (100) fits after them.
    const children = [buy('a', 100, '1'), buy('b', 150, '1'), buy('a', 200, '1'), buy('b', 100, '1')];
    expect(limitsOf(checkPlannedChildren(children, state({ maxGrossExposure: D(300) })))).toEqual([[2, 'max_gross_exposure'], [3, 'max_gross_exposure']]);
    // A refused child reserves nothing: the 2,000-dollar child is refused, the next 50 still fits.
    expect(limitsOf(checkPlannedChildren([buy('a', 2000, '1'), buy('a', 50, '1')], state({})))).toEqual([[0, null]]);
    expect(checkPlannedChildren([buy('a', 2000, '1')], state({}))[0]).toMatchObject({ code: 'insufficient_funds' });
    // Position per market: the second child on market a sees the first; the one on b does not.
    expect(limitsOf(checkPlannedChildren([buy('a', 60, '0.5'), buy('b', 60, '0.5'), buy('a', 60, '0.5')], state({ maxPositionPerMarket: D(100) }))))
      .toEqual([[2, 'max_position_per_market']]);
  });

  it('open orders: a slice’s children are open together; an earlier slice’s ioc children are final, resting ones stay open', () => {
    const twap = [buy('a', 1, '0.5', 0), buy('b', 1, '0.5', 0), buy('a', 1, '0.5', 60_000), buy('b', 1, '0.5', 60_000)];
    expect(limitsOf(checkPlannedChildren(twap, state({ maxOpenOrders: 2 })))).toEqual([]);
    expect(limitsOf(checkPlannedChildren(twap, state({ maxOpenOrders: 1 })))).toEqual([[1, 'max_open_orders'], [3, 'max_open_orders']]);
    const passive = [buy('a', 1, '0.5', 0, true), buy('a', 1, '0.5', 60_000, true), buy('a', 1, '0.5', 120_000, true)];
    expect(limitsOf(checkPlannedChildren(passive, state({ maxOpenOrders: 2 })))).toEqual([[2, 'max_open_orders']]);
  });

  it('orders per minute count the children sent less than 60 s before; an earlier slice’s fees leave the cash', () => {
    const slices = [buy('a', 1, '0.5', 0), buy('a', 1, '0.5', 30_000), buy('a', 1, '0.5', 59_999), buy('a', 1, '0.5', 90_000)];
    expect(limitsOf(checkPlannedChildren(slices, state({ maxOrdersPerMinute: 2 })))).toEqual([[2, 'max_orders_per_minute']]);
    // Cash 10: the first slice reserves 5 and pays 0.5 in fees; 4.5 is left, below the second slice's 5.
    const cash = (at: number) => [buy('a', 10, '0.5', 0), buy('a', 10, '0.5', at)];
    expect(limitsOf(checkPlannedChildren(cash(0), state({}, { exposure: { ...state({}).exposure, availableCash: D(10) } })))).toEqual([]);
    expect(limitsOf(checkPlannedChildren(cash(1000), state({}, { exposure: { ...state({}).exposure, availableCash: D(10) } })))).toEqual([[1, null]]);
  });

  it('the kill switch and a lapsed dead-man’s switch refuse every child, in the order path’s order', () => {
    const children = [buy('a', 1, '0.5'), buy('b', 1, '0.5')];
    expect(checkPlannedChildren(children, state({}, { tradingHalted: true })).map((r) => [r.child, r.code, r.limit])).toEqual([
      [0, 'risk_limit_exceeded', 'kill_switch'], [1, 'risk_limit_exceeded', 'kill_switch'],
    ]);
    expect(checkPlannedChildren(children, state({}, { tradingHalted: true, deadMansSwitchLapsed: true })).map((r) => [r.child, r.code, r.limit])).toEqual([
      [0, 'dead_mans_switch_fired', null], [1, 'dead_mans_switch_fired', null],
    ]);
  });
});
