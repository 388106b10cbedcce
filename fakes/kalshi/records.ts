/** What the fake exchange keeps per order and per fill (prices in engine ticks, counts in hundredths). */
import type { Dec } from './fixedPoint';

/** V2 `side`: the YES leg, bid = buy YES, ask = sell YES (= buy NO at 1 - price). */
export type BookSideV2 = 'bid' | 'ask';
export type TimeInForceV2 = 'fill_or_kill' | 'good_till_canceled' | 'immediate_or_cancel';
export type SelfTradePrevention = 'taker_at_cross' | 'maker';
export type OrderStatus = 'resting' | 'canceled' | 'executed';

export interface OrderRecord {
  readonly orderId: string;
  readonly userId: string;
  /** Changed by an amend's `updated_client_order_id`. */
  clientOrderId: string;
  readonly ticker: string;
  readonly eventTicker: string;
  readonly bookSide: BookSideV2;
  /** Changed by an amend. */
  yesPriceTicks: number;
  /** The count the order was created with (an amend or a decrease does not change it). */
  readonly initialUnits: number;
  filledUnits: number;
  remainingUnits: number;
  status: OrderStatus;
  takerFees: Dec;
  makerFees: Dec;
  takerFillCost: Dec;
  makerFillCost: Dec;
  readonly selfTradePrevention: SelfTradePrevention;
  readonly createdMs: number;
  updatedMs: number;
  /** Unix seconds, or null when the order does not expire. */
  readonly expirationTime: number | null;
}

export interface FillRecord {
  readonly fillId: string;
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly userId: string;
  readonly ticker: string;
  readonly bookSide: BookSideV2;
  readonly yesPriceTicks: number;
  readonly units: number;
  readonly isTaker: boolean;
  readonly fee: Dec;
  readonly createdMs: number;
  readonly postPositionUnits: number;
}

/**
 * One match on a book, as Kalshi publishes it to everyone (GET /markets/trades, the `trade`
 * channel): any participant's, the fake market maker's included. Executed at the maker's price.
 */
export interface PublicTradeRecord {
  readonly tradeId: string;
  /** Increases by one per trade across the exchange; orders the trades and keys the REST cursor. */
  readonly sequence: number;
  readonly ticker: string;
  readonly yesPriceTicks: number;
  readonly units: number;
  /** The YES-leg side of the taker's order: bid = it bought YES, ask = it bought NO. */
  readonly takerBookSide: BookSideV2;
  readonly createdMs: number;
}
