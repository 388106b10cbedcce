import type { Db } from '../../db/prismaClient';
import { NO_ACTIVITY, quoteOf, unavailableQuote, type MarketActivity, type MarketQuote } from '../../domain/quotes';
import type { VenueRegistry } from '../../venues/venue';
import type { VenueColumn } from '../../venues/venueModules';
import { ourTapeStats } from './ourTape';

/** A market as quoting needs it. */
export interface QuotedMarket {
  readonly id: string;
  readonly venue: VenueColumn | string;
  readonly venueMarketId: string;
}

/**
 * The quotes of several markets (docs/market-data.md, "Quotes"), one per market, in order: the top
 * of each book read from its venue now, beside the activity of its tape (ours, for a venue that
 * publishes none; the venue's own figures otherwise, where it gives them). A venue that cannot be
 * asked makes its markets' quotes empty and `stale`, never the whole read fail.
 */
export async function marketQuotes(db: Db, venues: VenueRegistry, markets: readonly QuotedMarket[], now: Date = new Date()): Promise<MarketQuote[]> {
  const ours = markets.filter((m) => !venues.marketData(m.venue)?.publicTrades);
  const stats = await ourTapeStats(db, ours.map((m) => m.id), now);
  const reported = await venueQuotes(venues, markets.filter((m) => venues.marketData(m.venue)?.quotes));
  return Promise.all(
    markets.map(async (market) => {
      const fromVenue = reported.get(market.id);
      if (fromVenue) return fromVenue;
      const tape = stats.get(market.id);
      const activity: MarketActivity = tape ? { ...NO_ACTIVITY, lastPrice: tape.lastPrice, volume: tape.volume, volume24h: tape.volume24h } : NO_ACTIVITY;
      const data = venues.marketData(market.venue);
      if (!data) return unavailableQuote(activity);
      try {
        const book = await data.orderBook(market.venueMarketId, 1);
        // A live venue's fed book says when and whether it is current (core/venues/fedMarketData.ts).
        return quoteOf(book, activity, book.asOf ?? new Date(), book.stale ?? false);
      } catch {
        return unavailableQuote(activity);
      }
    }),
  );
}

/** The quotes of the markets whose venue reports them in batches: one read per venue; a venue that fails makes its markets stale. */
async function venueQuotes(venues: VenueRegistry, markets: readonly QuotedMarket[]): Promise<Map<string, MarketQuote>> {
  const byVenue = new Map<string, QuotedMarket[]>();
  for (const market of markets) {
    const listed = byVenue.get(market.venue);
    if (listed) listed.push(market);
    else byVenue.set(market.venue, [market]);
  }
  const quotes = new Map<string, MarketQuote>();
  await Promise.all(
    [...byVenue].map(async ([venue, listed]) => {
      const read = await venues.marketData(venue)!.quotes!(listed).catch(() => null);
      const asOf = new Date();
      for (const market of listed) {
        const quote = read?.get(market.venueMarketId);
        quotes.set(market.id, quote ? quoteOf(quote.book, quote.activity, asOf) : unavailableQuote());
      }
    }),
  );
  return quotes;
}
