/**
 * The event log through REST (docs/events.md): what a client's orders and fills write to it, in
 * the shapes of their own resources; GET /v1/events paging, filters and scope; the SSE stream's
 * delivery time and its replay after a reconnect (Last-Event-ID), exactly once and in order.
 */
import { call, envelopeOf, ok } from '../support/http';
import { EventStreamClient, type StreamedEvent } from '../support/eventStream';
import { ownDatabase } from '../support/ownDatabase';
import { asPage, signIn } from '../support/dashboardSession';
import { createUser } from '../../core/services/accounts/users';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, getOrder, marketOf, newTrader, placed, placeOrder, setRiskLimits, type Market, type Trader } from '../trading/helpers';

let stack: Stack;
let market: Market;
let trader: Trader;
let subaccount: string;
const PASSWORD = 'correct horse battery staple 42';

beforeAll(async () => {
  const url = await ownDatabase('event_log');
  stack = await startStack(testConfig({ DATABASE_URL: url, EVENT_STREAM_HEARTBEAT_MS: '300', LOG_LEVEL: 'warn' }));
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Events');
  subaccount = await createSubaccount(trader, 'events');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

interface EventView {
  id: string;
  type: string;
  created_at: string;
  subaccount_id: string | null;
  previous_status: string | null;
  data: Record<string, any>;
}

const events = (query = '', key = trader.secret) => call<{ data: EventView[]; has_more: boolean; next_cursor: string | null }>(trader.base, 'GET', `/v1/events${query}`, { key });
const buy = (price: string, quantity = '1', type: 'limit' | 'market' = 'limit') =>
  placed(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type, quantity, ...(type === 'limit' ? { price } : {}), ...(type === 'market' ? { time_in_force: 'ioc' } : {}) });

/** Every event of the order, oldest first, once they are all numbered. */
async function eventsOf(objectId: string, count: number): Promise<EventView[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const all = ok(await events('?limit=200'), 'events').data.filter((e) => e.data.id === objectId || e.data.order_id === objectId).reverse();
    if (all.length >= count || Date.now() > deadline) return all;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /v1/events', () => {
  test('a resting order that is canceled: accepted, rested, canceled, each with the order as GET /v1/orders/{id} shows it then', async () => {
    const order = await buy('0.02');
    ok(await call(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret }), 'cancel');
    const logged = await eventsOf(order.id, 3);
    expect(logged.map((e) => [e.type, e.previous_status])).toEqual([['order.accepted', null], ['order.rested', 'pending'], ['order.canceled', 'open']]);
    expect(logged.map((e) => e.data.status)).toEqual(['pending', 'open', 'canceled']);
    const { queue_position: _ignored, ...now } = await getOrder(trader, order.id);
    expect(logged[2]!.data).toEqual({ ...now, queue_position: null }); // the last snapshot is the order as it is
    expect(logged.every((e) => e.subaccount_id === subaccount)).toBe(true);
    expect([...logged.map((e) => e.id)].sort()).toEqual(logged.map((e) => e.id)); // ids sort in log order
  });

  test('a marketable order: its fill event carries the fill as GET /v1/fills lists it, exact decimals included', async () => {
    const order = await buy('0', '3', 'market');
    expect(order.status).toBe('filled');
    const logged = await eventsOf(order.id, 3);
    const fills = ok(await call(trader.base, 'GET', `/v1/fills?order_id=${order.id}`, { key: trader.secret }), 'fills').data as Record<string, unknown>[];
    expect(fills.length).toBeGreaterThan(0);
    const fillEvents = logged.filter((e) => e.type === 'fill.created');
    expect(fillEvents.map((e) => e.data).sort((a, b) => a.id.localeCompare(b.id))).toEqual([...fills].sort((a, b) => String(a.id).localeCompare(String(b.id))));
    expect(logged.map((e) => e.type)).toContain('order.filled');
    expect(logged.find((e) => e.type === 'order.filled')!.data.filled_quantity).toBe('3');
  });

  test('types, subaccount and paging filters; after reads oldest first', async () => {
    const other = await createSubaccount(trader, 'events other');
    await placed(trader, { subaccount_id: other, market_id: market.id, side: 'no', action: 'buy', type: 'limit', price: '0.01', quantity: '2' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const onlyOther = ok(await events(`?subaccount_id=${other}`), 'by subaccount').data;
    expect(onlyOther.map((e) => e.type).sort()).toEqual(['order.accepted', 'order.rested']);
    const accepted = ok(await events('?types=order.accepted'), 'by type').data;
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(accepted.every((e) => e.type === 'order.accepted')).toBe(true);
    const orderEvents = ok(await events('?types=order.*,fill.created'), 'wildcard').data;
    expect(orderEvents.every((e) => e.type.startsWith('order.') || e.type === 'fill.created')).toBe(true);

    const all = ok(await events('?limit=200'), 'all').data;
    const first = ok(await events('?limit=2'), 'page 1');
    expect(first.has_more).toBe(true);
    const second = ok(await events(`?limit=2&cursor=${first.next_cursor}`), 'page 2');
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    const oldest = [...all].reverse();
    const after = ok(await events(`?after=${oldest[1]!.id}&limit=3`), 'after').data;
    expect(after.map((e) => e.id)).toEqual(oldest.slice(2, 5).map((e) => e.id));
  });

  test('bad filters are refused in the envelope; another workspace sees none of these events', async () => {
    for (const [query, param] of [['?types=order.exploded', 'types'], ['?after=ord_1', 'after'], ['?types=nothing.*', 'types']] as const) {
      const response = await events(query);
      expect(response.status).toBe(400);
      expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param });
    }
    const stranger = await newTrader(stack.core.db, trader.base, 'Stranger');
    expect(ok(await events('?limit=200', stranger.secret), 'stranger').data).toEqual([]);
    const foreign = await events(`?subaccount_id=${subaccount}`, stranger.secret);
    expect(foreign.status).toBe(404);
    expect(envelopeOf(foreign)).toMatchObject({ code: 'not_found', param: 'subaccount_id' });
  });

  test('an order refused by a risk limit leaves a risk_limit.breached event', async () => {
    const limited = await createSubaccount(trader, 'limited');
    await setRiskLimits(trader, limited, { max_order_notional: '0.5' });
    const refused = await placeOrder(trader, { subaccount_id: limited, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.4', quantity: '2', client_order_id: 'too-big-1' });
    expect(envelopeOf(refused)).toMatchObject({ code: 'risk_limit_exceeded' });
    const deadline = Date.now() + 5000;
    let breach: EventView | undefined;
    while (!breach && Date.now() < deadline) {
      breach = ok(await events(`?subaccount_id=${limited}&types=risk_limit.breached`), 'breaches').data[0];
      if (!breach) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(breach?.data).toMatchObject({ subaccount_id: limited, market_id: market.id, limit: 'max_order_notional', price: '0.4', quantity: '2', client_order_id: 'too-big-1' });
    await setRiskLimits(trader, limited, { max_order_notional: '0.5' }); // the same value again: no change, no event
    await setRiskLimits(trader, limited, { max_open_orders: 3 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const updates = ok(await events(`?subaccount_id=${limited}&types=risk_limits.updated`), 'limits').data;
    expect(updates).toHaveLength(2); // newest first
    expect(updates.map((e) => e.data.max_order_notional)).toEqual(['0.5', '0.5']);
    expect(updates[0]!.data.max_open_orders).toBe(3);
    expect(updates[1]!.data.max_open_orders).not.toBe(3);
  });
});

describe('GET /v1/events/stream', () => {
  const open = (options: { query?: string; lastEventId?: string } = {}) => EventStreamClient.open(trader.base, { key: trader.secret }, options);

  test('a fill reaches the stream within 500 ms of its commit; a heartbeat comment comes in between', async () => {
    const stream = await open();
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await stream.until((s) => s.comments >= 1, 2000, 'a heartbeat');
      const order = await buy('0', '2', 'market');
      const fill = await stream.next((e) => e.type === 'fill.created' && e.data.order_id === order.id, 2000, 'the fill');
      const latency = fill.receivedAt - Date.parse(fill.created_at);
      expect(latency).toBeLessThan(500);
      const types = stream.events.filter((e) => e.data.id === order.id || e.data.order_id === order.id).map((e) => e.type);
      expect(types[0]).toBe('order.accepted');
    } finally {
      stream.close();
    }
  });

  test('a client that drops and reconnects with Last-Event-ID receives every missed event once, in order', async () => {
    const first = await open({ query: `subaccount_id=${subaccount}` });
    const before = await buy('0.02');
    await first.next((e) => e.data.id === before.id && e.type === 'order.rested', 3000, 'the first order');
    const last = first.events[first.events.length - 1]!;
    first.close();

    const missed: string[] = [];
    for (let i = 0; i < 5; i += 1) missed.push((await buy('0.02')).id);
    await Promise.all(missed.map((id) => call(trader.base, 'DELETE', `/v1/orders/${id}`, { key: trader.secret })));

    const second = await open({ query: `subaccount_id=${subaccount}`, lastEventId: last.id });
    try {
      await second.until((s) => missed.every((id) => s.events.some((e) => e.data.id === id && e.type === 'order.canceled')), 5000, 'the missed events');
      const logged = ok(await events(`?subaccount_id=${subaccount}&after=${last.id}&limit=200`), 'log after').data;
      await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more, nothing twice
      expect(second.events.map((e: StreamedEvent) => e.id)).toEqual(logged.map((e) => e.id));
      expect(new Set(second.events.map((e) => e.id)).size).toBe(second.events.length);
      expect(logged.filter((e) => missed.includes(e.data.id)).length).toBe(15); // accepted, rested, canceled each
    } finally {
      second.close();
    }
  });

  test('a stream opened before its workspace has any event gets the first ones, order.accepted first', async () => {
    const fresh = await newTrader(stack.core.db, trader.base, 'Fresh log');
    const freshSub = await createSubaccount(fresh, 'fresh'); // creating a subaccount writes no event
    expect(ok(await events('?limit=200', fresh.secret), 'empty log').data).toEqual([]);
    const stream = await EventStreamClient.open(trader.base, { key: fresh.secret });
    try {
      const order = await placed(fresh, { subaccount_id: freshSub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
      await stream.next((e) => e.type === 'order.rested' && e.data.id === order.id, 3000, 'the first order rested');
      expect(stream.events.map((e) => e.type)).toEqual(['order.accepted', 'order.rested']);
    } finally {
      stream.close();
    }
  });

  test('a dashboard session’s stream ends within a heartbeat of signing out (sign-outs are not broadcast)', async () => {
    const email = `events-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId: trader.workspaceId, email, password: PASSWORD, scope: 'full' });
    const page = await signIn(trader.base, email, PASSWORD);
    const stream = await EventStreamClient.open(trader.base, { cookie: page.cookie }, { headers: { 'x-environment': 'test' } });
    try {
      expect(stream.status).toBe(200);
      const order = await buy('0.02');
      await stream.next((e) => e.data.id === order.id, 3000, 'an event of the session’s workspace');
      expect(stream.closed).toBe(false);
      ok(await asPage(trader.base, page, 'DELETE', '/v1/session'), 'sign out');
      await stream.until((s) => s.closed, 2000, 'the end of the stream'); // heartbeat 300 ms here
    } finally {
      stream.close();
    }
  });

  test('a bad start or filter is answered in the envelope before any stream', async () => {
    const bad = await open({ lastEventId: 'evt_nope' });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'invalid_request', param: 'after' });
    const badType = await open({ query: 'types=order.boom' });
    expect(badType.error).toMatchObject({ code: 'invalid_request', param: 'types' });
    const noKey = await EventStreamClient.open(trader.base, {});
    expect(noKey.status).toBe(401);
  });
});
