import type { VenueFill } from '../../../core/venues/venue';
import { accepted, FIXED_TIME, kalshiVenue, order } from './simVenueFixtures';

const FED = 'FED-CUT-DEC';

describe('SimVenue fill stream and fill listing', () => {
  it("reports a resting client order filled by another client's order through onFills, with maker fees", async () => {
    const venue = kalshiVenue();
    const batches: VenueFill[][] = [];
    venue.onFills((fills) => batches.push(fills));
    // Client A bids 100 at 0.62, inside the market maker's spread; FED charges makers.
    accepted(await venue.placeOrder(order({ clientOrderId: 'maker-a', venueMarketId: FED, price: '0.62', quantity: '100' })));
    expect(batches).toEqual([]);

    const taker = accepted(
      await venue.placeOrder(order({ clientOrderId: 'taker-b', venueMarketId: FED, action: 'sell', price: '0.62', quantity: '100', timeInForce: 'ioc' })),
    );

    const makerFill: VenueFill = {
      venueFillId: 'sim-kalshi-order-maker-a-left-0',
      venueOrderId: 'sim-kalshi-order-maker-a',
      clientOrderId: 'maker-a',
      venueMarketId: FED,
      side: 'yes',
      action: 'buy',
      price: '0.6200',
      quantity: '100',
      fee: '0.42', // 0.0175 × 100 × 0.62 × 0.38 = 0.4123 -> 0.42
      isTaker: false,
      executedAt: FIXED_TIME,
    };
    const takerFill: VenueFill = {
      ...makerFill,
      venueFillId: 'sim-kalshi-order-taker-b-left-0',
      venueOrderId: 'sim-kalshi-order-taker-b',
      clientOrderId: 'taker-b',
      action: 'sell',
      fee: '1.65', // 0.07 × 100 × 0.2356 = 1.6492 -> 1.65
      isTaker: true,
    };
    // One batch per operation, every client fill in match order: the taker leg, then the maker leg.
    expect(batches).toEqual([[takerFill, makerFill]]);
    expect(taker.fills).toEqual([takerFill]);
    expect(await venue.getOrder('maker-a')).toMatchObject({ status: 'filled', filledQuantity: '100', remainingQuantity: '0' });
    expect(await venue.listFills()).toEqual([takerFill, makerFill]);
  });

  it('never reports the market maker fills, only those of client orders', async () => {
    const venue = kalshiVenue();
    const streamed: VenueFill[] = [];
    venue.onFills((fills) => streamed.push(...fills));
    const result = accepted(
      await venue.placeOrder(order({ clientOrderId: 'sweep', venueMarketId: FED, type: 'market', quantity: '2000', timeInForce: 'ioc' })),
    );
    expect(result.fills.length).toBeGreaterThan(1);
    expect(streamed).toEqual(result.fills);
    expect((await venue.listFills()).every((fill) => fill.clientOrderId === 'sweep' && fill.isTaker)).toBe(true);
  });

  it('gives every fill a unique id and pages listFills after an id, oldest first', async () => {
    const venue = kalshiVenue();
    for (let i = 0; i < 3; i++) {
      accepted(await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '700', timeInForce: 'ioc' })));
    }
    const all = await venue.listFills();
    expect(new Set(all.map((fill) => fill.venueFillId)).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(3);

    expect(await venue.listFills({ afterVenueFillId: all[1]!.venueFillId, limit: 2 })).toEqual(all.slice(2, 4));
    expect(await venue.listFills({ afterVenueFillId: all[all.length - 1]!.venueFillId })).toEqual([]);
    // An id the venue does not know (from before a restart) lists from the start.
    expect(await venue.listFills({ afterVenueFillId: 'sim-kalshi-order-gone-left-0' })).toEqual(all);
    await expect(venue.listFills({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('keeps trading when a listener throws, and stops calling a removed listener', async () => {
    const venue = kalshiVenue();
    venue.onFills(() => {
      throw new Error('listener failure');
    });
    const calls: number[] = [];
    const remove = venue.onFills((fills) => calls.push(fills.length));
    accepted(await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '1', timeInForce: 'ioc' })));
    expect(calls).toEqual([1]);
    remove();
    const second = accepted(await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '1', timeInForce: 'ioc' })));
    expect(second.order.status).toBe('filled');
    expect(calls).toEqual([1]);
  });

  it('hands listeners copies, so a listener cannot change the venue record', async () => {
    const venue = kalshiVenue();
    venue.onFills((fills) => {
      fills[0]!.fee = '999.00';
    });
    accepted(await venue.placeOrder(order({ clientOrderId: 'copy', venueMarketId: FED, type: 'market', quantity: '1', timeInForce: 'ioc' })));
    expect((await venue.listFills())[0]!.fee).toBe('0.02');
  });

  it('fills a partly filled resting order across operations with distinct ids and per-operation maker fees', async () => {
    const venue = kalshiVenue();
    const streamed: VenueFill[] = [];
    venue.onFills((fills) => streamed.push(...fills.filter((fill) => fill.clientOrderId === 'big')));
    accepted(await venue.placeOrder(order({ clientOrderId: 'big', venueMarketId: FED, action: 'sell', price: '0.62', quantity: '30' })));
    for (const quantity of ['10', '10']) {
      accepted(await venue.placeOrder(order({ venueMarketId: FED, price: '0.62', quantity, timeInForce: 'ioc' })));
    }
    expect(streamed.map((fill) => [fill.venueFillId, fill.quantity, fill.fee])).toEqual([
      ['sim-kalshi-order-big-left-20', '10', '0.05'], // 0.0175 × 10 × 0.2356 = 0.04123 -> 0.05
      ['sim-kalshi-order-big-left-10', '10', '0.05'],
    ]);
    expect(await venue.getOrder('big')).toMatchObject({ status: 'open', filledQuantity: '20', remainingQuantity: '10' });
  });
});
