/**
 * A fill made at a live venue reaches an event stream (docs/events.md): a `mk_live_` key streaming
 * GET /v1/events/stream while its resting order on the Polymarket fake (CLOB V2 protocol, on
 * loopback) is filled by another participant. The fill comes to the core by the account's user
 * channel, is recorded, numbered and sent to the stream within 500 ms of the venue's match; a trade
 * the venue then reports FAILED reaches the stream as fill.reversed, with the order back to open.
 */
import { call } from '../support/http';
import { EventStreamClient } from '../support/eventStream';
import { newPolymarketTrader, PM_FED, startPolymarketLive, type PolymarketLive } from '../support/polymarketLive';
import { placeLive, eventually } from '../support/kalshiLive';

const alice = newPolymarketTrader();
const maker = newPolymarketTrader('100000');
let live: PolymarketLive;

beforeAll(async () => {
  live = await startPolymarketLive({
    database: 'live_fill_events',
    name: 'Live fill events',
    wallet: alice,
    maker,
    fake: { controlApi: true, settlement: { automatic: false } },
    // What arrives comes by the user channel: the REST fill sweep runs every 10 minutes here.
    env: { LIVE_FILL_SWEEP_INTERVAL_MS: '600000' },
  });
}, 60_000);
afterAll(async () => {
  await live?.close();
});

test('a resting order filled at the venue: order.partially_filled and fill.created on the stream within 500 ms of the match; a FAILED trade then arrives as fill.reversed', async () => {
  const { trader, fake, fed, subaccountId } = live;
  const stream = await EventStreamClient.open(trader.base, { key: trader.live }, { query: `subaccount_id=${subaccountId}` });
  try {
    expect(stream.status).toBe(200);
    const resting = (await placeLive(trader, { subaccount_id: subaccountId, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '8' })).body;
    await stream.next((e) => e.type === 'order.rested' && e.data.id === resting.id, 3000, 'order.rested');
    await eventually('the user channel', async () => (fake.userChannel.subscribedCount === 1 ? true : undefined));

    const matched = await live.maker.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.45', size: '5' });
    const matchedAt = Date.now();
    expect(matched).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    const fill = await stream.next((e) => e.type === 'fill.created' && e.data.order_id === resting.id, 3000, 'fill.created');
    const partial = await stream.next((e) => e.type === 'order.partially_filled' && e.data.id === resting.id, 3000, 'order.partially_filled');
    expect(fill.receivedAt - matchedAt).toBeLessThan(500);
    expect(fill.data).toMatchObject({ price: '0.45', quantity: '5', status: 'counted', venue: 'polymarket' });
    expect(partial.data).toMatchObject({ filled_quantity: '5', remaining_quantity: '3', status: 'partially_filled' });
    const { body: fills } = await call(trader.base, 'GET', `/v1/fills?order_id=${resting.id}`, { key: trader.live });
    expect(fills.data).toEqual([fill.data]);

    const tradeId = (fill.data.venue_fill_id as string).split(':')[0]!; // <trade id>:M:<our order's hash>
    const failed = await fetch(`${fake.baseUrl}/_fake/trades/${tradeId}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'FAILED' }) });
    expect(failed.status).toBe(200);
    const reversed = await stream.next((e) => e.type === 'fill.reversed' && e.data.id === fill.data.id, 5000, 'fill.reversed');
    expect(reversed.data).toMatchObject({ status: 'reversed', reversal_reason: expect.any(String) });
    const back = await stream.next((e) => e.data.id === resting.id && e.data.filled_quantity === '0' && e.id > partial.id, 5000, 'the order back to 0 filled');
    expect(back).toMatchObject({ type: 'order.rested', previous_status: 'partially_filled' });
    const ids = stream.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  } finally {
    stream.close();
  }
});
