/**
 * The few numeric conventions the planner and the TCA share, so a predicted figure and the realized
 * one are computed and rounded the same way:
 * - money and quantities stay exact decimals (sums and products of decimal strings never round);
 * - an average price, basis points and ratios are rounded as the decimal module says (docs/decimals.md).
 * Output strings are plain decimals without trailing zeros, like the rest of the API.
 */
import { averagePriceOf, Decimal, formatDecimal, roundBps, roundRatio } from '../decimals';

const BPS_PER_UNIT = 10_000;

/** +1 for a buy (paying more is worse), −1 for a sell (receiving less is worse). */
export type Direction = 1 | -1;

export function directionOf(action: 'buy' | 'sell'): Direction {
  return action === 'buy' ? 1 : -1;
}

/** notional / quantity as an average price (the decimal module's policy); null when nothing was traded. */
export function averagePrice(notional: Decimal.Value, quantity: Decimal.Value): string | null {
  const average = averagePriceOf(notional, quantity);
  return average === null ? null : formatDecimal(average);
}

/** A cost in dollars as basis points of `base` dollars, rounded to BPS_DECIMALS. */
export function bpsOf(cost: Decimal.Value, base: Decimal.Value): string {
  return formatDecimal(roundBps(new Decimal(cost).div(base).times(BPS_PER_UNIT)));
}

/**
 * Slippage of an execution price against a benchmark price, in bps of the benchmark, signed so that
 * positive is worse for the trader: direction × (price − benchmark) / benchmark × 10,000.
 */
export function slippageBps(direction: Direction, price: Decimal.Value, benchmark: Decimal.Value): string {
  return bpsOf(new Decimal(price).minus(benchmark).times(direction), benchmark);
}

export function roundedRatio(numerator: Decimal.Value, denominator: Decimal.Value): string {
  return formatDecimal(roundRatio(new Decimal(numerator).div(denominator)));
}
