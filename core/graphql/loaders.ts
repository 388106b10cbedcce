import DataLoader from 'dataloader';
import type { Db } from '../db/prismaClient';
import { complexOrderExecutions, type ComplexOrderExecution } from '../services/complexOrders/executions';
import type { MarketQuote } from '../domain/quotes';
import { marketQuotes, type QuotedMarket } from '../services/marketData/quotes';
import type { QueuePositionView, VenueCallOptions, VenueRegistry } from '../venues/venue';
import type { VenueColumn } from '../venues/venueModules';

/**
 * Per-request loaders: a list of 200 orders asks each venue for queue positions in one pass
 * instead of one resolver call at a time, and a page of complex orders reads what their children
 * executed in one SQL query.
 */
export interface Loaders {
  queuePosition: DataLoader<{ orderId: string; venue: VenueColumn; subaccountId: string }, QueuePositionView | null, string>;
  complexOrderExecution: DataLoader<string, ComplexOrderExecution>;
  /** A page of markets' quotes: their books read from the venues together, their tapes in one SQL statement. */
  marketQuote: DataLoader<QuotedMarket, MarketQuote, string>;
}

/** `call`: the request's limits on venue calls (its deadline). */
export function createLoaders(db: Db, venues: VenueRegistry, call: VenueCallOptions = {}): Loaders {
  return {
    queuePosition: new DataLoader(
      async (keys) =>
        Promise.all(keys.map(async ({ orderId, venue, subaccountId }) =>
          // A queue position the venue cannot give now (a live venue's rate limit, an outage) is null, not the list failed.
          ((await (await venues.forSubaccount(venue, subaccountId))?.queuePosition(orderId, call).catch(() => null)) ?? null))),
      { cacheKeyFn: (key) => key.orderId },
    ),
    complexOrderExecution: new DataLoader(async (ids) => {
      const byId = await complexOrderExecutions(db, ids);
      return ids.map((id) => byId.get(id)!);
    }),
    marketQuote: new DataLoader((markets) => marketQuotes(db, venues, markets), { cacheKeyFn: (market) => market.id }),
  };
}
