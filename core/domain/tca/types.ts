/**
 * Input and output of the execution-quality (TCA) report. Every price is in the order's own terms
 * (a NO order's prices and mids are NO prices: 1 − the YES mid), quantities in contracts (shares),
 * money in dollars, times RFC 3339. Costs are signed so that positive is worse for the trader.
 * Formulas: docs/tca.md.
 */
import type { OrderAction, OutcomeSide } from '../orderTerms';

export interface TcaFill {
  readonly price: string;
  readonly quantity: string;
  /** Fee charged for this fill, dollars (negative for a rebate). */
  readonly fee: string;
  readonly executedAt: string;
}

export interface TcaChildOrder {
  readonly childId: string;
  readonly venue: string;
  /** When the child was sent to its venue. */
  readonly sentAt: string;
  /** The mid when the child was sent (own terms): separates delay cost from market impact. */
  readonly midAtSend: string;
  /** The quantity the child asked for. */
  readonly quantity: string;
  readonly fills: readonly TcaFill[];
}

/** What the planner predicted (its PredictedImpact fields of the same names). */
export interface TcaPrediction {
  readonly expectedAveragePrice: string | null;
  readonly allInAveragePrice?: string | null;
  readonly expectedFilledQuantity?: string | null;
}

export interface TcaInput {
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  /** The quantity the parent order wanted. */
  readonly intendedQuantity: string;
  /** The decision / arrival mid (own terms): the benchmark of the implementation shortfall. */
  readonly arrivalMid: string;
  /** The mid at the end (own terms): values the unfilled quantity (opportunity cost). */
  readonly endMid: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly children: readonly TcaChildOrder[];
  readonly prediction?: TcaPrediction | null;
}

/** Implementation shortfall and its parts, in dollars (exact) and in bps of the paper notional. */
export interface ShortfallBreakdown {
  readonly delayCost: string;
  readonly marketImpactCost: string;
  readonly feesCost: string;
  readonly opportunityCost: string;
  readonly totalCost: string;
  readonly delayBps: string;
  readonly marketImpactBps: string;
  readonly feesBps: string;
  readonly opportunityBps: string;
  readonly totalBps: string;
}

/** One venue's share of the execution; its bps use the parent's paper notional, so they add up. */
export interface VenueExecutionQuality {
  readonly venue: string;
  readonly childOrderCount: number;
  readonly orderedQuantity: string;
  readonly filledQuantity: string;
  /** filled / ordered on this venue. */
  readonly fillRate: string;
  readonly notional: string;
  readonly fees: string;
  readonly averageExecutionPrice: string | null;
  readonly delayCost: string;
  readonly marketImpactCost: string;
  readonly feesCost: string;
  /** delay + market impact + fees: the venue's part of the shortfall (opportunity cost is the parent's). */
  readonly executionCost: string;
  readonly delayBps: string;
  readonly marketImpactBps: string;
  readonly feesBps: string;
  readonly executionCostBps: string;
}

export interface ExecutionQualityReport {
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly intendedQuantity: string;
  readonly filledQuantity: string;
  readonly unfilledQuantity: string;
  /** filled / intended, 6 decimals. */
  readonly fillRate: string;
  /** The arrival mid, the benchmark. */
  readonly arrivalPrice: string;
  readonly endMid: string;
  /** arrival price × intended quantity: the base of every shortfall bps figure. */
  readonly paperNotional: string;
  readonly notional: string;
  readonly totalFees: string;
  /** Σ price × quantity / filled (8 decimals); null when nothing filled. */
  readonly averageExecutionPrice: string | null;
  /** Buy: (notional + fees) / filled; sell: (notional − fees) / filled. */
  readonly allInAveragePrice: string | null;
  readonly implementationShortfall: ShortfallBreakdown;
  /** direction × (average − arrival) / arrival × 10,000, price only; null when nothing filled. */
  readonly slippageVsArrivalBps: string | null;
  readonly predictedAveragePrice: string | null;
  /** direction × (average − predicted) / predicted × 10,000; null without fills or prediction. */
  readonly slippageVsPredictionBps: string | null;
  readonly predictedAllInAveragePrice: string | null;
  readonly allInSlippageVsPredictionBps: string | null;
  readonly predictedFilledQuantity: string | null;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly durationSeconds: string;
  readonly firstFillAt: string | null;
  readonly lastFillAt: string | null;
  readonly venues: readonly VenueExecutionQuality[];
}
