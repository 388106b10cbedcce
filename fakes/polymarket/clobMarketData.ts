/**
 * CLOB V2 public market data over REST on the Polymarket fake, beside `GET /book` (exchange.ts) and
 * `GET /prices-history` (priceHistory.ts). Public: no L2 headers.
 *
 * - `POST /books`, body `[{"token_id": "..."}, ...]` (clob-client-v2 at f3e1a05 `getOrderBooks`,
 *   src/endpoints.ts GET_ORDER_BOOKS "/books", `BookParams`; docs.polymarket.com "Get order books
 *   (request body)"): an array of `OrderBookSummary`, the same objects `GET /book` answers
 *   (bookSummary.ts), in the order asked. "Maximum 500 items per request" (docs "Prices & Orderbook").
 *   The `GET /books?token_ids=` form is documented but answers 400 `Invalid payload` to every
 *   encoding on the live venue (polyoxide spec-deviations, 2026-10-02), so the fake does the same.
 *   A body that is not such an array, or longer than 500, answers 400 `{"error": "Invalid payload"}`
 *   (the live venue's wording for a bad books payload, as above). A token without a book (unknown,
 *   malformed, or its market ended) is left out of the answer: the venue's behaviour there is not
 *   documented (an assumption).
 * - `GET /last-trade-price?token_id=` (clob-client-v2 `getLastTradePrice`, GET_LAST_TRADE_PRICE;
 *   docs "Get last trade price"): `{"price": "0.69", "side": "BUY"}`, the price of the token's last
 *   fill in its shortest form (where `/book` says "0.690": a third party's side-by-side record of
 *   May 2026) and the TAKER's side. Before any trade: `{"price": "0.5", "side": ""}` (what clients
 *   report: "side === '' means there was no trade; the API answers 0.5 by default"). It stays
 *   readable after the market ends. A malformed id: 400 `Invalid token id`; a token the fake does
 *   not trade: 404 `No orderbook exists for the requested token id` (the fake's choice).
 */
import { z } from 'zod';
import { clobErrors, type ClobAnswer } from './errors';
import type { PolymarketExchange } from './exchange';
import { shortest } from './bookSummary';

export const MAX_BOOKS_PER_REQUEST = 500;

const booksBody = z.array(z.object({ token_id: z.string() }).passthrough()).max(MAX_BOOKS_PER_REQUEST);
const invalidPayload = (): ClobAnswer => ({ status: 400, body: { error: 'Invalid payload' } });

/** `POST /books`. */
export function orderBooks(exchange: PolymarketExchange, body: unknown): ClobAnswer {
  const parsed = booksBody.safeParse(body);
  if (!parsed.success) return invalidPayload();
  const books = parsed.data.flatMap(({ token_id: tokenId }) => {
    const summary = /^[0-9]{1,78}$/.test(tokenId) ? exchange.summaryOf(tokenId) : undefined;
    return summary === undefined ? [] : [summary];
  });
  return { status: 200, body: books };
}

/** `GET /books?token_ids=`: refused as the live venue refuses it (and a `POST /books` body that is not JSON). */
export function orderBooksByQuery(): ClobAnswer {
  return invalidPayload();
}

/** `GET /last-trade-price?token_id=`. */
export function lastTradePrice(exchange: PolymarketExchange, tokenId: string | null): ClobAnswer {
  if (tokenId === null || !/^[0-9]{1,78}$/.test(tokenId)) return clobErrors.invalidTokenId();
  if (exchange.token(tokenId) === undefined) return clobErrors.noOrderbook();
  const last = exchange.lastTradeOf(tokenId);
  return { status: 200, body: last === undefined ? { price: '0.5', side: '' } : { price: shortest(last.price), side: last.side } };
}
