import type { Db } from '../../db/prismaClient';

export interface EventBacklog {
  /** Events committed but not numbered yet: streams, lists and webhooks cannot see them. */
  unnumbered: number;
  /** Seconds since the oldest of them was written (0 when there are none). */
  oldestUnnumberedSeconds: number;
  /** Webhook deliveries due now and not under way. */
  webhooksDue: number;
  /** Seconds since the longest-waiting of them fell due (0 when there are none). */
  oldestWebhookDueSeconds: number;
}

/**
 * What the event log has not passed on yet (docs/events.md, docs/webhooks.md). In a healthy system
 * both are near 0: the sequencer numbers events every EVENT_SEQUENCE_INTERVAL_MS and the webhook
 * workers take due deliveries every WEBHOOK_WORKER_INTERVAL_MS; a growing age means numbering or
 * delivery stopped. Index lookups only (seq IS NULL; status and next_attempt_at).
 */
export async function eventBacklog(db: Db): Promise<EventBacklog> {
  const [row] = await db.$queryRaw<{ unnumbered: number; oldest: number | null; due: number; oldestDue: number | null }[]>`
    SELECT (SELECT count(*)::int FROM events WHERE seq IS NULL) AS unnumbered,
           (SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 FROM events WHERE seq IS NULL) AS oldest,
           (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()) AS due,
           (SELECT EXTRACT(EPOCH FROM now() - min(next_attempt_at))::float8 FROM webhook_deliveries
             WHERE status = 'pending' AND next_attempt_at <= now()) AS "oldestDue"`;
  return {
    unnumbered: row!.unnumbered,
    oldestUnnumberedSeconds: Math.max(0, row!.oldest ?? 0),
    webhooksDue: row!.due,
    oldestWebhookDueSeconds: Math.max(0, row!.oldestDue ?? 0),
  };
}
