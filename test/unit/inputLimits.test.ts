import { parse } from 'graphql';
import { documentProblem, MAX_DOCUMENT_NESTING } from '../../contract/documentLimits';
import { isStorableText, unstorableTextPath } from '../../contract/storableText';
import { daysBefore, EARLIEST_INSTANT, isStorableInstant } from '../../core/domain/instants';

/** The rules behind "Input limits" (docs/api-conventions.md), which the gateway and the core both apply. */
describe('storable text', () => {
  it('is any text but the NUL character and unpaired surrogates', () => {
    expect(['', 'plain', 'Ωmega 中文', 'rocket \ud83d\ude80', '\u200b\u202e', '\u0001\u007f'].map(isStorableText)).toEqual([true, true, true, true, true, true]);
    expect(['\u0000', 'a\u0000b', 'a\ud800', '\udc00b', '\ude80\ud83d'].map(isStorableText)).toEqual([false, false, false, false, false]);
  });

  it('names the first unstorable string of a JSON value by its path, keys included', () => {
    expect(unstorableTextPath({ input: { name: 'ok', tags: ['x', 'y\u0000'] } })).toBe('input.tags.1');
    expect(unstorableTextPath({ ['bad\u0000key']: 1 })).toBe('bad\u0000key');
    expect(unstorableTextPath({ a: 1, b: null, c: true, d: ['fine'] })).toBeUndefined();
    expect(unstorableTextPath('\u0000')).toBe('');
  });

  it('walks at most 32 levels deep, so a hostile value cannot overflow the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(unstorableTextPath(deep)).toBeUndefined();
    let shallow: unknown = '\u0000';
    for (let i = 0; i < 31; i += 1) shallow = [shallow];
    expect(unstorableTextPath(shallow)).toBe(Array(31).fill('0').join('.'));
  });
});

describe('GraphQL documents before parsing', () => {
  const nested = (depth: number) => `{ workspace ${'{ id '.repeat(depth - 1)}${'}'.repeat(depth - 1)} }`;

  it(`refuses nesting deeper than ${MAX_DOCUMENT_NESTING} levels of braces, parentheses and brackets, whatever the mix`, () => {
    expect(documentProblem(nested(MAX_DOCUMENT_NESTING))).toBeUndefined();
    expect(documentProblem(nested(MAX_DOCUMENT_NESTING + 1))).toMatch(/more than 64 levels deep/);
    expect(documentProblem(`{ markets(q: ${'['.repeat(70)}"x"${']'.repeat(70)}) { data { id } } }`)).toMatch(/more than 64 levels deep/);
    expect(documentProblem(`query ${'('.repeat(70)} { workspace { id } }`)).toMatch(/more than 64 levels deep/);
  });

  it('refuses a document too deep for the parser without overflowing the stack itself', () => {
    const hostile = nested(100_000);
    expect(() => parse(hostile)).toThrow(RangeError); // what the limit is for
    expect(documentProblem(hostile)).toMatch(/more than 64 levels deep/);
  });

  it('does not count braces inside strings, block strings and comments', () => {
    const braces = '{'.repeat(200);
    expect(documentProblem(`{ markets(q: "${braces}") { data { id } } } # ${braces}`)).toBeUndefined();
    expect(documentProblem(`{ markets(q: """${braces}""") { data { id } } }`)).toBeUndefined();
  });

  it('refuses a string literal that PostgreSQL could not store, escaped or not', () => {
    expect(documentProblem('{ order(id: "ord_\\u0000") { id } }')).toMatch(/must not contain the NUL character/);
    expect(documentProblem('{ order(id: """ord_\u0000""") { id } }')).toMatch(/must not contain the NUL character/);
    expect(documentProblem('{ order(id: "ord_\\u{1F680}") { id } }')).toBeUndefined();
  });

  it('leaves a syntax error to the parser, which reports it where it is', () => {
    expect(documentProblem('{ workspace { id ')).toBeUndefined();
    expect(documentProblem('"""unterminated')).toBeUndefined();
  });
});

describe('storable instants', () => {
  it('run from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z', () => {
    expect(isStorableInstant(new Date('0001-01-01T00:00:00Z'))).toBe(true);
    expect(isStorableInstant(new Date('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isStorableInstant(new Date('0000-12-31T23:59:59.999Z'))).toBe(false);
    expect(isStorableInstant(new Date('+010000-01-01T00:00:00Z'))).toBe(false);
    expect(isStorableInstant(new Date('not a date'))).toBe(false);
  });

  it('a default range start before the earliest instant starts at it', () => {
    expect(daysBefore(new Date('0001-01-05T00:00:00Z'), 29)).toEqual(EARLIEST_INSTANT);
    expect(daysBefore(new Date('2026-01-30T00:00:00Z'), 29)).toEqual(new Date('2026-01-01T00:00:00Z'));
  });
});
