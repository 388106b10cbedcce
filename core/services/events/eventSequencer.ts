import type { EventNotices } from '../../../contract/eventNotices';
import { EVENT_NOTICE_TOPIC } from '../../../contract/eventNotices';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { queryPlain } from '../../db/sql';
import { Prisma } from '../../generated/prisma/client';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';

/** Events numbered per round at most; a round that numbers this many runs again at once. */
const BATCH = 1000;

/**
 * Numbers the events written since the last round, in commit order (mk_sequence_events, migration
 * event_log: one core at a time, by an advisory lock), then announces per workspace and environment
 * how far the log now reaches (EventNotices), so that event streams and subscriptions read on.
 * Every core runs it; two running at once take turns at the lock. `intervalMs`
 * (EVENT_SEQUENCE_INTERVAL_MS) bounds the delay a change waits before a stream can see it.
 */
export function startEventSequencer(db: Db, notices: EventNotices, logger: Logger, options: { intervalMs: number }): { stop(): Promise<void> } {
  const sql = sqlPoolOf(db);
  return runPeriodically(
    options.intervalMs,
    async () => {
      for (;;) {
        const numbered = await queryPlain<{ workspace_id: string; environment: 'test' | 'live'; last_seq: string }>(
          sql,
          Prisma.sql`SELECT workspace_id, environment, last_seq::text AS last_seq FROM mk_sequence_events(${BATCH}::integer)`,
        );
        for (const row of numbered) {
          notices.pubSub.publish(EVENT_NOTICE_TOPIC, { workspaceId: row.workspace_id, environment: row.environment, seq: row.last_seq });
        }
        if (numbered.length === 0 || !(await moreWaiting(sql))) return;
      }
    },
    (error) => logger.warn({ err: error }, 'numbering events failed; the next round retries'),
  );
}

async function moreWaiting(sql: ReturnType<typeof sqlPoolOf>): Promise<boolean> {
  const [row] = await queryPlain<{ waiting: boolean }>(sql, Prisma.sql`SELECT EXISTS (SELECT 1 FROM events WHERE seq IS NULL) AS waiting`);
  return row?.waiting === true;
}
