/**
 * The analysts' GraphQL subscription `events` (docs/analyst-graphql.md, "Subscriptions") over real
 * HTTP through the gateway: the core over HTTP (undici) behind one gateway, and two cores with a
 * gateway each in their processes sharing PostgreSQL and Redis. An order placed through REST
 * arrives as events in log order; another workspace's events never arrive and its ids answer
 * not_found; a document past the cost limits is refused before the stream begins; the credential's
 * limit of open streams refuses in the error envelope and frees a place when a client leaves; the
 * dashboard's session subscribes as it queries, until it signs out; a stream ends at its maximum
 * age; many open streams leave the ordinary calls their connections; a notice from the
 * other core (over Redis) wakes a subscription long before its own poll would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { createUser } from '../../core/services/accounts/users';
import { httpTransport } from '../../gateway/coreClient';
import { openGateway } from '../../gateway/gatewayService';
import { asPage, signIn } from '../support/dashboardSession';
import { call, ok } from '../support/http';
import { SubscriptionClient } from '../support/graphqlSubscription';
import { ownDatabase } from '../support/ownDatabase';
import { INTERNAL_SECRET, redisUrl, testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, marketOf, newTrader, placed, type Market, type Trader } from '../trading/helpers';

const EVENTS = `subscription ($types: [String!], $subaccountId: String) {
  events(types: $types, subaccountId: $subaccountId) { id type object subaccountId order { id status filledQuantity } fill { id orderId quantity } }
}`;
const STREAMS_PER_CREDENTIAL = 2;

let stack: Stack;
let market: Market;
let trader: Trader;
let subaccount: string;
let analystToken: string;
const clients: SubscriptionClient[] = [];

const subscribe = async (token: string, variables: Record<string, unknown> = {}, document = EVENTS, base = stack.gateways[0]!) => {
  const client = await SubscriptionClient.open(base, { key: token }, document, variables, { 'x-environment': 'test' });
  clients.push(client);
  return client;
};
const tokenOf = async (workspaceId: string) => (await createDashboardToken(stack.core.db, workspaceId, 'read_only')).secret;
const marketBuy = (who: Trader, subaccountId: string, quantity = '2') =>
  placed(who, { subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'market', quantity, time_in_force: 'ioc' });

beforeAll(async () => {
  const url = await ownDatabase('analyst_subscriptions');
  stack = await startStack(testConfig({ DATABASE_URL: url, EVENT_STREAMS_PER_KEY: String(STREAMS_PER_CREDENTIAL), LOG_LEVEL: 'warn' }), 'split');
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Subscriptions');
  subaccount = await createSubaccount(trader, 'subscribed');
  analystToken = await tokenOf(trader.workspaceId);
}, 60_000);
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await stack?.close();
});

/** A gateway of its own over the stack's core (HTTP), with other settings; close() ends its clients too. */
async function ownGateway(overrides: Record<string, string>) {
  const gateway = openGateway(testConfig(overrides), {
    transport: httpTransport(stack.coreUrl!), internalSecret: INTERNAL_SECRET, revocations: stack.core.revocations, revocationsReachUs: true, logger: pino({ level: 'silent' }),
  });
  const server = http.createServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const client of clients.splice(0)) client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
    },
  };
}

describe('subscription events', () => {
  test('an order placed through REST arrives as its events, oldest first, each with its object', async () => {
    const subscription = await subscribe(analystToken, { types: ['order.*', 'fill.*'] });
    expect(subscription.status).toBe(200);
    expect(subscription.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const order = await marketBuy(trader, subaccount);
    expect(order.status).toBe('filled');
    const filled = await subscription.next((e) => e.type === 'order.filled' && e.order.id === order.id, 10_000, 'order.filled');
    expect(filled).toMatchObject({ object: 'order', subaccountId: subaccount, order: { status: 'filled', filledQuantity: '2' }, fill: null });
    const fill = await subscription.next((e) => e.type === 'fill.created' && e.fill.orderId === order.id, 10_000, 'fill.created');
    expect(fill).toMatchObject({ object: 'fill', order: null, fill: { orderId: order.id } });
    const ofOrder = subscription.events.filter((e) => e.order?.id === order.id || e.fill?.orderId === order.id);
    expect(ofOrder[0]!.type).toBe('order.accepted');
    expect(ofOrder.map((e) => e.id)).toEqual([...ofOrder.map((e) => e.id)].sort()); // log order
    expect(new Set(ofOrder.map((e) => e.id)).size).toBe(ofOrder.length); // each once
    expect(subscription.events.every((e) => /^(order|fill)\./.test(e.type))).toBe(true);
  });

  test('scoped to the credential’s workspace: another workspace’s events never arrive; its subaccount answers not_found', async () => {
    const other = await newTrader(stack.core.db, stack.gateways[0]!, 'Subscriptions other');
    const otherSubaccount = await createSubaccount(other, 'other');
    const otherSubscription = await subscribe(await tokenOf(other.workspaceId));
    const ours = await subscribe(analystToken);
    const order = await marketBuy(trader, subaccount);
    await ours.next((e) => e.order?.id === order.id, 10_000, 'our order');
    const theirs = await marketBuy(other, otherSubaccount);
    await otherSubscription.next((e) => e.order?.id === theirs.id, 10_000, 'their order');
    expect(otherSubscription.events.every((e) => e.subaccountId === otherSubaccount)).toBe(true);
    expect(ours.events.some((e) => e.subaccountId === otherSubaccount)).toBe(false);

    const refused = await subscribe(analystToken, { subaccountId: otherSubaccount });
    await refused.until((c) => c.completed, 5000, 'the refusal');
    expect(refused.results).toHaveLength(1);
    expect(refused.results[0]!.errors![0]!.extensions).toMatchObject({ code: 'not_found', param: 'subaccountId', request_id: refused.headers.get('x-request-id') });
  });

  test('a document past the limits is refused before any event, as a query is', async () => {
    const wide = `subscription { events { ${Array.from({ length: 201 }, (_, i) => `a${i}: id`).join(' ')} } }`;
    const refused = await subscribe(analystToken, {}, wide);
    await refused.until((c) => c.completed, 5000, 'the refusal');
    expect(refused.results[0]!.errors![0]!.extensions).toMatchObject({ code: 'invalid_request', param: 'breadth' });
    const query = await call(stack.gateways[0]!, 'POST', '/analyst/graphql', { key: analystToken, body: { query: wide.replace('subscription', 'query').replace('events {', 'events { data {').concat(' }') } });
    expect(query.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', param: 'breadth' });
  });

  test('the credential’s limit of open streams refuses in the error envelope, and a client that leaves frees its place', async () => {
    const token = await tokenOf(trader.workspaceId);
    const open = [await subscribe(token), await subscribe(token)];
    expect(open.map((c) => c.status)).toEqual([200, 200]);
    const refused = await subscribe(token);
    expect(refused.status).toBe(429);
    expect(refused.refusal!.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/at once per credential/) });
    // Another credential of the workspace is counted apart.
    expect((await subscribe(analystToken)).status).toBe(200);
    open[0]!.close();
    const deadline = Date.now() + 5000;
    let again = await subscribe(token);
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await subscribe(token);
    }
    expect(again.status).toBe(200);
    const order = await marketBuy(trader, subaccount, '1');
    await again.next((e) => e.order?.id === order.id, 10_000, 'the order on the re-admitted subscription');
  });

  test('the dashboard’s session cookie subscribes, read-only as it queries', async () => {
    const email = `subscriber-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId: trader.workspaceId, email, password: 'a long enough password', scope: 'read_only' });
    const session = await signIn(stack.gateways[0]!, email, 'a long enough password');
    const subscription = await SubscriptionClient.open(stack.gateways[0]!, { cookie: session.cookie }, EVENTS, { types: ['fill.*'] }, { 'x-environment': 'test' });
    clients.push(subscription);
    expect(subscription.status).toBe(200);
    const order = await marketBuy(trader, subaccount, '1');
    await subscription.next((e) => e.fill?.orderId === order.id, 10_000, 'the fill');
    expect(subscription.events.every((e) => e.type.startsWith('fill.'))).toBe(true);

    // As GraphiQL sends a subscription: GET, the document in the query string.
    const byGet = await SubscriptionClient.open(stack.gateways[0]!, { cookie: session.cookie }, EVENTS, { types: ['order.*'] }, { 'x-environment': 'test' }, 'GET');
    clients.push(byGet);
    expect(byGet.status).toBe(200);
    const next = await marketBuy(trader, subaccount, '1');
    await byGet.next((e) => e.order?.id === next.id, 10_000, 'the order, over GET');
  });

  test('a stream ends at its maximum age (EVENT_STREAM_MAX_AGE_MS) and frees its place', async () => {
    const own = await ownGateway({ EVENT_STREAM_MAX_AGE_MS: '1000', EVENT_STREAMS_PER_KEY: '1' });
    try {
      const token = await tokenOf(trader.workspaceId);
      const subscription = await subscribe(token, {}, EVENTS, own.base);
      expect(subscription.status).toBe(200);
      await subscription.until((c) => c.closed, 10_000, 'the end of the stream');
      let again = await subscribe(token, {}, EVENTS, own.base);
      for (const deadline = Date.now() + 5000; again.status === 429 && Date.now() < deadline; again = await subscribe(token, {}, EVENTS, own.base)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(again.status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test('a session’s subscription ends once the session is signed out (its credential looked up every EVENT_STREAM_HEARTBEAT_MS)', async () => {
    const own = await ownGateway({ EVENT_STREAM_HEARTBEAT_MS: '300' });
    try {
      const email = `signed-out-${Date.now()}@example.com`;
      await createUser(stack.core.db, { workspaceId: trader.workspaceId, email, password: 'a long enough password', scope: 'read_only' });
      const session = await signIn(own.base, email, 'a long enough password');
      const subscription = await SubscriptionClient.open(own.base, { cookie: session.cookie }, EVENTS, {}, { 'x-environment': 'test' });
      clients.push(subscription);
      expect(subscription.status).toBe(200);
      const order = await marketBuy(trader, subaccount, '1');
      await subscription.next((e) => e.order?.id === order.id, 10_000, 'an order while signed in');
      expect(subscription.closed).toBe(false);
      expect((await asPage(own.base, session, 'DELETE', '/v1/session')).status).toBeLessThan(300);
      await subscription.until((c) => c.closed, 10_000, 'the end of the stream after signing out');
    } finally {
      await own.close();
    }
  });

  test('open subscriptions never hold the connections ordinary calls to the core use (more streams than its pool of 64)', async () => {
    const own = await ownGateway({ EVENT_STREAMS_PER_KEY: '100', RATE_LIMIT_DEFAULT: '10000' });
    try {
      const token = await tokenOf(trader.workspaceId);
      const open = await Promise.all(Array.from({ length: 70 }, () => subscribe(token, {}, EVENTS, own.base)));
      expect(open.filter((c) => c.status !== 200).map((c) => [c.status, c.refusal])).toEqual([]);
      const response = await call(own.base, 'POST', '/analyst/graphql', { key: analystToken, body: { query: '{ workspace { id } }' } });
      expect(ok(response, 'query').data.workspace.id).toBe(trader.workspaceId);
      const order = await marketBuy(trader, subaccount, '1');
      await open[69]!.next((e) => e.order?.id === order.id, 10_000, 'the order on the 70th subscription');
    } finally {
      await own.close();
    }
  }, 30_000);

  test('a plain query asked for as JSON is still answered as JSON', async () => {
    const response = await call(stack.gateways[0]!, 'POST', '/analyst/graphql', { key: analystToken, body: { query: '{ workspace { id } }' } });
    expect(response.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
    expect(ok(response, 'query').data.workspace.id).toBe(trader.workspaceId);
  });
});

describe('across cores sharing Redis', () => {
  test('a subscription on one core hears an order placed through the other, by its notice (the poll is a minute)', async () => {
    const url = await ownDatabase('analyst_subscriptions_redis');
    const config = testConfig({ DATABASE_URL: url, REDIS_URL: redisUrl(), EVENT_STREAM_POLL_MS: '60000', LOG_LEVEL: 'warn' });
    const [first, second] = [await startStack(config), await startStack(config)];
    try {
      const [base, otherBase] = [first.gateways[0]!, second.gateways[0]!];
      const market2 = await marketOf(first.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
      const owner = await newTrader(first.core.db, otherBase, 'Subscriptions across cores');
      const sub = await createSubaccount(owner, 'across');
      const token = (await createDashboardToken(first.core.db, owner.workspaceId, 'read_only')).secret;
      const subscription = await subscribe(token, { types: ['order.*'] }, EVENTS, base);
      expect(subscription.status).toBe(200);
      const order = await placed(owner, { subaccount_id: sub, market_id: market2.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
      await subscription.next((e) => e.order?.id === order.id, 20_000, 'the order placed through the other core');
    } finally {
      for (const client of clients.splice(0)) client.close();
      await first.close();
      await second.close();
    }
  }, 60_000);
});
