/**
 * Crash recovery without a client's retry, on the simulated venues: what a core that died
 * mid-request leaves behind (an order `pending`, its Idempotency-Key `in_flight`) is resolved by a
 * running core within the in-flight window (twice CORE_TIMEOUT_MS) and a reconciler round, and a
 * later retry with the same key never places a second order.
 *
 * 1. The leftovers of a request that died between its transaction and the venue's answer, written
 *    as that request wrote them: with no request at all, the claim is released and the order is
 *    sent again with the same client order id (a simulated book lives in the memory of the core
 *    that died, so the next core's venue does not know it), or recorded `rejected` (not_at_venue)
 *    when older than LIVE_RESEND_MAX_AGE_MS, as live orders are.
 * 2. A core process killed (SIGKILL) with 30 orders in flight, each with its own key: the next core
 *    leaves nothing pending, unknown or in flight, and a retry of every key ends with exactly one
 *    order per key. Its figures are printed once for the closing note.
 *
 * Real processes (the compiled `npm start`) on a database of this suite's own: the simulated
 * reconciler claims every stale test order of its database.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { newId } from '../../core/domain/ids';
import { keyReference } from '../../core/services/idempotency/keyRecords';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';
import { canonicalHash, createSubaccount, marketOf, placeOrder, waitFor, type Market, type OrderBody, type Trader } from '../trading/helpers';

const CORE_TIMEOUT_MS = 1000; // the in-flight window is twice this: 2 s

let url: string;
let db: Db;
let core: ServiceProcess | undefined;
let trader: Trader;
let market: Market;

const env = () => ({
  DATABASE_URL: url,
  PORT: '0',
  LOG_LEVEL: 'info',
  CORE_TIMEOUT_MS: String(CORE_TIMEOUT_MS),
  SIM_RECONCILER_ENABLED: 'true',
  SIM_RECONCILE_INTERVAL_MS: '200',
  RATE_LIMIT_DEFAULT: '100000',
  LIVE_RESEND_MAX_AGE_MS: '60000',
});

beforeAll(async () => {
  url = await ownDatabase('crash_recovery');
  db = createPrismaClient(url, 2);
  core = await startProcess('bin/start.ts', env());
  const { workspace, key, secret } = await buildWorkspace(db, { rateLimit: 100_000, name: 'Crash recovery' });
  trader = { base: core.url, secret, keyId: key.id, workspaceId: workspace.id };
  market = await marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS');
}, 60_000);

afterAll(async () => {
  await core?.stop('SIGKILL');
  await db?.$disconnect();
});

const restingBuy = (subaccountId: string): OrderBody => ({
  subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1',
});

/** What the core hashes for a key: the operation and its GraphQL variables (the body, camelCased, as `input`). */
function requestHashOf(body: OrderBody): string {
  const input = { subaccountId: body.subaccount_id, marketId: body.market_id, side: body.side, action: body.action, type: body.type, price: body.price, quantity: body.quantity };
  return canonicalHash({ operation: 'PlaceOrder', variables: { input } });
}

const ordersOfKey = (key: string) => db.order.findMany({ where: { workspaceId: trader.workspaceId, clientOrderId: keyReference({ apiKeyId: trader.keyId, key }) } });

/** What a request that died between its transaction and the venue's answer had written: its claim, and its order pending. */
async function deadRequest(subaccountId: string, key: string, createdAt = new Date()) {
  const body = restingBuy(subaccountId);
  await db.idempotencyRecord.create({ data: { apiKeyId: trader.keyId, key, operation: 'PlaceOrder', requestHash: requestHashOf(body), state: 'in_flight' } });
  const order = await db.order.create({
    data: {
      id: newId('order'), workspaceId: trader.workspaceId, environment: 'test', subaccountId, marketId: market.id, venue: 'sim_kalshi',
      side: 'yes', action: 'buy', type: 'limit', timeInForce: 'gtc', price: '0.02', quantity: '1', status: 'pending',
      clientOrderId: keyReference({ apiKeyId: trader.keyId, key }), createdAt, updatedAt: createdAt,
    },
  });
  return { body, order };
}

/** Polls until the order is no longer pending and its key's claim is gone. */
const resolvedWithoutRequests = (orderId: string, key: string) =>
  waitFor(
    async () => ({
      order: await db.order.findUniqueOrThrow({ where: { id: orderId } }),
      claims: await db.idempotencyRecord.count({ where: { apiKeyId: trader.keyId, key } }),
    }),
    ({ order, claims }) => order.status !== 'pending' && claims === 0,
    15_000,
  );

it('sends a dead request’s pending order again with the same client order id and releases its key, with no request at all; the retry finds the order', async () => {
  const subaccountId = await createSubaccount(trader, 'leftovers');
  const key = `dead-${Date.now()}`;
  const { body, order } = await deadRequest(subaccountId, key);

  // Within the window the key is still held: a retry is told to come back.
  const early = await placeOrder(trader, body, { 'Idempotency-Key': key });
  expect(early.status).toBe(409);
  expect(envelopeOf(early).code).toBe('idempotency_key_in_use');

  // The venue did not know it (a simulated book lives in the memory of the core that held it): sent again.
  const resolved = await resolvedWithoutRequests(order.id, key);
  expect(resolved.order).toMatchObject({ status: 'open', venueOrderId: expect.any(String) });

  const retried = await placeOrder(trader, body, { 'Idempotency-Key': key });
  expect(retried.status).toBe(200);
  expect(retried.body).toMatchObject({ id: order.id, status: 'open' });
  expect((await ordersOfKey(key)).map((o) => o.id)).toEqual([order.id]);
}, 30_000);

it('records a dead request’s order older than LIVE_RESEND_MAX_AGE_MS as rejected (not_at_venue), never sent', async () => {
  const subaccountId = await createSubaccount(trader, 'old leftovers');
  const key = `dead-old-${Date.now()}`;
  const { body, order } = await deadRequest(subaccountId, key, new Date(Date.now() - 120_000));
  const resolved = await resolvedWithoutRequests(order.id, key);
  expect(resolved.order.status).toBe('rejected');
  expect(resolved.order.rejectReason).toMatch(/^not_at_venue: /);
  expect(resolved.order.venueOrderId).toBeNull();
  const retried = await placeOrder(trader, body, { 'Idempotency-Key': key });
  expect(retried.body).toMatchObject({ id: order.id, status: 'rejected' });
  expect((await ordersOfKey(key)).map((o) => o.id)).toEqual([order.id]);
}, 30_000);

it('after a SIGKILL with 30 orders in flight, the next core leaves nothing pending or in flight, and retries end with one order per key', async () => {
  const subaccountId = await createSubaccount(trader, 'killed');
  const body = restingBuy(subaccountId);
  const keys = Array.from({ length: 30 }, (_, i) => `kill-${Date.now()}-${i}`);
  const inFlight = keys.map((key) => placeOrder(trader, body, { 'Idempotency-Key': key }).then((r) => r.status, () => 'no answer' as const));
  await waitFor(() => db.order.count({ where: { subaccountId } }), (n) => n >= 10, 15_000);
  await core!.stop('SIGKILL');
  const answers = await Promise.all(inFlight);
  const atKill = {
    orders: await db.order.count({ where: { subaccountId } }),
    pending: await db.order.count({ where: { subaccountId, status: { in: ['pending', 'unknown'] } } }),
    claims: await db.idempotencyRecord.count({ where: { apiKeyId: trader.keyId, key: { in: keys }, state: 'in_flight' } }),
  };

  core = await startProcess('bin/start.ts', env());
  trader = { ...trader, base: core.url };
  const restarted = Date.now();
  await waitFor(
    async () =>
      (await db.order.count({ where: { subaccountId, status: { in: ['pending', 'unknown'] } } })) +
      (await db.idempotencyRecord.count({ where: { apiKeyId: trader.keyId, key: { in: keys }, state: 'in_flight' } })),
    (stuck) => stuck === 0,
    15_000,
  );
  const recoveredMs = Date.now() - restarted;
  for (const key of keys) expect((await ordersOfKey(key)).length).toBeLessThanOrEqual(1);

  // A client retries with its key until it has an answer: a 502 (the core slower than the gateway's
  // CORE_TIMEOUT_MS, 1 s here to keep the in-flight window short, as a just-restarted core on a
  // loaded machine can be) is retried like a lost answer.
  const retry = async (key: string) => {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await placeOrder(trader, body, { 'Idempotency-Key': key });
      if (answer.status !== 502 || attempt === 5) return answer;
    }
  };
  const retries = await Promise.all(keys.map(retry));
  expect(retries.map((r) => r.status)).toEqual(keys.map(() => 200));
  const perKey = await Promise.all(keys.map(ordersOfKey));
  expect(perKey.map((orders) => orders.length)).toEqual(keys.map(() => 1));
  for (const [i, orders] of perKey.entries()) expect(retries[i].body.id).toBe(orders[0].id);
  expect(await db.order.count({ where: { subaccountId } })).toBe(keys.length);

  const statuses = await db.order.groupBy({ by: ['status'], where: { subaccountId }, _count: true });
  console.log(
    [
      `Crash recovery on the simulated venues after a SIGKILL with ${keys.length} orders in flight (each with its own Idempotency-Key):`,
      `  answered before the kill: ${answers.filter((a) => a === 200).length}; at the kill: ${atKill.orders} orders, ${atKill.pending} pending or unknown, ${atKill.claims} keys in flight`,
      `  next core: nothing pending, unknown or in flight ${recoveredMs} ms after it started (window ${2 * CORE_TIMEOUT_MS} ms), with no client request`,
      `  then one retry per key: ${retries.length} answers 200, ${keys.length} orders for ${keys.length} keys (0 duplicates, 0 lost): ${statuses.map((s) => `${s._count} ${s.status}`).join(', ')}`,
    ].join('\n'),
  );
}, 60_000);
