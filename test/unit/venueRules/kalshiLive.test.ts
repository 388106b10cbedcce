/**
 * Live Kalshi rules (core/domain/venueRules/kalshiLive.ts) from a market's price ranges, fractional
 * trading and its series' fee schedule, with worked figures; the simulated rules are untouched.
 */
import { Decimal } from '../../../core/domain/decimals';
import { maxTakerFee } from '../../../core/domain/marketRules';
import {
  computeFee,
  kalshiMarketRules,
  liveKalshiMarketRules,
  polymarketMarketRules,
  validateOrderInput,
  validatePrice,
  validateQuantity,
} from '../../../core/domain/venueRules';
import { marketRulesOf } from '../../../core/venues/venueModules';

const TAPERED = [
  { start: '0.0000', end: '0.1000', step: '0.0010' },
  { start: '0.1000', end: '0.9000', step: '0.0100' },
  { start: '0.9000', end: '1.0000', step: '0.0010' },
];
const tapered = liveKalshiMarketRules({ priceRanges: TAPERED, fractionalTrading: true, feeType: 'quadratic_with_maker_fees', feeMultiplier: '0.5' });
const wholeCent = liveKalshiMarketRules({ priceRanges: [{ start: '0.0000', end: '1.0000', step: '0.0100' }], fractionalTrading: false, feeType: 'quadratic', feeMultiplier: '1' });

describe('live Kalshi rules from price ranges', () => {
  it('tick = the smallest step, prices from the first to the last valid one, dollars on the wire, sizes from fractional trading', () => {
    expect(tapered).toMatchObject({
      tickSize: '0.001',
      tickSizeTicks: 10,
      minPrice: '0.001',
      maxPrice: '0.999',
      minPriceTicks: 10,
      maxPriceTicks: 9990,
      priceUnit: 'dollars',
      quantityStep: '0.01',
      unitsPerWhole: 100,
      minSize: '0.01',
      minSizeUnits: 1,
      fees: { kind: 'quadratic_rounded_up', takerRate: '0.035', makerRate: '0.00875', feeDecimals: 4 },
    });
    expect(tapered.priceRanges!.map((r) => [r.start, r.end, r.step, r.startTicks, r.endTicks, r.stepTicks])).toEqual([
      ['0.0000', '0.1000', '0.0010', 0, 1000, 10],
      ['0.1000', '0.9000', '0.0100', 1000, 9000, 100],
      ['0.9000', '1.0000', '0.0010', 9000, 10000, 10],
    ]);
    expect(wholeCent).toMatchObject({ tickSize: '0.01', minPrice: '0.01', maxPrice: '0.99', quantityStep: '1', unitsPerWhole: 1, minSize: '1' });
  });

  it.each([
    ['0.035', 350],
    ['0.0350', 350],
    ['0.001', 10],
    ['0.1', 1000],
    ['0.42', 4200],
    ['0.9', 9000],
    ['0.965', 9650],
    ['0.999', 9990],
  ])('accepts %s on the tapered deci-cent structure (%d ticks)', (price, ticks) => {
    expect(validatePrice(tapered, price)).toEqual({ ok: true, priceTicks: ticks });
  });

  it.each([['0.105'], ['0.425'], ['0.0355'], ['0.9655'], ['0.00001']])('refuses %s: on no range step, param price', (price) => {
    expect(validatePrice(tapered, price)).toEqual({
      ok: false,
      param: 'price',
      code: 'off_tick',
      message: `price ${price} is not a valid price on this market: valid YES prices are 0 to 0.1 in steps of 0.001, 0.1 to 0.9 in steps of 0.01, 0.9 to 1 in steps of 0.001`,
    });
  });

  it('refuses 0, 1 and non-decimals as before', () => {
    expect(validatePrice(tapered, '0')).toMatchObject({ ok: false, code: 'out_of_range' });
    expect(validatePrice(tapered, '1')).toMatchObject({ ok: false, code: 'out_of_range' });
    expect(validatePrice(tapered, 0.5)).toMatchObject({ ok: false, code: 'invalid_type' });
  });

  it('checks a NO price as the YES price 1 − p (which matters only for asymmetric ranges)', () => {
    const asymmetric = liveKalshiMarketRules({
      priceRanges: [{ start: '0', end: '0.5', step: '0.001' }, { start: '0.5', end: '1', step: '0.01' }],
      fractionalTrading: false,
      feeType: 'quadratic',
      feeMultiplier: '1',
    });
    expect(validatePrice(asymmetric, '0.995', 'price', 'no')).toEqual({ ok: true, priceTicks: 9950 });
    expect(validatePrice(asymmetric, '0.995', 'price', 'yes')).toMatchObject({ ok: false, code: 'off_tick' });
    expect(validateOrderInput(asymmetric, { type: 'limit', side: 'no', price: '0.105', quantity: '1' })).toMatchObject({
      ok: false,
      param: 'price',
      message: expect.stringContaining('price 0.105 (as the YES price 0.895) is not a valid price'),
    });
    expect(validatePrice(tapered, '0.965', 'price', 'no')).toEqual({ ok: true, priceTicks: 9650 });
  });

  it('quantities step by 0.01 with fractional trading, by whole contracts without', () => {
    expect(validateQuantity(tapered, '2.50')).toEqual({ ok: true, quantityUnits: 250 });
    expect(validateQuantity(tapered, '0.01')).toEqual({ ok: true, quantityUnits: 1 });
    expect(validateQuantity(tapered, '2.505')).toMatchObject({ ok: false, param: 'quantity', code: 'off_step' });
    expect(validateQuantity(wholeCent, '1.5')).toMatchObject({ ok: false, param: 'quantity', code: 'off_step' });
    expect(validateQuantity(wholeCent, '3')).toEqual({ ok: true, quantityUnits: 3 });
  });

  it('refuses ranges it cannot trade: finer than $0.0001, empty, inverted, outside 0..1', () => {
    const rules = (priceRanges: { start: string; end: string; step: string }[]) => () =>
      liveKalshiMarketRules({ priceRanges, fractionalTrading: false, feeType: null, feeMultiplier: null });
    expect(rules([{ start: '0', end: '1', step: '0.00005' }])).toThrow(/finer than \$0.0001/);
    expect(rules([])).toThrow(RangeError);
    expect(rules([{ start: '0.5', end: '0.4', step: '0.01' }])).toThrow(RangeError);
    expect(rules([{ start: '0', end: '1.5', step: '0.01' }])).toThrow(RangeError);
    expect(rules([{ start: '0', end: '1', step: '0' }])).toThrow(RangeError);
  });
});

describe('live Kalshi fees: 0.07 (taker) / 0.0175 (maker, only with maker fees) x C x P x (1 - P) x multiplier, rounded up to $0.0001', () => {
  it('worked figures', () => {
    const tenAt42 = (rules: typeof tapered, liquidity: 'taker' | 'maker') => computeFee(rules, { priceTicks: 4200, quantityUnits: 10 * rules.unitsPerWhole, liquidity });
    // quadratic x 1: 0.07 x 10 x 0.42 x 0.58 = 0.17052 -> 0.1706; makers pay nothing.
    expect(tenAt42(wholeCent, 'taker')).toBe('0.1706');
    expect(tenAt42(wholeCent, 'maker')).toBe('0.0000');
    // quadratic_with_maker_fees x 0.5: 0.035 x 2.436 = 0.08526 -> 0.0853; 0.00875 x 2.436 = 0.021315 -> 0.0214.
    expect(tenAt42(tapered, 'taker')).toBe('0.0853');
    expect(tenAt42(tapered, 'maker')).toBe('0.0214');
    // Sub-cent price: 1 contract at 0.035, quadratic x 1: 0.07 x 0.035 x 0.965 = 0.00236425 -> 0.0024.
    expect(computeFee(wholeCent, { priceTicks: 350, quantityUnits: 1, liquidity: 'taker' })).toBe('0.0024');
    // The simulator keeps whole cents: 0.17052 -> 0.18.
    expect(computeFee(kalshiMarketRules(), { priceTicks: 4200, quantityUnits: 10, liquidity: 'taker' })).toBe('0.18');
  });

  it('the pre-trade bound adds one $0.0001 rounding step per level it may walk', () => {
    // Peak fee at 0.5: 0.07 x 10 x 0.25 = 0.175, plus 10 levels (one per contract) x 0.0001.
    expect(maxTakerFee(wholeCent, new Decimal('0.60'), new Decimal('10')).toFixed()).toBe('0.176');
    // The simulator's bound is unchanged: 0.175 -> 0.18, plus 10 x 0.01.
    expect(maxTakerFee(kalshiMarketRules(), new Decimal('0.60'), new Decimal('10')).toFixed()).toBe('0.28');
  });

  it('fee types: flat or unknown are charged as with maker fees; no series is quadratic x 1', () => {
    const fees = (feeType: string | null, feeMultiplier: string | null) =>
      liveKalshiMarketRules({ priceRanges: [{ start: '0', end: '1', step: '0.01' }], fractionalTrading: false, feeType, feeMultiplier }).fees;
    expect(fees('flat', '2')).toEqual({ kind: 'quadratic_rounded_up', takerRate: '0.14', makerRate: '0.035', feeDecimals: 4 });
    expect(fees(null, null)).toEqual({ kind: 'quadratic_rounded_up', takerRate: '0.07', makerRate: '0', feeDecimals: 4 });
    expect(fees('quadratic', '0')).toEqual({ kind: 'quadratic_rounded_up', takerRate: '0', makerRate: '0', feeDecimals: 4 });
  });
});

describe('marketRulesOf: a live Kalshi row gets live rules; simulated rows keep theirs', () => {
  it('from the stored columns (jsonb ranges, numeric multiplier)', () => {
    const rules = marketRulesOf({
      venue: 'kalshi',
      tickSize: '0.001000',
      minSize: '0.010000',
      priceRanges: TAPERED,
      feeType: 'quadratic_with_maker_fees',
      feeMultiplier: '0.500000',
      fractionalTrading: true,
    });
    expect(rules).toEqual(tapered);
  });

  it('a live Kalshi row without ranges gets whole steps of its tick size', () => {
    const rules = marketRulesOf({ venue: 'kalshi', tickSize: '0.01', minSize: '1' });
    expect(rules).toMatchObject({ tickSize: '0.01', minPrice: '0.01', maxPrice: '0.99', quantityStep: '1', fees: { takerRate: '0.07', makerRate: '0' } });
    expect(validatePrice(rules, '0.43')).toEqual({ ok: true, priceTicks: 4300 });
    expect(validatePrice(rules, '0.435')).toMatchObject({ ok: false, code: 'off_tick' });
  });

  it('simulated rows: exactly the simulated venues\' rules', () => {
    expect(marketRulesOf({ venue: 'sim_kalshi', tickSize: '0.01', minSize: '1', priceRanges: null, feeType: null, feeMultiplier: null, fractionalTrading: false })).toEqual(kalshiMarketRules());
    expect(marketRulesOf({ venue: 'sim_polymarket', tickSize: '0.001', minSize: '5' })).toEqual(polymarketMarketRules({ tickSize: '0.001', minOrderSize: '5' }));
  });
});
