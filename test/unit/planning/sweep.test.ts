import { planExecution, type ExecutionPlan, type PlanAlternative } from '../../../core/domain/planning';
import { computeFee, polymarketMarketRules } from '../../../core/domain/venueRules';
import { KALSHI, parent, POLYMARKET, POLYMARKET_WITH_FEES, snapshot } from './planningFixtures';

function alternative(plan: ExecutionPlan, id: string): PlanAlternative {
  const found = plan.alternatives.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no alternative ${id} in ${plan.alternatives.map((a) => a.id).join(', ')}`);
  return found;
}

const kalshiLadder = snapshot('sim-kalshi', KALSHI, [['0.38', '50']], [
  ['0.40', '10'],
  ['0.41', '20'],
  ['0.43', '30'],
]);

describe('sweep on one venue', () => {
  it('walks the levels best first: average, worst price, per-level Kalshi fees, slippage against the mid', () => {
    const plan = planExecution(parent({ quantity: '25', venues: ['sim-kalshi'] }), [kalshiLadder]);
    expect(plan.arrivalMid).toBe('0.39');
    expect(plan.alternatives.map((a) => a.id)).toEqual(['sweep:sim-kalshi']);
    expect(plan.recommended?.id).toBe('sweep:sim-kalshi');
    expect(plan.reason.code).toBe('only_feasible_alternative');

    const [child] = plan.recommended!.children;
    expect(child).toMatchObject({
      venue: 'sim-kalshi',
      venueMarketId: 'sim-kalshi-market',
      side: 'yes',
      action: 'buy',
      type: 'limit',
      price: '0.41',
      quantity: '25',
      timeInForce: 'ioc',
      offsetSeconds: '0',
      liquidity: 'taker',
    });
    // 0.07 × 10 × 0.40 × 0.60 = 0.168 -> 0.17; 0.07 × 15 × 0.41 × 0.59 = 0.253995 -> 0.26 (rounded up per level).
    expect(child!.expectedFills).toEqual([
      { price: '0.4', quantity: '10', fee: '0.17' },
      { price: '0.41', quantity: '15', fee: '0.26' },
    ]);
    expect(plan.recommended!.impact).toEqual({
      fillModel: 'static_book',
      arrivalMid: '0.39',
      expectedFilledQuantity: '25',
      unfilledQuantity: '0',
      notional: '10.15',
      totalFees: '0.43',
      expectedAveragePrice: '0.406',
      allInAveragePrice: '0.4232',
      allInNotional: '10.58',
      slippageBps: '410.26', // (0.406 − 0.39) / 0.39 × 10,000 = 410.2564…
      allInSlippageBps: '851.28', // (0.4232 − 0.39) / 0.39 × 10,000 = 851.2820…
      worstPrice: '0.41',
      childOrderCount: 1,
    });
  });

  it("charges Polymarket's taker fee schedule per level, rounded down to $0.00001", () => {
    const book = snapshot('sim-polymarket', POLYMARKET_WITH_FEES, [['0.38', '50']], [
      ['0.40', '10'],
      ['0.41', '20'],
    ]);
    const plan = planExecution(parent({ quantity: '25', venues: ['sim-polymarket'] }), [book]);
    const fills = plan.recommended!.children[0]!.expectedFills;
    // 10 × 0.01 × 0.24 = 0.024; 15 × 0.01 × 0.2419 = 0.036285 -> 0.03628.
    expect(fills).toEqual([
      { price: '0.4', quantity: '10', fee: '0.024' },
      { price: '0.41', quantity: '15', fee: '0.03628' },
    ]);
    expect(computeFee(POLYMARKET_WITH_FEES, { priceTicks: 4100, quantityUnits: 1500, liquidity: 'taker' })).toBe('0.03628');
    expect(plan.recommended!.impact.totalFees).toBe('0.06028');
  });

  it('stops at the limit price: the rest is reported unfilled', () => {
    const plan = planExecution(parent({ quantity: '50', limitPrice: '0.41', venues: ['sim-kalshi'] }), [kalshiLadder]);
    const impact = plan.recommended!.impact;
    expect(impact.expectedFilledQuantity).toBe('30');
    expect(impact.unfilledQuantity).toBe('20');
    expect(impact.worstPrice).toBe('0.41');
    expect(plan.recommended!.children[0]).toMatchObject({ price: '0.41', quantity: '30' });
    expect(plan.limitPrice).toBe('0.41');
  });

  it('stops a sell at its limit too, taking the YES bids from the highest', () => {
    const book = snapshot('sim-kalshi', KALSHI, [
      ['0.60', '10'],
      ['0.58', '10'],
    ], [['0.62', '10']]);
    const plan = planExecution(parent({ action: 'sell', quantity: '15', limitPrice: '0.59', venues: ['sim-kalshi'] }), [book]);
    expect(plan.recommended!.children).toHaveLength(1);
    expect(plan.recommended!.children[0]).toMatchObject({ action: 'sell', price: '0.6', quantity: '10' });
    expect(plan.recommended!.impact).toMatchObject({ expectedFilledQuantity: '10', unfilledQuantity: '5', worstPrice: '0.6' });
    // A sell below the mid is worse for the trader: positive slippage. Mid 0.61; (0.61 − 0.60) / 0.61.
    expect(plan.recommended!.impact.slippageBps).toBe('163.93');
  });

  it('is infeasible when nothing is within the limit', () => {
    const plan = planExecution(parent({ quantity: '5', limitPrice: '0.39', venues: ['sim-kalshi'] }), [kalshiLadder]);
    expect(plan.recommended).toBeNull();
    expect(plan.reason).toEqual({ code: 'no_feasible_alternative', comparedWith: null, recommendedValue: null, comparedValue: null });
    expect(plan.alternatives[0]).toMatchObject({ feasible: false, infeasibleReason: 'no_liquidity_within_limit', children: [] });
    expect(plan.alternatives[0]!.impact).toMatchObject({ expectedFilledQuantity: '0', unfilledQuantity: '5', expectedAveragePrice: null, slippageBps: null });
  });
});

describe('sweep across venues', () => {
  // sim-kalshi is cheap but thin at the top and charges fees; sim-polymarket is deeper and free.
  const kalshiThin = snapshot('sim-kalshi', KALSHI, [['0.38', '10']], [
    ['0.40', '10'],
    ['0.50', '100'],
  ]);
  const polymarketDeep = snapshot('sim-polymarket', POLYMARKET, [['0.39', '10']], [
    ['0.43', '30'],
    ['0.50', '100'],
  ]);

  it('splits when that beats each venue alone, and says so', () => {
    const plan = planExecution(parent({ quantity: '40' }), [kalshiThin, polymarketDeep]);
    expect(plan.alternatives.map((a) => a.id)).toEqual(['sweep:sim-kalshi', 'sweep:sim-polymarket', 'sweep:split']);
    // Kalshi alone: 10 @ 0.40 (fee 0.17) + 30 @ 0.50 (fee 0.525 -> 0.53) = 19.70.
    expect(alternative(plan, 'sweep:sim-kalshi').impact).toMatchObject({ allInNotional: '19.7', allInAveragePrice: '0.4925' });
    // Polymarket alone: 30 @ 0.43 + 10 @ 0.50 = 17.90, no fee.
    expect(alternative(plan, 'sweep:sim-polymarket').impact).toMatchObject({ allInNotional: '17.9', allInAveragePrice: '0.4475' });
    // Split: Kalshi's 10 @ 0.40 (all-in 0.4168) and Polymarket's 30 @ 0.43 = 4.00 + 0.17 + 12.90 = 17.07.
    const split = alternative(plan, 'sweep:split');
    expect(split.children.map((c) => [c.venue, c.price, c.quantity, c.expectedFees])).toEqual([
      ['sim-kalshi', '0.4', '10', '0.17'],
      ['sim-polymarket', '0.43', '30', '0'],
    ]);
    expect(split.impact).toMatchObject({ expectedFilledQuantity: '40', allInNotional: '17.07', allInAveragePrice: '0.42675', worstPrice: '0.43' });
    expect(plan.recommended!.id).toBe('sweep:split');
    expect(plan.reason).toEqual({
      code: 'lower_all_in_cost_per_contract',
      comparedWith: 'sweep:sim-polymarket',
      recommendedValue: '0.42675',
      comparedValue: '0.4475',
    });
  });

  it('prefers filling more when a limit leaves each venue short', () => {
    const kalshi = snapshot('sim-kalshi', KALSHI, [], [['0.40', '10']]);
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [], [['0.41', '10']]);
    const plan = planExecution(parent({ quantity: '20', limitPrice: '0.41' }), [kalshi, polymarket]);
    expect(plan.arrivalMid).toBeNull();
    expect(plan.recommended!.id).toBe('sweep:split');
    expect(plan.recommended!.impact.slippageBps).toBeNull();
    // Runner-up: Polymarket alone (10 at an all-in 0.41 beats Kalshi's 10 at 0.40 + 0.017 fee).
    expect(plan.reason).toEqual({ code: 'higher_expected_fill', comparedWith: 'sweep:sim-polymarket', recommendedValue: '20', comparedValue: '10' });
  });

  it('never plans a child below a venue minimum size', () => {
    const kalshi = snapshot('sim-kalshi', KALSHI, [], [['0.44', '100']]);
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [], [
      ['0.40', '3'],
      ['0.45', '100'],
    ]);
    const plan = planExecution(parent({ quantity: '4' }), [kalshi, polymarket]);
    expect(alternative(plan, 'sweep:sim-polymarket')).toMatchObject({ feasible: false, infeasibleReason: 'below_min_size' });
    expect(alternative(plan, 'sweep:split').children.map((c) => [c.venue, c.quantity])).toEqual([['sim-kalshi', '4']]);
    // Identical plans: the single venue, listed first, is recommended.
    expect(plan.recommended!.id).toBe('sweep:sim-kalshi');
    expect(plan.reason.code).toBe('equivalent_first_listed');
  });

  it('drops a venue whose liquidity within the limit is below its minimum size', () => {
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [], [
      ['0.40', '3'],
      ['0.45', '100'],
    ]);
    const plan = planExecution(parent({ quantity: '10', limitPrice: '0.42', venues: ['sim-polymarket'] }), [polymarket]);
    expect(plan.recommended).toBeNull();
    expect(plan.alternatives[0]!.infeasibleReason).toBe('below_min_size');
  });

  it("keeps each child on its venue's quantity step: whole Kalshi contracts, Polymarket hundredths", () => {
    const kalshi = snapshot('sim-kalshi', KALSHI, [], [['0.40', '10']]);
    const polymarket = snapshot('sim-polymarket', POLYMARKET, [], [['0.45', '100']]);
    const plan = planExecution(parent({ quantity: '12.5' }), [kalshi, polymarket]);
    expect(alternative(plan, 'sweep:sim-kalshi')).toMatchObject({ feasible: false, infeasibleReason: 'quantity_off_step' });
    // Kalshi's 7 whole contracts (all-in 0.4168) first; Polymarket takes the rest, 5.5 >= its minimum of 5.
    expect(alternative(plan, 'sweep:split').children.map((c) => [c.venue, c.quantity])).toEqual([
      ['sim-kalshi', '7'],
      ['sim-polymarket', '5.5'],
    ]);
    expect(plan.recommended!.id).toBe('sweep:split');
    expect(plan.recommended!.impact.expectedFilledQuantity).toBe('12.5');
  });

  it('prices children on the ticks of the book levels (0.001 market)', () => {
    const fine = snapshot('sim-polymarket', polymarketMarketRules({ tickSize: '0.001' }), [], [
      ['0.401', '6'],
      ['0.403', '6'],
    ]);
    const plan = planExecution(parent({ quantity: '8', venues: ['sim-polymarket'] }), [fine]);
    expect(plan.recommended!.children[0]).toMatchObject({ price: '0.403', quantity: '8' });
    expect(plan.recommended!.impact.expectedAveragePrice).toBe('0.4015'); // (6 × 0.401 + 2 × 0.403) / 8
  });
});

describe('NO orders through the YES/NO complement', () => {
  const book = snapshot('sim-kalshi', KALSHI, [
    ['0.60', '10'],
    ['0.58', '20'],
  ], [
    ['0.62', '10'],
    ['0.65', '10'],
  ]);

  it('a NO buy takes the YES bids at 1 − p, cheapest NO first', () => {
    const plan = planExecution(parent({ side: 'no', quantity: '15', venues: ['sim-kalshi'] }), [book]);
    expect(plan.arrivalMid).toBe('0.39'); // 1 − (0.60 + 0.62) / 2
    const child = plan.recommended!.children[0]!;
    expect(child).toMatchObject({ side: 'no', action: 'buy', price: '0.42', quantity: '15' });
    // Fees are symmetric in P × (1 − P): 10 @ 0.40 -> 0.17, 5 @ 0.42 -> 0.08526 -> 0.09.
    expect(child.expectedFills).toEqual([
      { price: '0.4', quantity: '10', fee: '0.17' },
      { price: '0.42', quantity: '5', fee: '0.09' },
    ]);
    expect(plan.recommended!.impact.expectedAveragePrice).toBe('0.40666667'); // 6.10 / 15
  });

  it('a NO sell takes the YES asks at 1 − p, best NO bid first, and respects its limit', () => {
    const plan = planExecution(parent({ side: 'no', action: 'sell', quantity: '20', limitPrice: '0.36', venues: ['sim-kalshi'] }), [book]);
    const child = plan.recommended!.children[0]!;
    expect(child).toMatchObject({ side: 'no', action: 'sell', price: '0.38', quantity: '10' });
    expect(plan.recommended!.impact).toMatchObject({ expectedFilledQuantity: '10', unfilledQuantity: '10', worstPrice: '0.38' });
  });
});

describe('plan shape', () => {
  it('reports venues outside the allowed list and is deterministic', () => {
    const live = snapshot('polymarket', POLYMARKET, [], [['0.30', '100']]);
    const order = parent({ quantity: '25', venues: ['sim-kalshi'] });
    const plan = planExecution(order, [kalshiLadder, live]);
    expect(plan.eligibleVenues).toEqual(['sim-kalshi']);
    expect(plan.excludedVenues).toEqual([{ venue: 'polymarket', reason: 'not_allowed' }]);
    expect(planExecution(order, [kalshiLadder, live])).toEqual(plan);
  });
});
