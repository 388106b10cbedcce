/**
 * The Kalshi fake's market lifecycle over real loopback HTTP and WebSocket: a market closes (its
 * resting orders canceled), is determined and amended after a dispute, and settles; each holder
 * gets one Settlement record (GET /portfolio/settlements), its cash and its position paid out; the
 * `market_lifecycle_v2` channel carries the notices, delivered once, never, several times or late.
 * Requests are signed by our signer as in kalshiFake.test.ts; the control API is driven over HTTP.
 *
 * Nothing here sleeps on a guessed clock: every wait is on a condition, and an absent notice is
 * proven absent by a later sentinel notice on the same socket (frames arrive in order).
 */
import WebSocket from 'ws';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { D } from '../../fakes/kalshi/fixedPoint';
import type { CatalogSeed, MarketSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';
import { v2OrderBody } from '../support/kalshiOrders';
import { kalshiFakeRequests, until, type Reply } from '../support/kalshiFakeRequests';

const alice = newKalshiKey('a1b2c3d4-0000-4000-8000-00000000a11c');
const bob = newKalshiKey('b0b0b0b0-0000-4000-8000-0000000000b0');

const MAIN = 'KXLIFE-26DEC-MAIN';
const SCALAR = 'KXLIFE-26DEC-SCALAR';
const VOID = 'KXLIFE-26DEC-VOID';
const PAUSE = 'KXLIFE-26DEC-PAUSE';
const NOTICE = ['SENT', 'LOST', 'REPEATED', 'LATE'].map((n) => `KXLIFE-26DEC-${n}`);
const SENTINEL = ['S1', 'S2', 'S3', 'S4'].map((n) => `KXLIFE-26DEC-${n}`);
const CLOSE_TIME = '2099-12-31T23:59:00Z';

const market = (ticker: string): MarketSeed => ({
  ticker,
  event_ticker: ticker === VOID ? 'KXLIFE-26DECV' : 'KXLIFE-26DEC',
  series_ticker: 'KXLIFE',
  title: `Lifecycle test market ${ticker}`,
  close_time: CLOSE_TIME,
});

const catalog: CatalogSeed = {
  series: [{ ticker: 'KXLIFE', title: 'Lifecycle (fake)', fee_type: 'quadratic', fee_multiplier: '1' }],
  markets: [MAIN, SCALAR, VOID, PAUSE, ...NOTICE, ...SENTINEL].map(market),
};

interface Frame {
  type: string;
  id?: number;
  sid?: number;
  seq?: number;
  msg?: any;
}

interface Socket {
  readonly ws: WebSocket;
  readonly frames: Frame[];
}

/** The fake's clock runs ahead of the wall clock by `offsetMs`, moved forward between settlements. */
let offsetMs = 0;
const fakeNow = (): number => Date.now() + offsetMs;

let fake: KalshiFake;
const sockets: Socket[] = [];

beforeAll(async () => {
  fake = await KalshiFake.start({
    catalog,
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '1000.00', keys: [bob] },
    ],
    controlApi: true,
    rateLimits: false,
    clock: fakeNow,
    // The fake's clock is moved hours ahead of the signer's: the window must not refuse that.
    timestampWindow: { maxPastMs: 24 * 3_600_000, maxFutureMs: 24 * 3_600_000 },
    pingIntervalMs: 60_000,
  });
});

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await fake.close();
});

const { call, control } = kalshiFakeRequests(() => fake);

async function openSocket(key: KalshiKey, channels: string[]): Promise<Socket & { sids: Record<string, number> }> {
  const ws = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(key.keyId, key.privateKey).webSocket() } });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels } }));
  const acks = await until(() => {
    const got = frames.filter((f) => f.type === 'subscribed' && f.id === 1);
    return got.length === channels.length ? got : undefined;
  });
  const socket = { ws, frames, sids: Object.fromEntries(acks.map((a) => [a.msg.channel as string, a.msg.sid as number])) };
  sockets.push(socket);
  return socket;
}

/** The market_lifecycle_v2 frames of one market (and event type) a socket has received so far. */
const notices = (socket: Socket, ticker: string, eventType?: string): Frame[] =>
  socket.frames.filter((f) => f.type === 'market_lifecycle_v2' && f.msg.market_ticker === ticker && (eventType === undefined || f.msg.event_type === eventType));

const waitNotices = (socket: Socket, ticker: string, eventType: string, count = 1): Promise<Frame[]> =>
  until(() => {
    const got = notices(socket, ticker, eventType);
    return got.length >= count ? got : undefined;
  });

/** A YES holder (alice, bid resting first) and a NO holder (bob, selling YES into it) of 10 contracts at `price`. */
async function trade(ticker: string, price: string): Promise<void> {
  const bid = await call(alice, 'POST', '/portfolio/events/orders', v2OrderBody(ticker, { price, count: '10.00' }));
  expect(bid.status).toBe(201);
  const ask = await call(bob, 'POST', '/portfolio/events/orders', v2OrderBody(ticker, { side: 'ask', price, count: '10.00', time_in_force: 'immediate_or_cancel' }));
  expect(ask.body).toMatchObject({ fill_count: '10.00', remaining_count: '0.00' });
}

const balanceOf = async (key: KalshiKey): Promise<InstanceType<typeof D>> => new D((await call(key, 'GET', '/portfolio/balance')).body.balance_dollars as string);
const settlementsOf = async (key: KalshiKey, query = ''): Promise<any> => (await call(key, 'GET', `/portfolio/settlements${query}`)).body;

describe('Kalshi fake: close, determination, dispute and settlement of a market', () => {
  let aliceSocket: Socket & { sids: Record<string, number> };
  let bobSocket: Socket & { sids: Record<string, number> };
  let aliceResting: string;
  let bobResting: string;
  let mainSettledSeconds: number;

  beforeAll(async () => {
    aliceSocket = await openSocket(alice, ['user_orders', 'market_lifecycle_v2']);
    bobSocket = await openSocket(bob, ['market_lifecycle_v2']);
  });

  it('subscribes to market_lifecycle_v2 like any channel, with a sid of its own', () => {
    expect(aliceSocket.sids).toEqual({ user_orders: 1, market_lifecycle_v2: 2 });
    expect(bobSocket.sids).toEqual({ market_lifecycle_v2: 1 });
  });

  it('closes early: resting orders canceled (REST and user_order), close_time moved, close_date_updated to every subscriber, orders refused', async () => {
    await trade(MAIN, '0.4000');
    aliceResting = (await call(alice, 'POST', '/portfolio/events/orders', v2OrderBody(MAIN, { price: '0.3000', count: '5.00' }))).body.order_id;
    bobResting = (await call(bob, 'POST', '/portfolio/events/orders', v2OrderBody(MAIN, { side: 'ask', price: '0.7000', count: '5.00' }))).body.order_id;
    expect((await call(null, 'GET', `/markets/${MAIN}/orderbook`)).body.orderbook_fp.yes_dollars).toEqual([['0.3000', '5.00']]);

    const before = Math.floor(fakeNow() / 1000);
    const closed = await control(`/markets/${MAIN}/close`);
    const after = Math.floor(fakeNow() / 1000);
    expect(closed.status).toBe(200);
    expect(closed.body.market).toMatchObject({ ticker: MAIN, status: 'closed', result: '', expiration_value: '' });
    expect(closed.body.market).not.toHaveProperty('settlement_value_dollars');
    expect(closed.body.market).not.toHaveProperty('settlement_ts');
    const closeSeconds = Date.parse(closed.body.market.close_time) / 1000;
    expect(closeSeconds).toBeGreaterThanOrEqual(before);
    expect(closeSeconds).toBeLessThanOrEqual(after);
    expect(closed.body.market.close_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await call(null, 'GET', `/markets/${MAIN}`)).body.market).toEqual(closed.body.market);

    // The book empties: both resting orders are canceled, each as any exchange-side cancel.
    expect((await call(alice, 'GET', `/portfolio/orders/${aliceResting}`)).body.order).toMatchObject({ status: 'canceled', remaining_count_fp: '0.00' });
    expect((await call(bob, 'GET', `/portfolio/orders/${bobResting}`)).body.order).toMatchObject({ status: 'canceled', remaining_count_fp: '0.00' });
    const frame = await until(() => aliceSocket.frames.find((f) => f.type === 'user_order' && f.msg.order_id === aliceResting && f.msg.status === 'canceled'));
    expect(frame).toMatchObject({ sid: 1, seq: expect.any(Number), msg: { ticker: MAIN, remaining_count_fp: '0.00', fill_count_fp: '0.00' } });
    expect((await call(null, 'GET', `/markets/${MAIN}/orderbook`)).body).toEqual({ orderbook_fp: { yes_dollars: [], no_dollars: [] } });

    for (const socket of [aliceSocket, bobSocket]) {
      const [notice] = await waitNotices(socket, MAIN, 'close_date_updated');
      expect(notice).toEqual({ type: 'market_lifecycle_v2', sid: socket.sids.market_lifecycle_v2, seq: expect.any(Number), msg: { market_ticker: MAIN, event_type: 'close_date_updated', close_ts: closeSeconds } });
    }

    // After the close every order operation is refused, cancels included.
    const refused = await call(alice, 'POST', '/portfolio/events/orders', v2OrderBody(MAIN, { price: '0.3500' }));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: { code: 'market_closed', message: 'market closed', service: 'exchange' } });
    const cancel = await call(alice, 'DELETE', `/portfolio/events/orders/${aliceResting}`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('market_closed');
    expect((await control(`/markets/${MAIN}/close`)).status).toBe(409);
  });

  it('is determined yes, disputed and amended to no: the market JSON and two determined notices follow', async () => {
    const determined = await control(`/markets/${MAIN}/determine`, { result: 'yes', expiration_value: '4.25' });
    expect(determined.status).toBe(200);
    expect(determined.body.market).toMatchObject({ status: 'determined', result: 'yes', settlement_value_dollars: '1.0000', expiration_value: '4.25' });
    expect(determined.body.market).not.toHaveProperty('settlement_ts');
    const [first] = await waitNotices(bobSocket, MAIN, 'determined');
    expect(first!.msg).toEqual({ market_ticker: MAIN, event_type: 'determined', result: 'yes', settlement_value: '1.0000', determination_ts: expect.any(Number) });

    // A settle before the timer is a test's choice; a disputed market cannot settle.
    const disputed = await control(`/markets/${MAIN}/dispute`);
    expect(disputed.body.market).toMatchObject({ status: 'disputed', result: 'yes' });
    expect((await control(`/markets/${MAIN}/settle`)).status).toBe(409);

    const amended = await control(`/markets/${MAIN}/determine`, { result: 'no' });
    expect(amended.body.market).toMatchObject({ status: 'amended', result: 'no', settlement_value_dollars: '0.0000' });
    expect((await call(null, 'GET', `/markets/${MAIN}`)).body.market).toMatchObject({ status: 'amended', result: 'no' });
    const [, second] = await waitNotices(bobSocket, MAIN, 'determined', 2);
    expect(second!.msg).toMatchObject({ event_type: 'determined', result: 'no', settlement_value: '0.0000' });
    expect(second!.seq).toBeGreaterThan(first!.seq!);

    // status=closed: every market past its close and not finalized; settled: finalized only.
    const closedList = (await call(null, 'GET', '/markets?status=closed')).body.markets.map((m: any) => m.ticker);
    expect(closedList).toEqual([MAIN]);
    expect((await call(null, 'GET', '/markets?status=settled')).body.markets).toEqual([]);
    expect((await call(null, 'GET', '/markets?status=open')).body.markets.map((m: any) => m.ticker)).not.toContain(MAIN);
  });

  it('settles: one record per holder, cash up by the revenue, positions paid out, the same on every read', async () => {
    const [aliceBefore, bobBefore] = [await balanceOf(alice), await balanceOf(bob)];
    // alice paid 10 x 0.40 as the maker (no maker fee on a quadratic series); bob 10 x 0.60 plus the
    // taker fee 0.07 x 10 x 0.4 x 0.6 = 0.168.
    expect(aliceBefore.toFixed(4)).toBe('996.0000');
    expect(bobBefore.toFixed(4)).toBe('993.8320');

    offsetMs += 3_600_000;
    const settled = await control(`/markets/${MAIN}/settle`);
    expect(settled.status).toBe(200);
    expect(settled.body.market).toMatchObject({ status: 'finalized', result: 'no', settlement_value_dollars: '0.0000' });
    const settledTime = settled.body.market.settlement_ts as string;
    mainSettledSeconds = Math.floor(Date.parse(settledTime) / 1000);
    expect(settledTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const aliceRecord = {
      ticker: MAIN,
      exchange_index: 0,
      event_ticker: 'KXLIFE-26DEC',
      market_result: 'no',
      yes_count_fp: '10.00',
      yes_total_cost_dollars: '4.0000',
      no_count_fp: '0.00',
      no_total_cost_dollars: '0.0000',
      revenue: 0,
      settled_time: expect.any(String),
      fee_cost: '0.0000',
      value: 0,
    };
    const bobRecord = { ...aliceRecord, yes_count_fp: '0.00', yes_total_cost_dollars: '0.0000', no_count_fp: '10.00', no_total_cost_dollars: '6.0000', revenue: 1000, fee_cost: '0.1680' };
    expect(settled.body.settlements).toEqual([
      { user_id: 'user-alice', settlement: aliceRecord },
      { user_id: 'user-bob', settlement: bobRecord },
    ]);

    const aliceList = await settlementsOf(alice);
    expect(aliceList).toEqual({ settlements: [aliceRecord], cursor: '' });
    // The record's settled_time is the market's settlement_ts.
    expect(aliceList.settlements[0].settled_time).toBe(settledTime);
    expect(await settlementsOf(bob)).toEqual({ settlements: [bobRecord], cursor: '' });
    expect(await settlementsOf(alice)).toEqual(aliceList);

    expect((await balanceOf(alice)).minus(aliceBefore).toFixed(4)).toBe('0.0000');
    expect((await balanceOf(bob)).minus(bobBefore).toFixed(4)).toBe('10.0000');
    expect((await call(bob, 'GET', '/portfolio/balance')).body).toMatchObject({ balance: 100383, balance_dollars: '1003.8320', portfolio_value: 0 });

    for (const key of [alice, bob]) {
      expect((await call(key, 'GET', `/portfolio/positions?ticker=${MAIN}`)).body.market_positions).toEqual([]);
      expect((await call(key, 'GET', '/portfolio/positions')).body.market_positions).toEqual([]);
      const settledRows = (await call(key, 'GET', `/portfolio/positions?settlement_status=settled`)).body.market_positions;
      expect(settledRows).toEqual([expect.objectContaining({ ticker: MAIN, position_fp: '0.00', market_exposure_dollars: '0.000000' })]);
    }
    expect((await call(alice, 'GET', '/portfolio/positions?settlement_status=settled')).body.market_positions[0].realized_pnl_dollars).toBe('-4.000000');
    expect((await call(bob, 'GET', '/portfolio/positions?settlement_status=all')).body.market_positions[0].realized_pnl_dollars).toBe('4.000000');
    expect((await call(null, 'GET', `/markets/${MAIN}`)).body.market.open_interest_fp).toBe('0.00');

    const [notice] = await waitNotices(aliceSocket, MAIN, 'settled');
    expect(notice!.msg).toEqual({ market_ticker: MAIN, event_type: 'settled', settled_ts: mainSettledSeconds });

    // Once only: a second settle is refused and writes nothing.
    const again = await control(`/markets/${MAIN}/settle`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await settlementsOf(alice)).settlements).toHaveLength(1);
    expect((await control(`/markets/${MAIN}/determine`, { result: 'yes' })).status).toBe(409);
    expect((await call(null, 'GET', '/markets?status=settled')).body.markets.map((m: any) => m.ticker)).toEqual([MAIN]);
    expect((await call(null, 'GET', '/markets?status=closed')).body.markets).toEqual([]);
  });

  it('settles a scalar at 0.37: 10 YES earn 370 cents, 10 NO earn 630', async () => {
    await trade(SCALAR, '0.5000');
    expect((await control(`/markets/${SCALAR}/determine`, { result: 'scalar' })).status).toBe(400);
    expect((await control(`/markets/${SCALAR}/determine`, { result: 'scalar', settlement_value_dollars: '0.375' })).status).toBe(400);
    const determined = await control(`/markets/${SCALAR}/determine`, { result: 'scalar', settlement_value_dollars: '0.3700' });
    expect(determined.body.market).toMatchObject({ status: 'determined', result: 'scalar', settlement_value_dollars: '0.3700' });
    const [notice] = await waitNotices(aliceSocket, SCALAR, 'determined');
    expect(notice!.msg).toMatchObject({ result: 'scalar', settlement_value: '0.3700' });

    const [aliceBefore, bobBefore] = [await balanceOf(alice), await balanceOf(bob)];
    offsetMs += 3_600_000;
    const settled = await control(`/markets/${SCALAR}/settle`);
    expect(settled.body.settlements).toEqual([
      { user_id: 'user-alice', settlement: expect.objectContaining({ market_result: 'scalar', yes_count_fp: '10.00', yes_total_cost_dollars: '5.0000', no_count_fp: '0.00', revenue: 370, value: 37, fee_cost: '0.0000' }) },
      // bob's taker fee: 0.07 x 10 x 0.5 x 0.5 = 0.175.
      { user_id: 'user-bob', settlement: expect.objectContaining({ market_result: 'scalar', no_count_fp: '10.00', no_total_cost_dollars: '5.0000', yes_count_fp: '0.00', revenue: 630, value: 37, fee_cost: '0.1750' }) },
    ]);
    expect((await balanceOf(alice)).minus(aliceBefore).toFixed(4)).toBe('3.7000');
    expect((await balanceOf(bob)).minus(bobBefore).toFixed(4)).toBe('6.3000');
  });

  it('settles a void market at cost: revenue is each side’s total cost, no value', async () => {
    await trade(VOID, '0.3000');
    expect((await control(`/markets/${VOID}/determine`, { result: 'void', settlement_value_dollars: '0.5000' })).status).toBe(400);
    const determined = await control(`/markets/${VOID}/determine`, { result: 'void' });
    expect(determined.body.market).toMatchObject({ status: 'determined', result: 'void' });
    expect(determined.body.market).not.toHaveProperty('settlement_value_dollars');
    const [notice] = await waitNotices(aliceSocket, VOID, 'determined');
    expect(notice!.msg).toEqual({ market_ticker: VOID, event_type: 'determined', result: 'void', determination_ts: expect.any(Number) });

    const [aliceBefore, bobBefore] = [await balanceOf(alice), await balanceOf(bob)];
    offsetMs += 3_600_000;
    const settled = await control(`/markets/${VOID}/settle`);
    expect(settled.body.market).not.toHaveProperty('settlement_value_dollars');
    expect(settled.body.settlements).toEqual([
      { user_id: 'user-alice', settlement: expect.objectContaining({ market_result: 'void', event_ticker: 'KXLIFE-26DECV', yes_total_cost_dollars: '3.0000', revenue: 300, value: null }) },
      { user_id: 'user-bob', settlement: expect.objectContaining({ market_result: 'void', no_total_cost_dollars: '7.0000', revenue: 700, value: null, fee_cost: '0.1470' }) },
    ]);
    expect((await balanceOf(alice)).minus(aliceBefore).toFixed(4)).toBe('3.0000');
    expect((await balanceOf(bob)).minus(bobBefore).toFixed(4)).toBe('7.0000');
  });

  it('filters GET /portfolio/settlements by ticker, event_ticker and min_ts / max_ts, newest first, paged by cursor', async () => {
    const all = (await settlementsOf(alice)).settlements.map((s: any) => s.ticker);
    expect(all).toEqual([VOID, SCALAR, MAIN]);
    expect((await settlementsOf(alice, `?ticker=${SCALAR}`)).settlements.map((s: any) => s.ticker)).toEqual([SCALAR]);
    expect((await settlementsOf(alice, '?event_ticker=KXLIFE-26DECV')).settlements.map((s: any) => s.ticker)).toEqual([VOID]);
    expect((await settlementsOf(alice, `?min_ts=${mainSettledSeconds + 1}`)).settlements.map((s: any) => s.ticker)).toEqual([VOID, SCALAR]);
    expect((await settlementsOf(alice, `?max_ts=${mainSettledSeconds}`)).settlements.map((s: any) => s.ticker)).toEqual([MAIN]);
    expect((await settlementsOf(alice, `?min_ts=${mainSettledSeconds}&max_ts=${mainSettledSeconds}`)).settlements.map((s: any) => s.ticker)).toEqual([MAIN]);

    const first = await settlementsOf(alice, '?limit=2');
    expect(first.settlements.map((s: any) => s.ticker)).toEqual([VOID, SCALAR]);
    expect(first.cursor).not.toBe('');
    const second = await settlementsOf(alice, `?limit=2&cursor=${first.cursor}`);
    expect(second).toEqual({ settlements: [expect.objectContaining({ ticker: MAIN })], cursor: '' });
    const tooMany = await call(alice, 'GET', '/portfolio/settlements?limit=1001');
    expect(tooMany.status).toBe(400);
    expect((await call(null, 'GET', '/portfolio/settlements')).status).toBe(401);
  });

  it('pauses and resumes a market: deactivated refuses orders, activated cancels what rested', async () => {
    const resting = (await call(alice, 'POST', '/portfolio/events/orders', v2OrderBody(PAUSE, { price: '0.2000' }))).body.order_id;
    const paused = await control(`/markets/${PAUSE}/deactivate`);
    expect(paused.body.market.status).toBe('inactive');
    expect((await waitNotices(bobSocket, PAUSE, 'deactivated'))[0]!.msg).toEqual({ market_ticker: PAUSE, event_type: 'deactivated', is_deactivated: true });
    expect((await call(alice, 'POST', '/portfolio/events/orders', v2OrderBody(PAUSE, { price: '0.2100' }))).status).toBe(409);
    expect((await call(null, 'GET', '/markets?status=paused')).body.markets.map((m: any) => m.ticker)).toEqual([PAUSE]);

    const resumed = await control(`/markets/${PAUSE}/activate`);
    expect(resumed.body.market.status).toBe('active');
    expect((await waitNotices(bobSocket, PAUSE, 'activated'))[0]!.msg).toEqual({ market_ticker: PAUSE, event_type: 'activated', is_deactivated: false });
    expect((await call(alice, 'GET', `/portfolio/orders/${resting}`)).body.order.status).toBe('canceled');
    await until(() => aliceSocket.frames.find((f) => f.type === 'user_order' && f.msg.order_id === resting && f.msg.status === 'canceled'));
  });

  it('answers control errors in its own style: unknown market 404, wrong state 409, bad body 400', async () => {
    expect(await control('/markets/KXNOPE/close')).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'unknown market KXNOPE' } } });
    expect((await control(`/markets/${PAUSE}/settle`)).body.error).toEqual({ code: 'conflict', message: `market ${PAUSE} is active, only a determined or amended market settles` });
    expect((await control(`/markets/${PAUSE}/determine`, { result: 'maybe' })).body.error.code).toBe('bad_request');
    expect((await control(`/markets/${PAUSE}/close`, { notice: 'sometimes' })).status).toBe(400);
    expect((await control(`/markets/${PAUSE}/close`, { notice: 'repeated', repeat: 0 })).status).toBe(400);
  });
});

describe('Kalshi fake: how lifecycle notices are delivered', () => {
  let socket: Socket & { sids: Record<string, number> };
  const [sent, lost, repeated, late] = NOTICE as [string, string, string, string];
  const [s1, s2, s3, s4] = SENTINEL as [string, string, string, string];

  beforeAll(async () => {
    socket = await openSocket(bob, ['market_lifecycle_v2']);
  });

  /** Determines and settles a market with its notice delivered as asked. */
  async function settle(ticker: string, notice: Record<string, unknown> = {}): Promise<void> {
    expect((await control(`/markets/${ticker}/determine`, { result: 'yes' })).status).toBe(200);
    expect((await control(`/markets/${ticker}/settle`, notice)).status).toBe(200);
  }

  it('sends a notice once by default', async () => {
    await settle(sent);
    await settle(s1);
    await waitNotices(socket, s1, 'settled');
    expect(notices(socket, sent, 'settled')).toHaveLength(1);
  });

  it('loses a notice: none arrives, though a later one does', async () => {
    expect((await control(`/markets/${lost}/determine`, { result: 'no', notice: 'lost' })).status).toBe(200);
    expect((await control(`/markets/${lost}/settle`, { notice: 'lost' })).status).toBe(200);
    await settle(s2);
    await waitNotices(socket, s2, 'settled');
    expect(notices(socket, lost, 'determined')).toEqual([]);
    expect(notices(socket, lost, 'settled')).toEqual([]);
    // Only the early close was announced for it.
    expect(notices(socket, lost).map((f) => f.msg.event_type)).toEqual(['close_date_updated']);
    expect((await call(null, 'GET', `/markets/${lost}`)).body.market).toMatchObject({ status: 'finalized', result: 'no' });
  });

  it('repeats a notice: n identical messages, each its own frame and seq', async () => {
    expect((await control(`/markets/${repeated}/determine`, { result: 'yes', notice: 'repeated' })).status).toBe(200);
    expect((await control(`/markets/${repeated}/settle`, { notice: 'repeated', repeat: 3 })).status).toBe(200);
    await settle(s3);
    await waitNotices(socket, s3, 'settled');
    expect(notices(socket, repeated, 'determined')).toHaveLength(2);
    const copies = notices(socket, repeated, 'settled');
    expect(copies).toHaveLength(3);
    expect(new Set(copies.map((f) => JSON.stringify(f.msg))).size).toBe(1);
    const seqs = copies.map((f) => f.seq!);
    expect(seqs).toEqual([seqs[0]!, seqs[0]! + 1, seqs[0]! + 2]);
  });

  // The notice is proven late by its seq: it comes after the sentinel's, though its market settled first.
  it('sends a notice late: after the REST record exists, and after a notice published later', async () => {
    await trade(late, '0.6000');
    await control(`/markets/${late}/determine`, { result: 'yes' });
    expect((await control(`/markets/${late}/settle`, { notice: 'late', late_ms: 1000 })).status).toBe(200);
    // The REST side is done at once: the records, the market.
    expect((await settlementsOf(alice, `?ticker=${late}`)).settlements).toEqual([expect.objectContaining({ ticker: late, market_result: 'yes', revenue: 1000, value: 100 })]);
    expect((await settlementsOf(bob, `?ticker=${late}`)).settlements).toEqual([expect.objectContaining({ ticker: late, revenue: 0, no_total_cost_dollars: '4.0000' })]);
    const market = (await call(null, 'GET', `/markets/${late}`)).body.market;
    expect(market).toMatchObject({ status: 'finalized', settlement_ts: expect.any(String) });
    await settle(s4);
    const [sentinel] = await waitNotices(socket, s4, 'settled');
    const [delayed] = await waitNotices(socket, late, 'settled');
    expect(delayed!.seq).toBeGreaterThan(sentinel!.seq!);
    expect(delayed!.msg).toEqual({ market_ticker: late, event_type: 'settled', settled_ts: Math.floor(Date.parse(market.settlement_ts) / 1000) });
    expect(notices(socket, late, 'settled')).toHaveLength(1);
    // Every frame of the channel numbered in order, no gap: lost notices were never sent.
    const seqs = socket.frames.filter((f) => f.type === 'market_lifecycle_v2').map((f) => f.seq!);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });
});
