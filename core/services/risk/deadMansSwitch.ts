import type { Principal } from '../../../contract/principal';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { queryPlain, queryRows, type SqlClient } from '../../db/sql';
import { Prisma, type DeadMansSwitch } from '../../generated/prisma/client';
import { deadMansSwitchFired, keepAliveDue, timeoutMsOf } from '../../domain/deadMansSwitch';
import { DomainError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Logger } from '../../support/logger';
import type { Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

/**
 * The dead-man's switch's use cases (docs/dead-mans-switch.md): arm, disarm, heartbeat and read, and
 * the keep-alive of ordinary requests. Its firing (the cancellation of the scope's orders) is the
 * sweeper's: deadMansSwitchSweeper.ts. Every time is the database's, one clock for every core; a
 * lapse is judged by `statement_timestamp()`, the time of the statement that judges it, never the
 * start of its transaction (`now()`), which a placement that waited for its subaccount's lock, or
 * any long transaction, would see stale.
 */

/** The scope key of a switch: its subaccount, or `*` for the whole workspace (in the key's environment). */
const WORKSPACE_SCOPE = '*';
const scopeKeyOf = (subaccountId: string | null | undefined) => subaccountId ?? WORKSPACE_SCOPE;

/**
 * Whether a dead-man's switch covering the subaccount (its own, or its workspace's in its
 * environment) has lapsed: fired, or past its expiry before a sweeper claimed it. Two lookups on
 * the switches' unique key.
 */
export const deadMansSwitchLapsed = (subaccount: { id: string; workspaceId: string; environment: 'test' | 'live' }) => Prisma.sql`EXISTS (
        SELECT 1 FROM dead_mans_switches
         WHERE workspace_id = ${subaccount.workspaceId} AND environment = ${subaccount.environment}::"Environment" AND scope_key IN ('*', ${subaccount.id})
           AND (state = 'fired' OR (state = 'armed' AND expires_at <= statement_timestamp())))`;

/**
 * Refuses a new order (a complex one) of the subaccount while a switch covering it has lapsed, early
 * (before its preview, which reads venue books); simple orders check it in their pre-trade statement.
 * Not the guarantee: see refuseWhileLapsedLocked.
 */
export async function refuseWhileLapsed(db: Db, scope: Scope, subaccountId: string): Promise<void> {
  const [row] = await queryPlain<{ lapsed: boolean }>(sqlPoolOf(db), Prisma.sql`SELECT ${deadMansSwitchLapsed({ id: subaccountId, ...scope })} AS lapsed`);
  if (row?.lapsed) throw deadMansSwitchFired(subaccountId);
}

/**
 * The check of a complex order's placement, in the transaction that inserts its parent, just before
 * the insert: the subaccount's row locked FOR UPDATE (as simple placement does, to its COMMIT), then
 * the lapse read by a statement of its own, after the lock. The sweeper's listing locks the row FOR
 * SHARE: it waits for this transaction and lists the parent, or this check sees the switch lapsed.
 */
export async function refuseWhileLapsedLocked(tx: Prisma.TransactionClient, scope: Scope, subaccountId: string): Promise<void> {
  await tx.$queryRaw(Prisma.sql`
    SELECT id FROM subaccounts WHERE id = ${subaccountId} AND workspace_id = ${scope.workspaceId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`);
  const [row] = await tx.$queryRaw<{ lapsed: boolean }[]>(Prisma.sql`SELECT ${deadMansSwitchLapsed({ id: subaccountId, ...scope })} AS lapsed`);
  if (row?.lapsed) throw deadMansSwitchFired(subaccountId);
}

/** A workspace's switches and, while one is armed, the earliest moment one lapses. */
export interface DeadMansSwitchStatus {
  expiresAt: Date | null;
  switches: DeadMansSwitch[];
}

export const SWITCH_COLUMNS = Prisma.sql`id, workspace_id, environment, subaccount_id, scope_key, state, timeout_ms, armed_at, last_heartbeat_at, expires_at,
  fired_at, firings, cancel_before, cancel_holder, cancel_lease_until, cancel_completed_at, orders_canceled, created_at, updated_at`;

/** The switches of the scope: the workspace's first, then its subaccounts' in id order. */
export async function deadMansSwitchStatus(db: Db, scope: Scope): Promise<DeadMansSwitchStatus> {
  const switches = await db.deadMansSwitch.findMany({
    where: { workspaceId: scope.workspaceId, environment: scope.environment },
    orderBy: { scopeKey: 'asc' },
  });
  return statusOf(switches);
}

function statusOf(switches: DeadMansSwitch[]): DeadMansSwitchStatus {
  const armed = switches.filter((row) => row.state === 'armed').map((row) => row.expiresAt.getTime());
  return { expiresAt: armed.length ? new Date(Math.min(...armed)) : null, switches };
}

/**
 * Arms the switch of the scope (the workspace, or one of its subaccounts), or re-arms it: it lapses
 * `timeoutSeconds` from now unless kept alive. Re-arming a fired switch lets new orders in again; a
 * cancellation still under way then finishes with the orders created before now. A switch that had
 * lapsed without being fired yet is fired first (its cancellation is left to the sweepers).
 */
export async function armDeadMansSwitch(
  db: Db,
  scope: Scope,
  input: { subaccountId?: string | null; timeoutSeconds: number },
  keepAlive?: DeadMansSwitchKeepAlive,
): Promise<DeadMansSwitch> {
  const timeoutMs = timeoutMsOf(input.timeoutSeconds, 'input.timeoutSeconds');
  if (input.subaccountId != null) {
    const subaccountId = input.subaccountId;
    await getSubaccount(db, scope, subaccountId).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'not_found' ? new DomainError('not_found', error.message, 'input.subaccountId') : error;
    });
  }
  const sql = sqlPoolOf(db);
  const key = scopeKeyOf(input.subaccountId);
  await fireIfLapsed(sql, scope, key);
  const [row] = await queryRows<DeadMansSwitch>(
    sql,
    Prisma.sql`
      INSERT INTO dead_mans_switches AS d (id, workspace_id, environment, subaccount_id, scope_key, state, timeout_ms, armed_at, last_heartbeat_at, expires_at, updated_at)
      VALUES (${newId('deadMansSwitch')}, ${scope.workspaceId}, ${scope.environment}::"Environment", ${input.subaccountId ?? null}, ${key}, 'armed',
              ${timeoutMs}::int, now(), now(), now() + ${timeoutMs}::int * interval '1 millisecond', now())
      ON CONFLICT (workspace_id, environment, scope_key) DO UPDATE
        SET state = 'armed', timeout_ms = EXCLUDED.timeout_ms, armed_at = now(), last_heartbeat_at = now(),
            expires_at = EXCLUDED.expires_at, updated_at = now(), ${boundCancellation}
      RETURNING ${SWITCH_COLUMNS}`,
  );
  keepAlive?.noteArmed(scope, timeoutMs);
  return row!;
}

/**
 * Disarms the switch of the scope: no more lapse, and new orders are accepted again if it had
 * fired. A cancellation still under way finishes with the orders created before now. not_found
 * when the scope has no switch (another workspace's subaccount included).
 */
export async function disarmDeadMansSwitch(db: Db, scope: Scope, subaccountId?: string | null): Promise<DeadMansSwitch> {
  const sql = sqlPoolOf(db);
  const key = scopeKeyOf(subaccountId);
  await fireIfLapsed(sql, scope, key);
  const [row] = await queryRows<DeadMansSwitch>(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches AS d SET state = 'disarmed', updated_at = now(), ${boundCancellation}
       WHERE workspace_id = ${scope.workspaceId} AND environment = ${scope.environment}::"Environment" AND scope_key = ${key}
      RETURNING ${SWITCH_COLUMNS}`,
  );
  if (!row) {
    throw subaccountId != null
      ? new DomainError('not_found', `No dead-man's switch for subaccount '${subaccountId}'.`, 'subaccountId')
      : new DomainError('not_found', "The workspace has no dead-man's switch in this environment.");
  }
  return row;
}

/**
 * A cancellation under way when the switch is re-armed or disarmed covers the orders created
 * before now: every order placed since is the user's new intent. (No order of the scope can be
 * placed between the firing and now: they are refused.)
 */
const boundCancellation = Prisma.sql`cancel_before = CASE WHEN d.cancel_lease_until IS NOT NULL THEN coalesce(d.cancel_before, now()) ELSE d.cancel_before END`;

/**
 * Claims the lapse of switches that expired unfired: `state` armed -> fired in one conditional
 * UPDATE, so that one claim alone succeeds whatever the number of cores (a concurrent UPDATE waits
 * for the row and finds it fired). The claim takes the cancellation's lease for `holder`; without
 * one (an arm or disarm that found its switch lapsed) the lease is already over, so that the next
 * sweeper round of any core takes the cancellation up.
 */
export function claimLapsedSwitches(sql: SqlClient, claim: { holder: string | null; leaseMs: number; scope?: Scope & { key: string } }) {
  const only = claim.scope
    ? Prisma.sql`AND workspace_id = ${claim.scope.workspaceId} AND environment = ${claim.scope.environment}::"Environment" AND scope_key = ${claim.scope.key}`
    : Prisma.empty;
  return queryRows<DeadMansSwitch>(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches
         SET state = 'fired', fired_at = statement_timestamp(), firings = firings + 1, orders_canceled = 0, cancel_before = NULL, cancel_completed_at = NULL,
             cancel_holder = ${claim.holder}, cancel_lease_until = statement_timestamp() + ${claim.leaseMs}::int * interval '1 millisecond', updated_at = statement_timestamp()
       WHERE state = 'armed' AND expires_at <= statement_timestamp() ${only}
      RETURNING ${SWITCH_COLUMNS}`,
  );
}

const fireIfLapsed = (sql: SqlClient, scope: Scope, key: string) => claimLapsedSwitches(sql, { holder: null, leaseMs: 0, scope: { ...scope, key } });

/**
 * Keeps every armed switch of the scope alive from now (one statement, over the unique index's
 * prefix). A switch already past its expiry has lapsed and is not revived: it fires.
 */
function keepArmedSwitchesAlive(sql: SqlClient, scope: Scope) {
  return queryRows<DeadMansSwitch>(
    sql,
    Prisma.sql`
      UPDATE dead_mans_switches
         SET last_heartbeat_at = statement_timestamp(), expires_at = statement_timestamp() + timeout_ms * interval '1 millisecond', updated_at = statement_timestamp()
       WHERE workspace_id = ${scope.workspaceId} AND environment = ${scope.environment}::"Environment" AND state = 'armed' AND expires_at > statement_timestamp()
      RETURNING id`,
  );
}

/** POST /v1/heartbeat: every armed switch of the scope kept alive from now; the switches as they are then. */
export async function heartbeat(db: Db, scope: Scope, keepAlive?: DeadMansSwitchKeepAlive): Promise<DeadMansSwitchStatus> {
  await keepArmedSwitchesAlive(sqlPoolOf(db), scope);
  keepAlive?.noteWritten(scope);
  return deadMansSwitchStatus(db, scope);
}

/**
 * The keep-alive of ordinary requests, per core: an authenticated API-key request keeps the armed
 * switches of its workspace and environment alive, without a database write per request. The core
 * knows which scopes have an armed switch (and their shortest timeout) from `refresh`, which the
 * sweeper runs every round on every core (DEAD_MANS_SWITCH_SWEEP_MS), and from its own arms; it
 * writes a scope's keep-alive at most once per quarter of that timeout (keepAliveEveryMs), in the
 * background. So a request's keep-alive is recorded at most max(timeout / 4, sweep interval) late.
 */
export class DeadMansSwitchKeepAlive {
  private armed = new Map<string, number>();
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** A request with this principal was authenticated: an API key's keeps its scope's armed switches alive. */
  touch(principal: Principal): void {
    if (principal.kind !== 'api_key') return;
    const scope = { workspaceId: principal.workspaceId, environment: principal.environment };
    const key = keyOf(scope);
    const shortest = this.armed.get(key);
    if (shortest === undefined) return;
    const now = this.clock();
    if (!keepAliveDue(this.written.get(key), now, shortest)) return;
    this.written.set(key, now);
    keepArmedSwitchesAlive(sqlPoolOf(this.db), scope).catch((error: unknown) => {
      this.written.delete(key); // the next request tries again
      this.logger.warn({ err: error, workspaceId: scope.workspaceId }, "recording a dead-man's switch keep-alive failed");
    });
  }

  /** Whether some switch of the live environment is armed (what the venues' own heartbeats need). */
  anyLiveArmed(): boolean {
    for (const key of this.armed.keys()) if (key.endsWith('\nlive')) return true;
    return false;
  }

  /** An arm on this core: known at once, before the next refresh. */
  noteArmed(scope: Scope, timeoutMs: number): void {
    const key = keyOf(scope);
    this.armed.set(key, Math.min(timeoutMs, this.armed.get(key) ?? timeoutMs));
    this.written.set(key, this.clock());
  }

  /** A heartbeat written on this core: the next keep-alive is not due before a quarter timeout. */
  noteWritten(scope: Scope): void {
    this.written.set(keyOf(scope), this.clock());
  }

  /** Which scopes have an armed switch, read anew (one statement over the (state, expires_at) index). */
  async refresh(): Promise<void> {
    const rows = await queryPlain<{ workspace_id: string; environment: string; shortest: number }>(
      sqlPoolOf(this.db),
      Prisma.sql`SELECT workspace_id, environment::text AS environment, min(timeout_ms) AS shortest FROM dead_mans_switches WHERE state = 'armed' GROUP BY 1, 2`,
    );
    this.armed = new Map(rows.map((row) => [`${row.workspace_id}\n${row.environment}`, row.shortest]));
    for (const key of this.written.keys()) if (!this.armed.has(key)) this.written.delete(key);
  }
}

const keyOf = (scope: Scope) => `${scope.workspaceId}\n${scope.environment}`;
