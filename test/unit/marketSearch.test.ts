import { DomainError } from '../../core/domain/errors';
import { toPrefixTsQuery } from '../../core/domain/marketSearch';

describe('toPrefixTsQuery: what a user types becomes word prefixes, all required', () => {
  it.each([
    ['fed rat', 'fed:* & rat:*'],
    ['infla', 'infla:*'],
    ['  Fed   RATE ', 'fed:* & rate:*'],
    ['year-over-year CPI', 'year:* & over:* & year:* & cpi:*'],
    ['3.0%', '3:* & 0:*'],
    ['Zürich Ω', 'zürich:* & ω:*'],
  ])('%j -> %j', (q, tsquery) => {
    expect(toPrefixTsQuery(q)).toBe(tsquery);
  });

  it.each([
    ['a & b | !c:*', 'a:* & b:* & c:*'],
    ["fed') | (rate", 'fed:* & rate:*'],
    ['fed <-> rate', 'fed:* & rate:*'],
    ["'quoted' \\ back\\slash", 'quoted:* & back:* & slash:*'],
    ['fed:A & rate:B', 'fed:* & a:* & rate:* & b:*'],
    ['x; DROP TABLE markets; --', 'x:* & drop:* & table:* & markets:*'],
  ])('operators typed by users are not interpreted: %j -> %j', (q, tsquery) => {
    expect(toPrefixTsQuery(q)).toBe(tsquery);
  });

  it('normalizes compatibility forms (full-width letters) before matching', () => {
    expect(toPrefixTsQuery('ＦＥＤ')).toBe('fed:*');
  });

  it('keeps the first 8 words', () => {
    expect(toPrefixTsQuery('a b c d e f g h i j')).toBe('a:* & b:* & c:* & d:* & e:* & f:* & g:* & h:*');
  });

  it.each([[''], ['   '], ['!!!'], ['&|!:*()'], ["'\"<->"]])('%j has no word: invalid_request on param q', (q) => {
    let error: unknown;
    try {
      toPrefixTsQuery(q);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'q' });
  });
});
