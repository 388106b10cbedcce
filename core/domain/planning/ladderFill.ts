/**
 * Exactly what one child order gets for taking a given quantity off one venue's ladder, as the
 * matching engine and the simulated venue would give it: levels best first (price-time priority,
 * every trade at the resting price), and one fee per price level of that one operation, computed by
 * the venue's `computeFee` on the child's whole quantity at that price (`operationFees.ts`).
 */
import { PRICE_TICKS_PER_DOLLAR } from '../matching/units';
import { computeFee } from '../venueRules';
import { type Direction } from './executionFigures';
import { Decimal } from '../decimals';
import type { VenueLadder } from './venueLadder';

export interface LevelFill {
  readonly priceTicks: number;
  /** Venue base units. */
  readonly units: number;
  readonly fee: Decimal;
}

export interface LadderFill {
  readonly ladder: VenueLadder;
  /** Venue base units taken. */
  readonly units: number;
  readonly fills: readonly LevelFill[];
  /** Σ price × quantity, dollars. */
  readonly notional: Decimal;
  readonly fees: Decimal;
}

export function priceDollars(priceTicks: number): Decimal {
  return new Decimal(priceTicks).div(PRICE_TICKS_PER_DOLLAR);
}

export function contractsOf(units: number, unitsPerWhole: number): Decimal {
  return new Decimal(units).div(unitsPerWhole);
}

/** Takes `units` (venue base units) from the best levels of the ladder, as one taker operation. */
export function fillFromLadder(ladder: VenueLadder, units: number): LadderFill {
  const { rules } = ladder;
  let left = units;
  const fills: LevelFill[] = [];
  let notional = new Decimal(0);
  let fees = new Decimal(0);
  for (const level of ladder.levels) {
    if (left === 0) break;
    const taken = Math.min(left, level.units);
    left -= taken;
    const fee = new Decimal(computeFee(rules, { priceTicks: level.priceTicks, quantityUnits: taken, liquidity: 'taker' }));
    fills.push({ priceTicks: level.priceTicks, units: taken, fee });
    notional = notional.plus(priceDollars(level.priceTicks).times(contractsOf(taken, rules.unitsPerWhole)));
    fees = fees.plus(fee);
  }
  if (left > 0) throw new RangeError(`cannot take ${units} units from ${ladder.venue}: the ladder holds less`);
  return { ladder, units, fills, notional, fees };
}

/**
 * What the trader gives up, in dollars, fees included: a buy pays notional + fees, a sell receives
 * notional − fees, so direction × notional + fees is the quantity to minimise either way.
 */
export function allInCost(fill: { readonly notional: Decimal; readonly fees: Decimal }, direction: Direction): Decimal {
  return fill.notional.times(direction).plus(fill.fees);
}
