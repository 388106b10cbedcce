/**
 * The execution planner: from a parent order and each eligible venue's book and rules, the
 * alternatives of the requested strategy with their predicted impact, and the one to use.
 * Pure and deterministic: the same input gives the same plan. See docs/execution-planning.md.
 */
import { consolidatedArrivalMid } from './arrivalMid';
import { formatDecimal } from '../decimals';
import { eligibleMarkets, normalizeParentOrder } from './parentOrder';
import { passiveAlternatives } from './passiveStrategy';
import { recommend } from './recommendation';
import { sweepAlternatives } from './sweepStrategy';
import { twapAlternatives } from './twapStrategy';
import type { ExecutionPlan, ParentOrder, VenueMarketSnapshot } from './types';

export function planExecution(parent: ParentOrder, snapshots: readonly VenueMarketSnapshot[]): ExecutionPlan {
  const { markets, excluded } = eligibleMarkets(parent, snapshots);
  const order = normalizeParentOrder(parent, markets);
  const arrivalMid = consolidatedArrivalMid(markets, order.side);
  const build = order.strategy === 'sweep' ? sweepAlternatives : order.strategy === 'passive' ? passiveAlternatives : twapAlternatives;
  const alternatives = build(order, markets, arrivalMid);
  const { recommended, reason } = recommend(alternatives, order.direction);
  return {
    strategy: order.strategy,
    side: order.side,
    action: order.action,
    quantity: formatDecimal(order.quantity),
    limitPrice: order.limitTicks === null ? null : formatDecimal(parent.limitPrice!),
    arrivalMid: arrivalMid === null ? null : formatDecimal(arrivalMid),
    eligibleVenues: markets.map((market) => market.venue),
    excludedVenues: excluded,
    recommended,
    reason,
    alternatives,
  };
}
