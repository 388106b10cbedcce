import type { BookFeed } from './bookFeed';
import type { MarketData, OrderBookView } from './venue';

/**
 * A live venue's market data with its books kept from its feed (core/venues/bookFeed.ts): a book
 * read is the fed book when it is fresh (no venue call: as recent as the feed's last message,
 * `asOf` the venue's time of it), else the venue's REST book read now; only when that read fails
 * is a stale fed book answered, said `stale` with its old `asOf`, never as fresh. Every read
 * follows the market (the feed subscribes it on first use). Trades, candles and quotes go to the
 * venue as before, the quotes' tops taken from fresh fed books.
 */
export function fedMarketData(rest: MarketData, feed: BookFeed): MarketData {
  const fed = (venueMarketId: string, depth: number | undefined): OrderBookView | undefined => {
    feed.follow(venueMarketId);
    const kept = feed.current(venueMarketId);
    if (!kept) return undefined;
    const { book } = kept;
    return { venueMarketId, bids: book.bids.slice(0, depth), asks: book.asks.slice(0, depth), mid: book.mid, asOf: kept.asOf, stale: kept.stale };
  };
  return {
    async orderBook(venueMarketId, depth) {
      const kept = fed(venueMarketId, depth);
      if (kept && !kept.stale) return kept;
      try {
        return await rest.orderBook(venueMarketId, depth);
      } catch (error) {
        if (kept) return kept;
        throw error;
      }
    },
    ...(rest.publicTrades ? { publicTrades: (market, query) => rest.publicTrades!(market, query) } : {}),
    ...(rest.candles ? { candles: (market, interval, from, to) => rest.candles!(market, interval, from, to) } : {}),
    ...(rest.quotes
      ? {
          quotes: async (markets) => {
            const quotes = await rest.quotes!(markets);
            for (const market of markets) {
              const kept = fed(market.venueMarketId, 1);
              const quote = quotes.get(market.venueMarketId);
              if (kept && !kept.stale && quote) quotes.set(market.venueMarketId, { ...quote, book: { bids: kept.bids, asks: kept.asks } });
            }
            return quotes;
          },
        }
      : {}),
  };
}
