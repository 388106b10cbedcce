import { planExecution, type PlanAlternative } from '../../../core/domain/planning';
import Decimal from 'decimal.js';
import { KALSHI, parent, POLYMARKET, snapshot } from './planningFixtures';

const kalshi = snapshot('sim-kalshi', KALSHI, [['0.38', '100']], [
  ['0.40', '30'],
  ['0.41', '30'],
  ['0.42', '100'],
]);

function sliceFills(alternative: PlanAlternative): Array<[number | null, string, string[]]> {
  return alternative.children.map((child) => [child.sliceIndex, child.offsetSeconds, child.expectedFills.map((f) => `${f.quantity}@${f.price}`)]);
}

describe('twap plans', () => {
  it('spreads N slices evenly over the duration, sizes summing exactly to the quantity', () => {
    const plan = planExecution(parent({ strategy: 'twap', quantity: '101', durationSeconds: 300, slices: 4, venues: ['sim-kalshi'] }), [kalshi]);
    const twap = plan.recommended!;
    expect(twap.id).toBe('twap:sim-kalshi');
    expect(twap.slices).toEqual([
      { index: 0, offsetSeconds: '0', quantity: '26' },
      { index: 1, offsetSeconds: '75', quantity: '25' },
      { index: 2, offsetSeconds: '150', quantity: '25' },
      { index: 3, offsetSeconds: '225', quantity: '25' },
    ]);
    expect(twap.children.every((child) => child.timeInForce === 'ioc' && child.liquidity === 'taker')).toBe(true);
    const total = twap.children.reduce((sum, child) => sum.plus(child.quantity), new Decimal(0));
    expect(total.toFixed()).toBe('101');
    expect(twap.impact.expectedFilledQuantity).toBe('101');
  });

  it('walks each later slice against the book the earlier slices left (depleting, the default)', () => {
    const plan = planExecution(parent({ strategy: 'twap', quantity: '101', durationSeconds: 300, slices: 4, venues: ['sim-kalshi'] }), [kalshi]);
    expect(sliceFills(plan.recommended!)).toEqual([
      [0, '0', ['26@0.4']],
      [1, '75', ['4@0.4', '21@0.41']],
      [2, '150', ['9@0.41', '16@0.42']],
      [3, '225', ['25@0.42']],
    ]);
    expect(plan.recommended!.impact.worstPrice).toBe('0.42');
  });

  it('or against the book as it is now, as if what was taken came back (replenishing)', () => {
    const plan = planExecution(
      parent({ strategy: 'twap', quantity: '101', durationSeconds: 300, slices: 4, venues: ['sim-kalshi'], twapBookModel: 'replenishing' }),
      [kalshi],
    );
    expect(sliceFills(plan.recommended!).map(([, , fills]) => fills)).toEqual([['26@0.4'], ['25@0.4'], ['25@0.4'], ['25@0.4']]);
    expect(plan.recommended!.impact.expectedAveragePrice).toBe('0.4');
  });

  it('defaults to one slice a minute and keeps offsets to the millisecond', () => {
    const perMinute = planExecution(parent({ strategy: 'twap', quantity: '100', durationSeconds: 600, venues: ['sim-kalshi'] }), [kalshi]);
    expect(perMinute.recommended!.slices).toHaveLength(10);
    expect(perMinute.recommended!.slices!.map((slice) => slice.offsetSeconds)).toEqual(['0', '60', '120', '180', '240', '300', '360', '420', '480', '540']);
    const thirds = planExecution(parent({ strategy: 'twap', quantity: '30', durationSeconds: 100, slices: 3, venues: ['sim-kalshi'] }), [kalshi]);
    expect(thirds.recommended!.slices!.map((slice) => slice.offsetSeconds)).toEqual(['0', '33.333', '66.666']);
  });

  it('uses fewer slices when a slice would fall below the minimum size', () => {
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [['0.38', '100']], [['0.40', '100']]);
    const plan = planExecution(parent({ strategy: 'twap', quantity: '12', durationSeconds: 60, slices: 5, venues: ['sim-polymarket'] }), [polymarket]);
    expect(plan.recommended!.slices).toEqual([
      { index: 0, offsetSeconds: '0', quantity: '6' },
      { index: 1, offsetSeconds: '30', quantity: '6' },
    ]);
  });

  it('sizes split slices in whole contracts when Kalshi is one of the venues, the fraction in the first slice', () => {
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [['0.38', '100']], [['0.41', '100']]);
    const sizes = (quantity: string) =>
      planExecution(parent({ strategy: 'twap', quantity, durationSeconds: 50, slices: 5 }), [kalshi, polymarket])
        .alternatives.find((a) => a.id === 'twap:split')!
        .slices!.map((slice) => slice.quantity);
    expect(sizes('12')).toEqual(['3', '3', '2', '2', '2']);
    expect(sizes('12.5')).toEqual(['3.5', '3', '2', '2', '2']);
    // On Polymarket alone the step is 0.01: 12.5 / 2 slices (its minimum of 5 allows two).
    const alone = planExecution(parent({ strategy: 'twap', quantity: '12.5', durationSeconds: 50, slices: 5, venues: ['sim-polymarket'] }), [polymarket]);
    expect(alone.recommended!.slices!.map((slice) => slice.quantity)).toEqual(['6.25', '6.25']);
  });

  it('plans every slice as a sweep across venues for the split, and lists each venue alone', () => {
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [['0.38', '100']], [
      ['0.40', '20'],
      ['0.43', '100'],
    ]);
    const plan = planExecution(parent({ strategy: 'twap', quantity: '60', durationSeconds: 120, slices: 2 }), [kalshi, polymarket]);
    expect(plan.alternatives.map((a) => a.id)).toEqual(['twap:sim-kalshi', 'twap:sim-polymarket', 'twap:split']);
    const split = plan.alternatives[2]!;
    for (const child of split.children) expect(['0', '60']).toContain(child.offsetSeconds);
    const sliceTotals = [0, 1].map((index) =>
      split.children.filter((child) => child.sliceIndex === index).reduce((sum, child) => sum.plus(child.quantity), new Decimal(0)).toFixed(),
    );
    expect(sliceTotals).toEqual(['30', '30']);
    expect(new Decimal(split.impact.allInNotional).lte(plan.alternatives[0]!.impact.allInNotional)).toBe(true);
    expect(plan.recommended!.id).toBe('twap:split');
  });
});
