/**
 * Sweep: take the quantity now, from each venue alone and from the best split across all of them
 * (sweepAllocation.ts), one limit IOC child per venue used.
 */
import { takingChild } from './childOrders';
import type { Decimal } from '../decimals';
import type { NormalizedOrder } from './parentOrder';
import { buildAlternative, type AlternativeDraft } from './planAlternative';
import { bestSweepAllocation } from './sweepAllocation';
import type { PlanAlternative, VenueMarketSnapshot } from './types';
import { takeableLadder, type VenueLadder } from './venueLadder';

export function sweepAlternatives(order: NormalizedOrder, markets: readonly VenueMarketSnapshot[], arrivalMid: Decimal | null): PlanAlternative[] {
  const ladders = markets.map((market) => takeableLadder(market, order));
  const drafts: AlternativeDraft[] = ladders.map((ladder) => sweepDraft(order, [ladder], 'single_venue'));
  if (ladders.length > 1) drafts.push(sweepDraft(order, ladders, 'split'));
  return drafts.map((draft) => buildAlternative(draft, order, arrivalMid, 'static_book'));
}

function sweepDraft(order: NormalizedOrder, ladders: readonly VenueLadder[], kind: AlternativeDraft['kind']): AlternativeDraft {
  const venues = ladders.map((ladder) => ladder.venue);
  const outcome = bestSweepAllocation(ladders, order.quantity, order.direction);
  if (!outcome.ok) return { kind, venues, children: [], infeasibleReason: outcome.reason };
  const children = outcome.allocation.fills.map((fill) => takingChild(fill, order, '0', null));
  return { kind, venues, children, infeasibleReason: null };
}
