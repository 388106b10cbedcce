/** Rules of one market (a simulated venue's, or live Kalshi's), and the typed results of checking input against them. */
import type { Liquidity } from '../matching/types';
import type { OutcomeSide } from '../orderTerms';

/** Polymarket's per-market tick sizes (clob-client's TickSize). */
export type PolymarketTickSize = '0.1' | '0.01' | '0.001' | '0.0001';

/** How the real venue writes a price on the wire: Kalshi integer cents, Polymarket dollars. */
export type PriceUnit = 'cents' | 'dollars';

/**
 * `quadratic_rounded_up` (Kalshi's): fee = rate × C × P × (1 − P) rounded up to `feeDecimals` places (absent: 2, the next
 * cent, as the simulator charges; live Kalshi rounds each fill up to $0.0001, so 4), taker rate
 * 0.07, maker rate 0.0175 on markets that charge makers, otherwise 0 (live: × the series'
 * fee_multiplier).
 * `power_rounded_down` (Polymarket's): fee = C × rate × (P × (1 − P))^exponent, takers only, rounded down to
 * 0.00001; rate = takerFeeRateBps / 10000, 0 on most markets.
 */
export type FeeSchedule =
  | { readonly kind: 'quadratic_rounded_up'; readonly takerRate: string; readonly makerRate: string; readonly feeDecimals?: number }
  | { readonly kind: 'power_rounded_down'; readonly takerFeeRateBps: number; readonly exponent: number };

/** One of Kalshi's `price_ranges` (YES prices), as Kalshi wrote it and in engine ticks. */
export interface PriceRangeRule {
  readonly start: string;
  readonly end: string;
  readonly step: string;
  readonly startTicks: number;
  readonly endTicks: number;
  readonly stepTicks: number;
}

export interface MarketRules {
  /** Price tick in dollars ("0.01") and the same in engine ticks (100); with `priceRanges`, the smallest step. */
  readonly tickSize: string;
  readonly tickSizeTicks: number;
  /**
   * Live Kalshi: the valid YES prices, a price being valid when it lies in some range and on that
   * range's step from its start (sub-cent steps exist near 0 and 1). Absent on the simulated
   * venues, where every multiple of the tick between the min and max price is valid.
   */
  readonly priceRanges?: readonly PriceRangeRule[];
  /** Lowest and highest valid price, in dollars and in engine ticks. */
  readonly minPrice: string;
  readonly maxPrice: string;
  readonly minPriceTicks: number;
  readonly maxPriceTicks: number;
  readonly priceUnit: PriceUnit;
  /** Smallest quantity increment ("1" contract, "0.01" share) and base units per contract or share. */
  readonly quantityStep: string;
  readonly unitsPerWhole: number;
  /** Minimum and maximum order size, in contracts or shares and in base units. */
  readonly minSize: string;
  readonly minSizeUnits: number;
  readonly maxSize: string;
  readonly maxSizeUnits: number;
  readonly fees: FeeSchedule;
}

export type ValidationCode =
  | 'missing'
  | 'invalid_type'
  | 'not_a_decimal'
  | 'out_of_range'
  | 'off_tick'
  | 'not_positive'
  | 'off_step'
  | 'below_min_size'
  | 'too_large';

/** Maps to a 400 invalid_request with `param`. */
export interface ValidationError {
  readonly ok: false;
  readonly param: string;
  readonly code: ValidationCode;
  readonly message: string;
}

export type PriceValidation = { readonly ok: true; readonly priceTicks: number } | ValidationError;
export type QuantityValidation = { readonly ok: true; readonly quantityUnits: number } | ValidationError;

export interface OrderInput {
  readonly type: 'limit' | 'market';
  /**
   * The order's side, in whose terms `price` is written. Matters only with `priceRanges` (YES
   * prices): a NO price p is checked as the YES price 1 − p. Absent: checked as written, which is
   * the same for Kalshi's symmetric price-level structures.
   */
  readonly side?: OutcomeSide;
  /** Required for a limit order; an optional protection price for a market order. */
  readonly price?: unknown;
  readonly quantity: unknown;
}

export type OrderValidation =
  | { readonly ok: true; readonly priceTicks: number | null; readonly quantityUnits: number }
  | ValidationError;

export interface FeeInput {
  /** Execution price in ticks, in either YES or NO terms: P × (1 − P) is the same. */
  readonly priceTicks: number;
  readonly quantityUnits: number;
  readonly liquidity: Liquidity;
}
