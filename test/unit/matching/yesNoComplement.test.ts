import { OrderBook, complementTicks, fromYesPriceTicks, toYesTerms } from '../../../core/domain/matching';
import type { OrderAction, OutcomeSide } from '../../../core/domain/matching';

describe('YES/NO complement mapping', () => {
  it.each<[OutcomeSide, OrderAction, number, 'bid' | 'ask', number]>([
    ['yes', 'buy', 4300, 'bid', 4300],
    ['no', 'sell', 5700, 'bid', 4300],
    ['no', 'buy', 5700, 'ask', 4300],
    ['yes', 'sell', 4300, 'ask', 4300],
  ])('%s %s at %d ticks is a YES %s at %d', (side, action, own, bookSide, yes) => {
    expect(toYesTerms(side, action, own)).toEqual({ bookSide, yesPriceTicks: yes });
  });

  it('maps YES prices back to the order’s own terms', () => {
    expect(fromYesPriceTicks('yes', 4300)).toBe(4300);
    expect(fromYesPriceTicks('no', 4300)).toBe(5700);
    expect(complementTicks(1)).toBe(9999);
  });
});

describe('YES/NO complement in the book', () => {
  it('a NO bid at p rests as a YES ask at 1 − p and trades with a YES buyer', () => {
    const book = new OrderBook('m');
    book.place({ type: 'limit', orderId: 'no-bid', side: 'no', action: 'buy', priceTicks: 6000, quantity: 10, timeInForce: 'GTC' });
    expect(book.topOfBook('yes')).toEqual({ bid: null, ask: { priceTicks: 4000, quantity: 10, orders: 1 } });
    expect(book.topOfBook('no')).toEqual({ bid: { priceTicks: 6000, quantity: 10, orders: 1 }, ask: null });

    const result = book.place({ type: 'limit', orderId: 'yes-buy', side: 'yes', action: 'buy', priceTicks: 4000, quantity: 4, timeInForce: 'GTC' });
    expect(result.status).toBe('filled');
    const [taker, maker] = result.fills;
    expect(taker).toMatchObject({ orderId: 'yes-buy', liquidity: 'taker', side: 'yes', action: 'buy', priceTicks: 4000, yesPriceTicks: 4000, quantity: 4 });
    // The NO buyer's fill is reported at the NO price it asked for.
    expect(maker).toMatchObject({ orderId: 'no-bid', liquidity: 'maker', side: 'no', action: 'buy', priceTicks: 6000, yesPriceTicks: 4000, quantity: 4, remainingQuantity: 6 });
  });

  it('a NO buyer and a NO seller trade with each other through the YES book', () => {
    const book = new OrderBook('m');
    book.place({ type: 'limit', orderId: 'no-seller', side: 'no', action: 'sell', priceTicks: 3500, quantity: 5, timeInForce: 'GTC' });
    // Selling NO at 0.35 is a YES bid at 0.65.
    expect(book.bestBidTicks()).toBe(6500);
    const result = book.place({ type: 'limit', orderId: 'no-buyer', side: 'no', action: 'buy', priceTicks: 3600, quantity: 5, timeInForce: 'IOC' });
    expect(result.status).toBe('filled');
    // The buyer was willing to pay 0.36 but gets the resting 0.35: fills at the maker's price.
    expect(result.fills.map((f) => [f.orderId, f.priceTicks, f.yesPriceTicks])).toEqual([
      ['no-buyer', 3500, 6500],
      ['no-seller', 3500, 6500],
    ]);
  });

  it('a YES seller never trades with a NO buyer (both offer YES) but does with a NO seller', () => {
    const book = new OrderBook('m');
    book.place({ type: 'limit', orderId: 'yes-seller', side: 'yes', action: 'sell', priceTicks: 7000, quantity: 3, timeInForce: 'GTC' });
    // A NO buy at 0.30 is a YES ask at 0.70, the same side as the YES seller: no trade.
    const sameSide = book.place({ type: 'limit', orderId: 'no-30', side: 'no', action: 'buy', priceTicks: 3000, quantity: 3, timeInForce: 'IOC' });
    expect(sameSide.filledQuantity).toBe(0);
    expect(book.topOfBook().ask).toEqual({ priceTicks: 7000, quantity: 3, orders: 1 });
    // Selling NO at 0.30 is a YES bid at 0.70: it crosses.
    const crossing = book.place({ type: 'limit', orderId: 'no-sell', side: 'no', action: 'sell', priceTicks: 3000, quantity: 3, timeInForce: 'IOC' });
    expect(crossing.filledQuantity).toBe(3);
    expect(crossing.fills[0]).toMatchObject({ side: 'no', action: 'sell', priceTicks: 3000, yesPriceTicks: 7000 });
    expect(crossing.fills[1]).toMatchObject({ side: 'yes', action: 'sell', priceTicks: 7000 });
  });
});
