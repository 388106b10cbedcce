import { Decimal } from './decimals';
import { PRICE_TICKS_PER_DOLLAR } from './matching';
import { computeFee, type MarketRules } from './venueRules';

/**
 * What a market's rules are built from: its catalog row (the live Kalshi columns are absent or null
 * on other rows). Its venue's module builds them (core/venues/venueModule.ts, marketRules).
 */
export interface MarketRulesRow {
  /** The venue, as the database spells it. */
  venue: string;
  tickSize: Decimal.Value;
  minSize: Decimal.Value;
  /** Live Kalshi: `price_ranges` as the sync stored them (jsonb). */
  priceRanges?: unknown;
  feeType?: string | null;
  feeMultiplier?: Decimal.Value | null;
  fractionalTrading?: boolean;
}

/**
 * The most a taker order can pay in fees, for the cash check before it is sent. Both venues' fees
 * grow with P x (1 - P), which peaks at 0.5, so the fee at min(worst price, 0.5) bounds every fill
 * price; a venue that rounds each price level's fee up (Kalshi: to the cent, live to $0.0001) may
 * add one rounding step per level the order walks, at most one level per quantity step and per
 * tick up to the worst price.
 */
export function maxTakerFee(rules: MarketRules, worstPrice: Decimal, quantity: Decimal): Decimal {
  const worstTicks = Math.min(worstPrice.mul(PRICE_TICKS_PER_DOLLAR).toNumber(), rules.maxPriceTicks);
  const peakTicks = Math.min(worstTicks, PRICE_TICKS_PER_DOLLAR / 2);
  const quantityUnits = quantity.mul(rules.unitsPerWhole).toNumber();
  const fee = new Decimal(computeFee(rules, { priceTicks: peakTicks, quantityUnits, liquidity: 'taker' }));
  if (rules.fees.kind !== 'quadratic_rounded_up') return fee;
  const roundingStep = new Decimal(1).div(new Decimal(10).pow(rules.fees.feeDecimals ?? 2));
  const levels = Math.min(Math.ceil(quantityUnits), Math.ceil(worstTicks / rules.tickSizeTicks));
  return fee.add(roundingStep.mul(levels));
}
