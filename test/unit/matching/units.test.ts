import {
  decimalsOfPowerOfTen,
  priceToTicks,
  quantityToUnits,
  ticksToPrice,
  unitsToQuantity,
} from '../../../core/domain/matching';

describe('price converters', () => {
  it.each([
    ['0.43', 4300],
    ['0.01', 100],
    ['0.0001', 1],
    ['0.9999', 9999],
    ['0.5', 5000],
    ['0.4300', 4300],
  ])('priceToTicks(%s) = %d', (price, ticks) => {
    expect(priceToTicks(price)).toBe(ticks);
  });

  it.each([
    ['0', 'not strictly between'],
    ['1', 'not strictly between'],
    ['-0.5', 'not strictly between'],
    ['0.00005', 'not a whole number'],
    ['0.30000000000000004', 'not a whole number'],
    ['1e-2', 'not a decimal string'],
    ['.5', 'not a decimal string'],
    [' 0.5', 'not a decimal string'],
    ['abc', 'not a decimal string'],
  ])('priceToTicks(%s) throws (%s)', (price, why) => {
    expect(() => priceToTicks(price)).toThrow(why);
  });

  it('ticksToPrice prints four decimals, more only for half ticks', () => {
    expect(ticksToPrice(4300)).toBe('0.4300');
    expect(ticksToPrice(1)).toBe('0.0001');
    expect(ticksToPrice(4300.5)).toBe('0.43005');
    expect(ticksToPrice(4300, 2)).toBe('0.43');
  });

  it('round-trips every valid tick exactly', () => {
    for (let ticks = 1; ticks <= 9999; ticks++) expect(priceToTicks(ticksToPrice(ticks))).toBe(ticks);
  });
});

describe('quantity converters', () => {
  it('converts shares to 0.01 base units and back', () => {
    expect(quantityToUnits('12.34', 100)).toBe(1234);
    expect(quantityToUnits('5', 100)).toBe(500);
    expect(unitsToQuantity(1234, 100)).toBe('12.34');
    expect(unitsToQuantity(500, 100)).toBe('5.00');
  });

  it('converts whole contracts', () => {
    expect(quantityToUnits('7', 1)).toBe(7);
    expect(unitsToQuantity(7, 1)).toBe('7');
  });

  it('refuses fractions finer than a base unit, negatives and unsafe sizes', () => {
    expect(() => quantityToUnits('1.5', 1)).toThrow('not a whole number');
    expect(() => quantityToUnits('0.001', 100)).toThrow('not a whole number');
    expect(() => quantityToUnits('-1', 1)).toThrow('negative');
    expect(() => quantityToUnits('999999999999999999', 1)).toThrow('too large');
  });

  it('only accepts powers of ten as base units', () => {
    expect(decimalsOfPowerOfTen(1)).toBe(0);
    expect(decimalsOfPowerOfTen(1000)).toBe(3);
    expect(() => decimalsOfPowerOfTen(4)).toThrow('power of ten');
  });
});
