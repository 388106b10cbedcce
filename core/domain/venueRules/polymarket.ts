/**
 * sim-polymarket: a per-market tick size (0.1, 0.01, 0.001 or 0.0001) with prices from
 * one tick to 1 − tick, sizes in steps of 0.01 share (clob-client rounds every size
 * to 2 decimals), a per-market minimum order size (commonly 5), and a per-market
 * taker fee rate (0 on most markets).
 */
import { Decimal, parseDecimalString } from '../decimals';
import type { OrderAction } from '../orderTerms';
import { PRICE_TICKS_PER_DOLLAR, ticksToPrice } from '../matching/units';
import type { MarketRules, PolymarketTickSize } from './types';

export const POLYMARKET_TICK_SIZES: readonly PolymarketTickSize[] = ['0.1', '0.01', '0.001', '0.0001'];

/** Base units per share: sizes carry 2 decimals. */
export const POLYMARKET_UNITS_PER_SHARE = 100;

export interface PolymarketMarketOptions {
  readonly tickSize?: PolymarketTickSize;
  /** Minimum order size in shares, a multiple of 0.01 (the CLOB's min_order_size). */
  readonly minOrderSize?: string;
  /** Taker fee rate in basis points; makers pay nothing. */
  readonly takerFeeRateBps?: number;
  /** Exponent of P × (1 − P) in the fee curve. */
  readonly feeExponent?: number;
  /** The simulator's cap on one order, in shares (not a published Polymarket limit). */
  readonly maxSize?: number;
}

export function polymarketMarketRules(options: PolymarketMarketOptions = {}): MarketRules {
  const tickSize = options.tickSize ?? '0.01';
  if (!POLYMARKET_TICK_SIZES.includes(tickSize)) {
    throw new RangeError(`tickSize ${String(tickSize)} must be one of ${POLYMARKET_TICK_SIZES.join(', ')}`);
  }
  const tickSizeTicks = parseDecimalString(tickSize)!.times(PRICE_TICKS_PER_DOLLAR).toNumber();

  const minOrderSize = options.minOrderSize ?? '5';
  const minParsed = parseDecimalString(minOrderSize);
  const minSizeUnits = minParsed?.times(POLYMARKET_UNITS_PER_SHARE);
  if (minSizeUnits === undefined || !minSizeUnits.isInteger() || minSizeUnits.lte(0)) {
    throw new RangeError(`minOrderSize ${minOrderSize} must be a positive multiple of 0.01`);
  }

  const takerFeeRateBps = options.takerFeeRateBps ?? 0;
  if (!Number.isInteger(takerFeeRateBps) || takerFeeRateBps < 0 || takerFeeRateBps > 10_000) {
    throw new RangeError(`takerFeeRateBps ${takerFeeRateBps} must be a whole number 0..10000`);
  }
  const exponent = options.feeExponent ?? 1;
  if (!Number.isInteger(exponent) || exponent < 1 || exponent > 4) {
    throw new RangeError(`feeExponent ${exponent} must be a whole number 1..4`);
  }
  const maxSize = options.maxSize ?? 1_000_000;
  if (!Number.isSafeInteger(maxSize * POLYMARKET_UNITS_PER_SHARE) || maxSize < 1) {
    throw new RangeError(`maxSize ${maxSize} must be a whole number >= 1`);
  }

  const decimals = tickSize.length - 2;
  return Object.freeze({
    tickSize,
    tickSizeTicks,
    minPrice: ticksToPrice(tickSizeTicks, decimals),
    maxPrice: ticksToPrice(PRICE_TICKS_PER_DOLLAR - tickSizeTicks, decimals),
    minPriceTicks: tickSizeTicks,
    maxPriceTicks: PRICE_TICKS_PER_DOLLAR - tickSizeTicks,
    priceUnit: 'dollars',
    quantityStep: '0.01',
    unitsPerWhole: POLYMARKET_UNITS_PER_SHARE,
    minSize: minParsed!.toFixed(),
    minSizeUnits: minSizeUnits.toNumber(),
    maxSize: String(maxSize),
    maxSizeUnits: maxSize * POLYMARKET_UNITS_PER_SHARE,
    fees: Object.freeze({ kind: 'power_rounded_down', takerFeeRateBps, exponent }),
  });
}

/**
 * The price a Polymarket market order without one is signed at: the far end of the book, 1 − tick
 * for a buy and the tick for a sell (how the official client signs market orders: a price bound and
 * an amount). Fixed once, under the market's tick when OUR order is created, and stored on the
 * order: the signed order (and so its hash, the venue's order id) must never follow a later change
 * of the market's tick.
 */
export function polymarketMarketOrderWorstPrice(action: OrderAction, tickSize: string): string {
  const tick = new Decimal(tickSize);
  return (action === 'buy' ? new Decimal(1).minus(tick) : tick).toFixed();
}
