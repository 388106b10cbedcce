/**
 * The Kalshi fake's V2 order management over real loopback HTTP and WebSocket: amend (a new price
 * or a larger size goes to the back of the queue and may take; a smaller size keeps the place),
 * decrease (keeps the place; to zero is a cancel), batched create and cancel (each item answered on
 * its own; a batch over the tier's size refused whole; billed per item), Kalshi's announced bug of
 * cancel/amend answers that describe another order, and the HTTP faults on these routes (a lost
 * answer that nonetheless acted, a 5xx and a 429 that did not).
 *
 * Queue places are read as a client reads them, GET /portfolio/orders/{id}/queue_position (the
 * contracts ahead at the order's price). Requests are signed by our signer (kalshiFakeRequests).
 */
import WebSocket from 'ws';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { KalshiFake, type KalshiFakeOptions } from '../../fakes/kalshi/server';
import { kalshiFakeRequests, until, type Reply } from '../support/kalshiFakeRequests';
import { newKalshiKey } from '../support/kalshiKeys';
import { v2OrderBody } from '../support/kalshiOrders';

const MARKET = 'KXFAKEFED-26DEC-T4.00';
const ORDERS = '/portfolio/events/orders';

const alice = newKalshiKey('a1b2c3d4-0000-4000-8000-00000000a11c');
const bob = newKalshiKey('b0b0b0b0-0000-4000-8000-0000000000b0');

let fake: KalshiFake;
const { call, control } = kalshiFakeRequests(() => fake);

async function startFake(options: KalshiFakeOptions = {}): Promise<KalshiFake> {
  return KalshiFake.start({
    accounts: [
      { userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] },
      { userId: 'user-bob', balanceDollars: '1000.00', keys: [bob] },
      { userId: 'user-maker', balanceDollars: '100000.00' },
    ],
    controlApi: true,
    rateLimits: false,
    pingIntervalMs: 60_000,
    ...options,
  });
}

const order = (overrides: Record<string, unknown> = {}) => v2OrderBody(MARKET, overrides);

/** Places a V2 order signed by `key` and answers its order_id. */
async function place(key: typeof alice, overrides: Record<string, unknown>): Promise<string> {
  const reply = await call(key, 'POST', ORDERS, order(overrides));
  expect(reply.status).toBe(201);
  return reply.body.order_id as string;
}

/** Another participant's resting order, placed through the same book (no signature). */
function makerOrder(overrides: Record<string, unknown>): string {
  const answer = fake.placeOrderAs('user-maker', order(overrides));
  expect(answer.status).toBe(201);
  return (answer.body as { order_id: string }).order_id;
}

/** Contracts ahead of the order at its price, as Kalshi's queue_position_fp says. */
async function ahead(orderId: string, key = alice): Promise<string> {
  const reply = await call(key, 'GET', `/portfolio/orders/${orderId}/queue_position`);
  expect(reply.status).toBe(200);
  return reply.body.queue_position_fp as string;
}

async function getOrder(orderId: string, key = alice): Promise<any> {
  const reply = await call(key, 'GET', `/portfolio/orders/${orderId}`);
  expect(reply.status).toBe(200);
  return reply.body.order;
}

const amend = (orderId: string, body: Record<string, unknown>, key = alice): Promise<Reply> =>
  call(key, 'POST', `${ORDERS}/${orderId}/amend`, { ticker: MARKET, side: 'bid', ...body });

const decrease = (orderId: string, body: Record<string, unknown>, key = alice): Promise<Reply> => call(key, 'POST', `${ORDERS}/${orderId}/decrease`, body);

/** The YES bids of the book, best last, as [price, count] pairs. */
async function yesBids(): Promise<string[][]> {
  return (await call(null, 'GET', `/markets/${MARKET}/orderbook`)).body.orderbook_fp.yes_dollars;
}

describe('Kalshi fake: amend (V2)', () => {
  beforeEach(async () => {
    fake = await startFake();
  });
  afterEach(() => fake.close());

  it('moves the order to its new price, at the back of that queue, and answers the V2 amend shape', async () => {
    makerOrder({ price: '0.4000', count: '10.00' });
    const id = await place(alice, { price: '0.4000', count: '10.00', client_order_id: 'amend-1' });
    expect(await ahead(id)).toBe('10.00');
    await place(bob, { price: '0.4100', count: '5.00' });

    const reply = await amend(id, { price: '0.4100', count: '10.00', client_order_id: 'amend-1', updated_client_order_id: 'amend-1b' });
    expect(reply.status).toBe(200);
    // A price change without a fill leaves the resting size as it was: remaining_count and fill_count
    // are "only present when the amend caused a fill or changed the resting size" (null, never omitted).
    expect(reply.body).toEqual({
      order_id: id,
      client_order_id: 'amend-1b',
      remaining_count: null,
      fill_count: null,
      average_fill_price: null,
      average_fee_paid: null,
      ts_ms: expect.any(Number),
    });
    expect(await getOrder(id)).toEqual(
      expect.objectContaining({ order_id: id, client_order_id: 'amend-1b', status: 'resting', yes_price_dollars: '0.4100', remaining_count_fp: '10.00', initial_count_fp: '10.00' }),
    );
    // Behind bob's 5 at 0.41; gone from 0.40.
    expect(await ahead(id)).toBe('5.00');
    expect(await yesBids()).toEqual([
      ['0.4000', '10.00'],
      ['0.4100', '15.00'],
    ]);
    // The old client id stays taken (client ids are permanent per account), the new one is the order's.
    expect((await call(alice, 'POST', ORDERS, order({ price: '0.0100', client_order_id: 'amend-1' }))).status).toBe(409);
  });

  it('sends a larger size to the back of the queue at the same price, and keeps the place of a smaller one', async () => {
    makerOrder({ price: '0.4000', count: '10.00' });
    const id = await place(alice, { price: '0.4000', count: '10.00' });
    const bobs = await place(bob, { price: '0.4000', count: '5.00' });
    expect([await ahead(id), await ahead(bobs, bob)]).toEqual(['10.00', '20.00']);

    const smaller = await amend(id, { price: '0.4000', count: '8.00' });
    expect(smaller.status).toBe(200);
    expect(smaller.body).toEqual(expect.objectContaining({ remaining_count: '8.00', fill_count: '0.00' }));
    expect([await ahead(id), await ahead(bobs, bob)]).toEqual(['10.00', '18.00']);

    const larger = await amend(id, { price: '0.4000', count: '12.00' });
    expect(larger.status).toBe(200);
    expect(larger.body).toEqual(expect.objectContaining({ order_id: id, remaining_count: '12.00', fill_count: '0.00' }));
    // Now behind bob: the maker's 10 and bob's 5 are ahead.
    expect([await ahead(id), await ahead(bobs, bob)]).toEqual(['15.00', '10.00']);
    expect(await yesBids()).toEqual([['0.4000', '27.00']]);
  });

  it('may cross the book and fill as a taker when the new price reaches the other side, reported on the private channels', async () => {
    const ws = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(alice.keyId, alice.privateKey).webSocket() } });
    const frames: any[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      ws.send(JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels: ['user_orders', 'fill'] } }));
      await until(() => (frames.filter((f) => f.type === 'subscribed').length === 2 ? true : undefined));
      makerOrder({ side: 'ask', price: '0.4500', count: '5.00' });
      const id = await place(alice, { price: '0.4000', count: '10.00' });

      const reply = await amend(id, { price: '0.4500', count: '10.00' });
      expect(reply.status).toBe(200);
      // Taker fee 0.07 x 5 x 0.45 x 0.55 = 0.086625, rounded up to 0.0867: 0.0173 a contract.
      expect(reply.body).toEqual({
        order_id: id,
        client_order_id: expect.any(String),
        remaining_count: '5.00',
        fill_count: '5.00',
        average_fill_price: '0.4500',
        average_fee_paid: '0.0173',
        ts_ms: expect.any(Number),
      });
      expect(await getOrder(id)).toEqual(expect.objectContaining({ status: 'resting', fill_count_fp: '5.00', remaining_count_fp: '5.00', yes_price_dollars: '0.4500' }));
      const fills = (await call(alice, 'GET', `/portfolio/fills?order_id=${id}`)).body.fills;
      expect(fills).toEqual([expect.objectContaining({ order_id: id, is_taker: true, count_fp: '5.00', yes_price_dollars: '0.4500', fee_cost: '0.086700' })]);

      const fill = await until(() => frames.find((f) => f.type === 'fill' && f.msg.order_id === id));
      expect(fill.msg).toEqual(expect.objectContaining({ is_taker: true, count_fp: '5.00', yes_price_dollars: '0.4500' }));
      const update = await until(() => frames.find((f) => f.type === 'user_order' && f.msg.order_id === id && f.msg.yes_price_dollars === '0.4500'));
      expect(update.msg).toEqual(expect.objectContaining({ status: 'resting', fill_count_fp: '5.00', remaining_count_fp: '5.00' }));
    } finally {
      ws.close();
    }
  });

  it('refuses an amend of an order that no longer rests, of another account, or that does not match the order', async () => {
    const id = await place(alice, { price: '0.4000', count: '10.00', client_order_id: 'amend-refused' });
    // Bob cannot see alice's order.
    expect((await amend(id, { price: '0.4100', count: '10.00' }, bob)).status).toBe(404);
    // A count at or below what has filled, a price off the market's ticks, another side.
    expect((await amend(id, { price: '0.4000', count: '0' })).body.error.code).toBe('invalid_order');
    expect((await amend(id, { price: '0.4050', count: '10.00' })).body).toEqual({ error: { code: 'invalid_price', message: 'invalid price', service: 'exchange' } });
    expect((await amend(id, { side: 'ask', price: '0.4100', count: '10.00' })).body.error.code).toBe('invalid_order');
    expect((await amend(id, { price: '0.4100', count: '10.00', client_order_id: 'someone-else' })).body.error.code).toBe('invalid_order');
    // A missing required field; a number where a fixed-point string belongs.
    expect((await call(alice, 'POST', `${ORDERS}/${id}/amend`, { ticker: MARKET, side: 'bid', price: '0.4100' })).body).toEqual({
      error: { code: 'missing_parameters', message: 'missing parameters', details: 'count is required' },
    });
    expect((await amend(id, { price: 0.41, count: '10.00' })).body).toEqual({
      code: 'bad_request',
      message: 'bad request',
      details: 'json: cannot unmarshal number into Go struct field AmendOrderV2Request.price of type string',
    });
    expect((await getOrder(id)).yes_price_dollars).toBe('0.4000');
    // Canceled: like the cancel of a canceled order, not found.
    expect((await call(alice, 'DELETE', `${ORDERS}/${id}`)).status).toBe(200);
    expect((await amend(id, { price: '0.4100', count: '10.00' })).body).toEqual({ error: { code: 'not_found', message: 'not found', service: 'exchange' } });
  });
});

describe('Kalshi fake: decrease (V2)', () => {
  beforeEach(async () => {
    fake = await startFake();
  });
  afterEach(() => fake.close());

  it('keeps the queue place with reduce_by and reduce_to, and cancels at zero', async () => {
    makerOrder({ price: '0.4000', count: '10.00' });
    const id = await place(alice, { price: '0.4000', count: '10.00', client_order_id: 'dec-1' });
    const bobs = await place(bob, { price: '0.4000', count: '5.00' });

    const by = await decrease(id, { reduce_by: '4' });
    expect(by.status).toBe(200);
    expect(by.body).toEqual({ order_id: id, client_order_id: 'dec-1', remaining_count: '6.00', ts_ms: expect.any(Number) });
    expect([await ahead(id), await ahead(bobs, bob)]).toEqual(['10.00', '16.00']);

    const to = await decrease(id, { reduce_to: '2.00' });
    expect(to.body).toEqual(expect.objectContaining({ remaining_count: '2.00' }));
    expect([await ahead(id), await ahead(bobs, bob)]).toEqual(['10.00', '12.00']);
    expect(await getOrder(id)).toEqual(expect.objectContaining({ status: 'resting', remaining_count_fp: '2.00', initial_count_fp: '10.00' }));

    const zero = await decrease(id, { reduce_to: '0' });
    expect(zero.body).toEqual(expect.objectContaining({ order_id: id, remaining_count: '0.00' }));
    expect(await getOrder(id)).toEqual(expect.objectContaining({ status: 'canceled', remaining_count_fp: '0.00' }));
    expect((await call(alice, 'GET', `/portfolio/orders/${id}/queue_position`)).status).toBe(404);
    expect(await ahead(bobs, bob)).toBe('10.00');
    expect(await yesBids()).toEqual([['0.4000', '15.00']]);
    // Gone: decreasing it again is not found.
    expect((await decrease(id, { reduce_by: '1' })).status).toBe(404);
  });

  it('clamps a reduce_by over the remaining count to a cancel and refuses a malformed decrease', async () => {
    const id = await place(alice, { price: '0.4000', count: '3.00' });
    expect((await decrease(id, { reduce_by: '1', reduce_to: '1' })).body).toEqual({
      error: { code: 'invalid_parameters', message: 'invalid parameters', details: 'exactly one of reduce_by or reduce_to must be provided' },
    });
    expect((await decrease(id, {})).status).toBe(400);
    expect((await decrease(id, { reduce_to: '5' })).body.error.code).toBe('invalid_order');
    expect((await decrease(id, { reduce_by: 2 })).body.details).toBe('json: cannot unmarshal number into Go struct field DecreaseOrderV2Request.reduce_by of type string');
    expect((await getOrder(id)).remaining_count_fp).toBe('3.00');
    expect((await decrease(id, { reduce_by: '50' })).body).toEqual(expect.objectContaining({ remaining_count: '0.00' }));
    expect((await getOrder(id)).status).toBe('canceled');
  });

  it('sends a user_order update for each decrease, the last one canceled', async () => {
    const ws = new WebSocket(fake.wsUrl, { headers: { ...createKalshiSigner(alice.keyId, alice.privateKey).webSocket() } });
    const frames: any[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      ws.send(JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels: ['user_orders'] } }));
      await until(() => frames.find((f) => f.type === 'subscribed'));
      const id = await place(alice, { price: '0.3000', count: '4.00' });
      await decrease(id, { reduce_by: '1.00' });
      await decrease(id, { reduce_to: '0.00' });
      const updates = await until(() => {
        const got = frames.filter((f) => f.type === 'user_order' && f.msg.order_id === id);
        return got.length === 3 ? got : undefined;
      });
      expect(updates.map((f) => [f.msg.status, f.msg.remaining_count_fp])).toEqual([
        ['resting', '4.00'],
        ['resting', '3.00'],
        ['canceled', '0.00'],
      ]);
    } finally {
      ws.close();
    }
  });
});

describe('Kalshi fake: batched create and cancel (V2)', () => {
  beforeEach(async () => {
    fake = await startFake();
  });
  afterEach(() => fake.close());

  it('creates each order of a batch on its own: a reused client_order_id is that item’s 409 error, the others are placed', async () => {
    await place(alice, { price: '0.1000', count: '1.00', client_order_id: 'batch-taken' });
    const reply = await call(alice, 'POST', `${ORDERS}/batched`, {
      orders: [
        order({ price: '0.2000', count: '1.00', client_order_id: 'batch-a' }),
        order({ price: '0.2100', count: '2.00', client_order_id: 'batch-taken' }),
        order({ price: '0.2200', count: '3.00', client_order_id: 'batch-b' }),
        order({ price: '0.2300', count: '4.00' }),
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.orders).toEqual([
      { order_id: expect.any(String), client_order_id: 'batch-a', fill_count: '0.00', remaining_count: '1.00', average_fill_price: null, average_fee_paid: null, ts_ms: expect.any(Number) },
      {
        client_order_id: 'batch-taken',
        fill_count: null,
        remaining_count: null,
        average_fill_price: null,
        average_fee_paid: null,
        ts_ms: null,
        error: { code: 'order_already_exists', message: 'order already exists', service: 'exchange' },
      },
      expect.objectContaining({ client_order_id: 'batch-b', remaining_count: '3.00' }),
      expect.objectContaining({ order_id: expect.any(String), client_order_id: expect.any(String), remaining_count: '4.00' }),
    ]);
    const resting = (await call(alice, 'GET', `/portfolio/orders?status=resting`)).body.orders;
    expect(resting.map((o: any) => o.yes_price_dollars).sort()).toEqual(['0.1000', '0.2000', '0.2200', '0.2300']);
    // Within one batch, the second use of a client id is the error.
    const twice = await call(alice, 'POST', `${ORDERS}/batched`, {
      orders: [order({ price: '0.0500', client_order_id: 'twice' }), order({ price: '0.0600', client_order_id: 'twice' })],
    });
    expect(twice.body.orders.map((o: any) => o.error?.code ?? 'placed')).toEqual(['placed', 'order_already_exists']);
  });

  it('refuses a whole batch with a malformed item, or over the tier’s batch size, placing nothing', async () => {
    const malformed = await call(alice, 'POST', `${ORDERS}/batched`, { orders: [order({ price: '0.2000' }), order({ price: 0.2 })] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toBe('json: cannot unmarshal number into Go struct field CreateOrderV2Request.orders.price of type string');
    const missing = await call(alice, 'POST', `${ORDERS}/batched`, { orders: [order(), { ...order(), ticker: undefined }] });
    expect(missing.body).toEqual({ error: { code: 'missing_parameters', message: 'missing parameters', details: 'ticker is required' } });
    // Basic tier: a 100-token write bucket pays for 10 creates (10 tokens each) and 50 cancels (2 each).
    const eleven = await call(alice, 'POST', `${ORDERS}/batched`, { orders: Array.from({ length: 11 }, (_, i) => order({ price: '0.1000', client_order_id: `big-${i}` })) });
    expect(eleven.status).toBe(400);
    expect(eleven.body).toEqual({
      error: { code: 'invalid_parameters', message: 'invalid parameters', details: 'batch of 11 orders is over the maximum batch size of 10 for the basic tier' },
    });
    const cancels = await call(alice, 'DELETE', `${ORDERS}/batched`, { orders: Array.from({ length: 51 }, (_, i) => ({ order_id: `x-${i}` })) });
    expect(cancels.status).toBe(400);
    expect(fake.exchange.allOrders()).toEqual([]);
    const ten = await call(alice, 'POST', `${ORDERS}/batched`, { orders: Array.from({ length: 10 }, (_, i) => order({ price: '0.1000', client_order_id: `big-${i}` })) });
    expect(ten.status).toBe(201);
    expect(ten.body.orders.filter((o: any) => o.error === undefined)).toHaveLength(10);
  });

  it('cancels each order of a batch on its own, an unknown one answered with its error', async () => {
    const a = await place(alice, { price: '0.2000', count: '1.00', client_order_id: 'bc-a' });
    const b = await place(alice, { price: '0.2100', count: '2.00', client_order_id: 'bc-b' });
    const kept = await place(alice, { price: '0.2200', count: '3.00' });
    const bobs = await place(bob, { price: '0.2300', count: '1.00' });
    const reply = await call(alice, 'DELETE', `${ORDERS}/batched`, { orders: [{ order_id: a }, { order_id: 'no-such-order' }, { order_id: b, subaccount: 0 }, { order_id: bobs }] });
    expect(reply.status).toBe(200);
    const notFound = { code: 'not_found', message: 'not found', service: 'exchange' };
    expect(reply.body.orders).toEqual([
      { order_id: a, client_order_id: 'bc-a', reduced_by: '1.00', ts_ms: expect.any(Number) },
      { order_id: 'no-such-order', reduced_by: '0.00', ts_ms: null, error: notFound },
      { order_id: b, client_order_id: 'bc-b', reduced_by: '2.00', ts_ms: expect.any(Number) },
      { order_id: bobs, reduced_by: '0.00', ts_ms: null, error: notFound },
    ]);
    expect((await getOrder(a)).status).toBe('canceled');
    expect((await getOrder(b)).status).toBe('canceled');
    expect((await getOrder(kept)).status).toBe('resting');
    expect((await getOrder(bobs, bob)).status).toBe('resting');
    // V2 takes `orders: [{order_id}]`; the V1 `ids` array is not its shape.
    expect((await call(alice, 'DELETE', `${ORDERS}/batched`, { ids: [kept] })).body).toEqual({
      error: { code: 'missing_parameters', message: 'missing parameters', details: 'orders is required' },
    });
    expect((await getOrder(kept)).status).toBe('resting');
  });

  it('bills a batch per order: a full 10-order batch empties a basic write bucket, the whole next batch is 429', async () => {
    await fake.close();
    fake = await startFake({ rateLimits: true });
    const batch = (prefix: string, n: number) => ({ orders: Array.from({ length: n }, (_, i) => order({ price: '0.1000', count: '1.00', client_order_id: `${prefix}-${i}` })) });
    expect((await call(alice, 'POST', `${ORDERS}/batched`, batch('full', 10))).status).toBe(201);
    const next = await call(alice, 'POST', `${ORDERS}/batched`, batch('next', 2));
    expect(next.status).toBe(429);
    expect(next.body).toEqual({ error: 'too many requests' });
    expect(fake.exchange.allOrders()).toHaveLength(10);
    // Cancels cost 2 each: after a second of refill, 10 cancels (20 tokens) pass.
    await new Promise((r) => setTimeout(r, 1000));
    const ids = fake.exchange.allOrders().map((o) => ({ order_id: o.orderId }));
    const canceled = await call(alice, 'DELETE', `${ORDERS}/batched`, { orders: ids });
    expect(canceled.status).toBe(200);
    expect(canceled.body.orders.every((o: any) => o.reduced_by === '1.00')).toBe(true);
  });
});

describe('Kalshi fake: faults on the order-management routes', () => {
  beforeEach(async () => {
    fake = await startFake();
  });
  afterEach(() => fake.close());

  it('wrong_order_answer: an amend answer describes another order while the amend acts on the right one; reads tell the truth', async () => {
    const other = await place(alice, { price: '0.2000', count: '3.00', client_order_id: 'wo-other' });
    const id = await place(alice, { price: '0.3000', count: '10.00', client_order_id: 'wo-amended' });
    expect((await control('/faults', { kind: 'wrong_order_answer', path_prefix: '/trade-api/v2/portfolio/events/orders' })).status).toBe(200);
    // A read does not consume the fault; the amend's answer does.
    expect((await getOrder(id)).yes_price_dollars).toBe('0.3000');
    const reply = await amend(id, { price: '0.3100', count: '8.00' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(expect.objectContaining({ order_id: other, client_order_id: 'wo-other', remaining_count: '3.00', fill_count: '0.00' }));
    expect(await getOrder(id)).toEqual(expect.objectContaining({ client_order_id: 'wo-amended', yes_price_dollars: '0.3100', remaining_count_fp: '8.00' }));
    expect(await getOrder(other)).toEqual(expect.objectContaining({ yes_price_dollars: '0.2000', remaining_count_fp: '3.00', status: 'resting' }));
    // Once: the next amend answers about its own order.
    expect((await amend(id, { price: '0.3200', count: '8.00' })).body.order_id).toBe(id);
  });

  it('wrong_order_answer on a cancel: the answer names another order, the right one is canceled', async () => {
    const other = await place(alice, { price: '0.2000', count: '3.00' });
    const id = await place(alice, { price: '0.3000', count: '10.00' });
    fake.injectWrongOrderAnswer({ method: 'DELETE' });
    const reply = await call(alice, 'DELETE', `${ORDERS}/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(expect.objectContaining({ order_id: other, reduced_by: '3.00' }));
    expect((await getOrder(id)).status).toBe('canceled');
    expect((await getOrder(other)).status).toBe('resting');
  });

  it('a lost amend answer (connection dropped) nonetheless amended the order', async () => {
    const id = await place(alice, { price: '0.3000', count: '10.00' });
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: `/trade-api/v2${ORDERS}/${id}/amend` });
    await expect(amend(id, { price: '0.3300', count: '6.00' })).rejects.toThrow();
    expect(fake.requests.filter((r) => r.status === 'dropped')).toEqual([expect.objectContaining({ method: 'POST', path: `/trade-api/v2${ORDERS}/${id}/amend` })]);
    expect(await getOrder(id)).toEqual(expect.objectContaining({ yes_price_dollars: '0.3300', remaining_count_fp: '6.00' }));
  });

  it('an injected 5xx or 429 on a decrease or a batch acts on nothing', async () => {
    const id = await place(alice, { price: '0.3000', count: '10.00' });
    fake.injectFault({ fault: { kind: 'server_error', status: 503 }, method: 'POST', pathPrefix: `/trade-api/v2${ORDERS}/${id}/decrease` });
    expect((await decrease(id, { reduce_by: '5' })).status).toBe(503);
    fake.injectFault({ fault: { kind: 'rate_limit' }, method: 'DELETE', pathPrefix: `/trade-api/v2${ORDERS}/batched` });
    const limited = await call(alice, 'DELETE', `${ORDERS}/batched`, { orders: [{ order_id: id }] });
    expect(limited).toEqual({ status: 429, body: { error: 'too many requests' } });
    expect(await getOrder(id)).toEqual(expect.objectContaining({ status: 'resting', remaining_count_fp: '10.00' }));
    expect((await decrease(id, { reduce_by: '5' })).body.remaining_count).toBe('5.00');
  });
});
