/**
 * Webhooks (docs/webhooks.md), end to end on real loopback HTTP: endpoints registered through REST,
 * events of real orders delivered to real receivers by the core's worker, signatures checked with
 * an independent implementation of the documented recipe, retries and attempts as the API shows
 * them, the secret never shown or stored again, scope, validation, a hanging receiver beside order
 * placement, deletion, and the private-address refusal.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { parseKeyring } from '../../core/domain/credentialVault';
import { openWebhookSecret, rewrapWebhookSecrets } from '../../core/services/events/webhookEndpoints';
import { call, envelopeOf, ok } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { deleteEveryEndpoint, receiver, TOLERANCE_SECONDS, verifyWebhook, type Receiver } from '../support/webhookReceivers';
import { createSubaccount, marketOf, newTrader, placed, waitFor, type Market, type Trader } from '../trading/helpers';

const run = promisify(execFile);

const KEK = randomBytes(32).toString('base64');
/** A quick schedule: 100 ms doubling to 1 s apart, given up 4 s after the event; calls limited to 1 s. */
const FAST = {
  CREDENTIALS_KEK: KEK, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER_INTERVAL_MS: '25', WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_RETRY_WINDOW_MS: '4000', WEBHOOK_TIMEOUT_MS: '1000', LOG_LEVEL: 'silent',
};

let stack: Stack;
let databaseUrl: string;
let market: Market;
let trader: Trader;
let subaccount: string;
let hooks: Receiver;
const FLAKY_FAILURES = 3;
/** When /render-blocked answers its first attempt (500): once the test holds the event log locked. */
let logLocked: Promise<void> = Promise.resolve();

beforeAll(async () => {
  databaseUrl = await ownDatabase('webhooks');
  stack = await startStack(testConfig({ DATABASE_URL: databaseUrl, ...FAST }));
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Webhooks');
  subaccount = await createSubaccount(trader, 'webhooks');
  hooks = await receiver((request, count) => {
    if (request.path === '/flaky') return count <= FLAKY_FAILURES ? 500 : 200;
    if (request.path === '/down') return 503;
    if (request.path === '/hang') return null;
    if (request.path === '/render-blocked') return count === 1 ? logLocked.then(() => 500) : null;
    // Slow, and the first attempt of each event fails: every delivery is claimed at least twice.
    if (request.path === '/slow') return new Promise((resolve) => setTimeout(() => resolve(request.headers['webhook-attempt'] === '1' ? 500 : 200), 150));
    return 200;
  });
}, 60_000);
afterAll(async () => {
  await hooks?.close();
  await stack?.close();
});

afterEach(() => deleteEveryEndpoint(trader.base, trader.secret));

const api = (method: string, path: string, body?: unknown, key = trader.secret) => call(trader.base, method, path, { key, ...(body !== undefined ? { body } : {}) });
const register = async (path: string, eventTypes: string[], who = trader) => {
  const created = ok(await api('POST', '/v1/webhook_endpoints', { url: hooks.url(path), event_types: eventTypes }, who.secret), 'register');
  return created as { endpoint: { id: string; url: string; event_types: string[] }; secret: string };
};
const restingBuy = (sub = subaccount) => placed(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });

interface DeliveryView {
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  last_http_status: number | null;
  last_error: string | null;
  completed_at: string | null;
  attempts: { number: number; started_at: string; duration_ms: number; http_status: number | null; error: string | null }[];
}
const deliveriesOf = async (endpointId: string): Promise<DeliveryView[]> => ok(await api('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=200`), 'deliveries').data;

describe('delivery', () => {
  test('a receiver that fails 3 times then succeeds gets the event once acknowledged: 4 attempts visible, one event id, every signature verifying', async () => {
    const { endpoint, secret } = await register('/flaky', ['order.accepted']);
    const order = await restingBuy();
    const [delivery] = await waitFor(() => deliveriesOf(endpoint.id), (list) => list[0]?.status === 'succeeded', 10_000);
    const requests = hooks.at('/flaky');
    expect(requests).toHaveLength(FLAKY_FAILURES + 1);

    // The event sent is the order's order.accepted, exactly as GET /v1/events lists it.
    const listed = ok(await api('GET', '/v1/events?types=order.accepted&limit=200'), 'events').data.find((e: { data: { id: string } }) => e.data.id === order.id);
    expect(delivery).toMatchObject({ event_id: listed.id, event_type: 'order.accepted', status: 'succeeded', attempt_count: 4, last_http_status: 200, last_error: null });
    for (const request of requests) {
      expect(JSON.parse(request.body)).toEqual(listed);
      expect(request.headers['webhook-id']).toBe(listed.id); // the deduplication key, the same on every attempt
      expect(request.headers['content-type']).toBe('application/json');
      expect(verifyWebhook(secret, request.headers['webhook-signature'] as string, request.body)).toBe(true);
    }
    expect(requests.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(delivery!.attempts.map((a) => [a.number, a.http_status, a.error])).toEqual([[1, 500, null], [2, 500, null], [3, 500, null], [4, 200, null]]);

    // Backoff: each retry waited at least three quarters of 100 ms doubled per failure.
    const starts = delivery!.attempts.map((a) => Date.parse(a.started_at));
    for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(0.75 * 100 * 2 ** (i - 1));

    // Acknowledged: nothing more is sent, however many rounds the worker runs.
    await new Promise((resolve) => setTimeout(resolve, 40 * 25));
    expect(hooks.at('/flaky')).toHaveLength(FLAKY_FAILURES + 1);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(['succeeded']);
  });

  test('the documented recipe rejects a replayed delivery whose timestamp is old, a changed body and another secret', async () => {
    const { secret } = await register('/replay', ['order.accepted']);
    await restingBuy();
    const [request] = await waitFor(async () => hooks.at('/replay'), (list) => list.length > 0);
    const header = request!.headers['webhook-signature'] as string;
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyWebhook(secret, header, request!.body, t)).toBe(true);
    expect(verifyWebhook(secret, header, request!.body, t + TOLERANCE_SECONDS)).toBe(true);
    expect(verifyWebhook(secret, header, request!.body, t + TOLERANCE_SECONDS + 1)).toBe(false); // replayed 5 minutes later: rejected
    expect(verifyWebhook(secret, header, request!.body.replace('"order.accepted"', '"order.filled"'), t)).toBe(false);
    expect(verifyWebhook(`whsec_${randomBytes(32).toString('base64url')}`, header, request!.body, t)).toBe(false);
    // A replay with a fresh timestamp but the old signature does not verify either.
    expect(verifyWebhook(secret, header.replace(/t=\d+/, `t=${t + 600}`), request!.body, t + 600)).toBe(false);
  });

  test('a receiver that never acknowledges: retried with backoff, then given up (failed) once the retry window is spent', async () => {
    const { endpoint } = await register('/down', ['order.accepted']);
    await restingBuy();
    const [delivery] = await waitFor(() => deliveriesOf(endpoint.id), (list) => list[0]?.status === 'failed', 15_000);
    expect(delivery!.attempt_count).toBeGreaterThanOrEqual(3);
    expect(delivery!.attempts).toHaveLength(delivery!.attempt_count);
    expect(delivery!.attempts.every((a) => a.http_status === 503)).toBe(true);
    expect(delivery).toMatchObject({ last_http_status: 503 });
    expect(Date.parse(delivery!.completed_at!) - Date.parse(delivery!.attempts[0]!.started_at)).toBeLessThanOrEqual(4000 + 1000);
    expect(hooks.at('/down')).toHaveLength(delivery!.attempt_count);
    // The core's metrics count them (mk_webhook_attempts_total, docs/operations.md).
    const counted = async (outcome: string) => (await stack.core.metrics.getSingleMetric('mk_webhook_attempts_total')!.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    expect(await counted('refused')).toBeGreaterThanOrEqual(delivery!.attempt_count + FLAKY_FAILURES);
    expect(await counted('given_up')).toBeGreaterThanOrEqual(1);
    expect(await counted('acknowledged')).toBeGreaterThanOrEqual(1);
  });

  test('a receiver that hangs does not delay orders: they complete while it holds the calls, and the attempt records the timeout', async () => {
    const { endpoint } = await register('/hang', ['order.*']);
    const first = await restingBuy();
    await waitFor(async () => hooks.at('/hang').length, (n) => n > 0); // the receiver now holds a call open
    const more = [await restingBuy(), await restingBuy(), await restingBuy()];
    expect([first, ...more].map((o) => o.status)).toEqual(['open', 'open', 'open', 'open']);
    const deliveries = await waitFor(() => deliveriesOf(endpoint.id), (list) => list.some((d) => d.attempts.some((a) => a.error !== null)), 10_000);
    const timedOut = deliveries.flatMap((d) => d.attempts).find((a) => a.error !== null)!;
    expect(timedOut).toMatchObject({ http_status: null, error: 'timed out after 1000 ms' });
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(1000);
  });

  test('one limit covers rendering the event and the call: an attempt whose rendering waited is cut at WEBHOOK_TIMEOUT_MS, not given a fresh one for the call', async () => {
    const { endpoint } = await register('/render-blocked', ['order.accepted']);
    let lock!: () => void;
    logLocked = new Promise((resolve) => (lock = resolve));
    await restingBuy();
    await waitFor(async () => hooks.at('/render-blocked').length, (n) => n === 1);
    // The event log locked while attempt 1 fails: attempt 2 (due 100 ms later) waits in rendering for most of the second
    // the lock is held, then its call hangs.
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      lock();
      await new Promise((resolve) => setTimeout(resolve, 800));
      await db.query('COMMIT');
    } finally {
      await db.end();
    }
    const [delivery] = await waitFor(() => deliveriesOf(endpoint.id), (list) => (list[0]?.attempts.length ?? 0) >= 2, 10_000);
    const second = delivery!.attempts.find((a) => a.number === 2)!;
    expect(second).toMatchObject({ http_status: null, error: 'timed out after 1000 ms' });
    expect(second.duration_ms).toBeGreaterThanOrEqual(1000);
    expect(second.duration_ms).toBeLessThan(1500); // the rendering's wait and the call together; two limits would be ~1700 ms
  });

  test('a deleted endpoint gets nothing new and answers not_found', async () => {
    const kept = await register('/kept', ['order.accepted']);
    const deleted = await register('/deleted', ['order.accepted']);
    const answer = ok(await api('DELETE', `/v1/webhook_endpoints/${deleted.endpoint.id}`), 'delete');
    expect(answer.deleted_at).toEqual(expect.any(String));
    expect((await api('GET', `/v1/webhook_endpoints/${deleted.endpoint.id}`)).status).toBe(404);
    expect(ok(await api('GET', '/v1/webhook_endpoints?limit=200'), 'list').data.map((e: { id: string }) => e.id)).not.toContain(deleted.endpoint.id);
    const order = await restingBuy();
    await waitFor(async () => hooks.at('/kept').filter((r) => JSON.parse(r.body).data.id === order.id), (list) => list.length === 1);
    expect(hooks.at('/deleted')).toEqual([]);
    const rows = await stack.core.db.webhookDelivery.count({ where: { endpointId: deleted.endpoint.id } });
    expect(rows).toBe(0);
  });

  test('deleting an endpoint gives up its pending deliveries: no attempt after the delete', async () => {
    const { endpoint } = await register('/down', ['order.accepted']);
    await restingBuy();
    await waitFor(() => deliveriesOf(endpoint.id), (list) => list[0]?.status === 'pending' && list[0].attempts.length >= 1 && list[0].attempts.length === list[0].attempt_count); // none under way
    ok(await api('DELETE', `/v1/webhook_endpoints/${endpoint.id}`), 'delete');
    const [row] = await stack.core.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(row).toMatchObject({ status: 'failed', lastError: 'the endpoint was deleted', completedAt: expect.any(Date) });
    // Every attempt is numbered when a worker claims it; `attempts` is the last number claimed. An
    // attempt claimed just before the delete may still be under way (an HTTP call is not taken back),
    // but none is claimed after it: no attempt, recorded or received, numbered beyond it.
    const claimed = row!.attempts;
    const received = () => hooks.at('/down').filter((r) => r.headers['webhook-id'] === `evt_${row!.eventSeq.toString().padStart(26, '0')}`);
    await new Promise((resolve) => setTimeout(resolve, 40 * 25)); // forty worker rounds: nothing more is tried
    expect(await stack.core.db.webhookAttempt.count({ where: { endpointId: endpoint.id, number: { gt: claimed } } })).toBe(0);
    expect(received().filter((r) => Number(r.headers['webhook-attempt']) > claimed)).toEqual([]);
  });

  test('types filter: an endpoint gets only the types it takes, order.* every order event', async () => {
    const fills = await register('/fills', ['fill.created']);
    const orders = await register('/orders', ['order.*']);
    const order = await placed(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'market', quantity: '2', time_in_force: 'ioc' });
    expect(order.status).toBe('filled');
    const ofOrder = (path: string) => hooks.at(path).map((r) => JSON.parse(r.body)).filter((e) => e.data.id === order.id || e.data.order_id === order.id);
    const orderTypes = await waitFor(async () => ofOrder('/orders').map((e) => e.type), (types) => types.includes('order.filled'));
    expect(orderTypes.every((type: string) => type.startsWith('order.'))).toBe(true);
    const fillTypes = await waitFor(async () => ofOrder('/fills').map((e) => e.type), (types) => types.length > 0);
    expect(new Set(fillTypes)).toEqual(new Set(['fill.created']));
    expect(fills.endpoint.event_types).toEqual(['fill.created']);
    expect(orders.endpoint.event_types).toEqual(['order.*']);
  });
});

describe('two cores', () => {
  let second: Stack;
  beforeAll(async () => {
    second = await startStack(testConfig({ DATABASE_URL: databaseUrl, ...FAST }));
  }, 60_000);
  afterAll(async () => {
    await second?.close();
  });

  test('two cores on one database never send one attempt twice: each (event, attempt) arrives once, each event is acknowledged once', async () => {
    const { endpoint } = await register('/slow', ['order.*']);
    const orders = [];
    for (let i = 0; i < 6; i += 1) orders.push(await restingBuy());
    const expected = orders.length * 2; // order.accepted and order.rested each
    const deliveries = await waitFor(() => deliveriesOf(endpoint.id), (list) => list.length === expected && list.every((d) => d.status === 'succeeded'), 15_000);
    const requests = hooks.at('/slow');
    const pairs = requests.map((r) => `${r.headers['webhook-id']}#${r.headers['webhook-attempt']}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(deliveries.every((d) => d.attempt_count === 2 && d.attempts.map((a) => a.http_status).join() === '500,200')).toBe(true);
    expect(requests).toHaveLength(expected * 2);
  });
});

describe('an endpoint that hangs with a backlog', () => {
  /** Calls limited to 30 s: a hanging receiver holds each call far longer than any wait below. */
  const TIMEOUT_MS = 30_000;
  let fair: Stack;
  let busy: Trader;
  let quiet: Trader;
  let fairMarket: Market;
  let receiving: Receiver;

  beforeAll(async () => {
    fair = await startStack(testConfig({ DATABASE_URL: await ownDatabase('webhooks_fair'), ...FAST, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) }));
    fairMarket = await marketOf(fair.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
    busy = await newTrader(fair.core.db, fair.gateways[0]!, 'Webhooks busy');
    quiet = await newTrader(fair.core.db, fair.gateways[0]!, 'Webhooks quiet');
    receiving = await receiver((request) => (request.path === '/dead' ? null : 200));
  }, 60_000);
  afterAll(async () => {
    await receiving?.close(); // first: the hanging calls end now, not after 30 s
    await fair?.close();
  });

  const registerOn = async (who: Trader, path: string, eventTypes: string[]) =>
    ok(await call(who.base, 'POST', '/v1/webhook_endpoints', { key: who.secret, body: { url: receiving.url(path), event_types: eventTypes } }), 'register').endpoint as { id: string };

  test("another workspace's endpoint still gets its event while one that hangs has more deliveries due than a core has calls; the hanging calls' leases outlast twice the limit", async () => {
    const dead = await registerOn(busy, '/dead', ['order.*']);
    const busySubaccount = await createSubaccount(busy, 'busy');
    const backlog = 18; // two events each: 36 deliveries due, more than the 32 calls a core makes at once
    for (let i = 0; i < backlog; i += 1) {
      await placed(busy, { subaccount_id: busySubaccount, market_id: fairMarket.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
    }
    await waitFor(() => fair.core.db.webhookDelivery.count({ where: { endpointId: dead.id } }), (n) => n === 2 * backlog);
    await waitFor(async () => receiving.at('/dead').length, (n) => n > 0);

    const alive = await registerOn(quiet, '/alive', ['order.accepted']);
    const order = await placed(quiet, { subaccount_id: await createSubaccount(quiet, 'quiet'), market_id: fairMarket.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
    const [event] = await waitFor(async () => receiving.at('/alive').map((r) => JSON.parse(r.body)), (list) => list.length > 0);
    expect(event.data.id).toBe(order.id);

    // It did not wait for the hanging calls to time out: none has ended, and they hold a few of the core's calls, not all.
    expect(await fair.core.db.webhookAttempt.count({ where: { endpointId: dead.id } })).toBe(0);
    expect(receiving.at('/dead').length).toBeLessThanOrEqual(4);
    const acknowledged = await waitFor(() => fair.core.db.webhookDelivery.findMany({ where: { endpointId: alive.id } }), (rows) => rows[0]?.status === 'succeeded');
    expect(acknowledged).toHaveLength(1);

    // No other core could take a hanging attempt: its lease (next_attempt_at while under way) lasts more than twice the
    // attempt's limit (rendering and the call) after the call reached the receiver.
    const [first] = receiving.at('/dead');
    const seq = BigInt(String(first!.headers['webhook-id']).slice('evt_'.length));
    const leased = await fair.core.db.webhookDelivery.findUniqueOrThrow({ where: { endpointId_eventSeq: { endpointId: dead.id, eventSeq: seq } } });
    expect(leased).toMatchObject({ status: 'pending', attempts: 1 });
    expect(leased.nextAttemptAt.getTime() - first!.at).toBeGreaterThan(2 * TIMEOUT_MS);
  });
});

describe('endpoints', () => {
  test('the secret is shown once: never by GET or the list, and not in the database in clear', async () => {
    const { endpoint, secret } = await register('/shown-once', ['order.filled'], trader);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toMatchObject({ url: hooks.url('/shown-once'), event_types: ['order.filled'], environment: 'test', deleted_at: null });
    const got = await api('GET', `/v1/webhook_endpoints/${endpoint.id}`);
    const listed = await api('GET', '/v1/webhook_endpoints');
    for (const response of [got, listed]) {
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).not.toContain(secret);
      expect(JSON.stringify(response.body)).not.toMatch(/whsec_|"secret"/);
    }
    expect(got.body).toEqual(endpoint);
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT to_jsonb(w)::text AS row FROM webhook_endpoints w WHERE id = $1', [endpoint.id]);
      expect(rows[0].row).not.toContain(secret.slice(6));
    } finally {
      await db.end();
    }
    const { stdout } = await run('/usr/bin/pg_dump', ['--data-only', '--no-password', `--dbname=${databaseUrl}`], { maxBuffer: 1024 * 1024 * 1024 });
    expect(stdout).toContain(endpoint.id);
    expect(stdout).not.toContain(secret.slice(6));
  });

  test("another workspace's endpoint ids answer not_found; its list is empty", async () => {
    const { endpoint } = await register('/mine', ['order.filled']);
    const stranger = await newTrader(stack.core.db, trader.base, 'Webhook stranger');
    for (const [method, path] of [['GET', `/v1/webhook_endpoints/${endpoint.id}`], ['DELETE', `/v1/webhook_endpoints/${endpoint.id}`], ['GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`]] as const) {
      const response = await api(method, path, undefined, stranger.secret);
      expect(response.status).toBe(404);
      expect(envelopeOf(response).code).toBe('not_found');
    }
    expect(ok(await api('GET', '/v1/webhook_endpoints', undefined, stranger.secret), 'stranger list').data).toEqual([]);
    expect((await api('GET', `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200); // still there for its owner
  });

  test('bad input is refused in the envelope, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/hook', event_types: ['order.filled'] }, 'url'],
      [{ url: 'not a url', event_types: ['order.filled'] }, 'url'],
      [{ url: 'https://user:pw@example.com/hook', event_types: ['order.filled'] }, 'url'],
      [{ url: 'https://example.com/hook', event_types: ['order.exploded'] }, 'event_types'],
      [{ url: 'https://example.com/hook', event_types: ['nothing.*'] }, 'event_types'],
      [{ url: 'https://example.com/hook', event_types: [] }, 'event_types'],
      [{ url: 'https://example.com/hook' }, 'event_types'],
      [{ url: 'https://example.com/hook', event_types: ['order.filled'], secret: 'mine' }, 'secret'],
    ];
    for (const [body, param] of cases) {
      const response = await api('POST', '/v1/webhook_endpoints', body);
      expect([response.status, envelopeOf(response).code, envelopeOf(response).param]).toEqual([400, 'invalid_request', param]);
    }
    // At most 16 endpoints per workspace and environment (the afterEach deletes them).
    for (let i = 0; i < 16; i += 1) await register(`/many-${i}`, ['order.filled']);
    const seventeenth = await api('POST', '/v1/webhook_endpoints', { url: hooks.url('/many-16'), event_types: ['order.filled'] });
    expect([seventeenth.status, envelopeOf(seventeenth).code]).toEqual([409, 'conflict']);
    const unknown = await api('GET', '/v1/webhook_endpoints/whe_01jzzzzzzzzzzzzzzzzzzzzzzz');
    expect([unknown.status, envelopeOf(unknown).code]).toEqual([404, 'not_found']);
  });
});

describe('private addresses', () => {
  let guarded: Stack;
  let guardedTrader: Trader;
  let guardedSubaccount: string;

  beforeAll(async () => {
    const url = await ownDatabase('webhooks_private');
    guarded = await startStack(testConfig({ DATABASE_URL: url, ...FAST, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }));
    guardedTrader = await newTrader(guarded.core.db, guarded.gateways[0]!, 'Webhooks guarded');
    guardedSubaccount = await createSubaccount(guardedTrader, 'guarded');
  }, 60_000);
  afterAll(async () => {
    await guarded?.close();
  });

  test('loopback by address or by name is refused at delivery time: nothing reaches the receiver, the attempt says why', async () => {
    const byAddress = ok(await call(guardedTrader.base, 'POST', '/v1/webhook_endpoints', { key: guardedTrader.secret, body: { url: hooks.url('/private-ip'), event_types: ['order.accepted'] } }), 'by address');
    const byName = ok(await call(guardedTrader.base, 'POST', '/v1/webhook_endpoints', { key: guardedTrader.secret, body: { url: `http://localhost:${hooks.port}/private-name`, event_types: ['order.accepted'] } }), 'by name');
    const guardedMarket = await marketOf(guarded.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
    await placed(guardedTrader, { subaccount_id: guardedSubaccount, market_id: guardedMarket.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
    for (const endpoint of [byAddress.endpoint, byName.endpoint]) {
      const deliveries = await waitFor(
        async () => ok(await call(guardedTrader.base, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: guardedTrader.secret }), 'deliveries').data as DeliveryView[],
        (list) => list[0]?.attempts.length > 0,
      );
      expect(deliveries[0]!.attempts[0]).toMatchObject({ http_status: null, error: expect.stringMatching(/refused to connect: .*loopback, private, link-local or other special-purpose/) });
      expect(deliveries[0]).toMatchObject({ last_error: deliveries[0]!.attempts[0]!.error });
    }
    // The name's resolution is not told: no address (localhost is 127.0.0.1 or ::1) in what the attempt records.
    const [byNameDelivery] = ok(await call(guardedTrader.base, 'GET', `/v1/webhook_endpoints/${byName.endpoint.id}/deliveries`, { key: guardedTrader.secret }), 'by name').data as DeliveryView[];
    expect(byNameDelivery!.attempts[0]!.error).toBe('refused to connect: the host resolves to a loopback, private, link-local or other special-purpose address (WEBHOOK_ALLOW_PRIVATE_URLS is off)');
    expect(byNameDelivery!.last_error).not.toMatch(/127\.0\.0\.1|::1|localhost/);
    expect(hooks.at('/private-ip')).toEqual([]);
    expect(hooks.at('/private-name')).toEqual([]);
  });
});

describe('key rotation', () => {
  test('credentials rewrap re-seals endpoint secrets under the new KEK: the old one is no longer needed', async () => {
    const { endpoint, secret } = await register('/rotated', ['order.filled']);
    const newKek = randomBytes(32).toString('base64');
    const rotated = parseKeyring({ CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new', CREDENTIALS_OLD_KEKS: `kek1:${KEK}` });
    const { rewrapped } = await rewrapWebhookSecrets(stack.core.db, rotated);
    expect(rewrapped).toBeGreaterThanOrEqual(1);
    const row = await stack.core.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.kekId).toBe('kek-new');
    expect(openWebhookSecret(parseKeyring({ CREDENTIALS_KEK: newKek, CREDENTIALS_KEK_ID: 'kek-new' }), row)).toBe(secret);
    expect(() => openWebhookSecret(parseKeyring({ CREDENTIALS_KEK: KEK, CREDENTIALS_KEK_ID: 'kek1' }), row)).toThrow(/kek-new/);
    expect((await rewrapWebhookSecrets(stack.core.db, rotated)).rewrapped).toBe(0);
  });
});
