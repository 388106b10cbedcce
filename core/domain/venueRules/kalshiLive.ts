/**
 * Live Kalshi: one market's rules from its catalog row, as the catalog sync stored them from
 * Kalshi (Trade API v2, as of 2026-08; docs/VENUES.md, docs/kalshi.md "Live catalog"):
 *
 * - prices: the market's `price_ranges` `[{start, end, step}]` in YES dollars; a price is valid when
 *   it lies in some range and sits on that range's step counted from its start. Sub-cent steps
 *   exist (`tapered_deci_cent`: 0.001 below 0.10 and above 0.90, 0.01 between). The tick size is
 *   the smallest step. Every bound and step must be a whole number of engine ticks ($0.0001);
 *   prices travel as fixed-point dollars (V2), so `priceUnit` is dollars;
 * - quantities: steps of 0.01 contract when the market has `fractional_trading_enabled`, whole
 *   contracts otherwise; the minimum is the row's `min_size` (the sync stores one step);
 * - fees, from the series: taker 0.07 × C × P × (1 − P), maker 0.0175 × … only on
 *   `quadratic_with_maker_fees`, both × `fee_multiplier`, each fill's fee rounded up to $0.0001
 *   (Kalshi's fee rounding since its change to sub-cent fees; the per-order accumulator that
 *   refunds the rounding is not modelled, so this is an upper bound per order).
 *   A `flat` or unknown fee type is charged as `quadratic_with_maker_fees`, the most a quadratic
 *   schedule charges (its exact formula is not documented where we read it); a market whose series
 *   is unknown (null) as `quadratic` × 1, Kalshi's general schedule.
 *
 * Bad input throws a RangeError: the sync checks a market with this before storing it, so a
 * stored row always builds.
 */
import { Decimal, formatDecimal, parseDecimalString } from '../decimals';
import { PRICE_TICKS_PER_DOLLAR, ticksToPrice } from '../matching/units';
import { KALSHI_MAKER_FEE_RATE, KALSHI_TAKER_FEE_RATE } from './kalshi';
import type { FeeSchedule, MarketRules, PriceRangeRule } from './types';

/** One of Kalshi's `price_ranges` as it sends it: decimal strings ("0.0000", "0.1000", "0.0010"). */
export interface KalshiPriceRange {
  readonly start: string;
  readonly end: string;
  readonly step: string;
}

export interface LiveKalshiMarketOptions {
  readonly priceRanges: readonly KalshiPriceRange[];
  readonly fractionalTrading: boolean;
  /** The series' `fee_type`; null when the series is not known. */
  readonly feeType: string | null;
  /** The series' `fee_multiplier` as a decimal string; null means 1. */
  readonly feeMultiplier: string | null;
  /** Minimum order size in contracts; one quantity step by default. */
  readonly minSize?: string;
  /** Our cap on one order, in contracts (not a published Kalshi limit; the simulator's too). */
  readonly maxSize?: number;
}

/** Live Kalshi rounds each fill's fee up to $0.0001. */
export const KALSHI_LIVE_FEE_DECIMALS = 4;
/** Kalshi's whole-cent structure (`linear_cent`), for a row that carries no ranges. */
export const WHOLE_CENT_PRICE_RANGES: readonly KalshiPriceRange[] = [{ start: '0', end: '1', step: '0.01' }];

const FRACTIONAL_UNITS_PER_CONTRACT = 100;

/** `[{start, end, step}]` with string fields (the jsonb column or Kalshi's answer), or null when it is not that shape. */
export function readPriceRanges(value: unknown): KalshiPriceRange[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const ranges: KalshiPriceRange[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return null;
    const { start, end, step } = item as Record<string, unknown>;
    if (typeof start !== 'string' || typeof end !== 'string' || typeof step !== 'string') return null;
    ranges.push({ start, end, step });
  }
  return ranges;
}

function ticksOf(text: string, what: string): number {
  const parsed = parseDecimalString(text);
  if (parsed === null) throw new RangeError(`price range ${what} ${JSON.stringify(text)} is not a decimal string`);
  const ticks = parsed.times(PRICE_TICKS_PER_DOLLAR);
  if (!ticks.isInteger()) throw new RangeError(`price range ${what} ${text} is finer than $0.0001`);
  return ticks.toNumber();
}

/** Checks Kalshi's ranges and turns them into engine ticks. */
export function priceRangeRules(ranges: readonly KalshiPriceRange[]): PriceRangeRule[] {
  if (ranges.length === 0) throw new RangeError('a live Kalshi market needs at least one price range');
  return ranges.map((range) => {
    const startTicks = ticksOf(range.start, 'start');
    const endTicks = ticksOf(range.end, 'end');
    const stepTicks = ticksOf(range.step, 'step');
    if (startTicks < 0 || endTicks > PRICE_TICKS_PER_DOLLAR || startTicks >= endTicks) {
      throw new RangeError(`price range ${range.start}..${range.end} must lie within 0..1 and start below its end`);
    }
    if (stepTicks <= 0) throw new RangeError(`price range step ${range.step} must be positive`);
    return { start: range.start, end: range.end, step: range.step, startTicks, endTicks, stepTicks };
  });
}

/** Whether a YES price in ticks is one the ranges accept (strictly inside 0..1, in a range, on its step). */
export function isOnPriceRanges(ranges: readonly PriceRangeRule[], priceTicks: number): boolean {
  if (!Number.isInteger(priceTicks) || priceTicks <= 0 || priceTicks >= PRICE_TICKS_PER_DOLLAR) return false;
  return ranges.some((r) => priceTicks >= r.startTicks && priceTicks <= r.endTicks && (priceTicks - r.startTicks) % r.stepTicks === 0);
}

/** Lowest and highest valid prices strictly inside 0..1, in ticks. */
function priceBounds(ranges: readonly PriceRangeRule[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const r of ranges) {
    const first = r.startTicks > 0 ? r.startTicks : r.startTicks + r.stepTicks;
    let last = r.startTicks + Math.floor((r.endTicks - r.startTicks) / r.stepTicks) * r.stepTicks;
    if (last >= PRICE_TICKS_PER_DOLLAR) last -= r.stepTicks;
    if (first <= last && first < PRICE_TICKS_PER_DOLLAR) {
      min = Math.min(min, first);
      max = Math.max(max, last);
    }
  }
  if (!Number.isFinite(min)) throw new RangeError('the price ranges allow no price strictly between 0 and 1');
  return { min, max };
}

/** Taker and maker rates of a Kalshi series' fee schedule. */
export function kalshiFeeSchedule(feeType: string | null, feeMultiplier: string | null): FeeSchedule {
  const multiplier = feeMultiplier === null ? new Decimal(1) : parseDecimalString(feeMultiplier);
  if (multiplier === null || multiplier.isNegative()) throw new RangeError(`fee_multiplier ${String(feeMultiplier)} must be a non-negative decimal`);
  const makerCharged = feeType !== null && feeType !== 'quadratic';
  return Object.freeze({
    kind: 'quadratic_rounded_up',
    takerRate: formatDecimal(new Decimal(KALSHI_TAKER_FEE_RATE).times(multiplier)),
    makerRate: makerCharged ? formatDecimal(new Decimal(KALSHI_MAKER_FEE_RATE).times(multiplier)) : '0',
    feeDecimals: KALSHI_LIVE_FEE_DECIMALS,
  });
}

export function liveKalshiMarketRules(options: LiveKalshiMarketOptions): MarketRules {
  const priceRanges = Object.freeze(priceRangeRules(options.priceRanges).map((r) => Object.freeze(r)));
  const tickSizeTicks = Math.min(...priceRanges.map((r) => r.stepTicks));
  const tickSize = formatDecimal(new Decimal(tickSizeTicks).div(PRICE_TICKS_PER_DOLLAR));
  const decimals = Math.max(2, new Decimal(tickSize).decimalPlaces());
  const bounds = priceBounds(priceRanges);

  const unitsPerWhole = options.fractionalTrading ? FRACTIONAL_UNITS_PER_CONTRACT : 1;
  const quantityStep = options.fractionalTrading ? '0.01' : '1';
  const minSize = parseDecimalString(options.minSize ?? quantityStep);
  const minSizeUnits = minSize?.times(unitsPerWhole);
  if (minSizeUnits === undefined || !minSizeUnits.isInteger() || minSizeUnits.lte(0)) {
    throw new RangeError(`minSize ${String(options.minSize)} must be a positive multiple of ${quantityStep}`);
  }
  const maxSize = options.maxSize ?? 1_000_000;
  if (!Number.isSafeInteger(maxSize * unitsPerWhole) || maxSize < 1) throw new RangeError(`maxSize ${maxSize} must be a whole number >= 1`);

  return Object.freeze({
    tickSize,
    tickSizeTicks,
    priceRanges,
    minPrice: ticksToPrice(bounds.min, decimals),
    maxPrice: ticksToPrice(bounds.max, decimals),
    minPriceTicks: bounds.min,
    maxPriceTicks: bounds.max,
    priceUnit: 'dollars',
    quantityStep,
    unitsPerWhole,
    minSize: minSize!.toFixed(),
    minSizeUnits: minSizeUnits.toNumber(),
    maxSize: String(maxSize),
    maxSizeUnits: maxSize * unitsPerWhole,
    fees: kalshiFeeSchedule(options.feeType, options.feeMultiplier),
  });
}
