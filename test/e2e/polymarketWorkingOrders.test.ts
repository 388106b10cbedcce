/**
 * The working-order sweep on live Polymarket (core/services/reconciliation/workingOrderSweep.ts), against the CLOB
 * V2 fake (docs/polymarket-fake.md) and real PostgreSQL: orders the venue ended on its own reach
 * our records with the user channel off (POLYMARKET_USER_STREAM_ENABLED=false) and the fill sweep
 * out of the way (LIVE_FILL_SWEEP_INTERVAL_MS at its maximum), so the working-order sweep is the
 * only way they can. Working orders are judged once older than 2 x POLYMARKET_TIMEOUT_MS (2 s).
 */
import type { PolymarketFake } from '../../fakes/polymarket/server';
import { call } from '../support/http';
import { eventually, placeLive, type LiveTrader } from '../support/kalshiLive';
import { newPolymarketTrader, PM_FED, startPolymarketLive, type PolymarketLive, type PolymarketMaker } from '../support/polymarketLive';

const alice = newPolymarketTrader();
const maker = newPolymarketTrader('100000');

let live: PolymarketLive;
let fake: PolymarketFake;
let trader: LiveTrader;
let makerClient: PolymarketMaker;
let fed: string;
let aliceSub: string;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const openOrderReads = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/data/orders' && r.apiKey !== maker.account.apiKey).length;
const buy = (price: string, quantity: string) => placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity });
/** The venue ends the order itself (as its heartbeat lapse or a resolved market does): no request of ours. */
const cancelAtVenue = (venueOrderId: string) => {
  const [account] = fake.exchange.accountsOwnedBy(alice.address);
  expect(fake.exchange.cancelOrder(account!, { orderID: venueOrderId })).toMatchObject({ status: 200 });
};
const statusOf = async (id: string, wanted: string) => {
  const read = (await get(`/v1/orders/${id}`)).body;
  return read.status === wanted ? read : undefined;
};

beforeAll(async () => {
  live = await startPolymarketLive({
    database: 'polymarket_working_orders',
    name: 'Polymarket working orders',
    wallet: alice,
    maker,
    env: {
      LIVE_FILL_SWEEP_INTERVAL_MS: '600000',
      LIVE_ORDER_SWEEP_INTERVAL_MS: '200',
      POLYMARKET_USER_STREAM_ENABLED: 'false',
    },
  });
  ({ fake, trader, fed, subaccountId: aliceSub, maker: makerClient } = live);
}, 60_000);
afterAll(async () => {
  await live?.close();
});

describe('live Polymarket orders the venue ended on its own are noticed without the stream', () => {
  it('an order canceled at the venue behind our back ends canceled; one still resting stays open and is not looked up', async () => {
    const resting = await buy('0.31', '10');
    const ended = await buy('0.30', '10');
    expect([resting.body.status, ended.body.status]).toEqual(['open', 'open']);
    cancelAtVenue(ended.body.venue_order_id);
    const canceled = await eventually('the sweep recording the venue\u2019s cancel', () => statusOf(ended.body.id, 'canceled'));
    expect(canceled).toMatchObject({ filled_quantity: '0', remaining_quantity: '0' });
    // A round after that one, the resting order (older than the grace in both) is still open, never looked up by its hash.
    const reads = openOrderReads();
    await eventually('one more sweep round', async () => (openOrderReads() > reads ? true : undefined));
    expect((await get(`/v1/orders/${resting.body.id}`)).body).toMatchObject({ status: 'open', remaining_quantity: '10' });
    expect(fake.requests.filter((r) => r.path === `/data/order/${resting.body.venue_order_id}`)).toEqual([]);
    expect(fake.requests.filter((r) => r.path === `/data/order/${ended.body.venue_order_id}`).length).toBeGreaterThan(0);
    await call(trader.base, 'DELETE', `/v1/orders/${resting.body.id}`, { key: trader.live });
  });

  it('an order filled at the venue ends filled with its fill, not canceled', async () => {
    const order = await buy('0.45', '8');
    expect(order.body).toMatchObject({ status: 'open' });
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.45', size: '8' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    const filled = await eventually('the sweep recording the fill', () => statusOf(order.body.id, 'filled'));
    expect(filled).toMatchObject({ filled_quantity: '8', remaining_quantity: '0', average_fill_price: '0.45' });
    const fills = (await get(`/v1/fills?order_id=${order.body.id}`)).body.data;
    expect(fills).toEqual([expect.objectContaining({ price: '0.45', quantity: '8', is_taker: false })]);
  });

  it('an order partly filled, then canceled at the venue, ends canceled with its fill recorded first', async () => {
    const order = await buy('0.40', '10');
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.40', size: '5' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    cancelAtVenue(order.body.venue_order_id);
    const canceled = await eventually('the sweep recording the fill and the cancel', () => statusOf(order.body.id, 'canceled'));
    expect(canceled).toMatchObject({ filled_quantity: '5', remaining_quantity: '0', average_fill_price: '0.4' });
    expect((await get(`/v1/fills?order_id=${order.body.id}`)).body.data).toEqual([expect.objectContaining({ price: '0.4', quantity: '5' })]);
  });
});
