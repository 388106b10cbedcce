/** The matching engine: pure order books for simulated binary-market venues. */
export { OrderBook, type OrderBookOptions } from './orderBook';
export { MatchingEngine } from './matchingEngine';
export {
  PRICE_TICKS_PER_DOLLAR,
  MIN_PRICE_TICKS,
  MAX_PRICE_TICKS,
  PRICE_DECIMALS,
  priceToTicks,
  ticksToPrice,
  quantityToUnits,
  unitsToQuantity,
  decimalsOfPowerOfTen,
} from './units';
export {
  complementTicks,
  toYesTerms,
  toYesPriceTicks,
  fromYesPriceTicks,
  type YesTerms,
} from './yesNoComplement';
export type * from './types';
