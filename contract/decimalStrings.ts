/**
 * Decimal strings as they travel: the shape every money, price and quantity input has, and the rule
 * that the database stores it exactly (numeric(24,6)). Both edges read these: the gateway checks an
 * input before it reaches the core, the core (core/domain/decimals.ts, which computes with them)
 * before it stores one. The policy is docs/decimals.md.
 */

/** Shape of a decimal string: an optional '-', 1..18 digits, optionally '.' and 1..18 digits. No exponent, no '+'. */
export const DECIMAL_PATTERN = /^-?\d{1,18}(\.\d{1,18})?$/;

/** Storage scale of money and quantities: numeric(24,6) holds 18 digits before the point and 6 after. */
export const STORAGE_SCALE = 6;
export const STORAGE_INTEGER_DIGITS = 18;

/** Why a decimal input is refused when numeric(24,6) would not store it exactly (follows the param's name). */
export const STORAGE_RULE = `must have at most ${STORAGE_SCALE} decimal places (more only as trailing zeros) and at most ${STORAGE_INTEGER_DIGITS} digits before the point`;

/** True for a string of the decimal shape. */
export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_PATTERN.test(value);
}

/**
 * True for a decimal string that numeric(24,6) stores exactly (the rule every decimal input of the
 * API obeys): the shape allows at most 18 digits before the point, so what remains is at most 6
 * significant places after it (trailing zeros beyond them are allowed).
 */
export function isStorableDecimalString(value: unknown): value is string {
  if (!isDecimalString(value)) return false;
  const fraction = value.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length <= STORAGE_SCALE;
}
