/**
 * The private Kalshi stream (core/venues/kalshi/userStream.ts) against the faithful fake over
 * loopback: the signed handshake, `fill` and `user_orders` delivered as Kalshi sends them,
 * reconnect after a drop and after a frozen socket, a refused key backed off, close() leaving
 * nothing behind, and two credentials each seeing only their account. Keys are made at run time;
 * the fake pings every 50 ms and the stream calls a socket stale after 300 ms of silence.
 *
 * Sequence gaps, error frames and unknown frame types cannot be made at the fake (it never skips a
 * seq, and errors only answer commands our client does not send), so one test plays Kalshi with
 * a scripted loopback WebSocket server sending exactly those frames.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { KalshiSession } from '../../core/venues/kalshi/session';
import { createKalshiSigner, type KalshiSigner } from '../../core/venues/kalshi/signing';
import { KALSHI_RATE_TIERS } from '../../core/venues/kalshi/tokenBuckets';
import { KalshiUserStream, type KalshiStreamGap, type KalshiUserStreamOptions } from '../../core/venues/kalshi/userStream';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';

const MARKET = 'KXFAKEFED-26DEC-T4.00';
const WS_PATH = '/trade-api/ws/v2';
const STALE_AFTER_MS = 300;
const BACKOFF = { baseMs: 20, maxMs: 200 };

const alice = newKalshiKey();
const bob = newKalshiKey();
/** A key the fake does not know. */
const stranger = newKalshiKey();

type Msg = Record<string, any>;

interface Watched {
  readonly stream: KalshiUserStream;
  readonly fills: Msg[];
  readonly orders: Msg[];
  readonly connected: { reconnect: boolean }[];
  readonly gaps: KalshiStreamGap[];
  /** The timestamp of every handshake signature the stream asked for. */
  readonly signedAt: number[];
}

const fakes: KalshiFake[] = [];
const sessions: KalshiSession[] = [];
const streams: KalshiUserStream[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function startFake(): Promise<KalshiFake> {
  const fake = await KalshiFake.start({
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '1000.00', keys: [bob] },
      { userId: 'user-maker', balanceDollars: '100000.00' },
    ],
    pingIntervalMs: 50,
  });
  fakes.push(fake);
  return fake;
}

/** Our signer, with a clock that notes each signature's timestamp. */
function signerFor(key: KalshiKey, signedAt: number[], privateKey: KeyObject = key.privateKey): KalshiSigner {
  return createKalshiSigner(key.keyId, privateKey, () => {
    const now = Date.now();
    signedAt.push(now);
    return now;
  });
}

function watch(wsUrl: string, key: KalshiKey, overrides: Partial<KalshiUserStreamOptions> = {}, privateKey?: KeyObject): Watched {
  const watched: Watched = { stream: undefined as never, fills: [], orders: [], connected: [], gaps: [], signedAt: [] };
  const stream = new KalshiUserStream({
    wsUrl,
    signer: signerFor(key, watched.signedAt, privateKey),
    onFills: (messages) => void watched.fills.push(...(messages as Msg[])),
    onUserOrders: (messages) => void watched.orders.push(...(messages as Msg[])),
    onConnected: (info) => void watched.connected.push(info),
    onGap: (gap) => void watched.gaps.push(gap),
    staleAfterMs: STALE_AFTER_MS,
    backoff: BACKOFF,
    handshakeTimeoutMs: 300,
    ...overrides,
  });
  streams.push(stream);
  stream.start();
  return Object.assign(watched, { stream });
}

function session(fake: KalshiFake, key: KalshiKey): KalshiSession {
  const made = new KalshiSession({ restUrl: fake.baseUrl, signer: createKalshiSigner(key.keyId, key.privateKey), tier: KALSHI_RATE_TIERS.basic, timeoutMs: 2000 });
  sessions.push(made);
  return made;
}

/** Our resting bid, placed through a signed session; answers Kalshi's order id and our client id. */
async function restingBid(s: KalshiSession, overrides: Record<string, unknown> = {}): Promise<{ orderId: string; clientOrderId: string }> {
  const clientOrderId = randomUUID();
  const outcome = await s.request<{ order_id: string }>('POST', '/portfolio/events/orders', {
    kind: 'write',
    body: v2OrderBody(MARKET, { client_order_id: clientOrderId, ...overrides }),
  });
  if (outcome.kind !== 'answered') throw new Error(`order not placed: ${JSON.stringify(outcome)}`);
  return { orderId: outcome.body.order_id, clientOrderId };
}

/** Another participant sells YES at 0.55, crossing resting bids. */
function crossAsMaker(fake: KalshiFake, count: string): void {
  const answer = fake.placeOrderAs('user-maker', v2OrderBody(MARKET, { side: 'ask', price: '0.5500', count, time_in_force: 'immediate_or_cancel' }));
  if (answer.status !== 201) throw new Error(`the maker's order was refused: ${JSON.stringify(answer.body)}`);
}

async function until<T>(probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const handshakes = (fake: KalshiFake, key: KalshiKey) => fake.requests.filter((r) => r.path === WS_PATH && r.claimedKeyId === key.keyId);

describe('the Kalshi private stream: fills and orders', () => {
  it("delivers a fill of our resting order, crossed by another participant, as Kalshi sends it, and our order's updates", async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice);
    await until(() => watched.connected.length === 1);
    expect(watched.connected).toEqual([{ reconnect: false }]);

    const ours = await restingBid(session(fake, alice));
    crossAsMaker(fake, '4.00');

    const fill = await until(() => watched.fills[0]);
    expect(fill).toMatchObject({
      order_id: ours.orderId,
      client_order_id: ours.clientOrderId,
      market_ticker: MARKET,
      book_side: 'bid',
      count_fp: '4.00',
      yes_price_dollars: '0.5600',
      is_taker: false,
      fill_id: expect.any(String),
    });
    const update = await until(() => watched.orders.find((o) => o.order_id === ours.orderId && o.fill_count_fp === '4.00'));
    expect(update).toMatchObject({ client_order_id: ours.clientOrderId, status: 'resting', remaining_count_fp: '6.00' });
    // Only our account's messages: the maker's fill is not ours.
    expect(watched.fills).toHaveLength(1);
    expect(watched.orders.every((o) => o.order_id === ours.orderId)).toBe(true);

    const status = watched.stream.status();
    expect(status).toMatchObject({ state: 'connected', attempts: 1, reconnects: 0, gaps: 0, backoffMs: null, lastProblem: null });
    expect(status.lastMessageAtMs).toEqual(expect.any(Number));
    expect(status.connectedSinceMs).toEqual(expect.any(Number));
    // The fake verified the handshake signature against alice's key.
    expect(handshakes(fake, alice).map((r) => [r.keyId, r.status])).toEqual([[alice.keyId, 101]]);
    expect(watched.signedAt).toHaveLength(1);
  });

  it('two credentials\u2019 streams each receive only their own account\u2019s fills and orders', async () => {
    const fake = await startFake();
    const a = watch(fake.wsUrl, alice);
    const b = watch(fake.wsUrl, bob);
    await until(() => a.connected.length === 1 && b.connected.length === 1);

    const aliceOrder = await restingBid(session(fake, alice), { count: '2.00', price: '0.5600' });
    const bobOrder = await restingBid(session(fake, bob), { count: '2.00', price: '0.5700' });
    crossAsMaker(fake, '4.00');

    await until(() => a.fills.length === 1 && b.fills.length === 1);
    expect(a.fills[0]).toMatchObject({ order_id: aliceOrder.orderId, client_order_id: aliceOrder.clientOrderId, yes_price_dollars: '0.5600' });
    expect(b.fills[0]).toMatchObject({ order_id: bobOrder.orderId, client_order_id: bobOrder.clientOrderId, yes_price_dollars: '0.5700' });
    await until(() => a.orders.some((o) => o.status === 'executed') && b.orders.some((o) => o.status === 'executed'));
    expect(new Set(a.orders.map((o) => o.order_id))).toEqual(new Set([aliceOrder.orderId]));
    expect(new Set(b.orders.map((o) => o.order_id))).toEqual(new Set([bobOrder.orderId]));
    expect(handshakes(fake, alice).map((r) => r.keyId)).toEqual([alice.keyId]);
    expect(handshakes(fake, bob).map((r) => r.keyId)).toEqual([bob.keyId]);
  });
});

describe('the Kalshi private stream: reconnecting', () => {
  it('after a dropped socket: reconnects with a fresh signature, re-subscribes, says reconnect: true, and receives later fills', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice);
    await until(() => watched.connected.length === 1);

    fake.dropWebSockets();
    await until(() => watched.connected.length === 2);
    expect(watched.connected).toEqual([{ reconnect: false }, { reconnect: true }]);
    expect(watched.stream.status()).toMatchObject({ state: 'connected', reconnects: 1, attempts: 2, lastProblem: { kind: 'connection_lost', closeCode: 1006 } });
    expect(handshakes(fake, alice).map((r) => r.status)).toEqual([101, 101]);
    expect(watched.signedAt).toHaveLength(2);
    expect(fake.openWebSockets).toBe(1);

    const ours = await restingBid(session(fake, alice));
    crossAsMaker(fake, '1.00');
    expect(await until(() => watched.fills[0])).toMatchObject({ order_id: ours.orderId, client_order_id: ours.clientOrderId, count_fp: '1.00' });
  });

  it('a frozen socket (open, silent) is found stale, replaced, and the stream resumes once the venue answers again', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice);
    await until(() => watched.connected.length === 1);

    fake.freezeWebSockets(true);
    await until(() => watched.stream.status().lastProblem?.kind === 'stale');
    // While the fake stays frozen, a new socket opens but its subscription is never answered.
    await until(() => watched.stream.status().lastProblem?.kind === 'subscribe_timeout');
    expect(watched.stream.status().state).not.toBe('connected');
    expect(watched.connected).toHaveLength(1);

    fake.freezeWebSockets(false);
    await until(() => watched.connected.length === 2);
    expect(watched.connected[1]).toEqual({ reconnect: true });
    expect(watched.stream.status()).toMatchObject({ state: 'connected', reconnects: 1 });
    await until(() => fake.openWebSockets === 1);

    const ours = await restingBid(session(fake, alice));
    crossAsMaker(fake, '2.00');
    expect(await until(() => watched.fills[0])).toMatchObject({ order_id: ours.orderId, count_fp: '2.00' });
  });

  it('a refused key (401) waits the longest backoff between attempts, even with zero jitter, and shows why', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, stranger, { random: () => 0 });
    await until(() => watched.stream.status().lastProblem?.kind === 'handshake_refused');
    const status = watched.stream.status();
    expect(status).toMatchObject({
      state: 'backing_off',
      backoffMs: BACKOFF.maxMs,
      lastProblem: { kind: 'handshake_refused', status: 401, venueCode: 'authentication_error' },
    });
    expect(watched.connected).toEqual([]);

    // Over a window of 600 ms a tight loop (zero jitter) would try hundreds of times; at 200 ms
    // apart there is room for at most four attempts.
    await pause(600);
    // Counted between attempts, so the stream's count and the fake's agree.
    await until(() => {
      const now = watched.stream.status();
      return now.state === 'backing_off' && now.attempts === handshakes(fake, stranger).length;
    });
    const attempts = handshakes(fake, stranger);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.length).toBeLessThanOrEqual(5);
    expect(attempts.every((r) => r.status === 401 && r.keyId === null)).toBe(true);
    expect(watched.stream.status().attempts).toBe(attempts.length);
    expect(watched.signedAt).toHaveLength(attempts.length);

    // Nothing the stream shows carries a header, a signature or the key.
    const shown = JSON.stringify(watched.stream.status());
    for (const secret of ['KALSHI-ACCESS', 'PRIVATE KEY', stranger.privateKeyPem.split('\n')[1]!]) expect(shown).not.toContain(secret);
  });

  it("a handshake signed with the wrong private key is refused the same way (Kalshi's signature check)", async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice, { random: () => 0 }, bob.privateKey);
    await until(() => watched.stream.status().lastProblem?.kind === 'handshake_refused');
    expect(watched.stream.status()).toMatchObject({ state: 'backing_off', backoffMs: BACKOFF.maxMs, lastProblem: { status: 401 } });
    expect(handshakes(fake, alice).every((r) => r.status === 401 && r.keyId === null)).toBe(true);
  });
});

describe('the Kalshi private stream: closing', () => {
  it('close() ends the socket and never reconnects', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice);
    await until(() => watched.connected.length === 1);
    expect(fake.openWebSockets).toBe(1);

    await watched.stream.close();
    expect(watched.stream.status().state).toBe('closed');
    await until(() => fake.openWebSockets === 0);
    await pause(BACKOFF.maxMs * 2);
    expect(handshakes(fake, alice)).toHaveLength(1);
    expect(watched.stream.status()).toMatchObject({ state: 'closed', attempts: 1 });
    expect(() => watched.stream.start()).toThrow('closed');
  });

  it('close() while backing off cancels the pending attempt', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, stranger);
    await until(() => watched.stream.status().state === 'backing_off');
    const seen = handshakes(fake, stranger).length;
    await watched.stream.close();
    await pause(BACKOFF.maxMs * 2);
    expect(handshakes(fake, stranger)).toHaveLength(seen);
    expect(watched.stream.status()).toMatchObject({ state: 'closed', backoffMs: null, retryAtMs: null });
  });

  it('close() while the venue is frozen still ends the socket promptly', async () => {
    const fake = await startFake();
    const watched = watch(fake.wsUrl, alice, { staleAfterMs: 60_000 });
    await until(() => watched.connected.length === 1);
    fake.freezeWebSockets(true);
    await watched.stream.close();
    await until(() => fake.openWebSockets === 0);
    expect(handshakes(fake, alice)).toHaveLength(1);
  });
});

describe('the Kalshi private stream: frames the fake cannot make', () => {
  /** Plays Kalshi: answers the subscribe, then sends `script` once both subscriptions are answered. */
  async function scriptedVenue(script: (string | object)[]): Promise<{ url: string; close: () => Promise<void> }> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: WS_PATH });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    server.on('connection', (socket) => {
      socket.on('message', (data) => {
        const command = JSON.parse(data.toString()) as { id: number; cmd: string };
        if (command.cmd !== 'subscribe') return;
        socket.send(JSON.stringify({ type: 'subscribed', id: command.id, msg: { channel: 'fill', sid: 1 } }));
        socket.send(JSON.stringify({ type: 'subscribed', id: command.id, msg: { channel: 'user_orders', sid: 2 } }));
        for (const frame of script) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
      });
    });
    const { port } = server.address() as AddressInfo;
    return {
      url: `ws://127.0.0.1:${port}${WS_PATH}`,
      close: () =>
        new Promise<void>((resolve) => {
          for (const client of server.clients) client.terminate();
          server.close(() => resolve());
        }),
    };
  }

  it('counts a skipped seq as a gap, ignores unknown and unreadable frames, and surfaces error frames as a state', async () => {
    const venue = await scriptedVenue([
      { type: 'fill', sid: 1, seq: 1, msg: { fill_id: 'f1' } },
      { type: 'user_order', sid: 2, seq: 1, msg: { order_id: 'o1' } },
      { type: 'market_position', sid: 9, seq: 1, msg: { ticker: 'X' } },
      'not json',
      { type: 'fill', sid: 1, seq: 3, msg: { fill_id: 'f3' } },
      { type: 'user_order', sid: 2, seq: 2, msg: { order_id: 'o1', status: 'executed' } },
      { type: 'error', id: 99, msg: { code: 10, msg: 'Channel error' } },
    ]);
    try {
      const watched = watch(venue.url, alice);
      await until(() => watched.stream.status().lastProblem !== null);
      expect(watched.fills).toEqual([{ fill_id: 'f1' }, { fill_id: 'f3' }]);
      expect(watched.orders).toEqual([{ order_id: 'o1' }, { order_id: 'o1', status: 'executed' }]);
      expect(watched.gaps).toEqual([{ channel: 'fill', sid: 1, expectedSeq: 2, receivedSeq: 3 }]);
      expect(watched.stream.status()).toMatchObject({ state: 'connected', gaps: 1, lastProblem: { kind: 'venue_error', code: 10, message: 'Channel error' } });
    } finally {
      await venue.close();
    }
  });

  it("survives an owner's callback that throws or rejects: the problem is shown and later messages still arrive", async () => {
    const venue = await scriptedVenue([
      { type: 'fill', sid: 1, seq: 1, msg: { fill_id: 'throws' } },
      { type: 'fill', sid: 1, seq: 2, msg: { fill_id: 'rejects' } },
      { type: 'fill', sid: 1, seq: 3, msg: { fill_id: 'f3' } },
    ]);
    try {
      const applied: string[] = [];
      const watched = watch(venue.url, alice, {
        onFills: (messages) => {
          const id = (messages as Msg[])[0]!.fill_id as string;
          if (id === 'throws') throw new Error('the owner failed');
          if (id === 'rejects') return Promise.reject(new Error('the owner failed later'));
          applied.push(id);
          return undefined;
        },
      });
      await until(() => applied.length === 1 && watched.stream.status().lastProblem !== null);
      expect(applied).toEqual(['f3']);
      expect(watched.stream.status()).toMatchObject({ state: 'connected', gaps: 0, lastProblem: { kind: 'callback_failed', callback: 'onFills' } });
    } finally {
      await venue.close();
    }
  });
});
