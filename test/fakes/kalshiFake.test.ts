/**
 * The Kalshi fake over real loopback HTTP and WebSocket, with RSA keys made at run time
 * (no private key is ever written to the repository). It must behave like Kalshi's
 * Trade API v2 for the parts our adapter relies on: signatures, V2 order shapes, the
 * book, the private WebSocket channels, token buckets and the injected faults.
 */
import { spawn } from 'node:child_process';
import { constants, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createKalshiSigner, type KalshiAuthHeaders } from '../../core/venues/kalshi/signing';
import { KalshiFake } from '../../fakes/kalshi/server';
import { v2OrderBody } from '../support/kalshiOrders';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';

const MARKET = 'KXFAKEFED-26DEC-T4.00';
const FRACTIONAL = 'KXFAKEHIGH-26DEC31-T40';

const alice = newKalshiKey('a1b2c3d4-0000-4000-8000-00000000a11c');
const bob = newKalshiKey('b0b0b0b0-0000-4000-8000-0000000000b0');
const stranger = newKalshiKey('5772a49e-0000-4000-8000-000000000000');

async function startFake(options: Parameters<typeof KalshiFake.start>[0] = {}): Promise<KalshiFake> {
  return KalshiFake.start({
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '1000.00', keys: [bob] },
      { userId: 'user-maker', balanceDollars: '100000.00' },
    ],
    ...options,
  });
}

interface Reply {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

/**
 * The headers of a client with a signing bug our signer refuses to have (a query string in the
 * signed path, a timestamp in seconds): signed by hand, to show the fake refuses them.
 */
function buggyClientHeaders(key: KalshiKey, timestamp: string, method: string, signedPath: string): KalshiAuthHeaders {
  const message = Buffer.from(`${timestamp}${method}${signedPath}`);
  const signature = sign('sha256', message, { key: key.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
  return { 'KALSHI-ACCESS-KEY': key.keyId, 'KALSHI-ACCESS-TIMESTAMP': timestamp, 'KALSHI-ACCESS-SIGNATURE': signature.toString('base64') };
}

/** A Kalshi client: our signer (core/venues/kalshi/signing.ts), unless a test sends a buggy client's headers. */
async function call(
  fake: KalshiFake,
  key: KalshiKey | null,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  tweak: { auth?: KalshiAuthHeaders; nowMs?: number; signal?: AbortSignal; signWith?: KeyObject } = {},
): Promise<Reply> {
  const fullPath = `/trade-api/v2${pathAndQuery}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) {
    const clock = tweak.nowMs === undefined ? Date.now : () => tweak.nowMs!;
    Object.assign(headers, tweak.auth ?? createKalshiSigner(key.keyId, tweak.signWith ?? key.privateKey, clock).request(method, fullPath));
  }
  const res = await fetch(`${fake.origin}${fullPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: tweak.signal,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

const v2Order = (overrides: Record<string, unknown> = {}) => v2OrderBody(MARKET, overrides);

interface Frame {
  type: string;
  id?: number;
  sid?: number;
  seq?: number;
  msg?: any;
}

async function openSocket(fake: KalshiFake, key: KalshiKey, wrongSignedPath?: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  const headers =
    wrongSignedPath === undefined
      ? createKalshiSigner(key.keyId, key.privateKey).webSocket()
      : buggyClientHeaders(key, String(Date.now()), 'GET', wrongSignedPath);
  const ws = new WebSocket(fake.wsUrl, { headers: { ...headers } });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, frames };
}

async function until<T>(probe: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function subscribe(socket: { ws: WebSocket; frames: Frame[] }, channels: string[]): Promise<Record<string, number>> {
  socket.ws.send(JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels } }));
  const acks = await until(() => {
    const got = socket.frames.filter((f) => f.type === 'subscribed' && f.id === 1);
    return got.length === channels.length ? got : undefined;
  });
  return Object.fromEntries(acks.map((a) => [a.msg.channel as string, a.msg.sid as number]));
}

describe('Kalshi fake: authentication', () => {
  let fake: KalshiFake;
  beforeAll(async () => {
    fake = await startFake();
  });
  afterAll(() => fake.close());

  it('accepts a request signed over timestamp + METHOD + path and records which key signed it', async () => {
    const reply = await call(fake, alice, 'GET', '/portfolio/balance');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ balance: 100000, balance_dollars: '1000.0000', portfolio_value: 0, updated_ts: expect.any(Number) });
    expect(fake.requestsSignedBy(alice.keyId)).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/trade-api/v2/portfolio/balance', keyId: alice.keyId, status: 200 }),
    );
  });

  it('ignores the query string when verifying, so a correctly signed GET with a query passes', async () => {
    const reply = await call(fake, alice, 'GET', `/portfolio/orders?ticker=${MARKET}&limit=5`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ cursor: '', orders: [] });
  });

  it('refuses a signature computed over the query string', async () => {
    const path = `/portfolio/orders?ticker=${MARKET}`;
    const reply = await call(fake, alice, 'GET', path, undefined, { auth: buggyClientHeaders(alice, String(Date.now()), 'GET', `/trade-api/v2${path}`) });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: { code: 'authentication_error', message: 'authentication_error', details: 'INCORRECT_API_KEY_SIGNATURE' } });
  });

  it("refuses a request signed with another key's private key", async () => {
    const reply = await call(fake, alice, 'GET', '/portfolio/balance', undefined, { signWith: bob.privateKey });
    expect(reply.status).toBe(401);
    expect(reply.body.error.details).toBe('INCORRECT_API_KEY_SIGNATURE');
    expect(fake.requestsSignedBy(alice.keyId).filter((r) => r.status === 401)).toEqual([]);
  });

  it('refuses a key id it does not know (a key of another environment)', async () => {
    const reply = await call(fake, stranger, 'GET', '/portfolio/balance');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: { code: 'authentication_error', message: 'authentication_error', details: 'NOT_FOUND' } });
  });

  it('refuses a stale timestamp, a future one, and one in seconds instead of milliseconds', async () => {
    for (const nowMs of [Date.now() - 30_000, Date.now() + 5 * 60_000]) {
      const reply = await call(fake, alice, 'GET', '/portfolio/balance', undefined, { nowMs });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } });
    }
    const inSeconds = buggyClientHeaders(alice, String(Math.floor(Date.now() / 1000)), 'GET', '/trade-api/v2/portfolio/balance');
    const seconds = await call(fake, alice, 'GET', '/portfolio/balance', undefined, { auth: inSeconds });
    expect(seconds.status).toBe(401);
    expect(seconds.body).toEqual({ error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } });
    const slightlyOff = await call(fake, alice, 'GET', '/portfolio/balance', undefined, { nowMs: Date.now() - 5_000 });
    expect(slightlyOff.status).toBe(200);
  });

  it('refuses an unsigned portfolio request but serves public market data without a key', async () => {
    const unsigned = await call(fake, null, 'GET', '/portfolio/balance');
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toEqual({ error: { code: 'signature_is_missing_from_headers', message: 'signature is missing from headers' } });
    const markets = await call(fake, null, 'GET', '/markets');
    expect(markets.status).toBe(200);
  });
});

describe('Kalshi fake: markets', () => {
  let fake: KalshiFake;
  beforeAll(async () => {
    fake = await startFake();
  });
  afterAll(() => fake.close());

  it('pages GET /markets with an opaque cursor that is empty on the last page, and filters by status', async () => {
    const first = await call(fake, null, 'GET', '/markets?limit=1');
    expect(first.body.markets).toHaveLength(1);
    expect(first.body.cursor).not.toBe('');
    const second = await call(fake, null, 'GET', `/markets?limit=1&cursor=${first.body.cursor}`);
    expect(second.body.markets).toHaveLength(1);
    expect(second.body.markets[0].ticker).not.toBe(first.body.markets[0].ticker);
    expect(second.body.cursor).toBe('');
    expect((await call(fake, null, 'GET', '/markets?status=open')).body.markets).toHaveLength(2);
    expect((await call(fake, null, 'GET', '/markets?status=settled')).body.markets).toEqual([]);
    const tooMany = await call(fake, null, 'GET', '/markets?limit=1001');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ msg: expect.stringContaining("failed on the 'lte' tag") });
  });

  it('describes a market with its price_ranges and fixed-point fields', async () => {
    const reply = await call(fake, null, 'GET', `/markets/${FRACTIONAL}`);
    expect(reply.status).toBe(200);
    expect(reply.body.market).toMatchObject({
      ticker: FRACTIONAL,
      status: 'active',
      market_type: 'binary',
      price_level_structure: 'tapered_deci_cent',
      price_ranges: [
        { start: '0.0000', end: '0.1000', step: '0.0010' },
        { start: '0.1000', end: '0.9000', step: '0.0100' },
        { start: '0.9000', end: '1.0000', step: '0.0010' },
      ],
      fractional_trading_enabled: true,
      yes_bid_dollars: '0.0000',
      volume_fp: '0.00',
    });
    const series = await call(fake, null, 'GET', '/series/KXFAKEHIGH');
    expect(series.body.series).toMatchObject({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: 1 });
    expect((await call(fake, null, 'GET', '/markets/NOPE')).status).toBe(404);
  });

  it('lists bids only in the order book, both legs, best bid last', async () => {
    fake.placeOrderAs('user-maker', v2Order({ price: '0.4000', count: '3.00' }));
    fake.placeOrderAs('user-maker', v2Order({ price: '0.4200', count: '5.00' }));
    fake.placeOrderAs('user-maker', v2Order({ side: 'ask', price: '0.4700', count: '2.00' }));
    const reply = await call(fake, null, 'GET', `/markets/${MARKET}/orderbook`);
    expect(reply.body).toEqual({
      orderbook_fp: {
        yes_dollars: [
          ['0.4000', '3.00'],
          ['0.4200', '5.00'],
        ],
        no_dollars: [['0.5300', '2.00']],
      },
    });
    const market = (await call(fake, null, 'GET', `/markets/${MARKET}`)).body.market;
    expect(market).toMatchObject({ yes_bid_dollars: '0.4200', yes_ask_dollars: '0.4700', no_bid_dollars: '0.5300', no_ask_dollars: '0.5800' });
  });
});

describe('Kalshi fake: V2 orders and reads', () => {
  let fake: KalshiFake;
  beforeEach(async () => {
    fake = await startFake();
  });
  afterEach(() => fake.close());

  it('creates a resting order with the V2 response shape, reads it back, and cancels it', async () => {
    const created = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'ours-1' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      order_id: expect.any(String),
      client_order_id: 'ours-1',
      fill_count: '0.00',
      remaining_count: '10.00',
      ts_ms: expect.any(Number),
    });
    const orderId = created.body.order_id as string;

    const read = await call(fake, alice, 'GET', `/portfolio/orders/${orderId}`);
    expect(read.body.order).toMatchObject({
      order_id: orderId,
      client_order_id: 'ours-1',
      ticker: MARKET,
      book_side: 'bid',
      outcome_side: 'yes',
      action: 'buy',
      status: 'resting',
      yes_price_dollars: '0.5600',
      no_price_dollars: '0.4400',
      fill_count_fp: '0.00',
      remaining_count_fp: '10.00',
      initial_count_fp: '10.00',
      taker_fees_dollars: '0.000000',
      maker_fees_dollars: '0.000000',
      self_trade_prevention_type: 'taker_at_cross',
      type: 'limit',
    });
    expect((await call(fake, bob, 'GET', `/portfolio/orders/${orderId}`)).status).toBe(404);

    const canceled = await call(fake, alice, 'DELETE', `/portfolio/events/orders/${orderId}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual({ order_id: orderId, client_order_id: 'ours-1', reduced_by: '10.00', ts_ms: expect.any(Number) });
    const again = await call(fake, alice, 'DELETE', `/portfolio/events/orders/${orderId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: { code: 'not_found', message: 'not found', service: 'exchange' } });
    expect((await call(fake, alice, 'GET', `/portfolio/orders/${orderId}`)).body.order).toMatchObject({ status: 'canceled', remaining_count_fp: '0.00' });
  });

  it('answers 409 order_already_exists to a reused client_order_id, even after a cancel, and places nothing', async () => {
    const first = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'dup-1' }));
    const dup = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'dup-1' }));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: { code: 'order_already_exists', message: 'order already exists', service: 'exchange' } });
    await call(fake, alice, 'DELETE', `/portfolio/events/orders/${first.body.order_id}`);
    expect((await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'dup-1' }))).status).toBe(409);
    expect(fake.exchange.allOrders().filter((o) => o.clientOrderId === 'dup-1')).toHaveLength(1);
    // Client order ids are per account: another account may use the same one.
    expect((await call(fake, bob, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'dup-1' }))).status).toBe(201);
  });

  it("validates prices against the market's price_ranges and counts against its granularity", async () => {
    const offTick = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ price: '0.5150' }));
    expect(offTick.status).toBe(400);
    expect(offTick.body).toEqual({ error: { code: 'invalid_price', message: 'invalid price', service: 'exchange' } });
    const subCent = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ ticker: FRACTIONAL, price: '0.0350', count: '2.50' }));
    expect(subCent.status).toBe(201);
    expect(subCent.body.remaining_count).toBe('2.50');
    const subCentInMiddleBand = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ ticker: FRACTIONAL, price: '0.5050' }));
    expect(subCentInMiddleBand.status).toBe(400);
    const fractionalOnWholeMarket = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '2.50' }));
    expect(fractionalOnWholeMarket.status).toBe(400);
    expect(fractionalOnWholeMarket.body.error.code).toBe('invalid_order');
    const numeric = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: 1 }));
    expect(numeric.status).toBe(400);
    expect(numeric.body).toEqual({
      code: 'bad_request',
      message: 'bad request',
      details: 'json: cannot unmarshal number into Go struct field CreateOrderV2Request.count of type string',
    });
    const tooExpensive = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '5000.00', price: '0.9900' }));
    expect(tooExpensive.body.error.code).toBe('insufficient_balance');
  });

  it('answers the old V1 order writes with the V2 deprecation error', async () => {
    const v1Body = { ticker: MARKET, action: 'buy', side: 'yes', count: 1, yes_price: 56, type: 'limit' };
    for (const [method, path] of [
      ['POST', '/portfolio/orders'],
      ['DELETE', '/portfolio/orders/some-id'],
      ['POST', '/portfolio/orders/some-id/amend'],
      ['POST', '/portfolio/orders/some-id/decrease'],
      ['POST', '/portfolio/orders/batched'],
      ['DELETE', '/portfolio/orders/batched'],
    ] as const) {
      const reply = await call(fake, alice, method, path, method === 'POST' ? v1Body : undefined);
      expect(reply.status).toBe(410);
      expect(reply.body.error).toMatchObject({ code: 'deprecated_v1_order_endpoint', message: 'Please switch to the V2 endpoints' });
    }
    expect(fake.exchange.allOrders()).toEqual([]);
  });

  it('refuses a post_only order that would cross', async () => {
    fake.placeOrderAs('user-maker', v2Order({ side: 'ask', price: '0.5500' }));
    const reply = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ post_only: true }));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { code: 'invalid_order', message: 'invalid order', details: 'post only cross' } });
  });

  it('fills our resting order when another participant crosses it, and every read agrees to the cent', async () => {
    const socket = await openSocket(fake, alice);
    const sids = await subscribe(socket, ['fill', 'user_orders']);
    const ours = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'ours-fill' }));
    const orderId = ours.body.order_id as string;

    // Another participant sells 4 YES at 0.55: it trades at our (maker) price 0.56.
    const theirs = fake.placeOrderAs('user-bob', v2Order({ side: 'ask', price: '0.5500', count: '4.00', time_in_force: 'immediate_or_cancel' }));
    expect(theirs.status).toBe(201);
    // Taker fee 0.07 x 4 x 0.56 x 0.44 = 0.068992, rounded up to 0.0690; 0.01725 per contract.
    expect(theirs.body).toMatchObject({ fill_count: '4.00', remaining_count: '0.00', average_fill_price: '0.5600', average_fee_paid: '0.0173' });

    const fill = await until(() => socket.frames.find((f) => f.type === 'fill'));
    expect(fill).toMatchObject({ sid: sids.fill, seq: 1 });
    expect(fill.msg).toMatchObject({
      order_id: orderId,
      client_order_id: 'ours-fill',
      market_ticker: MARKET,
      book_side: 'bid',
      outcome_side: 'yes',
      count_fp: '4.00',
      yes_price_dollars: '0.5600',
      no_price_dollars: '0.4400',
      is_taker: false,
      fee_cost: '0.000000',
      post_position_fp: '4.00',
      trade_id: expect.any(String),
      ts_ms: expect.any(Number),
    });
    const orderUpdate = await until(() =>
      socket.frames.find((f) => f.type === 'user_order' && f.msg.order_id === orderId && f.msg.fill_count_fp === '4.00'),
    );
    expect(orderUpdate).toMatchObject({ sid: sids.user_orders, msg: { status: 'resting', remaining_count_fp: '6.00' } });
    // The other participant's fill is not ours to see.
    expect(socket.frames.filter((f) => f.type === 'fill')).toHaveLength(1);

    const fills = await call(fake, alice, 'GET', '/portfolio/fills?limit=10');
    expect(fills.body).toEqual({
      cursor: '',
      fills: [
        expect.objectContaining({
          fill_id: fill.msg.fill_id,
          trade_id: fill.msg.trade_id,
          order_id: orderId,
          market_ticker: MARKET,
          count_fp: '4.00',
          yes_price_dollars: '0.5600',
          is_taker: false,
          fee_cost: '0.000000',
          ts: expect.any(Number),
        }),
      ],
    });
    const positions = await call(fake, alice, 'GET', '/portfolio/positions');
    expect(positions.body.market_positions).toEqual([
      expect.objectContaining({ ticker: MARKET, position_fp: '4.00', market_exposure_dollars: '2.240000', fees_paid_dollars: '0.000000', resting_orders_count: 1 }),
    ]);
    expect((await call(fake, alice, 'GET', '/portfolio/balance')).body).toMatchObject({ balance: 99776, balance_dollars: '997.7600' });
    expect((await call(fake, bob, 'GET', '/portfolio/balance')).body).toMatchObject({ balance_dollars: '998.1710' });
    expect((await call(fake, bob, 'GET', '/portfolio/positions')).body.market_positions[0]).toMatchObject({ position_fp: '-4.00', fees_paid_dollars: '0.069000' });

    const listed = await call(fake, alice, 'GET', `/portfolio/orders?ticker=${MARKET}&status=resting&min_ts=${Math.floor(Date.now() / 1000) - 60}`);
    expect(listed.body.orders.map((o: any) => o.order_id)).toEqual([orderId]);
    expect((await call(fake, alice, 'GET', `/portfolio/orders?ticker=${MARKET}&status=executed`)).body.orders).toEqual([]);
    expect((await call(fake, alice, 'GET', `/portfolio/orders?max_ts=${Math.floor(Date.now() / 1000) - 60}`)).body.orders).toEqual([]);
    socket.ws.close();
  });

  it('kills a fill_or_kill that cannot fill entirely with 409 fill_or_kill_insufficient_resting_volume, leaving no order', async () => {
    fake.placeOrderAs('user-maker', v2Order({ side: 'ask', price: '0.5500', count: '3.00' }));
    const killed = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '5.00', time_in_force: 'fill_or_kill', client_order_id: 'fok-1' }));
    expect(killed.status).toBe(409);
    expect(killed.body).toEqual({ error: { code: 'fill_or_kill_insufficient_resting_volume', message: 'fill or kill insufficient resting volume' } });
    expect((await call(fake, alice, 'GET', '/portfolio/orders')).body.orders).toEqual([]);
    expect((await call(fake, null, 'GET', `/markets/${MARKET}/orderbook`)).body.orderbook_fp.no_dollars).toEqual([['0.4500', '3.00']]);
    const filled = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '3.00', time_in_force: 'fill_or_kill', client_order_id: 'fok-1' }));
    expect(filled.body).toMatchObject({ fill_count: '3.00', remaining_count: '0.00', average_fill_price: '0.5500' });
  });

  it('reports queue positions as the quantity ahead at the same price', async () => {
    fake.placeOrderAs('user-maker', v2Order({ count: '7.00' }));
    const ours = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '2.00' }));
    const one = await call(fake, alice, 'GET', `/portfolio/orders/${ours.body.order_id}/queue_position`);
    expect(one.body).toEqual({ queue_position: 7, queue_position_fp: '7.00' });
    const all = await call(fake, alice, 'GET', `/portfolio/orders/queue_positions?market_tickers=${MARKET}`);
    expect(all.body).toEqual({ queue_positions: [{ order_id: ours.body.order_id, market_ticker: MARKET, queue_position: 7, queue_position_fp: '7.00' }] });
  });

  it('expires a resting order at its expiration_time, so a later crossing order does not fill it', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1;
    const ours = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ expiration_time: expiresAt }));
    expect((await call(fake, alice, 'GET', `/portfolio/orders/${ours.body.order_id}`)).body.order).toMatchObject({ status: 'resting' });
    await new Promise((r) => setTimeout(r, expiresAt * 1000 - Date.now() + 50));
    const theirs = fake.placeOrderAs('user-bob', v2Order({ side: 'ask', price: '0.5600', time_in_force: 'immediate_or_cancel' }));
    expect(theirs.body).toMatchObject({ fill_count: '0.00' });
    expect((await call(fake, alice, 'GET', `/portfolio/orders/${ours.body.order_id}`)).body.order).toMatchObject({ status: 'canceled', remaining_count_fp: '0.00' });
  });

  it('tells a key its rate-limit tier', async () => {
    const limits = await call(fake, alice, 'GET', '/account/limits');
    expect(limits.body).toEqual({ usage_tier: 'basic', read: { bucket_capacity: 200, refill_rate: 200 }, write: { bucket_capacity: 100, refill_rate: 100 }, grants: [] });
  });

  it('cancels instead of trading with our own resting order (taker_at_cross)', async () => {
    const resting = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ side: 'ask', price: '0.6000', count: '3.00' }));
    const crossing = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ price: '0.6000', count: '3.00' }));
    expect(crossing.body).toMatchObject({ fill_count: '0.00', remaining_count: '0.00' });
    expect((await call(fake, alice, 'GET', `/portfolio/orders/${resting.body.order_id}`)).body.order.status).toBe('resting');
    expect((await call(fake, alice, 'GET', `/portfolio/orders/${crossing.body.order_id}`)).body.order.status).toBe('canceled');
  });
});

describe('Kalshi fake: rate limits', () => {
  it('answers a bare 429 without Retry-After when a key is over its bucket, per key and per read/write bucket', async () => {
    const fake = await startFake({ rateTier: { name: 'tiny', readPerSecond: 30, writePerSecond: 20 } });
    try {
      const reads = [];
      for (let i = 0; i < 4; i += 1) reads.push(await call(fake, alice, 'GET', '/portfolio/balance'));
      expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(reads[3]!.body).toEqual({ error: 'too many requests' });
      expect(reads[3]!.headers.get('retry-after')).toBeNull();
      // The write bucket is separate, and so is another key's.
      expect((await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order())).status).toBe(201);
      expect((await call(fake, bob, 'GET', '/portfolio/balance')).status).toBe(200);
      // Buckets refill: 10 tokens take a third of a second at 30/s.
      await new Promise((r) => setTimeout(r, 400));
      expect((await call(fake, alice, 'GET', '/portfolio/balance')).status).toBe(200);
    } finally {
      await fake.close();
    }
  });
});

describe('Kalshi fake: WebSocket', () => {
  let fake: KalshiFake;
  beforeEach(async () => {
    fake = await startFake({ pingIntervalMs: 50 });
  });
  afterEach(() => fake.close());

  it('accepts a handshake signed over GET /trade-api/ws/v2 and pings with "heartbeat"', async () => {
    const { ws } = await openSocket(fake, alice);
    const payload = await new Promise<string>((resolve) => ws.once('ping', (data) => resolve(data.toString())));
    expect(payload).toBe('heartbeat');
    expect(fake.requestsSignedBy(alice.keyId)).toContainEqual(expect.objectContaining({ path: '/trade-api/ws/v2', status: 101 }));
    ws.close();
  });

  it('refuses a handshake signed over another path or by an unknown key', async () => {
    await expect(openSocket(fake, alice, '/trade-api/v2')).rejects.toThrow('handshake answered 401');
    await expect(openSocket(fake, stranger)).rejects.toThrow('handshake answered 401');
  });

  it('answers unknown commands and channels with Kalshi error frames', async () => {
    const socket = await openSocket(fake, alice);
    socket.ws.send(JSON.stringify({ id: 7, cmd: 'subscribe', params: { channels: ['no_such_channel'] } }));
    socket.ws.send(JSON.stringify({ id: 8, cmd: 'dance' }));
    const errorsSeen = await until(() => {
      const got = socket.frames.filter((f) => f.type === 'error');
      return got.length === 2 ? got : undefined;
    });
    expect(errorsSeen).toEqual([
      { type: 'error', id: 7, msg: { code: 8, msg: 'Unknown channel name' } },
      { type: 'error', id: 8, msg: { code: 5, msg: 'Unknown command' } },
    ]);
    socket.ws.close();
  });
});

describe('Kalshi fake: fault injection', () => {
  let fake: KalshiFake;
  beforeEach(async () => {
    fake = await startFake({ pingIntervalMs: 50 });
  });
  afterEach(() => fake.close());

  it('accept-then-drop places the order and destroys the connection before answering; the retry gets 409', async () => {
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/trade-api/v2/portfolio/events/orders' });
    await expect(call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'lost-1' }))).rejects.toThrow();
    const listed = await call(fake, alice, 'GET', `/portfolio/orders?ticker=${MARKET}`);
    expect(listed.body.orders).toEqual([expect.objectContaining({ client_order_id: 'lost-1', status: 'resting' })]);
    const retry = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'lost-1' }));
    expect(retry.status).toBe(409);
    expect(fake.requests.filter((r) => r.status === 'dropped')).toHaveLength(1);
  });

  it('delays an answer with the order placed before the delay', async () => {
    fake.injectFault({ fault: { kind: 'delay', ms: 400, placeBeforeDelay: true }, method: 'POST' });
    const abort = AbortSignal.timeout(100);
    await expect(call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'slow-1' }), { signal: abort })).rejects.toThrow();
    // The client gave up, but the order already exists.
    const listed = await call(fake, alice, 'GET', '/portfolio/orders');
    expect(listed.body.orders.map((o: any) => o.client_order_id)).toEqual(['slow-1']);
  });

  it('delays an answer with the order placed only after the delay', async () => {
    fake.injectFault({ fault: { kind: 'delay', ms: 300, placeBeforeDelay: false }, method: 'POST' });
    const pending = call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ client_order_id: 'slow-2' }));
    await new Promise((r) => setTimeout(r, 100));
    expect((await call(fake, alice, 'GET', '/portfolio/orders')).body.orders).toEqual([]);
    expect((await pending).status).toBe(201);
    expect((await call(fake, alice, 'GET', '/portfolio/orders')).body.orders).toHaveLength(1);
  });

  it('answers an injected 5xx without placing anything', async () => {
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'POST' });
    const reply = await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order());
    expect(reply.status).toBe(503);
    expect(fake.exchange.allOrders()).toEqual([]);
    expect((await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order())).status).toBe(201);
  });

  it('storms 429s for as many requests as asked, then serves again', async () => {
    fake.injectFault({ fault: { kind: 'rate_limit' }, times: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(fake, alice, 'GET', '/portfolio/balance')).status);
    expect(statuses).toEqual([429, 429, 429, 200]);
  });

  it('drops every WebSocket without a close handshake', async () => {
    const { ws } = await openSocket(fake, alice);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    fake.dropWebSockets();
    expect(await closed).toBe(1006);
    expect(fake.openWebSockets).toBe(0);
  });

  it('freezes WebSockets: open but silent (no pings, no fills) until unfrozen', async () => {
    const socket = await openSocket(fake, alice);
    await subscribe(socket, ['fill']);
    await call(fake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '2.00' }));
    fake.freezeWebSockets(true);
    // A ping the fake sent just before the freeze may still be on its way: let three ping
    // intervals pass before counting, then count over six (an unfrozen fake sends about six).
    await new Promise((r) => setTimeout(r, 150));
    let pings = 0;
    socket.ws.on('ping', () => (pings += 1));
    fake.placeOrderAs('user-bob', v2Order({ side: 'ask', price: '0.5600', count: '1.00' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    expect(pings).toBe(0);
    expect(socket.frames.filter((f) => f.type === 'fill')).toEqual([]);
    fake.freezeWebSockets(false);
    fake.placeOrderAs('user-bob', v2Order({ side: 'ask', price: '0.5600', count: '1.00' }));
    await until(() => socket.frames.find((f) => f.type === 'fill'));
    await until(() => (pings > 0 ? true : undefined));
    socket.ws.close();
  });
});

describe('Kalshi fake: standalone process and control API', () => {
  it('starts from a config file with public keys only, and the control API plays the other participant and injects faults', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kalshi-fake-'));
    writeFileSync(path.join(dir, 'alice.pub.pem'), alice.publicKeyPem);
    writeFileSync(
      path.join(dir, 'fake.json'),
      JSON.stringify({ accounts: [{ user_id: 'user-alice', balance_dollars: '50.00', keys: [{ key_id: alice.keyId, public_key_file: 'alice.pub.pem' }] }] }),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', 'fakes/kalshi/start.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      // Empty books: this test's orders are the only ones (seeded books: test/fakes/seededBooks.test.ts).
      env: { ...process.env, KALSHI_FAKE_PORT: '0', KALSHI_FAKE_CONFIG: path.join(dir, 'fake.json'), KALSHI_FAKE_SEED_BOOKS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line:\n${output}`)), 20_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /control (http:\/\/[^\s]+)\/_fake\//.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
      });
      const asFake = { origin } as KalshiFake;
      const control = async (method: string, route: string, body?: unknown) => {
        const res = await fetch(`${origin}/_fake${route}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as any };
      };

      expect((await call(asFake, alice, 'GET', '/portfolio/balance')).body).toMatchObject({ balance: 5000, balance_dollars: '50.0000' });
      const ours = await call(asFake, alice, 'POST', '/portfolio/events/orders', v2Order({ count: '5.00' }));
      expect(ours.status).toBe(201);
      expect((await control('POST', '/accounts', { user_id: 'user-other', balance_dollars: '100.00' })).status).toBe(200);
      const theirs = await control('POST', '/orders', { user_id: 'user-other', order: v2Order({ side: 'ask', count: '2.00', time_in_force: 'fill_or_kill' }) });
      expect(theirs).toEqual({ status: 201, body: expect.objectContaining({ fill_count: '2.00', average_fill_price: '0.5600' }) });
      expect((await call(asFake, alice, 'GET', `/portfolio/orders/${ours.body.order_id}`)).body.order.fill_count_fp).toBe('2.00');

      expect((await control('POST', '/faults', { kind: 'server_error', status: 502, method: 'GET', times: 2 })).status).toBe(200);
      expect((await call(asFake, alice, 'GET', '/portfolio/balance')).status).toBe(502);
      expect((await call(asFake, alice, 'GET', '/portfolio/balance')).status).toBe(502);
      expect((await call(asFake, alice, 'GET', '/portfolio/balance')).status).toBe(200);
      expect((await control('POST', '/faults', { kind: 'nonsense' })).status).toBe(400);

      const requests = (await control('GET', '/requests')).body.requests as Array<{ keyId: string | null; path: string }>;
      expect(requests.filter((r) => r.keyId === alice.keyId && r.path === '/trade-api/v2/portfolio/events/orders')).toHaveLength(1);
    } finally {
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves no control API unless asked to', async () => {
    const fake = await startFake();
    try {
      const res = await fetch(`${fake.origin}/_fake/requests`);
      expect(res.status).toBe(404);
    } finally {
      await fake.close();
    }
  });
});
