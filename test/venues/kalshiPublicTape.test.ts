/**
 * Kalshi's public tape, candlesticks and quotes (core/venues/kalshi/marketData.ts) against the
 * faithful fake over loopback: after a trade between two participants, our trades, candles and
 * quotes carry the numbers Kalshi (the fake) publishes, in YES terms.
 */
import { KalshiMarketData } from '../../core/venues/kalshi/marketData';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import type { CatalogSeed } from '../../fakes/kalshi/markets';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';

const TICKER = 'KXTAPE-26DEC-T50';
const CATALOG: CatalogSeed = {
  series: [{ ticker: 'KXTAPE', title: 'Tape (fake)', category: 'Economics', fee_type: 'quadratic', fee_multiplier: '1' }],
  markets: [{ ticker: TICKER, event_ticker: 'KXTAPE-26DEC', series_ticker: 'KXTAPE', title: 'Tape market', close_time: '2026-12-31T19:00:00Z' }],
};

let fake: KalshiFake;
let client: KalshiMarketData;
beforeAll(async () => {
  fake = await KalshiFake.start({ catalog: CATALOG, accounts: [{ userId: 'maker', balanceDollars: '100000.00' }, { userId: 'taker', balanceDollars: '100000.00' }] });
  client = new KalshiMarketData({ restUrl: fake.baseUrl, timeoutMs: 2000, tier: KALSHI_RATE_TIERS.basic, backoff: { baseMs: 10, maxMs: 40, maxAttempts: 3 } });
});
afterAll(async () => {
  await client?.close();
  await fake?.close();
});

function place(user: string, side: 'bid' | 'ask', price: string, count: string): void {
  expect(fake.placeOrderAs(user, v2OrderBody(TICKER, { side, price, count })).status).toBe(201);
}

it('trades, candles and the quote carry the venue’s numbers, in YES terms', async () => {
  place('maker', 'bid', '0.4100', '10.00');
  place('maker', 'ask', '0.4500', '8.00');
  // A taker sells YES into the bid (it bought NO), then buys YES from the ask.
  place('taker', 'ask', '0.4100', '4.00');
  place('taker', 'bid', '0.4500', '3.00');

  const raw = (await (await fetch(`${fake.baseUrl}/markets/trades?ticker=${TICKER}`)).json()) as { trades: Record<string, string>[] };
  const page = await client.publicTrades({ venueMarketId: TICKER }, { limit: 50 });
  expect(page.trades.map((t) => [t.id, t.yesPrice, t.quantity, t.takerSide])).toEqual(raw.trades.map((t) => [t.trade_id, String(Number(t.yes_price_dollars)), String(Number(t.count_fp)), t.taker_side]));
  expect(page.trades.map((t) => [t.yesPrice, t.quantity, t.takerSide])).toEqual([
    ['0.45', '3', 'yes'],
    ['0.41', '4', 'no'],
  ]);
  expect(page.nextCursor).toBeNull();
  const oneByOne = await client.publicTrades({ venueMarketId: TICKER }, { limit: 1 });
  expect(oneByOne.trades).toHaveLength(1);
  const rest = await client.publicTrades({ venueMarketId: TICKER }, { limit: 1, cursor: oneByOne.nextCursor! });
  expect(rest.trades.map((t) => t.id)).toEqual([page.trades[1]!.id]);
  const later = await client.publicTrades({ venueMarketId: TICKER }, { limit: 50, since: new Date(page.trades[0]!.executedAt.getTime() + 1) });
  expect(later.trades).toEqual([]);

  const now = Date.now();
  const from = new Date(Math.floor(now / 60_000) * 60_000 - 10 * 60_000);
  const to = new Date(Math.floor(now / 60_000) * 60_000 + 60_000);
  const candles = await client.candles({ venueMarketId: TICKER }, '1m', from, to);
  expect(candles).toHaveLength(1);
  expect(candles[0]).toMatchObject({ open: '0.41', high: '0.45', low: '0.41', close: '0.45', volume: '7' });
  expect(candles[0]!.end.getTime() - candles[0]!.start.getTime()).toBe(60_000);

  const quotes = await client.quotes([{ venueMarketId: TICKER }, { venueMarketId: 'KXNOPE-1' }]);
  expect([...quotes.keys()]).toEqual([TICKER]);
  const book = await client.orderBook(TICKER, 1);
  const quote = quotes.get(TICKER)!;
  expect(quote.book.bids.map((l) => [Number(l.price), Number(l.quantity)])).toEqual(book.bids.map((l) => [Number(l.price), Number(l.quantity)]));
  expect(quote.book.asks.map((l) => [Number(l.price), Number(l.quantity)])).toEqual(book.asks.map((l) => [Number(l.price), Number(l.quantity)]));
  expect(quote.activity).toMatchObject({ lastPrice: '0.45', volume: '7', volume24h: '7' });
});
