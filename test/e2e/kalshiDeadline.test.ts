/**
 * A live order within the client's patience: the core keeps its Kalshi calls inside the budget the
 * gateway gives each request (CORE_TIMEOUT_MS, passed on as `x-core-budget-ms`), even where a
 * Kalshi call alone may take longer (KALSHI_TIMEOUT_MS). Against the Kalshi fake on loopback and
 * real PostgreSQL, with the live reconciler running:
 * - a Kalshi slower than the budget: the client gets the order `unknown` (200), not the gateway's
 *   502, and the reconciler settles it from the venue without a second create;
 * - a 429 storm longer than the budget: 429 `rate_limited` with Retry-After, no order kept here or
 *   at the venue; the retry after Retry-After with the same Idempotency-Key places it once.
 */
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { CREATE_PATH, eventually, FED, liveMarketId, liveCoreSettings, liveSubaccount, newLiveTrader, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { startStack, type Stack } from '../support/stack';

const erin = newKalshiKey();

let fake: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let erinSub: string;

const atFake = (orderId: string) => fake.exchange.allOrders().filter((o) => o.clientOrderId === orderId);
const creates = () => fake.requestsSignedBy(erin.keyId).filter((r) => r.method === 'POST' && r.path === CREATE_PATH);
const ordersOfErin = () => stack.core.db.order.count({ where: { subaccountId: erinSub } });

beforeAll(async () => {
  fake = await startKalshiFake('production', [{ userId: 'user-erin', key: erin }]);
  stack = await startStack(
    testConfig(
      await liveCoreSettings('kalshi_deadline', fake, {
        // The gateway waits 1.2 s for the core; one Kalshi call alone may take 2.5 s.
        CORE_TIMEOUT_MS: '1200',
        KALSHI_TIMEOUT_MS: '2500',
        LIVE_RECONCILER_ENABLED: 'true',
        LIVE_RECONCILE_INTERVAL_MS: '200',
      }),
    ),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!);
  fed = await liveMarketId(stack.core.db, FED);
  erinSub = await liveSubaccount(trader, 'erin', { key: erin, environment: 'production' });
}, 60_000);
afterAll(async () => {
  fake?.clearFaults();
  await stack?.close();
  await fake?.close();
});

describe('a live order keeps to the gateway\u2019s budget', () => {
  it('Kalshi slower than the budget: 200 with the order unknown (not a 502), then the reconciler finds it open, one create in all', async () => {
    // Kalshi places the order, then holds its answer past the budget.
    fake.injectFault({ fault: { kind: 'delay', ms: 2000, placeBeforeDelay: true }, method: 'POST', pathPrefix: CREATE_PATH });
    const before = creates().length;
    const placed = await placeLive(trader, { subaccount_id: erinSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.21', quantity: '2' }, { 'Idempotency-Key': 'erin-slow' });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'unknown', venue_order_id: null, filled_quantity: '0' });
    const [atVenue, ...more] = atFake(placed.body.id);
    expect(more).toEqual([]);

    const settled = await eventually('the reconciled order', async () => {
      const order = (await call(trader.base, 'GET', `/v1/orders/${placed.body.id}`, { key: trader.live })).body;
      return order.status === 'open' ? order : undefined;
    }, 15_000);
    expect(settled).toMatchObject({ venue_order_id: atVenue!.orderId, remaining_quantity: '2' });
    expect(creates().length - before).toBe(1);
    expect(atFake(placed.body.id)).toHaveLength(1);
  });

  it('a 429 storm longer than the budget: 429 rate_limited with Retry-After, nothing kept; the retry after it places the order once', async () => {
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: CREATE_PATH, times: Infinity });
    const ordersBefore = await ordersOfErin();
    const fakeOrdersBefore = fake.exchange.allOrders().length;
    const createsBefore = creates().length;
    const order = { subaccount_id: erinSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.22', quantity: '1' } as const;

    const refused = await placeLive(trader, order, { 'Idempotency-Key': 'erin-storm' });
    expect(refused.status).toBe(429);
    expect(envelopeOf(refused)).toMatchObject({ code: 'rate_limited' });
    expect(envelopeOf(refused).message).toMatch(/^The order was not placed: Kalshi's rate limit for this subaccount's credential/);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Slowed down, not hammered: a few backed-off sends, every one a bare 429.
    const storm = creates().slice(createsBefore);
    expect(storm.length).toBeGreaterThanOrEqual(1);
    expect(storm.length).toBeLessThanOrEqual(6);
    expect(storm.every((r) => r.status === 429)).toBe(true);
    expect(await ordersOfErin()).toBe(ordersBefore);
    expect(fake.exchange.allOrders()).toHaveLength(fakeOrdersBefore);

    fake.clearFaults();
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(refused.headers.get('retry-after'))));
    const placed = await placeLive(trader, order, { 'Idempotency-Key': 'erin-storm' });
    expect(placed.status).toBe(200);
    expect(placed.headers.get('idempotent-replayed')).toBeNull();
    expect(placed.body).toMatchObject({ status: 'open', price: '0.22', quantity: '1' });
    expect(atFake(placed.body.id)).toEqual([expect.objectContaining({ status: 'resting', orderId: placed.body.venue_order_id })]);
    expect(await ordersOfErin()).toBe(ordersBefore + 1);
  });
});
