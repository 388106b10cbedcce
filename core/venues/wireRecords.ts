/** A JSON object a venue answered, read field by field: nothing is trusted to have the documented type. */
export type WireRecord = Readonly<Record<string, unknown>>;

/** The value as a JSON object, or null (a missing field, a string, an array). */
export const recordOf = (value: unknown): WireRecord | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireRecord) : null;
