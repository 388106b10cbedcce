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

/** Two YES asks (0.50 x3, 0.52 x4) and one YES bid (0.45 x5). */
function bookWithLiquidity(): OrderBook {
  const book = new OrderBook('m');
  book.place(limit('ask-50', 'yes', 'sell', 50, 3));
  book.place(limit('ask-52', 'no', 'buy', 48, 4)); // YES ask at 0.52
  book.place(limit('bid-45', 'yes', 'buy', 45, 5));
  return book;
}

describe('IOC', () => {
  it('fills what crosses and cancels the remainder instead of resting it', () => {
    const book = bookWithLiquidity();
    const result = book.place(limit('ioc', 'yes', 'buy', 51, 10, 'IOC'));
    expect(result).toMatchObject({ status: 'canceled', reason: 'ioc_remainder', filledQuantity: 3, restingQuantity: 0, canceledQuantity: 7 });
    expect(book.getOrder('ioc')).toBeNull();
    expect(book.bestBidTicks()).toBe(4500);
  });

  it('is filled, not canceled, when it fills completely', () => {
    const book = bookWithLiquidity();
    expect(book.place(limit('ioc', 'yes', 'buy', 50, 3, 'IOC'))).toMatchObject({ status: 'filled', canceledQuantity: 0 });
  });

  it('cancels everything when nothing crosses, leaving the book unchanged', () => {
    const book = bookWithLiquidity();
    const before = book.depth();
    const result = book.place(limit('ioc', 'yes', 'buy', 49, 2, 'IOC'));
    expect(result).toMatchObject({ status: 'canceled', filledQuantity: 0, canceledQuantity: 2, fills: [] });
    expect(book.depth()).toEqual(before);
  });
});

describe('FOK', () => {
  it('kills the whole order, with no fill at all, when the crossing quantity is short', () => {
    const book = bookWithLiquidity();
    const before = book.depth();
    // 7 are available up to 0.52 but 8 are wanted: nothing may trade, not even the first 7.
    const result = book.place(limit('fok', 'yes', 'buy', 52, 8, 'FOK'));
    expect(result).toMatchObject({ status: 'canceled', reason: 'fok_unfillable', filledQuantity: 0, canceledQuantity: 8, fills: [] });
    expect(book.depth()).toEqual(before);
    expect(book.queuePosition('ask-50')).toMatchObject({ remainingQuantity: 3 });
  });

  it('only counts liquidity within its limit price', () => {
    const book = bookWithLiquidity();
    expect(book.place(limit('fok', 'yes', 'buy', 51, 4, 'FOK')).status).toBe('canceled');
    expect(book.place(limit('fok2', 'yes', 'buy', 51, 3, 'FOK')).status).toBe('filled');
  });

  it('fills completely across several levels when it can', () => {
    const book = bookWithLiquidity();
    const result = book.place(limit('fok', 'yes', 'buy', 52, 7, 'FOK'));
    expect(result).toMatchObject({ status: 'filled', filledQuantity: 7 });
    expect(result.fills.filter((f) => f.liquidity === 'taker').map((f) => [f.priceTicks, f.quantity])).toEqual([
      [5000, 3],
      [5200, 4],
    ]);
    expect(book.bestAskTicks()).toBeNull();
  });

  it('works on the NO side: a FOK NO buy takes YES bids', () => {
    const book = bookWithLiquidity();
    // Buying NO at up to 0.55 = selling YES down to 0.45; the YES bid at 0.45 has 5.
    expect(book.place(limit('no-fok', 'no', 'buy', 55, 6, 'FOK')).status).toBe('canceled');
    const result = book.place(limit('no-fok-2', 'no', 'buy', 55, 5, 'FOK'));
    expect(result.status).toBe('filled');
    expect(result.fills[0]).toMatchObject({ side: 'no', action: 'buy', priceTicks: 5500, yesPriceTicks: 4500 });
  });
});

describe('GTC', () => {
  it('rests a non-crossing order whole and a crossing one’s remainder', () => {
    const book = bookWithLiquidity();
    expect(book.place(limit('rest', 'yes', 'buy', 46, 2))).toMatchObject({ status: 'resting', restingQuantity: 2 });
    expect(book.place(limit('cross', 'yes', 'buy', 50, 5))).toMatchObject({ status: 'resting', filledQuantity: 3, restingQuantity: 2 });
    expect(book.bestBidTicks()).toBe(5000);
  });
});

describe('market orders', () => {
  it('walk the book and never rest', () => {
    const book = bookWithLiquidity();
    const result = book.place({ type: 'market', orderId: 'mkt', side: 'yes', action: 'buy', quantity: 10 });
    expect(result).toMatchObject({ status: 'canceled', reason: 'market_remainder', filledQuantity: 7, canceledQuantity: 3 });
    expect(book.getOrder('mkt')).toBeNull();
    expect(book.bestAskTicks()).toBeNull();
    expect(book.bestBidTicks()).toBe(4500);
  });

  it('are filled when the book has enough', () => {
    const book = bookWithLiquidity();
    const result = book.place({ type: 'market', orderId: 'mkt', side: 'yes', action: 'sell', quantity: 5 });
    expect(result).toMatchObject({ status: 'filled', filledQuantity: 5 });
  });

  it('stop at the protection price, given in the order’s own terms', () => {
    const book = bookWithLiquidity();
    // Buying NO means taking YES bids; a NO protection of 0.54 means YES no lower than 0.46.
    const blocked = book.place({ type: 'market', orderId: 'no-mkt', side: 'no', action: 'buy', quantity: 5, protectionPriceTicks: 5400 });
    expect(blocked).toMatchObject({ status: 'canceled', filledQuantity: 0, canceledQuantity: 5 });
    const buy = book.place({ type: 'market', orderId: 'yes-mkt', side: 'yes', action: 'buy', quantity: 5, protectionPriceTicks: 5000 });
    expect(buy).toMatchObject({ filledQuantity: 3, canceledQuantity: 2 });
  });

  it('with FOK fill everything or nothing', () => {
    const book = bookWithLiquidity();
    const before = book.depth();
    const killed = book.place({ type: 'market', orderId: 'm1', side: 'yes', action: 'buy', quantity: 8, timeInForce: 'FOK' });
    expect(killed).toMatchObject({ status: 'canceled', reason: 'fok_unfillable', filledQuantity: 0 });
    expect(book.depth()).toEqual(before);
    expect(book.place({ type: 'market', orderId: 'm2', side: 'yes', action: 'buy', quantity: 7, timeInForce: 'FOK' }).status).toBe('filled');
  });

  it('on an empty book are canceled with no fills', () => {
    const book = new OrderBook('m');
    expect(book.place({ type: 'market', orderId: 'm', side: 'no', action: 'sell', quantity: 1 })).toMatchObject({
      status: 'canceled',
      filledQuantity: 0,
      canceledQuantity: 1,
      fills: [],
    });
  });
});
