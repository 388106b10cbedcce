/**
 * Kalshi's fixed-point strings (docs.kalshi.com "Fixed-Point Representation"; the
 * kalshi-typescript models): counts `*_fp` with 2 decimals ("10.00"), requests accept
 * 0-2 decimals; prices `*_dollars` with 4 decimals ("0.5600"), requests accept up to 6;
 * fill `fee_cost` and the order's fee/cost totals with 6 decimals ("0.017500", as
 * recorded on demo). The fake counts contracts in hundredths (1 unit = 0.01 contract)
 * and prices in the matching engine's ticks of $0.0001.
 */
import Decimal from 'decimal.js';

export const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

export const UNITS_PER_CONTRACT = 100;
export const TICKS_PER_DOLLAR = 10_000;

const COUNT = /^\d{1,12}(\.\d{1,2})?$/;
const PRICE = /^\d(\.\d{1,6})?$/;

/** "10", "10.0", "10.00" -> 1000 units; null when not a 0-2 decimal non-negative count. */
export function parseCount(text: string): number | null {
  if (!COUNT.test(text)) return null;
  return new D(text).times(UNITS_PER_CONTRACT).toNumber();
}

/** "0.56" -> Decimal; null when not a plain decimal with at most 6 decimals. */
export function parsePrice(text: string): Dec | null {
  return PRICE.test(text) ? new D(text) : null;
}

export function countFp(units: number): string {
  return new D(units).div(UNITS_PER_CONTRACT).toFixed(2);
}

export function priceDollars(ticks: number): string {
  return new D(ticks).div(TICKS_PER_DOLLAR).toFixed(4);
}

export function dollars6(value: Dec): string {
  return value.toFixed(6);
}

export function dollars4(value: Dec): string {
  return value.toFixed(4);
}

export function contracts(units: number): Dec {
  return new D(units).div(UNITS_PER_CONTRACT);
}

export function tickPrice(ticks: number): Dec {
  return new D(ticks).div(TICKS_PER_DOLLAR);
}
