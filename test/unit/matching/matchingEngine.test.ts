import { MatchingEngine } from '../../../core/domain/matching';

describe('MatchingEngine', () => {
  it('keeps one book per market and never matches across markets', () => {
    const engine = new MatchingEngine();
    engine.openMarket('m1');
    engine.openMarket('m2');
    engine.place('m1', { type: 'limit', orderId: 'ask', side: 'yes', action: 'sell', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' });
    const other = engine.place('m2', { type: 'limit', orderId: 'bid', side: 'yes', action: 'buy', priceTicks: 6000, quantity: 1, timeInForce: 'GTC' });
    expect(other.status).toBe('resting');
    expect(engine.marketIds()).toEqual(['m1', 'm2']);
    expect(engine.openMarket('m1')).toBe(engine.book('m1'));
  });

  it('cancels and reports queue positions by order id alone', () => {
    const engine = new MatchingEngine();
    engine.openMarket('m1');
    engine.openMarket('m2');
    engine.place('m2', { type: 'limit', orderId: 'first', side: 'no', action: 'buy', priceTicks: 3000, quantity: 4, timeInForce: 'GTC' });
    engine.place('m2', { type: 'limit', orderId: 'second', side: 'yes', action: 'sell', priceTicks: 7000, quantity: 2, timeInForce: 'GTC' });
    expect(engine.marketOf('second')).toBe('m2');
    expect(engine.queuePosition('second')).toMatchObject({ ordersAhead: 1, quantityAhead: 4 });
    expect(engine.cancel('first')).toMatchObject({ ok: true, canceledQuantity: 4 });
    expect(engine.queuePosition('second')).toMatchObject({ ordersAhead: 0, quantityAhead: 0 });
    expect(engine.getOrder('second')).toMatchObject({ side: 'yes', action: 'sell', priceTicks: 7000 });
    expect(engine.cancel('first')).toMatchObject({ ok: false, reason: 'unknown_order' });
  });

  it('forgets orders once filled', () => {
    const engine = new MatchingEngine();
    engine.openMarket('m');
    engine.place('m', { type: 'limit', orderId: 'maker', side: 'yes', action: 'buy', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' });
    engine.place('m', { type: 'market', orderId: 'taker', side: 'yes', action: 'sell', quantity: 1 });
    expect(engine.marketOf('maker')).toBeUndefined();
    expect(engine.cancel('maker')).toMatchObject({ ok: false });
  });

  it('rejects ids already resting in another market, and unknown markets', () => {
    const engine = new MatchingEngine();
    engine.openMarket('m1');
    engine.openMarket('m2');
    engine.place('m1', { type: 'limit', orderId: 'x', side: 'yes', action: 'buy', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' });
    expect(engine.place('m2', { type: 'limit', orderId: 'x', side: 'yes', action: 'buy', priceTicks: 5000, quantity: 1, timeInForce: 'GTC' })).toMatchObject({
      status: 'rejected',
      reason: 'duplicate_order_id',
    });
    expect(engine.place('nope', { type: 'market', orderId: 'y', side: 'yes', action: 'buy', quantity: 1 })).toMatchObject({
      status: 'rejected',
      reason: 'unknown_market',
    });
    // A book asked directly about another book's order does not see it.
    expect(engine.book('m2')!.cancel('x')).toMatchObject({ ok: false });
    expect(engine.book('m2')!.queuePosition('x')).toBeNull();
  });
});
