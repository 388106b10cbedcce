/**
 * The execution report (TCA) of a parent order: arrival price, average execution price,
 * implementation shortfall split into delay, market impact, fees and opportunity cost, slippage
 * against the prediction, fill rate, duration, and a per-venue breakdown that adds up to the totals.
 * Pure and deterministic. Definitions and a worked example: docs/tca.md.
 */
import { averagePrice, bpsOf, roundedRatio, slippageBps } from '../planning/executionFigures';
import { Decimal, formatDecimal } from '../decimals';
import { addCosts, childCosts, NO_COSTS, opportunityCost, type ExecutionCosts } from './implementationShortfall';
import { parseTcaInput } from './tcaInput';
import type { ExecutionQualityReport, TcaInput, VenueExecutionQuality } from './types';

export function computeExecutionQuality(input: TcaInput): ExecutionQualityReport {
  const parsed = parseTcaInput(input);
  const { direction, intendedQuantity, arrivalMid, endMid } = parsed;
  const paperNotional = arrivalMid.times(intendedQuantity);

  const byVenue = new Map<string, ExecutionCosts>();
  for (const child of parsed.children) {
    byVenue.set(child.venue, addCosts(byVenue.get(child.venue) ?? NO_COSTS, childCosts(child, arrivalMid, direction)));
  }
  const totals = [...byVenue.values()].reduce(addCosts, NO_COSTS);
  const opportunity = opportunityCost(intendedQuantity, totals.filled, arrivalMid, endMid, direction);
  const total = totals.delay.plus(totals.impact).plus(totals.fees).plus(opportunity);

  const traded = totals.filled.gt(0);
  const averageExact = traded ? totals.notional.div(totals.filled) : null;
  const allInNotional = totals.notional.plus(totals.fees.times(direction));
  const allInExact = traded ? allInNotional.div(totals.filled) : null;
  const fillTimes = parsed.children.flatMap((child) => child.fills).sort((a, b) => a.executedAtMs - b.executedAtMs);

  return {
    side: input.side,
    action: input.action,
    intendedQuantity: formatDecimal(intendedQuantity),
    filledQuantity: formatDecimal(totals.filled),
    unfilledQuantity: formatDecimal(intendedQuantity.minus(totals.filled)),
    fillRate: roundedRatio(totals.filled, intendedQuantity),
    arrivalPrice: formatDecimal(arrivalMid),
    endMid: formatDecimal(endMid),
    paperNotional: formatDecimal(paperNotional),
    notional: formatDecimal(totals.notional),
    totalFees: formatDecimal(totals.fees),
    averageExecutionPrice: averagePrice(totals.notional, totals.filled),
    allInAveragePrice: averagePrice(allInNotional, totals.filled),
    implementationShortfall: {
      delayCost: formatDecimal(totals.delay),
      marketImpactCost: formatDecimal(totals.impact),
      feesCost: formatDecimal(totals.fees),
      opportunityCost: formatDecimal(opportunity),
      totalCost: formatDecimal(total),
      delayBps: bpsOf(totals.delay, paperNotional),
      marketImpactBps: bpsOf(totals.impact, paperNotional),
      feesBps: bpsOf(totals.fees, paperNotional),
      opportunityBps: bpsOf(opportunity, paperNotional),
      totalBps: bpsOf(total, paperNotional),
    },
    slippageVsArrivalBps: averageExact === null ? null : slippageBps(direction, averageExact, arrivalMid),
    predictedAveragePrice: optionalPlain(parsed.predictedAveragePrice),
    slippageVsPredictionBps:
      averageExact === null || parsed.predictedAveragePrice === null ? null : slippageBps(direction, averageExact, parsed.predictedAveragePrice),
    predictedAllInAveragePrice: optionalPlain(parsed.predictedAllInAveragePrice),
    allInSlippageVsPredictionBps:
      allInExact === null || parsed.predictedAllInAveragePrice === null
        ? null
        : slippageBps(direction, allInExact, parsed.predictedAllInAveragePrice),
    predictedFilledQuantity: optionalPlain(parsed.predictedFilledQuantity),
    startedAt: new Date(parsed.startedAtMs).toISOString(),
    endedAt: new Date(parsed.endedAtMs).toISOString(),
    durationSeconds: formatDecimal(new Decimal(parsed.endedAtMs - parsed.startedAtMs).div(1000)),
    firstFillAt: fillTimes.length === 0 ? null : new Date(fillTimes[0]!.executedAtMs).toISOString(),
    lastFillAt: fillTimes.length === 0 ? null : new Date(fillTimes[fillTimes.length - 1]!.executedAtMs).toISOString(),
    venues: [...byVenue].map(([venue, costs]) => venueRow(venue, costs, paperNotional)),
  };
}

function venueRow(venue: string, costs: ExecutionCosts, paperNotional: Decimal): VenueExecutionQuality {
  const execution = costs.delay.plus(costs.impact).plus(costs.fees);
  return {
    venue,
    childOrderCount: costs.childOrderCount,
    orderedQuantity: formatDecimal(costs.ordered),
    filledQuantity: formatDecimal(costs.filled),
    fillRate: roundedRatio(costs.filled, costs.ordered),
    notional: formatDecimal(costs.notional),
    fees: formatDecimal(costs.fees),
    averageExecutionPrice: averagePrice(costs.notional, costs.filled),
    delayCost: formatDecimal(costs.delay),
    marketImpactCost: formatDecimal(costs.impact),
    feesCost: formatDecimal(costs.fees),
    executionCost: formatDecimal(execution),
    delayBps: bpsOf(costs.delay, paperNotional),
    marketImpactBps: bpsOf(costs.impact, paperNotional),
    feesBps: bpsOf(costs.fees, paperNotional),
    executionCostBps: bpsOf(execution, paperNotional),
  };
}

function optionalPlain(value: Decimal | null): string | null {
  return value === null ? null : formatDecimal(value);
}
