/**
 * The simulated venues of the test environment, sim-kalshi and sim-polymarket (and any other
 * test-environment venue module's), built from the market catalog. See docs/simulated-venues.md.
 */
import { restVenueSpelling } from '../../../contract/venueSpelling';
import type { VenueColumn, VenueName } from '../venueNames';
import type { MarketMakerOptions } from './marketMaker';
import type { SimMarketConfig, SimVenueName } from './simMarketRules';
import { SimVenue } from './simVenue';
import { SIM_VENUE_NAMES } from './venueModules';

export { SimVenue, type SimVenueOptions, type RestingOrderToRestore, type FillListener } from './simVenue';
export { MarketMaker, DEFAULT_MARKET_MAKER_OPTIONS, MARKET_MAKER_ORDER_PREFIX, type MarketMakerOptions } from './marketMaker';
export { SimVenueError } from './venueRejections';
export type { SimMarketConfig, SimVenueName } from './simMarketRules';

/** A catalog listing: its venue as the API (`sim-kalshi`) or the database (`sim_kalshi`) spells it. */
export interface SimCatalogMarket extends SimMarketConfig {
  readonly venue: VenueName | VenueColumn;
}

export interface CreateSimVenuesOptions {
  /** One seed for both venues; each market's liquidity is drawn from (seed, venue, market id). */
  readonly seed: number;
  /** Fill timestamps. Default: the system clock. */
  readonly clock?: () => Date;
  readonly marketMaker?: MarketMakerOptions;
  /**
   * The simulated venues to open (REST spelling): by default the two built-in ones; the registry
   * passes every test-environment venue it lists, whose other markets bring their module's rules.
   */
  readonly venues?: readonly VenueName[];
}

/**
 * The simulated venues, each with its own markets from `markets`; listings of other venues (the
 * live ones) are ignored, so the whole catalog can be passed.
 */
export function createSimVenues(markets: readonly SimCatalogMarket[], options: CreateSimVenuesOptions): Map<VenueName, SimVenue> {
  const clock = options.clock ?? (() => new Date());
  const venues = new Map<VenueName, SimVenue>();
  for (const name of options.venues ?? SIM_VENUE_NAMES) {
    const listed = markets.filter((market) => restVenueSpelling(market.venue) === name);
    venues.set(name, new SimVenue({ name, markets: listed, seed: options.seed, clock, marketMaker: options.marketMaker }));
  }
  return venues;
}
