import { Decimal, formatDecimal } from './decimals';
import type { OrderBookView } from './orderBookView';

/**
 * A market's quote (docs/market-data.md, "Quotes"): the top of its book in both outcomes' terms
 * (a NO bid at p is a YES ask at 1 - p, so `noBid` is 1 - `yesAsk` with the same size), the last
 * trade's YES price, contracts traded in the last 24 hours and in all, open interest where the
 * venue gives it, and when the data is from; `stale` when it could not be read fresh.
 */
export interface MarketQuote {
  readonly yesBid: string | null;
  readonly yesAsk: string | null;
  readonly noBid: string | null;
  readonly noAsk: string | null;
  readonly yesBidSize: string | null;
  readonly yesAskSize: string | null;
  readonly noBidSize: string | null;
  readonly noAskSize: string | null;
  readonly lastPrice: string | null;
  readonly volume24h: string | null;
  readonly volume: string | null;
  readonly openInterest: string | null;
  readonly asOf: Date | null;
  readonly stale: boolean;
}

/** What a venue's activity says beside its book. */
export interface MarketActivity {
  readonly lastPrice: string | null;
  readonly volume24h: string | null;
  readonly volume: string | null;
  readonly openInterest: string | null;
}

export const NO_ACTIVITY: MarketActivity = { lastPrice: null, volume24h: null, volume: null, openInterest: null };

const complement = (price: string | undefined): string | null => (price === undefined ? null : formatDecimal(new Decimal(1).sub(price)));

/** A quote from the top of a YES book (prices as the book reads them, their complements as bookSides.ts writes them) and the market's activity, read at `asOf`. Pure. */
export function quoteOf(book: Pick<OrderBookView, 'bids' | 'asks'>, activity: MarketActivity, asOf: Date | null, stale = false): MarketQuote {
  const bid = book.bids[0];
  const ask = book.asks[0];
  return {
    yesBid: bid?.price ?? null,
    yesAsk: ask?.price ?? null,
    noBid: complement(ask?.price),
    noAsk: complement(bid?.price),
    yesBidSize: bid?.quantity ?? null,
    yesAskSize: ask?.quantity ?? null,
    noBidSize: ask?.quantity ?? null,
    noAskSize: bid?.quantity ?? null,
    ...activity,
    asOf,
    stale,
  };
}

/** A market whose venue could not be asked now: nothing made up, said stale. Pure. */
export function unavailableQuote(activity: MarketActivity = NO_ACTIVITY): MarketQuote {
  return quoteOf({ bids: [], asks: [] }, activity, null, true);
}
