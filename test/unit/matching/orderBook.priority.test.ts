import { OrderBook } from '../../../core/domain/matching';
import type { LimitOrderRequest, OrderAction, OutcomeSide, TimeInForce } from '../../../core/domain/matching';

/** Prices in tests are written in cents for readability: 43 -> 4300 ticks. */
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

describe('price-time priority', () => {
  it('fills the best price first, then earlier orders first within a price', () => {
    const book = new OrderBook('m');
    book.place(limit('a-45-first', 'yes', 'sell', 45, 5));
    book.place(limit('b-44', 'yes', 'sell', 44, 5));
    book.place(limit('c-45-second', 'yes', 'sell', 45, 5));
    book.place(limit('d-46', 'yes', 'sell', 46, 5));

    const result = book.place(limit('taker', 'yes', 'buy', 46, 12, 'IOC'));
    const makerLegs = result.fills.filter((f) => f.liquidity === 'maker');
    expect(makerLegs.map((f) => [f.orderId, f.priceTicks, f.quantity])).toEqual([
      ['b-44', 4400, 5],
      ['a-45-first', 4500, 5],
      ['c-45-second', 4500, 2],
    ]);
    expect(book.getOrder('c-45-second')?.remainingQuantity).toBe(3);
    expect(book.getOrder('d-46')?.remainingQuantity).toBe(5);
  });

  it('bids: the highest price first, FIFO within a price, fills at the resting price', () => {
    const book = new OrderBook('m');
    book.place(limit('low', 'yes', 'buy', 40, 5));
    book.place(limit('high-1', 'yes', 'buy', 42, 5));
    book.place(limit('high-2', 'no', 'sell', 58, 5)); // a YES bid at 0.42, arriving later
    const result = book.place(limit('seller', 'yes', 'sell', 39, 8, 'IOC'));
    expect(result.fills.filter((f) => f.liquidity === 'taker').map((f) => [f.counterpartyOrderId, f.priceTicks, f.quantity])).toEqual([
      ['high-1', 4200, 5],
      ['high-2', 4200, 3],
    ]);
    // The NO seller's leg is reported in NO terms.
    expect(result.fills.find((f) => f.orderId === 'high-2')).toMatchObject({ priceTicks: 5800, remainingQuantity: 2 });
  });

  it('pairs every match as a taker leg and a maker leg sharing a match id', () => {
    const book = new OrderBook('m');
    book.place(limit('m1', 'yes', 'sell', 50, 1));
    book.place(limit('m2', 'yes', 'sell', 51, 1));
    const { fills } = book.place(limit('t', 'yes', 'buy', 51, 2, 'IOC'));
    expect(fills.map((f) => [f.matchId, f.liquidity, f.orderId, f.counterpartyOrderId])).toEqual([
      [1, 'taker', 't', 'm1'],
      [1, 'maker', 'm1', 't'],
      [2, 'taker', 't', 'm2'],
      [2, 'maker', 'm2', 't'],
    ]);
    expect(fills.map((f) => f.remainingQuantity)).toEqual([1, 0, 0, 0]);
  });

  it('does not trade when prices do not cross', () => {
    const book = new OrderBook('m');
    book.place(limit('ask', 'yes', 'sell', 55, 5));
    const result = book.place(limit('bid', 'yes', 'buy', 54, 5));
    expect(result).toMatchObject({ status: 'resting', filledQuantity: 0, restingQuantity: 5, fills: [] });
    expect(book.spreadTicks()).toBe(100);
  });
});

describe('partial fills', () => {
  it('a taker larger than the book fills what crosses and rests the rest (GTC)', () => {
    const book = new OrderBook('m');
    book.place(limit('ask-1', 'yes', 'sell', 50, 3));
    book.place(limit('ask-2', 'yes', 'sell', 52, 4));
    book.place(limit('ask-far', 'yes', 'sell', 60, 4));
    const result = book.place(limit('buyer', 'yes', 'buy', 55, 10));
    expect(result).toMatchObject({ status: 'resting', filledQuantity: 7, restingQuantity: 3, canceledQuantity: 0 });
    expect(book.topOfBook()).toEqual({
      bid: { priceTicks: 5500, quantity: 3, orders: 1 },
      ask: { priceTicks: 6000, quantity: 4, orders: 1 },
    });
  });

  it('a resting order partly filled keeps its place at the head of the queue', () => {
    const book = new OrderBook('m');
    book.place(limit('first', 'yes', 'buy', 50, 10));
    book.place(limit('second', 'yes', 'buy', 50, 10));
    book.place(limit('s1', 'yes', 'sell', 50, 4, 'IOC'));
    expect(book.getOrder('first')?.remainingQuantity).toBe(6);
    const next = book.place(limit('s2', 'yes', 'sell', 50, 7, 'IOC'));
    expect(next.fills.filter((f) => f.liquidity === 'maker').map((f) => [f.orderId, f.quantity, f.remainingQuantity])).toEqual([
      ['first', 6, 0],
      ['second', 1, 9],
    ]);
    expect(book.getOrder('first')).toBeNull();
  });
});
