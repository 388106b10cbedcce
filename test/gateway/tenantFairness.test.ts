/**
 * Fairness between workspaces (docs/operations.md, "Limits per workspace"), on a real gateway and
 * core over loopback HTTP: a workspace's streams are counted together whatever its credentials
 * (EVENT_STREAMS_PER_WORKSPACE; across gateways in test/events/streamsAcrossGateways.test.ts), its
 * unrevoked API keys are bounded (API_KEYS_PER_WORKSPACE, even when created all at once), streams
 * resuming from one event share the log's pages and lose nothing; and event ids past the log's
 * bigint are refused as input (400 naming `after`) on every way in.
 */
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import type { CoreTransport } from '../../gateway/coreClient';
import { REFUSAL_DELAY_MS } from '../../gateway/refusalDelay';
import { testConfig } from '../support/env';
import { EventStreamClient } from '../support/eventStream';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, envelopeOf, ok } from '../support/http';
import { OwnGateways, watchedTransport } from '../support/ownGateways';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, marketOf, newTrader, type Market } from '../trading/helpers';

const PAST_BIGINT = 'evt_00000009223372036854775808';

let stack: Stack;
let market: Market;
const own = new OwnGateways(() => stack);
const gatewayWith = (overrides: Record<string, string>, transport: CoreTransport) => own.start(testConfig(overrides), { transport, coreEvents: true });

beforeAll(async () => {
  stack = await startStack(testConfig({ EVENT_STREAMS_PER_WORKSPACE: '3', API_KEYS_PER_WORKSPACE: '3', RATE_LIMIT_DEFAULT: '10000' }));
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
});
afterAll(async () => {
  await own.closeAll();
  await stack?.close();
});

test('event ids past the log’s bigint answer 400 naming after: the list, the stream, Last-Event-ID and the analysts’ query', async () => {
  const { secret, dashboardSecret } = await buildWorkspace(stack.core.db, { rateLimit: 10_000 });
  const base = stack.gateways[0]!;
  const listed = await call(base, 'GET', `/v1/events?after=${PAST_BIGINT}`, { key: secret });
  expect(listed.status).toBe(400);
  expect(envelopeOf(listed)).toMatchObject({ code: 'invalid_request', param: 'after', message: expect.stringMatching(/past the last event id the log can hold/) });
  for (const options of [{ query: `after=${PAST_BIGINT}` }, { lastEventId: PAST_BIGINT }, { lastEventId: 'evt_99999999999999999999999999' }]) {
    const stream = await EventStreamClient.open(base, { key: secret }, options);
    expect(stream.status).toBe(400);
    expect(stream.error).toMatchObject({ code: 'invalid_request', param: 'after' });
  }
  const analyst = await call(base, 'POST', '/analyst/graphql', { key: dashboardSecret, body: { query: `{ events(after: "${PAST_BIGINT}") { data { id } } }` } });
  expect(analyst.status).toBe(400);
  expect(analyst.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_request', param: 'after' });
});

test('a workspace holds at most EVENT_STREAMS_PER_WORKSPACE streams, whatever its keys; a neighbour is not counted with it', async () => {
  const { workspace, secret } = await buildWorkspace(stack.core.db, { rateLimit: 10_000 });
  const { secret: other } = await buildApiKey(stack.core.db, workspace.id, 'test', 10_000);
  const { secret: analyst } = await createDashboardToken(stack.core.db, workspace.id);
  const base = stack.gateways[0]!;
  const open = [
    await EventStreamClient.open(base, { key: secret }),
    await EventStreamClient.open(base, { key: secret }),
    await EventStreamClient.open(base, { key: other }),
  ];
  try {
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const fourth = await EventStreamClient.open(base, { key: other });
    expect(fourth.status).toBe(429);
    expect(fourth.error).toMatchObject({ code: 'rate_limited', message: 'At most 3 event streams and subscriptions may be open at once per workspace, whatever the credential; close one first.' });
    expect(fourth.headers.get('retry-after')).toBe('1');
    // An analysts' subscription is a stream of the workspace too.
    const subscription = await fetch(`${base}/analyst/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${analyst}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { events { id } }' }),
    });
    expect(subscription.status).toBe(429);
    expect(((await subscription.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    const neighbour = await EventStreamClient.open(base, { key: (await buildWorkspace(stack.core.db, { rateLimit: 10_000 })).secret });
    expect(neighbour.status).toBe(200);
    neighbour.close();
    open[0]!.close();
    await open[0]!.until((s) => s.closed, 5000, 'the end of the closed stream');
    (await EventStreamClient.openOnceAdmitted(base, { key: other })).close();
  } finally {
    for (const stream of open) stream.close();
  }
});

test('a workspace holds at most API_KEYS_PER_WORKSPACE unrevoked keys, even when asked for all at once; revoking frees a place', async () => {
  const { workspace, key } = await buildWorkspace(stack.core.db); // its first key
  const { secret: dashboard } = await createDashboardToken(stack.core.db, workspace.id);
  const base = stack.gateways[0]!;
  const create = (name: string) => call(base, 'POST', '/v1/api_keys', { key: dashboard, body: { name, environment: 'test' } });
  const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(create));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409, 409]);
  const refused = answers.find((a) => a.status === 409)!;
  expect(envelopeOf(refused)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/holds 3 active API keys, the most it may \(API_KEYS_PER_WORKSPACE is 3\)/) });
  expect(await stack.core.db.apiKey.count({ where: { workspaceId: workspace.id, revokedAt: null } })).toBe(3);
  ok(await call(base, 'DELETE', `/v1/api_keys/${key.id}`, { key: dashboard }), 'revoke');
  expect((await create('after a revocation')).status).toBe(200);
  expect((await create('one too many')).status).toBe(409);
});

test('a refused stream costs the core nothing and is answered late; a workspace’s catch-up goes at EVENT_CATCH_UP_EVENTS_PER_SECOND', async () => {
  const calls: string[] = [];
  const counting = watchedTransport(stack, (request) => {
    const body = request.body ? (JSON.parse(request.body) as { operationName: string; variables?: { limit?: number } }) : undefined;
    // A stream's opening check reads one event; catching up and the hub read pages of 200.
    if (body) calls.push(`${body.operationName}${body.variables?.limit === 1 ? ' (opening check)' : ''}`);
  });
  // One turn at a time, 500 events a second: a catch-up page (50 events) per 100 ms at most.
  const base = await gatewayWith({ EVENT_STREAMS_PER_KEY: '1', EVENT_CATCH_UP_PER_WORKSPACE: '1', EVENT_CATCH_UP_EVENTS_PER_SECOND: '500', RATE_LIMIT_DEFAULT: '10000' }, counting);
  const trader = await newTrader(stack.core.db, base, 'Paced catch-up');
  const subaccount = await createSubaccount(trader, 'paced');
  const orders = await Promise.all(
    Array.from({ length: 100 }, () =>
      call(base, 'POST', '/v1/orders', { key: trader.secret, body: { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1' } }),
    ),
  );
  expect(orders.every((o) => o.status === 200)).toBe(true);
  // 100 accepted and 100 rested: 200 events, numbered within a sequencer round or two.
  let logged = 0;
  for (const deadline = Date.now() + 10_000; logged < 200 && Date.now() < deadline; ) {
    logged = ok(await call(base, 'GET', `/v1/events?after=evt_${'0'.repeat(26)}&limit=200`, { key: trader.secret }), 'log').data.length;
  }
  expect(logged).toBe(200);

  const started = Date.now();
  const first = await EventStreamClient.open(base, { key: trader.secret }, { lastEventId: `evt_${'0'.repeat(26)}` });
  try {
    expect(first.status).toBe(200);
    const before = calls.length;
    const refusedAt = Date.now();
    const second = await EventStreamClient.open(base, { key: trader.secret });
    expect(second.status).toBe(429);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(REFUSAL_DELAY_MS.min);
    expect(calls.slice(before).filter((name) => name === 'ListEvents (opening check)')).toEqual([]); // refused before the core was asked
    await first.until((s) => s.events.length >= 200, 15_000, '200 events');
    // Four full pages of 50, a turn of at least 100 ms each, a page sent as its turn begins: the last no sooner than 300 ms in.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  } finally {
    first.close();
  }
});

test('streams resuming from one event share the log’s pages, take turns, and each gets every event once, in order', async () => {
  const reads = new Map<string, number>();
  const counting = watchedTransport(stack, (request) => {
    const body = request.body ? (JSON.parse(request.body) as { operationName?: string; variables?: { after?: string; limit?: number } }) : {};
    // Catch-up pages (not a stream's opening check, which reads one event).
    if (body.operationName === 'ListEvents' && body.variables?.limit !== 1 && body.variables?.after) {
      reads.set(body.variables.after, (reads.get(body.variables.after) ?? 0) + 1);
    }
  });
  const base = await gatewayWith({ EVENT_STREAMS_PER_WORKSPACE: '100', EVENT_STREAMS_PER_KEY: '100', EVENT_CATCH_UP_PER_WORKSPACE: '1', RATE_LIMIT_DEFAULT: '10000' }, counting);
  const trader = await newTrader(stack.core.db, base, 'Catch-up storm');
  const subaccount = await createSubaccount(trader, 'storm');
  const first = `evt_${'0'.repeat(26)}`; // before the workspace's first event
  // 90 resting orders, then their cancels: 270 events, past one page of 200.
  for (let batch = 0; batch < 9; batch += 1) {
    const orders = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(base, 'POST', '/v1/orders', { key: trader.secret, body: { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1' } }),
      ),
    );
    await Promise.all(orders.map((order) => call(base, 'DELETE', `/v1/orders/${ok(order, 'order').id}`, { key: trader.secret })));
  }
  // The whole log of the workspace, once every cancel is numbered (the sequencer runs every 50 ms).
  const log = async () => {
    const ids: string[] = [];
    for (let page: { id: string }[] = [null!]; page.length > 0; ) {
      page = ok(await call(base, 'GET', `/v1/events?after=${ids[ids.length - 1] ?? first}&limit=200`, { key: trader.secret }), 'log').data;
      ids.push(...page.map((e) => e.id));
    }
    return ids;
  };
  let expected = await log();
  for (const deadline = Date.now() + 10_000; expected.length < 270 && Date.now() < deadline; ) expected = await log();
  expect(expected.length).toBeGreaterThanOrEqual(270);
  reads.clear();

  const storm = await Promise.all(Array.from({ length: 20 }, () => EventStreamClient.open(base, { key: trader.secret }, { lastEventId: first })));
  try {
    expect(storm.map((s) => s.status)).toEqual(Array(20).fill(200));
    await Promise.all(storm.map((s) => s.until((c) => c.events.length >= expected.length, 30_000, `${expected.length} events`)));
    for (const stream of storm) expect(stream.events.slice(0, expected.length).map((e) => e.id)).toEqual(expected);
    // Twenty streams, six pages each, unshared, would read the first page 20 times; shared (full, kept), far fewer.
    expect(reads.get(first) ?? 0).toBeGreaterThanOrEqual(1);
    expect(reads.get(first)!).toBeLessThan(10);
  } finally {
    for (const stream of storm) stream.close();
  }
});
