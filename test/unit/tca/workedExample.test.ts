/** The worked example of docs/tca.md, figure for figure. */
import { computeExecutionQuality, type TcaInput } from '../../../core/domain/tca';
import { computeFee, kalshiMarketRules } from '../../../core/domain/venueRules';

const WORKED_EXAMPLE: TcaInput = {
  side: 'yes',
  action: 'buy',
  intendedQuantity: '100',
  arrivalMid: '0.50',
  endMid: '0.54',
  startedAt: '2025-03-04T10:00:00Z',
  endedAt: '2025-03-04T10:05:00Z',
  prediction: { expectedAveragePrice: '0.515', allInAveragePrice: '0.525', expectedFilledQuantity: '100' },
  children: [
    {
      childId: 'chd_1',
      venue: 'sim-kalshi',
      sentAt: '2025-03-04T10:00:00Z',
      midAtSend: '0.50',
      quantity: '60',
      fills: [
        { price: '0.51', quantity: '40', fee: '0.70', executedAt: '2025-03-04T10:00:01Z' },
        { price: '0.52', quantity: '20', fee: '0.35', executedAt: '2025-03-04T10:00:01Z' },
      ],
    },
    {
      childId: 'chd_2',
      venue: 'sim-polymarket',
      sentAt: '2025-03-04T10:02:00Z',
      midAtSend: '0.52',
      quantity: '40',
      fills: [{ price: '0.53', quantity: '20', fee: '0', executedAt: '2025-03-04T10:02:01Z' }],
    },
  ],
};

describe('the worked example of docs/tca.md', () => {
  it('uses the fees sim-kalshi charges for those fills', () => {
    const kalshi = kalshiMarketRules();
    expect(computeFee(kalshi, { priceTicks: 5100, quantityUnits: 40, liquidity: 'taker' })).toBe('0.70');
    expect(computeFee(kalshi, { priceTicks: 5200, quantityUnits: 20, liquidity: 'taker' })).toBe('0.35');
  });

  it('gives the documented report', () => {
    expect(computeExecutionQuality(WORKED_EXAMPLE)).toEqual({
      side: 'yes',
      action: 'buy',
      intendedQuantity: '100',
      filledQuantity: '80',
      unfilledQuantity: '20',
      fillRate: '0.8',
      arrivalPrice: '0.5',
      endMid: '0.54',
      paperNotional: '50',
      notional: '41.4',
      totalFees: '1.05',
      averageExecutionPrice: '0.5175',
      allInAveragePrice: '0.530625',
      implementationShortfall: {
        delayCost: '0.4',
        marketImpactCost: '1',
        feesCost: '1.05',
        opportunityCost: '0.8',
        totalCost: '3.25',
        delayBps: '80',
        marketImpactBps: '200',
        feesBps: '210',
        opportunityBps: '160',
        totalBps: '650',
      },
      slippageVsArrivalBps: '350',
      predictedAveragePrice: '0.515',
      slippageVsPredictionBps: '48.54',
      predictedAllInAveragePrice: '0.525',
      allInSlippageVsPredictionBps: '107.14',
      predictedFilledQuantity: '100',
      startedAt: '2025-03-04T10:00:00.000Z',
      endedAt: '2025-03-04T10:05:00.000Z',
      durationSeconds: '300',
      firstFillAt: '2025-03-04T10:00:01.000Z',
      lastFillAt: '2025-03-04T10:02:01.000Z',
      venues: [
        {
          venue: 'sim-kalshi',
          childOrderCount: 1,
          orderedQuantity: '60',
          filledQuantity: '60',
          fillRate: '1',
          notional: '30.8',
          fees: '1.05',
          averageExecutionPrice: '0.51333333',
          delayCost: '0',
          marketImpactCost: '0.8',
          feesCost: '1.05',
          executionCost: '1.85',
          delayBps: '0',
          marketImpactBps: '160',
          feesBps: '210',
          executionCostBps: '370',
        },
        {
          venue: 'sim-polymarket',
          childOrderCount: 1,
          orderedQuantity: '40',
          filledQuantity: '20',
          fillRate: '0.5',
          notional: '10.6',
          fees: '0',
          averageExecutionPrice: '0.53',
          delayCost: '0.4',
          marketImpactCost: '0.2',
          feesCost: '0',
          executionCost: '0.6',
          delayBps: '80',
          marketImpactBps: '40',
          feesBps: '0',
          executionCostBps: '120',
        },
      ],
    });
  });

  it('equals the shortfall measured as paper P&L minus real P&L at the end mid', () => {
    // Paper: 100 bought at 0.50 and marked at 0.54 = 4.00. Real: 80 marked at 0.54 − (41.40 + 1.05) = 0.75.
    expect(computeExecutionQuality(WORKED_EXAMPLE).implementationShortfall.totalCost).toBe('3.25');
  });
});
