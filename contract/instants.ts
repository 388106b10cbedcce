/**
 * The instants the API accepts, stores and filters by: 0001-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999Z, judged in UTC. RFC 3339 writes four-digit years and PostgreSQL has no
 * year 0 (it refuses "0000-01-01" as out of range), so an instant outside this range could only
 * reach the database as an error. Dates (YYYY-MM-DD) keep to the same years.
 */
export const EARLIEST_INSTANT = new Date('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

/** Why an instant is refused (follows the parameter's name). */
export const INSTANT_RULE = 'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (UTC)';
export const DATE_RULE = 'must be a date between 0001-01-01 and 9999-12-31';

/** True for a valid Date inside the range. */
export function isStorableInstant(date: Date): boolean {
  const time = date.getTime();
  return !Number.isNaN(time) && time >= EARLIEST_INSTANT.getTime() && time <= LATEST_INSTANT.getTime();
}

/**
 * `days` before `instant`, but never before EARLIEST_INSTANT: the default start of a range whose
 * end a client put near the earliest instant.
 */
export function daysBefore(instant: Date, days: number): Date {
  return new Date(Math.max(instant.getTime() - days * 86_400_000, EARLIEST_INSTANT.getTime()));
}
