import { Decimal, formatDecimal } from './decimals';

/** The outcome a trade's taker bought: a taker selling YES bought NO (Kalshi's `taker_side`). */
export type TakerSide = 'yes' | 'no';

/**
 * One trade on a market's public tape (docs/market-data.md, "Trades"): price in YES terms (a NO
 * price is 1 minus it), the contracts that changed hands, the outcome the taker bought, when.
 */
export interface PublicTrade {
  readonly id: string;
  readonly yesPrice: string;
  readonly quantity: string;
  readonly takerSide: TakerSide;
  readonly executedAt: Date;
}

/** The outcome a taker bought with an order of this side and action. Pure. */
export function takerSideOf(side: 'yes' | 'no', action: 'buy' | 'sell'): TakerSide {
  return (side === 'yes') === (action === 'buy') ? 'yes' : 'no';
}

/** A price in an outcome's own terms, in YES terms: a NO price p is the YES price 1 - p. Pure. */
export function yesPriceOf(side: 'yes' | 'no', price: string): string {
  return side === 'yes' ? formatDecimal(new Decimal(price)) : formatDecimal(new Decimal(1).sub(price));
}
