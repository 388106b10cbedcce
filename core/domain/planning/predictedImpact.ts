/**
 * The predicted impact of a set of child orders, from their expected fills (exact decimals):
 * quantity, notional, fees, average prices, slippage against the arrival mid, worst price.
 * Conventions: docs/execution-planning.md, "Predicted impact".
 */
import { averagePrice, slippageBps } from './executionFigures';
import { Decimal, formatDecimal } from '../decimals';
import type { NormalizedOrder } from './parentOrder';
import type { FillModel, PlannedChildOrder, PredictedImpact } from './types';

export function predictedImpact(
  children: readonly PlannedChildOrder[],
  order: Pick<NormalizedOrder, 'direction' | 'quantity'>,
  arrivalMid: Decimal | null,
  fillModel: FillModel,
): PredictedImpact {
  const { direction } = order;
  let filled = new Decimal(0);
  let notional = new Decimal(0);
  let fees = new Decimal(0);
  let worst: Decimal | null = null;
  for (const child of children) {
    filled = filled.plus(child.expectedFilledQuantity);
    notional = notional.plus(child.expectedNotional);
    fees = fees.plus(child.expectedFees);
    for (const fill of child.expectedFills) {
      const price = new Decimal(fill.price);
      if (worst === null || price.times(direction).gt(worst.times(direction))) worst = price;
    }
  }
  const allInNotional = notional.plus(fees.times(direction));
  const traded = filled.gt(0);
  return {
    fillModel,
    arrivalMid: arrivalMid === null ? null : formatDecimal(arrivalMid),
    expectedFilledQuantity: formatDecimal(filled),
    unfilledQuantity: formatDecimal(order.quantity.minus(filled)),
    notional: formatDecimal(notional),
    totalFees: formatDecimal(fees),
    expectedAveragePrice: averagePrice(notional, filled),
    allInAveragePrice: averagePrice(allInNotional, filled),
    allInNotional: formatDecimal(allInNotional),
    slippageBps: traded && arrivalMid !== null ? slippageBps(direction, notional.div(filled), arrivalMid) : null,
    allInSlippageBps: traded && arrivalMid !== null ? slippageBps(direction, allInNotional.div(filled), arrivalMid) : null,
    worstPrice: worst === null ? null : formatDecimal(worst),
    childOrderCount: children.length,
  };
}
