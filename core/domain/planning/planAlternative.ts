/** One alternative the planner compares: its children, its predicted impact, and whether it can trade at all. */
import type { Decimal } from '../decimals';
import type { NormalizedOrder } from './parentOrder';
import { predictedImpact } from './predictedImpact';
import type { AlternativeKind, FillModel, InfeasibleReason, PlanAlternative, PlannedChildOrder, TwapSlice } from './types';

export interface AlternativeDraft {
  readonly kind: AlternativeKind;
  readonly venues: readonly string[];
  readonly children: readonly PlannedChildOrder[];
  /** Why nothing can trade; used only when there are no children. */
  readonly infeasibleReason: InfeasibleReason | null;
  readonly slices?: readonly TwapSlice[] | null;
}

export function alternativeId(strategy: NormalizedOrder['strategy'], kind: AlternativeKind, venues: readonly string[]): string {
  return `${strategy}:${kind === 'split' ? 'split' : venues[0]!}`;
}

export function buildAlternative(
  draft: AlternativeDraft,
  order: NormalizedOrder,
  arrivalMid: Decimal | null,
  fillModel: FillModel,
): PlanAlternative {
  const feasible = draft.children.length > 0;
  return {
    id: alternativeId(order.strategy, draft.kind, draft.venues),
    strategy: order.strategy,
    kind: draft.kind,
    venues: draft.venues,
    feasible,
    infeasibleReason: feasible ? null : (draft.infeasibleReason ?? 'no_liquidity_within_limit'),
    impact: predictedImpact(draft.children, order, arrivalMid, fillModel),
    children: draft.children,
    slices: draft.slices ?? null,
  };
}
