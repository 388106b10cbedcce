import { kalshiMarketRules, polymarketMarketRules, toVenuePrice } from '../../../core/domain/venueRules';
import { isVenueName, marketRulesOf } from '../../../core/venues/venueModules';
import type { PolymarketTickSize } from '../../../core/domain/venueRules';

describe('sim-kalshi rules', () => {
  it('whole-cent prices 0.01..0.99, whole contracts, minimum one, cents on the wire', () => {
    expect(kalshiMarketRules()).toMatchObject({
      tickSize: '0.01',
      tickSizeTicks: 100,
      minPrice: '0.01',
      maxPrice: '0.99',
      minPriceTicks: 100,
      maxPriceTicks: 9900,
      priceUnit: 'cents',
      quantityStep: '1',
      unitsPerWhole: 1,
      minSize: '1',
      minSizeUnits: 1,
      fees: { kind: 'quadratic_rounded_up', takerRate: '0.07', makerRate: '0' },
    });
    expect(kalshiMarketRules({ makerFees: true }).fees).toEqual({ kind: 'quadratic_rounded_up', takerRate: '0.07', makerRate: '0.0175' });
  });

  it('writes prices in integer cents', () => {
    expect(toVenuePrice(kalshiMarketRules(), 4300)).toBe('43');
    expect(toVenuePrice(kalshiMarketRules(), 100)).toBe('1');
    expect(() => toVenuePrice(kalshiMarketRules(), 4350)).toThrow('whole cent');
  });
});

describe('sim-polymarket rules', () => {
  it.each<[PolymarketTickSize, number, string, string]>([
    ['0.1', 1000, '0.1', '0.9'],
    ['0.01', 100, '0.01', '0.99'],
    ['0.001', 10, '0.001', '0.999'],
    ['0.0001', 1, '0.0001', '0.9999'],
  ])('tick %s: %d ticks, prices %s..%s', (tickSize, ticks, minPrice, maxPrice) => {
    const rules = polymarketMarketRules({ tickSize });
    expect(rules).toMatchObject({ tickSize, tickSizeTicks: ticks, minPrice, maxPrice, minPriceTicks: ticks, maxPriceTicks: 10_000 - ticks });
  });

  it('sizes in 0.01 shares, minimum order size per market (default 5), dollars on the wire, no fee by default', () => {
    expect(polymarketMarketRules()).toMatchObject({
      priceUnit: 'dollars',
      quantityStep: '0.01',
      unitsPerWhole: 100,
      minSize: '5',
      minSizeUnits: 500,
      fees: { kind: 'power_rounded_down', takerFeeRateBps: 0, exponent: 1 },
    });
    expect(polymarketMarketRules({ minOrderSize: '15.50' })).toMatchObject({ minSize: '15.5', minSizeUnits: 1550 });
    expect(toVenuePrice(polymarketMarketRules({ tickSize: '0.001' }), 4350)).toBe('0.435');
  });

  it('refuses impossible market settings', () => {
    expect(() => polymarketMarketRules({ tickSize: '0.05' as PolymarketTickSize })).toThrow('tickSize');
    expect(() => polymarketMarketRules({ minOrderSize: '0' })).toThrow('minOrderSize');
    expect(() => polymarketMarketRules({ minOrderSize: '0.001' })).toThrow('minOrderSize');
    expect(() => polymarketMarketRules({ minOrderSize: 'five' })).toThrow('minOrderSize');
    expect(() => polymarketMarketRules({ takerFeeRateBps: -1 })).toThrow('takerFeeRateBps');
    expect(() => polymarketMarketRules({ takerFeeRateBps: 1.5 })).toThrow('takerFeeRateBps');
    expect(() => polymarketMarketRules({ feeExponent: 0 })).toThrow('feeExponent');
    expect(() => kalshiMarketRules({ maxSize: 0 })).toThrow('maxSize');
  });
});

describe('venue lookup', () => {
  it('builds a catalog row\'s rules by its venue\'s module', () => {
    expect(marketRulesOf({ venue: 'sim_kalshi', tickSize: '0.01', minSize: '1' })).toEqual(kalshiMarketRules());
    expect(marketRulesOf({ venue: 'sim_polymarket', tickSize: '0.001', minSize: '5' }).tickSizeTicks).toBe(10);
    expect(isVenueName('sim-kalshi')).toBe(true);
    expect(isVenueName('nyse')).toBe(false);
  });

  it('rules are frozen so a market’s settings cannot drift at run time', () => {
    expect(Object.isFrozen(kalshiMarketRules())).toBe(true);
    expect(Object.isFrozen(polymarketMarketRules().fees)).toBe(true);
  });
});
