/**
 * The YES/NO complement, defined once. A binary market has one book kept in YES
 * terms: paying p for NO is the same economic act as offering YES at 1 − p.
 *
 *   buy  YES at p  -> YES bid at p          sell NO  at p -> YES bid at 1 − p
 *   buy  NO  at p  -> YES ask at 1 − p      sell YES at p -> YES ask at p
 */
import type { BookSide, OrderAction, OutcomeSide } from './types';
import { PRICE_TICKS_PER_DOLLAR } from './units';

/** Internal numeric book sides: array indexes in the hot path. */
export const BID = 0;
export const ASK = 1;
export type BookSideIndex = typeof BID | typeof ASK;

/** p -> 1 − p in ticks (also maps a YES price to the NO price and back). */
export function complementTicks(ticks: number): number {
  return PRICE_TICKS_PER_DOLLAR - ticks;
}

/** Which YES-book side an order rests on: buying YES or selling NO adds YES demand. */
export function bookSideIndexOf(side: OutcomeSide, action: OrderAction): BookSideIndex {
  return (side === 'yes') === (action === 'buy') ? BID : ASK;
}

/** An order's own price expressed as a YES price. */
export function toYesPriceTicks(side: OutcomeSide, ownPriceTicks: number): number {
  return side === 'yes' ? ownPriceTicks : PRICE_TICKS_PER_DOLLAR - ownPriceTicks;
}

/** A YES price expressed in the order's own terms (what a NO order's fill reports). */
export function fromYesPriceTicks(side: OutcomeSide, yesPriceTicks: number): number {
  return side === 'yes' ? yesPriceTicks : PRICE_TICKS_PER_DOLLAR - yesPriceTicks;
}

export interface YesTerms {
  readonly bookSide: BookSide;
  readonly yesPriceTicks: number;
}

/** The whole mapping in one call: (side, action, own price) -> (YES-book side, YES price). */
export function toYesTerms(side: OutcomeSide, action: OrderAction, ownPriceTicks: number): YesTerms {
  return {
    bookSide: bookSideIndexOf(side, action) === BID ? 'bid' : 'ask',
    yesPriceTicks: toYesPriceTicks(side, ownPriceTicks),
  };
}
