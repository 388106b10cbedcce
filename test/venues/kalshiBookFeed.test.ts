/**
 * Kalshi's live books (core/venues/kalshi/bookFeed.ts) against the faithful fake over loopback:
 * the `orderbook_delta` snapshot and deltas of real orders resting, trading and being canceled on
 * the fake's book give the book Kalshi's REST endpoint gives (KalshiMarketData.orderBook, depth
 * 100), deep-equal; and the feed's faults Kalshi really has, injected at the fake: a `seq` gap, a
 * frozen feed (socket and pings alive), dropped connections and a silent socket. Also onChange,
 * idle markets unsubscribed (as Kalshi's `ok` confirms) and a refused key.
 *
 * Nothing sleeps on a guessed delay: every wait is on a condition, with generous limits (a loaded
 * 2-core machine). A state that may be brief (stale until the repair) is read from what onChange
 * saw, not polled.
 */
import { KalshiBookFeed, type KalshiBookFeedOptions } from '../../core/venues/kalshi/bookFeed';
import { KalshiMarketData } from '../../core/venues/kalshi/marketData';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import type { OrderBookView } from '../../core/venues/venue';
import { TAPERED_DECI_CENT_RANGES, type CatalogSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { newKalshiKey } from '../support/kalshiKeys';

jest.setTimeout(90_000);

const operator = newKalshiKey();
/** A key the fake does not know. */
const stranger = newKalshiKey();

const A = 'KXFEED-26DEC-A';
const B = 'KXFEED-26DEC-B';
/** Fractional contracts and sub-cent ticks near the edges. */
const C = 'KXFEED-26DEC-C';
const PARTICIPANTS = ['user-p1', 'user-p2', 'user-p3'];
const WAIT_MS = 30_000;

const catalog: CatalogSeed = {
  series: [{ ticker: 'KXFEED', title: 'Book feed (fake)', fee_type: 'quadratic', fee_multiplier: '1' }],
  markets: [
    ...[A, B].map((ticker) => ({ ticker, event_ticker: 'KXFEED-26DEC', series_ticker: 'KXFEED', title: `Book feed ${ticker}`, close_time: '2099-12-31T23:59:00Z' })),
    {
      ticker: C,
      event_ticker: 'KXFEED-26DEC',
      series_ticker: 'KXFEED',
      title: `Book feed ${C}`,
      close_time: '2099-12-31T23:59:00Z',
      price_ranges: TAPERED_DECI_CENT_RANGES,
      price_level_structure: 'tapered_deci_cent',
      fractional_trading_enabled: true,
    },
  ],
};

let fake: KalshiFake;
/** The test's own REST reader (what the feed's books are compared with). */
let rest: KalshiMarketData;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  fake = await KalshiFake.start({
    catalog,
    accounts: [{ userId: 'user-operator', keys: [operator] }, ...PARTICIPANTS.map((userId) => ({ userId, balanceDollars: '1000000.00' }))],
    rateLimits: false,
    pingIntervalMs: 50,
  });
  rest = new KalshiMarketData({ restUrl: fake.baseUrl, timeoutMs: 5000, tier: KALSHI_RATE_TIERS.premier });
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rest.close();
  await fake.close();
});

/** A feed on the fake with the operator's key; its own REST reader for the quiet check. */
function feedOn(overrides: Partial<KalshiBookFeedOptions> = {}): KalshiBookFeed {
  const feedRest = new KalshiMarketData({ restUrl: fake.baseUrl, timeoutMs: 5000, tier: KALSHI_RATE_TIERS.premier });
  const feed = new KalshiBookFeed({
    wsUrl: fake.wsUrl,
    signer: createKalshiSigner(operator.keyId, operator.privateKey),
    rest: feedRest,
    // No quiet check unless a test is about it: what is fresh here is the feed's doing.
    quietMs: 600_000,
    idleMs: 600_000,
    // Long enough that a stalled event loop (a loaded machine) is not taken for a dead socket.
    staleAfterMs: 10_000,
    handshakeTimeoutMs: 5000,
    backoff: { baseMs: 20, maxMs: 200 },
    ...overrides,
  });
  closers.push(() => feedRest.close(), () => feed.close());
  return feed;
}

interface Seen {
  readonly ticker: string;
  readonly stale: boolean | undefined;
  readonly book: OrderBookView | undefined;
}

/** Every onChange, with the book as it was then. */
function watch(feed: KalshiBookFeed): Seen[] {
  const seen: Seen[] = [];
  feed.onChange((ticker) => {
    const fed = feed.current(ticker);
    seen.push({ ticker, stale: fed?.stale, book: fed?.book });
  });
  return seen;
}

async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const restBook = (ticker: string) => rest.orderBook(ticker, 100);

/** Waits until the feed's book is fresh and the venue's; asserts it (a diff on failure). */
async function expectFedIsVenue(feed: KalshiBookFeed, ticker: string): Promise<OrderBookView> {
  let last: OrderBookView | undefined;
  try {
    await until(async () => {
      last = await restBook(ticker);
      const fed = feed.current(ticker);
      return fed !== undefined && !fed.stale && JSON.stringify(fed.book) === JSON.stringify(last);
    });
  } catch {
    // Fall through to the assertion: it shows what differs.
  }
  expect(feed.current(ticker)).toMatchObject({ stale: false, book: last });
  expect(feed.current(ticker)!.book).toEqual(await restBook(ticker));
  return last!;
}

/** A participant's order straight onto the fake's book (good till canceled unless `extra` says otherwise). */
function order(userId: string, ticker: string, side: 'bid' | 'ask', price: string, count: string, extra: Record<string, unknown> = {}): { status: number; body: any } {
  return fake.placeOrderAs(userId, { ticker, side, price, count, time_in_force: 'good_till_canceled', self_trade_prevention_type: 'taker_at_cross', ...extra }) as {
    status: number;
    body: any;
  };
}

function placed(userId: string, ticker: string, side: 'bid' | 'ask', price: string, count: string, extra: Record<string, unknown> = {}): any {
  const answer = order(userId, ticker, side, price, count, extra);
  expect(answer.status).toBe(201);
  return answer.body;
}

/** A small seeded PRNG, so a failure replays. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRICES: Record<string, string[]> = {
  [A]: ['0.3500', '0.3800', '0.4000', '0.4100', '0.4200', '0.4300', '0.4400', '0.4500', '0.4600', '0.4700', '0.4800', '0.5000', '0.5300', '0.5600'],
  [C]: ['0.0450', '0.0480', '0.0500', '0.0520', '0.0550', '0.0600', '0.0700', '0.0800', '0.0900', '0.0950', '0.1000', '0.1100', '0.1200', '0.1300'],
};

describe('the Kalshi book feed: books kept from orderbook_delta', () => {
  it("keeps the venue's book through many mixed operations (rests, partial fills, sweeps, cancels; fractional counts, sub-cent prices)", async () => {
    for (const [i, price] of ['0.4000', '0.4100', '0.4200'].entries()) placed('user-p1', A, 'bid', price, String(10 * (i + 1)));
    for (const [i, price] of ['0.4800', '0.4700', '0.4600'].entries()) placed('user-p2', A, 'ask', price, String(5 * (i + 1)));
    placed('user-p1', C, 'bid', '0.0500', '2.50');
    placed('user-p2', C, 'ask', '0.0950', '1.25');
    const feed = feedOn();
    const seen = watch(feed);
    feed.follow(A);
    feed.follow(C);
    feed.follow(A); // idempotent
    const first = await expectFedIsVenue(feed, A);
    expect(first.bids[0]).toEqual({ price: '0.4200', quantity: '30.00' });
    expect(first.asks[0]).toEqual({ price: '0.4600', quantity: '15.00' });
    expect(first.mid).toBe('0.4400');
    const firstC = await expectFedIsVenue(feed, C);
    expect(firstC).toMatchObject({ bids: [{ price: '0.0500', quantity: '2.50' }], asks: [{ price: '0.0950', quantity: '1.25' }], mid: '0.0725' });
    expect(feed.current(B)).toBeUndefined(); // not followed

    const random = mulberry32(29);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const resting: { userId: string; orderId: string }[] = [];
    let trades = 0;
    for (let batch = 0; batch < 4; batch += 1) {
      const batchStart = Date.now();
      for (let op = 0; op < 75; op += 1) {
        const ticker = random() < 0.6 ? A : C;
        const userId = pick(PARTICIPANTS);
        const roll = random();
        if (roll < 0.25 && resting.length > 0) {
          const [gone] = resting.splice(Math.floor(random() * resting.length), 1);
          fake.cancelOrderAs(gone!.userId, gone!.orderId); // 404 when it has filled meanwhile
          continue;
        }
        const whole = 1 + Math.floor(random() * 25);
        const count = ticker === C ? `${whole}.${String(Math.floor(random() * 100)).padStart(2, '0')}` : `${whole}.00`;
        const ioc = roll > 0.85;
        const answer = order(userId, ticker, random() < 0.5 ? 'bid' : 'ask', pick(PRICES[ticker]!), count, ioc ? { time_in_force: 'immediate_or_cancel' } : {});
        if (answer.status !== 201) continue;
        if (answer.body.fill_count !== '0.00') trades += 1;
        if (!ioc && answer.body.remaining_count !== '0.00') resting.push({ userId, orderId: answer.body.order_id });
      }
      for (const ticker of [A, C]) {
        await expectFedIsVenue(feed, ticker);
        // asOf is the venue's time of the last change applied (the fake runs on the real clock).
        expect(feed.current(ticker)!.asOf.getTime()).toBeGreaterThanOrEqual(batchStart - 1000);
        expect(feed.current(ticker)!.asOf.getTime()).toBeLessThanOrEqual(Date.now());
      }
    }
    expect(trades).toBeGreaterThan(20);
    // Kept by the deltas alone: the two first snapshots, no gap, no REST check.
    expect(feed.status()).toMatchObject({ gaps: 0, snapshots: 2, quietChecks: { equal: 0, different: 0, failed: 0 }, subscribedMarkets: [A, C] });
    expect(seen.filter((s) => s.ticker === A).length).toBeGreaterThan(50);
    expect(seen.every((s) => s.stale === false)).toBe(true);
    // One signed connection for both markets.
    expect(fake.requests.filter((r) => r.path === '/trade-api/ws/v2' && r.keyId === operator.keyId)).toHaveLength(1);
  });

  it('a skipped seq makes every book of the subscription stale at once; a fresh snapshot repairs them', async () => {
    placed('user-p1', A, 'bid', '0.4000', '10');
    placed('user-p2', B, 'ask', '0.6000', '10');
    const feed = feedOn();
    feed.follow(A);
    feed.follow(B);
    await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);
    const seen = watch(feed);

    fake.injectSequenceGap(A); // A's next delta takes a seq number and is lost
    placed('user-p1', A, 'bid', '0.4100', '7');
    placed('user-p3', B, 'bid', '0.3000', '4'); // the next frame on the subscription shows the gap
    const repairedA = await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);
    expect(repairedA.bids[0]).toEqual({ price: '0.4100', quantity: '7.00' }); // the lost change, from the snapshot
    expect(feed.status().gaps).toBe(1);

    // Both books went stale together, before either was fresh again, then both were repaired.
    const firstStale = seen.findIndex((s) => s.stale === true);
    const staleRun = seen.slice(firstStale, seen.findIndex((s, i) => i > firstStale && s.stale === false));
    expect(new Set(staleRun.map((s) => s.ticker))).toEqual(new Set([A, B]));
    for (const ticker of [A, B]) expect(seen.filter((s) => s.ticker === ticker).at(-1)!.stale).toBe(false);
    expect(feed.status().snapshots).toBeGreaterThanOrEqual(4);

    // A delta that arrives one number late (nothing lost) is a gap all the same.
    fake.injectSequenceGap(A, { dropDelta: false });
    placed('user-p2', A, 'ask', '0.5500', '3');
    await until(() => feed.status().gaps === 2);
    await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);

    // Deltas after the repair apply again.
    const snapshots = feed.status().snapshots;
    placed('user-p3', A, 'ask', '0.4100', '2', { time_in_force: 'immediate_or_cancel' });
    expect((await expectFedIsVenue(feed, A)).bids[0]).toEqual({ price: '0.4100', quantity: '5.00' });
    expect(feed.status().snapshots).toBe(snapshots);
  });

  it('a frozen feed: after quietMs the book is stale and replaced by the REST book; thawed, it is fresh again; a quiet market stays fresh', async () => {
    placed('user-p1', A, 'bid', '0.4000', '10');
    placed('user-p1', B, 'bid', '0.2000', '10');
    const quietMs = 400;
    const feed = feedOn({ quietMs });
    feed.follow(A);
    feed.follow(B);
    await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);
    const seen = watch(feed);

    // Quiet markets: checked, equal, fresh, asOf as it was.
    const asOfB = feed.current(B)!.asOf.getTime();
    await until(() => feed.status().quietChecks.equal >= 4);
    expect(feed.current(B)).toMatchObject({ stale: false });
    expect(feed.current(B)!.asOf.getTime()).toBe(asOfB);
    expect(seen).toEqual([]);

    fake.freezeMarketData(true, A);
    placed('user-p2', A, 'bid', '0.3300', '5'); // lost: no frame, no seq number
    placed('user-p2', A, 'ask', '0.4500', '6');
    const venue = await restBook(A);
    const flagged = await until(() => seen.find((s) => s.ticker === A && s.stale === true));
    expect(flagged.book).toEqual(venue); // the REST book, served as stale
    expect(feed.status().quietChecks.different).toBeGreaterThanOrEqual(1);
    expect(feed.current(B)!.stale).toBe(false); // only A was frozen

    fake.freezeMarketData(false, A);
    await expectFedIsVenue(feed, A);
    // Deltas flow and apply again.
    placed('user-p3', A, 'bid', '0.4200', '1');
    expect((await expectFedIsVenue(feed, A)).bids[0]).toEqual({ price: '0.4200', quantity: '1.00' });
    await expectFedIsVenue(feed, B);
  });

  it('dropped connections make every book stale until the new snapshots; a silent socket is dropped and replaced', async () => {
    placed('user-p1', A, 'bid', '0.4000', '10');
    placed('user-p2', B, 'ask', '0.6000', '10');
    const feed = feedOn({ staleAfterMs: 600, handshakeTimeoutMs: 1000 });
    feed.follow(A);
    feed.follow(B);
    await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);
    const seen = watch(feed);

    for (let round = 1; round <= 2; round += 1) {
      fake.dropWebSockets();
      // Changes while the feed is away come with the new snapshots.
      placed('user-p3', A, 'bid', `0.${40 + round}00`, '3');
      placed('user-p3', B, 'ask', `0.${60 - round}00`, '3');
      await until(() => feed.status().stream.reconnects >= round);
      await expectFedIsVenue(feed, A);
      await expectFedIsVenue(feed, B);
    }
    for (const ticker of [A, B]) expect(seen.filter((s) => s.ticker === ticker && s.stale === true).length).toBeGreaterThanOrEqual(2);
    expect(feed.status().stream.lastProblem).toMatchObject({ kind: 'connection_lost' });

    // Every frame and ping stops (the socket still open): the stream's watchdog ends it; the books are stale meanwhile.
    const before = seen.length;
    fake.freezeWebSockets(true);
    await until(() => seen.slice(before).some((s) => s.ticker === A && s.stale === true) && seen.slice(before).some((s) => s.ticker === B && s.stale === true));
    expect(feed.current(A)!.stale).toBe(true);
    placed('user-p1', A, 'ask', '0.5500', '2');
    fake.freezeWebSockets(false);
    await expectFedIsVenue(feed, A);
    await expectFedIsVenue(feed, B);
    expect(feed.status().stream.reconnects).toBeGreaterThanOrEqual(3);
  });
});

describe('the Kalshi book feed: listeners, idle markets, closing', () => {
  it('calls onChange after each change; a remover stops it; a listener that throws harms nothing', async () => {
    const feed = feedOn();
    const calls: string[] = [];
    const kept: string[] = [];
    feed.onChange(() => {
      throw new Error('a reader failing');
    });
    const remove = feed.onChange((ticker) => calls.push(ticker));
    feed.onChange((ticker) => kept.push(ticker));
    feed.follow(A);
    await expectFedIsVenue(feed, A); // the first snapshot: one call
    expect(calls).toEqual([A]);

    placed('user-p1', A, 'bid', '0.4000', '10');
    placed('user-p2', A, 'bid', '0.4000', '5');
    placed('user-p3', A, 'ask', '0.4000', '12', { time_in_force: 'immediate_or_cancel' }); // two fills: two deltas
    await until(() => calls.length === 5);
    expect((await expectFedIsVenue(feed, A)).bids).toEqual([{ price: '0.4000', quantity: '3.00' }]);

    remove();
    placed('user-p1', A, 'bid', '0.3900', '1');
    await until(() => kept.length === 6);
    expect(calls).toHaveLength(5);
  });

  it("unsubscribes a market not followed for idleMs (Kalshi's ok confirms), the last one with unsubscribe; following again resubscribes", async () => {
    placed('user-p1', A, 'bid', '0.4000', '10');
    placed('user-p1', B, 'bid', '0.3000', '10');
    const feed = feedOn({ idleMs: 1500 });
    const seen = watch(feed);
    feed.follow(A);
    feed.follow(B);
    // B is read all along; A is not.
    const readingB = setInterval(() => feed.follow(B), 20);
    closers.push(async () => clearInterval(readingB));
    await expectFedIsVenue(feed, B);

    await until(() => {
      const status = feed.status();
      return status.followed.length === 1 && JSON.stringify(status.subscribedMarkets) === JSON.stringify([B]);
    });
    expect(feed.status().followed).toEqual([B]);
    expect(feed.current(A)).toBeUndefined();
    // A's first snapshot, then forgotten (current() undefined when told).
    expect(seen.filter((s) => s.ticker === A).map((s) => s.stale)).toEqual([false, undefined]);
    // A's changes no longer reach the feed; B's still do.
    placed('user-p2', A, 'bid', '0.4100', '1');
    placed('user-p2', B, 'bid', '0.3100', '1');
    await expectFedIsVenue(feed, B);
    expect(seen.filter((s) => s.ticker === A)).toHaveLength(2);

    clearInterval(readingB);
    // Nothing read: the last market goes with `unsubscribe`; the connection stays.
    await until(() => feed.status().followed.length === 0 && JSON.stringify(feed.status().subscribedMarkets) === '[]');
    expect(fake.openWebSockets).toBe(1);

    feed.follow(A);
    await expectFedIsVenue(feed, A);
    expect(feed.status().subscribedMarkets).toEqual([A]);
    expect(feed.status().stream.reconnects).toBe(0);
  });

  it('shows a refused key as a state, serves no book, and closes leaving nothing behind', async () => {
    const refused = new KalshiBookFeed({
      wsUrl: fake.wsUrl,
      signer: createKalshiSigner(stranger.keyId, stranger.privateKey),
      rest,
      backoff: { baseMs: 20, maxMs: 200 },
      handshakeTimeoutMs: 2000,
    });
    closers.push(() => refused.close());
    refused.follow(A);
    const problem = await until(() => refused.status().stream.lastProblem ?? undefined);
    expect(problem).toMatchObject({ kind: 'handshake_refused', status: 401 });
    expect(refused.current(A)).toBeUndefined();
    expect(JSON.stringify(refused.status())).not.toMatch(/SIGNATURE|PRIVATE KEY/i);

    const feed = feedOn();
    feed.follow(A);
    await until(() => fake.openWebSockets === 1 && feed.status().subscribedMarkets !== null);
    await feed.close();
    await refused.close();
    await until(() => fake.openWebSockets === 0);
    expect(feed.status().stream.state).toBe('closed');
    expect(feed.current(A)).toBeUndefined();
    feed.follow(A); // after close: nothing
    expect(feed.status().followed).toEqual([]);
  });
});
