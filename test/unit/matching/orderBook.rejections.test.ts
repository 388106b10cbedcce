import { OrderBook } from '../../../core/domain/matching';

describe('rejections', () => {
  const base = { type: 'limit' as const, side: 'yes' as const, action: 'buy' as const, timeInForce: 'GTC' as const };

  it.each([0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects quantity %p', (quantity) => {
    const book = new OrderBook('m');
    expect(book.place({ ...base, orderId: 'x', priceTicks: 5000, quantity })).toMatchObject({ status: 'rejected', reason: 'invalid_quantity' });
    expect(book.restingOrderCount).toBe(0);
  });

  it.each([0, 10_000, -100, 4300.5, Number.NaN])('rejects price %p ticks', (priceTicks) => {
    const book = new OrderBook('m');
    expect(book.place({ ...base, orderId: 'x', priceTicks, quantity: 1 })).toMatchObject({ status: 'rejected', reason: 'invalid_price' });
  });

  it('rejects an invalid market protection price', () => {
    const book = new OrderBook('m');
    const result = book.place({ type: 'market', orderId: 'x', side: 'no', action: 'buy', quantity: 1, protectionPriceTicks: 10_000 });
    expect(result).toMatchObject({ status: 'rejected', reason: 'invalid_price' });
  });

  it('rejects a duplicate id of a resting order without touching the book', () => {
    const book = new OrderBook('m');
    book.place({ ...base, orderId: 'dup', priceTicks: 5000, quantity: 1 });
    book.place({ type: 'limit', orderId: 'ask', side: 'yes', action: 'sell', priceTicks: 5100, quantity: 1, timeInForce: 'GTC' });
    const before = book.depth();
    const result = book.place({ type: 'limit', orderId: 'dup', side: 'yes', action: 'buy', priceTicks: 5100, quantity: 1, timeInForce: 'GTC' });
    expect(result).toMatchObject({ status: 'rejected', reason: 'duplicate_order_id', fills: [] });
    expect(book.depth()).toEqual(before);
  });

  it('numbers every operation in order', () => {
    const book = new OrderBook('m');
    const a = book.place({ ...base, orderId: 'a', priceTicks: 5000, quantity: 1 });
    const b = book.place({ ...base, orderId: 'a', priceTicks: 5000, quantity: 1 });
    const c = book.cancel('a');
    expect([a.sequence, b.sequence, c.ok ? c.sequence : -1]).toEqual([1, 2, 3]);
  });
});

describe('self-trade', () => {
  it('is not prevented: the book has no owners, so crossing orders of one account trade', () => {
    const book = new OrderBook('m');
    book.place({ type: 'limit', orderId: 'acct1-sell', side: 'yes', action: 'sell', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' });
    const result = book.place({ type: 'limit', orderId: 'acct1-buy', side: 'yes', action: 'buy', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' });
    expect(result.status).toBe('filled');
  });
});
