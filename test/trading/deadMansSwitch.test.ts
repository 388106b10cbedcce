/**
 * The dead-man's switch through REST on the simulated venues (docs/dead-mans-switch.md): arming,
 * heartbeats, the keep-alive of ordinary requests, disarming and validation; isolation between
 * workspaces; a firing that cancels the resting orders of its scope only, refuses new orders
 * (simple and complex) with 409 dead_mans_switch_fired until re-armed; and the conditional UPDATE
 * that claims a lapse exactly once, raced from many connections.
 *
 * A database of this suite's own: the sweeper of every core fires every lapsed switch of its
 * database, and a core cancels on its own (in-memory) simulated venues.
 */
import { createPrismaClient, sqlPoolOf, type Db } from '../../core/db/prismaClient';
import { queryPlain } from '../../core/db/sql';
import { Prisma } from '../../core/generated/prisma/client';
import { armDeadMansSwitch, claimLapsedSwitches, deadMansSwitchLapsed } from '../../core/services/risk/deadMansSwitch';
import { createSubaccount as createSubaccountRow } from '../../core/services/accounts/subaccounts';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, expectError, getOrder, marketOf, newTrader, placed, placeOrder, waitFor, type Market, type OrderBody, type Trader } from './helpers';

let stack: Stack;
let db: Db;
let market: Market;

beforeAll(async () => {
  const url = await ownDatabase('dead_mans_switch');
  stack = await startStack(testConfig({ DATABASE_URL: url, DEAD_MANS_SWITCH_SWEEP_MS: '50' }));
  db = stack.core.db;
  market = await marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

interface SwitchView {
  id: string;
  subaccount_id: string | null;
  state: 'armed' | 'fired' | 'disarmed';
  timeout_seconds: number;
  armed_at: string;
  last_heartbeat_at: string;
  expires_at: string;
  fired_at: string | null;
  firings: number;
  canceling_orders: boolean;
  cancel_completed_at: string | null;
  orders_canceled: number;
}

const arm = (trader: Trader, body: Record<string, unknown>) => call<SwitchView>(trader.base, 'PUT', '/v1/dead_mans_switch', { key: trader.secret, body });
const switches = (trader: Trader) => call<{ expires_at: string | null; switches: SwitchView[] }>(trader.base, 'GET', '/v1/dead_mans_switch', { key: trader.secret });
const heartbeat = (trader: Trader) => call<{ expires_at: string | null; switches: SwitchView[] }>(trader.base, 'POST', '/v1/heartbeat', { key: trader.secret });
const disarm = (trader: Trader, subaccountId?: string) =>
  call<SwitchView>(trader.base, 'DELETE', `/v1/dead_mans_switch${subaccountId ? `?subaccount_id=${subaccountId}` : ''}`, { key: trader.secret });
const resting = (subaccountId: string, price = '0.02'): OrderBody => ({
  subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1',
});
/** The switch as stored, read without a request of its workspace (which would keep it alive). */
const stored = (id: string) => db.deadMansSwitch.findUniqueOrThrow({ where: { id } });
const ms = (instant: string) => new Date(instant).getTime();

describe('arming, heartbeats and disarming', () => {
  it('arms the workspace or a subaccount, shows them, keeps them alive on POST /v1/heartbeat, and disarms them', async () => {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS arm');
    const sub = await createSubaccount(trader, 'bot');
    expect((await switches(trader)).body).toEqual({ expires_at: null, switches: [] });

    const workspace = await arm(trader, { timeout_seconds: 600 });
    expect(workspace.status).toBe(200);
    expect(workspace.body).toMatchObject({ id: expect.stringMatching(/^dms_/), subaccount_id: null, state: 'armed', timeout_seconds: 600, fired_at: null, firings: 0, canceling_orders: false, orders_canceled: 0 });
    expect(ms(workspace.body.expires_at) - ms(workspace.body.last_heartbeat_at)).toBe(600_000);
    const own = await arm(trader, { subaccount_id: sub, timeout_seconds: 300 });
    expect(own.body).toMatchObject({ subaccount_id: sub, state: 'armed', timeout_seconds: 300 });

    const listed = await switches(trader);
    expect(listed.status).toBe(200);
    expect(listed.body.switches.map((s) => [s.subaccount_id, s.state])).toEqual([[null, 'armed'], [sub, 'armed']]);
    expect(listed.body.expires_at).toBe(listed.body.switches[1]!.expires_at); // the earlier one, 300 s

    // Re-arming the same scope changes that switch, not another one.
    const rearmed = await arm(trader, { subaccount_id: sub, timeout_seconds: 900 });
    expect(rearmed.body).toMatchObject({ id: own.body.id, timeout_seconds: 900 });

    const before = await stored(workspace.body.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beat = await heartbeat(trader);
    expect(beat.status).toBe(200);
    const after = beat.body.switches.find((s) => s.id === workspace.body.id)!;
    expect(ms(after.last_heartbeat_at)).toBeGreaterThan(before.lastHeartbeatAt.getTime());
    expect(ms(after.expires_at) - ms(after.last_heartbeat_at)).toBe(600_000);
    expect(beat.body.expires_at).toBe(after.expires_at);

    const disarmed = await disarm(trader, sub);
    expect(disarmed.body).toMatchObject({ id: own.body.id, state: 'disarmed' });
    expect((await disarm(trader)).body).toMatchObject({ id: workspace.body.id, state: 'disarmed' });
    expect((await switches(trader)).body.expires_at).toBeNull();
    // A heartbeat keeps nothing disarmed alive.
    const quiet = await heartbeat(trader);
    expect(quiet.body.switches.every((s) => s.state === 'disarmed')).toBe(true);
  });

  it('refuses timeouts outside 1..3600 whole seconds, unknown fields and another workspace’s subaccount, in the envelope', async () => {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS validation');
    const other = await newTrader(db, stack.gateways[0]!, 'DMS other');
    const theirs = await createSubaccount(other, 'theirs');
    for (const timeout of [0, 3601, 2.5, '10', -1, null]) {
      expectError(await arm(trader, { timeout_seconds: timeout }), 400, 'invalid_request', { param: 'timeout_seconds' });
    }
    expectError(await arm(trader, {}), 400, 'invalid_request', { param: 'timeout_seconds' });
    expectError(await arm(trader, { timeout_seconds: 5, timeout: 5 }), 400, 'invalid_request');
    expectError(await arm(trader, { subaccount_id: theirs, timeout_seconds: 5 }), 404, 'not_found', { param: 'subaccount_id' });
    expectError(await arm(trader, { subaccount_id: 'sa_nothing', timeout_seconds: 5 }), 404, 'not_found', { param: 'subaccount_id' });
    // Nothing was armed by any of them; their switch is theirs alone.
    expect((await switches(trader)).body.switches).toEqual([]);
    await arm(other, { subaccount_id: theirs, timeout_seconds: 600 });
    expectError(await disarm(trader, theirs), 404, 'not_found', { param: 'subaccount_id' });
    expectError(await disarm(trader), 404, 'not_found');
    expect((await switches(trader)).body.switches).toEqual([]);
    expect((await switches(other)).body.switches).toEqual([expect.objectContaining({ subaccount_id: theirs, state: 'armed' })]);
  });

  it('is kept alive by the workspace’s ordinary requests, and lapses once they stop', async () => {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS keep-alive');
    const sub = await createSubaccount(trader, 'bot');
    const armed = (await arm(trader, { subaccount_id: sub, timeout_seconds: 2 })).body;
    // Requests every 200 ms for twice the timeout: each quarter timeout one of them is recorded.
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      expect((await call(trader.base, 'GET', '/v1/orders?limit=1', { key: trader.secret })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const alive = await stored(armed.id);
    expect(alive.state).toBe('armed');
    expect(alive.lastHeartbeatAt.getTime()).toBeGreaterThan(ms(armed.last_heartbeat_at) + 2000);
    // Silence: it fires.
    const fired = await waitFor(() => stored(armed.id), (s) => s.state === 'fired', 10_000);
    expect(fired.firings).toBe(1);
    expect(fired.firedAt!.getTime()).toBeGreaterThanOrEqual(fired.expiresAt.getTime());
  }, 30_000);
});

it('writes no keep-alive per request (at most one per quarter timeout), and requests of the other environment keep nothing alive', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS throttle');
  const { secret: live } = await buildApiKey(db, trader.workspaceId, 'live', 10_000);
  const long = (await arm(trader, { timeout_seconds: 3600 })).body;
  await Promise.all(Array.from({ length: 50 }, () => call(trader.base, 'GET', '/v1/subaccounts', { key: trader.secret })));
  // The arm was the last write: the next request's keep-alive is not due for 15 minutes.
  expect((await stored(long.id)).lastHeartbeatAt.toISOString()).toBe(long.last_heartbeat_at);
  await disarm(trader);

  const short = (await arm(trader, { timeout_seconds: 1 })).body;
  // A live key of the same workspace talks for twice the timeout: the test key's switch lapses all the same.
  const until = Date.now() + 2000;
  while (Date.now() < until) {
    expect((await call(trader.base, 'GET', '/v1/subaccounts', { key: live })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const fired = await waitFor(() => stored(short.id), (s) => s.state === 'fired', 5_000);
  expect(fired.lastHeartbeatAt.toISOString()).toBe(short.last_heartbeat_at);
  await disarm(trader);
});

it('is kept alive by requests through another core than the one it was armed through', async () => {
  // A second core on the database: it learns of the switch from its sweeper's refresh (50 ms here).
  const other = await startStack(testConfig({ DATABASE_URL: stack.core.databaseUrl, DEAD_MANS_SWITCH_SWEEP_MS: '50' }));
  try {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS two cores');
    const armed = (await arm(trader, { timeout_seconds: 2 })).body;
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      expect((await call(other.gateways[0]!, 'GET', '/v1/subaccounts', { key: trader.secret })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const alive = await stored(armed.id);
    expect(alive.state).toBe('armed');
    expect(alive.lastHeartbeatAt.getTime()).toBeGreaterThan(ms(armed.last_heartbeat_at) + 2000);
    expect((await disarm(trader)).body.state).toBe('disarmed');
  } finally {
    await other.close();
  }
}, 30_000);

describe('firing on the simulated venues', () => {
  it('cancels the resting orders of its scope only, refuses new orders with 409 dead_mans_switch_fired until re-armed, and counts what it canceled', async () => {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS firing');
    const bystander = await newTrader(db, stack.gateways[0]!, 'DMS bystander');
    const covered = await createSubaccount(trader, 'covered');
    const uncovered = await createSubaccount(trader, 'uncovered');
    const theirs = await createSubaccount(bystander, 'theirs');
    const coveredOrders = [await placed(trader, resting(covered, '0.02')), await placed(trader, resting(covered, '0.03'))];
    const filled = await placed(trader, { ...resting(covered), type: 'market', price: undefined }); // filled at once: nothing to cancel
    const uncoveredOrder = await placed(trader, resting(uncovered));
    const theirOrder = await placed(bystander, resting(theirs));
    expect(coveredOrders.map((o) => o.status)).toEqual(['open', 'open']);
    expect(filled.status).toBe('filled');

    const armed = (await arm(trader, { subaccount_id: covered, timeout_seconds: 1 })).body;
    // No request of the workspace from here on: the switch lapses after 1 s and the sweeper (50 ms) fires it.
    const done = await waitFor(() => stored(armed.id), (s) => s.state === 'fired' && s.cancelCompletedAt !== null, 10_000);
    expect(done).toMatchObject({ firings: 1, ordersCanceled: 2, cancelLeaseUntil: null, cancelHolder: null });

    for (const order of coveredOrders) expect(await getOrder(trader, order.id)).toMatchObject({ status: 'canceled', remaining_quantity: '0' });
    expect((await getOrder(trader, uncoveredOrder.id)).status).toBe('open');
    expect((await getOrder(bystander, theirOrder.id)).status).toBe('open');
    expect((await getOrder(trader, filled.id)).status).toBe('filled');
    // The simulated book no longer holds them (a cancel at the venue, not only in our rows).
    const venue = (await stack.core.venues.forSubaccount('sim_kalshi', covered))!;
    for (const order of coveredOrders) expect(await venue.getOrder(order.id)).toMatchObject({ status: 'canceled' });

    // New orders of the covered subaccount are refused, simple and complex; the others trade on.
    const refused = expectError(await placeOrder(trader, resting(covered)), 409, 'dead_mans_switch_fired');
    expect(refused.message).toMatch(/re-armed or disarmed/);
    expectError(
      await call(trader.base, 'POST', '/v1/complex_orders', {
        key: trader.secret,
        body: { subaccount_id: covered, market_id: market.id, side: 'yes', action: 'buy', quantity: '5', strategy: 'sweep' },
      }),
      409,
      'dead_mans_switch_fired',
    );
    expect((await placeOrder(trader, resting(uncovered))).status).toBe(200);
    // A heartbeat does not revive a fired switch.
    const beat = await heartbeat(trader);
    expect(beat.body.switches).toEqual([expect.objectContaining({ id: armed.id, state: 'fired', firings: 1, orders_canceled: 2, canceling_orders: false })]);
    expectError(await placeOrder(trader, resting(covered)), 409, 'dead_mans_switch_fired');

    // Re-armed: trading resumes, and the record of the firing stays.
    const rearmed = await arm(trader, { subaccount_id: covered, timeout_seconds: 600 });
    expect(rearmed.body).toMatchObject({ state: 'armed', firings: 1, orders_canceled: 2, fired_at: done.firedAt!.toISOString() });
    expect((await placeOrder(trader, resting(covered))).status).toBe(200);
    await disarm(trader, covered);
  }, 30_000);

  it('a workspace switch covers every subaccount of its environment; disarming it lets orders in again', async () => {
    const trader = await newTrader(db, stack.gateways[0]!, 'DMS workspace');
    const [a, b] = [await createSubaccount(trader, 'a'), await createSubaccount(trader, 'b')];
    const orders = [await placed(trader, resting(a)), await placed(trader, resting(b))];
    const armed = (await arm(trader, { timeout_seconds: 1 })).body;
    await waitFor(() => stored(armed.id), (s) => s.cancelCompletedAt !== null, 10_000);
    for (const order of orders) expect((await getOrder(trader, order.id)).status).toBe('canceled');
    for (const sub of [a, b]) expectError(await placeOrder(trader, resting(sub)), 409, 'dead_mans_switch_fired');
    expect((await disarm(trader)).body).toMatchObject({ state: 'disarmed', firings: 1, orders_canceled: 2 });
    for (const sub of [a, b]) expect((await placeOrder(trader, resting(sub))).status).toBe(200);
  }, 30_000);
});

it('refuses a complex order whose switch lapses during its preview: checked again under the subaccount lock, nothing written', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS complex at the firing');
  const sub = await createSubaccount(trader, 'bot');
  const armed = (await arm(trader, { subaccount_id: sub, timeout_seconds: 3600 })).body;
  // Another transaction holds the subaccount's row (as a simple placement of it would): the complex
  // placement passes its early check and its preview, then waits for the row before writing its parent.
  const holder = await sqlPoolOf(db).connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM subaccounts WHERE id = $1 FOR UPDATE', [sub]);
    const placing = call(trader.base, 'POST', '/v1/complex_orders', {
      key: trader.secret,
      body: { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', quantity: '5', strategy: 'sweep' },
    });
    const waitingForRow = () =>
      db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FROM subaccounts%FOR UPDATE%' AND pid <> pg_backend_pid()`.then(([row]) => row!.n > 0);
    // Without the check under the lock, the parent is written at once and the request answers first.
    const first = await Promise.race([placing.then(() => 'answered'), waitFor(waitingForRow, Boolean, 10_000).then(() => 'waiting')]);
    expect(first).toBe('waiting');
    // The switch lapses meanwhile (its expiry passed: the sweeper fires it).
    await db.deadMansSwitch.update({ where: { id: armed.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await holder.query('COMMIT');
    expectError(await placing, 409, 'dead_mans_switch_fired');
  } finally {
    holder.release();
  }
  expect(await db.complexOrder.count({ where: { subaccountId: sub } })).toBe(0);
  expect(await db.order.count({ where: { subaccountId: sub } })).toBe(0);
  await waitFor(() => stored(armed.id), (s) => s.cancelCompletedAt !== null, 10_000);
  await disarm(trader, sub);
});

it('finishes the cancellation a core killed mid-firing left behind, once its lease runs out, without firing again', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS resumed');
  const sub = await createSubaccount(trader, 'bot');
  const orders = [await placed(trader, resting(sub, '0.02')), await placed(trader, resting(sub, '0.03'))];
  const armed = (await arm(trader, { subaccount_id: sub, timeout_seconds: 3600 })).body;
  // What a core that claimed the firing and died before canceling anything leaves: fired, its lease held by it.
  const leaseUntil = new Date(Date.now() + 1000);
  await db.deadMansSwitch.update({
    where: { id: armed.id },
    data: { state: 'fired', firedAt: new Date(), firings: 1, cancelHolder: 'core_dead', cancelLeaseUntil: leaseUntil },
  });
  expectError(await placeOrder(trader, resting(sub)), 409, 'dead_mans_switch_fired');
  const done = await waitFor(() => stored(armed.id), (s) => s.cancelCompletedAt !== null, 10_000);
  expect(done).toMatchObject({ state: 'fired', firings: 1, ordersCanceled: 2, cancelHolder: null, cancelLeaseUntil: null });
  // Not before the dead core's lease ran out.
  const canceled = await db.order.findMany({ where: { id: { in: orders.map((o) => o.id) } } });
  expect(canceled.map((o) => o.status)).toEqual(['canceled', 'canceled']);
  for (const order of canceled) expect(order.updatedAt.getTime()).toBeGreaterThanOrEqual(leaseUntil.getTime());
});

it('a re-arm while a cancellation is under way lets the cancellation finish for the older orders only', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS re-armed mid-firing');
  const sub = await createSubaccount(trader, 'bot');
  const older = await placed(trader, resting(sub, '0.02'));
  const armed = (await arm(trader, { subaccount_id: sub, timeout_seconds: 3600 })).body;
  // Fired by a core that holds it for a while yet (still working on it, as far as anyone knows).
  await db.deadMansSwitch.update({
    where: { id: armed.id },
    data: { state: 'fired', firedAt: new Date(), firings: 1, cancelHolder: 'core_busy', cancelLeaseUntil: new Date(Date.now() + 1000) },
  });
  const rearmed = await arm(trader, { subaccount_id: sub, timeout_seconds: 3600 });
  expect(rearmed.body).toMatchObject({ state: 'armed', firings: 1, canceling_orders: true });
  const newer = await placed(trader, resting(sub, '0.03'));
  const done = await waitFor(() => stored(armed.id), (s) => s.cancelCompletedAt !== null, 10_000);
  expect(done).toMatchObject({ state: 'armed', ordersCanceled: 1 });
  expect((await getOrder(trader, older.id)).status).toBe('canceled');
  expect((await getOrder(trader, newer.id)).status).toBe('open');
  await disarm(trader, sub);
});

it('a re-arm while the cancellation’s listing waits for the scope’s subaccounts: the listing reads cancel_before after the lock, and spares the orders placed since', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS re-armed while listing');
  const [held, free] = [await createSubaccount(trader, 'a'), await createSubaccount(trader, 'b')].sort();
  const older = await placed(trader, resting(free!, '0.02'));
  const armed = (await arm(trader, { timeout_seconds: 3600 })).body;
  // The listing locks the scope's subaccounts in id order: held first, so it waits there, with free not locked yet.
  const holder = await sqlPoolOf(db).connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM subaccounts WHERE id = $1 FOR UPDATE', [held]);
    // Fired by a core that died at once (lease over): this core's sweeper takes it up, reads the switch, and waits in the listing.
    await db.deadMansSwitch.update({
      where: { id: armed.id },
      data: { state: 'fired', firedAt: new Date(), firings: 1, cancelHolder: 'core_dead', cancelLeaseUntil: new Date(Date.now() - 1000) },
    });
    const listingWaits = () =>
      db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FROM subaccounts%FOR SHARE%'`.then(([row]) => row!.n > 0);
    await waitFor(listingWaits, Boolean, 10_000);
    // Re-armed meanwhile, and a new order of the scope placed since.
    expect((await arm(trader, { timeout_seconds: 3600 })).body).toMatchObject({ state: 'armed', canceling_orders: true });
    const newer = await placed(trader, resting(free!, '0.03'));
    await holder.query('COMMIT');
    const done = await waitFor(() => stored(armed.id), (s) => s.cancelCompletedAt !== null, 10_000);
    expect(done).toMatchObject({ state: 'armed', ordersCanceled: 1 });
    expect((await getOrder(trader, older.id)).status).toBe('canceled');
    expect((await getOrder(trader, newer.id)).status).toBe('open');
  } finally {
    holder.release();
  }
  await disarm(trader);
});

it('claims a lapse exactly once, whatever the number of cores racing for it', async () => {
  const trader = await newTrader(db, stack.gateways[0]!, 'DMS race');
  const armed = (await arm(trader, { timeout_seconds: 3600 })).body;
  // Lapsed in the past, as if its core had been away: 16 connections claim it at once.
  const racer = createPrismaClient(stack.core.databaseUrl, 16);
  try {
    await racer.deadMansSwitch.update({ where: { id: armed.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => claimLapsedSwitches(sqlPoolOf(racer), { holder: `racer_${i}`, leaseMs: 60_000 })));
    // At most one racer's claim succeeded (none when the running core's sweeper was first), and it fired once.
    expect(claims.flat().filter((row) => row.id === armed.id).length).toBeLessThanOrEqual(1);
    expect((await stored(armed.id)).firings).toBe(1);
  } finally {
    await racer.$disconnect();
  }
});

describe('the time a lapse is judged by', () => {
  // A database no core sweeps: the switch stays as the test leaves it, unclaimed.
  let quiet: Db;
  beforeAll(async () => {
    quiet = createPrismaClient(await ownDatabase('dead_mans_switch_quiet'), 4);
  });
  afterAll(() => quiet?.$disconnect());

  it('is the statement’s, not its transaction’s start: a check or a claim in a transaction begun before the expiry sees the lapse', async () => {
    const { workspace } = await buildWorkspace(quiet, { name: 'DMS clock' });
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const sub = await createSubaccountRow(quiet, scope, { name: 'bot' }, '0');
    const armed = await armDeadMansSwitch(quiet, scope, { subaccountId: sub.id, timeoutSeconds: 3600 });
    const client = await sqlPoolOf(quiet).connect();
    try {
      await client.query('BEGIN'); // the transaction's now() is fixed here (as a placement that then waits for its lock)
      await client.query('SELECT 1');
      // The switch expires after that start, before the statements below.
      await quiet.$executeRaw`UPDATE dead_mans_switches SET expires_at = clock_timestamp() WHERE id = ${armed.id}`;
      const [check] = await queryPlain<{ lapsed: boolean }>(client, Prisma.sql`SELECT ${deadMansSwitchLapsed({ id: sub.id, ...scope })} AS lapsed`);
      expect(check!.lapsed).toBe(true);
      expect((await claimLapsedSwitches(client, { holder: 'core_long_transaction', leaseMs: 60_000 })).map((row) => row.id)).toEqual([armed.id]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const fired = await quiet.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } });
    expect(fired).toMatchObject({ state: 'fired', firings: 1, cancelHolder: 'core_long_transaction' });
    expect(fired.firedAt!.getTime()).toBeGreaterThanOrEqual(fired.expiresAt.getTime());
  });
});

describe('on the embedded PGlite (one connection, as npm start)', () => {
  let embedded: Stack;
  beforeAll(async () => {
    embedded = await startStack(testConfig({ DATABASE_URL: '', PGLITE_DATA_DIR: 'memory', DEAD_MANS_SWITCH_SWEEP_MS: '50' }));
  }, 60_000);
  afterAll(() => embedded?.close());

  it('fires: the scope’s resting orders canceled, the others left, new orders refused until disarmed', async () => {
    const edb = embedded.core.db;
    const trader = await newTrader(edb, embedded.gateways[0]!, 'DMS embedded');
    const snow = await marketOf(edb, 'sim_kalshi', 'NYC-SNOW-XMAS');
    const order = (subaccountId: string): OrderBody => ({ ...resting(subaccountId), market_id: snow.id });
    const [covered, other] = [await createSubaccount(trader, 'covered'), await createSubaccount(trader, 'other')];
    const [mine, theirs] = [await placed(trader, order(covered)), await placed(trader, order(other))];
    const armed = (await arm(trader, { subaccount_id: covered, timeout_seconds: 1 })).body;
    const done = await waitFor(() => edb.deadMansSwitch.findUniqueOrThrow({ where: { id: armed.id } }), (s) => s.cancelCompletedAt !== null, 10_000);
    expect(done).toMatchObject({ state: 'fired', firings: 1, ordersCanceled: 1 });
    expect((await getOrder(trader, mine.id)).status).toBe('canceled');
    expect((await getOrder(trader, theirs.id)).status).toBe('open');
    expectError(await placeOrder(trader, order(covered)), 409, 'dead_mans_switch_fired');
    await disarm(trader, covered);
    expect((await placeOrder(trader, order(covered))).status).toBe(200);
  }, 30_000);
});
