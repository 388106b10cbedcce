import { computeFee, kalshiMarketRules, polymarketMarketRules } from '../../../core/domain/venueRules';

const kalshi = kalshiMarketRules();
const kalshiWithMakerFees = kalshiMarketRules({ makerFees: true });

/** Kalshi fee for C contracts at a price in cents. */
function kalshiFee(rules: typeof kalshi, contracts: number, cents: number, liquidity: 'maker' | 'taker'): string {
  return computeFee(rules, { priceTicks: cents * 100, quantityUnits: contracts, liquidity });
}

describe('sim-kalshi fees: round up to the next cent of rate × C × P × (1 − P)', () => {
  it.each([
    // contracts, cents, expected taker fee (raw value in the comment)
    [1, 50, '0.02'], // 0.0175
    [10, 50, '0.18'], // 0.175
    [100, 50, '1.75'], // exactly 1.75: no rounding up when already whole cents
    [100, 5, '0.34'], // 0.3325
    [100, 10, '0.63'], // exactly 0.63
    [100, 25, '1.32'], // 1.3125
    [1, 1, '0.01'], // 0.000693
    [1, 99, '0.01'],
    [0, 50, '0.00'],
    [1_000_000, 37, '16317.00'], // 16317 exactly
  ])('taker: %i contracts at %i¢ -> $%s', (contracts, cents, fee) => {
    expect(kalshiFee(kalshi, contracts, cents, 'taker')).toBe(fee);
  });

  it('is the same for the YES price and the complementary NO price', () => {
    expect(kalshiFee(kalshi, 37, 23, 'taker')).toBe(kalshiFee(kalshi, 37, 77, 'taker'));
  });

  it('charges makers nothing unless the market has maker fees', () => {
    expect(kalshiFee(kalshi, 100, 50, 'maker')).toBe('0.00');
    expect(kalshiFee(kalshiWithMakerFees, 100, 50, 'maker')).toBe('0.44'); // 0.4375
    expect(kalshiFee(kalshiWithMakerFees, 10, 50, 'maker')).toBe('0.05'); // 0.04375
    expect(kalshiFee(kalshiWithMakerFees, 1, 50, 'maker')).toBe('0.01'); // 0.004375
  });

  it('rounds the order’s total once, which is cheaper than rounding each leg', () => {
    const whole = kalshiFee(kalshi, 10, 50, 'taker');
    const perLeg = Array.from({ length: 10 }, () => Number(kalshiFee(kalshi, 1, 50, 'taker')) * 100).reduce((a, b) => a + b, 0) / 100;
    expect(whole).toBe('0.18');
    expect(perLeg).toBe(0.2);
  });

  it('rejects inputs outside the domain', () => {
    expect(() => computeFee(kalshi, { priceTicks: 0, quantityUnits: 1, liquidity: 'taker' })).toThrow(RangeError);
    expect(() => computeFee(kalshi, { priceTicks: 10_000, quantityUnits: 1, liquidity: 'taker' })).toThrow(RangeError);
    expect(() => computeFee(kalshi, { priceTicks: 5000, quantityUnits: -1, liquidity: 'taker' })).toThrow(RangeError);
    expect(() => computeFee(kalshi, { priceTicks: 5000, quantityUnits: 1.5, liquidity: 'taker' })).toThrow(RangeError);
  });
});

describe('sim-polymarket fees: C × rate × (P × (1 − P))^exponent, takers only', () => {
  it('is zero on a market without a fee rate (the common case)', () => {
    const rules = polymarketMarketRules();
    expect(computeFee(rules, { priceTicks: 5000, quantityUnits: 10_000, liquidity: 'taker' })).toBe('0.00000');
  });

  it('charges takers at the market’s rate, in shares of 0.01 base units', () => {
    const rules = polymarketMarketRules({ takerFeeRateBps: 200 });
    // 100 shares × 0.02 × 0.25 = 0.5
    expect(computeFee(rules, { priceTicks: 5000, quantityUnits: 10_000, liquidity: 'taker' })).toBe('0.50000');
    // 12.34 shares × 0.02 × 0.43 × 0.57 = 0.06049068 -> 0.06049
    expect(computeFee(rules, { priceTicks: 4300, quantityUnits: 1234, liquidity: 'taker' })).toBe('0.06049');
    expect(computeFee(rules, { priceTicks: 5000, quantityUnits: 10_000, liquidity: 'maker' })).toBe('0.00000');
  });

  it('rounds down to 0.00001', () => {
    const rules = polymarketMarketRules({ takerFeeRateBps: 100, tickSize: '0.01' });
    // 1 share × 0.01 × 0.01 × 0.99 = 0.000099
    expect(computeFee(rules, { priceTicks: 100, quantityUnits: 100, liquidity: 'taker' })).toBe('0.00009');
  });

  it('applies the exponent to P × (1 − P)', () => {
    const rules = polymarketMarketRules({ takerFeeRateBps: 2500, feeExponent: 2 });
    // 100 × 0.25 × (0.25)^2 = 1.5625
    expect(computeFee(rules, { priceTicks: 5000, quantityUnits: 10_000, liquidity: 'taker' })).toBe('1.56250');
  });
});
