/**
 * The Polymarket fake's live parts over real sockets: the user channel (`ws` client against the
 * fake's /ws/user), trades settling on the fake's clock, heartbeats that cancel everything when
 * missed, Cloudflare's throttle and the per-signer buckets, and the control API's socket faults.
 * Orders are signed by our signing layer (the official client's OrderBuilder) and every REST call
 * carries the client's L2 headers (test/support/polymarketTraders.ts).
 */
import { ClobClient } from '@polymarket/clob-client-v2';
import { Chain, polymarketSignerFromKey } from '../../core/venues/polymarket/signing';
import { PolymarketFake, type PolymarketFakeOptions } from '../../fakes/polymarket/server';
import { call, control, DEV_KEYS, ELECTION_YES, FED_YES, place, trader, UserSocket } from '../support/polymarketTraders';

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);

let fake: PolymarketFake;
const sockets: UserSocket[] = [];

async function start(options: PolymarketFakeOptions = {}): Promise<PolymarketFake> {
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], controlApi: true, settlement: { automatic: false }, ...options });
  return fake;
}

async function subscribe(who = alice, markets: string[] = []): Promise<UserSocket> {
  const socket = await UserSocket.subscribe(fake, who, markets);
  sockets.push(socket);
  return socket;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await fake.close();
});

describe('the user channel', () => {
  it('pushes an order\'s PLACEMENT and CANCELLATION to its owner, with the venue\'s fields; PING is answered PONG', async () => {
    await start();
    const socket = await subscribe(alice);
    const placed = await place(fake, alice);
    const placement = await socket.nextJson();
    expect(placement).toEqual({
      event_type: 'order',
      type: 'PLACEMENT',
      id: placed.body.orderID,
      owner: alice.creds.key,
      order_owner: alice.creds.key,
      maker_address: alice.signing.signerAddress,
      market: FED_YES.conditionId,
      asset_id: FED_YES.tokenId,
      side: 'BUY',
      original_size: '10',
      size_matched: '0',
      price: '0.56',
      associate_trades: null,
      outcome: 'Yes',
      status: 'LIVE',
      order_type: 'GTC',
      expiration: '0',
      created_at: expect.stringMatching(/^\d+$/),
      timestamp: expect.stringMatching(/^\d+$/),
    });

    expect((await call(fake, alice, 'DELETE', '/order', { orderID: placed.body.orderID })).body.canceled).toEqual([placed.body.orderID]);
    expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'CANCELLATION', id: placed.body.orderID, status: 'CANCELED' });
    expect(await socket.ping()).toBe('PONG');
  });

  it('hears only its own account and its subscribed markets; subscribe/unsubscribe operations change the markets', async () => {
    await start();
    const all = await subscribe(alice);
    const otherMarket = await subscribe(alice, [ELECTION_YES.conditionId]);
    const bobs = await subscribe(bob);

    const placed = await place(fake, alice);
    expect(await all.nextJson()).toMatchObject({ type: 'PLACEMENT', id: placed.body.orderID });
    // Frames arrive in order: a PONG first means no order event was sent to these sockets.
    expect(await otherMarket.ping()).toBe('PONG');
    expect(await bobs.ping()).toBe('PONG');

    otherMarket.ws.send(JSON.stringify({ operation: 'subscribe', markets: [FED_YES.conditionId] }));
    expect(await otherMarket.ping()).toBe('PONG'); // the operation was read before the next order
    const second = await place(fake, alice, { price: '0.55' });
    expect(await otherMarket.nextJson()).toMatchObject({ type: 'PLACEMENT', id: second.body.orderID });

    otherMarket.ws.send(JSON.stringify({ operation: 'unsubscribe', markets: [FED_YES.conditionId] }));
    expect(await otherMarket.ping()).toBe('PONG');
    await call(fake, alice, 'DELETE', '/order', { orderID: second.body.orderID });
    expect(await otherMarket.ping()).toBe('PONG');
  });

  it('drops a subscription with a wrong secret, a wrong passphrase, an unknown key or no auth, without an answer', async () => {
    await start();
    const attempts = [
      { auth: { apiKey: alice.creds.key, secret: bob.creds.secret, passphrase: alice.creds.passphrase }, markets: [], type: 'user' },
      { auth: { apiKey: alice.creds.key, secret: alice.creds.secret, passphrase: 'wrong' }, markets: [], type: 'user' },
      { auth: { apiKey: 'unknown-key', secret: alice.creds.secret, passphrase: alice.creds.passphrase }, type: 'user' },
      { markets: [], type: 'user' },
    ];
    for (const attempt of attempts) {
      const socket = await UserSocket.open(fake.userChannelUrl);
      sockets.push(socket);
      socket.ws.send(JSON.stringify(attempt));
      expect(await socket.closed).toBe(1006); // terminated: no close frame
      expect(socket.frames).toEqual([]);
    }
  });

  it('answers 404 to a WebSocket upgrade on another path', async () => {
    await start();
    await expect(UserSocket.open(fake.userChannelUrl.replace('/ws/user', '/ws/other'))).rejects.toThrow('handshake answered 404');
  });
});

describe('a trade on the user channel and its settlement', () => {
  it('reaches maker (UPDATE, trade as MAKER) and taker (PLACEMENT, trade as TAKER), then settles MATCHED -> MINED -> CONFIRMED on the clock', async () => {
    await start({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
    const makerSocket = await subscribe(alice);
    const takerSocket = await subscribe(bob);
    const resting = await place(fake, alice);
    expect(await makerSocket.nextJson()).toMatchObject({ type: 'PLACEMENT' });
    const crossing = await place(fake, bob, { side: 'SELL', price: '0.55', size: '6' });
    const tradeId = crossing.body.tradeIDs[0];

    expect(await makerSocket.nextJson()).toMatchObject({ event_type: 'order', type: 'UPDATE', id: resting.body.orderID, size_matched: '6', status: 'LIVE', associate_trades: [tradeId] });
    const makerTrade = await makerSocket.nextJson();
    expect(makerTrade).toMatchObject({
      event_type: 'trade',
      type: 'TRADE',
      id: tradeId,
      status: 'MATCHED',
      trader_side: 'MAKER',
      owner: alice.creds.key,
      trade_owner: alice.creds.key,
      taker_order_id: crossing.body.orderID,
      side: 'SELL',
      size: '6',
      price: '0.56',
      transaction_hash: '',
    });
    expect(makerTrade.maker_orders).toEqual([expect.objectContaining({ order_id: resting.body.orderID, owner: alice.creds.key, matched_amount: '6', price: '0.56' })]);

    expect(await takerSocket.nextJson()).toMatchObject({ event_type: 'order', type: 'PLACEMENT', id: crossing.body.orderID, status: 'MATCHED', size_matched: '6' });
    expect(await takerSocket.nextJson()).toMatchObject({ event_type: 'trade', id: tradeId, status: 'MATCHED', trader_side: 'TAKER', trade_owner: bob.creds.key });

    const mined = await takerSocket.nextJson();
    expect(mined).toMatchObject({ event_type: 'trade', id: tradeId, status: 'MINED', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await takerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'CONFIRMED', transaction_hash: mined.transaction_hash });
    expect(await makerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'MINED', trader_side: 'MAKER', transaction_hash: mined.transaction_hash });
    expect(await makerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'CONFIRMED' });

    const rest = await call(fake, bob, 'GET', `/data/trades?id=${tradeId}`);
    expect(rest.body.data).toEqual([expect.objectContaining({ id: tradeId, status: 'CONFIRMED', transaction_hash: mined.transaction_hash })]);
  });

  it('FAILED on request (after RETRYING): pushed to both sides, shown by GET /data/trades, and the positions it moved are reversed; the book is not restored', async () => {
    await start();
    const makerSocket = await subscribe(alice);
    await place(fake, alice);
    await makerSocket.nextJson();
    const crossing = await place(fake, bob, { side: 'SELL', price: '0.55', size: '6' });
    const tradeId = crossing.body.tradeIDs[0];
    await makerSocket.nextJson(); // UPDATE
    expect(await makerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'MATCHED' });

    const moved = (await control(fake, 'GET', '/_fake/positions')).body.positions;
    expect(moved).toEqual(
      expect.arrayContaining([
        { api_key: alice.creds.key, pusd: '-3.36', tokens: { [FED_YES.tokenId]: '6' } },
        { api_key: bob.creds.key, pusd: '3.36', tokens: { [FED_YES.tokenId]: '-6' } },
      ]),
    );

    expect((await control(fake, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'RETRYING' })).status).toBe(200);
    expect(await makerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'RETRYING' });
    expect((await control(fake, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'FAILED' })).body).toMatchObject({ status: 'FAILED' });
    expect(await makerSocket.nextJson()).toMatchObject({ id: tradeId, status: 'FAILED', trader_side: 'MAKER' });

    expect((await call(fake, bob, 'GET', `/data/trades?id=${tradeId}`)).body.data).toEqual([expect.objectContaining({ status: 'FAILED', trader_side: 'TAKER' })]);
    const reversed = (await control(fake, 'GET', '/_fake/positions')).body.positions;
    expect(reversed).toEqual(
      expect.arrayContaining([
        { api_key: alice.creds.key, pusd: '0', tokens: { [FED_YES.tokenId]: '0' } },
        { api_key: bob.creds.key, pusd: '0', tokens: { [FED_YES.tokenId]: '0' } },
      ]),
    );
    const book = await call(fake, null, 'GET', `/book?token_id=${FED_YES.tokenId}`);
    expect(book.body.bids).toEqual([{ price: '0.56', size: '4' }]);
  });

  it('fail_next sends the next trade MATCHED -> RETRYING -> FAILED on the clock; a trade the control API moves leaves the clock', async () => {
    await start({ settlement: { minedAfterMs: 30, confirmedAfterMs: 30 } });
    const takerSocket = await subscribe(bob);
    expect((await control(fake, 'POST', '/_fake/settlement', { fail_next: 1 })).status).toBe(200);
    await place(fake, alice, { size: '20' });
    const first = await place(fake, bob, { side: 'SELL', price: '0.56', size: '5' });
    const statuses = async (tradeId: string, count: number) => {
      const seen: string[] = [];
      while (seen.length < count) {
        const frame = await takerSocket.nextJson();
        if (frame.event_type === 'trade' && frame.id === tradeId) seen.push(frame.status);
      }
      return seen;
    };
    expect(await statuses(first.body.tradeIDs[0], 3)).toEqual(['MATCHED', 'RETRYING', 'FAILED']);

    expect((await control(fake, 'POST', '/_fake/settlement', { automatic: false })).status).toBe(200);
    const second = await place(fake, bob, { side: 'SELL', price: '0.56', size: '5' });
    expect(await statuses(second.body.tradeIDs[0], 1)).toEqual(['MATCHED']);
    await control(fake, 'POST', `/_fake/trades/${second.body.tradeIDs[0]}/status`, { status: 'MINED' });
    await control(fake, 'POST', `/_fake/trades/${second.body.tradeIDs[0]}/status`, { status: 'CONFIRMED' });
    expect(await statuses(second.body.tradeIDs[0], 2)).toEqual(['MINED', 'CONFIRMED']);
  });
});

describe('heartbeats', () => {
  it('start with "", rotate the id on every beat, refuse a stale id with 400 Invalid Heartbeat ID and the expected id; each is in the request log', async () => {
    await start();
    const first = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: '' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ heartbeat_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const second = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: first.body.heartbeat_id });
    expect(second.status).toBe(200);
    expect(second.body.heartbeat_id).not.toBe(first.body.heartbeat_id);

    const stale = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: first.body.heartbeat_id });
    expect(stale).toMatchObject({ status: 400, body: { error_msg: 'Invalid Heartbeat ID', heartbeat_id: second.body.heartbeat_id } });
    const restart = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: '' });
    expect(restart.status).toBe(400);
    // Bob's chain is his own.
    expect((await call(fake, bob, 'POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
    // Unsigned: the door refuses it like any L2 route.
    expect((await call(fake, null, 'POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(401);

    const logged = fake.requests.filter((r) => r.path === '/v1/heartbeats');
    expect(logged.map((r) => [r.method, r.apiKey, r.status])).toEqual([
      ['POST', alice.creds.key, 200],
      ['POST', alice.creds.key, 200],
      ['POST', alice.creds.key, 400],
      ['POST', alice.creds.key, 400],
      ['POST', bob.creds.key, 200],
      ['POST', null, 401],
    ]);
  });

  it('speak the official client\'s postHeartbeat: its path, L2 signature and body, and its reading of the stale-id answer', async () => {
    await start();
    const client = new ClobClient({ host: fake.baseUrl, chain: Chain.AMOY, signer: polymarketSignerFromKey(DEV_KEYS.alice), creds: alice.creds });
    const first = await client.postHeartbeat();
    expect(first).toEqual({ heartbeat_id: expect.any(String) });
    const second = await client.postHeartbeat(first.heartbeat_id);
    expect(second.heartbeat_id).not.toBe(first.heartbeat_id);
    // Without throwOnError the client hands back a refusal as a value: {error: body, status}.
    expect(await client.postHeartbeat(first.heartbeat_id)).toEqual({ error: { heartbeat_id: second.heartbeat_id, error_msg: 'Invalid Heartbeat ID' }, status: 400 });
    expect(fake.requests.filter((r) => r.path === '/v1/heartbeats').map((r) => [r.apiKey, r.status])).toEqual([
      [alice.creds.key, 200],
      [alice.creds.key, 200],
      [alice.creds.key, 400],
    ]);
  });

  it('keep the orders while they arrive within the timeout', async () => {
    await start({ heartbeatTimeoutMs: 1500 });
    const placed = await place(fake, alice);
    let id = '';
    for (let beat = 0; beat < 7; beat += 1) {
      const answer = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: id });
      expect(answer.status).toBe(200);
      id = answer.body.heartbeat_id;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toEqual([placed.body.orderID]);
  });

  it('missed: every open order of that key is cancelled and pushed as CANCELLATION; other keys keep theirs; the chain starts again with ""', async () => {
    await start();
    expect((await control(fake, 'POST', '/_fake/heartbeats', { timeout_ms: 100 })).body).toEqual({ timeout_ms: 100 });
    const socket = await subscribe(alice);
    const one = await place(fake, alice);
    const two = await place(fake, alice, { price: '0.5' });
    const bobs = await place(fake, bob, { side: 'SELL', price: '0.9' });
    expect((await socket.nextJson()).id).toBe(one.body.orderID);
    expect((await socket.nextJson()).id).toBe(two.body.orderID);

    const beat = await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: '' });
    expect(beat.status).toBe(200);
    const cancelled = [await socket.nextJson(), await socket.nextJson()];
    expect(cancelled.map((e) => [e.type, e.status])).toEqual([
      ['CANCELLATION', 'CANCELED'],
      ['CANCELLATION', 'CANCELED'],
    ]);
    expect(cancelled.map((e) => e.id).sort()).toEqual([one.body.orderID, two.body.orderID].sort());
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);
    expect((await call(fake, bob, 'GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toEqual([bobs.body.orderID]);

    expect(await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: beat.body.heartbeat_id })).toMatchObject({ status: 400, body: { error_msg: 'Invalid Heartbeat ID', heartbeat_id: '' } });
    expect((await call(fake, alice, 'POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
  });
});

describe('throttling', () => {
  it('Cloudflare\'s layer delays a request over the endpoint\'s limit, then answers 429 Too Many Requests beyond the queue bound', async () => {
    await start({ throttle: { windowMs: 2000, limits: { 'GET /book': 2 }, queueBound: 1 } });
    const began = Date.now();
    const timed = async () => {
      const reply = await call(fake, null, 'GET', `/book?token_id=${FED_YES.tokenId}`);
      return { status: reply.status, body: reply.body, ms: Date.now() - began };
    };
    const replies = await Promise.all([timed(), timed(), timed(), timed()]);
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(replies.find((r) => r.status === 429)!.body).toEqual({ error: 'Too Many Requests' });
    // The third 200 waited for the window to slide (a lower bound: never flaky).
    expect(Math.max(...replies.filter((r) => r.status === 200).map((r) => r.ms))).toBeGreaterThanOrEqual(1900);
    // Other endpoints have their own window.
    expect((await call(fake, null, 'GET', '/time')).status).toBe(200);
  });

  it('the per-signer order bucket: in warning mode the order is processed with Poly-RateLimit-Warning: true; enforced, it is refused 429 with Retry-After', async () => {
    const tier = { name: 'test', orderPerSecond: 0.01, orderBurst: 2, cancelPerSecond: 0.01, cancelBurst: 2 };
    await start({ signerLimits: { mode: 'warning', tier } });
    const first = await place(fake, alice, { price: '0.50' });
    expect(first.status).toBe(200);
    expect(first.headers.get('poly-ratelimit-remaining')).toBe('1');
    expect(first.headers.get('poly-ratelimit-tier')).toBe('test');
    expect(first.headers.get('poly-ratelimit-warning')).toBeNull();
    await place(fake, alice, { price: '0.51' });
    const third = await place(fake, alice, { price: '0.52' });
    expect(third.status).toBe(200);
    expect(third.body.status).toBe('live');
    expect(third.headers.get('poly-ratelimit-warning')).toBe('true');
    // Bob's signer has its own bucket; cancels draw on the cancel bucket.
    expect((await place(fake, bob, { side: 'SELL', price: '0.9' })).headers.get('poly-ratelimit-remaining')).toBe('1');
    expect((await call(fake, alice, 'DELETE', '/order', { orderID: first.body.orderID })).headers.get('poly-ratelimit-remaining')).toBe('1');
    await fake.close();

    await start({ signerLimits: { mode: 'enforce', tier } });
    await place(fake, alice, { price: '0.50' });
    await place(fake, alice, { price: '0.51' });
    const refused = await place(fake, alice, { price: '0.52' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too Many Requests' });
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(refused.headers.get('poly-ratelimit-remaining')).toBe('0');
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toHaveLength(2);
  });
});

describe('socket faults through the control API', () => {
  it('drop terminates every socket; a client reconnects and subscribes again', async () => {
    await start();
    const a = await subscribe(alice);
    const b = await subscribe(bob);
    expect(fake.userChannel.subscribedCount).toBe(2);
    expect((await control(fake, 'POST', '/_fake/ws/drop')).status).toBe(200);
    expect(await a.closed).toBe(1006);
    expect(await b.closed).toBe(1006);

    const again = await subscribe(alice);
    const placed = await place(fake, alice);
    expect(await again.nextJson()).toMatchObject({ type: 'PLACEMENT', id: placed.body.orderID });
  });

  it('freeze keeps the socket open and sends nothing (the events of that time are lost) until unfrozen', async () => {
    await start();
    const socket = await subscribe(alice);
    expect((await control(fake, 'POST', '/_fake/ws/freeze', { frozen: true })).body).toEqual({ frozen: true });
    const frozenOrder = await place(fake, alice);
    expect(frozenOrder.status).toBe(200);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    expect(fake.userChannel.subscribedCount).toBe(1);
    expect((await control(fake, 'POST', '/_fake/ws/freeze', { frozen: false })).body).toEqual({ frozen: false });
    // The first frame after thawing is the PONG: the PLACEMENT made while frozen was never sent.
    expect(await socket.ping()).toBe('PONG');
    const later = await place(fake, alice, { price: '0.5' });
    expect(await socket.nextJson()).toMatchObject({ type: 'PLACEMENT', id: later.body.orderID });
  });

  it('push sends an arbitrary frame to an account\'s sockets', async () => {
    await start();
    const socket = await subscribe(alice);
    const event = { event_type: 'trade', id: 'forged', status: 'MINED' };
    expect((await control(fake, 'POST', '/_fake/ws/push', { api_key: alice.creds.key, event })).body).toEqual({ sent: 1 });
    expect(await socket.nextJson()).toEqual(event);
    expect((await control(fake, 'POST', '/_fake/ws/push', { api_key: alice.creds.key, event: 'not json' })).body).toEqual({ sent: 1 });
    expect(await socket.next()).toBe('not json');
    expect((await control(fake, 'POST', '/_fake/ws/push', { event })).status).toBe(400);
  });
});
