import Decimal from 'decimal.js';
import { DomainError } from '../../core/domain/errors';
import {
  averagePriceOf,
  Decimal as PolicyDecimal,
  fitsStorage,
  formatDecimal,
  parseDecimal,
  parseDecimalString,
  parseStorableDecimal,
  roundAveragePrice,
  roundBps,
  roundMoney,
  roundRatio,
  roundShare,
  STORAGE_MAX,
} from '../../core/domain/decimals';
import { isStorableDecimalString } from '../../contract/decimalStrings';

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

describe('the configured constructor', () => {
  it('multiplies two of the largest storable values exactly (48 digits; the library default keeps 20)', () => {
    const product = new PolicyDecimal(STORAGE_MAX).mul(STORAGE_MAX);
    expect(product.toFixed()).toBe('999999999999999999999998000000000000.000000000001') // (10^18 - 10^-6)^2;
    expect(new Decimal(STORAGE_MAX).mul(STORAGE_MAX).toFixed()).not.toBe(product.toFixed());
  });

  it('carries a ratio to 60 significant digits before any figure is rounded', () => {
    expect(new PolicyDecimal(1).div(3).toFixed()).toBe(`0.${'3'.repeat(60)}`);
  });
});

describe('parseDecimalString: the one pattern', () => {
  it.each([['0.43'], ['-12'], ['999999999999999999.999999999999999999']])('reads %s', (text) => {
    expect(parseDecimalString(text)?.toFixed()).toBe(new Decimal(text).toFixed());
  });
  it.each([['1e5'], ['+1'], ['.5'], [''], ['1234567890123456789'], ['0.1234567890123456789'], [5], [null]])('%j is not a decimal string', (value) => {
    expect(parseDecimalString(value)).toBeNull();
  });
});

describe('storage bounds of numeric(24,6)', () => {
  it.each([
    ['999999999999999999.999999', true],
    ['-999999999999999999.999999', true],
    ['0.000001', true],
    ['12.500000000', true], // extra places that are only zeros change nothing
    ['999999999999999999.9999999', false], // would round up past the bound
    ['0.0000001', false],
    ['12.0000001', false],
    ['1000000000000000000', false],
    ['-0.0000000', true],
  ])('%s fits: %s', (value, fits) => {
    expect(fitsStorage(value)).toBe(fits);
    // The gateway's check of a decimal string (contract/decimalStrings.ts) reads the text; it agrees with the core's.
    expect(isStorableDecimalString(value)).toBe(fits);
  });

  it('isStorableDecimalString needs the decimal shape too', () => {
    expect(isStorableDecimalString('12.5')).toBe(true);
    expect(isStorableDecimalString('1e3')).toBe(false);
    expect(isStorableDecimalString(12.5)).toBe(false);
  });

  it('parseStorableDecimal refuses what would be rounded, naming the param, and keeps the bounds', () => {
    const error = errorOf(() => parseStorableDecimal('max_order_notional', '999999999999999999.9999999'));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'max_order_notional' });
    expect(error.message).toBe('max_order_notional must have at most 6 decimal places (more only as trailing zeros) and at most 18 digits before the point.');
    expect(errorOf(() => parseStorableDecimal('starting_balance', '0.0000001'))).toMatchObject({ param: 'starting_balance' });
    expect(errorOf(() => parseStorableDecimal('starting_balance', 'abc')).message).toContain('decimal string');
    expect(errorOf(() => parseStorableDecimal('starting_balance', '-1', { min: '0' })).message).toContain('at least 0');
    expect(errorOf(() => parseStorableDecimal('starting_balance', '1000000000000', { min: '0', below: '1000000000000' })).message).toContain('below 1000000000000');
    expect(parseStorableDecimal('starting_balance', '999999999999.999999', { min: '0', below: '1000000000000' }).toFixed()).toBe('999999999999.999999');
    expect(parseStorableDecimal('starting_balance', '100.250000000').toFixed()).toBe('100.25');
  });
});

describe('named roundings: each kind of figure one way, half away from zero', () => {
  it('money to storage scale (6 places)', () => {
    expect(roundMoney('0.0000005').toFixed()).toBe('0.000001');
    expect(roundMoney('-0.0000005').toFixed()).toBe('-0.000001');
    expect(roundMoney('2.0000004999').toFixed()).toBe('2');
    expect(roundMoney('-0.0000980392').toFixed()).toBe('-0.000098');
    expect(fitsStorage(roundMoney('123.456789123'))).toBe(true);
  });

  it('average prices to 8 places, the same for orders, positions, complex orders and the TCA', () => {
    expect(roundAveragePrice(new PolicyDecimal('1.3').div(3)).toFixed()).toBe('0.43333333');
    expect(roundAveragePrice('0.123456785').toFixed()).toBe('0.12345679'); // a tie goes away from zero
    expect(roundAveragePrice('0.3762625').toFixed()).toBe('0.3762625'); // 7 places: nothing to round
    expect(averagePriceOf('3.0101', '8')?.toFixed()).toBe('0.3762625');
    expect(averagePriceOf('2', '3')?.toFixed()).toBe('0.66666667');
    expect(averagePriceOf('0', '0')).toBeNull();
  });

  it('bps to 2 places, ratios to 6, shares of a total or a limit to 4', () => {
    expect(roundBps('12.345').toFixed()).toBe('12.35');
    expect(roundBps('-12.345').toFixed()).toBe('-12.35');
    expect(roundRatio(new PolicyDecimal(2).div(3)).toFixed()).toBe('0.666667');
    expect(roundShare('0.12345').toFixed()).toBe('0.1235');
  });

  it('formatDecimal never prints "-0"', () => {
    expect(formatDecimal(roundMoney('-0.0000001'))).toBe('0');
  });
});
