import type { BookLevel, LevelChange, SideBook } from './types';

/**
 * The YES book the market page keeps from the market-data stream: the snapshot's `yes`, then each
 * delta's YES changes applied (the NO changes are the same levels at their complement). Prices are
 * compared as numbers, as the gateway compares them (`0.4` and `0.40` are one level); the strings
 * themselves are kept for display.
 */

const priceOf = (level: BookLevel) => Number(level.price);
const BEST_FIRST = { bid: (a: BookLevel, b: BookLevel) => priceOf(b) - priceOf(a), ask: (a: BookLevel, b: BookLevel) => priceOf(a) - priceOf(b) };

/** `levels` with one change: the level's quantity replaced, a new level put in its place, or the level gone (quantity 0). */
function withLevel(levels: BookLevel[], change: LevelChange): BookLevel[] {
  const others = levels.filter((level) => priceOf(level) !== Number(change.price));
  if (Number(change.quantity) === 0) return others;
  return [...others, { price: change.price, quantity: change.quantity }].sort(BEST_FIRST[change.side]);
}

/** The YES book after a delta's changes (its NO changes are ignored: they are the same levels). */
export function withChanges(book: SideBook, changes: readonly LevelChange[]): SideBook {
  let { bids, asks } = book;
  for (const change of changes) {
    if (change.outcome !== 'yes') continue;
    if (change.side === 'bid') bids = withLevel(bids, change);
    else asks = withLevel(asks, change);
  }
  return { bids, asks };
}

/** A point of the depth chart: a level's price and the contracts at that price or better. */
export interface DepthPoint {
  x: number;
  y: number;
  /** The level as the API sent it. */
  price: string;
  quantity: string;
}

/** Each side's levels with the size at that price or better, summed from the best outward; both in rising price order, as the chart's x axis. */
export function depthOf(book: SideBook): { bids: DepthPoint[]; asks: DepthPoint[] } {
  const cumulative = (levels: BookLevel[]) => {
    let total = 0;
    return levels.map((level) => {
      total += Number(level.quantity);
      return { x: priceOf(level), y: total, price: level.price, quantity: level.quantity };
    });
  };
  return { bids: cumulative(book.bids).reverse(), asks: cumulative(book.asks) };
}
