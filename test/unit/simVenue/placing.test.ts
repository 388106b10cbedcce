import Decimal from 'decimal.js';
import { accepted, FIXED_TIME, kalshiVenue, order, polymarketVenue } from './simVenueFixtures';

const FED = 'FED-CUT-DEC';

describe('SimVenue placing orders', () => {
  it('rests a limit order behind the market maker quantity already at its price', async () => {
    const venue = kalshiVenue();
    const before = await venue.orderBook(FED);
    expect(before.bids[0]!.price).toBe('0.6100');
    const makerQuantityAtPrice = before.bids[0]!.quantity;

    const result = accepted(await venue.placeOrder(order({ clientOrderId: 'rest-1', venueMarketId: FED, price: '0.61', quantity: '10' })));

    expect(result.fills).toEqual([]);
    expect(result.order).toEqual({
      venueOrderId: 'sim-kalshi-order-rest-1',
      clientOrderId: 'rest-1',
      status: 'open',
      filledQuantity: '0',
      remainingQuantity: '10',
      price: '0.6100',
    });
    const position = await venue.queuePosition('rest-1');
    expect(position).toMatchObject({ venueOrderId: 'sim-kalshi-order-rest-1', quantityAhead: makerQuantityAtPrice });
    expect(position!.ordersAhead).toBeGreaterThanOrEqual(1);
    const after = await venue.orderBook(FED);
    expect(after.bids[0]).toEqual({ price: '0.6100', quantity: new Decimal(makerQuantityAtPrice).plus(10).toFixed() });
    expect(await venue.getOrder('rest-1')).toEqual(result.order);
  });

  it('fills a marketable order against the market maker with the Kalshi taker fee rounded up to the cent', async () => {
    const venue = kalshiVenue();
    const result = accepted(
      await venue.placeOrder(order({ clientOrderId: 'take-1', venueMarketId: FED, price: '0.63', quantity: '10', timeInForce: 'ioc' })),
    );

    expect(result.order).toMatchObject({ status: 'filled', filledQuantity: '10', remainingQuantity: '0' });
    // 0.07 × 10 × 0.63 × 0.37 = 0.16317 -> 0.17
    const total = result.fills.reduce((sum, fill) => sum.plus(fill.fee), new Decimal(0));
    expect(total.toFixed(2)).toBe('0.17');
    for (const fill of result.fills) {
      expect(fill).toMatchObject({ clientOrderId: 'take-1', side: 'yes', action: 'buy', price: '0.6300', isTaker: true, executedAt: FIXED_TIME });
    }
    expect(result.fills.reduce((sum, fill) => sum + Number(fill.quantity), 0)).toBe(10);
  });

  it('charges the fee once per order operation and price, not per maker leg, and splits it exactly', async () => {
    const venue = kalshiVenue();
    // Ten one-contract asks inside the market maker's spread, at 0.50.
    for (let i = 0; i < 10; i++) {
      accepted(await venue.placeOrder(order({ venueMarketId: 'COIN-FLIP', action: 'sell', price: '0.50', quantity: '1' })));
    }
    const result = accepted(
      await venue.placeOrder(order({ venueMarketId: 'COIN-FLIP', price: '0.50', quantity: '10', timeInForce: 'ioc' })),
    );

    expect(result.fills).toHaveLength(10);
    // One operation of 10 contracts at 0.50: 0.07 × 10 × 0.25 = 0.175 -> 0.18 (per leg it would be 10 × 0.02).
    const fees = result.fills.map((fill) => fill.fee);
    expect(fees.reduce((sum, fee) => sum.plus(fee), new Decimal(0)).toFixed(2)).toBe('0.18');
    expect(fees).toEqual(['0.01', '0.02', '0.02', '0.02', '0.02', '0.01', '0.02', '0.02', '0.02', '0.02']);
  });

  it('maps a NO buy onto the YES bids at 1 − p and reports it in NO terms', async () => {
    const venue = kalshiVenue();
    // A client's YES bid at 0.62, inside the market maker's 0.61/0.63 spread, is the best bid.
    accepted(await venue.placeOrder(order({ clientOrderId: 'yes-bid', venueMarketId: FED, price: '0.62', quantity: '5' })));
    expect((await venue.orderBook(FED)).bids[0]).toEqual({ price: '0.6200', quantity: '5' });

    const result = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, side: 'no', action: 'buy', type: 'market', quantity: '5', timeInForce: 'ioc' })),
    );

    expect(result.order.status).toBe('filled');
    expect(result.fills).toEqual([expect.objectContaining({ side: 'no', action: 'buy', price: '0.3800', quantity: '5', isTaker: true })]);
    expect(await venue.getOrder('yes-bid')).toMatchObject({ status: 'filled', filledQuantity: '5' });
    expect((await venue.orderBook(FED)).bids[0]!.price).toBe('0.6100');
  });

  it('fills a NO buy against the market maker YES bids at 1 − 0.61', async () => {
    const venue = kalshiVenue();
    expect((await venue.orderBook(FED)).bids[0]!.price).toBe('0.6100');
    const result = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, side: 'no', action: 'buy', price: '0.39', quantity: '5', timeInForce: 'ioc' })),
    );
    expect(result.order.status).toBe('filled');
    for (const fill of result.fills) expect(fill).toMatchObject({ side: 'no', action: 'buy', price: '0.3900' });
  });

  it('rests a NO buy as a YES ask at 1 − p', async () => {
    const venue = kalshiVenue();
    accepted(await venue.placeOrder(order({ clientOrderId: 'no-bid', venueMarketId: FED, side: 'no', action: 'buy', price: '0.38', quantity: '7' })));
    const book = await venue.orderBook(FED);
    expect(book.asks[0]).toEqual({ price: '0.6200', quantity: '7' });
    expect(await venue.queuePosition('no-bid')).toMatchObject({ ordersAhead: 0, quantityAhead: '0' });
  });

  it('IOC fills what crosses and cancels the rest', async () => {
    const venue = kalshiVenue();
    const bestAsk = (await venue.orderBook(FED)).asks[0]!;
    const wanted = new Decimal(bestAsk.quantity).plus(50).toFixed();

    const result = accepted(
      await venue.placeOrder(order({ clientOrderId: 'ioc', venueMarketId: FED, price: bestAsk.price, quantity: wanted, timeInForce: 'ioc' })),
    );

    expect(result.order).toEqual({
      venueOrderId: 'sim-kalshi-order-ioc',
      clientOrderId: 'ioc',
      status: 'canceled',
      filledQuantity: bestAsk.quantity,
      remainingQuantity: '0',
    });
    expect(await venue.queuePosition('ioc')).toBeNull();
  });

  it('FOK kills an order that cannot fill entirely, before any fill', async () => {
    const venue = kalshiVenue();
    const before = await venue.orderBook(FED);
    const tooMuch = new Decimal(before.asks[0]!.quantity).plus(1).toFixed();

    const killed = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, price: before.asks[0]!.price, quantity: tooMuch, timeInForce: 'fok' })),
    );
    expect(killed.order).toMatchObject({ status: 'canceled', filledQuantity: '0', remainingQuantity: '0' });
    expect(killed.fills).toEqual([]);
    expect(await venue.orderBook(FED)).toEqual(before);

    const filled = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, price: before.asks[0]!.price, quantity: before.asks[0]!.quantity, timeInForce: 'fok' })),
    );
    expect(filled.order).toMatchObject({ status: 'filled', filledQuantity: before.asks[0]!.quantity });
  });

  it('market orders walk the book up to an optional protection price and never rest', async () => {
    const venue = kalshiVenue();
    const { asks } = await venue.orderBook(FED);
    const throughSecondLevel = new Decimal(asks[0]!.quantity).plus(asks[1]!.quantity);

    const protectedBuy = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, type: 'market', price: '0.64', quantity: '100000', timeInForce: 'ioc' })),
    );
    expect(protectedBuy.order).toMatchObject({ status: 'canceled', filledQuantity: throughSecondLevel.toFixed(), remainingQuantity: '0' });
    expect(new Set(protectedBuy.fills.map((fill) => fill.price))).toEqual(new Set(['0.6300', '0.6400']));

    const unfillableFok = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, type: 'market', quantity: '1000000', timeInForce: 'fok' })),
    );
    expect(unfillableFok.order).toMatchObject({ status: 'canceled', filledQuantity: '0' });
    expect(unfillableFok.fills).toEqual([]);

    const plainSell = accepted(
      await venue.placeOrder(order({ venueMarketId: FED, action: 'sell', type: 'market', quantity: '3', timeInForce: 'ioc' })),
    );
    expect(plainSell.order).toMatchObject({ status: 'filled', filledQuantity: '3' });
  });

  it('quotes sim-polymarket sizes in shares with two decimals', async () => {
    const venue = polymarketVenue();
    const result = accepted(
      await venue.placeOrder(order({ venueMarketId: 'pm-fed-cut-dec', price: '0.60', quantity: '12.34' })),
    );
    expect(result.order).toMatchObject({ status: 'open', filledQuantity: '0.00', remainingQuantity: '12.34' });
    const take = accepted(
      await venue.placeOrder(order({ venueMarketId: 'pm-fed-cut-dec', price: '0.63', quantity: '5.5', timeInForce: 'ioc' })),
    );
    expect(take.fills.map((fill) => [fill.price, fill.fee])).toEqual(take.fills.map(() => ['0.6300', '0.00000']));
  });

  it('charges the sim-polymarket taker fee where the market has one, rounded down to $0.00001', async () => {
    const venue = polymarketVenue();
    const take = accepted(
      await venue.placeOrder(order({ venueMarketId: 'pm-gdp-q-neg', price: '0.13', quantity: '10', timeInForce: 'ioc' })),
    );
    // 10 × 0.01 × 0.13 × 0.87 = 0.01131
    expect(take.fills.map((fill) => fill.price)).toEqual(take.fills.map(() => '0.1300'));
    expect(take.fills.reduce((sum, fill) => sum.plus(fill.fee), new Decimal(0)).toFixed(5)).toBe('0.01131');
  });
});

describe('SimVenue cancel and idempotency', () => {
  it('cancels a resting order, and a repeated cancel answers with the same canceled order', async () => {
    const venue = kalshiVenue();
    const before = await venue.orderBook(FED);
    accepted(await venue.placeOrder(order({ clientOrderId: 'c1', venueMarketId: FED, price: '0.61', quantity: '25' })));

    const canceled = await venue.cancelOrder('c1');
    expect(canceled).toEqual({
      outcome: 'canceled',
      order: { venueOrderId: 'sim-kalshi-order-c1', clientOrderId: 'c1', status: 'canceled', filledQuantity: '0', remainingQuantity: '0' },
    });
    expect(await venue.orderBook(FED)).toEqual(before);
    expect(await venue.cancelOrder('c1')).toEqual(canceled);
    expect(await venue.queuePosition('c1')).toBeNull();
  });

  it('refuses to cancel unknown and filled orders with order_not_found and the venue code', async () => {
    const kalshi = kalshiVenue();
    expect(await kalshi.cancelOrder('nope')).toMatchObject({ outcome: 'rejected', code: 'order_not_found', venueCode: 'not_found' });
    accepted(await kalshi.placeOrder(order({ clientOrderId: 'done', venueMarketId: FED, type: 'market', quantity: '1', timeInForce: 'ioc' })));
    expect(await kalshi.cancelOrder('done')).toMatchObject({ outcome: 'rejected', code: 'order_not_found', message: expect.stringContaining('filled') });

    const polymarket = polymarketVenue();
    expect(await polymarket.cancelOrder('nope')).toMatchObject({ outcome: 'rejected', code: 'order_not_found', venueCode: 'ORDER_NOT_FOUND' });
  });

  it('answers a known clientOrderId with the existing order and its fills, and places nothing', async () => {
    const venue = kalshiVenue();
    const first = accepted(
      await venue.placeOrder(order({ clientOrderId: 'dup', venueMarketId: FED, price: '0.63', quantity: '600' })),
    );
    expect(first.fills.length).toBeGreaterThan(0);
    const bookAfterFirst = await venue.orderBook(FED);
    const fillsAfterFirst = await venue.listFills();

    const replay = await venue.placeOrder(order({ clientOrderId: 'dup', venueMarketId: FED, price: '0.70', quantity: '5000' }));

    expect(replay).toEqual(first);
    expect(await venue.orderBook(FED)).toEqual(bookAfterFirst);
    expect(await venue.listFills()).toEqual(fillsAfterFirst);
  });
});
