import Decimal from 'decimal.js';
import type { RestingOrderToRestore, SimVenue } from '../../../core/venues/sim';
import { accepted, kalshiVenue, order } from './simVenueFixtures';

const FED = 'FED-CUT-DEC';

/** Before the restart: four resting client orders, one of them partly filled. */
async function tradeBeforeRestart(venue: SimVenue): Promise<void> {
  accepted(await venue.placeOrder(order({ clientOrderId: 'x', venueMarketId: FED, price: '0.62', quantity: '30' })));
  accepted(await venue.placeOrder(order({ clientOrderId: 'y', venueMarketId: FED, price: '0.62', quantity: '20' })));
  accepted(await venue.placeOrder(order({ clientOrderId: 'z', venueMarketId: FED, price: '0.61', quantity: '15' })));
  accepted(await venue.placeOrder(order({ clientOrderId: 'w', venueMarketId: FED, side: 'no', action: 'buy', price: '0.37', quantity: '9' })));
  accepted(await venue.placeOrder(order({ clientOrderId: 'hit-x', venueMarketId: FED, action: 'sell', price: '0.62', quantity: '10', timeInForce: 'ioc' })));
}

/** What the core has in its database, in the orders' original time order. */
const RESTING: RestingOrderToRestore[] = [
  { clientOrderId: 'x', venueMarketId: FED, side: 'yes', action: 'buy', price: '0.62', remainingQuantity: '20', filledQuantity: '10' },
  { clientOrderId: 'y', venueMarketId: FED, side: 'yes', action: 'buy', price: '0.62', remainingQuantity: '20' },
  { clientOrderId: 'z', venueMarketId: FED, side: 'yes', action: 'buy', price: '0.61', remainingQuantity: '15' },
  { clientOrderId: 'w', venueMarketId: FED, side: 'no', action: 'buy', price: '0.37', remainingQuantity: '9' },
];

describe('SimVenue restoreRestingOrders (after a restart)', () => {
  it('gives client orders the same order among themselves, ahead of fresh market-maker quotes', async () => {
    const before = kalshiVenue();
    await tradeBeforeRestart(before);
    const after = kalshiVenue();

    const states = after.restoreRestingOrders(RESTING);

    expect(states).toEqual(await Promise.all(RESTING.map((resting) => before.getOrder(resting.clientOrderId))));
    expect(await after.getOrder('x')).toEqual({
      venueOrderId: 'sim-kalshi-order-x',
      clientOrderId: 'x',
      status: 'open',
      filledQuantity: '10',
      remainingQuantity: '20',
      price: '0.6200',
    });
    // Inside the spread only client orders share the level: the same positions as before.
    expect(await after.queuePosition('x')).toEqual(await before.queuePosition('x'));
    expect(await after.queuePosition('y')).toEqual({ venueOrderId: 'sim-kalshi-order-y', ordersAhead: 1, quantityAhead: '20' });
    expect(await after.queuePosition('y')).toEqual(await before.queuePosition('y'));
    // At the market maker's prices, restored orders come first (documented rule).
    expect((await before.queuePosition('z'))!.ordersAhead).toBeGreaterThan(0);
    expect(await after.queuePosition('z')).toEqual({ venueOrderId: 'sim-kalshi-order-z', ordersAhead: 0, quantityAhead: '0' });
    expect(await after.queuePosition('w')).toEqual({ venueOrderId: 'sim-kalshi-order-w', ordersAhead: 0, quantityAhead: '0' });
    // The market maker is back behind them, with the same ladder.
    const beforeBook = await before.orderBook(FED);
    const afterBook = await after.orderBook(FED);
    expect(afterBook.bids.map((level) => level.price)).toEqual(beforeBook.bids.map((level) => level.price));
    expect(afterBook.asks.map((level) => level.price)).toEqual(beforeBook.asks.map((level) => level.price));
    expect(new Decimal(afterBook.bids[1]!.quantity).gt(15)).toBe(true);
  });

  it('fills restored orders in the same order, with fill ids that never repeat those from before the restart', async () => {
    const before = kalshiVenue();
    await tradeBeforeRestart(before);
    const preRestartIds = (await before.listFills()).map((fill) => fill.venueFillId);
    const after = kalshiVenue();
    after.restoreRestingOrders(RESTING);

    const sell = () => order({ clientOrderId: 'sell-25', venueMarketId: FED, action: 'sell', price: '0.62', quantity: '25', timeInForce: 'ioc' });
    accepted(await before.placeOrder(sell()));
    accepted(await after.placeOrder(sell()));

    const madeAfter = (await after.listFills()).filter((fill) => !fill.isTaker);
    expect(madeAfter.map((fill) => [fill.venueFillId, fill.quantity])).toEqual([
      ['sim-kalshi-order-x-left-0', '20'],
      ['sim-kalshi-order-y-left-15', '5'],
    ]);
    expect((await before.listFills()).slice(preRestartIds.length).filter((fill) => !fill.isTaker)).toEqual(madeAfter);
    for (const fill of madeAfter) expect(preRestartIds).not.toContain(fill.venueFillId);
    expect(await after.getOrder('x')).toMatchObject({ status: 'filled', filledQuantity: '30', remainingQuantity: '0' });
  });

  it('leaves orders it already knows alone, so restoring twice changes nothing', async () => {
    const venue = kalshiVenue();
    venue.restoreRestingOrders(RESTING);
    const book = await venue.orderBook(FED, 50);
    const positions = await Promise.all(RESTING.map((resting) => venue.queuePosition(resting.clientOrderId)));

    venue.restoreRestingOrders(RESTING);

    expect(await venue.orderBook(FED, 50)).toEqual(book);
    expect(await Promise.all(RESTING.map((resting) => venue.queuePosition(resting.clientOrderId)))).toEqual(positions);
    // A known client order id is still idempotent for placeOrder.
    const replay = accepted(await venue.placeOrder(order({ clientOrderId: 'y', venueMarketId: FED, price: '0.50', quantity: '1' })));
    expect(replay.order).toMatchObject({ clientOrderId: 'y', remainingQuantity: '20' });
  });

  it('refuses invalid input before changing anything', async () => {
    const venue = kalshiVenue();
    const book = await venue.orderBook(FED, 50);
    const valid = RESTING[0]!;
    expect(() => venue.restoreRestingOrders([valid, { ...valid, clientOrderId: 'q', venueMarketId: 'NOPE' }])).toThrow(
      expect.objectContaining({ name: 'SimVenueError', code: 'market_not_tradable' }),
    );
    expect(() => venue.restoreRestingOrders([valid, { ...valid, clientOrderId: 'q', price: '0.625' }])).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('tick size') }),
    );
    expect(() => venue.restoreRestingOrders([valid, { ...valid, clientOrderId: 'q', remainingQuantity: '0' }])).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    expect(() => venue.restoreRestingOrders([valid, valid])).toThrow(expect.objectContaining({ message: expect.stringContaining('twice') }));
    expect(await venue.getOrder(valid.clientOrderId)).toBeNull();
    expect(await venue.orderBook(FED, 50)).toEqual(book);
  });
});
