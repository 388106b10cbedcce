/**
 * The arrival mid the plan is measured against: the consolidated mid of the eligible venues, i.e.
 * (highest YES bid anywhere + lowest YES ask anywhere) / 2, in the order's own terms (a NO order's
 * mid is 1 − the YES mid). It is the price the whole market quotes, so a split and a single venue
 * are measured against the same benchmark. Null when the bid or the ask side is empty everywhere.
 */
import { priceToTicks, PRICE_TICKS_PER_DOLLAR } from '../matching/units';
import type { OutcomeSide } from '../orderTerms';
import { Decimal } from '../decimals';
import type { VenueMarketSnapshot } from './types';

export function consolidatedArrivalMid(markets: readonly VenueMarketSnapshot[], side: OutcomeSide): Decimal | null {
  let bestBid: number | null = null;
  let bestAsk: number | null = null;
  for (const { book } of markets) {
    for (const level of book.bids) {
      if (new Decimal(level.quantity).lte(0)) continue;
      const ticks = priceToTicks(level.price);
      if (bestBid === null || ticks > bestBid) bestBid = ticks;
    }
    for (const level of book.asks) {
      if (new Decimal(level.quantity).lte(0)) continue;
      const ticks = priceToTicks(level.price);
      if (bestAsk === null || ticks < bestAsk) bestAsk = ticks;
    }
  }
  if (bestBid === null || bestAsk === null) return null;
  const yesMid = new Decimal(bestBid).plus(bestAsk).div(2).div(PRICE_TICKS_PER_DOLLAR);
  return side === 'yes' ? yesMid : new Decimal(1).minus(yesMid);
}
