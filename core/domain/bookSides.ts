import { Decimal, formatDecimal } from './decimals';
import type { BookLevelView, OrderBookView } from './orderBookView';

/** One side's book: bids best (highest) first, asks best (lowest) first. */
export interface SideBook {
  readonly bids: readonly BookLevelView[];
  readonly asks: readonly BookLevelView[];
}

const complement = (level: BookLevelView): BookLevelView => ({ price: formatDecimal(new Decimal(1).sub(level.price)), quantity: level.quantity });

/**
 * The YES and NO views of one binary book (docs/market-data.md, "YES and NO"): a NO bid at p is a
 * YES ask at 1 - p, so the NO bids are the YES asks at their complement (best first stays best
 * first), and the NO asks the YES bids. Both views are one book: they always agree. Pure.
 */
export function bookSides(book: Pick<OrderBookView, 'bids' | 'asks'>): { yes: SideBook; no: SideBook } {
  return {
    yes: { bids: book.bids, asks: book.asks },
    no: { bids: book.asks.map(complement), asks: book.bids.map(complement) },
  };
}
