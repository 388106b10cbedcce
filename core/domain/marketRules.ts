import Decimal from 'decimal.js';
import { marketRulesFor, type MarketRules } from './venueRules';
import type { PolymarketTickSize } from './venueRules/types';
import { venueName, type VenueColumn } from './venues';

/** The trading rules of one listed market, from its catalog row (venue, tick size, minimum size). */
export function rulesForMarket(market: { venue: VenueColumn; tickSize: Decimal.Value; minSize: Decimal.Value }): MarketRules {
  const venue = venueName(market.venue);
  const simulated = venue === 'kalshi' ? 'sim-kalshi' : venue === 'polymarket' ? 'sim-polymarket' : venue;
  return marketRulesFor(simulated, {
    tickSize: new Decimal(market.tickSize.toString()).toFixed() as PolymarketTickSize,
    minOrderSize: new Decimal(market.minSize.toString()).toFixed(),
  });
}
