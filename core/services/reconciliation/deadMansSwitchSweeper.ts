import { randomUUID } from 'node:crypto';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { allInOrder, inTransaction, queryPlain, queryRow, queryRows, type SqlClient } from '../../db/sql';
import { sqlList } from '../../db/sqlLists';
import { Prisma, type DeadMansSwitch, type OrderStatus } from '../../generated/prisma/client';
import { DomainError } from '../../domain/errors';
import { CANCELABLE_COMPLEX_ORDER_STATUSES, isResting, WORKING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueColumn } from '../../venues/venueModules';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { LiveAccounts } from '../../venues/liveAccounts';
import type { VenueRegistry } from '../../venues/venue';
import { cancelComplexOrder } from '../complexOrders/cancellation';
import { claimLapsedSwitches, SWITCH_COLUMNS, type DeadMansSwitchKeepAlive } from '../risk/deadMansSwitch';
import { cancelOrder } from '../orders/orders';
import type { Scope } from '../scope';

type Pool = ReturnType<typeof sqlPoolOf>;

export interface DeadMansSwitchSweeperOptions {
  /** How often the sweeper looks for lapsed switches and works on the cancellations it holds (DEAD_MANS_SWITCH_SWEEP_MS). */
  intervalMs: number;
  /** How long a cancellation is held without renewal before another core takes it up (DEAD_MANS_SWITCH_LEASE_MS). */
  leaseMs: number;
  /** How often the venues that have a heartbeat of their own (LiveVenue.heartbeat) are sent one. */
  venueHeartbeatMs?: number;
}

/** How often a firing whose cancels keep failing is reported. */
const FAILURE_LOG_MS = 10_000;
/** Cancels of one round sent at once; the lease is renewed before each batch. */
const CANCEL_BATCH = 8;
/** Polymarket cancels every order of an account whose heartbeats stop for about 10 s (docs/dead-mans-switch.md). */
export const VENUE_HEARTBEAT_MS = 5000;

/**
 * The dead-man's switch's sweeper, in every core (docs/dead-mans-switch.md). Every round:
 * 1. refreshes the core's knowledge of which scopes have an armed switch (the keep-alive's);
 * 2. claims the switches that lapsed (exactly once across cores: claimLapsedSwitches) and the
 *    cancellations whose holder stopped renewing their lease (a core that died mid-firing);
 * 3. works on each cancellation it holds, one pass at a time: under a short transaction that waits
 *    for the placements in flight on the scope's subaccounts (their rows locked FOR SHARE, no venue
 *    call inside), lists the scope's working orders and complex orders; cancels the complex orders
 *    and every resting order through the ordinary cancel services (the lease renewed before each
 *    complex order and each batch, each venue call within half a lease); and when a pass finds nothing
 *    working (orders pending or unknown are waited for: the reconcilers settle them) the
 *    cancellation is complete;
 * 4. every `venueHeartbeatMs`, sends the venues that have a heartbeat of their own one for each
 *    account open on this core that an armed live switch covers (LiveVenue.heartbeat).
 */
export function startDeadMansSwitchSweeper(
  db: Db,
  venues: VenueRegistry,
  live: ReadonlyMap<VenueColumn, LiveAccounts>,
  keepAlive: DeadMansSwitchKeepAlive,
  logger: Logger,
  options: DeadMansSwitchSweeperOptions,
): { stop(): Promise<void> } {
  const sql = sqlPoolOf(db);
  const holder = `core_${randomUUID()}`;
  const held = new Set<string>();
  const passes = new Map<string, Promise<void>>();
  const venueHeartbeatMs = options.venueHeartbeatMs ?? VENUE_HEARTBEAT_MS;
  let lastVenueHeartbeat = 0;
  let venueHeartbeats: Promise<void> | undefined;
  /** Whether the last round sent some account a venue heartbeat: such chains go on after a disarm. */
  let venueChainsRunning = false;

  // A venue that stays down fails the cancels of every round: said once per FAILURE_LOG_MS per switch.
  const lastFailureLog = new Map<string, number>();
  const onFailures = (firing: DeadMansSwitch, failed: unknown[]) => {
    if (Date.now() - (lastFailureLog.get(firing.id) ?? 0) < FAILURE_LOG_MS) return;
    lastFailureLog.set(firing.id, Date.now());
    logger.warn({ switchId: firing.id, workspaceId: firing.workspaceId, failed: failed.length, err: failed[0] }, "some cancels of a dead-man's switch failed; retrying every round");
  };
  const work = (id: string) => {
    if (passes.has(id)) return;
    const pass = cancellationPass(db, venues, sql, logger, { id, holder, leaseMs: options.leaseMs }, onFailures)
      .then((outcome) => {
        if (outcome === 'again') return;
        held.delete(id);
        lastFailureLog.delete(id);
      })
      .catch((error: unknown) => logger.warn({ err: error, switchId: id }, "a dead-man's switch cancellation pass failed; retrying on the next round"))
      .finally(() => passes.delete(id));
    passes.set(id, pass);
  };

  const round = async () => {
    await keepAlive.refresh();
    for (const fired of await claimLapsedSwitches(sql, { holder, leaseMs: options.leaseMs })) {
      logger.warn(
        { switchId: fired.id, workspaceId: fired.workspaceId, environment: fired.environment, subaccountId: fired.subaccountId, expiredAt: fired.expiresAt },
        "dead-man's switch lapsed: canceling every open order of its scope; new orders are refused until it is re-armed or disarmed",
      );
      held.add(fired.id);
    }
    for (const taken of await takeAbandonedCancellations(sql, holder, options.leaseMs)) {
      logger.info({ switchId: taken.id, workspaceId: taken.workspaceId }, "took up a dead-man's switch cancellation whose core stopped renewing it");
      held.add(taken.id);
    }
    for (const id of held) work(id);
    if (!venueHeartbeats && Date.now() - lastVenueHeartbeat >= venueHeartbeatMs && (keepAlive.anyLiveArmed() || venueChainsRunning)) {
      lastVenueHeartbeat = Date.now();
      venueHeartbeats = sendVenueHeartbeats(sql, live, logger, venueHeartbeatMs)
        .then((beaten) => void (venueChainsRunning = beaten > 0))
        .catch((error: unknown) => logger.warn({ err: error }, "sending the venues' own dead-man's switch heartbeats failed; retrying"))
        .finally(() => (venueHeartbeats = undefined));
    }
  };
  const periodic = runPeriodically(options.intervalMs, round, (error) =>
    logger.warn({ err: error }, "the dead-man's switch sweep failed; retrying on the next round"),
  );
  return {
    async stop() {
      await periodic.stop();
      await Promise.all(passes.values());
      await venueHeartbeats;
    },
  };
}

/** Cancellations whose lease ran out (their core died, or an arm found its switch lapsed): now this holder's. */
function takeAbandonedCancellations(sql: SqlClient, holder: string, leaseMs: number) {
  return queryRows<DeadMansSwitch>(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches SET cancel_holder = ${holder}, cancel_lease_until = now() + ${leaseMs}::int * interval '1 millisecond', updated_at = now()
       WHERE cancel_lease_until < now()
      RETURNING ${SWITCH_COLUMNS}`,
  );
}

/** Renews the holder's lease; undefined when it is no longer the holder (another core took it up) or the cancellation is complete. */
function renewLease(sql: SqlClient, id: string, holder: string, leaseMs: number) {
  return queryRow<DeadMansSwitch>(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches SET cancel_lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
       WHERE id = ${id} AND cancel_holder = ${holder} AND cancel_lease_until IS NOT NULL
      RETURNING ${SWITCH_COLUMNS}`,
  );
}

type PassOutcome = 'again' | 'complete' | 'lost';

/**
 * One pass over a held cancellation: 'complete' when nothing of the scope is working any more,
 * 'again' when the next round must look again, 'lost' when another core holds it now.
 */
async function cancellationPass(
  db: Db,
  venues: VenueRegistry,
  sql: Pool,
  logger: Logger,
  lease: { id: string; holder: string; leaseMs: number },
  onFailures: (firing: DeadMansSwitch, failed: unknown[]) => void,
): Promise<PassOutcome> {
  const renew = () => renewLease(sql, lease.id, lease.holder, lease.leaseMs);
  const firing = await renew();
  if (!firing) return 'lost';
  const scope: Scope = { workspaceId: firing.workspaceId, environment: firing.environment };
  const { orders, complexOrders } = await workingInScope(sql, firing);
  if (orders.length === 0 && complexOrders.length === 0) {
    const completed = await queryRow<{ id: string }>(
      sql,
      Prisma.sql`
        UPDATE dead_mans_switches SET cancel_holder = NULL, cancel_lease_until = NULL, cancel_completed_at = now(), updated_at = now()
         WHERE id = ${lease.id} AND cancel_holder = ${lease.holder} AND cancel_lease_until IS NOT NULL
        RETURNING id`,
    );
    if (completed) logger.info({ switchId: lease.id, workspaceId: firing.workspaceId, ordersCanceled: firing.ordersCanceled }, "dead-man's switch cancellation complete");
    return completed ? 'complete' : 'lost';
  }
  const failed: unknown[] = [];
  // Each venue call of the pass ends within half a lease of the renewal before it (a venue that
  // hangs cannot outlast the lease, which another core would then take up while this one still sends).
  const withinLease = () => ({ deadline: Date.now() + lease.leaseMs / 2 });
  for (const id of complexOrders) {
    if (!(await renew())) return 'lost';
    // Unsent children end here; resting children are canceled too (again below, if that failed).
    await cancelComplexOrder(db, venues, scope, id, withinLease()).catch((error: unknown) => {
      if (!isConflict(error) && !(error instanceof DomainError && error.code === 'venue_unavailable')) failed.push(error);
    });
  }
  const resting = orders.filter((order) => isResting(order.status)).map((order) => order.id);
  for (let start = 0; start < resting.length; start += CANCEL_BATCH) {
    if (!(await renew())) return 'lost';
    const call = withinLease();
    await Promise.all(
      resting.slice(start, start + CANCEL_BATCH).map((id) =>
        cancelOrder(db, venues, scope, id, call).catch((error: unknown) => {
          if (!isConflict(error)) failed.push(error); // conflict: final meanwhile (filled, or canceled with its complex order)
        }),
      ),
    );
  }
  if (failed.length > 0) onFailures(firing, failed);
  await queryPlain(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches
         SET orders_canceled = orders_canceled + (SELECT count(*) FROM orders WHERE id = ANY(${resting}::text[]) AND status = 'canceled')::int, updated_at = now()
       WHERE id = ${lease.id} AND cancel_holder = ${lease.holder}`,
  );
  return 'again';
}

const isConflict = (error: unknown) => error instanceof DomainError && error.code === 'conflict';

/**
 * The working orders and complex orders of a firing's scope (created before `cancel_before`, when
 * set, read by the listing's statements themselves, after the lock). The scope's subaccount rows are locked FOR SHARE first, in a statement of their own: a
 * placement holds its subaccount's row (FOR UPDATE) from its pre-trade checks to its COMMIT, so the
 * listing, a statement after the lock, sees every order whose checks ran before the firing was
 * claimed; any placement after that sees the switch fired and is refused. The transaction ends
 * before any venue is called.
 */
async function workingInScope(pool: Pool, firing: DeadMansSwitch) {
  const subaccounts = firing.subaccountId
    ? Prisma.sql`id = ${firing.subaccountId}`
    : Prisma.sql`workspace_id = ${firing.workspaceId} AND environment = ${firing.environment}::"Environment"`;
  // `cancel_before` as it is after the lock (a re-arm or disarm while the listing waited sets it), not as the pass read it before.
  const before = Prisma.sql`coalesce((SELECT cancel_before FROM dead_mans_switches WHERE id = ${firing.id}), 'infinity'::timestamptz)`;
  const inScope = Prisma.sql`subaccount_id IN (SELECT id FROM subaccounts WHERE ${subaccounts}) AND created_at < ${before}`;
  const [, orders, complexOrders] = await inTransaction(pool, (tx) =>
    tx.together((c) =>
      allInOrder([
        queryPlain(c, Prisma.sql`SELECT id FROM subaccounts WHERE ${subaccounts} ORDER BY id FOR SHARE`),
        queryPlain<{ id: string; status: OrderStatus }>(
          c,
          Prisma.sql`SELECT id, status FROM orders WHERE ${inScope} AND status IN ${sqlList(WORKING_STATUSES)} ORDER BY id`,
        ),
        queryPlain<{ id: string }>(
          c,
          Prisma.sql`SELECT id FROM complex_orders WHERE ${inScope} AND status IN ${sqlList(CANCELABLE_COMPLEX_ORDER_STATUSES)} ORDER BY id`,
        ),
        tx.commit(c),
      ]),
    ),
  );
  return { orders, complexOrders: complexOrders.map((row) => row.id) };
}

/**
 * The seam for venues with a dead-man's switch of their own (LiveVenue.heartbeat; Polymarket's
 * rotating-id heartbeats): each account open on this core that an armed live switch covers is sent
 * a heartbeat, within `timeoutMs`. An account whose chain this core started keeps being sent them
 * after its switch is disarmed (were they to stop, the venue would cancel every order of the
 * account); they stop when a switch covering it fires (its orders are canceled anyway) or the
 * account closes. A failure is logged; the explicit cancels stay the guarantee.
 */
async function sendVenueHeartbeats(sql: SqlClient, live: ReadonlyMap<VenueColumn, LiveAccounts>, logger: Logger, timeoutMs: number): Promise<number> {
  const accounts = [...live].flatMap(([column, opened]) => opened.opened().map((account) => ({ column, ...account })));
  if (accounts.length === 0) return 0;
  const rows = await queryPlain<{ id: string; armed: boolean; fired: boolean }>(
    sql,
    Prisma.sql`
      SELECT s.id,
             EXISTS (SELECT 1 FROM dead_mans_switches d
                      WHERE d.workspace_id = s.workspace_id AND d.environment = s.environment
                        AND d.scope_key IN ('*', s.id) AND d.state = 'armed') AS armed,
             EXISTS (SELECT 1 FROM dead_mans_switches d
                      WHERE d.workspace_id = s.workspace_id AND d.environment = s.environment
                        AND d.scope_key IN ('*', s.id) AND d.state = 'fired') AS fired
        FROM subaccounts s
       WHERE s.id = ANY(${[...new Set(accounts.map((account) => account.subaccountId))]}::text[])`,
  );
  const switches = new Map(rows.map((row) => [row.id, row]));
  let beaten = 0;
  await Promise.all(
    accounts.map(async ({ column, subaccountId, venue }) => {
      const account = await venue.catch(() => undefined);
      if (!account?.heartbeat) return;
      const state = switches.get(subaccountId);
      const beat = state?.armed === true || (account.heartbeatStarted?.() === true && state?.fired !== true);
      if (!beat) return;
      beaten += 1;
      await account.heartbeat({ deadline: Date.now() + timeoutMs }).catch((error: unknown) =>
        logger.warn({ err: error, venue: column, subaccountId }, "a venue's own dead-man's switch heartbeat failed; the explicit cancels remain the guarantee"),
      );
    }),
  );
  return beaten;
}
