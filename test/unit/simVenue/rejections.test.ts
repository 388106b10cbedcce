import type { VenueOrderRequest } from '../../../core/venues/venue';
import { accepted, kalshiVenue, order, polymarketVenue } from './simVenueFixtures';

const FED = 'FED-CUT-DEC';
const PM_FED = 'pm-fed-cut-dec';

describe('SimVenue rejections', () => {
  it.each([
    ['off-tick price', { price: '0.615' }, 'tick size'],
    ['price of 0', { price: '0' }, 'greater than 0'],
    ['price of 1', { price: '1' }, 'less than 1'],
    ['price above 1', { price: '1.5' }, 'less than 1'],
    ['zero quantity', { quantity: '0' }, 'greater than 0'],
    ['fractional contracts', { quantity: '1.5' }, 'whole contracts'],
    ['a number instead of a string', { price: 0.61 as unknown as string }, 'decimal string'],
    ['a binary-float string', { price: '0.30000000000000004' }, 'tick size'],
  ])('sim-kalshi refuses %s as invalid_request / invalid_order', async (_case, overrides, reason) => {
    const venue = kalshiVenue();
    const result = await venue.placeOrder(order({ clientOrderId: 'bad', venueMarketId: FED, price: '0.61', ...overrides }));
    expect(result).toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'invalid_order' });
    expect(result).toMatchObject({ message: expect.stringContaining(reason) });
    expect(await venue.getOrder('bad')).toBeNull();
  });

  it('names the reason in the message', async () => {
    const venue = kalshiVenue();
    const offTick = await venue.placeOrder(order({ venueMarketId: FED, price: '0.615' }));
    expect(offTick).toMatchObject({ message: 'price 0.615 is not a multiple of the tick size 0.01' });
    const outOfRange = await venue.placeOrder(order({ venueMarketId: FED, price: '1.00' }));
    expect(outOfRange).toMatchObject({ message: 'price 1.00 must be greater than 0 and less than 1' });
  });

  it('sim-polymarket refuses with its own CLOB codes', async () => {
    const venue = polymarketVenue();
    expect(await venue.placeOrder(order({ venueMarketId: PM_FED, price: '0.615', quantity: '5' }))).toMatchObject({
      outcome: 'rejected',
      code: 'invalid_request',
      venueCode: 'INVALID_ORDER_MIN_TICK_SIZE',
    });
    expect(await venue.placeOrder(order({ venueMarketId: PM_FED, price: '0.61', quantity: '4.99' }))).toMatchObject({
      code: 'invalid_request',
      venueCode: 'INVALID_ORDER_MIN_SIZE',
      message: 'quantity 4.99 is below the minimum order size 5',
    });
    expect(await venue.placeOrder(order({ venueMarketId: PM_FED, price: '1.2', quantity: '5' }))).toMatchObject({
      code: 'invalid_request',
      venueCode: 'INVALID_ORDER_ERROR',
    });
    expect(await venue.placeOrder(order({ venueMarketId: PM_FED, price: '0.61', quantity: '5.001' }))).toMatchObject({
      code: 'invalid_request',
      venueCode: 'INVALID_ORDER_ERROR',
    });
    // A 0.0001 tick is fine on the market that has it.
    expect((await venue.placeOrder(order({ venueMarketId: 'pm-mars-launch', price: '0.0512', quantity: '5' }))).outcome).toBe('accepted');
  });

  it('refuses an unknown market as market_not_tradable', async () => {
    expect(await kalshiVenue().placeOrder(order({ venueMarketId: 'NOPE', price: '0.5' }))).toMatchObject({
      outcome: 'rejected',
      code: 'market_not_tradable',
      venueCode: 'market_not_found',
    });
    expect(await polymarketVenue().placeOrder(order({ venueMarketId: FED, price: '0.5', quantity: '5' }))).toMatchObject({
      outcome: 'rejected',
      code: 'market_not_tradable',
      venueCode: 'MARKET_NOT_READY',
    });
  });

  it.each([
    ['a limit order without a price', { price: undefined }],
    ['an unknown side', { side: 'maybe' as VenueOrderRequest['side'] }],
    ['an unknown action', { action: 'hold' as VenueOrderRequest['action'] }],
    ['an unknown time in force', { timeInForce: 'gtd' as VenueOrderRequest['timeInForce'] }],
    ['a good-till-canceled market order', { type: 'market' as const, timeInForce: 'gtc' as const }],
    ['an empty client order id', { clientOrderId: '' }],
  ])('refuses %s as invalid_request', async (_case, overrides) => {
    const result = await kalshiVenue().placeOrder(order({ venueMarketId: FED, price: '0.5', ...overrides }));
    expect(result).toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'invalid_order' });
  });

  it('does not remember a rejected client order id: the corrected order can use it', async () => {
    const venue = kalshiVenue();
    expect((await venue.placeOrder(order({ clientOrderId: 'retry', venueMarketId: FED, price: '0.615' }))).outcome).toBe('rejected');
    const retried = accepted(await venue.placeOrder(order({ clientOrderId: 'retry', venueMarketId: FED, price: '0.60' })));
    expect(retried.order).toMatchObject({ clientOrderId: 'retry', status: 'open' });
  });

  it('throws a SimVenueError for the book of an unknown market', async () => {
    await expect(kalshiVenue().orderBook('NOPE')).rejects.toMatchObject({ name: 'SimVenueError', code: 'market_not_tradable' });
  });
});
