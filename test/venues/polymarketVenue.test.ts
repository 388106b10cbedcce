/**
 * The Polymarket venue adapter (core/venues/polymarket/polymarketVenue.ts, CLOB V2) against the
 * faithful fake over loopback (fakes/polymarket/, which verifies every order's EIP-712 signature
 * and every request's L2 or L1 headers). Orders rest, cancel and fill in our own terms (a NO order
 * trades the NO token); each order type and the venue's refusals map to our outcomes; a lost answer
 * is `unknown`, found by its hash, and sending it again is answered `Duplicated` and never makes a
 * second order. `OurOrders` and the market lookup are our own ports, fed here from small in-memory
 * maps, as the core feeds them from the database. Keys are made at run time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { ensurePolymarketApiCreds } from '../../core/venues/polymarket/polymarketAccounts';
import { PolymarketVenue } from '../../core/venues/polymarket/polymarketVenue';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { Chain, polymarketSigning } from '../../core/venues/polymarket/signing';
import type { PolymarketMarketTerms, PolymarketMarkets } from '../../core/venues/polymarket/orderWire';
import type { VenueOrderRequest, VenuePlaceResult } from '../../core/venues/venue';
import { defaultTokens } from '../../fakes/polymarket/markets';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { MemoryOrders } from '../support/memoryOrders';
import { newPolymarketTrader as newTrader, PM_FED as FED, type PolymarketTrader } from '../support/polymarketLive';

const [, , ELECTION_YES] = defaultTokens();
const ELECTION_NO = { ...ELECTION_YES!, tokenId: '9'.repeat(70), outcome: 'No' };
/** A catalog row the client cannot sign for (its token ids are not uint256). */
const BROKEN: PolymarketMarketTerms = { venueMarketId: `0x${'0b'.repeat(32)}`, yesTokenId: 'not-a-token', noTokenId: 'nor-this', negRisk: false, tickSize: '0.01', minSize: '5' };
const ELECTION: PolymarketMarketTerms = { venueMarketId: ELECTION_YES!.conditionId, yesTokenId: ELECTION_YES!.tokenId, noTokenId: ELECTION_NO.tokenId, negRisk: true, tickSize: '0.001', minSize: '5' };

/** Our catalog's rows; `traded` are the markets the account has orders in (its positions are read there). */
class MemoryMarkets implements PolymarketMarkets {
  constructor(private tradedMarkets: PolymarketMarketTerms[], private readonly others: PolymarketMarketTerms[] = []) {}
  /** The catalog sync changed a market's tick (Gamma's `orderPriceMinTickSize`). */
  retick(venueMarketId: string, tickSize: string) {
    this.tradedMarkets = this.tradedMarkets.map((market) => (market.venueMarketId === venueMarketId ? { ...market, tickSize } : market));
  }
  async byVenueMarketId(id: string) {
    return [...this.tradedMarkets, ...this.others].find((market) => market.venueMarketId === id) ?? null;
  }
  async traded() {
    return this.tradedMarkets;
  }
}

type Trader = PolymarketTrader;

interface Opened {
  venue: PolymarketVenue;
  ours: MemoryOrders;
  markets: MemoryMarkets;
}

let fake: PolymarketFake;
let alice: Trader;
let maker: Trader;
const opened: PolymarketVenue[] = [];

function open(trader: Trader, options: { timeoutMs?: number; baseUrl?: string; creds?: boolean } = {}): Opened {
  const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: trader.account.signatureType, funderAddress: trader.account.funderAddress as `0x${string}`, privateKey: trader.privateKey });
  const creds = options.creds === false ? undefined : { key: trader.account.apiKey, secret: trader.account.secret, passphrase: trader.account.passphrase };
  const session = new PolymarketSession({ baseUrl: options.baseUrl ?? fake.baseUrl, signing, timeoutMs: options.timeoutMs ?? 2000, ...(creds ? { creds } : {}) });
  const ours = new MemoryOrders();
  const markets = new MemoryMarkets([FED, ELECTION], [BROKEN]);
  const venue = new PolymarketVenue({ session, ourOrders: ours, markets });
  opened.push(venue);
  return { venue, ours, markets };
}

beforeEach(async () => {
  alice = newTrader('1000');
  maker = newTrader('100000');
  fake = await PolymarketFake.start({ accounts: [alice.account, maker.account], tokens: [...defaultTokens(), ELECTION_NO] });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((venue) => venue.close()));
  await fake.close();
});

function request(overrides: Partial<VenueOrderRequest> = {}): VenueOrderRequest {
  return { clientOrderId: `order_${randomUUID()}`, venueMarketId: FED.venueMarketId, side: 'yes', action: 'buy', type: 'limit', price: '0.40', quantity: '10', timeInForce: 'gtc', ...overrides };
}

/** As our order service does: the record first (its creation time is the order's timestamp), then the venue; the venue order id kept once answered. */
async function place(at: Opened, req: VenueOrderRequest, options: { keepVenueOrderId?: boolean } = {}): Promise<VenuePlaceResult> {
  if (!at.ours.records.has(req.clientOrderId)) {
    at.ours.records.set(req.clientOrderId, { clientOrderId: req.clientOrderId, venueOrderId: null, venueMarketId: req.venueMarketId, side: req.side, action: req.action, type: req.type, price: req.price ?? null, quantity: req.quantity, timeInForce: req.timeInForce, createdAt: new Date() });
  }
  const result = await at.venue.placeOrder(req);
  if (result.outcome === 'accepted' && options.keepVenueOrderId !== false) at.ours.records.get(req.clientOrderId)!.venueOrderId = result.order.venueOrderId;
  return result;
}

const ordersAtFake = (apiKey: string) => fake.exchange.allOrders().filter((o) => o.apiKey === apiKey);
const postsBy = (apiKey: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/order' && (r.apiKey === apiKey || r.status === 'dropped'));

describe('the Polymarket venue: placing, canceling, reading', () => {
  it('a GTC limit rests under its EIP-712 hash, is read, canceled, and a second cancel is order_not_found', async () => {
    const at = open(alice);
    const req = request({ price: '0.40', quantity: '10' });
    const placed = await place(at, req);
    const [order] = ordersAtFake(alice.account.apiKey);
    expect(placed).toEqual({ outcome: 'accepted', order: { venueOrderId: order!.id, clientOrderId: req.clientOrderId, status: 'open', filledQuantity: '0', remainingQuantity: '10' }, fills: [] });
    expect(order).toMatchObject({ side: 'BUY', price: '0.40', originalUnits: 1000, status: 'LIVE', orderType: 'GTC', token: { tokenId: FED.yesTokenId } });
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ venueOrderId: order!.id, status: 'open', remainingQuantity: '10' });

    await expect(at.venue.cancelOrder(req.clientOrderId)).resolves.toEqual({ outcome: 'canceled', order: { venueOrderId: order!.id, clientOrderId: req.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' } });
    expect(order!.status).toBe('CANCELED');
    await expect(at.venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'rejected', code: 'order_not_found', venueCode: 'not_canceled' });
    await expect(at.venue.cancelOrder('order_not_ours')).resolves.toMatchObject({ outcome: 'rejected', code: 'order_not_found', venueCode: 'not_ours' });
  });

  it('the signed order is a pure function of our order: the hash is known before any answer, the same on another session', async () => {
    const at = open(alice);
    const req = request({ price: '0.33' });
    await place(at, req, { keepVenueOrderId: false });
    const [order] = ordersAtFake(alice.account.apiKey);
    // Another session of the same credential, with only our record, finds the order by the rebuilt hash.
    const again = open(alice);
    again.ours.records.set(req.clientOrderId, at.ours.records.get(req.clientOrderId)!);
    await expect(again.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ venueOrderId: order!.id, status: 'open' });
    await expect(again.venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'canceled' });
    await expect(again.venue.getOrder('order_unknown')).resolves.toBeNull();
  });

  it('a NO buy trades the NO token at its own price; a neg-risk market signs for the neg-risk exchange', async () => {
    const at = open(alice);
    await expect(place(at, request({ side: 'no', price: '0.30', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    await expect(place(at, request({ venueMarketId: ELECTION.venueMarketId, side: 'yes', price: '0.125', quantity: '8' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    expect(ordersAtFake(alice.account.apiKey).map((o) => [o.token.tokenId, o.side, o.price])).toEqual([
      [FED.noTokenId, 'BUY', '0.30'],
      [ELECTION.yesTokenId, 'BUY', '0.125'],
    ]);
    // The book is the YES token's, best first.
    await place(at, request({ price: '0.41', quantity: '6' }));
    await expect(at.venue.orderBook(FED.venueMarketId)).resolves.toEqual({ venueMarketId: FED.venueMarketId, bids: [{ price: '0.41', quantity: '6' }], asks: [], mid: null });
  });

  it('a proxy (POLY_PROXY) and a deposit wallet (POLY_1271): signed for the wallet that holds the funds, verified by the fake, resting', async () => {
    for (const signatureType of [1, 3] as const) {
      const owner = newTrader();
      const wallet = getAddress(`0x${randomBytes(20).toString('hex')}`);
      const trader = { ...owner, account: { ...owner.account, signatureType, funderAddress: wallet } };
      fake.addAccount(trader.account);
      const at = open(trader);
      await expect(place(at, request({ price: '0.35', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
      expect(ordersAtFake(trader.account.apiKey).map((o) => getAddress(o.makerAddress))).toEqual([wallet]);
    }
    expect(fake.requests.filter((r) => r.refusal !== undefined || (r.path === '/order' && r.status !== 200))).toEqual([]);
  });

  it('a crossing limit fills at the resting price: taker and maker fills, balances and positions move', async () => {
    const mk = open(maker);
    const at = open(alice);
    const ask = request({ action: 'sell', price: '0.56', quantity: '10' });
    await expect(place(mk, ask)).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });

    const buy = request({ price: '0.60', quantity: '6' });
    const result = await place(at, buy);
    expect(result).toMatchObject({ outcome: 'accepted', order: { status: 'filled', filledQuantity: '6', remainingQuantity: '0' } });
    const fills = result.outcome === 'accepted' ? result.fills : [];
    expect(fills).toEqual([expect.objectContaining({ clientOrderId: buy.clientOrderId, side: 'yes', action: 'buy', price: '0.56', quantity: '6', fee: '0', isTaker: true, tradeStatus: 'MATCHED' })]);

    const since = new Date(Date.now() - 5000);
    await expect(at.venue.fillsSince(since)).resolves.toEqual(fills);
    await expect(mk.venue.fillsSince(since)).resolves.toEqual([expect.objectContaining({ clientOrderId: ask.clientOrderId, action: 'sell', price: '0.56', quantity: '6', isTaker: false })]);
    await expect(mk.venue.getOrder(ask.clientOrderId)).resolves.toMatchObject({ status: 'open', filledQuantity: '6', remainingQuantity: '4' });
    await expect(at.venue.balance()).resolves.toBe('996.64');
    await expect(at.venue.positions()).resolves.toEqual([{ venueMarketId: FED.venueMarketId, netYes: '6' }]);
    await expect(at.venue.listFills({ afterVenueFillId: fills[0]!.venueFillId })).resolves.toEqual([]);
  });

  it('trade statuses are reported; a FAILED trade is no longer a fill but listed apart; its order reads canceled, not filled', async () => {
    const mk = open(maker);
    const at = open(alice);
    await expect(place(mk, request({ action: 'sell', price: '0.50', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted' });
    const req = request({ price: '0.50', quantity: '5' });
    await expect(place(at, req)).resolves.toMatchObject({ order: { status: 'filled', filledQuantity: '5' } });
    const since = new Date(Date.now() - 5000);
    const [fill] = await at.venue.fillsSince(since);
    const trade = fill!.venueFillId.split(':')[0]!;
    expect(fake.exchange.setTradeStatus(trade, 'MINED')).toMatchObject({ ok: true });
    await expect(at.venue.fillsSince(since)).resolves.toEqual([expect.objectContaining({ tradeStatus: 'MINED' })]);
    expect(fake.exchange.setTradeStatus(trade, 'FAILED')).toMatchObject({ ok: true });
    await expect(at.venue.fillsSince(since)).resolves.toEqual([]);
    await expect(at.venue.fillsAndFailuresSince(since)).resolves.toEqual({ fills: [], failed: [{ ...fill, tradeStatus: 'FAILED' }] });
    // The venue still says MATCHED (5 matched); with its only trade failed, nothing of it stands.
    expect(ordersAtFake(alice.account.apiKey).find((o) => o.id === fill!.venueOrderId)?.status).toBe('MATCHED');
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ status: 'canceled', filledQuantity: '0', remainingQuantity: '0' });
  });

  it('a filled order whose trades are not listed yet stays filled as the venue says: only trades seen FAILED are taken off', async () => {
    const mk = open(maker);
    const at = open(alice);
    await expect(place(mk, request({ action: 'sell', price: '0.50', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted' });
    const req = request({ price: '0.50', quantity: '5' });
    // Our order created "later" than its trade by more than the lookback: the trade listing for it shows nothing (as a lagging listing would).
    at.ours.records.set(req.clientOrderId, { clientOrderId: req.clientOrderId, venueOrderId: null, venueMarketId: req.venueMarketId, side: req.side, action: req.action, type: req.type, price: req.price!, quantity: req.quantity, timeInForce: req.timeInForce, createdAt: new Date(Date.now() + 300_000) });
    await expect(place(at, req)).resolves.toMatchObject({ order: { status: 'filled', filledQuantity: '5' } });
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ status: 'filled', filledQuantity: '5', remainingQuantity: '0' });
  });

  it('FOK and FAK: killed is an answer; FAK keeps what it matched; a market order takes the book up to its worst price', async () => {
    const mk = open(maker);
    const at = open(alice);
    await expect(place(at, request({ type: 'limit', timeInForce: 'fok', price: '0.50', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'canceled', filledQuantity: '0' }, fills: [] });
    await expect(place(at, request({ type: 'market', timeInForce: 'ioc', price: undefined, quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'canceled', filledQuantity: '0' }, fills: [] });

    await expect(place(mk, request({ action: 'sell', price: '0.45', quantity: '6' }))).resolves.toMatchObject({ outcome: 'accepted' });
    const fak = await place(at, request({ timeInForce: 'ioc', price: '0.50', quantity: '10' }));
    expect(fak).toMatchObject({ outcome: 'accepted', order: { status: 'canceled', filledQuantity: '6', remainingQuantity: '0' }, fills: [expect.objectContaining({ price: '0.45', quantity: '6' })] });

    await expect(place(mk, request({ action: 'sell', price: '0.40', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted' });
    const market = await place(at, request({ type: 'market', timeInForce: 'fok', price: undefined, quantity: '5' }));
    expect(market).toMatchObject({ outcome: 'accepted', order: { status: 'filled', filledQuantity: '5' }, fills: [expect.objectContaining({ price: '0.4', quantity: '5' })] });
    // Killed orders leave nothing at the fake; the market order was signed at the far end of the book.
    expect(ordersAtFake(alice.account.apiKey).map((o) => [o.orderType, o.price, o.status])).toEqual([
      ['FAK', '0.50', 'CANCELED'],
      ['FOK', '0.99', 'MATCHED'],
    ]);
  });

  it('refusals map to our codes, with the venue words kept; what we can tell is wrong is never sent', async () => {
    const at = open(alice);
    const posts = () => postsBy(alice.account.apiKey).length;
    await expect(place(at, request({ price: '0.555' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'price' });
    await expect(place(at, request({ quantity: '1.005' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'quantity' });
    await expect(place(at, request({ venueMarketId: `0x${'00'.repeat(32)}` }))).resolves.toMatchObject({ outcome: 'rejected', code: 'market_not_tradable', venueCode: 'unknown_market' });
    await expect(place(at, request({ type: 'market', timeInForce: 'gtc', price: undefined }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'time_in_force' });
    await expect(place(at, request({ venueMarketId: BROKEN.venueMarketId }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'token_id' });
    expect(posts()).toBe(0);
    await expect(place(at, request({ quantity: '2' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'min_size', message: expect.stringContaining('lower than the minimum: 5') });
    // A key the venue does not know: the credential's problem, not the order's.
    const stranger = open({ ...alice, account: { ...alice.account, apiKey: randomUUID() } });
    await expect(place(stranger, request())).resolves.toMatchObject({ outcome: 'rejected', code: 'venue_error', venueCode: 'unauthorized' });
    expect(ordersAtFake(alice.account.apiKey)).toEqual([]);
  });
});

describe('the Polymarket venue: lost answers and timeouts', () => {
  it('accept_then_drop: unknown, found by hash, and the re-send is answered Duplicated: one order at the venue', async () => {
    const at = open(alice);
    const req = request({ price: '0.42' });
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/order' });
    await expect(place(at, req)).resolves.toMatchObject({ outcome: 'unknown' });
    const [order] = ordersAtFake(alice.account.apiKey);
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ venueOrderId: order!.id, status: 'open', remainingQuantity: '10' });

    const again = await place(at, req);
    expect(again).toEqual({ outcome: 'accepted', order: { venueOrderId: order!.id, clientOrderId: req.clientOrderId, status: 'open', filledQuantity: '0', remainingQuantity: '10' }, fills: [] });
    expect(ordersAtFake(alice.account.apiKey)).toHaveLength(1);
    expect(postsBy(alice.account.apiKey).map((r) => r.status)).toEqual(['dropped', 400]);
  });

  it('the order is its own, not the catalog\'s: after a lost answer and a tick change, the re-send finds it by its first hash, sends nothing, and cancels it', async () => {
    const at = open(alice);
    const req = request({ price: '0.42' });
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/order' });
    await expect(place(at, req)).resolves.toMatchObject({ outcome: 'unknown' });
    const [order] = ordersAtFake(alice.account.apiKey);
    // The sync moves the market to a 0.1 tick: 0.42 breaks it now, but our order stays the order sent.
    at.markets.retick(FED.venueMarketId, '0.1');
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toMatchObject({ venueOrderId: order!.id, status: 'open' });
    await expect(place(at, req)).resolves.toEqual({ outcome: 'accepted', order: { venueOrderId: order!.id, clientOrderId: req.clientOrderId, status: 'open', filledQuantity: '0', remainingQuantity: '10' }, fills: [] });
    expect(postsBy(alice.account.apiKey).map((r) => r.status)).toEqual(['dropped']);
    at.ours.records.get(req.clientOrderId)!.venueOrderId = null;
    await expect(at.venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'canceled', order: { venueOrderId: order!.id } });
    expect(ordersAtFake(alice.account.apiKey).map((o) => [o.id, o.status])).toEqual([[order!.id, 'CANCELED']]);
    // An order of ours the venue never got is refused under the tick as it is now, and not sent.
    await expect(place(at, request({ price: '0.43' }))).resolves.toMatchObject({ outcome: 'rejected', code: 'invalid_request', venueCode: 'price', message: expect.stringContaining('0.1') });
    expect(postsBy(alice.account.apiKey)).toHaveLength(1);
  });

  it('a post that times out is unknown; once the venue placed it, the re-send reports it with its fills', async () => {
    const mk = open(maker);
    await expect(place(mk, request({ action: 'sell', price: '0.50', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted' });
    const at = open(alice, { timeoutMs: 300 });
    const req = request({ price: '0.50', quantity: '10' });
    fake.injectFault({ fault: { kind: 'delay', ms: 800, placeBeforeDelay: true }, method: 'POST', pathPrefix: '/order' });
    await expect(place(at, req)).resolves.toMatchObject({ outcome: 'unknown', message: expect.stringContaining('did not answer in time') });
    const again = await place(at, req);
    expect(again).toMatchObject({ outcome: 'accepted', order: { status: 'open', filledQuantity: '5', remainingQuantity: '5' }, fills: [expect.objectContaining({ clientOrderId: req.clientOrderId, quantity: '5', price: '0.5' })] });
    expect(ordersAtFake(alice.account.apiKey)).toHaveLength(1);
  });

  it('a 5xx on a post is unknown (nothing placed: the lookup says so and the re-send places it once); a 429 and a 425 are not_sent; a closed port is unreachable', async () => {
    const at = open(alice);
    const req = request({ price: '0.43' });
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'POST', pathPrefix: '/order' });
    await expect(place(at, req)).resolves.toMatchObject({ outcome: 'unknown' });
    await expect(at.venue.getOrder(req.clientOrderId)).resolves.toBeNull();
    await expect(place(at, req)).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });

    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: '/order' });
    await expect(place(at, request())).resolves.toMatchObject({ outcome: 'not_sent', reason: 'rate_limited', retryAfterMs: 1000 });
    expect(ordersAtFake(alice.account.apiKey)).toHaveLength(1);

    // 425 Too Early: the matching engine restarting processed nothing; a cancel then is venue_unavailable.
    fake.injectFault({ fault: { kind: 'server_error', status: 425 }, method: 'POST', pathPrefix: '/order' });
    const early = request({ price: '0.44' });
    await expect(place(at, early)).resolves.toMatchObject({ outcome: 'not_sent', reason: 'unreachable', retryAfterMs: 2000 });
    expect(ordersAtFake(alice.account.apiKey)).toHaveLength(1);
    fake.injectFault({ fault: { kind: 'server_error', status: 425 }, method: 'DELETE', pathPrefix: '/order' });
    await expect(at.venue.cancelOrder(req.clientOrderId)).resolves.toMatchObject({ outcome: 'rejected', code: 'venue_unavailable', venueCode: 'engine_restarting' });
    fake.injectFault({ fault: { kind: 'server_error', status: 425 }, method: 'GET', pathPrefix: '/balance-allowance' });
    await expect(at.venue.balance()).rejects.toMatchObject({ code: 'venue_unavailable' });
    await expect(place(at, early)).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    expect(ordersAtFake(alice.account.apiKey)).toHaveLength(2);

    const closed = await PolymarketFake.start();
    const url = closed.baseUrl;
    await closed.close();
    const nowhere = open(alice, { baseUrl: url });
    await expect(place(nowhere, request())).resolves.toMatchObject({ outcome: 'not_sent', reason: 'unreachable' });
    await expect(nowhere.venue.balance()).rejects.toMatchObject({ code: 'venue_unavailable' });
  });

  it('a read that times out is venue_unavailable, never a guess', async () => {
    const at = open(alice, { timeoutMs: 300 });
    const req = request();
    await place(at, req);
    fake.injectFault({ fault: { kind: 'delay', ms: 800, placeBeforeDelay: false }, method: 'GET', pathPrefix: '/data/order/' });
    await expect(at.venue.getOrder(req.clientOrderId)).rejects.toMatchObject({ code: 'venue_unavailable' });
  });
});

describe('the Polymarket session: credentials and clock', () => {
  it('API credentials absent: derived with L1 auth (created once, then derived: the same key)', async () => {
    const bob = newTrader();
    const first = open(bob, { creds: false });
    await expect(place(first, request())).resolves.toMatchObject({ outcome: 'rejected', code: 'venue_unavailable', venueCode: 'no_credentials' });
    const session = (first.venue as unknown as { session: PolymarketSession }).session;
    const created = await ensurePolymarketApiCreds(session);
    expect(created).toEqual({ key: expect.any(String), secret: expect.any(String), passphrase: expect.any(String) });
    await expect(place(first, request({ price: '0.31', quantity: '5' }))).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    const second = (open(bob, { creds: false }).venue as unknown as { session: PolymarketSession }).session;
    await expect(ensurePolymarketApiCreds(second)).resolves.toEqual(created);
    expect(fake.requests.filter((r) => r.path.startsWith('/auth/')).map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/auth/derive-api-key', 400],
      ['POST', '/auth/api-key', 200],
      ['GET', '/auth/derive-api-key', 200],
    ]);
  });

  it('the headers carry the venue clock: a venue two minutes ahead still accepts them', async () => {
    await fake.close();
    fake = await PolymarketFake.start({ accounts: [alice.account], clock: () => Date.now() + 120_000 });
    const at = open(alice);
    await expect(place(at, request())).resolves.toMatchObject({ outcome: 'accepted', order: { status: 'open' } });
    expect(fake.requests.filter((r) => r.refusal !== undefined)).toEqual([]);
  });
});
