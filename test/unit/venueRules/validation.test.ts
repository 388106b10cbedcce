import {
  kalshiMarketRules,
  polymarketMarketRules,
  validateOrderInput,
  validatePrice,
  validateQuantity,
} from '../../../core/domain/venueRules';
import type { ValidationCode } from '../../../core/domain/venueRules';

const kalshi = kalshiMarketRules();
const poly = polymarketMarketRules({ tickSize: '0.01', minOrderSize: '5' });
const polyFine = polymarketMarketRules({ tickSize: '0.001' });
const polyFinest = polymarketMarketRules({ tickSize: '0.0001' });
const polyCoarse = polymarketMarketRules({ tickSize: '0.1' });

describe('price validation: sim-kalshi (whole cents 0.01..0.99)', () => {
  it.each<[unknown, ValidationCode]>([
    ['-0.5', 'out_of_range'],
    ['-0', 'out_of_range'],
    ['0', 'out_of_range'],
    ['0.00', 'out_of_range'],
    ['1', 'out_of_range'],
    ['1.00', 'out_of_range'],
    ['1.5', 'out_of_range'],
    ['999999999999999999', 'out_of_range'],
    ['0.435', 'off_tick'],
    ['0.001', 'off_tick'],
    ['0.995', 'off_tick'],
    ['0.30000000000000004', 'off_tick'],
    ['abc', 'not_a_decimal'],
    ['', 'not_a_decimal'],
    ['1e-2', 'not_a_decimal'],
    ['0.5e0', 'not_a_decimal'],
    ['.5', 'not_a_decimal'],
    ['5.', 'not_a_decimal'],
    [' 0.5', 'not_a_decimal'],
    ['+0.5', 'not_a_decimal'],
    ['0,5', 'not_a_decimal'],
    ['NaN', 'not_a_decimal'],
    ['Infinity', 'not_a_decimal'],
    ['0x10', 'not_a_decimal'],
    [`0.${'1'.repeat(80)}`, 'not_a_decimal'],
    [0.43, 'invalid_type'],
    [true, 'invalid_type'],
    [undefined, 'missing'],
    [null, 'missing'],
  ])('%p -> %s', (price, code) => {
    const result = validatePrice(kalshi, price);
    expect(result).toMatchObject({ ok: false, param: 'price', code });
  });

  it.each([
    ['0.01', 100],
    ['0.43', 4300],
    ['0.4300', 4300],
    ['0.99', 9900],
    ['0.5', 5000],
  ])('%s is valid (%d ticks)', (price, ticks) => {
    expect(validatePrice(kalshi, price)).toEqual({ ok: true, priceTicks: ticks });
  });

  it('explains precisely what is wrong', () => {
    expect(validatePrice(kalshi, '0.435')).toEqual({
      ok: false,
      param: 'price',
      code: 'off_tick',
      message: 'price 0.435 is not a multiple of the tick size 0.01',
    });
    expect(validatePrice(kalshi, '1.5')).toMatchObject({ message: 'price 1.5 must be greater than 0 and less than 1' });
    expect(validatePrice(kalshi, 'abc')).toMatchObject({ message: 'price "abc" is not a decimal string such as "0.01"' });
    expect(validatePrice(kalshi, 0.43)).toMatchObject({ message: 'price must be a decimal string such as "0.01", not a number' });
    expect(validatePrice(kalshi, undefined, 'yes_price')).toEqual({ ok: false, param: 'yes_price', code: 'missing', message: 'yes_price is required' });
  });
});

describe('price validation: sim-polymarket tick sizes', () => {
  it.each<[typeof poly, string, true | ValidationCode]>([
    [polyCoarse, '0.1', true],
    [polyCoarse, '0.9', true],
    [polyCoarse, '0.15', 'off_tick'],
    [polyCoarse, '0.05', 'off_tick'],
    [poly, '0.01', true],
    [poly, '0.99', true],
    [poly, '0.435', 'off_tick'],
    [polyFine, '0.435', true],
    [polyFine, '0.001', true],
    [polyFine, '0.999', true],
    [polyFine, '0.4355', 'off_tick'],
    [polyFinest, '0.4355', true],
    [polyFinest, '0.0001', true],
    [polyFinest, '0.9999', true],
    [polyFinest, '0.00005', 'off_tick'],
    [polyFinest, '0.30000000000000004', 'off_tick'],
    [polyFinest, '0', 'out_of_range'],
    [polyFinest, '1', 'out_of_range'],
    [polyFinest, '-0.0001', 'out_of_range'],
  ])('tick %#: %s', (rules, price, expected) => {
    const result = validatePrice(rules, price);
    if (expected === true) expect(result.ok).toBe(true);
    else expect(result).toMatchObject({ ok: false, code: expected });
  });

  it('reports the market’s own tick size', () => {
    expect(validatePrice(polyFine, '0.4355')).toMatchObject({ message: 'price 0.4355 is not a multiple of the tick size 0.001' });
  });
});

describe('quantity validation', () => {
  it.each<[typeof poly, unknown, true | ValidationCode]>([
    [kalshi, '1', true],
    [kalshi, '250', true],
    [kalshi, '1.0', true],
    [kalshi, '1.5', 'off_step'],
    [kalshi, '0.5', 'off_step'],
    [kalshi, '0', 'not_positive'],
    [kalshi, '-3', 'not_positive'],
    [kalshi, '1000001', 'too_large'],
    [kalshi, '999999999999999999', 'too_large'],
    [kalshi, 'ten', 'not_a_decimal'],
    [kalshi, '1e3', 'not_a_decimal'],
    [kalshi, 10, 'invalid_type'],
    [kalshi, undefined, 'missing'],
    [poly, '5', true],
    [poly, '5.01', true],
    [poly, '4.99', 'below_min_size'],
    [poly, '1', 'below_min_size'],
    [poly, '5.001', 'off_step'],
    [poly, '0.30000000000000004', 'off_step'],
    [poly, '0', 'not_positive'],
  ])('%#: %p', (rules, quantity, expected) => {
    const result = validateQuantity(rules, quantity);
    if (expected === true) expect(result.ok).toBe(true);
    else expect(result).toMatchObject({ ok: false, param: 'quantity', code: expected });
  });

  it('converts to base units', () => {
    expect(validateQuantity(kalshi, '250')).toEqual({ ok: true, quantityUnits: 250 });
    expect(validateQuantity(poly, '12.34')).toEqual({ ok: true, quantityUnits: 1234 });
  });

  it('explains precisely what is wrong', () => {
    expect(validateQuantity(kalshi, '1.5')).toMatchObject({ message: 'quantity 1.5 is not a multiple of whole contracts' });
    expect(validateQuantity(poly, '5.001')).toMatchObject({ message: 'quantity 5.001 is not a multiple of the quantity step 0.01' });
    expect(validateQuantity(poly, '4.99')).toMatchObject({ message: 'quantity 4.99 is below the minimum order size 5' });
  });
});

describe('order input validation', () => {
  it('requires a price on a limit order and checks price before quantity', () => {
    expect(validateOrderInput(kalshi, { type: 'limit', quantity: '1' })).toMatchObject({ ok: false, param: 'price', code: 'missing' });
    expect(validateOrderInput(kalshi, { type: 'limit', price: '0.435', quantity: '0' })).toMatchObject({ param: 'price', code: 'off_tick' });
    expect(validateOrderInput(kalshi, { type: 'limit', price: '0.43', quantity: '0' })).toMatchObject({ param: 'quantity', code: 'not_positive' });
    expect(validateOrderInput(kalshi, { type: 'limit', price: '0.43', quantity: '3' })).toEqual({ ok: true, priceTicks: 4300, quantityUnits: 3 });
  });

  it('lets a market order omit its price but checks a protection price when given', () => {
    expect(validateOrderInput(poly, { type: 'market', quantity: '5' })).toEqual({ ok: true, priceTicks: null, quantityUnits: 500 });
    expect(validateOrderInput(poly, { type: 'market', price: '0.555', quantity: '5' })).toMatchObject({ ok: false, code: 'off_tick' });
  });

  it('uses the caller’s parameter names', () => {
    expect(validateOrderInput(kalshi, { type: 'limit', price: '2', quantity: '1' }, { price: 'yes_price', quantity: 'count' })).toMatchObject({
      param: 'yes_price',
    });
    expect(validateOrderInput(kalshi, { type: 'limit', price: '0.5', quantity: '-1' }, { quantity: 'count' })).toMatchObject({
      param: 'count',
      message: 'count -1 must be greater than 0',
    });
  });
});
