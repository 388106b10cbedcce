/**
 * Trading fees of a fill, from the market's fee schedule. The book knows nothing of
 * fees; the caller prices each order's matched quantity with this.
 *
 * Apply it to an order's total matched quantity at one price in one operation, not
 * to each maker leg separately: rounding every small leg up to a cent overcharges,
 * which Kalshi itself evens out with a per-order fee accumulator.
 */
import { Decimal } from '../decimals';
import { PRICE_TICKS_PER_DOLLAR } from '../matching/units';
import type { FeeInput, FeeSchedule, MarketRules } from './types';

/** The simulated Kalshi charges whole cents (a schedule's feeDecimals overrides it); Polymarket's fee is kept to 5 decimals (0.00001 USDC). */
const KALSHI_FEE_DECIMALS = 2;
const POLYMARKET_FEE_DECIMALS = 5;

/** Fee in dollars as a decimal string ("0.18"); "0.00" / "0.00000" when nothing is charged. */
export function computeFee(rules: MarketRules, fill: FeeInput): string {
  return computeFeeForSchedule(rules.fees, rules.unitsPerWhole, fill);
}

export function computeFeeForSchedule(fees: FeeSchedule, unitsPerWhole: number, fill: FeeInput): string {
  const { priceTicks, quantityUnits, liquidity } = fill;
  if (!Number.isInteger(priceTicks) || priceTicks <= 0 || priceTicks >= PRICE_TICKS_PER_DOLLAR) {
    throw new RangeError(`priceTicks ${priceTicks} must be a whole number of ticks strictly inside (0, 1)`);
  }
  if (!Number.isSafeInteger(quantityUnits) || quantityUnits < 0) {
    throw new RangeError(`quantityUnits ${quantityUnits} must be a whole number >= 0`);
  }
  const price = new Decimal(priceTicks).div(PRICE_TICKS_PER_DOLLAR);
  const contracts = new Decimal(quantityUnits).div(unitsPerWhole);
  const variance = price.times(new Decimal(1).minus(price)); // P × (1 − P), peaks at 0.25

  if (fees.kind === 'quadratic_rounded_up') {
    const rate = new Decimal(liquidity === 'taker' ? fees.takerRate : fees.makerRate);
    // "Round up to the next cent" (the simulator); live Kalshi rounds up to $0.0001 (feeDecimals 4).
    const decimals = fees.feeDecimals ?? KALSHI_FEE_DECIMALS;
    return rate.times(contracts).times(variance).toDecimalPlaces(decimals, Decimal.ROUND_UP).toFixed(decimals);
  }
  if (liquidity === 'maker') return new Decimal(0).toFixed(POLYMARKET_FEE_DECIMALS);
  return polymarketTakerFee(contracts, price, fees.takerFeeRateBps, fees.exponent);
}

/**
 * Polymarket CLOB V2's taker fee: size × feeRate × (p × (1 − p))^exponent, rounded down to
 * 0.00001 (the official client, @polymarket/clob-client-v2 1.1.0 src/fees/index.ts
 * `adjustBuyAmountForFees`: `(amount / price) × feeRate × (price × (1 − price)) ** feeExponent`,
 * amount / price being the shares; docs.polymarket.com "Trading fees"). `rateBps`: the rate in basis points.
 */
export function polymarketTakerFee(size: Decimal.Value, price: Decimal.Value, rateBps: Decimal.Value, exponent: number): string {
  const p = new Decimal(price);
  return new Decimal(size)
    .times(new Decimal(rateBps).div(10_000))
    .times(p.times(new Decimal(1).minus(p)).pow(exponent))
    .toDecimalPlaces(POLYMARKET_FEE_DECIMALS, Decimal.ROUND_DOWN)
    .toFixed(POLYMARKET_FEE_DECIMALS);
}
