/**
 * Public types of the order book. Every price is an integer number of ticks
 * (1 tick = $0.0001, see units.ts) and every quantity an integer number of the
 * market's base units; decimal strings exist only at the boundary.
 */

/** Which outcome token the order trades. */
export type OutcomeSide = 'yes' | 'no';

/** Whether the order buys or sells that outcome. */
export type OrderAction = 'buy' | 'sell';

/** Side of the single YES-terms book an order lands on. */
export type BookSide = 'bid' | 'ask';

/** GTC rests the remainder, IOC cancels it, FOK fills entirely or not at all. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

export type Liquidity = 'maker' | 'taker';

export interface LimitOrderRequest {
  readonly type: 'limit';
  /** Caller-chosen, unique among the orders resting in the engine. */
  readonly orderId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  /** Limit price in the order's own terms (a NO order gives the NO price), in ticks. */
  readonly priceTicks: number;
  /** Base units (whole contracts on Kalshi, 0.01 shares on Polymarket). */
  readonly quantity: number;
  readonly timeInForce: TimeInForce;
}

export interface MarketOrderRequest {
  readonly type: 'market';
  readonly orderId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly quantity: number;
  /** IOC (default) fills what it can; FOK fills everything or nothing. A market order never rests. */
  readonly timeInForce?: 'IOC' | 'FOK';
  /**
   * Worst acceptable price in the order's own terms (highest for a buy, lowest for a sell).
   * Without it a market order walks the whole book.
   */
  readonly protectionPriceTicks?: number;
}

export type OrderRequest = LimitOrderRequest | MarketOrderRequest;

/**
 * One leg of a match. Every match yields two legs (taker first, then maker) that
 * share a matchId; prices are reported in each order's own terms.
 */
export interface FillEvent {
  /** Increases by one per match within a book; unique per book, not across markets. */
  readonly matchId: number;
  readonly orderId: string;
  readonly counterpartyOrderId: string;
  readonly liquidity: Liquidity;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  /** Execution price in this order's own terms (a NO buyer sees the NO price). */
  readonly priceTicks: number;
  /** The same execution price in YES terms. */
  readonly yesPriceTicks: number;
  readonly quantity: number;
  /** This order's unfilled quantity right after this fill. */
  readonly remainingQuantity: number;
}

/**
 * Final state of the order after the operation:
 * - resting: a remainder rests on the book (it may also have filled partly);
 * - filled: fully filled;
 * - canceled: the unfilled remainder was dropped (IOC, FOK, market order);
 * - rejected: the book did not accept the request (nothing happened).
 */
export type PlaceStatus = 'resting' | 'filled' | 'canceled' | 'rejected';

export type CancelReason = 'ioc_remainder' | 'fok_unfillable' | 'market_remainder';

export type RejectReason = 'duplicate_order_id' | 'invalid_price' | 'invalid_quantity' | 'unknown_market';

export interface PlaceResult {
  /** Operation sequence number within the book (every place and cancel takes one). */
  readonly sequence: number;
  readonly orderId: string;
  readonly status: PlaceStatus;
  readonly filledQuantity: number;
  readonly restingQuantity: number;
  readonly canceledQuantity: number;
  /** Present when status is canceled or rejected. */
  readonly reason?: CancelReason | RejectReason;
  /** Both legs of every match this order took part in, in match order. */
  readonly fills: readonly FillEvent[];
}

export type CancelResult =
  | {
      readonly ok: true;
      readonly sequence: number;
      readonly orderId: string;
      /** The open quantity that was removed from the book. */
      readonly canceledQuantity: number;
    }
  | { readonly ok: false; readonly orderId: string; readonly reason: 'unknown_order' };

/** A resting order as the caller sees it (own terms and YES terms). */
export interface RestingOrderView {
  readonly orderId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly priceTicks: number;
  readonly yesPriceTicks: number;
  readonly bookSide: BookSide;
  readonly remainingQuantity: number;
}

export interface QueuePosition extends RestingOrderView {
  /** Orders at the same price level that will fill before this one. */
  readonly ordersAhead: number;
  /** Their total open quantity (what Kalshi's queue_position reports, in base units). */
  readonly quantityAhead: number;
}

export interface BookLevel {
  readonly priceTicks: number;
  readonly quantity: number;
  readonly orders: number;
}

/** Best level first on each side. */
export interface BookDepth {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

export interface TopOfBook {
  readonly bid: BookLevel | null;
  readonly ask: BookLevel | null;
}
