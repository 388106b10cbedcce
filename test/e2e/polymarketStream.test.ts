/**
 * Live Polymarket fills by the user channel, and FAILED trades reversed, end to end through the
 * public REST API: a `mk_live_` key, a live subaccount with a Polymarket wallet key attached, the
 * Polymarket fake on loopback (docs/polymarket-fake.md: trades stay MATCHED until its control API
 * moves them) and real PostgreSQL. The reconciler's own fill sweep runs every 10 minutes here, so
 * what arrives within the test arrived by the account's user channel (or by the REST sweep the
 * channel runs on every (re)connect, which the test provokes when it wants it).
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../core/support/logger';
import type { PolymarketFake } from '../../fakes/polymarket/server';
import { call } from '../support/http';
import { encodings, eventually, placeLive, type LiveTrader } from '../support/kalshiLive';
import { newPolymarketTrader, PM_FED, startPolymarketLive, type PolymarketLive, type PolymarketMaker } from '../support/polymarketLive';

const alice = newPolymarketTrader();
const maker = newPolymarketTrader('100000');

const logLines: string[] = [];
const logger = pino({ level: 'trace' }, new Writable({ write: (chunk: Buffer, _encoding, done) => void (logLines.push(chunk.toString()), done()) })) as unknown as Logger;

let live: PolymarketLive;
let fake: PolymarketFake;
let trader: LiveTrader;
let makerClient: PolymarketMaker;
let fed: string;
let aliceSub: string;

const get = async (path: string) => {
  const answer = await call(trader.base, 'GET', path, { key: trader.live });
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
const aliceKey = () => fake.exchange.accountsOwnedBy(alice.address)[0]!.apiKey;
const aliceTradeReads = () => fake.requests.filter((r) => r.path === '/data/trades' && r.apiKey === aliceKey()).length;
const today = () => new Date().toISOString().slice(0, 10);

/** The fake's control API: a trade's settlement moves on (here: it fails). */
async function failTrade(tradeId: string): Promise<void> {
  const answer = await fetch(`${fake.baseUrl}/_fake/trades/${tradeId}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'FAILED' }) });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  live = await startPolymarketLive({
    database: 'polymarket_stream',
    name: 'Polymarket stream',
    wallet: alice,
    maker,
    fake: { controlApi: true, settlement: { automatic: false } },
    logger,
    env: {
      LIVE_FILL_SWEEP_INTERVAL_MS: '600000',
      LOG_LEVEL: 'trace',
    },
  });
  ({ fake, trader, fed, subaccountId: aliceSub, maker: makerClient } = live);
}, 60_000);
afterAll(async () => {
  await live?.close();
});

describe('live Polymarket: fills by the user channel, FAILED trades reversed', () => {
  let resting: { id: string; venue_order_id: string };
  let tradeId: string;

  it('a resting order filled by another participant: the fill arrives by the user channel, with no REST read of trades', async () => {
    resting = (await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '8' })).body;
    expect(resting).toMatchObject({ status: 'open' });
    await eventually('the account subscribed to its user channel', async () => (fake.userChannel.subscribedCount === 1 ? true : undefined));
    // The sweep every connection starts is done before the trade (it read the trades once).
    await eventually('the connect sweep', async () => (aliceTradeReads() >= 1 ? true : undefined));
    const readsBefore = aliceTradeReads();

    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.45', size: '5' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    const order = await eventually('the streamed fill', async () => {
      const read = await get(`/v1/orders/${resting.id}`);
      return read.filled_quantity === '5' ? read : undefined;
    });
    expect(order).toMatchObject({ status: 'partially_filled', filled_quantity: '5', remaining_quantity: '3', average_fill_price: '0.45' });
    expect(aliceTradeReads()).toBe(readsBefore);
    const [fill] = (await get(`/v1/fills?order_id=${resting.id}`)).data;
    expect(fill).toMatchObject({ price: '0.45', quantity: '5', is_taker: false, status: 'counted', venue_fill_id: expect.stringMatching(new RegExp(`^[0-9a-f-]{36}:M:${resting.venue_order_id}$`)) });
    tradeId = fill.venue_fill_id.split(':')[0];
    expect((await get(`/v1/positions?subaccount_id=${aliceSub}`)).data).toEqual([expect.objectContaining({ market_id: fed, side: 'yes', quantity: '5' })]);
  });

  it('the trade FAILS at the venue (control API): the stream reports it and the fill is reversed: position, P&L and order as if it never filled; two receipts', async () => {
    await failTrade(tradeId);
    const [fill] = await eventually('the reversal', async () => {
      const fills = (await get(`/v1/fills?order_id=${resting.id}`)).data;
      return fills[0]?.status === 'reversed' ? fills : undefined;
    });
    expect(fill).toMatchObject({ quantity: '5', price: '0.45', status: 'reversed', reversal_reason: 'the polymarket trade FAILED: it did not settle' });
    // Still resting at the venue with its 3 left (a failed trade does not put size back): `open`, nothing filled.
    expect(await get(`/v1/orders/${resting.id}`)).toMatchObject({ status: 'open', filled_quantity: '0', average_fill_price: null });
    expect((await get(`/v1/positions?subaccount_id=${aliceSub}`)).data).toEqual([]);
    const [day] = (await get(`/v1/risk/pnl_history?subaccount_id=${aliceSub}&from=${today()}&to=${today()}`)).data;
    expect(day).toMatchObject({ realized_pnl: '0', fees: '0', fills: 0, volume: '0' });
    const receipts = (await get(`/v1/receipts?order_id=${resting.id}`)).data; // newest first
    expect(receipts).toHaveLength(2);
    expect(receipts[0].content).toMatchObject({ kind: 'fill_reversal', reverses_receipt_id: receipts[1].id, reversed_fill: { venue_fill_id: fill.venue_fill_id, quantity: '5' }, order_status: 'open', order_filled_quantity: '0' });
    expect(receipts[1].content).toMatchObject({ fills: [{ venue_fill_id: fill.venue_fill_id }] });
    expect(logLines.filter((line) => line.includes('reversed a fill whose venue trade failed'))).toHaveLength(1);
  });

  it('a FAILED the stream never delivered (a frozen socket) is found by the sweep on the next connection; a filled order ends canceled, not filled', async () => {
    const buy = (await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.55', quantity: '5' })).body;
    expect(buy).toMatchObject({ status: 'open' });
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.55', size: '5' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    const filled = await eventually('the streamed fill', async () => {
      const read = await get(`/v1/orders/${buy.id}`);
      return read.status === 'filled' ? read : undefined;
    });
    expect(filled).toMatchObject({ filled_quantity: '5', average_fill_price: '0.55' });
    const [fill] = (await get(`/v1/fills?order_id=${buy.id}`)).data;

    fake.freezeWebSockets(true); // the FAILED event is lost
    await failTrade(fill.venue_fill_id.split(':')[0]);
    fake.freezeWebSockets(false);
    expect((await get(`/v1/fills?order_id=${buy.id}`)).data[0]).toMatchObject({ status: 'counted' });
    fake.dropWebSockets(); // the reconnect sweeps the window: REST lists the trade FAILED
    await eventually('the swept reversal', async () => ((await get(`/v1/fills?order_id=${buy.id}`)).data[0]?.status === 'reversed' ? true : undefined));
    // Matched in full, then failed: the venue is done with the order; nothing of it stands.
    expect(await get(`/v1/orders/${buy.id}`)).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0' });
    expect((await get(`/v1/receipts?order_id=${buy.id}`)).data).toHaveLength(2);
    // Sweeps after it report the failure again and change nothing.
    const reads = aliceTradeReads();
    fake.dropWebSockets();
    await eventually('the next connection\u2019s sweep', async () => (aliceTradeReads() > reads ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await get(`/v1/orders/${buy.id}`)).toMatchObject({ status: 'canceled', filled_quantity: '0' });
    expect((await get(`/v1/receipts?order_id=${buy.id}`)).data).toHaveLength(2);
  });

  it('the venue\u2019s own dead-man\u2019s switch: an armed switch heartbeats the account; when the venue\u2019s chain lapses it cancels the order, and the CANCELLATION reaches us by the stream', async () => {
    const order = (await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.20', quantity: '5' })).body;
    expect(order).toMatchObject({ status: 'open' });
    // The venue's chain lapses 50 ms after a beat (its real timeout is about 10 s; the core beats every 5 s).
    fake.heartbeats.setTimeout(50);
    const armed = await call(trader.base, 'PUT', '/v1/dead_mans_switch', { key: trader.live, body: { subaccount_id: aliceSub, timeout_seconds: 300 } });
    expect(armed.status).toBe(200);
    await eventually('a venue heartbeat', async () => (fake.requests.some((r) => r.path === '/v1/heartbeats' && r.apiKey === aliceKey() && r.status === 200) ? true : undefined));
    const canceled = await eventually('the CANCELLATION recorded', async () => {
      const read = await get(`/v1/orders/${order.id}`);
      return read.status === 'canceled' ? read : undefined;
    });
    expect(canceled).toMatchObject({ filled_quantity: '0', remaining_quantity: '0' });
    // Our own switch did not fire: the venue did it.
    expect((await call(trader.base, 'DELETE', `/v1/dead_mans_switch?subaccount_id=${aliceSub}`, { key: trader.live })).status).toBe(200);
  });

  it('a disarmed switch keeps the venue’s heartbeat chain going (stopping it would have the venue cancel every order of the account): the order stays resting', async () => {
    // The venue's chain lapses 8 s after a beat; the core beats every 5 s.
    fake.heartbeats.setTimeout(8000);
    const order = (await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.21', quantity: '5' })).body;
    expect(order).toMatchObject({ status: 'open' });
    const beats = () => fake.requests.filter((r) => r.path === '/v1/heartbeats' && r.apiKey === aliceKey() && r.status === 200).length;
    const before = beats();
    expect((await call(trader.base, 'PUT', '/v1/dead_mans_switch', { key: trader.live, body: { subaccount_id: aliceSub, timeout_seconds: 300 } })).status).toBe(200);
    await eventually('a venue heartbeat of the armed switch', async () => (beats() > before ? true : undefined), 15_000);
    expect((await call(trader.base, 'DELETE', `/v1/dead_mans_switch?subaccount_id=${aliceSub}`, { key: trader.live })).status).toBe(200);
    const disarmedAt = beats();
    // Two beats after the disarm: more than the venue's 8 s without our chain stopping.
    await eventually('two venue heartbeats after the disarm', async () => (beats() >= disarmedAt + 2 ? true : undefined), 20_000);
    const atVenue = fake.exchange.allOrders().find((o) => o.id === order.venue_order_id);
    expect(atVenue?.status).toBe('LIVE');
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('open');
  }, 40_000);

  it('the wallet key and the API secret and passphrase the channel subscribes with are in no log line (trace level)', async () => {
    const account = fake.exchange.accountsOwnedBy(alice.address)[0]!;
    const secrets = [alice.privateKey, alice.privateKey.slice(2), account.secret, account.passphrase].flatMap(encodings);
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });
});
