/**
 * Display rules, in one place. The API sends decimals as strings, exact; the page rounds them for
 * the eye on the strings themselves (never through a JavaScript number) and keeps the exact string
 * for the hover (components/Figures.tsx puts it in the `title`).
 *
 * - Money (cash, P&L, exposure, notional, fees, volume): to the cent, rounded half away from zero
 *   (as the core rounds), thousands separated by `,`, no currency sign (every figure is in dollars):
 *   `3351.23000705` → `3,351.23`, `-0.005` → `-0.01`, `-0.004` → `0.00`.
 * - Prices (order and fill prices, average costs, marks): to the market's tick (its `tick_size`):
 *   `0.4` at tick `0.01` → `0.40`, `0.435` at tick `0.01` → `0.44`; without a known tick, the
 *   string trimmed of trailing zeros with at least 2 places: `0.4350` → `0.435`, `0.5` → `0.50`.
 * - Quantities: as sent, trailing zeros trimmed: `10.00` → `10`, `1.50` → `1.5`.
 * - Shares of a limit (utilisation): as a percentage, trailing zeros trimmed: `0.4500` → `45%`.
 *
 * A value that is not a plain decimal string is shown as it came; none (null, undefined, '') is a dash.
 */

export const NONE = '—';

/**
 * `2026-11-22 10:00 UTC` from an RFC 3339 timestamp (`seconds`: `2026-11-22 10:00:07 UTC`, for
 * quotes and trades); the text as it came when it is not one.
 */
export function formatTime(value: string | null | undefined, options: { seconds?: boolean } = {}): string {
  if (!value) return NONE;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.toISOString().slice(0, options.seconds ? 19 : 16).replace('T', ' ')} UTC`;
}

type DecimalText = string | number | null | undefined;

const PLAIN_DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$/;

interface Parts {
  negative: boolean;
  integer: string;
  fraction: string;
}

function partsOf(value: string): Parts | null {
  const match = PLAIN_DECIMAL.exec(value.trim());
  if (!match) return null;
  return { negative: match[1] === '-', integer: match[2]!.replace(/^0+(?=\d)/, ''), fraction: match[3] ?? '' };
}

/** Adds one to a string of digits: `0999` → `1000`, `99` → `100`. */
function incremented(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

function joined(negative: boolean, integer: string, fraction: string, group: boolean): string {
  const zero = /^0*$/.test(integer + fraction);
  const whole = group ? integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : integer;
  return `${negative && !zero ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function rounded(parts: Parts, places: number): Parts {
  const fraction = parts.fraction.padEnd(places, '0');
  const kept = parts.integer + fraction.slice(0, places);
  const up = (fraction[places] ?? '0') >= '5'; // half away from zero: the sign is set apart
  const digits = up ? incremented(kept) : kept;
  return { negative: parts.negative, integer: digits.slice(0, digits.length - places) || '0', fraction: digits.slice(digits.length - places) };
}

/**
 * A decimal string rounded half away from zero to `places` places (exactly that many), without
 * separators; null when `value` is not a plain decimal string. `roundDecimal('2.345', 2)` is `2.35`.
 */
export function roundDecimal(value: string, places: number): string | null {
  const parts = partsOf(value);
  if (!parts) return null;
  const out = rounded(parts, places);
  return joined(out.negative, out.integer, out.fraction, false);
}

/** Money to the cent, half away from zero, thousands separated: `3351.23000705` → `3,351.23`. */
export function formatMoney(value: DecimalText): string {
  if (value === null || value === undefined || value === '') return NONE;
  const text = String(value);
  const parts = partsOf(text);
  if (!parts) return text;
  const out = rounded(parts, 2);
  return joined(out.negative, out.integer, out.fraction, true);
}

/** A money figure a chart computed (an axis tick): the same display from a number. */
export function formatMoneyNumber(value: number): string {
  return Number.isFinite(value) ? formatMoney(value.toFixed(6)) : String(value);
}

/** The places a tick is written to: `0.0100` → 2, `0.001` → 3, `1` → 0; undefined for no tick or a tick we cannot read. */
export function tickPlaces(tickSize: string | null | undefined): number | undefined {
  if (!tickSize) return undefined;
  const parts = partsOf(tickSize);
  if (!parts || parts.negative || /^0*$/.test(parts.integer + parts.fraction)) return undefined;
  return parts.fraction.replace(/0+$/, '').length;
}

/** A price to the market's tick, or (tick unknown) trimmed of trailing zeros with at least 2 places. */
export function formatPrice(value: DecimalText, tickSize?: string | null): string {
  if (value === null || value === undefined || value === '') return NONE;
  const text = String(value);
  const parts = partsOf(text);
  if (!parts) return text;
  const places = tickPlaces(tickSize);
  if (places !== undefined) {
    const out = rounded(parts, places);
    return joined(out.negative, out.integer, out.fraction, false);
  }
  return joined(parts.negative, parts.integer, parts.fraction.replace(/0+$/, '').padEnd(2, '0'), false);
}

/** A quantity as sent, trailing zeros (and a bare point) trimmed: `10.00` → `10`. */
export function formatQuantity(value: DecimalText): string {
  if (value === null || value === undefined || value === '') return NONE;
  const text = String(value);
  const parts = partsOf(text);
  if (!parts) return text;
  return joined(parts.negative, parts.integer, parts.fraction.replace(/0+$/, ''), false);
}

/**
 * Whether two decimal strings write the same number (`0.30` and `0.3`, `010` and `10`), compared as
 * text, never through a JavaScript number; text that is not a plain decimal equals only itself.
 */
export function sameDecimal(a: string, b: string): boolean {
  return formatQuantity(a.trim()) === formatQuantity(b.trim());
}

/** A quantity a chart computed (a sum of sizes, an axis tick): the same display from a number. */
export function formatQuantityNumber(value: number): string {
  return Number.isFinite(value) ? formatQuantity(String(Number(value.toFixed(6)))) : String(value);
}

/** A share (`0.4567`, a limit's utilisation) as a percentage, the point moved two places: `45.67%`. */
export function formatShare(value: DecimalText): string {
  if (value === null || value === undefined || value === '') return NONE;
  const text = String(value);
  const parts = partsOf(text);
  if (!parts) return text;
  const fraction = parts.fraction.padEnd(2, '0');
  const integer = (parts.integer + fraction.slice(0, 2)).replace(/^0+(?=\d)/, '');
  return `${joined(parts.negative, integer, fraction.slice(2).replace(/0+$/, ''), true)}%`;
}

/** A class that colours a signed decimal string (by its sign character, no arithmetic). */
export function signClass(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  if (value.startsWith('-')) return 'negative';
  return /[1-9]/.test(value) ? 'positive' : undefined;
}
