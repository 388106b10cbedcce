import { PRICE_TICKS_PER_DOLLAR, priceToTicks, quantityToUnits, ticksToPrice, unitsToQuantity } from '../../domain/matching/units';
import type { OrderBookView } from '../venue';
import { recordOf } from '../wireRecords';
import { bookFromKalshi } from './marketData';

/**
 * One Kalshi market's book as the `orderbook_delta` channel keeps it, and the pure steps that move
 * it (Trade API v2 WebSocket, asyncapi.yaml 2.0.0 of 2026; the fake: fakes/kalshi/marketDataMessages.ts):
 *
 * - `orderbook_snapshot` `{market_ticker, market_id, yes_dollars_fp?, no_dollars_fp?}`: both legs'
 *   bids as `[price_dollars, count_fp]` string pairs (best LAST, as the REST book); a side is
 *   omitted (or null) when empty. The snapshot replaces the whole book.
 * - `orderbook_delta` `{market_ticker, price_dollars, delta_fp, side: 'yes' | 'no', ts, ts_ms, ...}`:
 *   the count resting at one price of one leg changes by the signed `delta_fp` ("-3.00"); a level
 *   at 0 is gone. NO prices are NO-leg prices (we never ask for `use_yes_price`).
 *
 * The book is kept in Kalshi's terms (price ticks of $0.0001 -> hundredths of a contract, per leg)
 * and turned into our YES `OrderBookView` by the REST reader's own `bookFromKalshi`, so a fed book
 * and a REST book of the same state are deep-equal. Nothing here does I/O or keeps time.
 */

/** Hundredths of a contract per contract: Kalshi's counts have two decimals. */
const COUNT_UNITS = 100;

/** Both legs' bids: price ticks -> count in hundredths of a contract (always > 0). */
export interface KalshiLadders {
  readonly yes: Map<number, number>;
  readonly no: Map<number, number>;
}

/** Why a message could not be applied: it cannot be read, or it takes a level below zero (our book is not the venue's). */
export type DeltaOutcome = 'applied' | 'unreadable' | 'inconsistent';

export function emptyLadders(): KalshiLadders {
  return { yes: new Map(), no: new Map() };
}

/** A count as hundredths of a contract; null when not a plain non-negative decimal of whole hundredths. */
function countUnits(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  try {
    return quantityToUnits(value, COUNT_UNITS);
  } catch {
    return null;
  }
}

function priceTicks(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  try {
    return priceToTicks(value);
  } catch {
    return null;
  }
}

function readSide(value: unknown, into: Map<number, number>): boolean {
  if (value === undefined || value === null) return true; // "This key will not exist if there are no ... offers"
  if (!Array.isArray(value)) return false;
  for (const level of value) {
    if (!Array.isArray(level)) return false;
    const ticks = priceTicks(level[0]);
    const units = countUnits(level[1]);
    if (ticks === null || units === null) return false;
    if (units > 0) into.set(ticks, (into.get(ticks) ?? 0) + units);
  }
  return true;
}

/** The book an `orderbook_snapshot`'s `msg` gives; null when it cannot be read. */
export function laddersFromSnapshot(msg: unknown): KalshiLadders | null {
  const m = recordOf(msg);
  if (m === null) return null;
  const ladders = emptyLadders();
  return readSide(m.yes_dollars_fp, ladders.yes) && readSide(m.no_dollars_fp, ladders.no) ? ladders : null;
}

/** A signed count ("-3.00", "3.00") as hundredths of a contract. */
function signedUnits(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const negative = value.startsWith('-');
  const units = countUnits(negative || value.startsWith('+') ? value.slice(1) : value);
  return units === null ? null : negative ? -units : units;
}

/**
 * Applies an `orderbook_delta`'s `msg` to the book in place. Nothing changes unless it is
 * `applied`: an unreadable message or one that would leave a negative count says the book must be
 * replaced by a fresh snapshot.
 */
export function applyDelta(ladders: KalshiLadders, msg: unknown): DeltaOutcome {
  const m = recordOf(msg);
  const ticks = priceTicks(m?.price_dollars);
  const delta = signedUnits(m?.delta_fp);
  const side = m?.side === 'yes' ? ladders.yes : m?.side === 'no' ? ladders.no : null;
  if (ticks === null || delta === null || side === null) return 'unreadable';
  const after = (side.get(ticks) ?? 0) + delta;
  if (after < 0) return 'inconsistent';
  if (after === 0) side.delete(ticks);
  else side.set(ticks, after);
  return 'applied';
}

/** The venue's time of a message: `ts_ms` (unix ms), else `ts` (RFC 3339, or unix seconds); null when it carries none. */
export function messageTimeMs(msg: unknown): number | null {
  const m = recordOf(msg);
  if (m === null) return null;
  if (typeof m.ts_ms === 'number' && Number.isFinite(m.ts_ms)) return m.ts_ms;
  if (typeof m.ts === 'number' && Number.isFinite(m.ts)) return m.ts < 1e11 ? m.ts * 1000 : m.ts;
  if (typeof m.ts === 'string') {
    const parsed = Date.parse(m.ts);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** One leg as Kalshi's wire levels: best (highest) bid last. */
function wireLevels(side: ReadonlyMap<number, number>): [string, string][] {
  return [...side.entries()].sort(([a], [b]) => a - b).map(([ticks, units]) => [ticksToPrice(ticks), unitsToQuantity(units, COUNT_UNITS)]);
}

/** Our YES book of every level kept, exactly as `KalshiMarketData.orderBook` prints the same state. */
export function viewOfLadders(venueMarketId: string, ladders: KalshiLadders): OrderBookView {
  return bookFromKalshi(venueMarketId, wireLevels(ladders.yes), wireLevels(ladders.no), Number.POSITIVE_INFINITY);
}

/**
 * A YES book (a REST read) back in Kalshi's terms: our bids are YES bids, an ask at p is a NO bid at
 * 1 - p. Throws a RangeError on a price or quantity that is not Kalshi's.
 */
export function laddersFromView(view: OrderBookView): KalshiLadders {
  const ladders = emptyLadders();
  for (const level of view.bids) ladders.yes.set(priceToTicks(level.price), quantityToUnits(level.quantity, COUNT_UNITS));
  for (const level of view.asks) ladders.no.set(PRICE_TICKS_PER_DOLLAR - priceToTicks(level.price), quantityToUnits(level.quantity, COUNT_UNITS));
  for (const side of [ladders.yes, ladders.no]) for (const [ticks, units] of side) if (units <= 0) side.delete(ticks);
  return ladders;
}

/** Same levels, same order, same mid: the books print the same. */
export function sameBook(a: OrderBookView, b: OrderBookView): boolean {
  const sameLevels = (x: OrderBookView['bids'], y: OrderBookView['bids']) =>
    x.length === y.length && x.every((level, i) => level.price === y[i]!.price && level.quantity === y[i]!.quantity);
  return a.venueMarketId === b.venueMarketId && a.mid === b.mid && sameLevels(a.bids, b.bids) && sameLevels(a.asks, b.asks);
}
