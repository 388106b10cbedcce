/**
 * One venue's book seen from the order: the levels it can take (the opposite side of the YES book,
 * through the YES/NO complement, best first, within the limit) and the touch it can join (its own
 * side). Prices are own-terms ticks of $0.0001, quantities the venue's integer base units, exactly
 * as the matching engine counts them.
 */
import { bookSideIndexOf, BID, fromYesPriceTicks } from '../matching/yesNoComplement';
import { priceToTicks, quantityToUnits } from '../matching/units';
import type { MarketRules } from '../venueRules';
import type { BookLevelView } from '../orderBookView';
import type { NormalizedOrder } from './parentOrder';
import type { VenueMarketSnapshot } from './types';

export interface LadderLevel {
  /** Own terms. */
  readonly priceTicks: number;
  /** Venue base units (contracts on Kalshi, 0.01 share on Polymarket). */
  readonly units: number;
}

export interface VenueLadder {
  readonly venue: string;
  readonly venueMarketId: string;
  readonly rules: MarketRules;
  /** What the order can take, best first, within its limit. */
  readonly levels: readonly LadderLevel[];
}

export interface JoinableTouch {
  /** The price to rest at, own terms: the touch, or the limit when the limit is less aggressive. */
  readonly priceTicks: number;
  /** Quantity already resting at that price, venue base units. */
  readonly queueAheadUnits: number;
  /** Quantity resting at the best price of the order's side, venue base units. */
  readonly touchUnits: number;
}

type OrderSide = Pick<NormalizedOrder, 'side' | 'action' | 'direction' | 'limitTicks'>;

/** Levels of one side of a YES book in own terms, merged by price, sorted by own price (ascending or not). */
function ownTermsLevels(levels: readonly BookLevelView[], order: OrderSide, rules: MarketRules, bestFirstAscending: boolean): LadderLevel[] {
  const byPrice = new Map<number, number>();
  for (const level of levels) {
    const units = quantityToUnits(level.quantity, rules.unitsPerWhole);
    if (units === 0) continue;
    const priceTicks = fromYesPriceTicks(order.side, priceToTicks(level.price));
    byPrice.set(priceTicks, (byPrice.get(priceTicks) ?? 0) + units);
  }
  const sorted = [...byPrice].map(([priceTicks, units]) => ({ priceTicks, units }));
  sorted.sort((a, b) => (bestFirstAscending ? a.priceTicks - b.priceTicks : b.priceTicks - a.priceTicks));
  return sorted;
}

/** Whether an own-terms price is within the order's limit (a buy pays at most, a sell receives at least). */
export function withinLimit(order: Pick<NormalizedOrder, 'direction' | 'limitTicks'>, priceTicks: number): boolean {
  if (order.limitTicks === null) return true;
  return order.direction === 1 ? priceTicks <= order.limitTicks : priceTicks >= order.limitTicks;
}

/**
 * The levels a marketable order takes: a buy YES / sell NO takes the YES asks, a buy NO / sell YES
 * the YES bids; own-terms prices; best first (lowest for a buy, highest for a sell); within the limit.
 */
export function takeableLadder(snapshot: VenueMarketSnapshot, order: OrderSide): VenueLadder {
  const restsOnBid = bookSideIndexOf(order.side, order.action) === BID;
  const opposite = restsOnBid ? snapshot.book.asks : snapshot.book.bids;
  const levels = ownTermsLevels(opposite, order, snapshot.rules, order.direction === 1).filter((level) =>
    withinLimit(order, level.priceTicks),
  );
  return { venue: snapshot.venue, venueMarketId: snapshot.book.venueMarketId, rules: snapshot.rules, levels };
}

/**
 * Where a passive order joins: the best price on its own side of the book (best bid for a buy, best
 * ask for a sell, own terms), or its limit rounded onto the venue's tick when that is less
 * aggressive. Null when its side of the book is empty or the price falls outside the venue's range.
 */
export function joinableTouch(snapshot: VenueMarketSnapshot, order: OrderSide): JoinableTouch | null {
  const { rules } = snapshot;
  const restsOnBid = bookSideIndexOf(order.side, order.action) === BID;
  const ownSide = restsOnBid ? snapshot.book.bids : snapshot.book.asks;
  // Best of the order's own side: highest own price for a buy, lowest for a sell.
  const levels = ownTermsLevels(ownSide, order, rules, order.direction === -1);
  const touch = levels[0];
  if (touch === undefined) return null;
  let priceTicks = touch.priceTicks;
  if (order.limitTicks !== null && !withinLimit(order, priceTicks)) {
    const tick = rules.tickSizeTicks;
    priceTicks = order.direction === 1 ? Math.floor(order.limitTicks / tick) * tick : Math.ceil(order.limitTicks / tick) * tick;
  }
  if (priceTicks < rules.minPriceTicks || priceTicks > rules.maxPriceTicks) return null;
  const queueAheadUnits = levels.find((level) => level.priceTicks === priceTicks)?.units ?? 0;
  return { priceTicks, queueAheadUnits, touchUnits: touch.units };
}

/** The ladder after the first `units` (venue base units) have been taken, best levels first. */
export function depleteLadder(ladder: VenueLadder, units: number): VenueLadder {
  if (units === 0) return ladder;
  let left = units;
  const levels: LadderLevel[] = [];
  for (const level of ladder.levels) {
    const taken = Math.min(left, level.units);
    left -= taken;
    if (level.units > taken) levels.push({ priceTicks: level.priceTicks, units: level.units - taken });
  }
  if (left > 0) throw new RangeError(`cannot take ${units} units from ${ladder.venue}: the ladder is shorter`);
  return { ...ladder, levels };
}

/** Units the ladder holds in all, capped at the venue's maximum order size. */
export function ladderCapacityUnits(ladder: VenueLadder): number {
  const total = ladder.levels.reduce((sum, level) => sum + level.units, 0);
  return Math.min(total, ladder.rules.maxSizeUnits);
}
