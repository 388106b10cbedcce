import DecimalJs from 'decimal.js';
import { isDecimalString, isStorableDecimalString, STORAGE_INTEGER_DIGITS, STORAGE_RULE, STORAGE_SCALE } from '../../contract/decimalStrings';
import { invalidRequest } from './errors';

/**
 * THE decimal module: money, prices and quantities travel as decimal strings and are computed with
 * this one configured decimal.js constructor; a JS number never holds money. The policy (precision,
 * the rounding of each kind of figure, storage scale, input rules) is written up in docs/decimals.md.
 */

/**
 * 60 significant digits: a stored value has at most 24 (numeric(24,6)), so a product of two stored
 * values (at most 48 digits) is exact, and a ratio is carried far below the rounding of any figure.
 * The stated default rounding, used where no named rounding below applies, is half away from zero
 * (PostgreSQL rounds numeric the same way).
 */
export const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = DecimalJs;
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace Decimal {
  /** What the constructor accepts: a string, a number (integers only, by convention) or a decimal. */
  type Value = DecimalJs.Value;
}

/** The largest magnitude numeric(24,6) holds: 999999999999999999.999999. */
export const STORAGE_MAX = new Decimal(`${'9'.repeat(STORAGE_INTEGER_DIGITS)}.${'9'.repeat(STORAGE_SCALE)}`);

/** Places of each kind of figure the API shows (see docs/decimals.md). */
export const AVERAGE_PRICE_DECIMALS = 8;
export const BPS_DECIMALS = 2;
export const RATIO_DECIMALS = 6;
/** Shares and utilisations of a limit (0..1 and beyond), as risk statistics show them. */
export const SHARE_DECIMALS = 4;

/** The total quantity of some fills (0 for none), exact. */
export function quantityOf(fills: readonly { quantity: Decimal.Value }[]): Decimal {
  return fills.reduce<Decimal>((sum, fill) => sum.plus(fill.quantity), new Decimal(0));
}

/** True when numeric(24,6) stores `value` exactly: at most 6 significant digits after the point, |value| <= STORAGE_MAX. */
export function fitsStorage(value: Decimal.Value): boolean {
  const parsed = new Decimal(value);
  // One rule for what is stored exactly: the contract's, on the value's plain text.
  return parsed.isFinite() && isStorableDecimalString(parsed.toFixed());
}

interface Bounds {
  min?: string;
  /** Exclusive upper bound. */
  below?: string;
  positive?: boolean;
}

/** The one parser: a decimal string of the decimal shape read exactly, or null for anything else. */
export function parseDecimalString(value: unknown): Decimal | null {
  return isDecimalString(value) ? new Decimal(value) : null;
}

/** Parses a decimal string of the decimal shape, or refuses it with a 400 invalid_request naming `param`. */
export function parseDecimal(param: string, value: string, options: Bounds = {}): Decimal {
  const parsed = parseDecimalString(value);
  if (parsed === null) throw invalidRequest(param, `${param} must be a decimal string such as "12.5".`);
  return checkBounds(param, parsed, options);
}

/**
 * Parses a decimal input that will be stored: as parseDecimal, and refused (never rounded) unless
 * numeric(24,6) holds it exactly.
 */
export function parseStorableDecimal(param: string, value: string, options: Bounds = {}): Decimal {
  const parsed = parseDecimal(param, value);
  if (!fitsStorage(parsed)) throw invalidRequest(param, `${param} ${STORAGE_RULE}.`);
  return checkBounds(param, parsed, options);
}

function checkBounds(param: string, parsed: Decimal, options: Bounds): Decimal {
  if (options.positive && parsed.lte(0)) throw invalidRequest(param, `${param} must be greater than 0.`);
  if (options.min !== undefined && parsed.lt(options.min)) {
    throw invalidRequest(param, `${param} must be at least ${options.min}.`);
  }
  if (options.below !== undefined && parsed.gte(options.below)) {
    throw invalidRequest(param, `${param} must be below ${options.below}.`);
  }
  return parsed;
}

/** Canonical text of a decimal: plain notation, no trailing zeros, never "-0". */
export function formatDecimal(value: { toString(): string }): string;
export function formatDecimal(value: { toString(): string } | null | undefined): string | null;
export function formatDecimal(value: { toString(): string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = new Decimal(value.toString()).toFixed();
  return text === '-0' ? '0' : text;
}

// Named roundings: one kind of figure is rounded one way everywhere. All round half away from zero.

/** Money (notional, P&L, cash) to storage scale, 6 places: what a numeric(24,6) column then holds exactly. */
export function roundMoney(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(STORAGE_SCALE, Decimal.ROUND_HALF_UP);
}

/** An average price (an order's average fill price, a position's average cost as shown, a predicted or realized average): 8 places. */
export function roundAveragePrice(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(AVERAGE_PRICE_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** notional / quantity as an average price; null when nothing was traded. */
export function averagePriceOf(notional: Decimal.Value, quantity: Decimal.Value): Decimal | null {
  const q = new Decimal(quantity);
  return q.isZero() ? null : roundAveragePrice(new Decimal(notional).div(q));
}

/** Basis points: 2 places. */
export function roundBps(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(BPS_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** A ratio of two figures of the same unit (fill ratio, share of the intended quantity): 6 places. */
export function roundRatio(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(RATIO_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** A share of a total or a limit's utilisation in risk statistics: 4 places. */
export function roundShare(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(SHARE_DECIMALS, Decimal.ROUND_HALF_UP);
}
