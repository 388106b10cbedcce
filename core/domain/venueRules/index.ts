/** Rules of the simulated venues and of live Kalshi: ticks, sizes, price units, fees, and input validation. */
import { kalshiMarketRules, type KalshiMarketOptions } from './kalshi';
import { polymarketMarketRules, type PolymarketMarketOptions } from './polymarket';
import type { MarketRules, VenueId } from './types';

export { kalshiMarketRules, KALSHI_TAKER_FEE_RATE, KALSHI_MAKER_FEE_RATE, type KalshiMarketOptions } from './kalshi';
export {
  liveKalshiMarketRules,
  kalshiFeeSchedule,
  readPriceRanges,
  priceRangeRules,
  isOnPriceRanges,
  KALSHI_LIVE_FEE_DECIMALS,
  WHOLE_CENT_PRICE_RANGES,
  type KalshiPriceRange,
  type LiveKalshiMarketOptions,
} from './kalshiLive';
export {
  polymarketMarketRules,
  polymarketMarketOrderWorstPrice,
  POLYMARKET_TICK_SIZES,
  POLYMARKET_UNITS_PER_SHARE,
  type PolymarketMarketOptions,
} from './polymarket';
export { validatePrice, validateQuantity, validateOrderInput } from './validation';
export { computeFee, computeFeeForSchedule, polymarketTakerFee } from './fees';
export { toVenuePrice } from './venuePrice';
export type * from './types';

export const SIM_VENUE_IDS: readonly VenueId[] = ['sim-kalshi', 'sim-polymarket'];

export function isSimVenueId(value: unknown): value is VenueId {
  return value === 'sim-kalshi' || value === 'sim-polymarket';
}

/** A market's rules by venue id; options of the other venue are ignored. */
export function marketRulesFor(venue: VenueId, options: KalshiMarketOptions & PolymarketMarketOptions = {}): MarketRules {
  return venue === 'sim-kalshi' ? kalshiMarketRules(options) : polymarketMarketRules(options);
}
