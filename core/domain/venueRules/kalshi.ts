/**
 * sim-kalshi: whole-cent prices 0.01..0.99 (Kalshi's wire unit is integer cents 1..99),
 * whole contracts, minimum one contract, and Kalshi's published trading fee formula.
 */
import type { MarketRules } from './types';

export const KALSHI_TAKER_FEE_RATE = '0.07';
/** Charged only on the markets Kalshi lists as having maker fees. */
export const KALSHI_MAKER_FEE_RATE = '0.0175';

export interface KalshiMarketOptions {
  /** Whether resting (maker) orders pay the maker fee; most Kalshi markets do not. */
  readonly makerFees?: boolean;
  /** The simulator's cap on one order, in contracts (not a published Kalshi limit). */
  readonly maxSize?: number;
}

export function kalshiMarketRules(options: KalshiMarketOptions = {}): MarketRules {
  const maxSize = options.maxSize ?? 1_000_000;
  if (!Number.isSafeInteger(maxSize) || maxSize < 1) throw new RangeError(`maxSize ${maxSize} must be a whole number >= 1`);
  return Object.freeze({
    tickSize: '0.01',
    tickSizeTicks: 100,
    minPrice: '0.01',
    maxPrice: '0.99',
    minPriceTicks: 100,
    maxPriceTicks: 9_900,
    priceUnit: 'cents',
    quantityStep: '1',
    unitsPerWhole: 1,
    minSize: '1',
    minSizeUnits: 1,
    maxSize: String(maxSize),
    maxSizeUnits: maxSize,
    fees: Object.freeze({
      kind: 'quadratic_rounded_up',
      takerRate: KALSHI_TAKER_FEE_RATE,
      makerRate: options.makerFees === true ? KALSHI_MAKER_FEE_RATE : '0',
    }),
  });
}
