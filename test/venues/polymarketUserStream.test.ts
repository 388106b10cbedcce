/**
 * The Polymarket user channel client (core/venues/polymarket/userStream.ts) against the faithful
 * fake over loopback (fakes/polymarket/userChannel.ts: the subscription with the API credentials,
 * `PING`/`PONG`, order and trade events, drop and freeze): the subscription, our trades read
 * through the adapter's one mapping (the same fill ids and terms as the REST listing) as they
 * happen, a FAILED trade told apart, a CANCELLATION as a state, a reconnect after a drop, a frozen
 * socket taken for dead and replaced, wrong credentials backed off. Keys are made at run time; the
 * stream pings every 50 ms and calls a socket stale after 300 ms of silence.
 */
import { randomUUID } from 'node:crypto';
import type { ApiKeyCreds } from '@polymarket/clob-client-v2';
import { PolymarketVenue } from '../../core/venues/polymarket/polymarketVenue';
import type { PolymarketFill } from '../../core/venues/polymarket/orderWire';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { Chain, polymarketSigning } from '../../core/venues/polymarket/signing';
import { PolymarketUserStream, type PolymarketUserStreamOptions } from '../../core/venues/polymarket/userStream';
import type { VenueOrderRequest, VenueOrderState } from '../../core/venues/venue';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { eventually } from '../support/kalshiLive';
import { MemoryOrders } from '../support/memoryOrders';
import { newPolymarketTrader, PM_FED as FED, PolymarketMaker, type PolymarketTrader } from '../support/polymarketLive';

// Well above a busy test worker's pauses (a PONG 300 ms late under a loaded CI run was taken for a frozen peer).
const STALE_AFTER_MS = 800;
const BACKOFF = { baseMs: 20, maxMs: 200 };

let fake: PolymarketFake;
let alice: PolymarketTrader;
let maker: PolymarketTrader;
let makerClient: PolymarketMaker;
const streams: PolymarketUserStream[] = [];
const venues: PolymarketVenue[] = [];

beforeEach(async () => {
  alice = newPolymarketTrader('1000');
  maker = newPolymarketTrader('100000');
  // Trades stay MATCHED until a test moves them (the control API's path, in code).
  fake = await PolymarketFake.start({ accounts: [alice.account, maker.account], settlement: { automatic: false } });
  makerClient = new PolymarketMaker(fake.baseUrl, maker);
});
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  await Promise.all(venues.splice(0).map((v) => v.close()));
  await makerClient.close();
  await fake.close();
});

const credsOf = (trader: PolymarketTrader): ApiKeyCreds => ({ key: trader.account.apiKey, secret: trader.account.secret, passphrase: trader.account.passphrase });

interface Watched {
  readonly stream: PolymarketUserStream;
  readonly events: Record<string, unknown>[];
  readonly connected: { reconnect: boolean }[];
}

function watch({ creds = credsOf(alice), ...options }: Partial<Omit<PolymarketUserStreamOptions, 'creds'>> & { creds?: ApiKeyCreds } = {}): Watched {
  const events: Record<string, unknown>[] = [];
  const connected: { reconnect: boolean }[] = [];
  const stream = new PolymarketUserStream({
    wsUrl: fake.userChannelUrl,
    creds: () => creds,
    onEvents: (batch) => void events.push(...(batch as Record<string, unknown>[])),
    onConnected: (info) => void connected.push(info),
    pingIntervalMs: 50,
    staleAfterMs: STALE_AFTER_MS,
    backoff: BACKOFF,
    handshakeTimeoutMs: 1000,
    ...options,
  });
  streams.push(stream);
  stream.start();
  return { stream, events, connected };
}

/** Alice's adapter, with our record of the order written before it is sent (as the order service does). */
function aliceVenue(): { venue: PolymarketVenue; ours: MemoryOrders } {
  const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: 0, funderAddress: alice.account.funderAddress as `0x${string}`, privateKey: alice.privateKey });
  const session = new PolymarketSession({ baseUrl: fake.baseUrl, signing, timeoutMs: 2000, creds: credsOf(alice) });
  const ours = new MemoryOrders();
  const venue = new PolymarketVenue({ session, ourOrders: ours, markets: { byVenueMarketId: async (id) => (id === FED.venueMarketId ? FED : null), traded: async () => [FED] } });
  venues.push(venue);
  return { venue, ours };
}

async function restingBuy(at: { venue: PolymarketVenue; ours: MemoryOrders }, price: string, quantity: string): Promise<VenueOrderRequest & { venueOrderId: string }> {
  const req: VenueOrderRequest = { clientOrderId: `order_${randomUUID()}`, venueMarketId: FED.venueMarketId, side: 'yes', action: 'buy', type: 'limit', price, quantity, timeInForce: 'gtc' };
  at.ours.records.set(req.clientOrderId, { ...req, price, expiresAt: null, venueOrderId: null, createdAt: new Date() });
  const placed = await at.venue.placeOrder(req);
  if (placed.outcome !== 'accepted') throw new Error(`not placed: ${JSON.stringify(placed)}`);
  at.ours.records.get(req.clientOrderId)!.venueOrderId = placed.order.venueOrderId;
  return { ...req, venueOrderId: placed.order.venueOrderId! };
}

const connectedOnce = (w: Watched, count = 1) => eventually('the subscription answered', async () => (w.connected.length >= count ? true : undefined));

describe('the Polymarket user channel client', () => {
  it('subscribes with the API credentials, keeps the socket alive with PING while nothing happens, and is told nothing of another account', async () => {
    const w = watch();
    await connectedOnce(w);
    expect(w.connected).toEqual([{ reconnect: false }]);
    expect(fake.userChannel.subscribedCount).toBe(1);
    expect(w.stream.status()).toMatchObject({ state: 'connected', attempts: 1, reconnects: 0, lastProblem: null });
    // Three stale periods of silence but for our PINGs' PONGs: still the first connection.
    await new Promise((resolve) => setTimeout(resolve, 3 * STALE_AFTER_MS));
    expect(w.stream.status()).toMatchObject({ state: 'connected', attempts: 1, lastProblem: null });
    // The maker's own resting order is the maker's business.
    await makerClient.post({ tokenId: FED.yesTokenId, side: 'SELL', price: '0.70', size: '5' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(w.events).toEqual([]);
  });

  it('our trades arrive as they happen, as the fills REST lists (same ids and terms); a FAILED trade is told apart; a CANCELLATION is a state', async () => {
    const at = aliceVenue();
    const read = { fills: [] as PolymarketFill[], failed: [] as PolymarketFill[], canceled: [] as VenueOrderState[] };
    const w = watch({
      onEvents: async (events) => {
        const got = await at.venue.readUserEvents(events);
        read.fills.push(...got.fills);
        read.failed.push(...got.failed);
        read.canceled.push(...got.canceled);
      },
    });
    await connectedOnce(w);
    const order = await restingBuy(at, '0.45', '8');
    expect(await makerClient.post({ tokenId: FED.yesTokenId, side: 'SELL', price: '0.45', size: '5' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });

    const [fill] = await eventually('the streamed fill', async () => (read.fills.length > 0 ? read.fills : undefined));
    expect(fill).toMatchObject({ clientOrderId: order.clientOrderId, venueOrderId: order.venueOrderId, price: '0.45', quantity: '5', fee: '0', isTaker: false, tradeStatus: 'MATCHED', side: 'yes', action: 'buy' });
    expect(fill!.venueFillId).toMatch(new RegExp(`^[0-9a-f-]{36}:M:${order.venueOrderId}$`));
    // One mapping: the REST listing answers the very same fill.
    expect(await at.venue.fillsSince(new Date(Date.now() - 60_000))).toEqual([fill]);

    const tradeId = fill!.venueFillId.split(':')[0]!;
    expect(fake.exchange.setTradeStatus(tradeId, 'FAILED').ok).toBe(true);
    const [failed] = await eventually('the FAILED trade', async () => (read.failed.length > 0 ? read.failed : undefined));
    expect(failed).toEqual({ ...fill, tradeStatus: 'FAILED' });
    // REST now lists it apart too.
    expect(await at.venue.fillsAndFailuresSince(new Date(Date.now() - 60_000))).toEqual({ fills: [], failed: [failed] });

    expect(await at.venue.cancelOrder(order.clientOrderId)).toMatchObject({ outcome: 'canceled' });
    const [canceled] = await eventually('the CANCELLATION', async () => (read.canceled.length > 0 ? read.canceled : undefined));
    expect(canceled).toEqual({ venueOrderId: order.venueOrderId, clientOrderId: order.clientOrderId, status: 'canceled', filledQuantity: '5', remainingQuantity: '0' });
    // The UPDATE of the match and the PLACEMENT said nothing to record.
    expect(read.canceled).toHaveLength(1);
  });

  it('a dropped connection reconnects and tells the owner to sweep the gap (the venue replays nothing); events flow on the new socket', async () => {
    const at = aliceVenue();
    const w = watch();
    await connectedOnce(w);
    fake.dropWebSockets();
    await connectedOnce(w, 2);
    expect(w.connected).toEqual([{ reconnect: false }, { reconnect: true }]);
    expect(w.stream.status()).toMatchObject({ state: 'connected', attempts: 2, reconnects: 1, lastProblem: { kind: 'connection_lost' } });
    // Events flow on the new socket.
    await restingBuy(at, '0.30', '5');
    await eventually('the PLACEMENT on the new socket', async () => (w.events.some((e) => e.type === 'PLACEMENT') ? true : undefined));
  });

  it('a frozen socket (open, silent: no PONG) is taken for dead after the stale period and replaced', async () => {
    const w = watch();
    await connectedOnce(w);
    fake.freezeWebSockets(true);
    const frozenAt = Date.now();
    await eventually('the stale socket ended', async () => (w.stream.status().lastProblem?.kind === 'stale' ? true : undefined));
    expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(STALE_AFTER_MS - 60);
    fake.freezeWebSockets(false);
    await connectedOnce(w, 2);
    expect(w.connected.at(-1)).toEqual({ reconnect: true });
    expect(w.stream.status()).toMatchObject({ state: 'connected', reconnects: 1 });
  });

  it('wrong credentials: the venue drops the subscription without a word; never connected, retried after the longest backoff', async () => {
    const w = watch({ creds: { ...credsOf(alice), secret: Buffer.from('not the secret').toString('base64') } });
    await eventually('the refused subscription', async () => (w.stream.status().lastProblem?.kind === 'subscription_refused' ? true : undefined));
    expect(w.stream.status()).toMatchObject({ state: 'backing_off', backoffMs: BACKOFF.maxMs });
    expect(w.connected).toEqual([]);
    expect(fake.userChannel.subscribedCount).toBe(0);
    // And no secret in what the stream says about itself.
    expect(JSON.stringify(w.stream.status())).not.toContain(alice.account.secret);
  });

  it('close() ends the socket and every timer; no reconnect follows', async () => {
    const w = watch();
    await connectedOnce(w);
    await w.stream.close();
    await eventually('the socket gone at the fake', async () => (fake.userChannel.subscribedCount === 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 2 * BACKOFF.maxMs));
    expect(w.stream.status()).toMatchObject({ state: 'closed', attempts: 1 });
    expect(() => w.stream.start()).toThrow(/closed/);
  });
});
