/** Rules of the simulated venues and of live Kalshi: ticks, sizes, price units, fees, and input validation. */
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
