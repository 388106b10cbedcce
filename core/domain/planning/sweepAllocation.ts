/**
 * The best way to take a quantity from several venues' ladders at once: fill as much as possible,
 * then pay the least all-in (prices plus the fees each venue actually charges, rounding included).
 *
 * How (see docs/execution-planning.md, "Sweep split"):
 * 1. Every non-empty subset of the venues is tried (there are at most four venues, so at most 15
 *    subsets). A venue in the subset must trade at least its minimum size, so the subsets are what
 *    lets a venue whose minimum would make the order worse drop out.
 * 2. In a subset, each venue first gets its minimum size; the rest goes greedily, level by level,
 *    to the venue whose next level has the lowest estimated all-in price per contract
 *    (direction × price + the fee per contract before rounding). Quantities move in each venue's
 *    step and never past its maximum order size. Each venue's share stays a prefix of its ladder
 *    (best levels first), which is what one limit IOC child per venue fills.
 * 3. Local improvement with exact costs: per-level fees are rounded (Kalshi up to the cent), so the
 *    greedy estimate can be off by a cent per level. Quantity is moved between pairs of venues (one
 *    common step, a whole last level, the room left in the receiving venue's level, or everything
 *    movable) while a move lowers the exact all-in cost computed with `computeFee`; the best move
 *    each round, until none helps.
 * 4. The subsets' results are compared: most quantity filled, then lowest exact all-in cost, then
 *    fewer venues, then the earlier venues in input order.
 */
import { computeFee } from '../venueRules';
import { type Direction } from './executionFigures';
import { Decimal } from '../decimals';
import { allInCost, contractsOf, fillFromLadder, priceDollars, type LadderFill } from './ladderFill';
import type { InfeasibleReason } from './types';
import { ladderCapacityUnits, type VenueLadder } from './venueLadder';

/** Safety net for step 3; every accepted move strictly lowers the cost, so it always ends. */
const MAX_IMPROVEMENT_ROUNDS = 10_000;
/** The fee per contract used to order the greedy is the fee of this many contracts, divided. */
const REFERENCE_CONTRACTS = 1_000_000;

export interface SweepAllocation {
  /** One fill per venue used (units > 0), in the order the ladders were given. */
  readonly fills: readonly LadderFill[];
  /** Contracts filled in all. */
  readonly filled: Decimal;
  /** Σ direction × notional + fees, dollars. */
  readonly cost: Decimal;
}

export type SweepAllocationOutcome =
  | { readonly ok: true; readonly allocation: SweepAllocation }
  | { readonly ok: false; readonly reason: InfeasibleReason };

/** One venue in the allocator's common units (the finest base unit among the ladders). */
interface VenueTerms {
  readonly ladder: VenueLadder;
  /** Common units per venue base unit: the venue's quantity step in common units. */
  readonly step: number;
  readonly min: number;
  readonly cap: number;
  /** Cumulative end of each level, common units. */
  readonly levelEnds: readonly number[];
  /** Estimated all-in price per contract of each level: direction × price + fee per contract. */
  readonly estimates: readonly Decimal[];
  /** Exact all-in cost of taking the first k levels whole, filled in as far as needed. */
  readonly wholeLevelsCost: Decimal[];
  /** Exact all-in cost of `units` (venue base units) at one price. */
  readonly levelCost: (priceTicks: number, units: number) => Decimal;
  readonly costCache: Map<number, Decimal>;
}

/**
 * Per-level figures (estimate, exact cost of a quantity at a price) of one plan, by venue. A plan
 * that calls `bestSweepAllocation` many times on the same books (a TWAP's slices) shares one, so
 * the fees are computed once; it belongs to one order (one direction, one set of venue rules).
 */
export class LevelCostMemo {
  private readonly values = new Map<string, Decimal>();
  /** A ladder's allocator terms, reused while the ladder is unchanged (the same object). */
  readonly terms = new WeakMap<VenueLadder, VenueTerms>();

  get(key: string, compute: () => Decimal): Decimal {
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute();
      this.values.set(key, value);
    }
    return value;
  }
}

export function bestSweepAllocation(
  ladders: readonly VenueLadder[],
  quantity: Decimal,
  direction: Direction,
  memo: LevelCostMemo = new LevelCostMemo(),
): SweepAllocationOutcome {
  if (ladders.length === 0 || ladders.every((ladder) => ladder.levels.length === 0)) {
    return { ok: false, reason: 'no_liquidity_within_limit' };
  }
  const commonPerWhole = Math.max(...ladders.map((ladder) => ladder.rules.unitsPerWhole));
  const targetUnits = quantity.times(commonPerWhole);
  if (!targetUnits.isInteger()) return { ok: false, reason: 'quantity_off_step' };
  const target = targetUnits.toNumber();
  const venues = ladders.map((ladder) => {
    let terms = memo.terms.get(ladder);
    if (terms === undefined || terms.step !== commonPerWhole / ladder.rules.unitsPerWhole) {
      terms = venueTerms(ladder, commonPerWhole, direction, memo);
      memo.terms.set(ladder, terms);
    }
    return terms;
  });

  let best: { units: number[]; filled: number; cost: Decimal; count: number } | null = null;
  for (let mask = 1; mask < 1 << venues.length; mask++) {
    const members = venues.map((_, index) => index).filter((index) => (mask & (1 << index)) !== 0);
    if (members.some((index) => venues[index]!.cap < venues[index]!.min || venues[index]!.cap === 0)) continue;
    if (members.reduce((sum, index) => sum + venues[index]!.min, 0) > target) continue;
    const units = improve(venues, members, greedy(venues, members, target));
    const filled = units.reduce((sum, value) => sum + value, 0);
    const cost = totalCost(venues, units);
    const candidate = { units, filled, cost, count: members.length };
    if (best === null || isBetter(candidate, best)) best = candidate;
  }
  // Liquidity exists but no venue can trade its minimum size (within the quantity or its ladder).
  if (best === null) return { ok: false, reason: 'below_min_size' };
  const fills = venues.flatMap((venue, index) => (best!.units[index]! > 0 ? [fillFromLadder(venue.ladder, best!.units[index]! / venue.step)] : []));
  return { ok: true, allocation: { fills, filled: new Decimal(best.filled).div(commonPerWhole), cost: best.cost } };
}

function isBetter(a: { filled: number; cost: Decimal; count: number }, b: { filled: number; cost: Decimal; count: number }): boolean {
  if (a.filled !== b.filled) return a.filled > b.filled;
  if (!a.cost.eq(b.cost)) return a.cost.lt(b.cost);
  return a.count < b.count; // equal count: the earlier subset (lower mask) stays
}

function venueTerms(ladder: VenueLadder, commonPerWhole: number, direction: Direction, memo: LevelCostMemo): VenueTerms {
  const { rules } = ladder;
  const step = commonPerWhole / rules.unitsPerWhole;
  let end = 0;
  const levelEnds = ladder.levels.map((level) => (end += level.units * step));
  const estimates = ladder.levels.map((level) =>
    memo.get(`${ladder.venue}|${level.priceTicks}|estimate`, () => {
      const referenceFee = computeFee(rules, {
        priceTicks: level.priceTicks,
        quantityUnits: REFERENCE_CONTRACTS * rules.unitsPerWhole,
        liquidity: 'taker',
      });
      return priceDollars(level.priceTicks).times(direction).plus(new Decimal(referenceFee).div(REFERENCE_CONTRACTS));
    }),
  );
  const levelCost = (priceTicks: number, units: number) =>
    memo.get(`${ladder.venue}|${priceTicks}|${units}`, () => exactLevelCost(ladder, priceTicks, units, direction));
  return {
    ladder,
    step,
    min: rules.minSizeUnits * step,
    cap: ladderCapacityUnits(ladder) * step,
    levelEnds,
    estimates,
    wholeLevelsCost: [new Decimal(0)],
    levelCost,
    costCache: new Map(),
  };
}

/** direction × price × quantity + the venue's fee for that quantity at that price, as one operation charges it. */
function exactLevelCost(ladder: VenueLadder, priceTicks: number, units: number, direction: Direction): Decimal {
  const { rules } = ladder;
  const fee = computeFee(rules, { priceTicks, quantityUnits: units, liquidity: 'taker' });
  return allInCost({ notional: priceDollars(priceTicks).times(contractsOf(units, rules.unitsPerWhole)), fees: new Decimal(fee) }, direction);
}

/** Index of the level that holds the next unit after `position` (common units). */
function levelAfter(venue: VenueTerms, position: number): number {
  return venue.levelEnds.findIndex((end) => end > position);
}

/** Step 2: minimums first, then the cheapest estimated level across the members, step by step. */
function greedy(venues: readonly VenueTerms[], members: readonly number[], target: number): number[] {
  const units = venues.map(() => 0);
  let remaining = target;
  for (const index of members) {
    units[index] = venues[index]!.min;
    remaining -= venues[index]!.min;
  }
  const blocked = new Set<number>();
  while (remaining > 0) {
    let choice = -1;
    for (const index of members) {
      const venue = venues[index]!;
      if (blocked.has(index) || units[index]! >= venue.cap) continue;
      if (choice === -1 || venue.estimates[levelAfter(venue, units[index]!)]!.lt(venues[choice]!.estimates[levelAfter(venues[choice]!, units[choice]!)]!)) {
        choice = index;
      }
    }
    if (choice === -1) break;
    const venue = venues[choice]!;
    const position = units[choice]!;
    const room = Math.min(venue.levelEnds[levelAfter(venue, position)]!, venue.cap) - position;
    const take = floorTo(Math.min(room, remaining), venue.step);
    if (take === 0) {
      blocked.add(choice); // what is left is finer than this venue's step
      continue;
    }
    units[choice] = position + take;
    remaining -= take;
  }
  return units;
}

/** Step 3: move quantity between pairs of members while the exact all-in cost falls. */
function improve(venues: readonly VenueTerms[], members: readonly number[], start: number[]): number[] {
  const units = [...start];
  for (let round = 0; round < MAX_IMPROVEMENT_ROUNDS; round++) {
    let bestGain = new Decimal(0);
    let bestMove: { from: number; to: number; amount: number } | null = null;
    for (const from of members) {
      for (const to of members) {
        if (from === to) continue;
        for (const amount of moveSizes(venues[from]!, units[from]!, venues[to]!, units[to]!)) {
          const before = venueCost(venues[from]!, units[from]!).plus(venueCost(venues[to]!, units[to]!));
          const after = venueCost(venues[from]!, units[from]! - amount).plus(venueCost(venues[to]!, units[to]! + amount));
          const gain = before.minus(after);
          if (gain.gt(bestGain)) {
            bestGain = gain;
            bestMove = { from, to, amount };
          }
        }
      }
    }
    if (bestMove === null) break;
    units[bestMove.from]! -= bestMove.amount;
    units[bestMove.to]! += bestMove.amount;
  }
  return units;
}

/** Candidate amounts to move from one venue to another, each on both venues' steps and within bounds. */
function moveSizes(from: VenueTerms, fromUnits: number, to: VenueTerms, toUnits: number): number[] {
  const step = Math.max(from.step, to.step); // steps are powers of ten, so the larger is a multiple of both
  const movable = floorTo(Math.min(fromUnits - from.min, to.cap - toUnits), step);
  if (movable <= 0) return [];
  const lastLevel = levelAfter(from, fromUnits - 1);
  const lastLevelStart = lastLevel === 0 ? 0 : from.levelEnds[lastLevel - 1]!;
  const nextLevel = levelAfter(to, toUnits);
  const roomInLevel = nextLevel === -1 ? 0 : to.levelEnds[nextLevel]! - toUnits;
  const sizes = new Set<number>();
  for (const size of [step, fromUnits - lastLevelStart, roomInLevel, movable]) {
    const amount = Math.min(floorTo(size, step), movable);
    if (amount > 0) sizes.add(amount);
  }
  return [...sizes].sort((a, b) => a - b);
}

/**
 * The exact all-in cost of taking `units` (common units) from the venue: the whole levels before the
 * last one from the running sum, the last (possibly partial) level priced on its own; the same
 * figure as `fillFromLadder`, which the result is built with.
 */
function venueCost(venue: VenueTerms, units: number): Decimal {
  let cost = venue.costCache.get(units);
  if (cost === undefined) {
    if (units === 0) {
      cost = new Decimal(0);
    } else {
      const last = levelAfter(venue, units - 1);
      const lastStart = last === 0 ? 0 : venue.levelEnds[last - 1]!;
      const level = venue.ladder.levels[last]!;
      cost = wholeLevelsCost(venue, last).plus(venue.levelCost(level.priceTicks, (units - lastStart) / venue.step));
    }
    venue.costCache.set(units, cost);
  }
  return cost;
}

function wholeLevelsCost(venue: VenueTerms, levels: number): Decimal {
  const sums = venue.wholeLevelsCost;
  while (sums.length <= levels) {
    const level = venue.ladder.levels[sums.length - 1]!;
    sums.push(sums[sums.length - 1]!.plus(venue.levelCost(level.priceTicks, level.units)));
  }
  return sums[levels]!;
}

function totalCost(venues: readonly VenueTerms[], units: readonly number[]): Decimal {
  return venues.reduce((sum, venue, index) => sum.plus(venueCost(venue, units[index]!)), new Decimal(0));
}

function floorTo(value: number, step: number): number {
  return Math.floor(value / step) * step;
}
