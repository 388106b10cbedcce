import { OrderBook, ticksToPrice } from '../../../core/domain/matching';
import type { LimitOrderRequest, OrderAction, OutcomeSide } from '../../../core/domain/matching';

function limit(orderId: string, side: OutcomeSide, action: OrderAction, ticks: number, quantity: number): LimitOrderRequest {
  return { type: 'limit', orderId, side, action, priceTicks: ticks, quantity, timeInForce: 'GTC' };
}

function sampleBook(): OrderBook {
  const book = new OrderBook('m');
  book.place(limit('b1', 'yes', 'buy', 4000, 10));
  book.place(limit('b2', 'no', 'sell', 6000, 5)); // YES bid 0.40
  book.place(limit('b3', 'yes', 'buy', 3800, 7));
  book.place(limit('a1', 'yes', 'sell', 4300, 4));
  book.place(limit('a2', 'no', 'buy', 5500, 6)); // YES ask 0.45
  book.place(limit('a3', 'no', 'buy', 5000, 1)); // YES ask 0.50
  return book;
}

describe('book snapshots', () => {
  it('depth in YES terms, best level first, with quantity and order counts', () => {
    expect(sampleBook().depth()).toEqual({
      bids: [
        { priceTicks: 4000, quantity: 15, orders: 2 },
        { priceTicks: 3800, quantity: 7, orders: 1 },
      ],
      asks: [
        { priceTicks: 4300, quantity: 4, orders: 1 },
        { priceTicks: 4500, quantity: 6, orders: 1 },
        { priceTicks: 5000, quantity: 1, orders: 1 },
      ],
    });
  });

  it('the NO view: NO bids are YES asks at 1 − p, NO asks are YES bids at 1 − p', () => {
    expect(sampleBook().depth(Infinity, 'no')).toEqual({
      bids: [
        { priceTicks: 5700, quantity: 4, orders: 1 },
        { priceTicks: 5500, quantity: 6, orders: 1 },
        { priceTicks: 5000, quantity: 1, orders: 1 },
      ],
      asks: [
        { priceTicks: 6000, quantity: 15, orders: 2 },
        { priceTicks: 6200, quantity: 7, orders: 1 },
      ],
    });
  });

  it('limits the number of levels', () => {
    const depth = sampleBook().depth(1);
    expect(depth.bids).toHaveLength(1);
    expect(depth.asks).toEqual([{ priceTicks: 4300, quantity: 4, orders: 1 }]);
  });

  it('top of book in both views', () => {
    const book = sampleBook();
    expect(book.topOfBook()).toEqual({
      bid: { priceTicks: 4000, quantity: 15, orders: 2 },
      ask: { priceTicks: 4300, quantity: 4, orders: 1 },
    });
    expect(book.topOfBook('no')).toEqual({
      bid: { priceTicks: 5700, quantity: 4, orders: 1 },
      ask: { priceTicks: 6000, quantity: 15, orders: 2 },
    });
  });

  it('mid price and spread; the mid may fall on a half tick and prints exactly', () => {
    const book = sampleBook();
    expect(book.midPriceTicks()).toBe(4150);
    expect(book.midPriceTicks('no')).toBe(5850);
    expect(book.spreadTicks()).toBe(300);
    book.place(limit('odd', 'yes', 'buy', 4001, 1));
    expect(book.midPriceTicks()).toBe(4150.5);
    expect(ticksToPrice(book.midPriceTicks()!)).toBe('0.41505');
  });

  it('an empty side gives nulls and empty lists', () => {
    const book = new OrderBook('m');
    expect(book.topOfBook()).toEqual({ bid: null, ask: null });
    expect(book.depth()).toEqual({ bids: [], asks: [] });
    expect(book.midPriceTicks()).toBeNull();
    expect(book.spreadTicks()).toBeNull();
    book.place(limit('only-bid', 'yes', 'buy', 100, 1));
    expect(book.midPriceTicks()).toBeNull();
  });

  it('lists resting orders bids first, best first, FIFO within a level', () => {
    expect(sampleBook().restingOrders().map((o) => o.orderId)).toEqual(['b1', 'b2', 'b3', 'a1', 'a2', 'a3']);
  });

  it('handles the extreme ticks 0.0001 and 0.9999', () => {
    const book = new OrderBook('m');
    book.place(limit('lo', 'yes', 'buy', 1, 1));
    book.place(limit('hi', 'yes', 'sell', 9999, 1));
    expect(book.topOfBook()).toEqual({
      bid: { priceTicks: 1, quantity: 1, orders: 1 },
      ask: { priceTicks: 9999, quantity: 1, orders: 1 },
    });
    expect(book.place({ type: 'market', orderId: 'm', side: 'yes', action: 'buy', quantity: 1 }).fills[0]?.priceTicks).toBe(9999);
    expect(book.place({ type: 'market', orderId: 'm2', side: 'no', action: 'buy', quantity: 1 }).fills[0]?.priceTicks).toBe(9999);
  });
});
