/** Prices as the real venue writes them: Kalshi integer cents ("43"), Polymarket dollars ("0.43"). */
import { PRICE_TICKS_PER_DOLLAR, ticksToPrice } from '../matching/units';
import type { MarketRules } from './types';

const TICKS_PER_CENT = PRICE_TICKS_PER_DOLLAR / 100;

export function toVenuePrice(rules: MarketRules, priceTicks: number): string {
  if (rules.priceUnit === 'cents') {
    if (priceTicks % TICKS_PER_CENT !== 0) throw new RangeError(`priceTicks ${priceTicks} is not a whole cent`);
    return String(priceTicks / TICKS_PER_CENT);
  }
  // As many decimals as the tick size has: "0.43" on a 0.01 market, "0.4321" on 0.0001.
  return ticksToPrice(priceTicks, rules.tickSize.length - 2);
}
