/**
 * Idempotency-Key on POST /v1/orders (Stripe's semantics, docs/trading.md): never two orders for one
 * key, whatever the concurrency or the gateway replica; the first completed answer is replayed
 * byte for byte with Idempotent-Replayed: true; a request while the first is in flight is 409
 * idempotency_key_in_use; another body is 422 idempotency_key_reused; validation failures are not
 * stored; keys are scoped to the API key. And client_order_id without a key is a 409 conflict.
 *
 * Markets used only by this file: sim-kalshi ETH-FLIP-SOL (resting buys far below the bids).
 */
import canonicalize from 'canonicalize';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { BACKENDS } from '../support/backends';
import { databaseUrl, INTERNAL_SECRET, redisUrl } from '../support/env';
import { buildApiKey } from '../support/factories';
import { call } from '../support/http';
import { startProcess, type ServiceProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';
import {
  createSubaccount,
  expectError,
  HIGH_RATE_LIMIT,
  marketOf,
  newTrader,
  placeOrder,
  rawPlace,
  sha256Hex,
  type Market,
  type OrderBody,
  type Trader,
} from './helpers';

type RawResponse = Awaited<ReturnType<typeof rawPlace>>;

const errorCode = (response: RawResponse): string | undefined => {
  try {
    return (JSON.parse(response.text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

/**
 * Fires `count` identical requests at once (spread over `bases`) and checks the outcome every
 * client relies on: exactly one order; every answer that is not 409 idempotency_key_in_use is the
 * same 200 with the same order; only the first lacks Idempotent-Replayed; a later replay returns
 * the first answer byte for byte.
 */
async function concurrentPlacement(db: Db, bases: string[], secret: string, subaccount: string, body: OrderBody, key: string) {
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => rawPlace(bases[i % bases.length], secret, body, { 'Idempotency-Key': key })),
  );
  const inUse = responses.filter((r) => r.status === 409 && errorCode(r) === 'idempotency_key_in_use');
  const answered = responses.filter((r) => !inUse.includes(r));
  for (const r of inUse) expect(r.headers.get('idempotent-replayed')).toBeNull();

  // Exactly one order, whatever the interleaving.
  expect(await db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
  const order = await db.order.findFirstOrThrow({ where: { subaccountId: subaccount } });

  expect(answered.length).toBeGreaterThanOrEqual(1);
  for (const r of answered) {
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ id: order.id, status: 'open' });
  }
  const originals = answered.filter((r) => r.headers.get('idempotent-replayed') === null);
  const replays = answered.filter((r) => r.headers.get('idempotent-replayed') !== null);
  expect(originals).toHaveLength(1);
  for (const r of replays) expect(r.headers.get('idempotent-replayed')).toBe('true');
  const [original] = originals;
  for (const r of replays) expect(JSON.parse(r.text)).toEqual(JSON.parse(original.text));

  // After everything settled: the original answer, byte for byte, and still one order.
  const later = await rawPlace(bases[0], secret, body, { 'Idempotency-Key': key });
  expect(later.status).toBe(200);
  expect(later.headers.get('idempotent-replayed')).toBe('true');
  expect(await db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
  expect(JSON.parse(later.text)).toEqual(JSON.parse(original.text));
  expect(later.text).toBe(original.text);
}

/** On each database the service runs on: the embedded PGlite runs every connection on one session. */
describe.each(BACKENDS)('on %s', (_database, configOf) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(configOf());
  }, 60_000);
  afterAll(() => stack.close());

  describe('Idempotency-Key on one gateway', () => {
    let trader: Trader;
    let market: Market;
    const resting = (subaccount: string, price = '0.30'): OrderBody => ({
      subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '3',
    });
    let sequence = 0;
    const freshKey = () => `idem-${process.pid}-${Date.now()}-${(sequence += 1)}`;

    beforeAll(async () => {
      trader = await newTrader(stack.core.db, stack.gateways[0], 'Idempotency');
      market = await marketOf(stack.core.db, 'sim_kalshi', 'ETH-FLIP-SOL');
    });

    it('50 concurrent requests with one key place exactly one order; answers are the same; a replay is byte for byte', async () => {
      const subaccount = await createSubaccount(trader, 'concurrent');
      await concurrentPlacement(stack.core.db, [trader.base], trader.secret, subaccount, resting(subaccount), freshKey());
    });

    it('the same key with a different body is 422 idempotency_key_reused, and places nothing', async () => {
      const subaccount = await createSubaccount(trader, 'reused');
      const key = freshKey();
      const first = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      expect(first.status).toBe(200);
      const other = await placeOrder(trader, resting(subaccount, '0.31'), { 'Idempotency-Key': key });
      expectError(other, 422, 'idempotency_key_reused');
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      const orders = await stack.core.db.order.findMany({ where: { subaccountId: subaccount } });
      expect(orders.map((o) => o.id)).toEqual([first.body.id]);
      // The original request with that key still replays.
      const replay = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      expect(replay.status).toBe(200);
      expect(replay.body.id).toBe(first.body.id);
    });

    it('a key answers for its first request before the new one is checked: an unknown market or a market order that would rest, with a used key, is 422 idempotency_key_reused', async () => {
      const subaccount = await createSubaccount(trader, 'reused before checks');
      const key = freshKey();
      const first = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      expect(first.status).toBe(200);
      const unknownMarket = await placeOrder(trader, { ...resting(subaccount), market_id: 'mkt_does_not_exist' }, { 'Idempotency-Key': key });
      expectError(unknownMarket, 422, 'idempotency_key_reused');
      const restingMarketOrder = await placeOrder(trader, { ...resting(subaccount), type: 'market', time_in_force: 'gtc' }, { 'Idempotency-Key': key });
      expectError(restingMarketOrder, 422, 'idempotency_key_reused');
      const replay = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
    });

    it('an unknown market with a fresh key is stored and replayed as the same 404', async () => {
      const subaccount = await createSubaccount(trader, 'unknown market');
      const key = freshKey();
      const body = { ...resting(subaccount), market_id: 'mkt_does_not_exist' };
      const first = await placeOrder(trader, body, { 'Idempotency-Key': key });
      const original = expectError(first, 404, 'not_found');
      expect(await stack.core.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId: trader.keyId, key } } })).toMatchObject({ state: 'completed' });
      const replay = await placeOrder(trader, body, { 'Idempotency-Key': key });
      expect(expectError(replay, 404, 'not_found').message).toBe(original.message);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    });

    it('a risk rejection is stored and replayed as the same 422, even after the limit is raised', async () => {
      const subaccount = await createSubaccount(trader, 'rejected');
      await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, { key: trader.secret, body: { max_order_notional: '0.5' } });
      const key = freshKey();
      const first = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key }); // 0.90 > 0.50
      const original = expectError(first, 422, 'risk_limit_exceeded', { limit: 'max_order_notional' });
      await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, { key: trader.secret, body: { max_order_notional: null } });
      const replay = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      const replayed = expectError(replay, 422, 'risk_limit_exceeded', { limit: 'max_order_notional' });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.message).toBe(original.message);
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(0);
      // A new key is a new request, judged under the new limit.
      expect((await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': freshKey() })).status).toBe(200);
    });

    it('a validation failure with a key is not stored: the same key with a corrected body places the order', async () => {
      const subaccount = await createSubaccount(trader, 'corrected');
      const key = freshKey();
      const bad = await placeOrder(trader, resting(subaccount, '0.305'), { 'Idempotency-Key': key });
      expectError(bad, 400, 'invalid_request', { param: 'price' });
      expect(await stack.core.db.idempotencyRecord.count({ where: { apiKeyId: trader.keyId, key } })).toBe(0);
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(0);

      const corrected = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      expect(corrected.status).toBe(200);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      expect(corrected.body).toMatchObject({ status: 'open', price: '0.3' });
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
      expect(await stack.core.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId: trader.keyId, key } } })).toMatchObject({
        state: 'completed',
      });
    });

    it('a key whose first request is still in flight answers 409 idempotency_key_in_use and places nothing; a dead claim is taken over', async () => {
      const subaccount = await createSubaccount(trader, 'in flight');
      const key = freshKey();
      const body = resting(subaccount);
      // What the core hashes: the operation and its GraphQL variables (the body, camelCased, as `input`).
      const variables = {
        input: { subaccountId: body.subaccount_id, marketId: body.market_id, side: body.side, action: body.action, type: body.type, price: body.price, quantity: body.quantity },
      };
      const requestHash = sha256Hex(canonicalize({ operation: 'PlaceOrder', variables })!);
      await stack.core.db.idempotencyRecord.create({
        data: { apiKeyId: trader.keyId, key, operation: 'PlaceOrder', requestHash, state: 'in_flight' },
      });

      const response = await placeOrder(trader, body, { 'Idempotency-Key': key });
      expectError(response, 409, 'idempotency_key_in_use');
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(0);

      // A claim older than the in-flight window belongs to a request that died: a retry executes.
      await stack.core.db.$executeRaw`
        UPDATE idempotency_records SET created_at = now() - interval '10 minutes' WHERE api_key_id = ${trader.keyId} AND key = ${key}`;
      const retried = await placeOrder(trader, body, { 'Idempotency-Key': key });
      expect(retried.status).toBe(200);
      expect(retried.body.status).toBe('open');
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
    });

    it('keys are scoped to the API key: the same key string with another key of the workspace places its own order', async () => {
      const subaccount = await createSubaccount(trader, 'two keys');
      const { secret: otherSecret } = await buildApiKey(stack.core.db, trader.workspaceId, 'test', HIGH_RATE_LIMIT);
      const key = freshKey();
      const first = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key });
      const second = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key }, otherSecret);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body.id).not.toBe(first.body.id);
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(2);
      // Each key replays its own.
      const again = await placeOrder(trader, resting(subaccount), { 'Idempotency-Key': key }, otherSecret);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(second.body.id);
    });

    it('without a key, a client_order_id already used is 409 conflict, and there is still one order', async () => {
      const subaccount = await createSubaccount(trader, 'client ids');
      const body = { ...resting(subaccount), client_order_id: `cid-${process.pid}-${Date.now()}` };
      const first = await placeOrder(trader, body);
      expect(first.status).toBe(200);
      expect(first.body.client_order_id).toBe(body.client_order_id);
      const second = await placeOrder(trader, body);
      expectError(second, 409, 'conflict');
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
    });
  });

  describe('client_order_id under concurrency (no Idempotency-Key)', () => {
    let trader: Trader;
    let market: Market;

    beforeAll(async () => {
      trader = await newTrader(stack.core.db, stack.gateways[0], 'Client order ids');
      market = await marketOf(stack.core.db, 'sim_kalshi', 'ETH-FLIP-SOL');
    });

    const body = (subaccount: string, clientOrderId: string): OrderBody => ({
      subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.28', quantity: '2', client_order_id: clientOrderId,
    });

    it('10 concurrent orders with one client_order_id on one subaccount: one order, nine 409 conflict', async () => {
      const subaccount = await createSubaccount(trader, 'cid concurrent');
      const clientOrderId = `cc-${process.pid}-${Date.now()}`;
      const responses = await Promise.all(Array.from({ length: 10 }, () => placeOrder(trader, body(subaccount, clientOrderId))));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of responses.filter((x) => x.status !== 200)) expectError(r, 409, 'conflict');
      expect(await stack.core.db.order.count({ where: { subaccountId: subaccount } })).toBe(1);
    });

    it('a client_order_id is unique in the workspace: used concurrently from two subaccounts, one order and 409 conflict for the rest', async () => {
      const one = await createSubaccount(trader, 'cid one');
      const two = await createSubaccount(trader, 'cid two');
      const clientOrderId = `cw-${process.pid}-${Date.now()}`;
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => placeOrder(trader, body(i % 2 ? one : two, clientOrderId))));
      const statuses = responses.map((r) => `${r.status} ${(r.body as { error?: { code: string } }).error?.code ?? ''}`.trim());
      expect(statuses.filter((s) => s === '200')).toHaveLength(1);
      expect(statuses.filter((s) => s !== '200')).toEqual(Array(9).fill('409 conflict'));
      expect(await stack.core.db.order.count({ where: { subaccountId: { in: [one, two] } } })).toBe(1);
    });
  });
});

describe('Idempotency-Key across two gateway processes (one core process, shared Redis)', () => {
  let db: Db;
  let core: ServiceProcess;
  let gateways: ServiceProcess[] = [];
  const common = { INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'warn', REDIS_URL: redisUrl(), DATABASE_URL: databaseUrl() };

  beforeAll(async () => {
    db = createPrismaClient(databaseUrl(), 2);
    core = await startProcess('bin/startCore.ts', { ...common, LOG_LEVEL: 'info', CORE_PORT: '0' });
    gateways = await Promise.all(
      [0, 1].map(() => startProcess('bin/startGateway.ts', { ...common, LOG_LEVEL: 'info', PORT: '0', CORE_URL: core.url })),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...gateways, core].map((p) => p.stop()));
    await db.$disconnect();
  });

  it('50 concurrent requests split over both replicas place exactly one order, with identical replays', async () => {
    const trader = await newTrader(db, gateways[0].url, 'Idempotency split');
    const market = await marketOf(db, 'sim_kalshi', 'ETH-FLIP-SOL');
    const subaccount = await createSubaccount(trader, 'split');
    const body: OrderBody = { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.29', quantity: '4' };
    // Warm both replicas' authentication caches so the burst really is concurrent.
    for (const gateway of gateways) expect((await fetch(`${gateway.url}/v1/fills`, { headers: { authorization: `Bearer ${trader.secret}` } })).status).toBe(200);
    await concurrentPlacement(db, gateways.map((g) => g.url), trader.secret, subaccount, body, `split-${process.pid}-${Date.now()}`);
  });
});
