import type { Db } from '../../db/prismaClient';
import { DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH } from '../../../contract/inputBounds';
import { bookSides, type SideBook } from '../../domain/bookSides';
import { invalidRequest } from '../../domain/errors';
import type { VenueRegistry } from '../../venues/venue';
import { venueName, type VenueName } from '../../venues/venueModules';
import type { Scope } from '../scope';
import { marketWithData } from './marketSource';

/** A market's book now, in both outcomes' terms. */
export interface MarketOrderBook {
  marketId: string;
  venue: VenueName;
  venueMarketId: string;
  yes: SideBook;
  no: SideBook;
  /** The YES mid; null without a two-sided book. */
  mid: string | null;
  /** When this answer was read from the venue's book, or the venue's time of the fed book's last change. */
  asOf: Date;
  /** True when the venue could not be read and a live venue's last fed book is answered (docs/market-data.md, "Live books"). */
  stale: boolean;
}

/**
 * The book of a market the scope sees (docs/market-data.md): read from its venue now (the simulated
 * venue's book, a live venue's public order book), `depth` levels a side (1 to 100, 10 by default),
 * with the YES and NO views of it. A venue not running here, or one that cannot be asked now, is
 * `venue_unavailable`: a book is never made up.
 */
export async function marketOrderBook(db: Db, venues: VenueRegistry, scope: Scope, marketId: string, depth?: number | null): Promise<MarketOrderBook> {
  const levels = depth ?? DEFAULT_BOOK_DEPTH;
  if (!Number.isInteger(levels) || levels < 1 || levels > MAX_BOOK_DEPTH) throw invalidRequest('depth', `depth must be an integer from 1 to ${MAX_BOOK_DEPTH}.`);
  const { market, data } = await marketWithData(db, venues, scope, marketId, 'its book');
  const book = await data.orderBook(market.venueMarketId, levels);
  const asOf = book.asOf ?? new Date();
  return {
    marketId: market.id,
    venue: venueName(market.venue),
    venueMarketId: market.venueMarketId,
    ...bookSides({ bids: book.bids.slice(0, levels), asks: book.asks.slice(0, levels) }),
    mid: book.mid,
    asOf,
    stale: book.stale ?? false,
  };
}
