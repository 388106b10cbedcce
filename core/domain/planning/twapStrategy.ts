/**
 * TWAP: N slices evenly over the duration, slice i sent at i × duration / N seconds (rounded down to
 * the millisecond), each planned as a sweep (sweepAllocation.ts) of its own size. Slice sizes are
 * the quantity divided into N parts on the coarsest quantity step of the alternative's venues (whole
 * contracts when sim-kalshi is one of them, so every venue can take a slice), the first parts one
 * step larger when it does not divide evenly; what is finer than that step goes to the first slice.
 * So the sizes sum exactly to the quantity. N is lowered when a slice would otherwise fall below the
 * smallest minimum size of those venues.
 *
 * Book model: `depleting` (default) walks each later slice against the book as the earlier slices
 * left it, which is exact when nobody else trades; `replenishing` walks every slice against today's
 * book, as if the liquidity taken came back before the next slice.
 */
import { Decimal, formatDecimal } from '../decimals';
import { takingChild } from './childOrders';
import type { NormalizedOrder } from './parentOrder';
import { buildAlternative, type AlternativeDraft } from './planAlternative';
import { bestSweepAllocation, LevelCostMemo } from './sweepAllocation';
import type { InfeasibleReason, PlannedChildOrder, PlanAlternative, TwapSlice, VenueMarketSnapshot } from './types';
import { depleteLadder, takeableLadder, type VenueLadder } from './venueLadder';

export function twapAlternatives(order: NormalizedOrder, markets: readonly VenueMarketSnapshot[], arrivalMid: Decimal | null): PlanAlternative[] {
  const ladders = markets.map((market) => takeableLadder(market, order));
  const drafts: AlternativeDraft[] = ladders.map((ladder) => twapDraft(order, [ladder], 'single_venue'));
  if (ladders.length > 1) drafts.push(twapDraft(order, ladders, 'split'));
  return drafts.map((draft) => buildAlternative(draft, order, arrivalMid, 'static_book'));
}

/**
 * The slice schedule, in units of 1 / `unitsPerWhole` contract: whole multiples of `stepUnits`
 * spread evenly (the first slices one step larger), the remainder finer than a step in slice 0.
 */
export function twapSchedule(
  totalUnits: number,
  unitsPerWhole: number,
  stepUnits: number,
  requestedSlices: number,
  minSliceUnits: number,
  durationSeconds: Decimal,
): TwapSlice[] {
  const steps = Math.floor(totalUnits / stepUnits);
  const remainder = totalUnits - steps * stepUnits;
  const minSteps = Math.max(1, Math.ceil(minSliceUnits / stepUnits));
  const count = Math.max(1, Math.min(requestedSlices, Math.floor(steps / minSteps)));
  const base = Math.floor(steps / count);
  const larger = steps - base * count;
  return Array.from({ length: count }, (_, index) => {
    const units = (index < larger ? base + 1 : base) * stepUnits + (index === 0 ? remainder : 0);
    return {
      index,
      offsetSeconds: formatDecimal(durationSeconds.times(index).div(count).toDecimalPlaces(3, Decimal.ROUND_DOWN)),
      quantity: formatDecimal(new Decimal(units).div(unitsPerWhole)),
    };
  });
}

function twapDraft(order: NormalizedOrder, initial: readonly VenueLadder[], kind: AlternativeDraft['kind']): AlternativeDraft {
  const venues = initial.map((ladder) => ladder.venue);
  const unitsPerWhole = Math.max(...initial.map((ladder) => ladder.rules.unitsPerWhole));
  const totalUnits = order.quantity.times(unitsPerWhole);
  if (!totalUnits.isInteger()) return { kind, venues, children: [], infeasibleReason: 'quantity_off_step', slices: [] };
  const stepOf = (ladder: VenueLadder) => unitsPerWhole / ladder.rules.unitsPerWhole;
  const coarsestStep = Math.max(...initial.map(stepOf));
  const minSliceUnits = Math.min(...initial.map((ladder) => ladder.rules.minSizeUnits * stepOf(ladder)));
  const slices = twapSchedule(totalUnits.toNumber(), unitsPerWhole, coarsestStep, order.slices!, minSliceUnits, order.durationSeconds!);

  const memo = new LevelCostMemo();
  let ladders = [...initial];
  const children: PlannedChildOrder[] = [];
  let firstFailure: InfeasibleReason | null = null;
  for (const slice of slices) {
    const outcome = bestSweepAllocation(ladders, new Decimal(slice.quantity), order.direction, memo);
    if (!outcome.ok) {
      firstFailure ??= outcome.reason;
      continue;
    }
    for (const fill of outcome.allocation.fills) children.push(takingChild(fill, order, slice.offsetSeconds, slice.index));
    if (order.twapBookModel === 'depleting') {
      ladders = ladders.map((ladder) => {
        const taken = outcome.allocation.fills.find((fill) => fill.ladder.venue === ladder.venue);
        return taken === undefined ? ladder : depleteLadder(ladder, taken.units);
      });
    }
  }
  return { kind, venues, children, infeasibleReason: firstFailure, slices };
}
