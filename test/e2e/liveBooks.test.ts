/**
 * Live books kept from the venues' feeds, through the public API (issue 29): on Kalshi (an
 * operator's market-data key: the signed orderbook_delta channel) and Polymarket (the public
 * market channel), against the fakes. The book a live key reads is the venue's, to the level; it
 * comes from the feed (no REST book read once the feed has the market); a change another
 * participant makes at the venue reaches a market-data stream at once; a sequence gap is repaired
 * by a snapshot; a frozen feed is never served as fresh.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal } from '../../core/domain/decimals';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import { eventually, FED, liveCoreSettings, liveMarketId, MAKER, newLiveTrader, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { MarketStreamClient } from '../support/marketStream';
import { startStack, type Stack } from '../support/stack';
import { newPolymarketTrader, PM_FED, startPolymarketLive, type PolymarketLive } from '../support/polymarketLive';

const operator = newKalshiKey();
let kalshi: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
const streams: MarketStreamClient[] = [];

beforeAll(async () => {
  kalshi = await startKalshiFake('production', [{ userId: 'user-operator', key: operator }]);
  const keyFile = path.join(mkdtempSync(path.join(tmpdir(), 'mk-operator-')), 'kalshi.pem');
  writeFileSync(keyFile, operator.privateKeyPem, { mode: 0o600 });
  stack = await startStack(
    testConfig(await liveCoreSettings('live_books', kalshi, {
      KALSHI_MARKET_DATA_KEY_ID: operator.keyId,
      KALSHI_MARKET_DATA_PRIVATE_KEY_FILE: keyFile,
      MARKET_FEED_QUIET_MS: '1000',
      MARKET_STREAM_POLL_MS: '60000', // the stream hears the feed's changes, not its own look
      CATALOG_CACHE_MS: '0',
    })),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'Live books');
  fed = await liveMarketId(stack.core.db, FED);
}, 60_000);
afterAll(async () => {
  streams.forEach((s) => s.close());
  await stack?.close();
  await kalshi?.close();
});

type Level = { price: string; quantity: string };
const book = async (depth = 100) => ok(await call<Record<string, any>>(trader.base, 'GET', `/v1/markets/${fed}/orderbook?depth=${depth}`, { key: trader.live }), 'book');
const venueBook = async () => {
  const raw = (await (await fetch(`${kalshi.baseUrl}/markets/${FED}/orderbook`)).json()) as { orderbook_fp: { yes_dollars?: string[][]; no_dollars?: string[][] } };
  const yes = (raw.orderbook_fp.yes_dollars ?? []).map(([p, q]) => [new Decimal(p!).toFixed(), new Decimal(q!).toFixed()]).reverse();
  const noAsYesAsks = (raw.orderbook_fp.no_dollars ?? []).map(([p, q]) => [new Decimal(1).sub(p!).toFixed(), new Decimal(q!).toFixed()]).reverse();
  return { bids: yes, asks: noAsYesAsks };
};
const ours = (levels: Level[]) => levels.map((l) => [new Decimal(l.price).toFixed(), new Decimal(l.quantity).toFixed()]);
const restBookReads = () => kalshi.requests.filter((r) => r.path.endsWith(`/markets/${FED}/orderbook`)).length;
const rest = (side: 'bid' | 'ask', price: string, count: string) => expect(kalshi.placeOrderAs(MAKER, v2OrderBody(FED, { side, price, count }))).toMatchObject({ status: 201 });
const sameAsVenue = async () => {
  const [answer, venue] = [await book(), await venueBook()];
  return !answer.stale && JSON.stringify([ours(answer.yes.bids), ours(answer.yes.asks)]) === JSON.stringify([venue.bids, venue.asks]) ? answer : undefined;
};

describe('Kalshi, over an operator’s market-data key', () => {
it('a live book is the venue’s to the level, kept from the feed: no REST read once the feed has it; another participant’s change reaches a stream at once', async () => {
  rest('bid', '0.4100', '12.00');
  rest('ask', '0.4600', '8.00');
  await eventually('the fed book equal to the venue’s', sameAsVenue);
  const reads = restBookReads();
  for (let i = 0; i < 5; i += 1) expect((await book()).stale).toBe(false);
  expect(restBookReads()).toBe(reads); // served from the feed: no GET .../orderbook at the venue
  const answer = await book(1);
  expect(Date.parse(answer.as_of)).toBeLessThanOrEqual(Date.now());

  const stream = await MarketStreamClient.open(trader.base, trader.live, `market_ids=${fed}`);
  streams.push(stream);
  await stream.next((m) => m.type === 'snapshot');
  rest('bid', '0.4200', '3.00'); // at the venue, not through us
  const delta = await stream.next((m) => m.type === 'delta', { what: 'the venue’s change on the stream' });
  expect(delta.changes.map((c: Level & { outcome: string; side: string }) => [c.outcome, c.side, Number(c.price), Number(c.quantity)])).toEqual(
    expect.arrayContaining([['yes', 'bid', 0.42, 3], ['no', 'ask', 0.58, 3]]),
  );
});

it('a sequence gap is repaired by a snapshot; a frozen feed is not served as fresh (the venue is read instead)', async () => {
  kalshi.injectSequenceGap(FED);
  rest('bid', '0.3900', '5.00'); // its delta is lost in the gap
  rest('ask', '0.4800', '2.00'); // the next delta shows the gap
  await eventually('the book repaired after the gap', sameAsVenue);

  kalshi.freezeMarketData(true, FED);
  rest('bid', '0.3800', '4.00'); // never sent on the frozen feed
  // Every answer is the venue's book: from REST while the feed is stale, never the frozen one as fresh.
  await eventually('the frozen feed caught (its book checked against REST)', sameAsVenue);
  // Frozen and the venue's REST book away too: the last fed book is answered, said stale with its old as_of.
  await eventually('the frozen book flagged stale at the quiet check', async () => {
    kalshi.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'GET', pathPrefix: `/trade-api/v2/markets/${FED}/orderbook`, times: 10 });
    const answer = await book();
    return answer.stale ? answer : undefined;
  });
  kalshi.clearFaults();
  kalshi.freezeMarketData(false, FED);
  rest('ask', '0.4700', '1.00');
  // The feed takes the market back once a snapshot has come (at its next quiet check): then no REST read.
  const fromFeed = async () => {
    const reads = restBookReads();
    const answer = await book();
    return restBookReads() === reads && !answer.stale ? answer : undefined;
  };
  await eventually('served from the feed again', fromFeed);
  expect(await sameAsVenue()).toBeDefined();
});

it('a stream whose market cannot be read says stale, then sends a fresh snapshot (its seq jumps) when it can', async () => {
  const stream = await MarketStreamClient.open(trader.base, trader.live, `market_ids=${fed}&depth=5`);
  streams.push(stream);
  const first = await stream.next((m) => m.type === 'snapshot');
  // The venue's public tape away: the stream's reads of the market fail (its book still comes from the feed).
  kalshi.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'GET', pathPrefix: '/trade-api/v2/markets/trades', times: 1000 });
  rest('bid', '0.3700', '2.00'); // a change at the venue: the stream reads the market, and cannot
  const stale = await stream.next((m) => m.type === 'status', { what: 'the stale status' });
  expect(stale).toMatchObject({ stale: true, seq: expect.any(Number) });
  kalshi.clearFaults();
  rest('bid', '0.3600', '2.00'); // the next change: read again, a fresh snapshot with what happened meanwhile
  const fresh = await stream.next((m) => m.type === 'snapshot', { from: stream.messages.indexOf(stale) + 1, what: 'the snapshot after the gap' });
  expect(fresh.seq).toBe(stale.seq + 1);
  expect(fresh.seq).toBeGreaterThan(first.seq);
  expect(fresh.yes.bids.some((l: Level) => Number(l.price) === 0.37)).toBe(true);
});
});

describe('Polymarket, over the public market channel', () => {
  let live: PolymarketLive;
  const wallet = newPolymarketTrader();
  const maker = newPolymarketTrader();
  beforeAll(async () => {
    live = await startPolymarketLive({
      database: 'live_books_pm', name: 'Live books (Polymarket)', wallet, maker,
      fake: { marketData: true },
      env: { MARKET_FEED_QUIET_MS: '1000', MARKET_STREAM_POLL_MS: '60000', CATALOG_CACHE_MS: '0' },
    });
  }, 60_000);
  afterAll(async () => {
    await live?.close();
  });

  const pmBook = async () => ok(await call<Record<string, any>>(live.trader.base, 'GET', `/v1/markets/${live.fed}/orderbook?depth=100`, { key: live.trader.live }), 'book');
  const bookReads = () => live.fake.requests.filter((r) => r.path === '/book').length;
  const venue = async () => {
    const raw = (await (await fetch(`${live.fake.baseUrl}/book?token_id=${PM_FED.yesTokenId}`)).json()) as { bids: { price: string; size: string }[]; asks: { price: string; size: string }[] };
    const levels = (side: { price: string; size: string }[], order: number) =>
      side.map((l) => [new Decimal(l.price).toFixed(), new Decimal(l.size).toFixed()]).sort((a, b) => order * (Number(a[0]) - Number(b[0])));
    return { bids: levels(raw.bids, -1), asks: levels(raw.asks, 1) };
  };

  it('the YES book is the venue’s, kept from the channel (no GET /book once it is), and a lost message is repaired by the hash check', async () => {
    await live.maker.post({ tokenId: PM_FED.yesTokenId, side: 'BUY', price: '0.41', size: '10' });
    await live.maker.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.47', size: '6' });
    const fromFeed = async () => {
      const reads = bookReads();
      const answer = await pmBook();
      const raw = await venue();
      const same = JSON.stringify([ours(answer.yes.bids), ours(answer.yes.asks)]) === JSON.stringify([raw.bids, raw.asks]);
      return bookReads() === reads + 1 && !answer.stale && same ? answer : undefined; // the one read is this test's own
    };
    await eventually('served from the channel, equal to the venue’s book', fromFeed);
    live.fake.loseMarketMessages(1, 'price_change', PM_FED.yesTokenId);
    await live.maker.post({ tokenId: PM_FED.yesTokenId, side: 'BUY', price: '0.42', size: '5' }); // lost on the channel
    await live.maker.post({ tokenId: PM_FED.yesTokenId, side: 'BUY', price: '0.40', size: '7' }); // its hash shows the loss
    await eventually('repaired and served from the channel again', async () => {
      const answer = await fromFeed();
      return answer && ours(answer.yes.bids).some(([price]) => price === '0.42') ? answer : undefined;
    });
  });
});
