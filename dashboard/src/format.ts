/** Display helpers. Decimals are shown exactly as the API sends them; only dates are reformatted. */

/** `2026-11-22 10:00 UTC` from an RFC 3339 timestamp; the text as it came when it is not one. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A decimal string as it came, or a dash for none. */
export const formatDecimal = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** A class that colours a signed decimal string (by its sign character, no arithmetic). */
export function signClass(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  if (value.startsWith('-')) return 'negative';
  return /[1-9]/.test(value) ? 'positive' : undefined;
}
