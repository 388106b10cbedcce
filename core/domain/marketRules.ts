import { Decimal, formatDecimal } from './decimals';
import { PRICE_TICKS_PER_DOLLAR } from './matching';
import { computeFee, liveKalshiMarketRules, marketRulesFor, readPriceRanges, WHOLE_CENT_PRICE_RANGES, type MarketRules } from './venueRules';
import type { PolymarketTickSize } from './venueRules/types';
import { venueName, type VenueColumn } from './venues';

/** What a market's rules are built from: its catalog row (the live Kalshi columns are absent or null on simulated rows). */
export interface MarketRulesRow {
  venue: VenueColumn;
  tickSize: Decimal.Value;
  minSize: Decimal.Value;
  /** Live Kalshi: `price_ranges` as the sync stored them (jsonb). */
  priceRanges?: unknown;
  feeType?: string | null;
  feeMultiplier?: Decimal.Value | null;
  fractionalTrading?: boolean;
}

/**
 * The trading rules of one listed market, from its catalog row. Live Kalshi rows: their price
 * ranges, quantity step and fee schedule (venueRules/kalshiLive.ts); a row without ranges (not
 * written by the sync) gets whole cents up to its tick size. Other rows: the simulated venue's rules
 * from the tick size and minimum size (live Polymarket, not yet synced, as sim-polymarket).
 */
export function rulesForMarket(market: MarketRulesRow): MarketRules {
  const venue = venueName(market.venue);
  if (venue === 'kalshi') {
    const tickSize = formatDecimal(market.tickSize);
    return liveKalshiMarketRules({
      priceRanges: readPriceRanges(market.priceRanges) ?? WHOLE_CENT_PRICE_RANGES.map((range) => ({ ...range, step: tickSize })),
      fractionalTrading: market.fractionalTrading ?? false,
      feeType: market.feeType ?? null,
      feeMultiplier: market.feeMultiplier == null ? null : formatDecimal(market.feeMultiplier),
      minSize: formatDecimal(market.minSize),
    });
  }
  const simulated = venue === 'polymarket' ? 'sim-polymarket' : venue;
  return marketRulesFor(simulated, {
    tickSize: formatDecimal(market.tickSize) as PolymarketTickSize,
    minOrderSize: formatDecimal(market.minSize),
  });
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
  if (rules.fees.kind !== 'kalshi') return fee;
  const roundingStep = new Decimal(1).div(new Decimal(10).pow(rules.fees.feeDecimals ?? 2));
  const levels = Math.min(Math.ceil(quantityUnits), Math.ceil(worstTicks / rules.tickSizeTicks));
  return fee.add(roundingStep.mul(levels));
}
