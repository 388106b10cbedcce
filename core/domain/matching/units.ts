/**
 * Integer units of the hot path and the only place they meet decimal strings.
 *
 * Prices: 1 tick = $0.0001, the finest tick either venue uses (Polymarket's 0.0001),
 * so every valid price of every market is an exact integer 1..9999 and 1 − p is
 * 10000 − ticks. Quantities: integer base units; how many base units make one
 * contract or share is the market's choice (Kalshi 1, Polymarket 100).
 * Conversions go through decimal.js so no binary float ever touches money.
 */
import { Decimal, parseDecimalString } from '../decimals';

export const PRICE_TICKS_PER_DOLLAR = 10_000;
/** Lowest and highest tick a binary contract can trade at (strictly inside $0..$1). */
export const MIN_PRICE_TICKS = 1;
export const MAX_PRICE_TICKS = PRICE_TICKS_PER_DOLLAR - 1;

/** Digits after the point in API price strings ("0.4300"), per docs/api-conventions.md. */
export const PRICE_DECIMALS = 4;


function toExactInteger(value: Decimal, what: string, input: string): number {
  if (!value.isInteger()) throw new RangeError(`${what} ${input} is not a whole number of base units`);
  const n = value.toNumber();
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} ${input} is too large`);
  return n;
}

/**
 * "0.43" -> 4300. Throws on anything that is not an exact tick strictly inside (0, 1);
 * venue-specific validation with friendly errors lives in venueRules.
 */
export function priceToTicks(price: string): number {
  const parsed = parseDecimalString(price);
  if (parsed === null) throw new RangeError(`price ${JSON.stringify(price)} is not a decimal string`);
  const ticks = toExactInteger(parsed.times(PRICE_TICKS_PER_DOLLAR), 'price', price);
  if (ticks < MIN_PRICE_TICKS || ticks > MAX_PRICE_TICKS) {
    throw new RangeError(`price ${price} is not strictly between 0 and 1`);
  }
  return ticks;
}

/**
 * 4300 -> "0.4300". At least PRICE_DECIMALS digits, more only when needed, so a
 * half-tick mid price (4300.5) prints exactly as "0.43005".
 */
export function ticksToPrice(ticks: number, minDecimals: number = PRICE_DECIMALS): string {
  const value = new Decimal(ticks).div(PRICE_TICKS_PER_DOLLAR);
  return value.toFixed(Math.max(minDecimals, value.decimalPlaces()));
}

/** "2.5" with 100 base units per share -> 250. Throws unless it is an exact non-negative number of units. */
export function quantityToUnits(quantity: string, unitsPerWhole: number): number {
  const parsed = parseDecimalString(quantity);
  if (parsed === null) throw new RangeError(`quantity ${JSON.stringify(quantity)} is not a decimal string`);
  if (parsed.isNegative()) throw new RangeError(`quantity ${quantity} is negative`);
  return toExactInteger(parsed.times(unitsPerWhole), 'quantity', quantity);
}

/** 250 base units with 100 per share -> "2.50" (as many decimals as one base unit needs). */
export function unitsToQuantity(units: number, unitsPerWhole: number): string {
  return new Decimal(units).div(unitsPerWhole).toFixed(decimalsOfPowerOfTen(unitsPerWhole));
}

/** 1 -> 0, 100 -> 2; base units are always a power of ten of a contract or share. */
export function decimalsOfPowerOfTen(unitsPerWhole: number): number {
  const text = String(unitsPerWhole);
  if (!/^10*$/.test(text)) throw new RangeError(`units per whole ${unitsPerWhole} is not a power of ten`);
  return text.length - 1;
}
