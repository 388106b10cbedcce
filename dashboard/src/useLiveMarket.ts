import { useRef, useState } from 'react';
import { withChanges } from './marketBook';
import type { MarketQuote, MarketTrade, SideBook, StreamedQuote, Timestamp } from './types';
import type { LiveState } from './useLiveEvents';
import { useMarketStream } from './useMarketStream';

/** Levels a side the depth chart shows. */
export const BOOK_DEPTH = 20;

const QUOTE_FIELDS = [
  'yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'yes_bid_size', 'yes_ask_size', 'no_bid_size', 'no_ask_size',
  'last_price', 'volume_24h', 'volume', 'open_interest',
] as const;

/** The quote's fields of a market or a stream message, read at `asOf`. */
export function quoteOf(source: StreamedQuote | MarketQuote, asOf: Timestamp | null): MarketQuote {
  const quote = Object.fromEntries(QUOTE_FIELDS.map((field) => [field, source[field] ?? null])) as Omit<MarketQuote, 'as_of' | 'stale'>;
  return { ...quote, as_of: asOf, stale: source.stale };
}

export interface LiveMarket {
  live: LiveState;
  quote: MarketQuote;
  /** The YES book; undefined until the stream's first snapshot. */
  book: SideBook | undefined;
  /** The YES mid; null when a side is empty. */
  mid: string | null;
}

/**
 * One market kept current from GET /v1/markets/stream while shown: a `snapshot` replaces the book
 * and the quote (every new connection starts with one), a `delta`'s YES changes move the book, a
 * `ticker` replaces the quote, a `status` marks it stale; `trade`s go to `onTrade`, and each
 * snapshot calls `onSnapshot` (what happened before it is not in the stream: read it again).
 *
 * A streamed quote has no `as_of`: it is the read time of the book sent with it or last before it
 * (the snapshot's, or the delta's of the same read).
 */
export function useLiveMarket(
  marketId: string,
  initial: MarketQuote,
  on: { onSnapshot: () => void; onTrade: (trade: MarketTrade) => void },
): LiveMarket {
  const [quote, setQuote] = useState<MarketQuote>(initial);
  const [book, setBook] = useState<SideBook | undefined>(undefined);
  const [mid, setMid] = useState<string | null>(null);
  const bookReadAt = useRef<Timestamp | null>(initial.as_of);

  const live = useMarketStream(marketId, BOOK_DEPTH, (message) => {
    switch (message.type) {
      case 'snapshot':
        bookReadAt.current = message.as_of;
        setBook(message.yes);
        setMid(message.mid);
        setQuote(quoteOf(message.quote, message.quote.as_of ?? message.as_of));
        on.onSnapshot();
        break;
      case 'delta':
        bookReadAt.current = message.as_of;
        setBook((current) => current && withChanges(current, message.changes));
        setMid(message.mid);
        break;
      case 'trade':
        on.onTrade(message.trade);
        break;
      case 'ticker':
        setQuote(quoteOf(message.quote, message.quote.as_of ?? bookReadAt.current));
        break;
      case 'status':
        setQuote((current) => ({ ...current, stale: message.stale }));
        break;
    }
  });

  return { live, quote, book, mid };
}
