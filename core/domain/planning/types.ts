/**
 * Input and output of the execution planner. Boundaries carry decimal strings: prices in dollars per
 * contract in the order's own terms (a NO order's prices are NO prices) unless a field says YES
 * terms, quantities in contracts (shares on Polymarket), money in dollars. See
 * docs/execution-planning.md.
 */
import type { MarketRules } from '../venueRules';
import type { OrderBookView } from '../orderBookView';
import type { OrderAction, OutcomeSide, VenueTimeInForce } from '../orderTerms';

export const EXECUTION_STRATEGIES = ['sweep', 'passive', 'twap'] as const;
export type ExecutionStrategy = (typeof EXECUTION_STRATEGIES)[number];

/** The order to plan, as the client asked for it. */
export interface ParentOrder {
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  /** Contracts; must be on the finest quantity step among the eligible venues. */
  readonly quantity: string;
  /** Worst acceptable price in the order's own terms (highest for a buy, lowest for a sell). */
  readonly limitPrice?: string | null;
  readonly strategy: ExecutionStrategy;
  /** twap: the time the slices are spread over, in seconds (> 0). */
  readonly durationSeconds?: number | null;
  /** twap: how many slices; default one a minute, between 1 and MAX_TWAP_SLICES. */
  readonly slices?: number | null;
  /** The venues the order may use; markets on other venues are ignored. */
  readonly venues: readonly string[];
  /**
   * twap: whether a later slice sees the book as the earlier slices left it (`depleting`, the
   * default: exact when nobody else trades) or the book as it is now (`replenishing`).
   */
  readonly twapBookModel?: TwapBookModel;
}

export type TwapBookModel = 'depleting' | 'replenishing';

/** One venue's market as the planner sees it now. */
export interface VenueMarketSnapshot {
  readonly venue: string;
  /** The venue's book for the market, in YES terms, best level first. */
  readonly book: OrderBookView;
  /** Ticks, sizes and fees of that market (see core/domain/marketRules.ts). */
  readonly rules: MarketRules;
}

/** What one child order is expected to trade at one price level (one fee per level and operation). */
export interface ExpectedLevelFill {
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
}

export interface PlannedChildOrder {
  readonly venue: string;
  readonly venueMarketId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly type: 'limit';
  /** Limit price in own terms: the worst level the child takes (sweep, twap) or the joined touch (passive). */
  readonly price: string;
  /** On the venue's quantity step, never below its minimum size. */
  readonly quantity: string;
  readonly timeInForce: VenueTimeInForce;
  /** Seconds after the start of the parent order at which to send this child (decimal, ms precision). */
  readonly offsetSeconds: string;
  /** twap: which slice (0-based); null for sweep and passive. */
  readonly sliceIndex: number | null;
  readonly liquidity: 'taker' | 'maker';
  readonly expectedFilledQuantity: string;
  readonly expectedNotional: string;
  readonly expectedFees: string;
  readonly expectedFills: readonly ExpectedLevelFill[];
  /** passive: the quantity already resting at the joined price ("0" at a new price); null otherwise. */
  readonly queueAheadQuantity: string | null;
}

/**
 * - `static_book`: what walking the books as they are now gives (sweep, twap);
 * - `resting_if_filled`: a passive plan, priced as if its resting children fill completely at their
 *   own prices; nothing fills at once.
 */
export type FillModel = 'static_book' | 'resting_if_filled';

export interface PredictedImpact {
  readonly fillModel: FillModel;
  /** The consolidated mid in own terms (see ExecutionPlan.arrivalMid); null when a side is empty everywhere. */
  readonly arrivalMid: string | null;
  readonly expectedFilledQuantity: string;
  readonly unfilledQuantity: string;
  /** Σ price × quantity of the expected fills, exact. */
  readonly notional: string;
  readonly totalFees: string;
  /** notional / filled (rounded to 8 decimals); null when nothing fills. */
  readonly expectedAveragePrice: string | null;
  /** Buy: (notional + fees) / filled; sell: (notional − fees) / filled. Null when nothing fills. */
  readonly allInAveragePrice: string | null;
  /** Σ price × quantity ± fees: what a buy pays or a sell receives, fees included. */
  readonly allInNotional: string;
  /** direction × (average − arrival mid) / arrival mid × 10,000; positive is worse for the trader. */
  readonly slippageBps: string | null;
  /** The same with the all-in average price. */
  readonly allInSlippageBps: string | null;
  /** The worst price of any expected fill (highest for a buy, lowest for a sell); null when nothing fills. */
  readonly worstPrice: string | null;
  readonly childOrderCount: number;
}

export type AlternativeKind = 'single_venue' | 'split';

export type InfeasibleReason =
  | 'no_liquidity_within_limit'
  | 'no_touch'
  | 'below_min_size'
  | 'quantity_off_step'
  | 'no_eligible_venue';

export interface TwapSlice {
  readonly index: number;
  readonly offsetSeconds: string;
  readonly quantity: string;
}

export interface PlanAlternative {
  /** `<strategy>:split` or `<strategy>:<venue>`, e.g. `sweep:sim-kalshi`. */
  readonly id: string;
  readonly strategy: ExecutionStrategy;
  readonly kind: AlternativeKind;
  /** The venues this alternative may use (for a split, all eligible ones); `children` says which it does use. */
  readonly venues: readonly string[];
  readonly feasible: boolean;
  readonly infeasibleReason: InfeasibleReason | null;
  readonly impact: PredictedImpact;
  readonly children: readonly PlannedChildOrder[];
  /** twap only: the slice schedule (sizes sum to the planned quantity). */
  readonly slices: readonly TwapSlice[] | null;
}

export type RecommendationCode =
  | 'only_feasible_alternative'
  | 'higher_expected_fill'
  | 'lower_all_in_cost_per_contract'
  | 'fewer_child_orders'
  | 'equivalent_first_listed'
  | 'no_feasible_alternative';

/** Why the recommended alternative won, by the first criterion that separated it from the runner-up. */
export interface RecommendationReason {
  readonly code: RecommendationCode;
  /** The runner-up's id; null when nothing else was feasible. */
  readonly comparedWith: string | null;
  /** The deciding figure of the recommendation and of the runner-up (quantity, all-in price or count). */
  readonly recommendedValue: string | null;
  readonly comparedValue: string | null;
}

export interface ExcludedVenue {
  readonly venue: string;
  readonly reason: 'not_allowed' | 'duplicate_market';
}

export interface ExecutionPlan {
  readonly strategy: ExecutionStrategy;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly quantity: string;
  readonly limitPrice: string | null;
  /**
   * Consolidated arrival mid in own terms: (highest YES bid + lowest YES ask over the eligible
   * venues) / 2, turned into NO terms (1 − mid) for a NO order. Null when either side is empty on
   * every eligible venue.
   */
  readonly arrivalMid: string | null;
  readonly eligibleVenues: readonly string[];
  readonly excludedVenues: readonly ExcludedVenue[];
  /** The recommended alternative (one of `alternatives`), null when none is feasible. */
  readonly recommended: PlanAlternative | null;
  readonly reason: RecommendationReason;
  /** Single venues first, in the order of the snapshots given, then the split. */
  readonly alternatives: readonly PlanAlternative[];
}
