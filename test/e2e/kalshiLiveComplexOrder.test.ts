/**
 * Complex orders with a live key on Kalshi (issue 11), through the public REST API against the
 * Kalshi fake (docs/kalshi-fake.md) and real PostgreSQL: the preview plans on the venue's own book
 * (`GET /markets/{ticker}/orderbook`), a sweep's child goes out as one signed V2 create whose
 * client_order_id is the child's order id, a passive child rests with the venue's queue position,
 * its fill comes through the private stream and completes the parent, the execution report is
 * computed from the venue's fills, and a cancel cancels the resting child at the venue.
 *
 * The suite has a database of its own: the complex-order scheduler (which settles a parent whose
 * passive child filled later) claims every working parent in its database.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call, type ApiResponse } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import { CREATE_PATH, eventually, FED, liveMarketId, liveCoreSettings, liveSubaccount, MAKER, newLiveTrader, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey(); // ours
const dave = newKalshiKey(); // another participant, bidding ahead of us

let production: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let sub: string;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const post = (path: string, body: unknown) => call(trader.base, 'POST', path, { key: trader.live, body, headers: { 'Idempotency-Key': randomUUID() } });
const ok = <T = any>(response: ApiResponse<T>): T => {
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};
const restAs = (userId: string, side: 'bid' | 'ask', price: string, count: string) =>
  expect(production.placeOrderAs(userId, v2OrderBody(FED, { side, price, count }))).toMatchObject({ status: 201 });
const atFake = (orderId: string) => production.exchange.allOrders().filter((o) => o.clientOrderId === orderId);
const creates = () => production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST' && r.path === CREATE_PATH);
const childrenOf = async (id: string) => ok(await get(`/v1/complex_orders/${id}/children`)).data as any[];
const D = (value: Decimal.Value) => new Decimal(value);

beforeAll(async () => {
  production = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }, { userId: 'user-dave', key: dave }]);
  stack = await startStack(
    testConfig(await liveCoreSettings('kalshi_live_complex', production, { KALSHI_TIMEOUT_MS: '1000', SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' })),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'Kalshi live complex orders');
  fed = await liveMarketId(stack.core.db, FED);
  sub = await liveSubaccount(trader, 'parent orders', { key: alice, environment: 'production' });
  // The book: dave bids 0.40 for 5; the maker offers 3 at 0.55, 4 at 0.56 and 10 at 0.58.
  restAs('user-dave', 'bid', '0.4000', '5.00');
  restAs(MAKER, 'ask', '0.5500', '3.00');
  restAs(MAKER, 'ask', '0.5600', '4.00');
  restAs(MAKER, 'ask', '0.5800', '10.00');
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await production?.close();
});

describe('a live sweep on Kalshi', () => {
  const body = () => ({ subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', quantity: '6', strategy: 'sweep', limit_price: '0.57' });

  it('is planned on the venue’s book and executed as one signed V2 create; figures and report are the venue’s fills', async () => {
    const preview = ok(await call(trader.base, 'POST', '/v1/complex_orders/preview', { key: trader.live, body: body() }));
    // Planned on the fake's book: 3 at 0.55 and 3 at 0.56 within the limit; mid (0.40 + 0.55) / 2.
    expect(preview.plan.arrival_mid).toBe('0.475');
    const planned = preview.plan.recommended;
    expect(planned.children).toEqual([expect.objectContaining({ venue: 'kalshi', quantity: '6', price: '0.56' })]);
    expect(planned.impact.expected_filled_quantity).toBe('6');
    expect(D(planned.impact.expected_average_price).eq('0.555')).toBe(true);

    const before = creates().length;
    const placed = ok(await post('/v1/complex_orders', body()));
    expect(placed).toMatchObject({ status: 'completed', strategy: 'sweep', quantity: '6', filled_quantity: '6', arrival_mid: '0.475' });

    const [child, ...others] = await childrenOf(placed.id);
    expect(others).toEqual([]);
    expect(child).toMatchObject({ venue: 'kalshi', status: 'sent', quantity: '6', price: '0.56', order: { status: 'filled', filled_quantity: '6' } });
    // One signed create, the child's order id as client_order_id, a YES bid at 0.56 for 6.
    expect(creates().length - before).toBe(1);
    const [order, ...again] = atFake(child.order.id);
    expect(again).toEqual([]);
    expect(order).toMatchObject({ userId: 'user-alice', ticker: FED, bookSide: 'bid', yesPriceTicks: 5600, initialUnits: 600, status: 'executed' });

    // The parent's figures are the venue's fills: 3 at 0.55 and 3 at 0.56, the fake's fees.
    const fakeFills = production.exchange.listFills('user-alice', { orderId: order!.orderId });
    expect(fakeFills.map((f) => [f.yesPriceTicks, f.units]).sort()).toEqual([[5500, 300], [5600, 300]]);
    const venueFees = fakeFills.reduce((total, f) => total.add(f.fee.toString()), D(0));
    expect(D(placed.average_fill_price).eq('0.555')).toBe(true);
    expect(D(placed.fees_paid).eq(venueFees)).toBe(true);

    const report = ok(await get(`/v1/complex_orders/${placed.id}/execution_report`));
    expect(report).toMatchObject({ filled_quantity: '6', fill_rate: '1', arrival_price: '0.475', average_execution_price: '0.555' });
    expect(D(report.total_fees).eq(venueFees)).toBe(true);
    // Sent at once on the book it was planned on: no delay; the impact is (0.555 - 0.475) x 6 = 0.48 over the mid.
    expect(report.implementation_shortfall).toMatchObject({ delay_cost: '0', market_impact_cost: '0.48' });
    expect(D(report.implementation_shortfall.total_cost).eq(venueFees.add('0.48'))).toBe(true);
  });
});

describe('a live passive order on Kalshi', () => {
  it('rests at the venue with the venue’s queue position, fills through the private stream and completes', async () => {
    const placed = ok(await post('/v1/complex_orders', { subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', quantity: '2', strategy: 'passive' }));
    expect(placed).toMatchObject({ status: 'working', strategy: 'passive', filled_quantity: '0' });
    const [child] = await childrenOf(placed.id);
    // It joins the best bid (dave's 0.40), behind dave's 5: the venue's queue position says so.
    expect(child).toMatchObject({ venue: 'kalshi', status: 'sent', price: '0.4', quantity: '2', order: { status: 'open', queue_position: { quantity_ahead: '5' } } });
    const [resting] = atFake(child.order.id);
    expect(resting).toMatchObject({ bookSide: 'bid', yesPriceTicks: 4000, initialUnits: 200, status: 'resting' });
    const queueReads = production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'GET' && r.path.includes('queue_position'));
    expect(queueReads.length).toBeGreaterThan(0);

    // The maker sells 7 at 0.40: dave's 5 first (time priority), then our 2.
    restAs(MAKER, 'ask', '0.4000', '7.00');
    const [fill] = production.exchange.listFills('user-alice', { orderId: resting!.orderId });
    expect(fill).toBeDefined();
    // Kalshi's user_orders message (executed) and its fill message arrive separately: the parent is
    // completed once its child's order is final, and its figures are the fills recorded.
    const completed = await eventually('the parent completed with its streamed fill', async () => {
      const parent = ok(await get(`/v1/complex_orders/${placed.id}`));
      return parent.status === 'completed' && parent.filled_quantity === '2' ? parent : undefined;
    }, 5000);
    expect(completed).toMatchObject({ filled_quantity: '2', average_fill_price: expect.stringMatching(/^0\.40*$/) });
    const fills = ok(await get(`/v1/fills?order_id=${child.order.id}`)).data;
    expect(fills).toEqual([expect.objectContaining({ venue_fill_id: fill!.fillId, price: '0.4', quantity: '2', is_taker: false })]);
    const report = ok(await get(`/v1/complex_orders/${placed.id}/execution_report`));
    expect(report).toMatchObject({ filled_quantity: '2', fill_rate: '1', average_execution_price: '0.4', total_fees: '0' });
  });

  it('a cancel cancels the resting child at the venue; nothing was sent twice', async () => {
    restAs('user-dave', 'bid', '0.3900', '1.00'); // the bids were taken: a touch to join
    const placed = ok(await post('/v1/complex_orders', { subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', quantity: '3', strategy: 'passive' }));
    const [child] = await childrenOf(placed.id);
    const [resting] = atFake(child.order.id);
    expect(resting).toMatchObject({ status: 'resting', yesPriceTicks: 3900, initialUnits: 300 });

    const canceled = await call(trader.base, 'DELETE', `/v1/complex_orders/${placed.id}`, { key: trader.live });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', filled_quantity: '0' });
    expect(resting!.status).toBe('canceled');
    const deletes = production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE');
    expect(deletes.filter((r) => r.path === `${CREATE_PATH}/${resting!.orderId}`).map((r) => r.status)).toEqual([200]);
    expect((await childrenOf(placed.id))[0].order).toMatchObject({ status: 'canceled', queue_position: null });

    // Every order of ours reached the fake once.
    const ours = production.exchange.allOrders().filter((o) => o.userId === 'user-alice');
    expect(new Set(ours.map((o) => o.clientOrderId)).size).toBe(ours.length);
    expect(creates()).toHaveLength(ours.length);
  });
});
