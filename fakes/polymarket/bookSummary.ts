/**
 * CLOB V2's `OrderBookSummary` (`GET /book`, `POST /books`) and the hash the venue puts in it, in
 * its `book` messages and in every `price_change` entry of the market channel.
 *
 * The summary (clob-client-v2 at f3e1a05, src/types/clob.ts `OrderBookSummary`; the key order is
 * the server's, as captured from the live venue: NautilusTrader's test_data/
 * clob_book_response_empty_ask.json, captured 2026-08-03 from clob.polymarket.com/book):
 *
 *   {market, asset_id, timestamp, hash, bids, asks, min_order_size, tick_size, neg_risk, last_trade_price}
 *
 * - `timestamp`: unix MILLISECONDS as a string (13 digits; polyoxide's spec-deviations record of
 *   2026-10-02 and every capture).
 * - `bids` ascending and `asks` descending: the best price is LAST on each side (docs.polymarket.com
 *   "Prices & Orderbook": "the best bid and ask are the last entries in their respective arrays").
 * - level `price` and `size` are the shortest decimal: "0.5", "0.9", "70281.2", "800" (the hash-verified
 *   captures below; never "0.50").
 * - `last_trade_price`: "" before the token's first trade, else the price with at least THREE decimals:
 *   "0.920" on a 0.01-tick book, "0.255" on a 0.001-tick one (the same captures; REST
 *   `/last-trade-price` answers "0.69" where `/book` says "0.690" for the same token, as a third
 *   party recorded both in May 2026). Three decimals is all the captures show; on a 0.0001 tick the
 *   fake keeps the tick's four (an assumption). The fake writes it so with its `marketData` option
 *   (server.ts); without, in its shortest form ("0.56"), as it did before it had market data (tests
 *   written against that read it so).
 *
 * The hash (py-clob-client-v2 at b0a97fa, py_clob_client_v2/utilities.py
 * `generate_orderbook_summary_hash`, "Server-compatible orderbook hash", the fix of
 * Polymarket/py-clob-client#232): SHA-1, lower-case hex (40 characters, no 0x), over the COMPACT JSON
 * (no spaces) of the ten fields above IN THAT ORDER, with `hash` set to "" and each level reduced to
 * `{price, size}`. Verified here against three live captures whose hashes it reproduces byte for byte
 * (NautilusTrader test_data/clob_book_response_empty_ask.json; ws_book_snapshot_captured.json, a
 * market-channel `book` that carries neither `min_order_size` nor `neg_risk`, yet whose hash is over
 * `"min_order_size":"5"` and `"neg_risk":false`; and ws_market_price_change_crossing_burst.json, whose
 * first `price_change` entry's hash is that of the whole book after the change, with the price_change
 * message's own timestamp). The TypeScript client's `generateOrderBookSummaryHash` (clob-client-v2
 * src/utilities.ts) is the same SHA-1 over `JSON.stringify` of the object as received with `hash`
 * emptied in place, so it agrees on a `GET /book` answer (the server's key order) and on nothing
 * else. A consumer that keeps a book from `book` and `price_change` messages must therefore hash
 * the ten fields itself, knowing `min_order_size` and `neg_risk` from REST and formatting
 * `last_trade_price` as above.
 */
import { createHash } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import type { TokenSeed } from './markets';
import { PRICE_TICKS_PER_DOLLAR, UNITS_PER_SHARE } from './units';

/** One aggregated level as the fake's engine keeps it. */
export interface EngineLevel {
  readonly priceTicks: number;
  readonly quantity: number;
}

/** Best level FIRST on each side (the engine's order). */
export interface EngineDepth {
  readonly bids: readonly EngineLevel[];
  readonly asks: readonly EngineLevel[];
}

export interface OrderSummary {
  readonly price: string;
  readonly size: string;
}

export interface OrderBookSummary {
  readonly market: string;
  readonly asset_id: string;
  readonly timestamp: string;
  readonly hash: string;
  readonly bids: readonly OrderSummary[];
  readonly asks: readonly OrderSummary[];
  readonly min_order_size: string;
  readonly tick_size: string;
  readonly neg_risk: boolean;
  readonly last_trade_price: string;
}

/** A price in ticks as the venue writes a level's price: the shortest decimal ("0.5"). */
export function priceText(ticks: number): string {
  return new Decimal(ticks).div(PRICE_TICKS_PER_DOLLAR).toFixed();
}

/** A size in units as the venue writes it: the shortest decimal ("70281.2", "800"). */
export function sizeText(units: number): string {
  return new Decimal(units).div(UNITS_PER_SHARE).toFixed();
}

/** A decimal string in its shortest form ("0.560" -> "0.56"). */
export function shortest(value: Decimal.Value): string {
  return new Decimal(value).toFixed();
}

/** How a summary writes `last_trade_price`: the venue's (at least three decimals) or the shortest form. */
export type LastTradePriceFormat = 'venue' | 'shortest';

/** `last_trade_price` as the summary writes it: "" before any trade, else at least three decimals (or the shortest form). */
export function summaryLastTradePrice(lastTradePrice: string | undefined, tickSize: string, format: LastTradePriceFormat = 'venue'): string {
  if (lastTradePrice === undefined || lastTradePrice === '') return '';
  if (format === 'shortest') return shortest(lastTradePrice);
  return new Decimal(lastTradePrice).toFixed(Math.max(3, new Decimal(tickSize).decimalPlaces()));
}

/** The venue's hash of a summary: SHA-1 hex of the compact JSON of its ten fields in order, `hash` "". */
export function orderBookHash(summary: Omit<OrderBookSummary, 'hash'>): string {
  const payload = {
    market: summary.market,
    asset_id: summary.asset_id,
    timestamp: summary.timestamp,
    hash: '',
    bids: summary.bids.map((l) => ({ price: l.price, size: l.size })),
    asks: summary.asks.map((l) => ({ price: l.price, size: l.size })),
    min_order_size: summary.min_order_size,
    tick_size: summary.tick_size,
    neg_risk: summary.neg_risk,
    last_trade_price: summary.last_trade_price,
  };
  return createHash('sha1').update(JSON.stringify(payload)).digest('hex');
}

/** A token's book at `timestampMs` as the venue summarises it, with its hash. */
export function orderBookSummary(token: TokenSeed, depth: EngineDepth, lastTradePrice: string | undefined, timestampMs: number, format: LastTradePriceFormat = 'venue'): OrderBookSummary {
  const level = (l: EngineLevel): OrderSummary => ({ price: priceText(l.priceTicks), size: sizeText(l.quantity) });
  const unhashed = {
    market: token.conditionId,
    asset_id: token.tokenId,
    timestamp: String(timestampMs),
    bids: [...depth.bids].reverse().map(level),
    asks: [...depth.asks].reverse().map(level),
    min_order_size: token.minOrderSize,
    tick_size: token.tickSize,
    neg_risk: token.negRisk,
    last_trade_price: summaryLastTradePrice(lastTradePrice, token.tickSize, format),
  };
  const hash = orderBookHash(unhashed);
  return {
    market: unhashed.market,
    asset_id: unhashed.asset_id,
    timestamp: unhashed.timestamp,
    hash,
    bids: unhashed.bids,
    asks: unhashed.asks,
    min_order_size: unhashed.min_order_size,
    tick_size: unhashed.tick_size,
    neg_risk: unhashed.neg_risk,
    last_trade_price: unhashed.last_trade_price,
  };
}
