/**
 * The working-order sweep on live Kalshi (core/services/reconciliation/workingOrderSweep.ts), against the Kalshi
 * fake (Trade API v2, docs/kalshi-fake.md) and real PostgreSQL: an order the venue ended on its own
 * reaches our records with the private stream off (KALSHI_USER_STREAM_ENABLED=false) and the fill
 * sweep out of the way (LIVE_FILL_SWEEP_INTERVAL_MS at its maximum), so the working-order sweep is
 * the only way it can. Working orders are judged once older than 2 x KALSHI_TIMEOUT_MS (2 s).
 */
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { newKalshiKey } from '../support/kalshiKeys';
import { eventually, FED, liveCoreSettings, liveMarketId, liveSubaccount, newLiveTrader, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey();
const ORDERS = '/trade-api/v2/portfolio/orders';

let fake: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let aliceSub: string;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const restingListings = () => fake.requestsSignedBy(alice.keyId).filter((r) => r.method === 'GET' && r.path === ORDERS && new URLSearchParams(r.query).get('status') === 'resting');
const buy = (price: string, quantity: string) => placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity });
const statusOf = async (id: string, wanted: string) => {
  const read = (await get(`/v1/orders/${id}`)).body;
  return read.status === wanted ? read : undefined;
};

beforeAll(async () => {
  fake = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  stack = await startStack(
    testConfig(
      await liveCoreSettings('kalshi_working_orders', fake, {
        KALSHI_TIMEOUT_MS: '1000',
        KALSHI_USER_STREAM_ENABLED: 'false',
        LIVE_RECONCILER_ENABLED: 'true',
        LIVE_RECONCILE_INTERVAL_MS: '200',
        LIVE_FILL_SWEEP_INTERVAL_MS: '600000',
        LIVE_ORDER_SWEEP_INTERVAL_MS: '200',
      }),
    ),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'Kalshi working orders');
  fed = await liveMarketId(stack.core.db, FED);
  aliceSub = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

describe('live Kalshi orders the venue ended on its own are noticed without the private stream', () => {
  it('an order canceled at the venue behind our back ends canceled; one still resting stays open and is not looked up', async () => {
    const resting = await buy('0.31', '10');
    const ended = await buy('0.30', '10');
    expect([resting.body.status, ended.body.status]).toEqual(['open', 'open']);
    expect(fake.openWebSockets).toBe(0); // the stream is off: nothing else can bring the cancel
    // The venue ends the order itself (as a closing market does): no request of ours.
    expect(fake.cancelOrderAs('user-alice', ended.body.venue_order_id)).toMatchObject({ status: 200 });
    const canceled = await eventually('the sweep recording the venue\u2019s cancel', () => statusOf(ended.body.id, 'canceled'));
    expect(canceled).toMatchObject({ filled_quantity: '0', remaining_quantity: '0' });
    // A round after that one, the resting order (older than the grace in both) is still open, never looked up by its id.
    const listings = restingListings().length;
    await eventually('one more sweep round', async () => (restingListings().length > listings ? true : undefined));
    expect((await get(`/v1/orders/${resting.body.id}`)).body).toMatchObject({ status: 'open', remaining_quantity: '10' });
    const readsOf = (venueOrderId: string) => fake.requests.filter((r) => r.method === 'GET' && r.path === `${ORDERS}/${venueOrderId}`);
    expect(readsOf(resting.body.venue_order_id)).toEqual([]);
    expect(readsOf(ended.body.venue_order_id).length).toBeGreaterThan(0);
    await call(trader.base, 'DELETE', `/v1/orders/${resting.body.id}`, { key: trader.live });
  });
});
