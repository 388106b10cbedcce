import Decimal from 'decimal.js';
import { DomainError } from '../../core/domain/errors';
import { formatDecimal, parseDecimal } from '../../core/domain/decimals';

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('parseDecimal', () => {
  it.each([
    ['0.43', '0.43'],
    ['125', '125'],
    ['0', '0'],
    ['-3.5', '-3.5'],
    ['007.10', '7.1'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['999999999999999999.999999999999999999', '999999999999999999.999999999999999999'],
  ])('reads %s exactly', (text, value) => {
    expect(parseDecimal('price', text).toFixed()).toBe(value);
  });

  it('keeps precision a float would lose', () => {
    expect(parseDecimal('a', '0.1').plus(parseDecimal('b', '0.2')).toFixed()).toBe('0.3');
    expect(parseDecimal('q', '12345678901234567.89').toFixed()).toBe('12345678901234567.89');
  });

  it.each([
    ['1e5'], ['+1'], ['.5'], ['5.'], [''], [' 1'], ['1 '], ['1,5'], ['0x10'], ['NaN'], ['Infinity'], ['--1'],
    ['1234567890123456789'], // 19 integer digits
    ['0.1234567890123456789'], // 19 fraction digits
  ])('rejects %j as invalid_request naming the param', (text) => {
    const error = errorOf(() => parseDecimal('max_order_notional', text));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'max_order_notional' });
    expect(error.message).toContain('max_order_notional');
  });

  it('rejects a value that is not a string at all', () => {
    expect(errorOf(() => parseDecimal('quantity', 5 as unknown as string))).toMatchObject({ param: 'quantity' });
  });

  it('positive: zero and negatives are refused', () => {
    expect(parseDecimal('quantity', '0.000001', { positive: true }).toFixed()).toBe('0.000001');
    for (const text of ['0', '0.000', '-1']) {
      expect(errorOf(() => parseDecimal('quantity', text, { positive: true }))).toMatchObject({ param: 'quantity' });
    }
  });

  it('min: the bound itself is accepted, below it is refused with the bound in the message', () => {
    expect(parseDecimal('starting_balance', '0', { min: '0' }).toFixed()).toBe('0');
    const error = errorOf(() => parseDecimal('starting_balance', '-0.01', { min: '0' }));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'starting_balance' });
    expect(error.message).toContain('at least 0');
  });
});

describe('formatDecimal', () => {
  it.each([
    ['1.500000', '1.5'],
    ['100', '100'],
    ['100.000000', '100'],
    ['0.000100', '0.0001'],
    ['0.0000001', '0.0000001'],
    ['123456789012345678.5', '123456789012345678.5'],
    ['-2.50', '-2.5'],
  ])('%s -> %s (plain notation, no trailing zeros)', (stored, text) => {
    expect(formatDecimal(stored)).toBe(text);
  });

  it('formats Decimal objects and stays out of exponent notation', () => {
    expect(formatDecimal(new Decimal('1e21'))).toBe('1000000000000000000000');
    expect(formatDecimal(new Decimal('1e-9'))).toBe('0.000000001');
  });

  it('null and undefined stay null (no limit)', () => {
    expect(formatDecimal(null)).toBeNull();
    expect(formatDecimal(undefined)).toBeNull();
  });
});
