import { createHash } from 'node:crypto';
import { Decimal } from '../../domain/decimals';
import type { BookLevelView, OrderBookView } from '../../domain/orderBookView';

/**
 * Polymarket's market channel read as books (pure: no I/O, no clock): the frames' messages parsed,
 * one token's book kept from `book` (replace) and `price_change` (set a level) messages, and the
 * venue's book hash computed over the kept book, to tell a book that follows the venue's from one
 * that missed a message. Sources: docs.polymarket.com "Market Channel" (the messages), CLOB V2's
 * `OrderBookSummary` (`GET /book`), and the hash of py-clob-client-v2 `generate_orderbook_summary_hash`
 * as the fake documents it (fakes/polymarket/bookSummary.ts, reproduced on live captures):
 *
 * - SHA-1, lower-case hex, over the COMPACT JSON of the ten summary fields in the server's order
 *   `{market, asset_id, timestamp, hash: "", bids, asks, min_order_size, tick_size, neg_risk,
 *   last_trade_price}`, levels `{price, size}` as the venue writes them, bids ascending and asks
 *   descending (the best price LAST);
 * - `timestamp`: the message's own (unix ms as a string): a `price_change` entry's hash is that of
 *   the whole book after the change, stamped with its message's timestamp;
 * - `min_order_size` and `neg_risk` are not on the channel: they come from REST `GET /book`;
 * - `last_trade_price`: "" before the token's first trade, else at least three decimals (the
 *   tick's, when it has more): "0.460". A `book` that carries it gives it as written; a
 *   `last_trade_price` message gives the price, which is written so here.
 *
 * Levels are kept as the venue wrote them (the hash is over its strings), keyed by their value, so
 * "0.5" and "0.50" are one level; what we serve (`view`) is normalised as `PolymarketBooks.orderBook`
 * normalises the REST book (marketData.ts): decimal `toFixed()`, best first, the mid of the best
 * bid and ask when both exist.
 */

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const TIMESTAMP = /^[0-9]{1,16}$/;

/** A level as the venue writes it. */
export interface WireLevel {
  readonly price: string;
  readonly size: string;
}

export type BookSide = 'BUY' | 'SELL';

/** A whole book: a channel `book` message, or a REST `GET /book` summary (which adds the statics). */
export interface BookMessage {
  readonly kind: 'book';
  readonly assetId: string;
  readonly market: string;
  /** Unix ms as the venue wrote it. */
  readonly timestamp: string;
  readonly hash: string;
  readonly bids: readonly WireLevel[];
  readonly asks: readonly WireLevel[];
  readonly tickSize: string;
  /** Absent from a channel `book` sent after a trade: the `last_trade_price` message before it said it. */
  readonly lastTradePrice?: string;
  /** REST only. */
  readonly minOrderSize?: string;
  /** REST only. */
  readonly negRisk?: boolean;
}

export interface PriceChangeEntry {
  readonly assetId: string;
  readonly price: string;
  /** The level's new total; "0" removes it. */
  readonly size: string;
  readonly side: BookSide;
  /** The hash of the token's whole book after the change (absent: nothing to verify). */
  readonly hash?: string;
}

export interface PriceChangeMessage {
  readonly kind: 'price_change';
  readonly market: string;
  readonly timestamp: string;
  readonly changes: readonly PriceChangeEntry[];
}

export interface LastTradeMessage {
  readonly kind: 'last_trade_price';
  readonly assetId: string;
  readonly price: string;
  readonly timestamp: string;
}

export interface TickSizeMessage {
  readonly kind: 'tick_size_change';
  readonly assetId: string;
  readonly newTickSize: string;
  readonly timestamp: string;
}

export type MarketChannelMessage = BookMessage | PriceChangeMessage | LastTradeMessage | TickSizeMessage;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isDecimal = (value: unknown): value is string => typeof value === 'string' && DECIMAL.test(value);
/** Unix ms as the venue writes it (a string; a whole number is taken as its digits); null when it is not one. */
function timestampOf(value: unknown): string | null {
  if (typeof value === 'string') return TIMESTAMP.test(value) ? value : null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
}
const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 200;

/** A side's levels; null when it is not a list of `{price, size}` decimals. */
function wireLevels(raw: unknown): WireLevel[] | null {
  if (!Array.isArray(raw)) return null;
  const levels: WireLevel[] = [];
  for (const level of raw) {
    if (!isRecord(level) || !isDecimal(level.price) || !isDecimal(level.size)) return null;
    levels.push({ price: level.price, size: level.size });
  }
  return levels;
}

/**
 * A whole book, from a channel `book` message or a REST `GET /book` answer (`event_type` is not
 * required: REST has none); null when something the book or its hash needs is missing or malformed.
 */
export function readBook(raw: unknown): BookMessage | null {
  if (!isRecord(raw)) return null;
  const bids = wireLevels(raw.bids);
  const asks = wireLevels(raw.asks);
  const timestamp = timestampOf(raw.timestamp);
  if (!isId(raw.asset_id) || !isId(raw.market) || timestamp === null || typeof raw.hash !== 'string' || bids === null || asks === null || !isDecimal(raw.tick_size)) return null;
  const last = raw.last_trade_price;
  if (last !== undefined && last !== '' && !isDecimal(last)) return null;
  return {
    kind: 'book',
    assetId: raw.asset_id,
    market: raw.market,
    timestamp,
    hash: raw.hash,
    bids,
    asks,
    tickSize: raw.tick_size,
    ...(typeof last === 'string' ? { lastTradePrice: last } : {}),
    ...(isDecimal(raw.min_order_size) ? { minOrderSize: raw.min_order_size } : {}),
    ...(typeof raw.neg_risk === 'boolean' ? { negRisk: raw.neg_risk } : {}),
  };
}

function readPriceChange(raw: Record<string, unknown>): PriceChangeMessage | null {
  const timestamp = timestampOf(raw.timestamp);
  if (!isId(raw.market) || timestamp === null || !Array.isArray(raw.price_changes)) return null;
  const changes: PriceChangeEntry[] = [];
  for (const entry of raw.price_changes) {
    if (!isRecord(entry) || !isId(entry.asset_id) || !isDecimal(entry.price) || !isDecimal(entry.size) || (entry.side !== 'BUY' && entry.side !== 'SELL')) return null;
    changes.push({ assetId: entry.asset_id, price: entry.price, size: entry.size, side: entry.side, ...(typeof entry.hash === 'string' && entry.hash !== '' ? { hash: entry.hash } : {}) });
  }
  return { kind: 'price_change', market: raw.market, timestamp, changes };
}

/**
 * One market-channel message (an element of an array frame, or a frame); null for what is not a
 * book message (`best_bid_ask`, `new_market`, `market_resolved`, an unknown type) or is malformed.
 * A malformed `book` or `price_change` is reported apart (`malformed`): it changed a book we
 * cannot follow.
 */
export function readMessage(raw: unknown): MarketChannelMessage | 'malformed' | null {
  if (!isRecord(raw)) return null;
  switch (raw.event_type) {
    case 'book':
      return readBook(raw) ?? 'malformed';
    case 'price_change':
      return readPriceChange(raw) ?? 'malformed';
    case 'last_trade_price': {
      const timestamp = timestampOf(raw.timestamp);
      if (!isId(raw.asset_id) || !isDecimal(raw.price) || timestamp === null) return 'malformed';
      return { kind: 'last_trade_price', assetId: raw.asset_id, price: raw.price, timestamp };
    }
    case 'tick_size_change': {
      const timestamp = timestampOf(raw.timestamp);
      if (!isId(raw.asset_id) || !isDecimal(raw.new_tick_size) || timestamp === null) return 'malformed';
      return { kind: 'tick_size_change', assetId: raw.asset_id, newTickSize: raw.new_tick_size, timestamp };
    }
    default:
      return null;
  }
}

/** The messages of a text frame (a JSON object or an array of them); `PONG` and unreadable text are none. */
export function readFrame(text: string): (MarketChannelMessage | 'malformed')[] {
  if (text === 'PONG') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: (MarketChannelMessage | 'malformed')[] = [];
  for (const raw of Array.isArray(parsed) ? parsed : [parsed]) {
    const message = readMessage(raw);
    if (message !== null) out.push(message);
  }
  return out;
}

/** `last_trade_price` as the summary writes it: at least three decimals, the tick's when it has more. */
export function summaryLastTradePrice(price: string, tickSize: string): string {
  return new Decimal(price).toFixed(Math.max(3, new Decimal(tickSize).decimalPlaces()));
}

/** What the hash needs and the channel does not say (REST `GET /book`). */
export interface BookStatics {
  readonly minOrderSize: string;
  readonly negRisk: boolean;
}

/** The venue's hash of a summary: SHA-1 hex of the compact JSON of its ten fields in order, `hash` "". */
export function orderBookHash(summary: {
  market: string;
  assetId: string;
  timestamp: string;
  bids: readonly WireLevel[];
  asks: readonly WireLevel[];
  minOrderSize: string;
  tickSize: string;
  negRisk: boolean;
  lastTradePrice: string;
}): string {
  const payload = {
    market: summary.market,
    asset_id: summary.assetId,
    timestamp: summary.timestamp,
    hash: '',
    bids: summary.bids.map((l) => ({ price: l.price, size: l.size })),
    asks: summary.asks.map((l) => ({ price: l.price, size: l.size })),
    min_order_size: summary.minOrderSize,
    tick_size: summary.tickSize,
    neg_risk: summary.negRisk,
    last_trade_price: summary.lastTradePrice,
  };
  return createHash('sha1').update(JSON.stringify(payload)).digest('hex');
}

interface KeptLevel {
  /** As the venue wrote them. */
  readonly wire: WireLevel;
  readonly price: Decimal;
}

const keyOf = (price: string) => new Decimal(price).toFixed();

/**
 * One token's book as the channel tells it. `replace` takes a whole book; `setLevel` a
 * `price_change` entry; `lastTrade` and `tickSize` the other two messages; `hash` is the venue's
 * hash of it at a timestamp; `view` our YES book of it.
 */
export class KeptBook {
  private readonly bids = new Map<string, KeptLevel>();
  private readonly asks = new Map<string, KeptLevel>();
  private market: string;
  private tick: string;
  /** As the summary writes it ("" before any trade). */
  private lastTradeText = '';
  /** The last trade's price, to write it again over a new tick; null before any trade. */
  private lastTradeValue: string | null = null;

  constructor(
    readonly assetId: string,
    book: BookMessage,
  ) {
    this.market = book.market;
    this.tick = book.tickSize;
    this.replace(book);
  }

  /** A whole book replaces the levels; a book without `last_trade_price` keeps the one known. */
  replace(book: BookMessage): void {
    this.market = book.market;
    this.tick = book.tickSize;
    this.bids.clear();
    this.asks.clear();
    for (const level of book.bids) this.put(this.bids, level);
    for (const level of book.asks) this.put(this.asks, level);
    if (book.lastTradePrice !== undefined) {
      this.lastTradeText = book.lastTradePrice;
      this.lastTradeValue = book.lastTradePrice === '' ? null : keyOf(book.lastTradePrice);
    }
  }

  /** A `price_change` entry: the level's new total ("0" removes it). */
  setLevel(side: BookSide, price: string, size: string): void {
    const levels = side === 'BUY' ? this.bids : this.asks;
    if (new Decimal(size).isZero()) levels.delete(keyOf(price));
    else this.put(levels, { price, size });
  }

  lastTrade(price: string): void {
    this.lastTradeValue = keyOf(price);
    this.lastTradeText = summaryLastTradePrice(price, this.tick);
  }

  tickSize(tick: string): void {
    this.tick = tick;
    if (this.lastTradeValue !== null) this.lastTradeText = summaryLastTradePrice(this.lastTradeValue, tick);
  }

  /** The venue's hash of this book stamped `timestamp` (the message's). */
  hash(timestamp: string, statics: BookStatics): string {
    return orderBookHash({
      market: this.market,
      assetId: this.assetId,
      timestamp,
      bids: sorted(this.bids, 1).map((l) => l.wire),
      asks: sorted(this.asks, -1).map((l) => l.wire),
      minOrderSize: statics.minOrderSize,
      tickSize: this.tick,
      negRisk: statics.negRisk,
      lastTradePrice: this.lastTradeText,
    });
  }

  /** Our YES book of it: every level, best first, normalised as the REST book is; the mid. */
  view(venueMarketId: string): OrderBookView {
    const bids = sorted(this.bids, -1).map(levelView);
    const asks = sorted(this.asks, 1).map(levelView);
    return { venueMarketId, bids, asks, mid: bids[0] && asks[0] ? new Decimal(bids[0].price).plus(asks[0].price).div(2).toFixed() : null };
  }

  private put(levels: Map<string, KeptLevel>, wire: WireLevel): void {
    const price = new Decimal(wire.price);
    levels.set(price.toFixed(), { wire: { price: wire.price, size: wire.size }, price });
  }
}

function sorted(levels: Map<string, KeptLevel>, direction: 1 | -1): KeptLevel[] {
  return [...levels.values()].sort((a, b) => direction * a.price.comparedTo(b.price));
}

function levelView(level: KeptLevel): BookLevelView {
  return { price: level.price.toFixed(), quantity: new Decimal(level.wire.size).toFixed() };
}

/** Two books' levels are the same (both sides, in order). */
export function sameLevels(a: OrderBookView, b: OrderBookView): boolean {
  const same = (x: readonly BookLevelView[], y: readonly BookLevelView[]) => x.length === y.length && x.every((l, i) => l.price === y[i]!.price && l.quantity === y[i]!.quantity);
  return same(a.bids, b.bids) && same(a.asks, b.asks);
}
