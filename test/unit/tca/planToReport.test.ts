/**
 * The planner's prediction and the TCA meet: a sweep planned on the simulated venues, executed on
 * unchanged books, reports zero slippage against the prediction, and its shortfall at the arrival
 * mid is the predicted all-in slippage.
 */
import { venueName } from '../../../core/venues/venueModules';
import { planExecution } from '../../../core/domain/planning';
import { kalshiMarketRules, polymarketMarketRules } from '../../../core/domain/venueRules';
import { computeExecutionQuality, type TcaChildOrder } from '../../../core/domain/tca';
import { createSimVenues } from '../../../core/venues/sim';
import { sendPlannedChild } from '../../support/plannedChildren';

const NOW = '2025-03-04T10:00:00.000Z';

describe('plan -> execution -> report', () => {
  it('reports no slippage against a prediction that the books honoured', async () => {
    const venues = createSimVenues(
      [
        { venue: 'sim-kalshi', venueMarketId: 'K', tickSize: '0.01', minSize: '1', fairValue: '0.45' },
        { venue: 'sim-polymarket', venueMarketId: 'P', tickSize: '0.01', minSize: '5', fairValue: '0.44' },
      ],
      { seed: 5, clock: () => new Date(NOW), marketMaker: { baseSize: 30, sizeIncrement: 10 } },
    );
    const plan = planExecution({ side: 'no', action: 'buy', quantity: '150', strategy: 'sweep', venues: ['sim-kalshi', 'sim-polymarket'] }, [
      { venue: 'sim-kalshi', book: await venues.get('sim-kalshi')!.orderBook('K', 50), rules: kalshiMarketRules() },
      { venue: 'sim-polymarket', book: await venues.get('sim-polymarket')!.orderBook('P', 50), rules: polymarketMarketRules() },
    ]);
    const recommended = plan.recommended!;
    expect(recommended.impact.expectedFilledQuantity).toBe('150');

    const children: TcaChildOrder[] = [];
    for (const [index, child] of recommended.children.entries()) {
      const result = await sendPlannedChild(venues.get(venueName(child.venue))!, child, `chd_${index}`);
      children.push({
        childId: `chd_${index}`,
        venue: child.venue,
        sentAt: NOW,
        midAtSend: plan.arrivalMid!,
        quantity: child.quantity,
        fills: result.fills.map((fill) => ({ price: fill.price, quantity: fill.quantity, fee: fill.fee, executedAt: fill.executedAt })),
      });
    }

    const report = computeExecutionQuality({
      side: 'no',
      action: 'buy',
      intendedQuantity: '150',
      arrivalMid: plan.arrivalMid!,
      endMid: plan.arrivalMid!,
      startedAt: NOW,
      endedAt: NOW,
      children,
      prediction: recommended.impact,
    });
    expect(report.filledQuantity).toBe('150');
    expect(report.averageExecutionPrice).toBe(recommended.impact.expectedAveragePrice);
    expect(report.slippageVsPredictionBps).toBe('0');
    expect(report.allInSlippageVsPredictionBps).toBe('0');
    expect(report.slippageVsArrivalBps).toBe(recommended.impact.slippageBps);
    // Everything filled at once with the mid unchanged: the shortfall is impact + fees, i.e. the all-in slippage.
    expect(report.implementationShortfall.totalBps).toBe(recommended.impact.allInSlippageBps);
  });
});
