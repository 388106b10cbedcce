import Decimal from 'decimal.js';
import { kalshiMarketRules, polymarketMarketRules } from '../../../core/domain/venueRules';
import { allocateFee, feesForOperation } from '../../../core/venues/sim/operationFees';

const sum = (fees: string[]) => fees.reduce((total, fee) => total.plus(fee), new Decimal(0));

describe('allocateFee', () => {
  it('splits in proportion to quantity by cumulative rounding down, summing exactly', () => {
    expect(allocateFee('0.18', [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])).toEqual(['0.01', '0.02', '0.02', '0.02', '0.02', '0.01', '0.02', '0.02', '0.02', '0.02']);
    expect(allocateFee('1.00', [1, 3])).toEqual(['0.25', '0.75']);
    expect(allocateFee('0.01', [5, 5])).toEqual(['0.00', '0.01']);
    expect(allocateFee('0.02500', [200, 800])).toEqual(['0.00500', '0.02000']);
    expect(allocateFee('0.00', [3, 4])).toEqual(['0.00', '0.00']);
  });

  it('always sums to the total and keeps the total precision', () => {
    const quantities = [7, 13, 1, 250, 99, 3];
    for (const total of ['12.37', '0.03', '5.00001', '0']) {
      const fees = allocateFee(total, quantities);
      expect(sum(fees).eq(total)).toBe(true);
      for (const fee of fees) {
        expect(new Decimal(fee).gte(0)).toBe(true);
        expect(fee.split('.')[1]?.length ?? 0).toBe(total.split('.')[1]?.length ?? 0);
      }
    }
  });

  it('refuses to allocate over no quantity', () => {
    expect(() => allocateFee('0.10', [])).toThrow(RangeError);
  });
});

describe('feesForOperation', () => {
  it('prices each price of the operation on its total quantity (Kalshi rounds up once per price)', () => {
    const rules = kalshiMarketRules();
    const fees = feesForOperation(rules, 'taker', [
      { priceTicks: 5000, quantityUnits: 5 },
      { priceTicks: 5100, quantityUnits: 3 },
      { priceTicks: 5000, quantityUnits: 5 },
    ]);
    // 10 at 0.50: 0.175 -> 0.18, split 0.09 / 0.09; 3 at 0.51: 0.07 × 3 × 0.2499 = 0.052479 -> 0.06.
    expect(fees).toEqual(['0.09', '0.06', '0.09']);
  });

  it('charges makers the maker rate, and nothing where the market has no maker fee', () => {
    expect(feesForOperation(kalshiMarketRules({ makerFees: true }), 'maker', [{ priceTicks: 5000, quantityUnits: 100 }])).toEqual(['0.44']);
    expect(feesForOperation(kalshiMarketRules(), 'maker', [{ priceTicks: 5000, quantityUnits: 100 }])).toEqual(['0.00']);
    expect(feesForOperation(polymarketMarketRules({ takerFeeRateBps: 100 }), 'maker', [{ priceTicks: 5000, quantityUnits: 1000 }])).toEqual([
      '0.00000',
    ]);
  });
});
