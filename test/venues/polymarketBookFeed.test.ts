/**
 * Polymarket's live books (core/venues/polymarket/bookFeed.ts) against the faithful CLOB V2 fake
 * over loopback, market data on (fakes/polymarket/marketChannel.ts, marketFeed.ts): the books kept
 * from the market channel equal the REST book (`PolymarketBooks.orderBook`) after orders rest, are
 * cancelled and trade, across a tick size change, on one connection for two markets, with every
 * hash the venue sent checked; a lost `price_change` is caught by its successor's hash and repaired
 * by a snapshot; a frozen feed is caught by the quiet check and the REST book taken; a dropped
 * channel makes the books stale until the reconnection's books; listeners hear the changes, and a
 * market nobody asks about is unsubscribed. Waits are on conditions, never on sleeps.
 */
import { PolymarketBookFeed, type PolymarketBookFeedOptions } from '../../core/venues/polymarket/bookFeed';
import { KeptBook, readBook, readFrame, summaryLastTradePrice } from '../../core/venues/polymarket/bookMessages';
import type { FedBook } from '../../core/venues/bookFeed';
import { PolymarketBooks } from '../../core/venues/polymarket/marketData';
import type { PolymarketMarketTerms } from '../../core/venues/polymarket/orderWire';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { orderBookHash } from '../../fakes/polymarket/bookSummary';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { DEV_KEYS, ELECTION_YES, FED_NO, FED_YES, trader } from '../support/polymarketTraders';

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);
const FED = FED_YES.conditionId;
const ELECTION = ELECTION_YES.conditionId;
const DEPTH = 100;

const catalog = new Map<string, PolymarketMarketTerms>([
  [FED, { venueMarketId: FED, yesTokenId: FED_YES.tokenId, noTokenId: FED_NO.tokenId, negRisk: false, tickSize: '0.01', minSize: '5' }],
  [ELECTION, { venueMarketId: ELECTION, yesTokenId: ELECTION_YES.tokenId, noTokenId: '1', negRisk: true, tickSize: '0.001', minSize: '5' }],
]);
const markets = { byVenueMarketId: async (id: string) => catalog.get(id) ?? null };

let fake: PolymarketFake;
let session: PolymarketSession;
let books: PolymarketBooks;
const feeds: PolymarketBookFeed[] = [];

beforeEach(async () => {
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], settlement: { automatic: false }, marketData: true });
  session = new PolymarketSession({ baseUrl: fake.baseUrl, timeoutMs: 5000 });
  books = new PolymarketBooks(session, markets);
});
afterEach(async () => {
  await Promise.all(feeds.splice(0).map((f) => f.close()));
  await session.close();
  await fake.close();
});

/** Generous limits for a loaded machine: a PONG late by a second is not a dead socket. */
function newFeed(options: Partial<PolymarketBookFeedOptions> = {}): PolymarketBookFeed {
  const feed = new PolymarketBookFeed({
    wsUrl: fake.marketChannelUrl,
    markets,
    session,
    quietMs: 60_000,
    retryMs: 100,
    resyncMs: 50,
    sweepMs: 25,
    stream: { pingIntervalMs: 200, staleAfterMs: 5000, backoff: { baseMs: 20, maxMs: 200 }, handshakeTimeoutMs: 5000 },
    ...options,
  });
  feeds.push(feed);
  return feed;
}

/** Every change a listener heard, with the book as it was then. */
function record(feed: PolymarketBookFeed): { id: string; fed: FedBook | undefined }[] {
  const log: { id: string; fed: FedBook | undefined }[] = [];
  feed.onChange((id) => log.push({ id, fed: feed.current(id) }));
  return log;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The fed book once it is fresh and deep-equal to the REST book (read again at each try). */
async function freshAndEqual(feed: PolymarketBookFeed, market: string): Promise<FedBook> {
  return until(`the fed book of ${market} fresh and equal to REST`, async () => {
    feed.follow(market);
    const fed = feed.current(market);
    if (fed === undefined || fed.stale) return undefined;
    const rest = await books.orderBook(market, DEPTH);
    const again = feed.current(market)!;
    return again === fed && JSON.stringify(fed.book) === JSON.stringify(rest) ? fed : undefined;
  });
}

function order(side: 'BUY' | 'SELL', price: string, size: string, over: { tokenId?: string; as?: string; orderType?: 'GTC' | 'FOK' | 'FAK' } = {}): string {
  const answer = fake.placeOrderAs(over.as ?? fake.marketMaker, { tokenId: over.tokenId ?? FED_YES.tokenId, side, price, size, orderType: over.orderType ?? 'GTC' });
  expect(answer.status).toBe(200);
  return (answer.body as { orderID: string }).orderID;
}

/** The fake's hash of a summary (written apart from ours). */
const fakeHash = (s: { market: string; asset_id: string; timestamp: string; bids: { price: string; size: string }[]; asks: { price: string; size: string }[]; min_order_size: string; tick_size: string; neg_risk: boolean; last_trade_price: string }) =>
  orderBookHash(s);

/** Market-channel sockets the fake has read a subscription from. */
const subscribedSockets = async () => fake.marketChannel.subscribedCount;

it('keeps both markets on one connection, equal to the REST book after orders rest, are cancelled and trade, across a tick size change, every hash matching', async () => {
  order('BUY', '0.40', '100');
  order('SELL', '0.50', '200');
  order('BUY', '0.6', '10', { tokenId: ELECTION_YES.tokenId });
  const feed = newFeed();
  const log = record(feed);
  const started = Date.now();
  feed.follow(FED);
  feed.follow(ELECTION);
  expect(feed.current(FED)).toBeUndefined(); // no snapshot yet
  await freshAndEqual(feed, FED);
  await freshAndEqual(feed, ELECTION);
  expect(await subscribedSockets()).toBe(1);

  const bid = order('BUY', '0.44', '50.5');
  order('SELL', '0.46', '30');
  order('BUY', '0.44', '20', { as: bob.creds.key }); // the level grows
  expect(fake.cancelOrderAs(fake.marketMaker, bid).status).toBe(200); // and shrinks
  order('BUY', '0.47', '25', { as: alice.creds.key }); // takes 25 of the 30 @ 0.46: last_trade_price, then book
  order('SELL', '0.44', '5', { as: alice.creds.key, orderType: 'FAK' }); // a seller takes some of the bid
  order('BUY', '0.612', '7', { tokenId: ELECTION_YES.tokenId });
  order('SELL', '0.65', '12', { tokenId: ELECTION_YES.tokenId });

  const fed = await freshAndEqual(feed, FED);
  expect(fed.book).toEqual(await books.orderBook(FED, DEPTH));
  expect(fed.book).toEqual({
    venueMarketId: FED,
    bids: [{ price: '0.44', quantity: '15' }, { price: '0.4', quantity: '100' }],
    asks: [{ price: '0.46', quantity: '5' }, { price: '0.5', quantity: '200' }],
    mid: '0.45',
  });
  expect(fed.asOf.getTime()).toBeGreaterThanOrEqual(started - 1000);
  expect(fed.asOf.getTime()).toBeLessThanOrEqual(Date.now());
  expect((await freshAndEqual(feed, ELECTION)).book).toEqual(await books.orderBook(ELECTION, DEPTH));

  // The tick changes: later hashes are over the new tick (and the last trade price written with it).
  expect(fake.changeTickSize(FED_YES.tokenId, '0.001')).toEqual({ ok: true, old: '0.01' });
  order('BUY', '0.455', '10');
  order('BUY', '0.46', '5', { as: alice.creds.key }); // a trade on the new tick
  const afterTick = await freshAndEqual(feed, FED);
  expect(afterTick.book.bids[0]).toEqual({ price: '0.455', quantity: '10' });

  // All from the channel: no hash failed, no snapshot or REST book was needed.
  expect(feed.status()).toMatchObject({ markets: 2, stale: 0, hashMismatches: 0, snapshots: 0, quietDifferences: 0, malformed: 0 });
  expect(log.length).toBeGreaterThan(0);
  expect(log.every((entry) => entry.fed?.stale === false)).toBe(true);
});

it('a lost price_change: the next hash does not match, the book is stale at once, and a snapshot repairs it', async () => {
  order('BUY', '0.40', '100');
  const feed = newFeed();
  feed.follow(FED);
  await freshAndEqual(feed, FED);
  const log = record(feed);

  fake.loseMarketMessages(1, 'price_change', FED_YES.tokenId);
  order('BUY', '0.44', '100'); // lost
  order('SELL', '0.47', '10'); // its hash is over a book with the bid at 0.44

  const fed = await freshAndEqual(feed, FED);
  expect(fed.book.bids).toEqual([{ price: '0.44', quantity: '100' }, { price: '0.4', quantity: '100' }]);
  // The change was applied, found not to match, and served stale until the snapshot replaced it.
  const staleAt = log.findIndex((entry) => entry.fed?.stale === true);
  expect(staleAt).toBeGreaterThanOrEqual(0);
  expect(log[staleAt]!.fed!.book.asks).toEqual([{ price: '0.47', quantity: '10' }]);
  expect(log[staleAt]!.fed!.book.bids).toEqual([{ price: '0.4', quantity: '100' }]);
  expect(log.slice(staleAt).some((entry) => entry.fed?.stale === false)).toBe(true);
  expect(feed.status()).toMatchObject({ hashMismatches: 1, quietDifferences: 0 });
  expect(feed.status().snapshots).toBeGreaterThanOrEqual(1);

  // The channel goes on from the snapshot: the next change checks.
  order('BUY', '0.45', '5');
  expect((await freshAndEqual(feed, FED)).book.bids[0]).toEqual({ price: '0.45', quantity: '5' });
  expect(feed.status().hashMismatches).toBe(1);
});

it('a frozen feed while the book changes: stale after quietMs with the REST book taken; after the thaw, fresh again', async () => {
  order('BUY', '0.40', '100');
  const feed = newFeed({ quietMs: 400 });
  feed.follow(FED);
  await freshAndEqual(feed, FED);
  const log = record(feed);

  fake.freezeMarketFeed(true);
  order('BUY', '0.44', '100');
  order('SELL', '0.47', '20');
  expect(feed.current(FED)!.book.bids).toEqual([{ price: '0.4', quantity: '100' }]); // the channel says nothing
  const expected = await books.orderBook(FED, DEPTH);

  const stale = await until('the frozen book flagged stale with the REST book', () => log.find((entry) => entry.fed?.stale === true && JSON.stringify(entry.fed.book) === JSON.stringify(expected)));
  expect(stale.id).toBe(FED);
  expect(feed.status().quietDifferences).toBeGreaterThanOrEqual(1);
  expect(feed.status().hashMismatches).toBe(0);

  fake.freezeMarketFeed(false);
  order('BUY', '0.45', '10');
  const fed = await freshAndEqual(feed, FED);
  expect(fed.book.bids).toEqual([{ price: '0.45', quantity: '10' }, { price: '0.44', quantity: '100' }, { price: '0.4', quantity: '100' }]);
  expect(fed.book.asks).toEqual([{ price: '0.47', quantity: '20' }]);
});

it('a dropped channel: every book stale at once, fresh again from the reconnection, changes made meanwhile included', async () => {
  order('BUY', '0.40', '100');
  const feed = newFeed();
  feed.follow(FED);
  feed.follow(ELECTION);
  await freshAndEqual(feed, FED);
  await freshAndEqual(feed, ELECTION);
  const log = record(feed);

  expect(fake.dropMarketChannel()).toBe(1);
  order('BUY', '0.44', '100'); // nobody hears it
  await until('both books stale', () => ([FED, ELECTION].every((id) => log.some((e) => e.id === id && e.fed?.stale === true)) ? true : undefined));

  const fed = await freshAndEqual(feed, FED);
  expect(fed.book.bids).toEqual([{ price: '0.44', quantity: '100' }, { price: '0.4', quantity: '100' }]);
  await freshAndEqual(feed, ELECTION);
  expect(feed.status().stream).toMatchObject({ state: 'connected' });
  expect(feed.status().stream!.reconnects).toBeGreaterThanOrEqual(1);
  expect(feed.status()).toMatchObject({ hashMismatches: 0, quietDifferences: 0 });
  expect(await subscribedSockets()).toBe(1);
});

it('tells listeners of each change; a market nobody follows for idleMs is unsubscribed, the connection closed with the last one', async () => {
  const feed = newFeed({ idleMs: 1500 });
  const heard: string[] = [];
  const remove = feed.onChange((id) => heard.push(id));
  feed.follow(FED);
  feed.follow(ELECTION);
  await freshAndEqual(feed, FED);
  await freshAndEqual(feed, ELECTION);
  expect(heard).toEqual(expect.arrayContaining([FED, ELECTION]));

  heard.length = 0;
  order('BUY', '0.41', '10');
  await until('a listener told of the change', () => {
    feed.follow(FED);
    feed.follow(ELECTION);
    return heard.includes(FED) ? true : undefined;
  });

  // ELECTION is asked about, FED is not: FED is dropped, on the wire too (the fake's own record of the socket).
  const sockets = (fake.marketChannel as unknown as { connections: Set<{ assets: Set<string> }> }).connections;
  await until('FED unsubscribed', () => {
    feed.follow(ELECTION);
    return feed.current(FED) === undefined && [...sockets].every((c) => !c.assets.has(FED_YES.tokenId)) ? true : undefined;
  });
  expect([...sockets].map((c) => [...c.assets])).toEqual([[ELECTION_YES.tokenId]]);
  heard.length = 0;
  order('BUY', '0.42', '10'); // FED: not heard any more
  order('BUY', '0.5', '10', { tokenId: ELECTION_YES.tokenId });
  await until('the ELECTION change heard', () => {
    feed.follow(ELECTION);
    return heard.includes(ELECTION) ? true : undefined;
  });
  expect(heard).not.toContain(FED);

  // Followed again: subscribed again, with a fresh book.
  expect((await freshAndEqual(feed, FED)).book.bids[0]).toEqual({ price: '0.42', quantity: '10' });

  // Nobody asks any more: both dropped, the connection closed.
  await until('every market dropped', () => (feed.status().markets === 0 ? true : undefined));
  expect(feed.status().stream).toBeNull();
  await until('the socket gone', async () => ((await subscribedSockets()) === 0 ? true : undefined));

  remove();
  heard.length = 0;
  feed.follow(FED);
  await until('FED followed again', () => feed.current(FED));
  expect(heard).toEqual([]);
});

it('close() ends the connection and the timers; nothing is followed after', async () => {
  const feed = newFeed();
  feed.follow(FED);
  await freshAndEqual(feed, FED);
  await feed.close();
  await until('the socket gone', async () => ((await subscribedSockets()) === 0 ? true : undefined));
  feed.follow(FED);
  expect(feed.current(FED)).toBeUndefined();
  expect(feed.status()).toMatchObject({ markets: 0, stream: null });
});

describe('the book messages (pure)', () => {
  const summary = {
    market: FED,
    asset_id: FED_YES.tokenId,
    timestamp: '1795000000000',
    bids: [{ price: '0.4', size: '100' }, { price: '0.44', size: '50.5' }],
    asks: [{ price: '0.5', size: '200' }, { price: '0.46', size: '30' }],
    min_order_size: '5',
    tick_size: '0.01',
    neg_risk: false,
    last_trade_price: '0.460',
  };

  it("hashes a book as the venue does (the fake's own hash of the same summary), the venue's strings kept, served normalised", () => {
    const hash = fakeHash(summary);
    const message = readBook({ ...summary, hash, event_type: 'book' })!;
    expect(message).toMatchObject({ kind: 'book', minOrderSize: '5', negRisk: false, lastTradePrice: '0.460' });
    const book = new KeptBook(FED_YES.tokenId, message);
    const statics = { minOrderSize: '5', negRisk: false };
    expect(book.hash(summary.timestamp, statics)).toBe(hash);
    expect(book.hash('1795000000001', statics)).not.toBe(hash); // the timestamp is hashed
    expect(book.view(FED)).toEqual({ venueMarketId: FED, bids: [{ price: '0.44', quantity: '50.5' }, { price: '0.4', quantity: '100' }], asks: [{ price: '0.46', quantity: '30' }, { price: '0.5', quantity: '200' }], mid: '0.45' });

    // "0.50" is the level "0.5"; a size "0" removes a level.
    book.setLevel('SELL', '0.50', '10');
    book.setLevel('BUY', '0.44', '0');
    expect(book.view(FED)).toMatchObject({ bids: [{ price: '0.4', quantity: '100' }], asks: [{ price: '0.46', quantity: '30' }, { price: '0.5', quantity: '10' }], mid: '0.43' });
    // A trade's price is written with three decimals, or the tick's; a new tick writes it again.
    book.lastTrade('0.46');
    book.setLevel('SELL', '0.5', '200'); // (hashed as written: the venue writes the shortest form)
    book.setLevel('BUY', '0.44', '50.5');
    expect(book.hash(summary.timestamp, statics)).toBe(hash);
    book.tickSize('0.0001');
    expect(book.hash(summary.timestamp, statics)).toBe(fakeHash({ ...summary, tick_size: '0.0001', last_trade_price: '0.4600' }));
    expect(summaryLastTradePrice('0.255', '0.001')).toBe('0.255');
  });

  it('reads frames: objects and arrays, PONG and other messages none, a malformed book message named', () => {
    expect(readFrame('PONG')).toEqual([]);
    expect(readFrame('not json')).toEqual([]);
    expect(readFrame(JSON.stringify({ event_type: 'best_bid_ask', asset_id: '1' }))).toEqual([]);
    expect(readFrame(JSON.stringify([{ event_type: 'price_change', market: FED, timestamp: '1', price_changes: [{ asset_id: '1', price: '0.5', size: 'x', side: 'BUY' }] }]))).toEqual(['malformed']);
    expect(readFrame(JSON.stringify({ event_type: 'price_change', market: FED, timestamp: 1795000000000, price_changes: [{ asset_id: '1', price: '0.5', size: '0', side: 'SELL', hash: 'ab' }] }))).toEqual([
      { kind: 'price_change', market: FED, timestamp: '1795000000000', changes: [{ assetId: '1', price: '0.5', size: '0', side: 'SELL', hash: 'ab' }] },
    ]);
    expect(readFrame(JSON.stringify({ event_type: 'tick_size_change', asset_id: '1', market: FED, old_tick_size: '0.01', new_tick_size: '0.001', timestamp: '5' }))).toEqual([{ kind: 'tick_size_change', assetId: '1', newTickSize: '0.001', timestamp: '5' }]);
  });
});
