import { parse } from 'graphql';
import { documentProblem, MAX_DOCUMENT_NESTING } from '../../contract/documentLimits';
import { jsonValueProblem, MAX_JSON_NESTING, tooDeepJsonText } from '../../contract/jsonLimits';
import { eventId, MAX_EVENT_SEQ } from '../../contract/eventTypes';
import { isSeqCursor, seqOfEventId } from '../../core/domain/events';
import { decodeCursor, encodeCursor } from '../../core/domain/pagination';
import { isStorableText, unstorableTextPath } from '../../contract/storableText';
import { daysBefore, EARLIEST_INSTANT, isStorableInstant } from '../../contract/instants';

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

describe('JSON nesting', () => {
  const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it(`refuses text nesting objects and arrays more than ${MAX_JSON_NESTING} levels deep, naming the top-level field`, () => {
    expect(tooDeepJsonText(`{"name":"x","variables":${deepObject(MAX_JSON_NESTING - 1)}}`)).toBeUndefined();
    expect(tooDeepJsonText(`{"name":"x","variables":${deepObject(MAX_JSON_NESTING)}}`)).toBe('variables');
    expect(tooDeepJsonText(`{"quantity":"1","legs":${'['.repeat(40)}${']'.repeat(40)}}`)).toBe('legs');
    expect(tooDeepJsonText('['.repeat(100))).toBe('');
  });

  it('counts no bracket inside a string, escaped quotes included', () => {
    expect(tooDeepJsonText(JSON.stringify({ q: '{'.repeat(200), r: '\\"[[[['.repeat(50) }))).toBeUndefined();
    expect(tooDeepJsonText(`{"a\\"b":${deepObject(40)}}`)).toBe('a"b');
  });

  it('walks a parsed value 65,536 levels deep without overflowing the stack', () => {
    const tooDeep = { kind: 'too_deep' };
    let deep: unknown = 1;
    for (let i = 0; i < 65_536; i += 1) deep = { a: deep };
    expect(jsonValueProblem(deep)).toEqual(tooDeep);
    expect(jsonValueProblem(JSON.parse(deepObject(MAX_JSON_NESTING)))).toBeUndefined();
    expect(jsonValueProblem(JSON.parse(deepObject(MAX_JSON_NESTING + 1)))).toEqual(tooDeep);
    expect(jsonValueProblem({ a: [1, 2, { b: 'c' }], d: null })).toBeUndefined();
    expect(jsonValueProblem(undefined)).toBeUndefined();
  });

  it('in the same walk, names the first string PostgreSQL cannot store by its path, keys included', () => {
    expect(jsonValueProblem({ input: { name: 'ok', tags: ['x', 'y\u0000'] } })).toEqual({ kind: 'unstorable_text', path: 'input.tags.1' });
    expect(jsonValueProblem({ ['bad\u0000key']: 1 })).toEqual({ kind: 'unstorable_text', path: 'bad\u0000key' });
    expect(jsonValueProblem('\ud800')).toEqual({ kind: 'unstorable_text', path: '' });
  });
});

describe('event ids', () => {
  it('name places the log can hold: a PostgreSQL bigint', () => {
    expect(seqOfEventId(eventId(MAX_EVENT_SEQ), 'after')).toBe(MAX_EVENT_SEQ);
    expect(() => seqOfEventId('evt_00000009223372036854775808', 'after')).toThrow(/past the last event id the log can hold/);
    expect(() => seqOfEventId('evt_99999999999999999999999999', 'after')).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'after' }));
    expect(() => seqOfEventId('evt_1', 'after')).toThrow(/not an event id/);
  });

  it('refuses a list cursor whose place is past that range', () => {
    const cursor = (seq: string) => encodeCursor({ seq });
    expect(decodeCursor(cursor('9223372036854775807'), isSeqCursor)).toEqual({ seq: '9223372036854775807' });
    expect(() => decodeCursor(cursor('9223372036854775808'), isSeqCursor)).toThrow(/cursor is not one this API returned/);
  });
});
