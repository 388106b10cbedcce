/**
 * The Polymarket CLOB V2 fake's order management over real loopback HTTP: batch placement
 * (`POST /orders`, at most 15), cancel many (`DELETE /orders`, at most 3000 ids), cancel by market
 * or token (`DELETE /cancel-market-orders`) and cancel all (`DELETE /cancel-all`), with the fault
 * rules, the per-signer buckets and the user channel, and a GTD order's expiry. Orders are signed
 * by our signing layer (the official client's OrderBuilder) and every request carries the client's
 * L2 headers over the exact body (test/support/polymarketTraders.ts).
 */
import { getContractConfig } from '@polymarket/clob-client-v2';
import { getAddress, hashTypedData } from 'viem';
import { Chain, OrderType } from '../../core/venues/polymarket/signing';
import { PolymarketFake, type PolymarketFakeOptions } from '../../fakes/polymarket/server';
import { ORDER_V2_TYPE } from '../../fakes/polymarket/verify';
import { call, control, DEV_KEYS, ELECTION_YES, FED_NO, FED_YES, limit, place, signedPayload, trader, UserSocket, type Trader } from '../support/polymarketTraders';
import type { PolymarketLimitOrder } from '../../core/venues/polymarket/signing';

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);

/** The order id the venue gives: the EIP-712 hash of the signed struct (V2 exchange, or neg-risk exchange). */
function expectedOrderId(order: Record<string, any>, negRisk = false): string {
  const contracts = getContractConfig(Chain.AMOY);
  return hashTypedData({
    domain: { name: 'Polymarket CTF Exchange', version: '2', chainId: Chain.AMOY, verifyingContract: getAddress(negRisk ? contracts.negRiskExchangeV2 : contracts.exchangeV2) },
    types: { Order: ORDER_V2_TYPE },
    primaryType: 'Order',
    message: {
      salt: BigInt(order.salt),
      maker: order.maker,
      signer: order.signer,
      tokenId: BigInt(order.tokenId),
      makerAmount: BigInt(order.makerAmount),
      takerAmount: BigInt(order.takerAmount),
      side: order.side === 'BUY' ? 0 : 1,
      signatureType: order.signatureType,
      timestamp: BigInt(order.timestamp),
      metadata: order.metadata,
      builder: order.builder,
    },
  });
}

/** What `POST /order` answers for an order that rests (and so each such batch entry). */
const live = (orderID: string) => ({ success: true, errorMsg: '', orderID, tradeIDs: [], status: 'live', takingAmount: '', makingAmount: '' });
/** The CLOB OpenAPI's per-order error entry of `POST /orders`. */
const refusedEntry = (errorMsg: string) => ({ errorMsg, orderID: '', takingAmount: '', makingAmount: '', status: '', success: true });

/** `count` signed GTC bids of `who` on FED_YES at 0.10, 0.11, ... (size 10), each with its own hash. */
async function bids(who: Trader, count: number, over: Partial<PolymarketLimitOrder> = {}) {
  return Promise.all(Array.from({ length: count }, (_, n) => signedPayload(who, limit({ price: (0.1 + n / 100).toFixed(2), ...over }))));
}

const openIds = async (who: Trader, query = '') => ((await call(fake, who, 'GET', `/data/orders${query}`)).body.data as { id: string }[]).map((o) => o.id).sort();

let fake: PolymarketFake;
const sockets: UserSocket[] = [];

async function start(options: PolymarketFakeOptions = {}): Promise<PolymarketFake> {
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], controlApi: true, settlement: { automatic: false }, ...options });
  return fake;
}

async function subscribe(who: Trader): Promise<UserSocket> {
  const socket = await UserSocket.subscribe(fake, who);
  sockets.push(socket);
  return socket;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await fake.close();
});

describe('POST /orders (batch placement)', () => {
  it('places 14 of a batch of 15 whose one order is below the minimum size, answering that order\'s error in its entry', async () => {
    await start();
    const payloads = await bids(alice, 15);
    payloads[7] = await signedPayload(alice, limit({ price: '0.50', size: '2' }));
    const answer = await call(fake, alice, 'POST', '/orders', payloads);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(15);
    const small = expectedOrderId(payloads[7]!.order);
    expect(answer.body).toEqual(payloads.map((p, n) => (n === 7 ? refusedEntry(`order ${small} is invalid. Size (2) lower than the minimum: 5`) : live(expectedOrderId(p.order)))));

    const placed = payloads.filter((_, n) => n !== 7).map((p) => expectedOrderId(p.order));
    expect(await openIds(alice)).toEqual([...placed].sort());
    expect(await call(fake, alice, 'GET', `/data/order/${small}`)).toEqual({ status: 200, body: null });
    const book = (await call(fake, null, 'GET', `/book?token_id=${FED_YES.tokenId}`)).body;
    expect(book.bids).toHaveLength(14);
    expect(book.bids.at(-1)).toEqual({ price: '0.24', size: '10' });
  });

  it('answers an entry per order in request order: rested, matched (with its trade) and refused ones side by side', async () => {
    await start();
    const resting = await place(fake, bob, { side: 'SELL', price: '0.60', size: '5' });
    const [rests, crosses, offTick, twice] = await Promise.all([
      signedPayload(alice, limit({ price: '0.40' })),
      signedPayload(alice, limit({ price: '0.60', size: '5' })),
      signedPayload(alice, limit({ price: '0.555', tickSize: '0.001' })),
      signedPayload(alice, limit({ price: '0.41' })),
    ]);
    const answer = await call(fake, alice, 'POST', '/orders', [rests, crosses, offTick, twice, twice]);
    expect(answer.status).toBe(200);
    expect(answer.body[0]).toEqual(live(expectedOrderId(rests!.order)));
    expect(answer.body[1]).toEqual({ success: true, errorMsg: '', orderID: expectedOrderId(crosses!.order), tradeIDs: [expect.any(String)], status: 'matched', makingAmount: '3', takingAmount: '5' });
    expect(answer.body[2]).toEqual(refusedEntry(`order ${expectedOrderId(offTick!.order)} is invalid. Price (0.555) breaks minimum tick size rule: 0.01`));
    expect(answer.body[3]).toEqual(live(expectedOrderId(twice!.order)));
    expect(answer.body[4]).toEqual(refusedEntry(`order ${expectedOrderId(twice!.order)} is invalid. Duplicated.`));
    // The match is a trade like any: bob's resting order is filled.
    expect((await call(fake, bob, 'GET', `/data/order/${resting.body.orderID}`)).body).toMatchObject({ status: 'MATCHED', size_matched: '5' });
    expect((await call(fake, alice, 'GET', '/data/trades')).body.data).toEqual([expect.objectContaining({ id: answer.body[1].tradeIDs[0], trader_side: 'TAKER' })]);
  });

  it('refuses 16 orders whole with the venue\'s string, and an empty or non-array body, placing nothing', async () => {
    await start();
    const payloads = await bids(alice, 16);
    expect(await call(fake, alice, 'POST', '/orders', payloads)).toEqual({ status: 400, body: { error: 'Too many orders in payload: 16, max allowed: 15' } });
    expect(await call(fake, alice, 'POST', '/orders', [])).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await call(fake, alice, 'POST', '/orders', payloads[0])).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await openIds(alice)).toEqual([]);
    expect((await call(fake, null, 'GET', `/book?token_id=${FED_YES.tokenId}`)).body.bids).toEqual([]);
    // The first 15 of them are a good batch.
    expect((await call(fake, alice, 'POST', '/orders', payloads.slice(0, 15))).body.map((e: { status: string }) => e.status)).toEqual(Array(15).fill('live'));
  });

  it('refuses the whole batch when one item fails the request\'s checks (another key\'s order, a tampered signature)', async () => {
    await start();
    const good = await bids(alice, 3);
    const bobs = await signedPayload(bob, limit({ price: '0.30' }));
    expect(await call(fake, alice, 'POST', '/orders', [...good, bobs])).toEqual({ status: 400, body: { error: 'the order owner has to be the owner of the API KEY' } });
    const tampered = { ...good[1]!, order: { ...good[1]!.order, takerAmount: String(BigInt(good[1]!.order.takerAmount) * 2n) } };
    expect(await call(fake, alice, 'POST', '/orders', [good[0], tampered, good[2]])).toEqual({ status: 400, body: { error: 'invalid signature' } });
    expect(await openIds(alice)).toEqual([]);
  });

  it('charges the signer\'s order bucket one token per order: a batch over the bucket is refused whole when enforced', async () => {
    await start({ signerLimits: { mode: 'enforce', tier: { name: 'test', orderPerSecond: 0.001, orderBurst: 4, cancelPerSecond: 0.001, cancelBurst: 3 } } });
    const payloads = await bids(alice, 5);
    const first = await call(fake, alice, 'POST', '/orders', payloads.slice(0, 3));
    expect(first.status).toBe(200);
    expect(first.headers.get('poly-ratelimit-remaining')).toBe('1');
    const over = await call(fake, alice, 'POST', '/orders', payloads.slice(3));
    expect(over).toEqual({ status: 429, body: { error: 'Too Many Requests' } });
    expect(over.headers.get('retry-after')).not.toBeNull();
    expect(await openIds(alice)).toHaveLength(3);

    // Cancels: DELETE /orders one token per id; cancel-all 1 + the orders it would cancel (3 open: 4 > 3).
    const ids = first.body.map((e: { orderID: string }) => e.orderID);
    expect(await call(fake, alice, 'DELETE', '/cancel-all')).toEqual({ status: 429, body: { error: 'Too Many Requests' } });
    const two = await call(fake, alice, 'DELETE', '/orders', ids.slice(0, 2));
    expect(two.body.canceled).toHaveLength(2);
    expect(two.headers.get('poly-ratelimit-remaining')).toBe('1');
    expect((await call(fake, alice, 'DELETE', '/orders', ids.slice(2, 3))).body.canceled).toEqual([ids[2]]);
    expect(await openIds(alice)).toEqual([]);
  });
});

describe('DELETE /orders (cancel many)', () => {
  it('cancels the listed open orders and reports unknown, foreign and already-cancelled ids in not_canceled; duplicates are ignored', async () => {
    await start();
    const placed = (await call(fake, alice, 'POST', '/orders', await bids(alice, 3))).body.map((e: { orderID: string }) => e.orderID);
    const bobs = (await place(fake, bob, { price: '0.30' })).body.orderID;
    const unknown = `0x${'ab'.repeat(32)}`;
    const answer = await call(fake, alice, 'DELETE', '/orders', [placed[0], placed[1], unknown, bobs, placed[0]]);
    expect(answer).toEqual({
      status: 200,
      body: { canceled: [placed[0], placed[1]], not_canceled: { [unknown]: 'already canceled or matched', [bobs]: 'already canceled or matched' } },
    });
    expect(await openIds(alice)).toEqual([placed[2]]);
    expect(await openIds(bob)).toEqual([bobs]);
    expect((await call(fake, alice, 'GET', `/data/order/${placed[0]}`)).body).toMatchObject({ status: 'CANCELED' });
    expect((await call(fake, alice, 'DELETE', '/orders', [placed[0]])).body).toEqual({ canceled: [], not_canceled: { [placed[0]]: 'already canceled or matched' } });
  });

  it('refuses a malformed id, a body that is not an array of ids, and more than 3000 ids, cancelling nothing', async () => {
    await start();
    const id = (await place(fake, alice)).body.orderID;
    expect(await call(fake, alice, 'DELETE', '/orders', [id, 'not-an-id'])).toEqual({ status: 400, body: { error: 'Invalid orderID' } });
    expect(await call(fake, alice, 'DELETE', '/orders', { orderID: id })).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await call(fake, alice, 'DELETE', '/orders', [id, 42])).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    const many = [id, ...Array.from({ length: 3000 }, (_, n) => `0x${n.toString(16).padStart(64, '0')}`)];
    expect(await call(fake, alice, 'DELETE', '/orders', many)).toEqual({ status: 400, body: { error: 'Too many orders in payload, max allowed: 3000' } });
    expect(await openIds(alice)).toEqual([id]);
    expect((await call(fake, alice, 'DELETE', '/orders', many.slice(0, 3000))).body).toMatchObject({ canceled: [id] });
  });
});

describe('DELETE /cancel-market-orders and DELETE /cancel-all', () => {
  it('cancels one token\'s orders only, then a condition\'s, then everything; another account\'s orders stay', async () => {
    await start();
    const yes = (await call(fake, alice, 'POST', '/orders', await bids(alice, 2))).body.map((e: { orderID: string }) => e.orderID);
    const no = (await place(fake, alice, { tokenId: FED_NO.tokenId, price: '0.20' })).body.orderID;
    const election = (await place(fake, alice, { tokenId: ELECTION_YES.tokenId, price: '0.123', tickSize: '0.001', negRisk: true })).body.orderID;
    const bobs = (await place(fake, bob, { price: '0.30' })).body.orderID;

    const byToken = await call(fake, alice, 'DELETE', '/cancel-market-orders', { asset_id: FED_YES.tokenId });
    expect(byToken.status).toBe(200);
    expect(byToken.body).toEqual({ canceled: expect.arrayContaining(yes), not_canceled: {} });
    expect(byToken.body.canceled).toHaveLength(2);
    expect(await openIds(alice)).toEqual([no, election].sort());

    expect((await call(fake, alice, 'DELETE', '/cancel-market-orders', { market: FED_YES.conditionId })).body).toEqual({ canceled: [no], not_canceled: {} });
    expect(await openIds(alice)).toEqual([election]);
    expect((await call(fake, alice, 'DELETE', '/cancel-market-orders', { market: FED_YES.conditionId, asset_id: FED_NO.tokenId })).body).toEqual({ canceled: [], not_canceled: {} });

    expect(await call(fake, alice, 'DELETE', '/cancel-all')).toEqual({ status: 200, body: { canceled: [election], not_canceled: {} } });
    expect(await call(fake, alice, 'DELETE', '/cancel-all')).toEqual({ status: 200, body: { canceled: [], not_canceled: {} } });
    expect(await openIds(bob)).toEqual([bobs]);
  });

  it('with neither filter cancels every order of the key; a malformed filter is 400 Invalid order payload', async () => {
    await start();
    await call(fake, alice, 'POST', '/orders', await bids(alice, 2));
    expect(await call(fake, alice, 'DELETE', '/cancel-market-orders', { market: 'fed' })).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await call(fake, alice, 'DELETE', '/cancel-market-orders', { asset_id: 'abc' })).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await call(fake, alice, 'DELETE', '/cancel-market-orders', [FED_YES.conditionId])).toEqual({ status: 400, body: { error: 'Invalid order payload' } });
    expect(await openIds(alice)).toHaveLength(2);
    expect((await call(fake, alice, 'DELETE', '/cancel-market-orders', {})).body.canceled).toHaveLength(2);
    expect(await openIds(alice)).toEqual([]);
  });
});

describe('faults on the order-management routes', () => {
  it('a lost POST /orders answer has placed the orders: the client finds them by their hashes', async () => {
    await start();
    const payloads = await bids(alice, 3);
    await control(fake, 'POST', '/_fake/faults', { kind: 'accept_then_drop', method: 'POST', path_prefix: '/orders' });
    await expect(call(fake, alice, 'POST', '/orders', payloads)).rejects.toThrow();

    const hashes = payloads.map((p) => expectedOrderId(p.order));
    for (const hash of hashes) {
      expect((await call(fake, alice, 'GET', `/data/order/${hash}`)).body).toMatchObject({ id: hash, status: 'LIVE', original_size: '10', size_matched: '0' });
    }
    expect(await openIds(alice)).toEqual([...hashes].sort());
    // Sending the same batch again (a retry) places nothing twice.
    expect((await call(fake, alice, 'POST', '/orders', payloads)).body).toEqual(hashes.map((hash) => refusedEntry(`order ${hash} is invalid. Duplicated.`)));
    expect(fake.requests.filter((r) => r.path === '/orders').map((r) => [r.method, r.status])).toEqual([
      ['POST', 'dropped'],
      ['POST', 200],
    ]);
  });

  it('a 503 or a 429 on POST /orders processes nothing; a lost DELETE /orders or cancel-market-orders answer has cancelled', async () => {
    await start();
    const payloads = await bids(alice, 2);
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'POST', pathPrefix: '/orders' });
    expect(await call(fake, alice, 'POST', '/orders', payloads)).toEqual({ status: 503, body: { error: 'Internal server error' } });
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'POST', pathPrefix: '/orders' });
    expect(await call(fake, alice, 'POST', '/orders', payloads)).toEqual({ status: 429, body: { error: 'Too Many Requests' } });
    expect(await openIds(alice)).toEqual([]);

    const ids = (await call(fake, alice, 'POST', '/orders', payloads)).body.map((e: { orderID: string }) => e.orderID);
    const other = (await place(fake, alice, { tokenId: FED_NO.tokenId, price: '0.20' })).body.orderID;
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'DELETE', pathPrefix: '/orders' });
    await expect(call(fake, alice, 'DELETE', '/orders', ids)).rejects.toThrow();
    for (const id of ids) expect((await call(fake, alice, 'GET', `/data/order/${id}`)).body.status).toBe('CANCELED');
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'DELETE', pathPrefix: '/cancel-market-orders' });
    await expect(call(fake, alice, 'DELETE', '/cancel-market-orders', { asset_id: FED_NO.tokenId })).rejects.toThrow();
    expect((await call(fake, alice, 'GET', `/data/order/${other}`)).body.status).toBe('CANCELED');
  });

  it('a delayed POST /orders answer (placed before the delay) shows the orders while the client waits', async () => {
    await start();
    const payloads = await bids(alice, 2);
    await control(fake, 'POST', '/_fake/faults', { kind: 'delay', ms: 400, place_before_delay: true, method: 'POST', path_prefix: '/orders' });
    const pending = call(fake, alice, 'POST', '/orders', payloads);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await openIds(alice)).toEqual(payloads.map((p) => expectedOrderId(p.order)).sort());
    expect((await pending).body.map((e: { status: string }) => e.status)).toEqual(['live', 'live']);
  });
});

describe('the user channel', () => {
  it('hears each order of a batch placed (PLACEMENT, in request order, not the refused one) and each one cancelled (CANCELLATION)', async () => {
    await start();
    const socket = await subscribe(alice);
    const payloads = await bids(alice, 3);
    payloads.push(await signedPayload(alice, limit({ price: '0.50', size: '1' })));
    const entries = (await call(fake, alice, 'POST', '/orders', payloads)).body as { orderID: string }[];
    const ids = entries.slice(0, 3).map((e) => e.orderID);
    for (const id of ids) expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'PLACEMENT', id, status: 'LIVE', owner: alice.creds.key, asset_id: FED_YES.tokenId });
    expect(await socket.ping()).toBe('PONG'); // nothing for the refused fourth

    await call(fake, alice, 'DELETE', '/orders', [ids[0]]);
    expect(await socket.nextJson()).toMatchObject({ type: 'CANCELLATION', id: ids[0], status: 'CANCELED' });
    await call(fake, alice, 'DELETE', '/cancel-market-orders', { asset_id: FED_YES.tokenId });
    const rest = [await socket.nextJson(), await socket.nextJson()];
    expect(rest.map((m) => [m.type, m.id]).sort()).toEqual([ids[1], ids[2]].map((id) => ['CANCELLATION', id]).sort());
  });

  it('hears a batch order that matched: its PLACEMENT, the maker\'s UPDATE and the trade', async () => {
    await start();
    const bobSocket = await subscribe(bob);
    const aliceSocket = await subscribe(alice);
    const resting = (await place(fake, bob, { side: 'SELL', price: '0.60', size: '10' })).body.orderID;
    expect(await bobSocket.nextJson()).toMatchObject({ type: 'PLACEMENT', id: resting });
    const entry = (await call(fake, alice, 'POST', '/orders', [await signedPayload(alice, limit({ price: '0.60', size: '6' }))])).body[0];
    expect(await aliceSocket.nextJson()).toMatchObject({ type: 'PLACEMENT', id: entry.orderID, status: 'MATCHED', size_matched: '6' });
    expect(await aliceSocket.nextJson()).toMatchObject({ event_type: 'trade', id: entry.tradeIDs[0], trader_side: 'TAKER', status: 'MATCHED' });
    expect(await bobSocket.nextJson()).toMatchObject({ type: 'UPDATE', id: resting, size_matched: '6' });
    expect(await bobSocket.nextJson()).toMatchObject({ event_type: 'trade', id: entry.tradeIDs[0], trader_side: 'MAKER' });
  });
});

describe('a GTD order\'s expiry', () => {
  it('is a CANCELLATION on the user channel when its time comes, with no request needed, and the order reads CANCELED, no longer open', async () => {
    let nowMs = Date.UTC(2026, 6, 1, 12, 0, 0);
    await start({ clock: () => nowMs, expirySweepMs: 20 });
    const seconds = () => Math.floor(nowMs / 1000);
    const socket = await subscribe(alice);
    const payload = await signedPayload(alice, limit({ expiration: seconds() + 240 }), OrderType.GTD);
    const [entry] = (await call(fake, alice, 'POST', '/orders', [payload], { timestampSeconds: seconds() })).body;
    expect(entry).toEqual(live(expectedOrderId(payload.order)));
    expect(await socket.nextJson()).toMatchObject({ type: 'PLACEMENT', id: entry.orderID, order_type: 'GTD', expiration: String(seconds() + 240) });

    nowMs += 179_000;
    expect(await socket.ping()).toBe('PONG'); // one minute and a second before: still live
    nowMs += 1_000; // one minute before the stated expiration
    expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'CANCELLATION', id: entry.orderID, status: 'CANCELED', order_type: 'GTD', size_matched: '0' });
    expect((await call(fake, alice, 'GET', `/data/order/${entry.orderID}`, undefined, { timestampSeconds: seconds() })).body).toMatchObject({ id: entry.orderID, status: 'CANCELED' });
    expect((await call(fake, alice, 'GET', '/data/orders', undefined, { timestampSeconds: seconds() })).body.data).toEqual([]);
    expect((await call(fake, alice, 'DELETE', '/orders', [entry.orderID], { timestampSeconds: seconds() })).body).toEqual({ canceled: [], not_canceled: { [entry.orderID]: 'already canceled or matched' } });
  });
});
