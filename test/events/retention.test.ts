/**
 * The event log's retention window (docs/events.md "Retention"), on real PostgreSQL: the sweeper
 * deletes exactly the numbered events older than the window (time is moved by setting sequenced_at
 * back, not waited for), never an unnumbered one nor a workspace's newest; reading on from a deleted
 * event is refused (410 events_expired) by GET /v1/events and the stream, before any stream starts,
 * while reading from the horizon on works; a pending webhook delivery whose event is gone is given
 * up with a clear error, and the worker carries on; finished deliveries go with the log.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { eventId } from '../../contract/eventTypes';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { sweepExpiredEvents } from '../../core/services/events/eventRetention';
import { EventStreamClient } from '../support/eventStream';
import { SubscriptionClient } from '../support/graphqlSubscription';
import { call, envelopeOf, ok } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { testConfig } from '../support/env';
import { BACKENDS } from '../support/backends';
import { startStack, type Stack } from '../support/stack';
import { receiver } from '../support/webhookReceivers';
import { createSubaccount, marketOf, newTrader, placed, waitFor, type Market, type Trader } from '../trading/helpers';

const DAY_MS = 86_400_000;
/** The window the core runs with (EVENT_RETENTION_DAYS' default). */
const RETENTION_DAYS = 30;
/** An event id's place in the log, as SQL takes it. */
const seqOf = (id: string) => BigInt(id.slice(4)).toString();

let stack: Stack;
let sql: Client;
let market: Market;
let trader: Trader;
let subaccount: string;
let quiet: Trader;
let quietSubaccount: string;
let hooks: Awaited<ReturnType<typeof receiver>>;

const buy = (who: Trader, sub: string) => placed(who, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
const restingBuy = () => buy(trader, subaccount);

beforeAll(async () => {
  const url = await ownDatabase('event_retention');
  stack = await startStack(testConfig({
    DATABASE_URL: url, CREDENTIALS_KEK: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER_INTERVAL_MS: '25',
    WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000',
  }));
  sql = new Client({ connectionString: url });
  await sql.connect();
  market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  // The quiet workspace's events come first in the log: the sweeper deletes the log's old beginning.
  quiet = await newTrader(stack.core.db, stack.gateways[0]!, 'Quiet');
  quietSubaccount = await createSubaccount(quiet, 'quiet');
  for (let i = 0; i < 2; i += 1) await buy(quiet, quietSubaccount);
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Retention');
  subaccount = await createSubaccount(trader, 'retention');
  hooks = await receiver((request) => (request.path === '/down' ? 503 : 200));
}, 60_000);
afterAll(async () => {
  await hooks?.close();
  await sql?.end();
  await stack?.close();
});

interface EventView {
  id: string;
  type: string;
  data: Record<string, any>;
}

const events = (query: string, who = trader) => call<{ data: EventView[]; has_more: boolean }>(who.base, 'GET', `/v1/events${query}`, { key: who.secret });
const sweep = () => sweepExpiredEvents(stack.core.db, new Date(Date.now() - RETENTION_DAYS * DAY_MS));
/** Every numbered event in the database, oldest first. */
const numbered = async () => (await sql.query<{ seq: string; workspace_id: string }>('SELECT seq::text, workspace_id FROM events WHERE seq IS NOT NULL ORDER BY seq')).rows;
const unnumberedCount = async () => Number((await sql.query<{ count: string }>('SELECT count(*) FROM events WHERE seq IS NULL')).rows[0]!.count);
/** The numbered events of an order (its accepted and rested), once both are numbered. */
const eventsOfOrder = (orderId: string) =>
  waitFor(async () => (await sql.query<{ seq: string }>('SELECT seq::text FROM events WHERE object_id = $1 AND seq IS NOT NULL ORDER BY seq', [orderId])).rows.map((r) => BigInt(r.seq)), (seqs) => seqs.length === 2);
/** Moves the numbering (and creation) of every event up to `seq` (and the creation of every unnumbered one) this many days back. */
const age = (throughSeq: bigint, days: number) =>
  sql.query(
    'UPDATE events SET created_at = now() - make_interval(days => $2), sequenced_at = CASE WHEN seq IS NULL THEN NULL ELSE now() - make_interval(days => $2) END WHERE seq <= $1 OR seq IS NULL',
    [throughSeq.toString(), days],
  );

let old: bigint[];
let kept: bigint[];
let quietNewest: string;

describe('the sweeper', () => {
  test('deletes exactly the numbered events older than the window: not newer ones, not unnumbered ones, not a workspace’s newest', async () => {
    old = await eventsOfOrder((await restingBuy()).id);
    kept = await eventsOfOrder((await restingBuy()).id);
    const before = await numbered();
    const quietWorkspace = before[0]!.workspace_id;
    const quietEvents = before.filter((e) => e.workspace_id === quietWorkspace).map((e) => BigInt(e.seq));
    quietNewest = eventId(quietEvents[quietEvents.length - 1]!);
    expect(quietEvents.length).toBeGreaterThanOrEqual(4);

    // An event committed and not numbered yet: the sequencer held off by its lock.
    const lock = new Client({ connectionString: stack.core.databaseUrl });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock(7215001515)');
      await restingBuy();
      const unnumbered = await unnumberedCount();
      expect(unnumbered).toBeGreaterThan(0);
      await age(old[1]!, RETENTION_DAYS + 1);
      await sql.query('UPDATE events SET created_at = now() - make_interval(days => $2), sequenced_at = now() - make_interval(days => $2) WHERE seq = $1', [kept[0]!.toString(), RETENTION_DAYS - 1]); // old, within the window

      // Two sweeps at once (two cores): they share the work, and neither fails.
      const swept = await Promise.all([sweep(), sweep()]);
      const expected = before.filter((e) => BigInt(e.seq) <= old[1]! && eventId(e.seq) !== quietNewest);
      expect(swept[0].events + swept[1].events).toBe(expected.length);
      const after = (await numbered()).map((e) => BigInt(e.seq));
      expect(after).toEqual(before.map((e) => BigInt(e.seq)).filter((seq) => seq > old[1]! || eventId(seq) === quietNewest));
      expect(await unnumberedCount()).toBe(unnumbered);
      // A second sweep (another core's, or the next round) finds nothing more.
      expect(await sweep()).toEqual({ events: 0, deliveries: 0 });
    } finally {
      await lock.query('SELECT pg_advisory_unlock(7215001515)');
      await lock.end();
    }
    // Numbering goes on after the highest number kept.
    await waitFor(unnumberedCount, (n) => n === 0);
    const last = await numbered();
    expect(BigInt(last[last.length - 1]!.seq)).toBeGreaterThan(kept[1]!);
  });
});

describe('reading on from a deleted event', () => {
  test('GET /v1/events?after=<deleted id> answers 410 events_expired; from the horizon on (or any later id) it reads every event', async () => {
    for (const gone of [old[0]!, 1n, 0n]) {
      const refused = await events(`?after=${eventId(gone)}`);
      expect(refused.status).toBe(410);
      expect(envelopeOf(refused)).toMatchObject({ code: 'events_expired', param: 'after', message: expect.stringContaining(eventId(old[1]!)) });
    }
    const fromHorizon = ok(await events(`?after=${eventId(old[1]!)}&limit=2`), 'from the horizon').data;
    expect(fromHorizon.map((e) => e.id)).toEqual(kept.map(eventId));
    expect(ok(await events(`?after=${eventId(kept[0]!)}&limit=1`), 'after a kept event').data.map((e) => e.id)).toEqual([eventId(kept[1]!)]);
    // Newest first, paging ends where the log now begins.
    const all = ok(await events('?limit=200'), 'newest first');
    expect(all.has_more).toBe(false);
    expect(all.data[all.data.length - 1]!.id).toBe(eventId(kept[0]!));
  });

  test('a quiet workspace, whose newest event is older than the window: reading on from it is no error, from before it is', async () => {
    expect(ok(await events(`?after=${quietNewest}`, quiet), 'after the newest').data).toEqual([]);
    expect(ok(await events('?limit=200', quiet), 'kept').data.map((e) => e.id)).toEqual([quietNewest]);
    expect((await events(`?after=${eventId(0n)}`, quiet)).status).toBe(410);
    // A stream that starts now starts from its newest event, and carries on.
    const stream = await EventStreamClient.open(quiet.base, { key: quiet.secret });
    try {
      expect(stream.status).toBe(200);
      const order = await buy(quiet, quietSubaccount);
      await stream.next((e) => e.data.id === order.id && e.type === 'order.rested');
    } finally {
      stream.close();
    }
  });

  test('the stream: an expired Last-Event-ID (or after) is a 410 JSON answer before any stream; one at the horizon streams every event after it', async () => {
    for (const options of [{ lastEventId: eventId(old[0]!) }, { query: `after=${eventId(old[0]!)}` }]) {
      const refused = await EventStreamClient.open(trader.base, { key: trader.secret }, options);
      expect(refused.status).toBe(410);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(refused.error).toMatchObject({ code: 'events_expired', param: 'after' });
    }
    const stream = await EventStreamClient.open(trader.base, { key: trader.secret }, { lastEventId: eventId(old[1]!) });
    try {
      expect(stream.status).toBe(200);
      await stream.next((e) => e.id === eventId(kept[1]!));
      expect(stream.events.slice(0, 2).map((e) => e.id)).toEqual(kept.map(eventId));
      const live = await restingBuy();
      await stream.next((e) => e.data.id === live.id && e.type === 'order.rested');
    } finally {
      stream.close();
    }
  });
  test('the analysts’ GraphQL: the events query and subscription refuse an expired after with the same code', async () => {
    const token = (await createDashboardToken(stack.core.db, trader.workspaceId, 'read_only')).secret;
    const headers = { 'x-environment': 'test' };
    const query = await call(trader.base, 'POST', '/analyst/graphql', { key: token, headers, body: { query: `{ events(after: "${eventId(old[0]!)}") { data { id } } }` } });
    expect(query.body.errors[0].extensions).toMatchObject({ code: 'events_expired', param: 'after' });
    const document = 'subscription ($after: String) { events(after: $after) { id } }';
    const refused = await SubscriptionClient.open(trader.base, { key: token }, document, { after: eventId(old[0]!) }, headers);
    try {
      await refused.until((c) => c.completed, 5000, 'the refusal');
      expect(refused.results[0]!.errors![0]!.extensions).toMatchObject({ code: 'events_expired', param: 'after' });
    } finally {
      refused.close();
    }
    const subscription = await SubscriptionClient.open(trader.base, { key: token }, document, { after: eventId(old[1]!) }, headers);
    try {
      await subscription.next((e) => e.id === eventId(kept[1]!), 5000, 'the events after the horizon');
      expect(subscription.events.slice(0, 2).map((e) => e.id)).toEqual(kept.map(eventId));
    } finally {
      subscription.close();
    }
  });

  test('an open subscription whose place the horizon passes (a quiet filter, a sweep meanwhile) ends with events_expired, never goes on without the deleted events', async () => {
    const token = (await createDashboardToken(stack.core.db, trader.workspaceId, 'read_only')).secret;
    const headers = { 'x-environment': 'test' };
    // A filter nothing matches: the subscription's place stays where it started.
    const document = 'subscription ($after: String) { events(after: $after, types: ["complex_order.*"]) { id } }';
    const subscription = await SubscriptionClient.open(trader.base, { key: token }, document, { after: eventId(kept[1]!) }, headers);
    try {
      // A sweep deletes past it (the horizon moved as the sweeper moves it), then an event is announced.
      const [newest] = (await sql.query<{ seq: string }>('SELECT max(seq)::text AS seq FROM events WHERE workspace_id = $1', [trader.workspaceId])).rows;
      await sql.query('UPDATE event_horizons SET expired_through = $2 WHERE workspace_id = $1', [trader.workspaceId, newest!.seq]);
      await restingBuy();
      await subscription.until((c) => c.completed, 10_000, 'the refusal');
      expect(subscription.events).toEqual([]);
      expect(subscription.results[subscription.results.length - 1]!.errors![0]!.extensions).toMatchObject({ code: 'events_expired' });
    } finally {
      subscription.close();
      await sql.query('UPDATE event_horizons SET expired_through = $2 WHERE workspace_id = $1', [trader.workspaceId, old[1]!.toString()]);
    }
  });
});

describe('webhooks', () => {
  interface DeliveryView {
    event_id: string;
    status: string;
    attempt_count: number;
    last_error: string | null;
    attempts: unknown[];
  }
  const api = (method: string, path: string, body?: unknown) => call(trader.base, method, path, { key: trader.secret, ...(body !== undefined ? { body } : {}) });
  const deliveriesOf = async (endpointId: string): Promise<DeliveryView[]> => ok(await api('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=200`), 'deliveries').data;
  const register = async (path: string) => ok(await api('POST', '/v1/webhook_endpoints', { url: hooks.url(path), event_types: ['order.accepted'] }), 'register').endpoint as { id: string };

  test('a pending delivery whose event was deleted is given up with a clear error, the worker carries on; finished deliveries go with the log', async () => {
    const down = await register('/down');
    const gone = await restingBuy();
    const [pending] = await waitFor(() => deliveriesOf(down.id), (list) => list[0]?.status === 'pending' && list[0].attempt_count >= 1);
    // Its event ages out of the log (as if the receiver had been down that long), and is swept; the
    // workspace's newest is kept, so a newer event lets the order's go.
    const [, rested] = await eventsOfOrder(gone.id);
    await eventsOfOrder((await restingBuy()).id);
    await age(rested!, RETENTION_DAYS + 1);
    expect((await sweep()).events).toBeGreaterThan(0);
    expect(ok(await events('?limit=200'), 'kept').data.map((e) => e.id)).not.toContain(pending!.event_id);

    // Due again now: given up at once, with an attempt that says why; another endpoint's deliveries flow on.
    const up = await register('/up');
    const later = await restingBuy();
    await sql.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = $1 AND event_seq = $2', [down.id, seqOf(pending!.event_id)]);
    const given = await waitFor(async () => (await deliveriesOf(down.id)).find((d) => d.event_id === pending!.event_id)!, (d) => d.status !== 'pending', 10_000);
    expect(given).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/^the event is no longer in the log .*EVENT_RETENTION_DAYS/) });
    expect(given.attempts).toHaveLength(given.attempt_count);
    await waitFor(() => deliveriesOf(up.id), (list) => list.length === 1 && list[0]!.status === 'succeeded');
    expect(hooks.at('/up').map((r) => JSON.parse(r.body).data.id)).toEqual([later.id]);

    // Finished deliveries go with the log: once their last attempt is older than the window, with their attempts.
    // (The endpoint's other deliveries may have finished meanwhile on a loaded machine: they go too.)
    const finished = await sql.query("UPDATE webhook_deliveries SET next_attempt_at = now() - make_interval(days => $2) WHERE endpoint_id = $1 AND status <> 'pending'", [down.id, RETENTION_DAYS + 1]);
    expect((await sweep()).deliveries).toBe(finished.rowCount);
    expect((await deliveriesOf(down.id)).map((d) => d.event_id)).not.toContain(pending!.event_id);
    const attempts = await sql.query<{ count: string }>('SELECT count(*) FROM webhook_attempts WHERE endpoint_id = $1 AND event_seq = $2', [down.id, seqOf(pending!.event_id)]);
    expect(Number(attempts.rows[0]!.count)).toBe(0);
  });
});

describe('on the embedded PGlite (npm start)', () => {
  let embedded: Stack;
  afterAll(async () => {
    await embedded?.close();
  });

  test('the same statements sweep, and reading on from a deleted event is refused', async () => {
    embedded = await startStack(BACKENDS.find(([name]) => name === 'PGlite')![1]());
    const who = await newTrader(embedded.core.db, embedded.gateways[0]!, 'Embedded');
    const sub = await createSubaccount(who, 'embedded');
    const first = await placed(who, { subaccount_id: sub, market_id: (await marketOf(embedded.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS')).id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' });
    const listed = await waitFor(async () => ok(await events('?limit=200', who), 'events').data, (list) => list.filter((e) => e.data.id === first.id).length === 2);
    const [newest, ...older] = listed;
    await embedded.core.db.$executeRaw`UPDATE events SET created_at = now() - interval '31 days', sequenced_at = now() - interval '31 days' WHERE seq < ${BigInt(seqOf(newest!.id))}`;
    const swept = await sweepExpiredEvents(embedded.core.db, new Date(Date.now() - RETENTION_DAYS * DAY_MS));
    expect(swept.events).toBeGreaterThanOrEqual(older.length);
    expect(ok(await events('?limit=200', who), 'kept').data.map((e) => e.id)).toEqual([newest!.id]);
    expect(envelopeOf(await events(`?after=${eventId(BigInt(seqOf(older[0]!.id)) - 1n)}`, who))).toMatchObject({ code: 'events_expired' });
    expect(ok(await events(`?after=${older[0]!.id}`, who), 'from the horizon').data).toEqual([expect.objectContaining({ id: newest!.id })]);
  }, 60_000);
});
