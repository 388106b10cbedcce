import Decimal from 'decimal.js';
import { DomainError } from '../../../core/domain/errors';
import { computeExecutionQuality, type TcaChildOrder, type TcaInput } from '../../../core/domain/tca';

const T0 = '2025-03-04T10:00:00Z';

function input(overrides: Partial<TcaInput>): TcaInput {
  return {
    side: 'yes',
    action: 'buy',
    intendedQuantity: '50',
    arrivalMid: '0.60',
    endMid: '0.57',
    startedAt: T0,
    endedAt: '2025-03-04T10:01:30.250Z',
    children: [],
    ...overrides,
  };
}

const fallingMarketChild: TcaChildOrder = {
  childId: 'chd_s',
  venue: 'sim-kalshi',
  sentAt: '2025-03-04T10:00:10Z',
  midAtSend: '0.59',
  quantity: '50',
  fills: [{ price: '0.58', quantity: '30', fee: '0.52', executedAt: '2025-03-04T10:00:11Z' }],
};

describe('execution quality: signs', () => {
  it('a sell into a falling market costs: delay, impact, fees and opportunity all positive', () => {
    const report = computeExecutionQuality(input({ action: 'sell', children: [fallingMarketChild] }));
    // delay −(0.59 − 0.60) × 30 = 0.30; impact −(0.58 − 0.59) × 30 = 0.30; opportunity −(0.57 − 0.60) × 20 = 0.60.
    expect(report.implementationShortfall).toEqual({
      delayCost: '0.3',
      marketImpactCost: '0.3',
      feesCost: '0.52',
      opportunityCost: '0.6',
      totalCost: '1.72',
      delayBps: '100', // of the paper notional 0.60 × 50 = 30
      marketImpactBps: '100',
      feesBps: '173.33',
      opportunityBps: '200',
      totalBps: '573.33',
    });
    expect(report.slippageVsArrivalBps).toBe('333.33'); // sold 0.58 vs 0.60: −(0.58 − 0.60) / 0.60
    expect(report.allInAveragePrice).toBe('0.56266667'); // (17.40 − 0.52) / 30
    expect(report.durationSeconds).toBe('90.25');
  });

  it('the same prices are a gain for a buy: price components flip sign, fees do not', () => {
    const buy = computeExecutionQuality(input({ action: 'buy', children: [fallingMarketChild] })).implementationShortfall;
    const sell = computeExecutionQuality(input({ action: 'sell', children: [fallingMarketChild] })).implementationShortfall;
    expect(buy).toMatchObject({ delayCost: '-0.3', marketImpactCost: '-0.3', feesCost: '0.52', opportunityCost: '-0.6', totalCost: '-0.68' });
    for (const part of ['delayCost', 'marketImpactCost', 'opportunityCost'] as const) {
      expect(new Decimal(buy[part]).plus(sell[part]).isZero()).toBe(true);
    }
    expect(computeExecutionQuality(input({ action: 'buy', children: [fallingMarketChild] })).slippageVsArrivalBps).toBe('-333.33');
  });

  it('a NO order is measured in NO prices like any other', () => {
    const report = computeExecutionQuality(
      input({
        side: 'no',
        arrivalMid: '0.40',
        endMid: '0.40',
        intendedQuantity: '10',
        children: [{ ...fallingMarketChild, midAtSend: '0.40', quantity: '10', fills: [{ price: '0.41', quantity: '10', fee: '0.17', executedAt: T0 }] }],
      }),
    );
    expect(report.implementationShortfall).toMatchObject({ marketImpactCost: '0.1', feesCost: '0.17', totalCost: '0.27', totalBps: '675' });
  });
});

describe('execution quality: nothing filled', () => {
  it('is all opportunity cost', () => {
    const report = computeExecutionQuality(
      input({
        intendedQuantity: '100',
        arrivalMid: '0.50',
        endMid: '0.55',
        prediction: { expectedAveragePrice: '0.51' },
        children: [{ childId: 'chd_0', venue: 'sim-polymarket', sentAt: T0, midAtSend: '0.52', quantity: '100', fills: [] }],
      }),
    );
    expect(report).toMatchObject({
      filledQuantity: '0',
      unfilledQuantity: '100',
      fillRate: '0',
      averageExecutionPrice: null,
      allInAveragePrice: null,
      slippageVsArrivalBps: null,
      slippageVsPredictionBps: null,
      predictedAveragePrice: '0.51',
      firstFillAt: null,
      lastFillAt: null,
    });
    expect(report.implementationShortfall).toEqual({
      delayCost: '0',
      marketImpactCost: '0',
      feesCost: '0',
      opportunityCost: '5',
      totalCost: '5',
      delayBps: '0',
      marketImpactBps: '0',
      feesBps: '0',
      opportunityBps: '1000',
      totalBps: '1000',
    });
    expect(report.venues).toEqual([expect.objectContaining({ venue: 'sim-polymarket', filledQuantity: '0', fillRate: '0', averageExecutionPrice: null })]);
  });
});

describe('execution quality: per-venue breakdown', () => {
  const children: TcaChildOrder[] = [
    { childId: 'a', venue: 'sim-kalshi', sentAt: T0, midAtSend: '0.601', quantity: '17', fills: [
      { price: '0.61', quantity: '7', fee: '0.12', executedAt: T0 },
      { price: '0.62', quantity: '10', fee: '0.17', executedAt: T0 },
    ] },
    { childId: 'b', venue: 'sim-polymarket', sentAt: '2025-03-04T10:00:20Z', midAtSend: '0.6035', quantity: '12.37', fills: [
      { price: '0.607', quantity: '12.37', fee: '0.07281', executedAt: '2025-03-04T10:00:21Z' },
    ] },
    { childId: 'c', venue: 'sim-kalshi', sentAt: '2025-03-04T10:00:40Z', midAtSend: '0.598', quantity: '9', fills: [
      { price: '0.60', quantity: '3', fee: '0.06', executedAt: '2025-03-04T10:00:41Z' },
    ] },
  ];

  it('adds up exactly to the totals, and the venues plus opportunity cost to the shortfall', () => {
    const report = computeExecutionQuality(input({ intendedQuantity: '40', children }));
    expect(report.venues.map((v) => [v.venue, v.childOrderCount, v.orderedQuantity, v.filledQuantity])).toEqual([
      ['sim-kalshi', 2, '26', '20'],
      ['sim-polymarket', 1, '12.37', '12.37'],
    ]);
    const sum = (pick: (row: (typeof report.venues)[number]) => string) => report.venues.reduce((total, row) => total.plus(pick(row)), new Decimal(0));
    const is = report.implementationShortfall;
    expect(sum((v) => v.filledQuantity).eq(report.filledQuantity)).toBe(true);
    expect(sum((v) => v.notional).eq(report.notional)).toBe(true);
    expect(sum((v) => v.fees).eq(report.totalFees)).toBe(true);
    expect(sum((v) => v.delayCost).eq(is.delayCost)).toBe(true);
    expect(sum((v) => v.marketImpactCost).eq(is.marketImpactCost)).toBe(true);
    expect(sum((v) => v.executionCost).plus(is.opportunityCost).eq(is.totalCost)).toBe(true);
    // bps are rounded one by one: their sums agree to within the rounding of each part.
    expect(sum((v) => v.executionCostBps).plus(is.opportunityBps).minus(is.totalBps).abs().lte('0.03')).toBe(true);
    expect(new Decimal(is.delayCost).plus(is.marketImpactCost).plus(is.feesCost).plus(is.opportunityCost).eq(is.totalCost)).toBe(true);
  });

  it('the total equals direction × Σ (price − arrival) × quantity + fees + opportunity, computed directly', () => {
    const report = computeExecutionQuality(input({ intendedQuantity: '40', children }));
    const fills = children.flatMap((child) => child.fills);
    const filled = fills.reduce((sum, fill) => sum.plus(fill.quantity), new Decimal(0));
    const direct = fills
      .reduce((sum, fill) => sum.plus(new Decimal(fill.price).minus('0.60').times(fill.quantity)).plus(fill.fee), new Decimal(0))
      .plus(new Decimal('0.57').minus('0.60').times(new Decimal(40).minus(filled)));
    expect(new Decimal(report.implementationShortfall.totalCost).eq(direct)).toBe(true);
  });
});

describe('execution quality: input', () => {
  function refusal(overrides: Partial<TcaInput>): string | undefined {
    try {
      computeExecutionQuality(input(overrides));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'invalid_request') return error.param;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('refuses fills beyond the intended quantity, an end before the start, and malformed figures', () => {
    expect(refusal({ intendedQuantity: '20', children: [fallingMarketChild] })).toBe('children');
    expect(refusal({ endedAt: '2025-03-04T09:59:59Z' })).toBe('endedAt');
    expect(refusal({ arrivalMid: '1.2' })).toBe('arrivalMid');
    expect(refusal({ startedAt: 'yesterday' })).toBe('startedAt');
    expect(refusal({ children: [{ ...fallingMarketChild, fills: [{ price: '0.5', quantity: '-1', fee: '0', executedAt: T0 }] }] })).toBe(
      'children[0].fills[0].quantity',
    );
  });
});
