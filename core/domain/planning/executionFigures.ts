/**
 * The few numeric conventions the planner and the TCA share, so a predicted figure and the realized
 * one are computed and rounded the same way:
 * - money and quantities stay exact decimals (sums and products of decimal strings never round);
 * - an average price is a ratio, rounded half away from zero to AVERAGE_PRICE_DECIMALS;
 * - basis points are rounded half away from zero to BPS_DECIMALS.
 * Output strings are plain decimals without trailing zeros, like the rest of the API.
 */
import Decimal from 'decimal.js';

/** A private clone: 60 significant digits keep every ratio far below the rounding of its output. */
export const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

export const AVERAGE_PRICE_DECIMALS = 8;
export const BPS_DECIMALS = 2;
export const RATIO_DECIMALS = 6;
const BPS_PER_UNIT = 10_000;

/** +1 for a buy (paying more is worse), −1 for a sell (receiving less is worse). */
export type Direction = 1 | -1;

export function directionOf(action: 'buy' | 'sell'): Direction {
  return action === 'buy' ? 1 : -1;
}

/** Plain decimal text without trailing zeros ("0.43", "12", "-1.5"). */
export function plain(value: Decimal.Value): string {
  const text = new D(value).toFixed();
  return text === '-0' ? '0' : text;
}

/** notional / quantity rounded to AVERAGE_PRICE_DECIMALS; null when nothing was traded. */
export function averagePrice(notional: Decimal.Value, quantity: Decimal.Value): string | null {
  const q = new D(quantity);
  if (q.isZero()) return null;
  return plain(new D(notional).div(q).toDecimalPlaces(AVERAGE_PRICE_DECIMALS, Decimal.ROUND_HALF_UP));
}

/** A cost in dollars as basis points of `base` dollars, rounded to BPS_DECIMALS. */
export function bpsOf(cost: Decimal.Value, base: Decimal.Value): string {
  return plain(new D(cost).div(base).times(BPS_PER_UNIT).toDecimalPlaces(BPS_DECIMALS, Decimal.ROUND_HALF_UP));
}

/**
 * Slippage of an execution price against a benchmark price, in bps of the benchmark, signed so that
 * positive is worse for the trader: direction × (price − benchmark) / benchmark × 10,000.
 */
export function slippageBps(direction: Direction, price: Decimal.Value, benchmark: Decimal.Value): string {
  return bpsOf(new D(price).minus(benchmark).times(direction), benchmark);
}

export function roundedRatio(numerator: Decimal.Value, denominator: Decimal.Value): string {
  return plain(new D(numerator).div(denominator).toDecimalPlaces(RATIO_DECIMALS, Decimal.ROUND_HALF_UP));
}
