import { sqlPoolOf, type Db } from '../db/prismaClient';
import { queryPlain } from '../db/sql';
import { Prisma } from '../generated/prisma/client';
import type { Logger } from '../support/logger';
import { runPeriodically } from '../support/periodic';

/** Rows deleted per statement at most: each statement is its own short transaction. */
const BATCH = 5000;
/** How often each core sweeps. */
const SWEEP_INTERVAL_MS = 600_000;
const DAY_MS = 86_400_000;

/**
 * The event log's retention window (EVENT_RETENTION_DAYS, docs/events.md "Retention"), in every
 * core: every SWEEP_INTERVAL_MS, numbered events created before the window are deleted, oldest
 * first, BATCH per statement, and so are finished webhook deliveries (with their attempts) whose
 * last attempt is that old. Two cores sweeping at once take disjoint rows (SKIP LOCKED). Stopping
 * waits for the statement under way, not for the round.
 */
export function startEventRetention(db: Db, logger: Logger, options: { retentionDays: number }): { stop(): Promise<void> } {
  let stopped = false;
  const periodic = runPeriodically(
    SWEEP_INTERVAL_MS,
    async () => {
      const swept = await sweepExpiredEvents(db, new Date(Date.now() - options.retentionDays * DAY_MS), () => stopped);
      if (swept.events > 0 || swept.deliveries > 0) logger.info(swept, 'deleted events and webhook deliveries older than EVENT_RETENTION_DAYS');
    },
    (error) => logger.warn({ err: error }, 'deleting expired events failed; the next round retries'),
  );
  return {
    async stop() {
      stopped = true;
      await periodic.stop();
    },
  };
}

/**
 * One sweep: statements of BATCH rows until one deletes fewer (or `stopped` says so). Returns how
 * many events and webhook deliveries it deleted.
 */
export async function sweepExpiredEvents(db: Db, before: Date, stopped: () => boolean = () => false): Promise<{ events: number; deliveries: number }> {
  const sql = sqlPoolOf(db);
  const swept = { events: 0, deliveries: 0 };
  for (const [kind, statement] of [['events', deleteEvents(before)], ['deliveries', deleteDeliveries(before)]] as const) {
    for (let deleted = BATCH; deleted === BATCH && !stopped(); ) {
      const [row] = await queryPlain<{ deleted: number }>(sql, statement);
      deleted = row!.deleted;
      swept[kind] += deleted;
    }
  }
  return swept;
}

/**
 * Up to BATCH numbered events created before `before`, oldest first, and the horizon of each
 * workspace and environment they belong to (event_horizons: the highest number deleted), in one
 * statement, so that no reader sees the events gone and the horizon not yet moved. The batch is read
 * from the seq index below the first event (in log order) that is recent enough to keep, so the
 * scan ends there rather than running through the recent log. Unnumbered events are never taken,
 * nor the newest event of a workspace and environment: it marks where that log stands (streams
 * start from it; the sequencer numbers on from the highest number kept).
 */
const deleteEvents = (before: Date) => Prisma.sql`
  WITH bound AS (
    SELECT coalesce((SELECT r.seq FROM events r WHERE r.seq IS NOT NULL AND r.created_at >= ${before} ORDER BY r.seq LIMIT 1), 9223372036854775807) AS seq
  ), batch AS (
    SELECT e.seq FROM events e, bound
     WHERE e.seq < bound.seq
       AND EXISTS (SELECT 1 FROM events n WHERE n.workspace_id = e.workspace_id AND n.environment = e.environment AND n.seq > e.seq)
     ORDER BY e.seq LIMIT ${BATCH}::integer
       FOR UPDATE OF e SKIP LOCKED
  ), gone AS (
    DELETE FROM events e USING batch b WHERE e.seq = b.seq
    RETURNING e.workspace_id, e.environment, e.seq
  ), horizons AS (
    INSERT INTO event_horizons AS h (workspace_id, environment, expired_through)
    SELECT workspace_id, environment, max(seq) FROM gone GROUP BY workspace_id, environment ORDER BY workspace_id, environment
    ON CONFLICT (workspace_id, environment) DO UPDATE SET expired_through = greatest(h.expired_through, excluded.expired_through)
  )
  SELECT count(*)::int AS deleted FROM gone`;

/**
 * Up to BATCH finished webhook deliveries (succeeded or failed) whose last attempt began before
 * `before` (next_attempt_at: the lease of their last claim; the status index), with their attempts.
 * A delivery is made after its event, so its event is as old: the history goes with the log.
 */
const deleteDeliveries = (before: Date) => Prisma.sql`
  WITH batch AS (
    SELECT d.endpoint_id, d.event_seq FROM webhook_deliveries d
     WHERE d.status IN ('succeeded', 'failed') AND d.next_attempt_at < ${before}
     LIMIT ${BATCH}::integer
       FOR UPDATE SKIP LOCKED
  ), attempts AS (
    DELETE FROM webhook_attempts a USING batch b WHERE a.endpoint_id = b.endpoint_id AND a.event_seq = b.event_seq
  ), gone AS (
    DELETE FROM webhook_deliveries d USING batch b WHERE d.endpoint_id = b.endpoint_id AND d.event_seq = b.event_seq
    RETURNING 1
  )
  SELECT count(*)::int AS deleted FROM gone`;
