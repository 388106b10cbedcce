/**
 * Many markets, one book each, with one order-id index across them so a cancel or
 * a queue-position query needs only the order id (as on Kalshi and Polymarket).
 */
import { OrderBook } from './orderBook';
import type { RestingOrder } from './priceLevel';
import type { CancelResult, OrderRequest, PlaceResult, QueuePosition, RestingOrderView } from './types';

export class MatchingEngine {
  private readonly books = new Map<string, OrderBook>();
  private readonly orderIndex = new Map<string, RestingOrder>();

  /** Creates the market's book if needed and returns it. */
  openMarket(marketId: string): OrderBook {
    let book = this.books.get(marketId);
    if (book === undefined) {
      book = new OrderBook(marketId, { orderIndex: this.orderIndex });
      this.books.set(marketId, book);
    }
    return book;
  }

  book(marketId: string): OrderBook | undefined {
    return this.books.get(marketId);
  }

  marketIds(): string[] {
    return [...this.books.keys()];
  }

  /** Order ids must be unique among resting orders of all markets; unknown markets are rejected (sequence 0). */
  place(marketId: string, request: OrderRequest): PlaceResult {
    const book = this.books.get(marketId);
    if (book === undefined) {
      return {
        sequence: 0,
        orderId: request.orderId,
        status: 'rejected',
        filledQuantity: 0,
        restingQuantity: 0,
        canceledQuantity: 0,
        reason: 'unknown_market',
        fills: [],
      };
    }
    return book.place(request);
  }

  cancel(orderId: string): CancelResult {
    const book = this.bookOf(orderId);
    return book === undefined ? { ok: false, orderId, reason: 'unknown_order' } : book.cancel(orderId);
  }

  /** Shrinks a resting order where it stands (OrderBook.reduce). */
  reduce(orderId: string, remaining: number): boolean {
    return this.bookOf(orderId)?.reduce(orderId, remaining) ?? false;
  }

  queuePosition(orderId: string): QueuePosition | null {
    return this.bookOf(orderId)?.queuePosition(orderId) ?? null;
  }

  getOrder(orderId: string): RestingOrderView | null {
    return this.bookOf(orderId)?.getOrder(orderId) ?? null;
  }

  /** The market a resting order is in, if it is still resting. */
  marketOf(orderId: string): string | undefined {
    return this.bookOf(orderId)?.marketId;
  }

  private bookOf(orderId: string): OrderBook | undefined {
    const owner = this.orderIndex.get(orderId)?.owner;
    return owner instanceof OrderBook ? owner : undefined;
  }
}
