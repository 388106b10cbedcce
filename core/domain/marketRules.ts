import { Decimal, formatDecimal } from './decimals';
import { PRICE_TICKS_PER_DOLLAR } from './matching';
import { computeFee, marketRulesFor, type MarketRules } from './venueRules';
import type { PolymarketTickSize } from './venueRules/types';
import { venueName, type VenueColumn } from './venues';

/** The trading rules of one listed market, from its catalog row (venue, tick size, minimum size). */
export function rulesForMarket(market: { venue: VenueColumn; tickSize: Decimal.Value; minSize: Decimal.Value }): MarketRules {
  const venue = venueName(market.venue);
  const simulated = venue === 'kalshi' ? 'sim-kalshi' : venue === 'polymarket' ? 'sim-polymarket' : venue;
  return marketRulesFor(simulated, {
    tickSize: formatDecimal(market.tickSize) as PolymarketTickSize,
    minOrderSize: formatDecimal(market.minSize),
  });
}

/**
 * The most a taker order can pay in fees, for the cash check before it is sent. Both venues' fees
 * grow with P x (1 - P), which peaks at 0.5, so the fee at min(worst price, 0.5) bounds every fill
 * price; a venue that rounds each price level's fee up (Kalshi: to the cent) may add one rounding
 * step per level the order walks, at most one level per tick up to the worst price.
 */
export function maxTakerFee(rules: MarketRules, worstPrice: Decimal, quantity: Decimal): Decimal {
  const worstTicks = Math.min(worstPrice.mul(PRICE_TICKS_PER_DOLLAR).toNumber(), rules.maxPriceTicks);
  const peakTicks = Math.min(worstTicks, PRICE_TICKS_PER_DOLLAR / 2);
  const quantityUnits = quantity.mul(rules.unitsPerWhole).toNumber();
  const fee = new Decimal(computeFee(rules, { priceTicks: peakTicks, quantityUnits, liquidity: 'taker' }));
  if (rules.fees.kind !== 'kalshi') return fee;
  const levels = Math.min(Math.ceil(quantity.toNumber()), Math.ceil(worstTicks / rules.tickSizeTicks));
  return fee.add(new Decimal('0.01').mul(levels));
}
