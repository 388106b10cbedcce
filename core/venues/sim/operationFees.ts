/**
 * Fees of one order operation. The venue rules price an order's total matched quantity at one price
 * in one operation (rounding each maker leg up on its own would overcharge), so a taker that sweeps
 * several makers pays one fee per price, and that fee is split across its fills so that:
 * - the fills' fees add up exactly to the operation's fee at that price;
 * - the split is proportional to quantity, by cumulative rounding down in the fee's smallest unit
 *   (a cent on sim-kalshi, $0.00001 on sim-polymarket), so it is deterministic and never negative.
 */
import { Decimal } from '../../domain/decimals';
import type { Liquidity } from '../../domain/matching';
import { computeFee, type MarketRules } from '../../domain/venueRules';

export interface PricedQuantity {
  /** Execution price in ticks (own terms or YES terms: the fee is symmetric). */
  readonly priceTicks: number;
  readonly quantityUnits: number;
}

/** Splits `totalFee` across `quantities` (all > 0) in proportion, summing exactly to `totalFee`. */
export function allocateFee(totalFee: string, quantities: readonly number[]): string[] {
  // The fee's own precision ("0.18" -> cents) is the unit the split is made in.
  const point = totalFee.indexOf('.');
  const decimals = point === -1 ? 0 : totalFee.length - point - 1;
  const scale = new Decimal(10).pow(decimals);
  const minorUnits = new Decimal(totalFee).times(scale);
  if (!minorUnits.isInteger() || minorUnits.isNegative()) throw new RangeError(`fee ${totalFee} is not a plain amount`);
  const total = quantities.reduce((sum, quantity) => sum + quantity, 0);
  if (total <= 0) throw new RangeError('cannot allocate a fee over no quantity');
  const fees: string[] = [];
  let cumulative = 0;
  let allocatedSoFar = new Decimal(0);
  for (const quantity of quantities) {
    cumulative += quantity;
    const allocatedThrough = minorUnits.times(cumulative).div(total).floor();
    fees.push(allocatedThrough.minus(allocatedSoFar).div(scale).toFixed(decimals));
    allocatedSoFar = allocatedThrough;
  }
  return fees;
}

/** The positions of `items`, grouped by key, each group in the items' order. */
export function indexesBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, number[]> {
  const groups = new Map<K, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const indexes = groups.get(key);
    if (indexes) indexes.push(index);
    else groups.set(key, [index]);
  });
  return groups;
}

/**
 * One fee per fill, for all of one order's fills in one operation: fills at the same price share
 * that price's fee (computed on their total quantity), allocated in fill order.
 */
export function feesForOperation(rules: MarketRules, liquidity: Liquidity, fills: readonly PricedQuantity[]): string[] {
  const byPrice = indexesBy(fills, (fill) => fill.priceTicks);
  const fees = new Array<string>(fills.length);
  for (const [priceTicks, indexes] of byPrice) {
    const quantities = indexes.map((index) => fills[index]!.quantityUnits);
    const quantityUnits = quantities.reduce((sum, quantity) => sum + quantity, 0);
    const total = computeFee(rules, { priceTicks, quantityUnits, liquidity });
    allocateFee(total, quantities).forEach((fee, position) => {
      fees[indexes[position]!] = fee;
    });
  }
  return fees;
}
