/**
 * The Kalshi venue adapter (core/venues/kalshi/kalshiVenue.ts, Trade API v2 with V2 order writes)
 * against the faithful fake over loopback: orders rest, cancel, fill in our own terms with the
 * fake's exact decimals and fees; a lost answer is `unknown` and a second placement with the same
 * client order id reports the first order (one order at the fake); fills of orders that are not
 * ours are left out. `OurOrders` is our own port, fed here from a small in-memory map, as the
 * registry feeds it from the database. Keys are made at run time.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import { KalshiVenue } from '../../core/venues/kalshi/kalshiVenue';
import { KalshiSession } from '../../core/venues/kalshi/session';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import type { MarketData, OrderBookView, VenueFill, VenueOrderRequest, VenuePlaceResult } from '../../core/venues/venue';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { newKalshiKey } from '../support/kalshiKeys';
import { MemoryOrders } from '../support/memoryOrders';

const FED = 'KXFAKEFED-26DEC-T4.00'; // whole cents, whole contracts, taker fees only
const HIGH = 'KXFAKEHIGH-26DEC31-T40'; // tapered deci-cent prices, fractional contracts, maker fees too
const CREATE_PATH = '/trade-api/v2/portfolio/events/orders';

const alice = newKalshiKey();

/** The fake's public order book in YES terms (bids only on the wire: a NO bid at p is a YES ask at 1 - p). */
class FakeBooks implements MarketData {
  constructor(private readonly baseUrl: string) {}
  async orderBook(ticker: string): Promise<OrderBookView> {
    const answer = (await (await fetch(`${this.baseUrl}/markets/${ticker}/orderbook`)).json()) as { orderbook_fp: { yes_dollars: string[][]; no_dollars: string[][] } };
    const level = ([price, quantity]: string[], yes: boolean) => ({ price: (yes ? new Decimal(price!) : new Decimal(1).sub(price!)).toFixed(), quantity: new Decimal(quantity!).toFixed() });
    const bids = answer.orderbook_fp.yes_dollars.map((l) => level(l, true)).reverse();
    const asks = answer.orderbook_fp.no_dollars.map((l) => level(l, false)).reverse();
    return { venueMarketId: ticker, bids, asks, mid: bids[0] && asks[0] ? new Decimal(bids[0].price).add(asks[0].price).div(2).toFixed() : null };
  }
}

let fake: KalshiFake;
let venue: KalshiVenue;
let ours: MemoryOrders;

beforeEach(async () => {
  fake = await KalshiFake.start({
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-maker', balanceDollars: '100000.00' },
    ],
  });
  ours = new MemoryOrders();
  const session = new KalshiSession({ restUrl: fake.baseUrl, signer: createKalshiSigner(alice.keyId, alice.privateKey), tier: KALSHI_RATE_TIERS.basic, timeoutMs: 2000, backoff: { baseMs: 10, maxMs: 40, maxAttempts: 8 } });
  venue = new KalshiVenue({ session, ourOrders: ours, books: new FakeBooks(fake.baseUrl) });
});
afterEach(async () => {
  await venue.close();
  await fake.close();
});

function request(overrides: Partial<VenueOrderRequest> = {}): VenueOrderRequest {
  return { clientOrderId: `order_${randomUUID()}`, venueMarketId: FED, side: 'yes', action: 'buy', type: 'limit', price: '0.20', quantity: '1', timeInForce: 'gtc', ...overrides };
}

/** Places as our order service does: the record first, then the venue; the venue order id kept once answered. */
async function place(req: VenueOrderRequest, options: { keepVenueOrderId?: boolean } = {}): Promise<VenuePlaceResult> {
  if (!ours.records.has(req.clientOrderId)) ours.records.set(req.clientOrderId, { clientOrderId: req.clientOrderId, venueOrderId: null, venueMarketId: req.venueMarketId, side: req.side, action: req.action, type: req.type, price: req.price ?? null, quantity: req.quantity, timeInForce: req.timeInForce, createdAt: new Date() });
  const result = await venue.placeOrder(req);
  if (result.outcome === 'accepted' && options.keepVenueOrderId !== false) ours.records.get(req.clientOrderId)!.venueOrderId = result.order.venueOrderId;
  return result;
}

const maker = (ticker: string, side: 'bid' | 'ask', price: string, count: string) => expect(fake.placeOrderAs('user-maker', v2OrderBody(ticker, { side, price, count }))).toMatchObject({ status: 201 });
const atFake = (clientOrderId: string) => fake.exchange.allOrders().filter((o) => o.clientOrderId === clientOrderId);
const fakeFillsOf = (orderId: string) => fake.exchange.listFills('user-alice', { orderId });
const fills = (result: VenuePlaceResult): VenueFill[] => (result.outcome === 'accepted' ? result.fills : []);

describe('the Kalshi venue: placing and canceling', () => {
  it('a limit order rests, is canceled at the fake, and a second cancel is order_not_found', async () => {
    const req = request({ price: '0.20', quantity: '1' });
    const placed = await place(req);
    const [order] = atFake(req.clientOrderId);
    expect(placed).toEqual({ outcome: 'accepted', order: { venueOrderId: order!.orderId, clientOrderId: req.clientOrderId, status: 'open', filledQuantity: '0', remainingQuantity: '1' }, fills: [] });
    expect(order).toMatchObject({ bookSide: 'bid', yesPriceTicks: 2000, initialUnits: 100, status: 'resting', selfTradePrevention: 'taker_at_cross' });

    const canceled = await venue.cancelOrder(req.clientOrderId);
    expect(canceled).toEqual({ outcome: 'canceled', order: { venueOrderId: order!.orderId, clientOrderId: req.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' } });
    expect(order!.status).toBe('canceled');
    // The cancel, then the read-back that the answer is taken from.
    expect(fake.requestsSignedBy(alice.keyId).slice(-2).map((r) => [r.method, r.path])).toEqual([
      ['DELETE', `${CREATE_PATH}/${order!.orderId}`],
      ['GET', `/trade-api/v2/portfolio/orders/${order!.orderId}`],
    ]);
    await expect(venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'rejected', code: 'order_not_found', venueCode: 'not_found' });
  });

  it('an order whose venue order id we do not have yet is found by ticker and time, then canceled', async () => {
    const req = request({ price: '0.21' });
    await place(req, { keepVenueOrderId: false });
    const found = await venue.findOrder(req.clientOrderId);
    expect(found).toEqual({ state: expect.objectContaining({ venueOrderId: atFake(req.clientOrderId)[0]!.orderId, status: 'open' }), yesPrice: expect.anything() });
    expect(found !== null && found !== 'unavailable' && found.yesPrice?.toFixed()).toBe('0.21');
    await expect(venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ status: 'open', price: '0.21' });
    await expect(venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'canceled', order: { status: 'canceled' } });
    expect(atFake(req.clientOrderId)[0]!.status).toBe('canceled');
    await expect(venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ status: 'canceled' });
    await expect(venue.findOrder('order_not_ours')).resolves.toBeNull();
  });

  it('a NO buy lands at the fake as an ask at 1 - p (deci-cent price, fractional count)', async () => {
    const req = request({ venueMarketId: HIGH, side: 'no', action: 'buy', price: '0.955', quantity: '1.5' });
    await expect(place(req)).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open', remainingQuantity: '1.5' } });
    expect(atFake(req.clientOrderId)[0]).toMatchObject({ bookSide: 'ask', yesPriceTicks: 450, initialUnits: 150, status: 'resting' });
    const book = await venue.orderBook(HIGH);
    expect(book.asks).toEqual([{ price: '0.045', quantity: '1.5' }]);
  });

  it('a crossing order fills; its fills come back in our terms with the fake\u2019s exact decimals and fees', async () => {
    maker(FED, 'ask', '0.5500', '3.00');
    const yesBuy = request({ price: '0.56', quantity: '5' });
    const placed = await place(yesBuy);
    const venueOrderId = atFake(yesBuy.clientOrderId)[0]!.orderId;
    expect(placed).toMatchObject({ outcome: 'accepted', order: { venueOrderId, status: 'open', filledQuantity: '3', remainingQuantity: '2' } });
    // Taker fee 0.07 x 3 x 0.55 x 0.45 = 0.051975, rounded up to 0.0520.
    expect(fills(placed)).toEqual([{ venueFillId: expect.any(String), venueOrderId, clientOrderId: yesBuy.clientOrderId, venueMarketId: FED, side: 'yes', action: 'buy', price: '0.55', quantity: '3', fee: '0.052', isTaker: true, executedAt: expect.any(String) }]);
    const [fakeFill] = fakeFillsOf(venueOrderId);
    expect(new Decimal(fills(placed)[0]!.fee).eq(fakeFill!.fee.toString())).toBe(true);
    expect(fills(placed)[0]!.venueFillId).toBe(fakeFill!.fillId);
    expect(fills(placed)[0]!.executedAt).toBe(new Date(fakeFill!.createdMs).toISOString());

    // NO buy at 0.40 = ask YES 0.60; it meets a YES bid at 0.62, so it pays 1 - 0.62 = 0.38 for NO.
    maker(FED, 'bid', '0.6200', '2.00');
    const noBuy = await place(request({ side: 'no', action: 'buy', price: '0.40', quantity: '2' }));
    expect(noBuy).toMatchObject({ outcome: 'accepted', order: { status: 'filled', filledQuantity: '2', remainingQuantity: '0' } });
    // 0.07 x 2 x 0.62 x 0.38 = 0.032984 -> 0.0330.
    expect(fills(noBuy)).toEqual([expect.objectContaining({ side: 'no', action: 'buy', price: '0.38', quantity: '2', fee: '0.033', isTaker: true })]);

    // Our YES sell is an ask whose leg Kalshi names "no": still priced at the YES price. (In the other
    // market: here it would meet our own resting bid at 0.56, which self-trade prevention forbids.)
    maker(HIGH, 'bid', '0.5200', '1.00');
    const yesSell = await place(request({ venueMarketId: HIGH, side: 'yes', action: 'sell', price: '0.50', quantity: '1' }));
    // 0.07 x 1 x 0.52 x 0.48 = 0.017472 -> 0.0175.
    expect(fills(yesSell)).toEqual([expect.objectContaining({ side: 'yes', action: 'sell', price: '0.52', quantity: '1', fee: '0.0175', isTaker: true })]);
  });

  it('a market order without a worst price goes at the YES leg extreme, valid on a tapered deci-cent market', async () => {
    maker(HIGH, 'ask', '0.9050', '1.50');
    const req = request({ venueMarketId: HIGH, type: 'market', price: undefined, quantity: '1', timeInForce: 'ioc' });
    const placed = await place(req);
    expect(atFake(req.clientOrderId)[0]).toMatchObject({ bookSide: 'bid', yesPriceTicks: 9900, status: 'executed' });
    // 0.07 x 1 x 0.905 x 0.095 = 0.00601825 -> 0.0061.
    expect(placed).toMatchObject({ outcome: 'accepted', order: { status: 'filled', filledQuantity: '1' }, fills: [expect.objectContaining({ price: '0.905', quantity: '1', fee: '0.0061' })] });
  });

  it('a lost answer is unknown; the same clientOrderId again answers the first order, and the fake holds ONE', async () => {
    maker(FED, 'ask', '0.5500', '2.00');
    const req = request({ price: '0.56', quantity: '2' });
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: CREATE_PATH });
    await expect(place(req)).resolves.toMatchObject({ outcome: 'unknown' });
    expect(atFake(req.clientOrderId)).toHaveLength(1);

    const again = await place(req);
    const [order] = atFake(req.clientOrderId);
    expect(again).toMatchObject({ outcome: 'accepted', order: { venueOrderId: order!.orderId, status: 'filled', filledQuantity: '2' } });
    expect(fills(again)).toEqual([expect.objectContaining({ venueOrderId: order!.orderId, price: '0.55', quantity: '2', fee: '0.0347' })]);
    expect(atFake(req.clientOrderId)).toHaveLength(1);
    expect(fake.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST').map((r) => r.status)).toEqual(['dropped', 409]);
  });

  it('a killed fill-or-kill is accepted and canceled, with no order at the fake', async () => {
    maker(FED, 'ask', '0.5500', '3.00');
    const req = request({ price: '0.56', quantity: '5', timeInForce: 'fok' });
    await expect(place(req)).resolves.toEqual({ outcome: 'accepted', order: { venueOrderId: null, clientOrderId: req.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' }, fills: [] });
    expect(atFake(req.clientOrderId)).toEqual([]);
  });

  it("refusals: Kalshi's codes mapped to ours with the venue code kept; too many decimals never sent", async () => {
    const offTick = await place(request({ price: '0.515' }));
    expect(offTick).toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'invalid_price' });
    expect(offTick.outcome === 'rejected' && offTick.message).toContain("'invalid_price'");
    await expect(place(request({ price: '0.99', quantity: '5000' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'insufficient_funds', venueCode: 'insufficient_balance' });
    await expect(place(request({ venueMarketId: 'KXNOSUCH-1' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'market_not_tradable', venueCode: 'market_not_found' });
    const before = fake.requests.length;
    await expect(place(request({ quantity: '1.005' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'quantity_precision' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('the Kalshi venue: account reads and fills', () => {
  it('fillsSince maps only our orders, oldest first; listFills cuts after a fill id', async () => {
    const since = new Date();
    maker(FED, 'ask', '0.5500', '4.00');
    const first = await place(request({ price: '0.56', quantity: '1' }));
    // The same account trades outside our records (another tool on the same key): left out.
    expect(fake.placeOrderAs('user-alice', v2OrderBody(FED, { price: '0.5600', count: '2.00', client_order_id: 'not-ours' }))).toMatchObject({ status: 201 });
    const second = await place(request({ price: '0.56', quantity: '1' }));

    const listed = await venue.fillsSince(since);
    expect(listed).toEqual([...fills(first), ...fills(second)]);
    expect(fake.exchange.listFills('user-alice', {})).toHaveLength(3);
    await expect(venue.listFills()).resolves.toEqual(listed);
    await expect(venue.listFills({ afterVenueFillId: listed[0]!.venueFillId })).resolves.toEqual([listed[1]]);
    await expect(venue.fillsSince(new Date(Date.now() + 60_000))).resolves.toEqual([]);
  });

  it('balance and positions are the venue\u2019s, decimals exact', async () => {
    maker(FED, 'ask', '0.5500', '3.00');
    maker(HIGH, 'bid', '0.9050', '1.50');
    await place(request({ price: '0.56', quantity: '3' }));
    await place(request({ venueMarketId: HIGH, side: 'no', action: 'buy', price: '0.1', quantity: '1.5' }));
    // NO at 0.1 = ask YES 0.90, meeting the bid at 0.905: NO costs 0.095.
    // 1000 - 3 x 0.55 - 0.0520 - 1.5 x 0.095 - 0.0091 (0.07 x 1.5 x 0.905 x 0.095 = 0.009027375, rounded up)
    await expect(venue.balance()).resolves.toBe('998.1464');
    expect((fake.exchange.balanceJson('user-alice') as { balance_dollars: string }).balance_dollars).toBe('998.1464');
    await expect(venue.positions()).resolves.toEqual(expect.arrayContaining([{ venueMarketId: FED, netYes: '3' }, { venueMarketId: HIGH, netYes: '-1.5' }]));
    await expect(venue.positions()).resolves.toHaveLength(2);
  });

  it('openOrderIds: the ids (lower case) of the account\u2019s resting orders only, asked with status=resting; a spent deadline sends nothing', async () => {
    const resting = request({ price: '0.20' });
    const canceled = request({ price: '0.21' });
    await place(resting);
    await place(canceled);
    await venue.cancelOrder(canceled.clientOrderId);
    maker(FED, 'ask', '0.5500', '1.00');
    await expect(place(request({ price: '0.56', quantity: '1' }))).resolves.toMatchObject({ order: { status: 'filled' } });
    expect(fake.placeOrderAs('user-alice', v2OrderBody(FED, { price: '0.1000', count: '1.00', client_order_id: 'not-ours' }))).toMatchObject({ status: 201 });
    const expected = fake.exchange.listOrders('user-alice', { status: 'resting' }).map((o) => o.orderId.toLowerCase());
    expect(expected).toHaveLength(2);
    expect(expected).toContain(atFake(resting.clientOrderId)[0]!.orderId.toLowerCase());

    const before = fake.requestsSignedBy(alice.keyId).length;
    await expect(venue.openOrderIds()).resolves.toEqual(new Set(expected));
    expect(fake.requestsSignedBy(alice.keyId).slice(before).map((r) => [r.method, r.path, new URLSearchParams(r.query).get('status')])).toEqual([['GET', '/trade-api/v2/portfolio/orders', 'resting']]);
    await expect(venue.openOrderIds({ deadline: Date.now() - 1 })).rejects.toMatchObject({ code: 'venue_unavailable' });
    expect(fake.requestsSignedBy(alice.keyId).length).toBe(before + 1);
  });

  it('queue position: contracts ahead at the price, orders ahead unknown; none once canceled', async () => {
    maker(FED, 'bid', '0.3000', '5.00');
    const req = request({ price: '0.30', quantity: '2' });
    await place(req);
    const venueOrderId = atFake(req.clientOrderId)[0]!.orderId;
    await expect(venue.queuePosition(req.clientOrderId)).resolves.toEqual({ venueOrderId, ordersAhead: null, quantityAhead: '5' });
    await venue.cancelOrder(req.clientOrderId);
    await expect(venue.queuePosition(req.clientOrderId)).resolves.toBeNull();
  });

  it('WebSocket fill messages reach the listeners in our terms, only for our orders, as the REST sweep reads them', async () => {
    const frames: unknown[] = [];
    fake.exchange.onUserEvent((userId, event) => {
      if (userId === 'user-alice') frames.push({ type: event.channel === 'fill' ? 'fill' : 'user_order', sid: 1, seq: frames.length + 1, msg: event.msg });
    });
    const since = new Date();
    const req = request({ side: 'no', action: 'buy', price: '0.60', quantity: '3' }); // rests as an ask YES 0.40
    await place(req);
    expect(fake.placeOrderAs('user-alice', v2OrderBody(FED, { price: '0.1000', count: '1.00', client_order_id: 'not-ours' }))).toMatchObject({ status: 201 });
    maker(FED, 'bid', '0.4000', '2.00'); // trades against our resting ask
    maker(FED, 'ask', '0.0900', '1.00'); // trades against the order that is not ours

    const pushed: VenueFill[][] = [];
    const stop = venue.onFills((batch) => pushed.push(batch));
    await venue.applyStreamFills(frames);
    stop();
    expect(pushed).toEqual([[expect.objectContaining({ clientOrderId: req.clientOrderId, side: 'no', action: 'buy', price: '0.6', quantity: '2', fee: '0', isTaker: false })]]);
    await expect(venue.fillsSince(since)).resolves.toEqual(pushed[0]);
  });
});
