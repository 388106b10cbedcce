/**
 * The Kalshi fake's public market data over real loopback HTTP and WebSocket: the quote and volume
 * fields of a market, GET /markets/trades, candlesticks, the `orderbook_delta`, `ticker` and `trade`
 * channels (with update_subscription), and the faults Kalshi's feed really has (a sequence gap, a
 * frozen feed, dropped connections). Every book change comes from real orders on the fake's book:
 * participants placed in-process (`placeOrderAs`) or signed REST orders of our own client.
 *
 * The fake's clock is driven by the test (candles, 24-hour fields). Nothing sleeps on a guessed
 * delay: every wait is on a condition, and an absent frame is proven absent by a later frame on the
 * same socket (frames arrive in order).
 */
import WebSocket from 'ws';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { D } from '../../fakes/kalshi/fixedPoint';
import { TAPERED_DECI_CENT_RANGES, type CatalogSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';
import { kalshiFakeRequests, until, type Reply } from '../support/kalshiFakeRequests';

const alice = newKalshiKey('a1b2c3d4-0000-4000-8000-00000000a11c');
const bob = newKalshiKey('b0b0b0b0-0000-4000-8000-0000000000b0');

const A = 'KXMD-26DEC-A';
const B = 'KXMD-26DEC-B';
/** Fractional contracts, sub-cent ticks near the edges. */
const C = 'KXMD-26DEC-C';
const MAKER = 'user-maker';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

const catalog: CatalogSeed = {
  series: [{ ticker: 'KXMD', title: 'Market data (fake)', fee_type: 'quadratic', fee_multiplier: '1' }],
  markets: [
    ...[A, B].map((ticker) => ({
      ticker,
      event_ticker: 'KXMD-26DEC',
      series_ticker: 'KXMD',
      title: `Market data test ${ticker}`,
      close_time: '2099-12-31T23:59:00Z',
    })),
    {
      ticker: C,
      event_ticker: 'KXMD-26DEC',
      series_ticker: 'KXMD',
      title: `Market data test ${C}`,
      close_time: '2099-12-31T23:59:00Z',
      price_ranges: TAPERED_DECI_CENT_RANGES,
      price_level_structure: 'tapered_deci_cent',
      fractional_trading_enabled: true,
    },
  ],
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
  nextId: number;
}

/** The fake's clock, moved by the tests; starts on a whole hour so candle periods are predictable. */
let fakeMs = 0;
let fake: KalshiFake;
const sockets: Socket[] = [];

async function startFake(pingIntervalMs = 60_000): Promise<void> {
  fakeMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  fake = await KalshiFake.start({
    catalog,
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '1000.00', keys: [bob] },
      { userId: MAKER, balanceDollars: '100000.00' },
      { userId: 'user-p1', balanceDollars: '100000.00' },
      { userId: 'user-p2', balanceDollars: '100000.00' },
    ],
    controlApi: true,
    rateLimits: false,
    clock: () => fakeMs,
    // The fake's clock is set by the test, away from the signer's: the window must not refuse that.
    timestampWindow: { maxPastMs: 30 * 24 * 3_600_000, maxFutureMs: 30 * 24 * 3_600_000 },
    pingIntervalMs,
  });
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await fake.close();
});

const { call, control } = kalshiFakeRequests(() => fake);

/** Another participant's good-till-canceled order (or `extra` says otherwise), straight onto the book. */
function order(userId: string, ticker: string, side: 'bid' | 'ask', price: string, count: string, extra: Record<string, unknown> = {}): any {
  const answer = fake.placeOrderAs(userId, {
    ticker,
    side,
    price,
    count,
    time_in_force: 'good_till_canceled',
    self_trade_prevention_type: 'taker_at_cross',
    ...extra,
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function connect(key: KalshiKey): Promise<Socket> {
  const ws = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(key.keyId, key.privateKey).webSocket() } });
  const socket: Socket = { ws, frames: [], nextId: 1 };
  ws.on('message', (data) => socket.frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.once('error', reject);
  });
  sockets.push(socket);
  return socket;
}

function command(socket: Socket, cmd: string, params?: Record<string, unknown>): number {
  const id = socket.nextId++;
  socket.ws.send(JSON.stringify(params === undefined ? { id, cmd } : { id, cmd, params }));
  return id;
}

/** Subscribes and waits for one `subscribed` per channel; returns the sid of each channel. */
async function subscribe(socket: Socket, channels: string[], params: Record<string, unknown> = {}): Promise<Record<string, number>> {
  const id = command(socket, 'subscribe', { channels, ...params });
  const acks = await until(() => {
    const got = socket.frames.filter((f) => f.type === 'subscribed' && f.id === id);
    return got.length === channels.length ? got : undefined;
  });
  return Object.fromEntries(acks.map((a) => [a.msg.channel as string, a.msg.sid as number]));
}

const framesOn = (socket: Socket, sid: number): Frame[] => socket.frames.filter((f) => f.sid === sid && f.type !== 'subscribed');
const ofType = (socket: Socket, type: string): Frame[] => socket.frames.filter((f) => f.type === type);

async function waitFrames(socket: Socket, pick: (s: Socket) => Frame[], count: number): Promise<Frame[]> {
  return until(() => {
    const got = pick(socket);
    return got.length >= count ? got : undefined;
  });
}

const units = (count: string): number => new D(count).times(100).toNumber();
const countFp = (u: number): string => new D(u).div(100).toFixed(2);

/** A client's copy of a book, kept from one orderbook subscription's snapshot and deltas. */
class LocalBook {
  private readonly sides = { yes: new Map<string, number>(), no: new Map<string, number>() };

  apply(frame: Frame): void {
    if (frame.type === 'orderbook_snapshot') {
      for (const side of ['yes', 'no'] as const) {
        this.sides[side].clear();
        for (const [price, count] of (frame.msg[`${side}_dollars_fp`] ?? []) as string[][]) this.sides[side].set(price!, units(count!));
      }
    } else if (frame.type === 'orderbook_delta') {
      const side = this.sides[frame.msg.side as 'yes' | 'no'];
      const next = (side.get(frame.msg.price_dollars) ?? 0) + units(frame.msg.delta_fp);
      if (next < 0) throw new Error(`level ${frame.msg.side} ${frame.msg.price_dollars} below zero`);
      if (next === 0) side.delete(frame.msg.price_dollars);
      else side.set(frame.msg.price_dollars, next);
    }
  }

  /** As GET /markets/{ticker}/orderbook lists it: bids only, best (highest) last. */
  asRest(): { yes_dollars: string[][]; no_dollars: string[][] } {
    const levels = (m: Map<string, number>): string[][] =>
      [...m.entries()].sort(([a], [b]) => new D(a).comparedTo(new D(b))).map(([price, u]) => [price, countFp(u)]);
    return { yes_dollars: levels(this.sides.yes), no_dollars: levels(this.sides.no) };
  }
}

function bookFrom(frames: readonly Frame[]): LocalBook {
  const book = new LocalBook();
  for (const f of frames) book.apply(f);
  return book;
}

async function restBook(ticker: string): Promise<unknown> {
  return (await call(null, 'GET', `/markets/${ticker}/orderbook`)).body.orderbook_fp;
}

const seqs = (frames: readonly Frame[]): number[] => frames.map((f) => f.seq!);
const consecutiveFrom1 = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('Kalshi fake: market quote and trading fields', () => {
  beforeEach(() => startFake());

  it('shows the best bid and ask with their sizes, the last trade, volumes, open interest and a day ago', async () => {
    const empty = (await call(null, 'GET', `/markets/${A}`)).body.market;
    expect(empty).toMatchObject({
      yes_bid_dollars: '0.0000',
      yes_bid_size_fp: '0.00',
      yes_ask_dollars: '1.0000',
      yes_ask_size_fp: '0.00',
      no_bid_dollars: '0.0000',
      no_ask_dollars: '1.0000',
      last_price_dollars: '0.0000',
      previous_yes_bid_dollars: '0.0000',
      previous_yes_ask_dollars: '1.0000',
      previous_price_dollars: '0.0000',
      volume_fp: '0.00',
      volume_24h_fp: '0.00',
      open_interest_fp: '0.00',
      liquidity_dollars: '0.0000',
      updated_time: expect.stringMatching(GO_TIME),
    });

    order(MAKER, A, 'bid', '0.4200', '10');
    order(MAKER, A, 'ask', '0.4700', '5');
    fakeMs += 60_000;
    // Bob takes 2 of the 5 offered at 0.47.
    order('user-bob', A, 'bid', '0.4700', '2', { time_in_force: 'immediate_or_cancel' });
    const traded = (await call(null, 'GET', `/markets/${A}`)).body.market;
    expect(traded).toMatchObject({
      yes_bid_dollars: '0.4200',
      yes_bid_size_fp: '10.00',
      yes_ask_dollars: '0.4700',
      yes_ask_size_fp: '3.00',
      no_bid_dollars: '0.5300',
      no_ask_dollars: '0.5800',
      last_price_dollars: '0.4700',
      volume_fp: '2.00',
      volume_24h_fp: '2.00',
      open_interest_fp: '2.00',
      previous_price_dollars: '0.0000',
    });
    const listed = (await call(null, 'GET', `/markets?tickers=${A}`)).body.markets[0];
    expect(listed).toEqual(traded);

    // A day and a bit later: the 24-hour volume is gone, and "a day ago" is the state after the trade.
    fakeMs += 25 * 3_600_000;
    order(MAKER, A, 'bid', '0.4300', '1');
    const dayLater = (await call(null, 'GET', `/markets/${A}`)).body.market;
    expect(dayLater).toMatchObject({
      yes_bid_dollars: '0.4300',
      volume_fp: '2.00',
      volume_24h_fp: '0.00',
      previous_yes_bid_dollars: '0.4200',
      previous_yes_ask_dollars: '0.4700',
      previous_price_dollars: '0.4700',
    });
  });
});

describe('Kalshi fake: GET /markets/trades', () => {
  beforeEach(() => startFake());

  it('lists every match on the books, unsigned, newest first, in the recorded shape', async () => {
    order(MAKER, A, 'ask', '0.4500', '10');
    order(MAKER, A, 'bid', '0.4000', '10');
    order('user-bob', A, 'bid', '0.4500', '3', { time_in_force: 'immediate_or_cancel' });
    fakeMs += 1_234;
    // Alice sells YES into the maker's bid over signed REST: a taker selling YES bought NO.
    const sold = await call(alice, 'POST', '/portfolio/events/orders', {
      ticker: A,
      side: 'ask',
      price: '0.4000',
      count: '2.00',
      time_in_force: 'immediate_or_cancel',
      self_trade_prevention_type: 'taker_at_cross',
    });
    expect(sold.status).toBe(201);

    const reply = await call(null, 'GET', `/markets/trades?ticker=${A}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      cursor: '',
      trades: [
        {
          count_fp: '2.00',
          created_time: new Date(fakeMs).toISOString().replace(/\.?0*Z$/, 'Z'),
          is_block_trade: false,
          no_price_dollars: '0.6000',
          taker_book_side: 'ask',
          taker_outcome_side: 'no',
          taker_side: 'no',
          ticker: A,
          trade_id: expect.stringMatching(UUID),
          yes_price_dollars: '0.4000',
        },
        expect.objectContaining({ count_fp: '3.00', yes_price_dollars: '0.4500', no_price_dollars: '0.5500', taker_side: 'yes', taker_book_side: 'bid' }),
      ],
    });
    expect(Object.keys(reply.body.trades[0])).toEqual([...Object.keys(reply.body.trades[0])].sort());
    expect(reply.body.trades[0].created_time).toMatch(GO_TIME);
    // The maker's and the takers' own fills carry their legs; the public trade is one per match.
    expect((await call(null, 'GET', `/markets/trades?ticker=${B}`)).body).toEqual({ cursor: '', trades: [] });
    expect((await call(null, 'GET', '/markets/trades?is_block_trade=true')).body.trades).toEqual([]);
  });

  it('filters on min_ts / max_ts and pages with a cursor that new trades do not shift', async () => {
    order(MAKER, A, 'ask', '0.5000', '100');
    const t0 = Math.floor(fakeMs / 1000);
    for (let i = 0; i < 5; i += 1) {
      fakeMs += 10_000;
      order('user-bob', A, 'bid', '0.5000', String(i + 1), { time_in_force: 'immediate_or_cancel' });
    }
    const window = (await call(null, 'GET', `/markets/trades?min_ts=${t0 + 20}&max_ts=${t0 + 40}`)).body.trades;
    expect(window.map((t: any) => t.count_fp)).toEqual(['4.00', '3.00', '2.00']);

    const first = (await call(null, 'GET', '/markets/trades?limit=2')).body;
    expect(first.trades.map((t: any) => t.count_fp)).toEqual(['5.00', '4.00']);
    expect(first.cursor).not.toBe('');
    // A trade arrives between the pages: the next page still starts where the first ended.
    fakeMs += 10_000;
    order('user-bob', A, 'bid', '0.5000', '9', { time_in_force: 'immediate_or_cancel' });
    const second = (await call(null, 'GET', `/markets/trades?limit=2&cursor=${first.cursor}`)).body;
    expect(second.trades.map((t: any) => t.count_fp)).toEqual(['3.00', '2.00']);
    const last = (await call(null, 'GET', `/markets/trades?limit=2&cursor=${second.cursor}`)).body;
    expect(last).toEqual({ cursor: '', trades: [expect.objectContaining({ count_fp: '1.00' })] });

    const tooMany = await call(null, 'GET', '/markets/trades?limit=1001');
    expect(tooMany).toEqual({ status: 400, body: { msg: expect.stringContaining("failed on the 'lte' tag") } });
  });
});

describe('Kalshi fake: candlesticks', () => {
  beforeEach(() => startFake());

  const candles = (q: string) => call(null, 'GET', `/series/KXMD/markets/${A}/candlesticks?${q}`);

  it('builds each period from the book and the trades, with null prices where nothing traded', async () => {
    const t0 = fakeMs / 1000;
    fakeMs += 10_000;
    order(MAKER, A, 'bid', '0.4000', '10');
    order(MAKER, A, 'ask', '0.4500', '10');
    fakeMs += 60_000; // t0 + 70 s
    order('user-bob', A, 'bid', '0.4500', '3', { time_in_force: 'immediate_or_cancel' });
    fakeMs += 10_000; // t0 + 80 s
    order('user-alice', A, 'ask', '0.4000', '2', { time_in_force: 'immediate_or_cancel' });
    fakeMs += 70_000; // t0 + 150 s: the third minute is still forming

    // The market was created at t0, inside the period that ends at t0: start just after it.
    const reply = await candles(`start_ts=${t0 + 1}&end_ts=${t0 + 600}&period_interval=1`);
    expect(reply.status).toBe(200);
    expect(reply.body.ticker).toBe(A);
    expect(reply.body.candlesticks).toEqual([
      {
        end_period_ts: t0 + 60,
        yes_bid: { open_dollars: '0.0000', low_dollars: '0.0000', high_dollars: '0.4000', close_dollars: '0.4000' },
        yes_ask: { open_dollars: '1.0000', low_dollars: '0.4500', high_dollars: '1.0000', close_dollars: '0.4500' },
        price: { open_dollars: null, low_dollars: null, high_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: null },
        volume_fp: '0.00',
        open_interest_fp: '0.00',
      },
      {
        end_period_ts: t0 + 120,
        yes_bid: { open_dollars: '0.4000', low_dollars: '0.4000', high_dollars: '0.4000', close_dollars: '0.4000' },
        yes_ask: { open_dollars: '0.4500', low_dollars: '0.4500', high_dollars: '0.4500', close_dollars: '0.4500' },
        // (3 x 0.45 + 2 x 0.40) / 5 = 0.43
        price: { open_dollars: '0.4500', low_dollars: '0.4000', high_dollars: '0.4500', close_dollars: '0.4000', mean_dollars: '0.4300', previous_dollars: null },
        volume_fp: '5.00',
        // Bob holds 3 YES; the maker's NO and Alice's NO are the other side.
        open_interest_fp: '3.00',
      },
      {
        end_period_ts: t0 + 180,
        yes_bid: { open_dollars: '0.4000', low_dollars: '0.4000', high_dollars: '0.4000', close_dollars: '0.4000' },
        yes_ask: { open_dollars: '0.4500', low_dollars: '0.4500', high_dollars: '0.4500', close_dollars: '0.4500' },
        price: { open_dollars: null, low_dollars: null, high_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: '0.4000' },
        volume_fp: '0.00',
        open_interest_fp: '3.00',
      },
    ]);

    const hourly = (await candles(`start_ts=${t0 + 1}&end_ts=${t0 + 7200}&period_interval=60`)).body.candlesticks;
    expect(hourly).toEqual([
      expect.objectContaining({
        end_period_ts: t0 + 3600,
        price: expect.objectContaining({ open_dollars: '0.4500', close_dollars: '0.4000', mean_dollars: '0.4300' }),
        volume_fp: '5.00',
      }),
    ]);
  });

  it('answers a bad period_interval, a missing bound, an unknown series and too many candles', async () => {
    const t0 = fakeMs / 1000;
    expect(await candles(`start_ts=${t0}&end_ts=${t0 + 60}&period_interval=5`)).toEqual({
      status: 400,
      body: { msg: expect.stringContaining("'PeriodInterval' failed on the 'oneof' tag") },
    });
    expect(await candles(`end_ts=${t0 + 60}&period_interval=1`)).toEqual({
      status: 400,
      body: { msg: expect.stringContaining("'StartTs' failed on the 'required' tag") },
    });
    const wrongSeries = await call(null, 'GET', `/series/KXOTHER/markets/${A}/candlesticks?start_ts=${t0}&end_ts=${t0 + 60}&period_interval=1`);
    expect(wrongSeries.status).toBe(404);
    fakeMs += 4 * 24 * 3_600_000;
    const tooMany = await candles(`start_ts=${t0 + 1}&end_ts=${fakeMs / 1000}&period_interval=1`);
    expect(tooMany).toEqual({ status: 400, body: { error: { code: 'bad_request', message: 'bad request' } } });
    expect((await candles(`start_ts=${t0 + 1}&end_ts=${fakeMs / 1000}&period_interval=60`)).body.candlesticks).toHaveLength(96);
  });
});

describe('Kalshi fake: orderbook_delta and trade channels', () => {
  beforeEach(() => startFake());

  it('sends a snapshot, then exactly the changes of the real book after orders, fills, cancels and the close', async () => {
    order(MAKER, A, 'bid', '0.4000', '10');
    order(MAKER, A, 'ask', '0.4500', '10');
    order(MAKER, A, 'ask', '0.4600', '4');
    const makerBid = order(MAKER, A, 'bid', '0.4100', '5');

    const ours = await connect(alice);
    const theirs = await connect(bob);
    const sids = await subscribe(ours, ['orderbook_delta', 'trade'], { market_tickers: [A] });
    const theirSids = await subscribe(theirs, ['orderbook_delta'], { market_ticker: A });
    const [snapshot] = await waitFrames(ours, (s) => framesOn(s, sids.orderbook_delta!), 1);
    expect(snapshot).toEqual({
      type: 'orderbook_snapshot',
      sid: sids.orderbook_delta,
      seq: 1,
      msg: {
        market_ticker: A,
        market_id: expect.stringMatching(UUID),
        yes_dollars_fp: [
          ['0.4000', '10.00'],
          ['0.4100', '5.00'],
        ],
        no_dollars_fp: [
          ['0.5400', '4.00'],
          ['0.5500', '10.00'],
        ],
      },
    });

    // Our own resting bid: our socket sees our client_order_id on its delta, theirs does not.
    const placed = await call(alice, 'POST', '/portfolio/events/orders', {
      ticker: A,
      side: 'bid',
      price: '0.4200',
      count: '3.00',
      client_order_id: 'alice-bid-1',
      time_in_force: 'good_till_canceled',
      self_trade_prevention_type: 'taker_at_cross',
    });
    expect(placed.status).toBe(201);
    // Bob sweeps 0.45 and part of 0.46; then sells into our bid and the maker's 0.41.
    order('user-bob', A, 'bid', '0.4600', '12', { time_in_force: 'immediate_or_cancel', client_order_id: 'bob-sweep-1' });
    order('user-bob', A, 'ask', '0.4100', '6', { client_order_id: 'bob-ask-1' });
    fake.cancelOrderAs(MAKER, makerBid.order_id);

    const deltas = (s: Socket, sid: number) => framesOn(s, sid).filter((f) => f.type === 'orderbook_delta');
    const ourDeltas = await waitFrames(ours, (s) => deltas(s, sids.orderbook_delta!), 6);
    const timeOf = { ts: expect.stringMatching(GO_TIME), ts_ms: fakeMs };
    expect(ourDeltas.map((f) => f.msg)).toEqual([
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.4200', delta_fp: '3.00', side: 'yes', client_order_id: 'alice-bid-1', ...timeOf },
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.5500', delta_fp: '-10.00', side: 'no', ...timeOf },
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.5400', delta_fp: '-2.00', side: 'no', ...timeOf },
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.4200', delta_fp: '-3.00', side: 'yes', ...timeOf },
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.4100', delta_fp: '-3.00', side: 'yes', ...timeOf },
      { market_ticker: A, market_id: snapshot!.msg.market_id, price_dollars: '0.4100', delta_fp: '-2.00', side: 'yes', ...timeOf },
    ]);
    expect(seqs(framesOn(ours, sids.orderbook_delta!))).toEqual(consecutiveFrom1(7));
    // Bob's orders caused the fills (the maker's asks, then our bid): his socket sees his client_order_id there.
    const theirDeltas = await waitFrames(theirs, (s) => deltas(s, theirSids.orderbook_delta!), 6);
    expect(theirDeltas.map((f) => f.msg.client_order_id)).toEqual([undefined, 'bob-sweep-1', 'bob-sweep-1', 'bob-ask-1', 'bob-ask-1', undefined]);

    // The book the client keeps is the book the exchange has.
    expect(bookFrom(framesOn(ours, sids.orderbook_delta!)).asRest()).toEqual(await restBook(A));

    const trades = await waitFrames(ours, (s) => framesOn(s, sids.trade!), 4);
    expect(trades.map((f) => [f.seq, f.msg.yes_price_dollars, f.msg.count_fp, f.msg.taker_side])).toEqual([
      [1, '0.4500', '10.00', 'yes'],
      [2, '0.4600', '2.00', 'yes'],
      [3, '0.4200', '3.00', 'no'],
      [4, '0.4100', '3.00', 'no'],
    ]);
    expect(trades[2]).toEqual({
      type: 'trade',
      sid: sids.trade,
      seq: 3,
      msg: {
        trade_id: expect.stringMatching(UUID),
        market_ticker: A,
        yes_price_dollars: '0.4200',
        no_price_dollars: '0.5800',
        count_fp: '3.00',
        taker_side: 'no',
        taker_outcome_side: 'no',
        taker_book_side: 'ask',
        is_block_trade: false,
        ts: Math.floor(fakeMs / 1000),
        ts_ms: fakeMs,
      },
    });
    // The same trades are public over REST, with the same ids.
    const rest = (await call(null, 'GET', `/markets/trades?ticker=${A}`)).body.trades;
    expect(rest.map((t: any) => t.trade_id)).toEqual(trades.map((f) => f.msg.trade_id).reverse());

    // Closing the market cancels every resting order: the client's book empties with it.
    expect((await control(`/markets/${A}/close`)).status).toBe(200);
    await until(() => (bookFrom(framesOn(ours, sids.orderbook_delta!)).asRest().no_dollars.length === 0 ? true : undefined));
    expect(bookFrom(framesOn(ours, sids.orderbook_delta!)).asRest()).toEqual({ yes_dollars: [], no_dollars: [] });
    expect(await restBook(A)).toEqual({ yes_dollars: [], no_dollars: [] });
  });

  it('keeps a client book equal to the exchange book through a long run of mixed operations', async () => {
    // A fixed pseudo-random run (the same every time): limit orders, crossing IOC / FOK orders,
    // self-trade prevention, cancels, expiries, a pause and reactivation, on three markets.
    let state = 20261129;
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const pick = <T,>(items: readonly T[]): T => items[next(items.length)]!;
    fake.seedBooks();
    const socket = await connect(alice);
    const { orderbook_delta: sid } = await subscribe(socket, ['orderbook_delta'], { market_tickers: [A, B, C] });
    const yesPriced = await connect(bob);
    const { orderbook_delta: yesSid } = await subscribe(yesPriced, ['orderbook_delta'], { market_ticker: C, use_yes_price: true });

    const participants = [MAKER, 'user-p1', 'user-p2'];
    const resting: { userId: string; orderId: string }[] = [];
    for (let step = 0; step < 300; step += 1) {
      const ticker = pick([A, B, C]);
      const userId = pick(participants);
      const roll = next(10);
      if (roll < 2 && resting.length > 0) {
        const [victim] = resting.splice(next(resting.length), 1);
        fake.cancelOrderAs(victim!.userId, victim!.orderId);
        continue;
      }
      const price = `0.${40 + next(21)}00`;
      const count = ticker === C ? `${1 + next(5)}.${pick(['00', '25', '50'])}` : `${1 + next(9)}.00`;
      const extra: Record<string, unknown> = {};
      if (roll === 2) extra.time_in_force = 'immediate_or_cancel';
      if (roll === 3) extra.time_in_force = 'fill_or_kill';
      if (roll === 4) extra.self_trade_prevention_type = 'maker';
      if (roll === 5) extra.expiration_time = Math.floor(fakeMs / 1000) + 5;
      const answer = fake.placeOrderAs(userId, {
        ticker,
        side: pick(['bid', 'ask']),
        price,
        count,
        time_in_force: 'good_till_canceled',
        self_trade_prevention_type: 'taker_at_cross',
        ...extra,
      });
      if (answer.status === 201 && (answer.body as any).remaining_count !== '0.00') resting.push({ userId, orderId: (answer.body as any).order_id });
      if (step % 50 === 49) {
        fakeMs += 10_000; // the expiring orders lapse at the next request
        await call(null, 'GET', '/markets');
      }
    }
    await control(`/markets/${B}/deactivate`);
    order(MAKER, C, 'bid', '0.0500', '1.5');
    await control(`/markets/${B}/activate`); // cancels every resting order of B

    for (const ticker of [A, B, C]) {
      const exchangeBook = await restBook(ticker);
      await until(() => (JSON.stringify(bookFrom(framesOn(socket, sid!).filter((f) => f.msg.market_ticker === ticker)).asRest()) === JSON.stringify(exchangeBook) ? true : undefined));
    }
    expect(await restBook(B)).toEqual({ yes_dollars: [], no_dollars: [] });
    expect(seqs(framesOn(socket, sid!))).toEqual(consecutiveFrom1(framesOn(socket, sid!).length));
    expect(framesOn(socket, sid!).length).toBeGreaterThan(200);

    // The yes-priced copy of C, turned back into NO prices, is the same book.
    const restC = (await restBook(C)) as { yes_dollars: string[][]; no_dollars: string[][] };
    await until(() => (framesOn(yesPriced, yesSid!).length === framesOn(socket, sid!).filter((f) => f.msg.market_ticker === C).length ? true : undefined));
    const yesPricedBook = bookFrom(framesOn(yesPriced, yesSid!)).asRest();
    const backToNo = yesPricedBook.no_dollars
      .map(([price, count]) => [new D(1).minus(new D(price!)).toFixed(4), count!])
      .sort(([a], [b]) => new D(a!).comparedTo(new D(b!)));
    expect({ yes_dollars: yesPricedBook.yes_dollars, no_dollars: backToNo }).toEqual(restC);
  });

  it('reports NO levels at YES prices with use_yes_price', async () => {
    order(MAKER, A, 'ask', '0.4500', '10');
    const socket = await connect(alice);
    const sids = await subscribe(socket, ['orderbook_delta'], { market_ticker: A, use_yes_price: true });
    order(MAKER, A, 'ask', '0.4700', '1');
    const frames = await waitFrames(socket, (s) => framesOn(s, sids.orderbook_delta!), 2);
    expect(frames[0]!.msg.no_dollars_fp).toEqual([['0.4500', '10.00']]);
    expect(frames[0]!.msg.yes_dollars_fp).toBeUndefined();
    expect(frames[1]!.msg).toMatchObject({ side: 'no', price_dollars: '0.4700', delta_fp: '1.00' });
  });

  it('adds and deletes markets, answers get_snapshot, lists subscriptions and refuses bad commands', async () => {
    order(MAKER, B, 'bid', '0.3000', '7');
    const socket = await connect(alice);
    const { orderbook_delta: sid } = await subscribe(socket, ['orderbook_delta'], { market_tickers: [A] });
    await waitFrames(socket, (s) => framesOn(s, sid!), 1);

    const add = command(socket, 'update_subscription', { sid, action: 'add_markets', market_tickers: [B] });
    const [ok, snapshotB] = await waitFrames(socket, (s) => framesOn(s, sid!).slice(1), 2);
    expect(ok).toEqual({ type: 'ok', id: add, sid, seq: 1, msg: { market_tickers: [A, B] } });
    expect(snapshotB).toMatchObject({ type: 'orderbook_snapshot', seq: 2, msg: { market_ticker: B, yes_dollars_fp: [['0.3000', '7.00']] } });

    const del = command(socket, 'update_subscription', { sids: [sid], action: 'delete_markets', market_ticker: A });
    await until(() => socket.frames.find((f) => f.type === 'ok' && f.id === del));
    // A no longer flows on this subscription: the next frame is B's delta.
    order(MAKER, A, 'bid', '0.2000', '1');
    order(MAKER, B, 'bid', '0.3100', '1');
    const next = await until(() => framesOn(socket, sid!).find((f) => f.type === 'orderbook_delta'));
    expect(next.msg).toMatchObject({ market_ticker: B, price_dollars: '0.3100' });
    expect(next.seq).toBe(3);

    const snap = command(socket, 'update_subscription', { sid, action: 'get_snapshot', market_tickers: [B] });
    const fresh = await until(() => socket.frames.find((f) => f.type === 'orderbook_snapshot' && f.id === snap));
    expect(fresh).toMatchObject({ sid, seq: 4, msg: { yes_dollars_fp: [['0.3000', '7.00'], ['0.3100', '1.00']] } });

    const list = command(socket, 'list_subscriptions');
    expect(await until(() => socket.frames.find((f) => f.id === list))).toEqual({ type: 'ok', id: list, msg: [{ channel: 'orderbook_delta', sid }] });

    const noMarket = command(socket, 'subscribe', { channels: ['orderbook_delta'] });
    const noAction = command(socket, 'update_subscription', { sid, market_tickers: [A] });
    const twoSids = command(socket, 'update_subscription', { sids: [sid, 99], action: 'add_markets', market_tickers: [A] });
    const unknownSid = command(socket, 'update_subscription', { sid: 99, action: 'add_markets', market_tickers: [A] });
    const badId = command(socket, 'subscribe', { channels: ['ticker'], market_id: 'not-a-uuid' });
    const errorsSeen = await waitFrames(socket, (s) => ofType(s, 'error'), 5);
    expect(errorsSeen).toEqual([
      { type: 'error', id: noMarket, msg: { code: 14, msg: 'Market Ticker required' } },
      { type: 'error', id: noAction, msg: { code: 15, msg: 'Action required' } },
      { type: 'error', id: twoSids, msg: { code: 12, msg: 'Exactly one subscription ID is required' } },
      { type: 'error', id: unknownSid, msg: { code: 7, msg: 'Unknown subscription ID' } },
      { type: 'error', id: badId, msg: { code: 11, msg: 'Invalid parameter' } },
    ]);

    const unsub = command(socket, 'unsubscribe', { sids: [sid] });
    expect(await until(() => socket.frames.find((f) => f.type === 'unsubscribed'))).toEqual({ type: 'unsubscribed', id: unsub, sid, seq: 4 });
  });

  it('still needs a signed handshake', async () => {
    const unsigned = new WebSocket(fake.wsUrl);
    unsigned.on('error', () => undefined);
    const status = await new Promise<number>((resolve) =>
      unsigned.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      }),
    );
    expect(status).toBe(401);
  });
});

describe('Kalshi fake: ticker channel', () => {
  beforeEach(() => startFake());

  it('sends the ticker on subscribe when asked, then once per operation whenever a field changes', async () => {
    const socket = await connect(alice);
    const { ticker: sid } = await subscribe(socket, ['ticker'], { market_tickers: [A], send_initial_snapshot: true });
    const [initial] = await waitFrames(socket, (s) => framesOn(s, sid!), 1);
    expect(initial).toEqual({
      type: 'ticker',
      sid,
      msg: {
        market_id: expect.stringMatching(UUID),
        market_ticker: A,
        price_dollars: '0.0000',
        yes_bid_dollars: '0.0000',
        yes_ask_dollars: '1.0000',
        volume_fp: '0.00',
        open_interest_fp: '0.00',
        dollar_volume: 0,
        dollar_open_interest: 0,
        yes_bid_size_fp: '0.00',
        yes_ask_size_fp: '0.00',
        last_trade_size_fp: '0.00',
        ts: Math.floor(fakeMs / 1000),
        ts_ms: fakeMs,
        time: expect.stringMatching(GO_TIME),
      },
    });

    // Each operation is its own request on Kalshi: wait for its update before the next one.
    order(MAKER, A, 'bid', '0.4000', '10');
    await waitFrames(socket, (s) => framesOn(s, sid!), 2);
    order(MAKER, A, 'bid', '0.4000', '5'); // a size change alone is a change
    await waitFrames(socket, (s) => framesOn(s, sid!), 3);
    order(MAKER, B, 'bid', '0.1000', '5'); // another market: not on this subscription
    fakeMs += 1_000;
    order('user-bob', A, 'ask', '0.4000', '4', { time_in_force: 'immediate_or_cancel' }); // one update for the trade and the size
    const frames = await waitFrames(socket, (s) => framesOn(s, sid!), 4);
    expect(frames.slice(1).map((f) => [f.msg.yes_bid_dollars, f.msg.yes_bid_size_fp, f.msg.price_dollars, f.msg.volume_fp])).toEqual([
      ['0.4000', '10.00', '0.0000', '0.00'],
      ['0.4000', '15.00', '0.0000', '0.00'],
      ['0.4000', '11.00', '0.4000', '4.00'],
    ]);
    expect(frames[3]!.msg).toMatchObject({ open_interest_fp: '4.00', last_trade_size_fp: '4.00', dollar_volume: 1, dollar_open_interest: 1, ts_ms: fakeMs });
    expect(frames.every((f) => f.seq === undefined)).toBe(true);

    // A subscription without markets carries every market.
    const all = await connect(bob);
    const { ticker: allSid } = await subscribe(all, ['ticker']);
    order(MAKER, B, 'ask', '0.9000', '1');
    order(MAKER, A, 'ask', '0.9000', '1');
    const seen = await waitFrames(all, (s) => framesOn(s, allSid!), 2);
    expect(seen.map((f) => f.msg.market_ticker)).toEqual([B, A]);
    // The first socket got A's change and nothing of B's in between.
    const mine = await waitFrames(socket, (s) => framesOn(s, sid!), 5);
    expect(mine.map((f) => f.msg.market_ticker)).toEqual([A, A, A, A, A]);
  });
});

describe('Kalshi fake: market-data faults', () => {
  beforeEach(() => startFake(50));

  async function watched(socket: Socket): Promise<number> {
    const { orderbook_delta: sid } = await subscribe(socket, ['orderbook_delta', 'user_orders'], { market_tickers: [A, B] });
    await waitFrames(socket, (s) => framesOn(s, sid!), 2);
    return sid!;
  }

  it('skips a seq number (the delta lost) until the client asks for a fresh snapshot', async () => {
    order(MAKER, A, 'bid', '0.4000', '10');
    const socket = await connect(alice);
    const sid = await watched(socket);

    expect(await control('/market_data/gap', { market_ticker: A })).toEqual({ status: 200, body: { market_ticker: A, drop_delta: true } });
    order(MAKER, A, 'bid', '0.4100', '1'); // lost
    order(MAKER, A, 'bid', '0.4200', '2');
    const deltas = await waitFrames(socket, (s) => framesOn(s, sid).filter((f) => f.type === 'orderbook_delta'), 1);
    expect(deltas.map((f) => [f.seq, f.msg.price_dollars])).toEqual([[4, '0.4200']]);
    // The client's book misses the lost change ...
    const mineA = (s: Socket) => framesOn(s, sid).filter((f) => f.msg?.market_ticker === A);
    expect(bookFrom(mineA(socket)).asRest()).not.toEqual(await restBook(A));
    // ... until it asks for a fresh snapshot, as Kalshi says to do on a gap.
    const snap = command(socket, 'update_subscription', { sid, action: 'get_snapshot', market_ticker: A });
    await until(() => socket.frames.find((f) => f.id === snap && f.type === 'orderbook_snapshot'));
    expect(bookFrom(mineA(socket)).asRest()).toEqual(await restBook(A));

    // Without drop_delta the delta arrives, one number late; nothing is lost.
    await control('/market_data/gap', { market_ticker: A, drop_delta: false });
    order(MAKER, A, 'bid', '0.4300', '1');
    const late = await until(() => framesOn(socket, sid).find((f) => f.type === 'orderbook_delta' && f.msg.price_dollars === '0.4300'));
    expect(late.seq).toBe(7);
    expect(bookFrom(mineA(socket)).asRest()).toEqual(await restBook(A));

    expect((await control('/market_data/gap', { market_ticker: 'KXNOPE' })).status).toBe(404);
  });

  it('freezes the feed with the socket open and pings answered; what happened meanwhile is silently missing', async () => {
    const socket = await connect(alice);
    const sid = await watched(socket);

    expect(await control('/market_data/freeze', { frozen: true })).toEqual({ status: 200, body: { frozen: true, market_ticker: null } });
    const placed = await call(alice, 'POST', '/portfolio/events/orders', {
      ticker: A,
      side: 'bid',
      price: '0.3300',
      count: '1.00',
      time_in_force: 'good_till_canceled',
      self_trade_prevention_type: 'taker_at_cross',
    });
    expect(placed.status).toBe(201);
    // The private channel still speaks; the book delta that would have come first never did.
    await until(() => ofType(socket, 'user_order').find((f) => f.msg.order_id === placed.body.order_id));
    expect(framesOn(socket, sid).filter((f) => f.type === 'orderbook_delta')).toEqual([]);
    // Pings both ways still work.
    await new Promise<void>((resolve) => socket.ws.once('ping', () => resolve()));
    const pong = new Promise<void>((resolve) => socket.ws.once('pong', () => resolve()));
    socket.ws.ping();
    await pong;
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);

    await control('/market_data/freeze', { frozen: false });
    order(MAKER, A, 'bid', '0.2000', '1');
    const resumed = await until(() => framesOn(socket, sid).find((f) => f.type === 'orderbook_delta'));
    // No gap in seq, yet the client's book lacks the order placed while frozen.
    expect(resumed.seq).toBe(3);
    const mineA = framesOn(socket, sid).filter((f) => f.msg?.market_ticker === A);
    expect(bookFrom(mineA).asRest()).toEqual({ yes_dollars: [['0.2000', '1.00']], no_dollars: [] });
    expect(await restBook(A)).toEqual({ yes_dollars: [['0.2000', '1.00'], ['0.3300', '1.00']], no_dollars: [] });
  });

  it('freezes one market while the others keep flowing', async () => {
    const socket = await connect(alice);
    const sid = await watched(socket);
    await control('/market_data/freeze', { market_ticker: A });
    order(MAKER, A, 'bid', '0.4000', '1');
    order(MAKER, B, 'bid', '0.4000', '1');
    const first = await until(() => framesOn(socket, sid).find((f) => f.type === 'orderbook_delta'));
    expect(first.msg.market_ticker).toBe(B);
    // Clearing the faults thaws it.
    expect((await fetch(`${fake.origin}/_fake/faults`, { method: 'DELETE' })).status).toBe(200);
    order(MAKER, A, 'bid', '0.3900', '1');
    const thawed = await until(() => framesOn(socket, sid).find((f) => f.type === 'orderbook_delta' && f.msg.market_ticker === A));
    expect(thawed.msg).toMatchObject({ price_dollars: '0.3900', delta_fp: '1.00' });
  });

  it('drops every connection; a client that reconnects and resubscribes gets a fresh snapshot', async () => {
    order(MAKER, A, 'bid', '0.4000', '10');
    const socket = await connect(alice);
    await watched(socket);
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    expect((await control('/ws/drop')).status).toBe(200);
    expect(await closed).toBe(1006);
    await until(() => (fake.openWebSockets === 0 ? true : undefined));

    order(MAKER, A, 'bid', '0.4100', '2'); // happens while the client is away
    const again = await connect(alice);
    const { orderbook_delta: sid } = await subscribe(again, ['orderbook_delta'], { market_ticker: A });
    expect(sid).toBe(1);
    const [snapshot] = await waitFrames(again, (s) => framesOn(s, sid!), 1);
    expect(snapshot).toMatchObject({ seq: 1, msg: { yes_dollars_fp: [['0.4000', '10.00'], ['0.4100', '2.00']] } });
  });
});
