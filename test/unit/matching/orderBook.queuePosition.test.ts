import { OrderBook } from '../../../core/domain/matching';
import type { LimitOrderRequest, OrderAction, OutcomeSide, TimeInForce } from '../../../core/domain/matching';

function limit(
  orderId: string,
  side: OutcomeSide,
  action: OrderAction,
  cents: number,
  quantity: number,
  timeInForce: TimeInForce = 'GTC',
): LimitOrderRequest {
  return { type: 'limit', orderId, side, action, priceTicks: cents * 100, quantity, timeInForce };
}

function ahead(book: OrderBook, orderId: string): [number, number] | null {
  const position = book.queuePosition(orderId);
  return position === null ? null : [position.ordersAhead, position.quantityAhead];
}

describe('queue position', () => {
  function threeAtOneLevel(): OrderBook {
    const book = new OrderBook('m');
    book.place(limit('a', 'yes', 'buy', 40, 10));
    book.place(limit('b', 'no', 'sell', 60, 20)); // also a YES bid at 0.40
    book.place(limit('c', 'yes', 'buy', 40, 30));
    book.place(limit('other-level', 'yes', 'buy', 41, 99));
    return book;
  }

  it('counts orders and quantity ahead at the same price only', () => {
    const book = threeAtOneLevel();
    expect(ahead(book, 'a')).toEqual([0, 0]);
    expect(ahead(book, 'b')).toEqual([1, 10]);
    expect(ahead(book, 'c')).toEqual([2, 30]);
    expect(ahead(book, 'other-level')).toEqual([0, 0]);
  });

  it('describes the order in its own terms and in YES terms', () => {
    const book = threeAtOneLevel();
    expect(book.queuePosition('b')).toEqual({
      orderId: 'b',
      side: 'no',
      action: 'sell',
      priceTicks: 6000,
      yesPriceTicks: 4000,
      bookSide: 'bid',
      remainingQuantity: 20,
      ordersAhead: 1,
      quantityAhead: 10,
    });
  });

  it('moves up when an order ahead is canceled, not when one behind is', () => {
    const book = threeAtOneLevel();
    book.cancel('c');
    expect(ahead(book, 'b')).toEqual([1, 10]);
    book.cancel('a');
    expect(ahead(book, 'b')).toEqual([0, 0]);
  });

  it('moves up as the orders ahead fill, partly and then fully', () => {
    const book = threeAtOneLevel();
    book.place(limit('hit-other', 'yes', 'sell', 41, 99, 'IOC')); // clears the better level only
    expect(ahead(book, 'c')).toEqual([2, 30]);
    book.place(limit('s1', 'yes', 'sell', 40, 4, 'IOC'));
    expect(ahead(book, 'c')).toEqual([2, 26]);
    book.place(limit('s2', 'yes', 'sell', 40, 16, 'IOC'));
    expect(ahead(book, 'c')).toEqual([1, 10]);
    expect(book.queuePosition('b')?.remainingQuantity).toBe(10);
    book.place(limit('s3', 'yes', 'sell', 40, 10, 'IOC'));
    expect(ahead(book, 'c')).toEqual([0, 0]);
    expect(book.queuePosition('b')).toBeNull();
  });

  it('a new order joins the back of its level', () => {
    const book = threeAtOneLevel();
    book.place(limit('d', 'yes', 'buy', 40, 1));
    expect(ahead(book, 'd')).toEqual([3, 60]);
  });

  it('is null for unknown, filled and canceled orders', () => {
    const book = threeAtOneLevel();
    expect(book.queuePosition('nope')).toBeNull();
    book.cancel('a');
    expect(book.queuePosition('a')).toBeNull();
  });
});

describe('cancel', () => {
  it('removes the open quantity and reports it; the level disappears when empty', () => {
    const book = new OrderBook('m');
    book.place(limit('a', 'yes', 'sell', 60, 5));
    book.place(limit('b', 'yes', 'sell', 61, 5));
    book.place(limit('buyer', 'yes', 'buy', 60, 2, 'IOC'));
    expect(book.cancel('a')).toMatchObject({ ok: true, orderId: 'a', canceledQuantity: 3 });
    expect(book.bestAskTicks()).toBe(6100);
    expect(book.restingOrderCount).toBe(1);
  });

  it('answers unknown_order for unknown, already canceled and fully filled orders', () => {
    const book = new OrderBook('m');
    book.place(limit('a', 'yes', 'sell', 60, 5));
    book.place(limit('b', 'yes', 'sell', 60, 5));
    expect(book.cancel('missing')).toEqual({ ok: false, orderId: 'missing', reason: 'unknown_order' });
    book.cancel('a');
    expect(book.cancel('a')).toMatchObject({ ok: false, reason: 'unknown_order' });
    book.place(limit('buyer', 'yes', 'buy', 60, 5, 'IOC'));
    expect(book.cancel('b')).toMatchObject({ ok: false, reason: 'unknown_order' });
  });

  it('of the best level exposes the next best level', () => {
    const book = new OrderBook('m');
    book.place(limit('b1', 'yes', 'buy', 30, 1));
    book.place(limit('b2', 'yes', 'buy', 35, 1));
    book.place(limit('b3', 'yes', 'buy', 1, 1));
    book.cancel('b2');
    expect(book.bestBidTicks()).toBe(3000);
    book.cancel('b1');
    expect(book.bestBidTicks()).toBe(100);
    book.cancel('b3');
    expect(book.bestBidTicks()).toBeNull();
  });

  it('lets an id be reused once its order has left the book', () => {
    const book = new OrderBook('m');
    book.place(limit('x', 'yes', 'buy', 30, 1));
    book.cancel('x');
    expect(book.place(limit('x', 'yes', 'buy', 31, 1)).status).toBe('resting');
  });
});
