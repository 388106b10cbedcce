/**
 * Polymarket's public order books as live market data (core/venues/polymarket/marketData.ts, over an unsigned session)
 * against the CLOB V2 fake over loopback: a condition's book is its YES token's `GET /book`, read
 * as our YES book (best first on both sides, whatever order the venue sends: the venue sends best
 * LAST), depth-limited, with the mid; a condition without a YES token, or a token the CLOB has no
 * book for, is not tradable; a CLOB that fails is unavailable.
 */
import { PolymarketBooks } from '../../core/venues/polymarket/marketData';
import type { PolymarketMarketTerms } from '../../core/venues/polymarket/orderWire';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { defaultTokens } from '../../fakes/polymarket/markets';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { clobMaker } from '../support/polymarketClob';

const [YES] = defaultTokens();
const UNKNOWN_CONDITION = `0x${'ab'.repeat(32)}`;
const NO_BOOK_CONDITION = `0x${'cd'.repeat(32)}`;
const maker = clobMaker();

let clob: PolymarketFake;
let books: PolymarketBooks;

beforeAll(async () => {
  clob = await PolymarketFake.start({ accounts: [maker.account] });
  // The catalog's terms: one known condition, one whose token the CLOB does not know, none for the rest.
  const terms = (venueMarketId: string, yesTokenId: string): PolymarketMarketTerms => ({ venueMarketId, yesTokenId, noTokenId: '1', negRisk: false, tickSize: '0.01', minSize: '5' });
  const catalog = new Map([[YES!.conditionId, terms(YES!.conditionId, YES!.tokenId)], [NO_BOOK_CONDITION, terms(NO_BOOK_CONDITION, '123456789')]]);
  books = new PolymarketBooks(new PolymarketSession({ baseUrl: clob.baseUrl, timeoutMs: 1000 }), { byVenueMarketId: async (id) => catalog.get(id) ?? null });
  for (const [side, price, size] of [['BUY', '0.40', '5'], ['BUY', '0.42', '10'], ['SELL', '0.47', '6'], ['SELL', '0.45', '7.5']] as const) {
    await maker.rest(clob, { tokenId: YES!.tokenId, side, price, size });
  }
});
afterAll(async () => {
  await books?.close();
  await clob?.close();
});

it("reads the YES token's book best first on both sides, with the mid; depth cuts each side", async () => {
  await expect(books.orderBook(YES!.conditionId)).resolves.toEqual({
    venueMarketId: YES!.conditionId,
    bids: [{ price: '0.42', quantity: '10' }, { price: '0.4', quantity: '5' }],
    asks: [{ price: '0.45', quantity: '7.5' }, { price: '0.47', quantity: '6' }],
    mid: '0.435',
  });
  await expect(books.orderBook(YES!.conditionId, 1)).resolves.toMatchObject({ bids: [{ price: '0.42' }], asks: [{ price: '0.45' }] });
  const reads = clob.requests.filter((r) => r.path === '/book');
  expect(reads.map((r) => new URLSearchParams(r.query).get('token_id'))).toEqual([YES!.tokenId, YES!.tokenId]);
});

it('a condition without a YES token in the catalog, or whose token has no book at the CLOB, is not tradable', async () => {
  await expect(books.orderBook(UNKNOWN_CONDITION)).rejects.toMatchObject({ code: 'market_not_tradable' });
  await expect(books.orderBook(NO_BOOK_CONDITION)).rejects.toMatchObject({ code: 'market_not_tradable', message: expect.stringContaining('no order book') });
});

it('a CLOB answering 5xx or 429 is unavailable, named', async () => {
  clob.injectFault({ fault: { kind: 'server_error', status: 503 }, pathPrefix: '/book' });
  await expect(books.orderBook(YES!.conditionId)).rejects.toMatchObject({ code: 'venue_unavailable', message: expect.stringContaining('503') });
  clob.injectFault({ fault: { kind: 'rate_limit' }, pathPrefix: '/book' });
  await expect(books.orderBook(YES!.conditionId)).rejects.toMatchObject({ code: 'venue_unavailable', message: expect.stringContaining('429') });
});

it('a CLOB that does not answer in time is unavailable within the timeout', async () => {
  clob.injectFault({ fault: { kind: 'delay', ms: 1500, placeBeforeDelay: false }, pathPrefix: '/book' });
  await expect(books.orderBook(YES!.conditionId)).rejects.toMatchObject({ code: 'venue_unavailable', message: expect.stringContaining('did not answer in time') });
});
