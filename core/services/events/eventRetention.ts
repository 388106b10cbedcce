import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { queryPlain } from '../../db/sql';
import { Prisma } from '../../generated/prisma/client';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';

/** Rows deleted per statement at most: each statement is its own short transaction. */
const BATCH = 5000;
/** How often each core sweeps. */
const SWEEP_INTERVAL_MS = 600_000;
/** The pause between two statements of one sweep: a large backlog (a first sweep, a shorter window) never holds the database (PGlite's one session above all) statement after statement. */
const PAUSE_MS = 100;

/**
 * The event log's retention window (EVENT_RETENTION_DAYS, docs/events.md "Retention"), in every
 * core: every SWEEP_INTERVAL_MS, events numbered before the window are deleted, oldest
 * first, at most BATCH per statement, and so are finished webhook deliveries (with their attempts)
 * whose last attempt is that old. Two cores sweeping at once take disjoint rows (SKIP LOCKED). Stopping
 * waits for the statement under way, not for the round.
 */
export function startEventRetention(
  db: Db,
  logger: Logger,
  options: { /** EVENT_RETENTION_DAYS in milliseconds. */ windowMs: number; /** Told of every sweep's deletions (the core's metrics). */ onSwept?: (swept: { events: number; deliveries: number }) => void },
): { stop(): Promise<void> } {
  let stopped = false;
  const periodic = runPeriodically(
    SWEEP_INTERVAL_MS,
    async () => {
      const swept = await sweepExpiredEvents(db, new Date(Date.now() - options.windowMs), () => stopped);
      options.onSwept?.(swept);
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
 * One sweep: statements of BATCH rows until the log's recent part (or the end of the finished
 * deliveries) is reached, or `stopped` says so. Returns how many events and webhook deliveries it
 * deleted.
 */
export async function sweepExpiredEvents(db: Db, before: Date, stopped: () => boolean = () => false): Promise<{ events: number; deliveries: number }> {
  const sql = sqlPoolOf(db);
  const swept = { events: 0, deliveries: 0 };
  for (let from = '0'; !stopped(); ) {
    const [row] = await queryPlain<{ deleted: number; last: string | null; done: boolean }>(sql, deleteEvents(before, from));
    swept.events += row!.deleted;
    if (row!.done) break;
    from = row!.last!;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  for (const status of ['succeeded', 'failed'] as const) {
    for (let deleted = BATCH; deleted === BATCH && !stopped(); ) {
      const [row] = await queryPlain<{ deleted: number }>(sql, deleteDeliveries(before, status));
      deleted = row!.deleted;
      swept.deliveries += deleted;
    }
  }
  return swept;
}

/**
 * Looks at the next BATCH numbered events after `from` (the seq index, in log order) and deletes
 * those numbered before `before` up to the first that is not (numbered in log order, so what
 * follows is recent too), with the horizon of each workspace and environment they belong to
 * (event_horizons: the highest number deleted) in the same statement, so that no reader sees the
 * events gone and the horizon not yet moved. Never an unnumbered event, nor the newest event of a
 * workspace and environment: it marks where that log stands (streams start from it; the sequencer
 * numbers on after the highest number kept). Answers how many it deleted, the last number it looked
 * at (where the next statement goes on), and whether the sweep is done (it reached a recent event,
 * or the end of the log).
 */
const deleteEvents = (before: Date, from: string) => Prisma.sql`
  WITH candidates AS (
    SELECT e.seq, e.sequenced_at FROM events e WHERE e.seq > ${from}::bigint ORDER BY e.seq LIMIT ${BATCH}::integer
  ), reach AS (
    SELECT min(seq) FILTER (WHERE sequenced_at >= ${before}) AS recent, max(seq) AS last, count(*) AS looked FROM candidates
  ), batch AS (
    SELECT e.seq FROM events e JOIN candidates c ON c.seq = e.seq CROSS JOIN reach
     WHERE c.seq < coalesce(reach.recent, reach.last + 1)
       AND EXISTS (SELECT 1 FROM events n WHERE n.workspace_id = e.workspace_id AND n.environment = e.environment AND n.seq > e.seq)
       FOR UPDATE OF e SKIP LOCKED
  ), gone AS (
    DELETE FROM events e USING batch b WHERE e.seq = b.seq
    RETURNING e.workspace_id, e.environment, e.seq
  ), horizons AS (
    INSERT INTO event_horizons AS h (workspace_id, environment, expired_through)
    SELECT workspace_id, environment, max(seq) FROM gone GROUP BY workspace_id, environment ORDER BY workspace_id, environment
    ON CONFLICT (workspace_id, environment) DO UPDATE SET expired_through = greatest(h.expired_through, excluded.expired_through)
  )
  SELECT (SELECT count(*) FROM gone)::int AS deleted, reach.last::text AS last, (reach.recent IS NOT NULL OR reach.looked < ${BATCH}::integer) AS done FROM reach`;

/**
 * Up to BATCH finished webhook deliveries of a status (succeeded or failed) whose last attempt began
 * before `before` (next_attempt_at: the lease of their last claim), oldest first from the status
 * index, with their attempts. A delivery is made after its event, so its event is as old: the
 * history goes with the log.
 */
const deleteDeliveries = (before: Date, status: 'succeeded' | 'failed') => Prisma.sql`
  WITH batch AS (
    SELECT d.endpoint_id, d.event_seq FROM webhook_deliveries d
     WHERE d.status = ${status}::"WebhookDeliveryStatus" AND d.next_attempt_at < ${before}
     ORDER BY d.next_attempt_at LIMIT ${BATCH}::integer
       FOR UPDATE SKIP LOCKED
  ), attempts AS (
    DELETE FROM webhook_attempts a USING batch b WHERE a.endpoint_id = b.endpoint_id AND a.event_seq = b.event_seq
  ), gone AS (
    DELETE FROM webhook_deliveries d USING batch b WHERE d.endpoint_id = b.endpoint_id AND d.event_seq = b.event_seq
    RETURNING 1
  )
  SELECT count(*)::int AS deleted FROM gone`;
