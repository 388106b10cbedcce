import { Repeater } from 'graphql-yoga';
import { EVENT_NOTICE_TOPIC, type EventNotices } from '../../../contract/eventNotices';
import type { Db } from '../../db/prismaClient';
import { DomainError } from '../../domain/errors';
import { eventId } from '../../../contract/eventTypes';
import type { Logger } from '../../support/logger';
import { latestEventId, listEvents, type LoggedEvent } from './eventLog';
import type { Scope } from '../scope';

export interface EventFeedFilter {
  types?: readonly string[] | null;
  subaccountId?: string | null;
  /** Start after this event; from the newest event of the scope when absent. */
  after?: string | null;
}

const PAGE = 200;

/**
 * The events of a scope as they come (the analysts' GraphQL subscription): from just after
 * `filter.after` (or the newest event), oldest first, each once. The database is the truth: a
 * notice of the scope (EventNotices: Redis across replicas) only says "read on", and the feed also
 * reads every `pollMs` in case one was lost. The next read waits until the consumer took the last
 * event (a slow consumer holds nothing but its cursor). A failed read is logged and retried at the
 * next notice or poll. Ending the iteration (the client left) stops the timer and the notices.
 */
export async function followEvents(
  db: Db,
  scope: Scope,
  notices: EventNotices,
  filter: EventFeedFilter,
  options: { pollMs: number; logger: Logger; beforeEach?: () => void },
): Promise<AsyncIterable<LoggedEvent>> {
  // What ListEvents would refuse (types, after) is refused now, before the stream begins.
  await listEvents(db, scope, { types: filter.types, subaccountId: filter.subaccountId, after: filter.after, limit: 1 });
  let cursor = filter.after ?? (await latestEventId(db, scope)) ?? eventId(0n);
  return new Repeater<LoggedEvent>(async (push, stop) => {
    let stale = true;
    let wake = () => undefined as void;
    const readOn = () => {
      stale = true;
      wake();
    };
    const timer = setInterval(readOn, options.pollMs);
    const heard = notices.pubSub.subscribe(EVENT_NOTICE_TOPIC);
    void (async () => {
      for await (const notice of heard) if (notice.workspaceId === scope.workspaceId && notice.environment === scope.environment) readOn();
    })();
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      wake();
    });
    try {
      while (!stopped) {
        if (!stale) await new Promise<void>((resolve) => (wake = resolve));
        stale = false;
        try {
          for (let more = true; more && !stopped; ) {
            const page = await listEvents(db, scope, { types: filter.types, subaccountId: filter.subaccountId, after: cursor, limit: PAGE });
            for (const event of page.data) {
              if (stopped) break;
              options.beforeEach?.();
              await push(event);
              cursor = event.id;
            }
            more = page.hasMore;
          }
        } catch (error) {
          // Events after the cursor were deleted meanwhile (the retention window passed it): the
          // subscription ends with the refusal, never goes on without them.
          if (error instanceof DomainError && error.code === 'events_expired') {
            await stop(error);
            break;
          }
          options.logger.warn({ err: error }, 'reading the event log for a subscription failed; the next notice or poll reads again');
        }
      }
    } finally {
      clearInterval(timer);
      await heard.return?.();
    }
  });
}
