/**
 * Which alternative to recommend, and why. Feasible alternatives are ranked by:
 * 1. expected filled quantity, higher first: the limit price already bounds what the trader accepts
 *    to pay, so within it, filling more of what was asked wins;
 * 2. all-in cost per contract (average price with fees, exact), lower for a buy, higher for a sell;
 * 3. fewer child orders (less to manage, fewer operations that can fail);
 * 4. the order listed (single venues in the order given, then the split).
 * The reason names the first criterion that separates the winner from the runner-up.
 */
import { type Direction } from './executionFigures';
import { Decimal, formatDecimal } from '../decimals';
import type { PlanAlternative, RecommendationReason } from './types';

export interface Recommendation {
  readonly recommended: PlanAlternative | null;
  readonly reason: RecommendationReason;
}

/** Exact all-in price per contract, oriented so that lower is better: direction × allInNotional / filled. */
function orientedAllInPrice(alternative: PlanAlternative, direction: Direction): Decimal {
  const { allInNotional, expectedFilledQuantity } = alternative.impact;
  return new Decimal(allInNotional).div(expectedFilledQuantity).times(direction);
}

export function recommend(alternatives: readonly PlanAlternative[], direction: Direction): Recommendation {
  const ranked = alternatives
    .map((alternative, position) => ({ alternative, position }))
    .filter(({ alternative }) => alternative.feasible)
    .sort((a, b) => compare(a.alternative, b.alternative, direction) || a.position - b.position)
    .map(({ alternative }) => alternative);
  const [winner, runnerUp] = ranked;
  if (winner === undefined) {
    return { recommended: null, reason: { code: 'no_feasible_alternative', comparedWith: null, recommendedValue: null, comparedValue: null } };
  }
  if (runnerUp === undefined) {
    return { recommended: winner, reason: { code: 'only_feasible_alternative', comparedWith: null, recommendedValue: null, comparedValue: null } };
  }
  return { recommended: winner, reason: reasonBetween(winner, runnerUp, direction) };
}

function compare(a: PlanAlternative, b: PlanAlternative, direction: Direction): number {
  const filled = new Decimal(b.impact.expectedFilledQuantity).comparedTo(a.impact.expectedFilledQuantity);
  if (filled !== 0) return filled;
  const cost = orientedAllInPrice(a, direction).comparedTo(orientedAllInPrice(b, direction));
  if (cost !== 0) return cost;
  return a.impact.childOrderCount - b.impact.childOrderCount;
}

function reasonBetween(winner: PlanAlternative, runnerUp: PlanAlternative, direction: Direction): RecommendationReason {
  const comparedWith = runnerUp.id;
  if (!new Decimal(winner.impact.expectedFilledQuantity).eq(runnerUp.impact.expectedFilledQuantity)) {
    return {
      code: 'higher_expected_fill',
      comparedWith,
      recommendedValue: winner.impact.expectedFilledQuantity,
      comparedValue: runnerUp.impact.expectedFilledQuantity,
    };
  }
  if (!orientedAllInPrice(winner, direction).eq(orientedAllInPrice(runnerUp, direction))) {
    return {
      code: 'lower_all_in_cost_per_contract',
      comparedWith,
      recommendedValue: winner.impact.allInAveragePrice,
      comparedValue: runnerUp.impact.allInAveragePrice,
    };
  }
  if (winner.impact.childOrderCount !== runnerUp.impact.childOrderCount) {
    return {
      code: 'fewer_child_orders',
      comparedWith,
      recommendedValue: formatDecimal(winner.impact.childOrderCount),
      comparedValue: formatDecimal(runnerUp.impact.childOrderCount),
    };
  }
  return { code: 'equivalent_first_listed', comparedWith, recommendedValue: null, comparedValue: null };
}
