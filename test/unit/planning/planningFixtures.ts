import { kalshiMarketRules, polymarketMarketRules, type MarketRules } from '../../../core/domain/venueRules';
import type { ParentOrder, VenueMarketSnapshot } from '../../../core/domain/planning';
import type { VenueName } from '../../../core/venues/venueModules';

/** [price, quantity] pairs, YES terms, best first. */
type Levels = ReadonlyArray<readonly [string, string]>;

export const KALSHI = kalshiMarketRules();
export const KALSHI_MAKER_FEES = kalshiMarketRules({ makerFees: true });
export const POLYMARKET = polymarketMarketRules({ tickSize: '0.01', minOrderSize: '5' });
export const POLYMARKET_WITH_FEES = polymarketMarketRules({ tickSize: '0.01', minOrderSize: '5', takerFeeRateBps: 100 });

export function snapshot(venue: VenueName, rules: MarketRules, bids: Levels, asks: Levels): VenueMarketSnapshot {
  const view = (levels: Levels) => levels.map(([price, quantity]) => ({ price, quantity }));
  return { venue, rules, book: { venueMarketId: `${venue}-market`, bids: view(bids), asks: view(asks), mid: null } };
}

export function parent(overrides: Partial<ParentOrder>): ParentOrder {
  return {
    side: 'yes',
    action: 'buy',
    quantity: '10',
    strategy: 'sweep',
    venues: ['sim-kalshi', 'sim-polymarket'],
    ...overrides,
  };
}
