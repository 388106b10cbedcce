/**
 * GET /metrics (docs/operations.md): Prometheus text that an independent parser reads, counting the
 * requests that were made: by route template (never an id), orders and venue calls by venue,
 * rate-limit refusals, idempotent replays and conflicts, the reconciliation backlog, and the
 * process's default metrics. One process (`npm start`) serves the core's metrics with the
 * gateway's; split, each serves its own. METRICS_TOKEN restricts /metrics and nothing else.
 *
 * A database of its own: the backlog gauges count every order of the database, exactly.
 */
import canonicalize from 'canonicalize';
import { Client } from 'pg';
import { EventStreamClient } from '../support/eventStream';
import { testConfig, redisUrl } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { scrape } from '../support/metrics';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, untilReady, type Stack } from '../support/stack';
import { buildWorkspace } from '../support/factories';
import { createSubaccount, marketOf, newTrader, placeOrder, sha256Hex, type Market, type OrderBody, type Trader } from '../trading/helpers';
import { until } from '../support/retryingClients';

const ORDERS = 'mk_venue_orders_total';
const VENUE_CALLS = 'mk_venue_call_duration_seconds';
const GATEWAY_REQUESTS = 'mk_gateway_http_request_duration_seconds';
const CORE_REQUESTS = 'mk_core_http_request_duration_seconds';

let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await ownDatabase('ops_metrics');
});

describe('one process (npm start): /metrics on the gateway’s port', () => {
  let stack: Stack;
  let base: string;
  let trader: Trader;
  let market: Market;
  let subaccount: string;
  const resting = (price = '0.30'): OrderBody => ({ subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '3' });
  let sequence = 0;
  const freshKey = () => `ops-${process.pid}-${(sequence += 1)}`;

  beforeAll(async () => {
    stack = await startStack(testConfig({ DATABASE_URL: databaseUrl }));
    base = stack.gateways[0];
    trader = await newTrader(stack.core.db, base, 'Metrics');
    market = await marketOf(stack.core.db, 'sim_kalshi', 'ETH-FLIP-SOL');
    subaccount = await createSubaccount(trader, 'metrics');
  });
  afterAll(() => stack.close());

  it('two orders placed: the simulated venue’s accepted orders and place_order calls rise by 2, and POST /v1/orders 200 by 2', async () => {
    const before = await scrape(base);
    for (const price of ['0.30', '0.31']) expect((await placeOrder(trader, resting(price))).status).toBe(200);
    const after = await scrape(base);

    expect(after.value(ORDERS, { venue: 'sim-kalshi', outcome: 'accepted' }) - before.value(ORDERS, { venue: 'sim-kalshi', outcome: 'accepted' })).toBe(2);
    expect(after.value(ORDERS, { venue: 'sim-polymarket' }) - before.value(ORDERS, { venue: 'sim-polymarket' })).toBe(0);
    const placeCalls = { venue: 'sim-kalshi', operation: 'place_order' };
    expect(after.value(VENUE_CALLS, placeCalls) - before.value(VENUE_CALLS, placeCalls)).toBe(2);
    const posted = { method: 'POST', route: '/v1/orders', status: '200' };
    expect(after.value(GATEWAY_REQUESTS, posted) - before.value(GATEWAY_REQUESTS, posted)).toBe(2);
    // The core answered in-process: there was no HTTP request to it to count.
    expect(after.value(CORE_REQUESTS)).toBe(0);
    // The process's default metrics, once.
    expect(after.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(after.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
  });

  it('the route label is the template: reads of two orders are one series /v1/orders/{id}, and no id appears anywhere', async () => {
    const ids = await Promise.all(['0.32', '0.33'].map(async (price) => (await placeOrder(trader, resting(price))).body.id));
    const read = { method: 'GET', route: '/v1/orders/{id}', status: '200' };
    const before = await scrape(base);
    for (const id of ids) expect((await call(base, 'GET', `/v1/orders/${id}`, { key: trader.secret })).status).toBe(200);
    expect((await call(base, 'GET', '/v1/orders/ord_01nosuchorder0000000000000', { key: trader.secret })).status).toBe(404);
    expect((await call(base, 'GET', `/no/such/path/${ids[0]}`)).status).toBe(404);
    const after = await scrape(base);

    expect(after.value(GATEWAY_REQUESTS, read) - before.value(GATEWAY_REQUESTS, read)).toBe(2);
    const notFound = { method: 'GET', route: '/v1/orders/{id}', status: '404' };
    expect(after.value(GATEWAY_REQUESTS, notFound) - before.value(GATEWAY_REQUESTS, notFound)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(after.value(GATEWAY_REQUESTS, unmatched) - before.value(GATEWAY_REQUESTS, unmatched)).toBe(1);
    for (const id of [...ids, 'ord_01nosuchorder0000000000000', trader.secret, trader.keyId, trader.workspaceId, subaccount]) {
      expect(after.text).not.toContain(id);
    }
    for (const route of after.labelValues(GATEWAY_REQUESTS, 'route')) expect(route).toMatch(/^(unmatched|\/[a-z0-9_/{}]*|\/dashboard\{\/\*rest\})$/);
  });

  it('429s of a key’s rate limit raise the credential limiter’s count by exactly as many', async () => {
    const { secret } = await buildWorkspace(stack.core.db, { rateLimit: 1, name: 'Limited' });
    const before = await scrape(base);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(base, 'GET', '/v1/markets?limit=1', { key: secret })).status);
    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    const after = await scrape(base);
    const limiter = { limiter: 'credential' };
    expect(after.value('mk_gateway_rate_limit_rejections_total', limiter) - before.value('mk_gateway_rate_limit_rejections_total', limiter)).toBe(refused);
    const tooMany = { route: '/v1/markets', status: '429' };
    expect(after.value(GATEWAY_REQUESTS, tooMany) - before.value(GATEWAY_REQUESTS, tooMany)).toBe(refused);
    // Every limiter's series is there from the start.
    expect(after.labelValues('mk_gateway_rate_limit_rejections_total', 'limiter').sort()).toEqual(['auth_failures', 'credential', 'sign_in_address', 'sign_in_email', 'sign_in_user']);
  });

  it('a sign-in refused by its per-address limit counts under sign_in_address, and only there', async () => {
    const attempt = () => call(base, 'POST', '/v1/session', { body: { email: 'nobody@example.com', password: 'not the password at all' } });
    const before = await scrape(base);
    const statuses = [];
    // SIGN_IN_ATTEMPTS_PER_MINUTE (10) attempts pass the limit (and fail sign-in); the next is refused.
    for (let i = 0; i < 11; i += 1) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const after = await scrape(base);
    const count = (limiter: string) => after.value('mk_gateway_rate_limit_rejections_total', { limiter }) - before.value('mk_gateway_rate_limit_rejections_total', { limiter });
    expect([count('sign_in_address'), count('sign_in_email'), count('sign_in_user'), count('credential')]).toEqual([1, 0, 0, 0]);
  });

  it('idempotency: a replay, a key reused with another body (422) and a key in flight (409) are each counted once', async () => {
    const replays = { route: '/v1/orders' };
    const reused = { route: '/v1/orders', code: 'idempotency_key_reused' };
    const inUse = { route: '/v1/orders', code: 'idempotency_key_in_use' };
    const conflicts = 'mk_gateway_idempotency_conflicts_total';
    const before = await scrape(base);

    const key = freshKey();
    expect((await placeOrder(trader, resting('0.34'), { 'Idempotency-Key': key })).status).toBe(200);
    const replay = await placeOrder(trader, resting('0.34'), { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await placeOrder(trader, resting('0.35'), { 'Idempotency-Key': key })).status).toBe(422);

    // A first request still in flight (its claim written as the core writes it): the retry is 409.
    const inFlightKey = freshKey();
    const body = resting('0.36');
    const variables = { input: { subaccountId: body.subaccount_id, marketId: body.market_id, side: body.side, action: body.action, type: body.type, price: body.price, quantity: body.quantity } };
    const requestHash = sha256Hex(canonicalize({ operation: 'PlaceOrder', variables })!);
    await stack.core.db.idempotencyRecord.create({ data: { apiKeyId: trader.keyId, key: inFlightKey, operation: 'PlaceOrder', requestHash, state: 'in_flight' } });
    expect((await placeOrder(trader, body, { 'Idempotency-Key': inFlightKey })).status).toBe(409);

    const after = await scrape(base);
    expect(after.value('mk_gateway_idempotent_replays_total', replays) - before.value('mk_gateway_idempotent_replays_total', replays)).toBe(1);
    expect(after.value(conflicts, reused) - before.value(conflicts, reused)).toBe(1);
    expect(after.value(conflicts, inUse) - before.value(conflicts, inUse)).toBe(1);
  });

  it('the reconciliation backlog: unknown orders, and pending ones untouched past LIVE_PENDING_STALE_MS; a fresh pending one is in flight, not backlog', async () => {
    const ids = await Promise.all(['0.37', '0.38', '0.39'].map(async (price) => (await placeOrder(trader, resting(price))).body.id));
    const [lost, stalled, sending] = ids;
    const db = stack.core.db;
    // What a lost venue answer, a core stopped mid-send, and an order being sent leave behind.
    await db.$executeRaw`UPDATE orders SET status = 'unknown' WHERE id = ${lost}`;
    await db.$executeRaw`UPDATE orders SET status = 'pending', updated_at = now() - interval '1 hour', created_at = now() - interval '1 hour' WHERE id = ${stalled}`;
    await db.$executeRaw`UPDATE orders SET status = 'pending', updated_at = now() WHERE id = ${sending}`;
    try {
      const metrics = await scrape(base);
      expect(metrics.value('mk_reconciler_backlog_orders', { venue: 'sim-kalshi', status: 'unknown' })).toBe(1);
      expect(metrics.value('mk_reconciler_backlog_orders', { venue: 'sim-kalshi', status: 'pending' })).toBe(1);
      expect(metrics.value('mk_reconciler_backlog_orders')).toBe(2);
      expect(metrics.value('mk_reconciler_backlog_oldest_seconds', { venue: 'sim-kalshi', status: 'pending' })).toBeGreaterThanOrEqual(3600);
      expect(metrics.value('mk_reconciler_backlog_oldest_seconds', { venue: 'sim-kalshi', status: 'unknown' })).toBeLessThan(3600);
    } finally {
      // Resolved, as the reconciler would: the gauges fall back to nothing.
      await db.$executeRaw`UPDATE orders SET status = 'open' WHERE id IN (${lost}, ${stalled}, ${sending})`;
    }
    const resolved = await scrape(base);
    expect(resolved.value('mk_reconciler_backlog_orders')).toBe(0);
    // An empty backlog is a 0 for every venue and status, not a missing series.
    expect(resolved.samples.filter((sample) => sample.name === 'mk_reconciler_backlog_orders')).toHaveLength(8);
    expect(resolved.value('mk_reconciler_backlog_oldest_seconds')).toBe(0);
  });
  it('the event log: open streams counted; events a stopped sequencer leaves unnumbered, with their age, until it numbers them', async () => {
    const stream = await EventStreamClient.open(base, { key: trader.secret });
    let orderId: string | undefined;
    const sequencerLock = new Client({ connectionString: databaseUrl });
    await sequencerLock.connect();
    try {
      expect(stream.status).toBe(200);
      expect((await scrape(base)).value('mk_gateway_event_streams_open')).toBe(1);
      // What the earlier tests left (their orders set open again by hand) is numbered first: from
      // here on, the only events not numbered are this test's.
      await unnumberedUntil(base, 0);
      // The sequencers wait for this lock (mk_sequence_events): numbering stops while it is held.
      await sequencerLock.query('SELECT pg_advisory_lock(7215001515)');
      orderId = (await placeOrder(trader, resting('0.36'))).body.id;
      await stack.core.db.$executeRaw`UPDATE events SET created_at = created_at - interval '1 minute' WHERE seq IS NULL`;
      const stalled = await scrape(base);
      expect(stalled.value('mk_event_log_unnumbered_events')).toBe(2); // order.accepted, order.rested
      expect(stalled.value('mk_event_log_unnumbered_oldest_seconds')).toBeGreaterThanOrEqual(60);
      expect(stalled.value('mk_webhook_deliveries_due')).toBe(0);
    } finally {
      await sequencerLock.query('SELECT pg_advisory_unlock(7215001515)');
      await sequencerLock.end();
    }
    try {
      // This order's own event: the earlier tests' orders (set open again by hand) rest too.
      await stream.until((s) => s.events.some((e) => e.type === 'order.rested' && e.data.id === orderId), 10_000, 'the events, once numbered');
      const numbered = await unnumberedUntil(base, 0);
      expect(numbered.value('mk_event_log_unnumbered_oldest_seconds')).toBe(0);
    } finally {
      stream.close();
    }
  });
});

describe('split: the core serves its own /metrics on its port, the gateway its own', () => {
  let stack: Stack;
  let trader: Trader;

  beforeAll(async () => {
    stack = await startStack(testConfig({ DATABASE_URL: databaseUrl }), 'split');
    trader = await newTrader(stack.core.db, stack.gateways[0], 'Split metrics');
  });
  afterAll(() => stack.close());

  it('the core counts its requests by path and the venue calls; the gateway counts routes, not the core’s metrics', async () => {
    const market = await marketOf(stack.core.db, 'sim_polymarket', 'pm-worldcup-host');
    const subaccount = await createSubaccount(trader, 'split');
    const graphql = { method: 'POST', route: '/graphql', status: '200' };
    const before = await scrape(stack.coreUrl!);
    const placed = await placeOrder(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '10' });
    expect(placed.status).toBe(200);
    const core = await scrape(stack.coreUrl!);
    const gateway = await scrape(stack.gateways[0]);

    expect(core.value(ORDERS, { venue: 'sim-polymarket', outcome: 'accepted' }) - before.value(ORDERS, { venue: 'sim-polymarket', outcome: 'accepted' })).toBe(1);
    // The placement: one persisted operation (authentication is cached from the subaccount's creation).
    expect(core.value(CORE_REQUESTS, graphql) - before.value(CORE_REQUESTS, graphql)).toBeGreaterThanOrEqual(1);
    expect(core.value(CORE_REQUESTS, { route: '/metrics' })).toBeGreaterThanOrEqual(1);
    expect(core.hasFamily(GATEWAY_REQUESTS)).toBe(false);
    expect(gateway.hasFamily(ORDERS)).toBe(false);
    expect(gateway.value(GATEWAY_REQUESTS, { method: 'POST', route: '/v1/orders', status: '200' })).toBe(1);
    for (const scrape of [core, gateway]) expect(scrape.hasFamily('process_resident_memory_bytes')).toBe(true);
  });

  it('the core answers /healthz, /readyz and /metrics without a signed principal, and only GET', async () => {
    expect((await call(stack.coreUrl!, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await call(stack.coreUrl!, 'GET', '/readyz')).status).toBe(200);
    const posted = await call(stack.coreUrl!, 'POST', '/metrics', { body: {} });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    // Any other path still needs the principal.
    expect((await call(stack.coreUrl!, 'GET', '/healthz/x')).status).toBe(401);
  });
});

describe('METRICS_TOKEN restricts /metrics, on the gateway and on the core, and nothing else', () => {
  const token = 'metrics-token-0123456789abcdef0123456789';
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(testConfig({ DATABASE_URL: databaseUrl, METRICS_TOKEN: token, REDIS_URL: redisUrl() }), 'split');
    await untilReady(stack.gateways[0]);
  });
  afterAll(() => stack.close());

  it.each([
    ['the gateway', () => stack.gateways[0]],
    ['the core', () => stack.coreUrl!],
  ])('%s: 401 without the token or with another, 200 with it; probes stay open', async (_name, baseOf) => {
    const base = baseOf();
    const without = await fetch(`${base}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(token);
    expect((await scrape(base, token)).types.size).toBeGreaterThan(0);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('the gateway’s refusal is the error envelope', async () => {
    const response = await call(stack.gateways[0], 'GET', '/metrics', { headers: { authorization: 'Bearer nope' } });
    expect(envelopeOf(response).code).toBe('unauthorized');
  });
});

/** Scrapes until `mk_event_log_unnumbered_events` reads `count` (the sequencer numbers every 50 ms), at most 10 s; that scrape. */
const unnumberedUntil = (base: string, count: number) =>
  until(`${count} events not numbered`, 10_000, async () => {
    const scraped = await scrape(base);
    return scraped.value('mk_event_log_unnumbered_events') === count ? scraped : undefined;
  });
