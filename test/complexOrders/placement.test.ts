/**
 * Complex orders end to end over REST, on the simulated venues: preview, place (sweep split across
 * venues, passive, twap), children with queue positions, cancel, the execution report recomputed by
 * hand from the fills, execution analytics, risk stats and P&L history, and a TWAP that outlives a
 * restart of the core. The only suite that runs the complex-order scheduler (see testConfig).
 *
 * Markets used only by this file: WORLDCUP-HOST (sweep, twap with a moving book), AI-IMO-GOLD
 * (passive, per-child risk), MARS-LAUNCH (restart).
 */
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { createPrismaClient } from '../../core/db/prismaClient';
import { databaseUrl, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, fillsOf, marketOf, newTrader, setRiskLimits, sum, waitFor, type FillView, type Trader } from '../trading/helpers';

const config = () => testConfig({ SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' });
const NO_LIMITS = { max_order_notional: null, max_gross_exposure: null, max_position_per_market: null, max_open_orders: null, max_orders_per_minute: null };

interface ChildView {
  id: string;
  venue: string;
  status: string;
  quantity: string;
  price: string;
  slice_index: number | null;
  scheduled_at: string;
  sent_at: string | null;
  mid_at_send: string | null;
  reject_code: string | null;
  order: null | { id: string; status: string; filled_quantity: string; queue_position: null | { orders_ahead: number; quantity_ahead: string } };
}

let stack: Stack;
let trader: Trader;
let subaccount: string;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call(trader.base, 'POST', path, { key: trader.secret, body, headers });
const get = (path: string) => call(trader.base, 'GET', path, { key: trader.secret });
const ok = <T = any>(response: ApiResponse<T>): T => {
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};
const children = async (id: string): Promise<ChildView[]> => ok(await get(`/v1/complex_orders/${id}/children`)).data;
const finalOf = (id: string) => waitFor(async () => ok(await get(`/v1/complex_orders/${id}`)), (o) => o.status !== 'working', 10_000);

beforeAll(async () => {
  stack = await startStack(config());
  trader = await newTrader(stack.core.db, stack.gateways[0], 'Complex orders');
  subaccount = await createSubaccount(trader, 'parent orders', '1000000');
  await setRiskLimits(trader, subaccount, NO_LIMITS);
});
afterAll(async () => {
  await stack?.close();
});

describe('a 5,000-contract split sweep, from preview to analytics', () => {
  let market: string;
  let placed: any;
  let previewed: any;
  const body = () => ({ subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', quantity: '5000', strategy: 'sweep' });

  beforeAll(async () => {
    market = (await marketOf(stack.core.db, 'sim_kalshi', 'WORLDCUP-HOST')).id;
    previewed = ok(await post('/v1/complex_orders/preview', body()));
    placed = ok(await post('/v1/complex_orders', body(), { 'Idempotency-Key': randomUUID() }));
  });

  it('executes the previewed plan: split across both venues, filled as predicted', async () => {
    const recommended = previewed.plan.recommended;
    expect(recommended.kind).toBe('split');
    expect(new Set(recommended.children.map((c: { venue: string }) => c.venue))).toEqual(new Set(['sim-kalshi', 'sim-polymarket']));
    expect(placed).toMatchObject({
      status: 'completed',
      strategy: 'sweep',
      quantity: '5000',
      arrival_mid: D(previewed.plan.arrival_mid).toFixed(),
      predicted_filled_quantity: recommended.impact.expected_filled_quantity,
    });
    expect(D(placed.predicted_average_price).eq(recommended.impact.expected_average_price)).toBe(true);
    expect(placed.plan.recommended).toEqual(recommended); // the books did not move between preview and placement
    // Honest prediction: the realized average equals the predicted one.
    expect(placed.filled_quantity).toBe(recommended.impact.expected_filled_quantity);
    expect(D(placed.average_fill_price).eq(D(recommended.impact.expected_average_price))).toBe(true);
    expect(D(placed.fees_paid).eq(recommended.impact.total_fees)).toBe(true);
  });

  it('lists its children, each sent once as an order on its venue', async () => {
    const list = await children(placed.id);
    expect(list.length).toBe(previewed.plan.recommended.children.length);
    for (const child of list) {
      expect(child).toMatchObject({ status: 'sent', reject_code: null });
      expect(child.order).toMatchObject({ status: 'filled', filled_quantity: child.quantity, queue_position: null });
      expect(child.sent_at).not.toBeNull();
    }
    const orders = await stack.core.db.order.findMany({ where: { complexOrderId: placed.id } });
    expect(orders.map((o) => o.id).sort()).toEqual(list.map((c) => c.order!.id).sort());
  });

  it('has an execution report that recomputes by hand from the fills', async () => {
    const report = ok(await get(`/v1/complex_orders/${placed.id}/execution_report`));
    const list = await children(placed.id);
    const fills: (FillView & { mid: Decimal })[] = [];
    for (const child of list) for (const fill of await fillsOf(trader, child.order!.id)) fills.push({ ...fill, mid: D(child.mid_at_send!) });
    const filled = sum(fills.map((f) => f.quantity));
    const notional = sum(fills.map((f) => D(f.price).mul(f.quantity)));
    const fees = sum(fills.map((f) => f.fee));
    const arrival = D(placed.arrival_mid);
    const paper = arrival.mul(5000);
    const delay = sum(fills.map((f) => f.mid.sub(arrival).mul(f.quantity)));
    const impact = sum(fills.map((f) => D(f.price).sub(f.mid).mul(f.quantity)));
    const bps = (dollars: Decimal) => dollars.div(paper).mul(10_000);

    expect(report.filled_quantity).toBe(filled.toFixed());
    expect(report.fill_rate).toBe('1');
    expect(D(report.arrival_price).eq(arrival)).toBe(true);
    expect(D(report.notional).eq(notional)).toBe(true);
    expect(D(report.total_fees).eq(fees)).toBe(true);
    expect(D(report.average_execution_price).eq(notional.div(filled).toDecimalPlaces(8))).toBe(true);
    const shortfall = report.implementation_shortfall;
    expect(D(shortfall.delay_cost).eq(delay)).toBe(true);
    expect(D(shortfall.market_impact_cost).eq(impact)).toBe(true);
    expect(D(shortfall.fees_cost).eq(fees)).toBe(true);
    expect(D(shortfall.opportunity_cost).eq(0)).toBe(true);
    expect(D(shortfall.total_cost).eq(delay.add(impact).add(fees))).toBe(true);
    expect(D(shortfall.total_bps).sub(bps(delay.add(impact).add(fees))).abs().lt('0.01')).toBe(true);
    expect(D(report.slippage_vs_prediction_bps).eq(0)).toBe(true);
    expect(report.venues.map((v: { venue: string }) => v.venue).sort()).toEqual(['sim-kalshi', 'sim-polymarket']);
    expect(sum(report.venues.map((v: { filled_quantity: string }) => v.filled_quantity)).eq(filled)).toBe(true);
  });

  it('appears in execution analytics with no price error, and in risk stats and P&L history', async () => {
    const analytics = ok(await get(`/v1/analytics/execution?strategy=sweep&market_id=${market}`));
    expect(analytics.overall).toMatchObject({ complex_order_count: 1, fill_rate: '1.000000', price_error_count: 1 });
    expect(D(analytics.overall.price_error_mean_bps).eq(0)).toBe(true);
    expect(analytics.by_venue.map((v: { venue: string }) => v.venue).sort()).toEqual(['sim-kalshi', 'sim-polymarket']);

    const stats = ok(await get(`/v1/risk/stats?subaccount_id=${subaccount}`));
    expect(JSON.stringify(stats)).toContain(market);
    const history = ok(await get(`/v1/risk/pnl_history?subaccount_id=${subaccount}`));
    const today = history.data[history.data.length - 1];
    // Buying realizes nothing but the fees; this sweep is the subaccount's only trading so far.
    expect(D(today.fees).eq(placed.fees_paid)).toBe(true);
    expect(D(today.realized_pnl).eq(D(placed.fees_paid).neg())).toBe(true);
  });

  it('replays the placement for the same Idempotency-Key, placing nothing twice', async () => {
    const key = randomUUID();
    const small = { ...body(), quantity: '10' };
    const first = ok(await post('/v1/complex_orders', small, { 'Idempotency-Key': key }));
    const before = await stack.core.db.order.count({ where: { subaccountId: subaccount } });
    const again = await post('/v1/complex_orders', small, { 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
    expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(before);
    expect(envelopeOf(await post('/v1/complex_orders', { ...small, quantity: '11' }, { 'Idempotency-Key': key })).code).toBe('idempotency_key_reused');
  });

  it('a TWAP whose book moves between slices shows the prediction error in analytics', async () => {
    const other = await createSubaccount(trader, 'book mover', '1000000');
    await setRiskLimits(trader, other, NO_LIMITS);
    const twap = ok(
      await post('/v1/complex_orders', { ...body(), quantity: '400', strategy: 'twap', duration_seconds: 60, slices: 2, venues: ['sim-kalshi'] }),
    );
    expect(twap.status).toBe('working');
    // Between the slices someone else lifts the best asks the second slice was planned against.
    // The second slice is due 30 s after placement, so the book moves first however slow the machine;
    // then it is made due at once.
    ok(await post('/v1/orders', { subaccount_id: other, market_id: market, side: 'yes', action: 'buy', type: 'market', quantity: '1500' }));
    const { count } = await stack.core.db.childOrder.updateMany({
      where: { complexOrderId: twap.id, sliceIndex: 1, status: 'scheduled' },
      data: { scheduledAt: new Date() },
    });
    expect(count).toBe(1);
    const done = await finalOf(twap.id);
    expect(done.status).toBe('completed');
    expect(D(done.average_fill_price).gt(done.predicted_average_price)).toBe(true);
    const analytics = ok(await get(`/v1/analytics/execution?strategy=twap&market_id=${market}`));
    expect(analytics.overall.price_error_count).toBe(1);
    expect(D(analytics.overall.price_error_mean_bps).gt(0)).toBe(true);
    const report = ok(await get(`/v1/complex_orders/${twap.id}/execution_report`));
    expect(D(report.slippage_vs_prediction_bps).gt(0)).toBe(true);
  });
});

describe('passive complex orders, cancel and per-child risk', () => {
  let market: string;
  beforeAll(async () => {
    market = (await marketOf(stack.core.db, 'sim_kalshi', 'AI-IMO-GOLD')).id;
  });
  const passive = (quantity: string, extra: Record<string, unknown> = {}) =>
    post('/v1/complex_orders', { subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', quantity, strategy: 'passive', ...extra });

  it('rests its children with their queue positions, and cancel takes them back', async () => {
    const order = ok(await passive('300'));
    expect(order.status).toBe('working');
    const resting = await children(order.id);
    expect(resting.length).toBeGreaterThan(0);
    for (const child of resting) {
      expect(child.order).toMatchObject({ status: 'open' });
      expect(child.order!.queue_position).toEqual({ orders_ahead: expect.any(Number), quantity_ahead: expect.any(String) });
    }
    const listed = ok(await get(`/v1/complex_orders?status=working&strategy=passive`));
    expect(listed.data.map((o: { id: string }) => o.id)).toContain(order.id);
    // The complex order sets its children's terms: a child's order is not amended on its own (409), and stays as it was.
    const child = ok(await get(`/v1/orders/${resting[0]!.order!.id}`));
    const amend = await call(trader.base, 'PATCH', `/v1/orders/${child.id}`, { key: trader.secret, body: { quantity: '1' } });
    expect([amend.status, envelopeOf(amend).code]).toEqual([409, 'conflict']);
    expect(ok(await get(`/v1/orders/${child.id}`))).toMatchObject({ quantity: child.quantity, status: 'open' });

    const canceled = ok(await call(trader.base, 'DELETE', `/v1/complex_orders/${order.id}`, { key: trader.secret }));
    expect(canceled.status).toBe('canceled');
    for (const child of await children(order.id)) expect(child.order).toMatchObject({ status: 'canceled', queue_position: null });
    const again = await call(trader.base, 'DELETE', `/v1/complex_orders/${order.id}`, { key: trader.secret });
    expect(again.status).toBe(409);
    expect(envelopeOf(again).code).toBe('conflict');
  });

  it('runs the pre-trade checks on every child: refused children are recorded, nothing is placed', async () => {
    const limited = await createSubaccount(trader, 'limited', '1000000');
    await setRiskLimits(trader, limited, { ...NO_LIMITS, max_order_notional: '1' });
    const order = ok(await post('/v1/complex_orders', { subaccount_id: limited, market_id: market, side: 'yes', action: 'buy', quantity: '500', strategy: 'sweep' }));
    expect(order.status).toBe('failed');
    for (const child of await children(order.id)) expect(child).toMatchObject({ status: 'rejected', reject_code: 'risk_limit_exceeded', order: null });
    expect(await stack.core.db.order.count({ where: { subaccountId: limited } })).toBe(0);
  });

  it('answers in the envelope: bad input, no executable plan, other workspaces', async () => {
    expect(envelopeOf(await passive('10', { strategy: 'twap' })).code).toBe('invalid_request');
    const hopeless = await post('/v1/complex_orders', { subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', quantity: '10', strategy: 'sweep', limit_price: '0.01' });
    expect(hopeless.status).toBe(422);
    expect(envelopeOf(hopeless).code).toBe('no_executable_plan');
    const mine = ok(await passive('5'));
    const other = await buildWorkspace(stack.core.db);
    for (const path of [`/v1/complex_orders/${mine.id}`, `/v1/complex_orders/${mine.id}/children`, `/v1/complex_orders/${mine.id}/execution_report`]) {
      const response = await call(trader.base, 'GET', path, { key: other.secret });
      expect(response.status).toBe(404);
      expect(envelopeOf(response).code).toBe('not_found');
    }
    expect((await call(trader.base, 'DELETE', `/v1/complex_orders/${mine.id}`, { key: other.secret })).status).toBe(404);
    ok(await call(trader.base, 'DELETE', `/v1/complex_orders/${mine.id}`, { key: trader.secret }));
  });
});

describe('recovery of an interrupted send', () => {
  it('sends again a child claimed by a core that died before placing it, exactly once', async () => {
    const market = (await marketOf(stack.core.db, 'sim_kalshi', 'MARS-LAUNCH')).id;
    const twap = ok(
      await post('/v1/complex_orders', {
        subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', quantity: '20', strategy: 'twap', duration_seconds: 3600, slices: 2, venues: ['sim-kalshi'],
      }),
    );
    const [, later] = await children(twap.id);
    expect(later).toMatchObject({ status: 'scheduled', order: null });
    // As a core leaves it when it dies between claiming the slice and creating its order.
    const longAgo = new Date(Date.now() - 3_600_000);
    await stack.core.db.childOrder.update({ where: { id: later.id }, data: { status: 'sending', sentAt: longAgo, scheduledAt: longAgo } });
    const done = await finalOf(twap.id);
    expect(done).toMatchObject({ status: 'completed', filled_quantity: '20' });
    expect((await children(twap.id)).map((c) => c.status)).toEqual(['sent', 'sent']);
    expect(await stack.core.db.order.count({ where: { complexOrderId: twap.id } })).toBe(2);
  });
});

describe('a TWAP outlives a restart of the core', () => {
  it('sends the slices that fell due while the core was down, each exactly once', async () => {
    const market = (await marketOf(stack.core.db, 'sim_kalshi', 'MARS-LAUNCH')).id;
    const twap = ok(
      await post('/v1/complex_orders', {
        subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', quantity: '30', strategy: 'twap', duration_seconds: 60, slices: 3, venues: ['sim-kalshi'],
      }),
    );
    expect(twap.status).toBe('working');
    // Slices 1 and 2 are due 20 s and 40 s after placement: however slow the machine, the first
    // core stops before either is due.
    await stack.close();
    const db = createPrismaClient(databaseUrl(), 1);
    const waiting = await db.childOrder.findMany({ where: { complexOrderId: twap.id, status: 'scheduled' }, orderBy: { sliceIndex: 'asc' } });
    expect(waiting.map((c) => c.sliceIndex)).toEqual([1, 2]);
    // The core stays down past their slice times: both become due (just after slice 0, in order),
    // as if the outage had lasted a minute.
    try {
      const first = await db.childOrder.findFirstOrThrow({ where: { complexOrderId: twap.id, sliceIndex: 0 } });
      for (const child of waiting) {
        await db.childOrder.update({ where: { id: child.id }, data: { scheduledAt: new Date(first.scheduledAt.getTime() + child.sliceIndex!) } });
      }
    } finally {
      await db.$disconnect();
    }
    const restartedAt = Date.now();
    stack = await startStack(config());
    trader = { ...trader, base: stack.gateways[0] };
    const done = await finalOf(twap.id);
    expect(done).toMatchObject({ status: 'completed', filled_quantity: '30' });
    const list = await children(twap.id);
    expect(list.map((c) => c.slice_index)).toEqual([0, 1, 2]);
    expect(Date.parse(list[0].sent_at!)).toBeLessThan(restartedAt); // sent by the first core, at placement
    for (const later of list.slice(1)) expect(Date.parse(later.sent_at!)).toBeGreaterThanOrEqual(restartedAt);
    for (const child of list) {
      expect(child).toMatchObject({ status: 'sent', order: { status: 'filled', filled_quantity: '10' } });
      expect(Date.parse(child.sent_at!)).toBeGreaterThanOrEqual(Date.parse(child.scheduled_at));
    }
    expect(await stack.core.db.order.count({ where: { complexOrderId: twap.id } })).toBe(3);
  });
});
