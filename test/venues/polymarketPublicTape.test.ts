/**
 * Polymarket's public tape, price-history candles and batch quotes (core/venues/polymarket/
 * marketData.ts) against the CLOB V2 fake over loopback: the Data API's trades in YES terms (a
 * taker selling NO at p bought YES at 1 - p), candles of the displayed price without sizes, the
 * tops of the YES books read in one POST /books with the venue's last trade price.
 */
import { PolymarketBooks } from '../../core/venues/polymarket/marketData';
import type { PolymarketMarketTerms } from '../../core/venues/polymarket/orderWire';
import { PolymarketPublicReads } from '../../core/venues/polymarket/publicReads';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { control, DEV_KEYS, FED_NO, FED_YES, trader } from '../support/polymarketTraders';

const alice = trader('a11ce000', DEV_KEYS.alice);
const FED = FED_YES.conditionId;

let fake: PolymarketFake;
let books: PolymarketBooks;
let dataApi: PolymarketPublicReads;

beforeAll(async () => {
  fake = await PolymarketFake.start({ accounts: [alice.account], controlApi: true, settlement: { automatic: false }, marketData: true });
  const terms: PolymarketMarketTerms = { venueMarketId: FED, yesTokenId: FED_YES.tokenId, noTokenId: FED_NO.tokenId, negRisk: false, tickSize: '0.01', minSize: '5' };
  dataApi = new PolymarketPublicReads({ baseUrl: fake.dataApiUrl, timeoutMs: 2000, name: 'The Polymarket Data API' });
  books = new PolymarketBooks(new PolymarketSession({ baseUrl: fake.baseUrl, timeoutMs: 2000 }), { byVenueMarketId: async (id) => (id === FED ? terms : null) }, dataApi);
});
afterAll(async () => {
  await books?.close();
  await dataApi?.close();
  await fake?.close();
});

function order(side: 'BUY' | 'SELL', price: string, size: string, over: { tokenId?: string; as?: string } = {}) {
  const answer = fake.placeOrderAs(over.as ?? fake.marketMaker, { tokenId: over.tokenId ?? FED_YES.tokenId, side, price, size, orderType: 'GTC' });
  expect(answer.status).toBe(200);
  return answer.body as { orderID: string; tradeIDs: string[] };
}

it('trades in YES terms, candles of the displayed price, quotes from one books read', async () => {
  order('SELL', '0.46', '10');
  const yesTaker = order('BUY', '0.46', '10', { as: alice.creds.key }); // alice buys YES at 0.46
  order('BUY', '0.55', '8', { tokenId: FED_NO.tokenId }); // rests on the NO book
  const noTaker = order('SELL', '0.55', '8', { tokenId: FED_NO.tokenId, as: alice.creds.key }); // alice sells NO at 0.55: bought YES at 0.45
  for (const trade of [...yesTaker.tradeIDs, ...noTaker.tradeIDs]) {
    expect((await control(fake, 'POST', `/_fake/trades/${trade}/status`, { status: 'MINED' })).status).toBe(200);
  }

  const page = await books.publicTrades({ venueMarketId: FED }, { limit: 50 });
  expect(page.trades.map((t) => [t.yesPrice, t.quantity, t.takerSide])).toEqual([
    ['0.45', '8', 'yes'],
    ['0.46', '10', 'yes'],
  ]);
  expect(page.nextCursor).toBeNull();
  const first = await books.publicTrades({ venueMarketId: FED }, { limit: 1 });
  expect(first.nextCursor).toBe('1');
  const second = await books.publicTrades({ venueMarketId: FED }, { limit: 1, cursor: first.nextCursor! });
  expect([...first.trades, ...second.trades].map((t) => t.id)).toEqual(page.trades.map((t) => t.id));
  await expect(books.publicTrades({ venueMarketId: FED }, { limit: 1, cursor: 'x' })).rejects.toMatchObject({ code: 'invalid_request' });

  const now = Date.now();
  const from = new Date(Math.floor(now / 60_000) * 60_000 - 5 * 60_000);
  const to = new Date(Math.floor(now / 60_000) * 60_000 + 60_000);
  const candles = await books.candles({ venueMarketId: FED }, '1m', from, to);
  expect(candles.length).toBeGreaterThan(0);
  for (const candle of candles) {
    expect(candle).toMatchObject({ volume: null, openInterest: null });
    expect(Number(candle.low)).toBeLessThanOrEqual(Number(candle.high));
  }
  const raw = (await (await fetch(`${fake.baseUrl}/prices-history?market=${FED_YES.tokenId}&startTs=${from.getTime() / 1000}&endTs=${to.getTime() / 1000}&fidelity=1`)).json()) as { history: { t: number; p: number }[] };
  expect(Number(candles[candles.length - 1]!.close)).toBe(raw.history[raw.history.length - 1]!.p);

  const quotes = await books.quotes([{ venueMarketId: FED }, { venueMarketId: `0x${'ee'.repeat(32)}` }]);
  expect([...quotes.keys()]).toEqual([FED]);
  const book = await books.orderBook(FED, 1);
  expect(quotes.get(FED)!.book).toEqual({ bids: book.bids, asks: book.asks });
  const last = (await (await fetch(`${fake.baseUrl}/last-trade-price?token_id=${FED_YES.tokenId}`)).json()) as { price: string };
  expect(Number(quotes.get(FED)!.activity.lastPrice)).toBe(Number(last.price));
});
