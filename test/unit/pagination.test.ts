import { DomainError } from '../../core/domain/errors';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../contract/inputBounds';
import { createdWithin, decodeCursor, encodeCursor, isIdCursor, parseLimit, toPage } from '../../core/domain/pagination';

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('parseLimit', () => {
  it('is 50 when left out', () => {
    expect(DEFAULT_PAGE_LIMIT).toBe(50);
    expect(parseLimit(undefined)).toBe(50);
    expect(parseLimit(null)).toBe(50);
  });

  it.each([[1], [3], [199], [200]])('accepts %i', (limit) => {
    expect(parseLimit(limit)).toBe(limit);
  });

  it.each([[0], [-1], [201], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects %p as invalid_request on param limit', (limit) => {
    const error = thrown(() => parseLimit(limit));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'limit', status: 400 });
    expect(error.message).toContain(String(MAX_PAGE_LIMIT));
  });
});

describe('cursors', () => {
  it('round-trip what was encoded, and are URL-safe text', () => {
    const position = { rank: 0.0607927106320858, id: 'mkt_01abc' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, (v): v is typeof position => typeof v === 'object' && v !== null)).toEqual(position);
    expect(decodeCursor(encodeCursor({ id: 'sa_1' }), isIdCursor)).toEqual({ id: 'sa_1' });
  });

  it('no cursor means the first page', () => {
    expect(decodeCursor(undefined, isIdCursor)).toBeUndefined();
    expect(decodeCursor(null, isIdCursor)).toBeUndefined();
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['JSON of the wrong shape', encodeCursor({ rank: 1 })],
    ['an id that is not a string', encodeCursor({ id: 42 })],
    ['JSON null', encodeCursor(null)],
    ['a bare string', encodeCursor('sa_1')],
    ['empty', ''],
  ])('%s is rejected as invalid_request on param cursor', (_name, cursor) => {
    expect(thrown(() => decodeCursor(cursor, isIdCursor))).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });
});

describe('toPage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `row_${i}` }));

  it('with limit + 1 rows: limit rows, has_more, and a cursor at the last row shown', () => {
    const page = toPage(rows(4), 3, (row) => ({ id: row.id }));
    expect(page.data.map((r) => r.id)).toEqual(['row_0', 'row_1', 'row_2']);
    expect(page.hasMore).toBe(true);
    expect(decodeCursor(page.nextCursor, isIdCursor)).toEqual({ id: 'row_2' });
  });

  it.each([[0], [1], [3]])('with %i rows for a limit of 3: all of them, no more, no cursor', (n) => {
    const page = toPage(rows(n), 3, (row) => ({ id: row.id }));
    expect(page.data).toHaveLength(n);
    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeNull();
  });
});

describe('createdWithin', () => {
  const since = new Date('2026-11-01T00:00:00Z');
  const until = new Date('2026-11-02T00:00:00Z');

  it('is no filter without bounds, and each bound alone when only it is given', () => {
    expect(createdWithin(undefined, null)).toEqual({});
    expect(createdWithin(since, undefined)).toEqual({ createdAt: { gte: since } });
    expect(createdWithin(null, until)).toEqual({ createdAt: { lt: until } });
  });

  it('includes since and excludes until', () => {
    expect(createdWithin(since, until)).toEqual({ createdAt: { gte: since, lt: until } });
  });

  it('refuses a window that ends before it starts, naming since', () => {
    expect(thrown(() => createdWithin(until, since))).toMatchObject({ code: 'invalid_request', param: 'since' });
  });
});
