import { quoteOf, unavailableQuote, NO_ACTIVITY } from '../../core/domain/quotes';

describe('quoteOf', () => {
  it('gives the NO side as the YES side at the complement, with the same sizes', () => {
    const quote = quoteOf({ bids: [{ price: '0.4300', quantity: '12' }], asks: [{ price: '0.4700', quantity: '9' }] }, { ...NO_ACTIVITY, lastPrice: '0.45' }, new Date(5));
    expect(quote).toMatchObject({
      yesBid: '0.4300', yesAsk: '0.4700', noBid: '0.53', noAsk: '0.57',
      yesBidSize: '12', yesAskSize: '9', noBidSize: '9', noAskSize: '12', lastPrice: '0.45', stale: false,
    });
    expect(quote.asOf).toEqual(new Date(5));
  });

  it('leaves an empty side null, and a venue that cannot be asked stale without a book or a time', () => {
    expect(quoteOf({ bids: [], asks: [{ price: '0.2', quantity: '1' }] }, NO_ACTIVITY, new Date(0))).toMatchObject({ yesBid: null, noAsk: null, noBid: '0.8', yesBidSize: null, noAskSize: null });
    expect(unavailableQuote({ ...NO_ACTIVITY, volume: '5' })).toMatchObject({ yesBid: null, yesAsk: null, noBid: null, noAsk: null, volume: '5', asOf: null, stale: true });
  });
});
