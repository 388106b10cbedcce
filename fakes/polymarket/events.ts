/**
 * What happens on the Polymarket fake's exchange, as the user channel (userChannel.ts), the
 * settlement clock (settlement.ts) and the heartbeat switch (heartbeats.ts) need to hear it. The
 * kinds are the user channel's (docs.polymarket.com "User Channel", market-data/websocket/
 * user-channel, and its AsyncAPI asyncapi-user.json): an `order` message typed PLACEMENT (an order
 * accepted), UPDATE (some of a resting order matched) or CANCELLATION (an order left the book
 * unfilled: cancelled, expired, or cancelled by a missed heartbeat); a `trade` message for a match
 * (MATCHED) and for every later settlement status (MINED, CONFIRMED, RETRYING, FAILED).
 */
export type OrderEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION';

/** Generic over the exchange's order and trade records, so that exchange.ts alone names them (no import cycle). */
export type ExchangeEvent<Order, Trade> =
  | { readonly kind: 'order'; readonly type: OrderEventType; readonly order: Order }
  | { readonly kind: 'trade'; readonly trade: Trade };

/** The exchange's listeners, called in order, synchronously, after each change. */
export class ExchangeEvents<Order, Trade> {
  private readonly listeners: ((event: ExchangeEvent<Order, Trade>) => void)[] = [];

  on(listener: (event: ExchangeEvent<Order, Trade>) => void): void {
    this.listeners.push(listener);
  }

  emit(event: ExchangeEvent<Order, Trade>): void {
    for (const listener of this.listeners) listener(event);
  }
}
