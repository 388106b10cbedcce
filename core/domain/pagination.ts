import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../contract/inputBounds';
import { invalidRequest } from './errors';

/** Lists: `limit` 1..200 (default 50) and an opaque cursor, newest or best first. */

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export function parseLimit(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalidRequest('limit', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}.`);
  }
  return limit;
}

export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<T>(cursor: string | null | undefined, isValid: (value: unknown) => value is T): T | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!isValid(value)) throw invalidRequest('cursor', 'cursor is not one this API returned.');
  return value;
}

/** Fetch limit + 1 rows; the extra one only says whether there is a next page. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => unknown): Page<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { data, hasMore, nextCursor: hasMore ? encodeCursor(cursorOf(data[data.length - 1])) : null };
}

/**
 * The `since` (inclusive) / `until` (exclusive) window of a list as a Prisma filter on createdAt;
 * an empty object when neither is given. A window that ends before it starts is a 400.
 */
export function createdWithin(since: Date | null | undefined, until: Date | null | undefined): { createdAt?: { gte?: Date; lt?: Date } } {
  const window = timeWindow(since, until);
  return window ? { createdAt: window } : {};
}

/** A list's time window on any column: since inclusive, until exclusive; undefined without either; since later than until is refused (400, param since). */
export function timeWindow(since: Date | null | undefined, until: Date | null | undefined): { gte?: Date; lt?: Date } | undefined {
  if (since && until && since > until) throw invalidRequest('since', 'since must not be later than until.');
  if (!since && !until) return undefined;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}

export const isIdCursor = (value: unknown): value is { id: string } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
