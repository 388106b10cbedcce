import Decimal from 'decimal.js';
import { SimVenue } from '../../../core/venues/sim';
import type { OrderBookView } from '../../../core/venues/venue';
import { accepted, fixedClock, KALSHI_MARKETS, kalshiVenue, order, POLYMARKET_MARKETS, polymarketVenue } from './simVenueFixtures';

const FED = 'FED-CUT-DEC';

function totalQuantity(levels: OrderBookView['bids']): Decimal {
  return levels.reduce((sum, level) => sum.plus(level.quantity), new Decimal(0));
}

function expectLadder(book: OrderBookView, fairValue: string, tickSize: string): void {
  expect(book.bids.length).toBeGreaterThanOrEqual(5);
  expect(book.asks.length).toBeGreaterThanOrEqual(5);
  expect(new Decimal(book.bids[0]!.price).lt(fairValue)).toBe(true);
  expect(new Decimal(book.asks[0]!.price).gt(fairValue)).toBe(true);
  for (const level of [...book.bids, ...book.asks]) {
    expect(new Decimal(level.price).mod(tickSize).isZero()).toBe(true);
    expect(new Decimal(level.quantity).gt(0)).toBe(true);
  }
}

describe('seeded market maker', () => {
  it('quotes a ladder of YES bids below and asks above fair value on every market, on tick', async () => {
    const kalshi = kalshiVenue();
    for (const market of KALSHI_MARKETS) expectLadder(await kalshi.orderBook(market.venueMarketId), market.fairValue, market.tickSize);
    const polymarket = polymarketVenue();
    for (const market of POLYMARKET_MARKETS) {
      expectLadder(await polymarket.orderBook(market.venueMarketId, 20), market.fairValue, market.tickSize);
    }
    const fed = await kalshi.orderBook(FED);
    expect(fed.mid).toBe('0.6200');
    expect(fed.bids.map((level) => level.price)).toEqual(['0.6100', '0.6000', '0.5900', '0.5800', '0.5700', '0.5600', '0.5500', '0.5400']);
    expect(fed.asks.map((level) => level.price)).toEqual(['0.6300', '0.6400', '0.6500', '0.6600', '0.6700', '0.6800', '0.6900', '0.7000']);
    expect((await kalshi.orderBook(FED, 3)).bids).toHaveLength(3);
  });

  it('keeps every quote inside the price range near the edges', async () => {
    const venue = polymarketVenue();
    const book = await venue.orderBook('pm-mars-launch', 20); // fair value 0.06
    expect(book.bids.map((level) => level.price)).toEqual(['0.0500', '0.0400', '0.0300', '0.0200', '0.0100']);
    expect(book.asks[0]!.price).toBe('0.0700');
  });

  it('gives real depth: several thousand contracts within a few cents, and a 5,000 sweep walks several levels', async () => {
    const venue = kalshiVenue();
    const book = await venue.orderBook(FED);
    expect(totalQuantity(book.asks.slice(0, 4)).gte(2000)).toBe(true);

    const sweep = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '5000', timeInForce: 'ioc' })),
    );
    expect(sweep.order).toMatchObject({ status: 'filled', filledQuantity: '5000' });
    expect(new Set(sweep.fills.map((fill) => fill.price)).size).toBeGreaterThanOrEqual(4);
  });

  it('refreshes after a sweep: fair value moves a tick toward the trade and the taken side is quoted again', async () => {
    const venue = kalshiVenue();
    accepted(await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '5000', timeInForce: 'ioc' })));

    const after = await venue.orderBook(FED);
    expect(after.mid).toBe('0.6300');
    expect(after.bids[0]!.price).toBe('0.6200');
    expect(after.asks[0]!.price).toBe('0.6400');
    expect(after.asks.length).toBe(8);
    expect(totalQuantity(after.asks.slice(0, 4)).gte(2000)).toBe(true);

    // And back down after selling.
    accepted(await venue.placeOrder(order({ venueMarketId: FED, action: 'sell', type: 'market', quantity: '10', timeInForce: 'ioc' })));
    expect((await venue.orderBook(FED)).mid).toBe('0.6200');
  });

  it('stays passive: it skips a quote that would cross a resting client order', async () => {
    const venue = kalshiVenue();
    // A client bid at 0.64 takes the 0.63 and 0.64 asks and rests 40 at 0.64. The refresh moves fair
    // value to 0.63, whose ladder starts its asks at 0.64: that quote would sell into the client's bid.
    const [ask63, ask64] = (await venue.orderBook(FED)).asks;
    const size = new Decimal(ask63!.quantity).plus(ask64!.quantity).plus(40).toFixed();
    const result = accepted(await venue.placeOrder(order({ clientOrderId: 'high-bid', venueMarketId: FED, price: '0.64', quantity: size })));
    expect(result.order).toMatchObject({ status: 'open', remainingQuantity: '40' });

    const book = await venue.orderBook(FED);
    expect(book.bids[0]).toEqual({ price: '0.6400', quantity: '40' });
    expect(book.asks[0]!.price).toBe('0.6500');
    expect(book.bids[1]!.price).toBe('0.6200');
    expect(await venue.getOrder('high-bid')).toMatchObject({ status: 'open', remainingQuantity: '40' });
  });
});

describe('determinism', () => {
  async function script(venue: SimVenue) {
    const results = [];
    results.push(await venue.placeOrder(order({ clientOrderId: 'd1', venueMarketId: FED, price: '0.61', quantity: '40' })));
    results.push(await venue.placeOrder(order({ clientOrderId: 'd2', venueMarketId: FED, type: 'market', quantity: '3000', timeInForce: 'ioc' })));
    results.push(await venue.placeOrder(order({ clientOrderId: 'd3', venueMarketId: FED, side: 'no', action: 'buy', price: '0.45', quantity: '2500', timeInForce: 'ioc' })));
    results.push(await venue.placeOrder(order({ clientOrderId: 'd4', venueMarketId: 'COIN-FLIP', action: 'sell', type: 'market', quantity: '900', timeInForce: 'fok' })));
    results.push(await venue.cancelOrder('d1'));
    return {
      results,
      fills: await venue.listFills(),
      books: [await venue.orderBook(FED, 50), await venue.orderBook('COIN-FLIP', 50)],
    };
  }

  it('two venues with the same seed give identical books and fills for the same operations', async () => {
    const first = await script(kalshiVenue(2024));
    const second = await script(kalshiVenue(2024));
    expect(second).toEqual(first);
    expect(first.fills.length).toBeGreaterThan(5);
  });

  it('a different seed gives different liquidity', async () => {
    expect(await kalshiVenue(1).orderBook(FED)).not.toEqual(await kalshiVenue(2).orderBook(FED));
  });

  it("a market's liquidity depends on the seed and its own id, not on the other listings", async () => {
    const alone = new SimVenue({ name: 'sim-kalshi', markets: [KALSHI_MARKETS[0]!], seed: 7, clock: fixedClock });
    const reversed = new SimVenue({ name: 'sim-kalshi', markets: [...KALSHI_MARKETS].reverse(), seed: 7, clock: fixedClock });
    expect(await alone.orderBook(FED, 50)).toEqual(await kalshiVenue(7).orderBook(FED, 50));
    expect(await reversed.orderBook(FED, 50)).toEqual(await kalshiVenue(7).orderBook(FED, 50));
  });
});
