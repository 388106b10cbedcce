/**
 * The fake exchange's order books: one price-time book per market from the project's matching
 * engine (core/domain/matching OrderBook), with one order-id index across them, as
 * core's MatchingEngine keeps it, plus the one operation Kalshi has that the engine does not:
 * reducing a resting order in place.
 *
 * Kalshi's decrease (and an amend that only lowers the size at the same price) keeps the order's
 * place in its queue ("Amending a resting order preserves queue position only when the amendment
 * decreases size", Amend Order (V2), openapi.yaml 3.28.0; Decrease Order (V2)). The engine only
 * cancels and places, which sends an order to the back, so the fake lowers the order's `remaining`
 * and its level's `totalQuantity` itself (both public fields of core's RestingOrder and
 * PriceLevel, the same two the engine's own sweep lowers on a partial fill). Everything else is
 * the engine's.
 */
import { OrderBook } from '../../core/domain/matching/orderBook';
import type { RestingOrder } from '../../core/domain/matching/priceLevel';
import type { CancelResult, OrderRequest, PlaceResult, QueuePosition } from '../../core/domain/matching/types';

export class Books {
  private readonly books = new Map<string, OrderBook>();
  private readonly index = new Map<string, RestingOrder>();

  /** Creates the market's book if needed and returns it. */
  openMarket(marketId: string): OrderBook {
    let book = this.books.get(marketId);
    if (book === undefined) {
      book = new OrderBook(marketId, { orderIndex: this.index });
      this.books.set(marketId, book);
    }
    return book;
  }

  book(marketId: string): OrderBook | undefined {
    return this.books.get(marketId);
  }

  /** The caller checks the market exists (the exchange places only on its own markets). */
  place(marketId: string, request: OrderRequest): PlaceResult {
    return this.openMarket(marketId).place(request);
  }

  cancel(orderId: string): CancelResult {
    const book = this.bookOf(orderId);
    return book === undefined ? { ok: false, orderId, reason: 'unknown_order' } : book.cancel(orderId);
  }

  queuePosition(orderId: string): QueuePosition | null {
    return this.bookOf(orderId)?.queuePosition(orderId) ?? null;
  }

  /**
   * Takes `units` off a resting order where it stands: the orders behind it move up by that much,
   * its own place is kept. `units` must be below the order's remaining quantity (a reduction to
   * zero is a cancel). False when the order is not resting or `units` is out of range.
   */
  reduce(orderId: string, units: number): boolean {
    const order = this.index.get(orderId);
    if (order === undefined || !Number.isSafeInteger(units) || units <= 0 || units >= order.remaining) return false;
    order.remaining -= units;
    order.level.totalQuantity -= units;
    return true;
  }

  private bookOf(orderId: string): OrderBook | undefined {
    const owner = this.index.get(orderId)?.owner;
    return owner instanceof OrderBook ? owner : undefined;
  }
}
