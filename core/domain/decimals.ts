import Decimal from 'decimal.js';
import { invalidRequest } from './errors';

/**
 * Money, prices and quantities travel as decimal strings and are computed with decimal.js; a JS
 * number never holds money. Strings are strict: no exponent, no sign on the positive-only ones.
 */
const DECIMAL_FORMAT = /^-?\d{1,18}(\.\d{1,18})?$/;

export function parseDecimal(param: string, value: string, options: { min?: string; positive?: boolean } = {}): Decimal {
  if (typeof value !== 'string' || !DECIMAL_FORMAT.test(value)) {
    throw invalidRequest(param, `${param} must be a decimal string such as "12.5".`);
  }
  const parsed = new Decimal(value);
  if (options.positive && parsed.lte(0)) throw invalidRequest(param, `${param} must be greater than 0.`);
  if (options.min !== undefined && parsed.lt(options.min)) {
    throw invalidRequest(param, `${param} must be at least ${options.min}.`);
  }
  return parsed;
}

/** Canonical text of a stored decimal: plain notation, no trailing zeros. */
export function formatDecimal(value: { toString(): string }): string;
export function formatDecimal(value: { toString(): string } | null | undefined): string | null;
export function formatDecimal(value: { toString(): string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Decimal(value.toString()).toFixed();
}
