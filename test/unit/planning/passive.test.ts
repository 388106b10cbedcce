import { planExecution, type ExecutionPlan } from '../../../core/domain/planning';
import { computeFee } from '../../../core/domain/venueRules';
import { KALSHI_MAKER_FEES, parent, POLYMARKET, snapshot } from './planningFixtures';

const kalshi = snapshot('sim-kalshi', KALSHI_MAKER_FEES, [
  ['0.45', '100'],
  ['0.44', '50'],
], [['0.47', '80']]);
const polymarket = snapshot('sim-polymarket', POLYMARKET, [['0.46', '300']], [['0.48', '10']]);

function childPrices(plan: ExecutionPlan): Array<[string, string]> {
  return plan.alternatives.filter((a) => a.kind === 'single_venue').map((a) => [a.id, a.children[0]!.price]);
}

describe('passive plans join the touch', () => {
  it('a YES buy rests at each venue’s best bid, GTC, as a maker, behind the quantity already there', () => {
    const plan = planExecution(parent({ strategy: 'passive', quantity: '100' }), [kalshi, polymarket]);
    expect(plan.alternatives.map((a) => a.id)).toEqual(['passive:sim-kalshi', 'passive:sim-polymarket', 'passive:split']);
    const onKalshi = plan.alternatives[0]!;
    expect(onKalshi.children).toEqual([
      expect.objectContaining({ price: '0.45', quantity: '100', timeInForce: 'gtc', liquidity: 'maker', offsetSeconds: '0', queueAheadQuantity: '100' }),
    ]);
    // Maker fee on this market: 0.0175 × 100 × 0.45 × 0.55 = 0.433125 -> 0.44.
    expect(onKalshi.children[0]!.expectedFees).toBe(computeFee(KALSHI_MAKER_FEES, { priceTicks: 4500, quantityUnits: 100, liquidity: 'maker' }));
    expect(onKalshi.children[0]!.expectedFees).toBe('0.44');
    expect(onKalshi.impact).toMatchObject({
      fillModel: 'resting_if_filled',
      arrivalMid: '0.465', // best bid 0.46 (Polymarket), best ask 0.47 (Kalshi)
      expectedAveragePrice: '0.45',
      allInAveragePrice: '0.4544',
      slippageBps: '-322.58', // resting below the mid is better for a buyer: negative
    });
    expect(plan.alternatives[1]!.children[0]).toMatchObject({ price: '0.46', queueAheadQuantity: '300', expectedFees: '0' });
  });

  it('recommends the lowest all-in price if filled', () => {
    const plan = planExecution(parent({ strategy: 'passive', quantity: '100' }), [kalshi, polymarket]);
    expect(plan.recommended!.id).toBe('passive:sim-kalshi');
    expect(plan.reason).toEqual({
      code: 'lower_all_in_cost_per_contract',
      comparedWith: 'passive:split',
      recommendedValue: '0.4544',
      comparedValue: '0.4586', // (25 × 0.45 + 0.11 fee + 75 × 0.46) / 100
    });
  });

  it('splits over the venues in proportion to the quantity at their touch', () => {
    const plan = planExecution(parent({ strategy: 'passive', quantity: '100' }), [kalshi, polymarket]);
    const split = plan.alternatives.find((a) => a.id === 'passive:split')!;
    expect(split.children.map((c) => [c.venue, c.price, c.quantity])).toEqual([
      ['sim-kalshi', '0.45', '25'],
      ['sim-polymarket', '0.46', '75'],
    ]);
  });

  it('drops a venue whose proportional share is below its minimum size', () => {
    const thinPolymarket = snapshot('sim-polymarket', POLYMARKET, [['0.46', '3']], [['0.48', '10']]);
    const plan = planExecution(parent({ strategy: 'passive', quantity: '100' }), [kalshi, thinPolymarket]);
    // 100 × 3 / 103 = 2.91 shares < 5: all on Kalshi.
    expect(plan.alternatives.find((a) => a.id === 'passive:split')!.children.map((c) => [c.venue, c.quantity])).toEqual([['sim-kalshi', '100']]);
  });

  it('joins the right side of the YES book for every side and action', () => {
    const sellYes = planExecution(parent({ strategy: 'passive', action: 'sell' }), [kalshi, polymarket]);
    expect(childPrices(sellYes)).toEqual([
      ['passive:sim-kalshi', '0.47'], // best YES ask
      ['passive:sim-polymarket', '0.48'],
    ]);
    const buyNo = planExecution(parent({ strategy: 'passive', side: 'no' }), [kalshi, polymarket]);
    expect(childPrices(buyNo)).toEqual([
      ['passive:sim-kalshi', '0.53'], // best NO bid = 1 − best YES ask
      ['passive:sim-polymarket', '0.52'],
    ]);
    const sellNo = planExecution(parent({ strategy: 'passive', side: 'no', action: 'sell' }), [kalshi, polymarket]);
    expect(childPrices(sellNo)).toEqual([
      ['passive:sim-kalshi', '0.55'], // best NO ask = 1 − best YES bid
      ['passive:sim-polymarket', '0.54'],
    ]);
    expect(sellNo.arrivalMid).toBe('0.535');
    expect(sellNo.alternatives[0]!.children[0]).toMatchObject({ side: 'no', action: 'sell', queueAheadQuantity: '100' });
  });

  it('rests at the limit, rounded onto the venue tick, when the limit is below the touch', () => {
    const offTick = planExecution(parent({ strategy: 'passive', limitPrice: '0.4333', venues: ['sim-kalshi'] }), [kalshi]);
    expect(offTick.recommended!.children[0]).toMatchObject({ price: '0.43', queueAheadQuantity: '0' });
    const onLevel = planExecution(parent({ strategy: 'passive', limitPrice: '0.44', venues: ['sim-kalshi'] }), [kalshi]);
    expect(onLevel.recommended!.children[0]).toMatchObject({ price: '0.44', queueAheadQuantity: '50' });
    const sell = planExecution(parent({ strategy: 'passive', action: 'sell', limitPrice: '0.4711', venues: ['sim-kalshi'] }), [kalshi]);
    expect(sell.recommended!.children[0]).toMatchObject({ price: '0.48' }); // a sell's limit rounds up
  });

  it('cannot join an empty side', () => {
    const noBids = snapshot('sim-kalshi', KALSHI_MAKER_FEES, [], [['0.47', '80']]);
    const plan = planExecution(parent({ strategy: 'passive', venues: ['sim-kalshi'] }), [noBids]);
    expect(plan.recommended).toBeNull();
    expect(plan.alternatives[0]).toMatchObject({ feasible: false, infeasibleReason: 'no_touch' });
  });
});
