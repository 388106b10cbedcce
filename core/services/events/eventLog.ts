import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { queryRows } from '../../db/sql';
import { Prisma } from '../../generated/prisma/client';
import { DomainError, invalidRequest } from '../../domain/errors';
import { eventId } from '../../../contract/eventTypes';
import { EVENT_OBJECT_TABLES, isSeqCursor, parseTypeFilter, seqOfEventId, type EventObjectType } from '../../domain/events';
import { createdWithin, decodeCursor, parseLimit, toPage, type Page } from '../../domain/pagination';
import { scopedRows, type Scope } from '../scope';

/** One event as the API shows it: `data` is the object's row as the change left it. */
export interface LoggedEvent {
  id: string;
  seq: bigint;
  type: string;
  environment: 'test' | 'live';
  subaccountId: string | null;
  objectType: EventObjectType;
  objectId: string;
  previousStatus: string | null;
  createdAt: Date;
  data: object;
}

export interface EventFilter {
  types?: readonly string[] | null;
  subaccountId?: string | null;
  since?: Date | null;
  until?: Date | null;
  /** Oldest first, the events after this one (catching up; the event streams read this way). */
  after?: string | null;
  limit?: number | null;
  /** Newest first (the default), the page after this cursor. */
  cursor?: string | null;
}

/**
 * Events of the scope that have their place in the log (numbered by the sequencer): newest first,
 * or, with `after`, oldest first from just after that event. Filters: types (exact or `order.*`),
 * subaccount, creation window.
 */
export async function listEvents(db: Db, scope: Scope, filter: EventFilter): Promise<Page<LoggedEvent>> {
  const limit = parseLimit(filter.limit);
  const types = parseTypeFilter(filter.types);
  if (filter.after != null && filter.cursor != null) throw invalidRequest('after', 'after and cursor do not go together: after reads oldest first, cursor pages newest first.');
  const after = filter.after != null ? seqOfEventId(filter.after, 'after') : null;
  const ascending = after !== null;
  const from = after ?? decodeCursor(filter.cursor, isSeqCursor)?.seq;
  const rows = await db.event.findMany({
    where: {
      ...scopedRows(scope, { subaccountId: filter.subaccountId }),
      ...createdWithin(filter.since, filter.until),
      seq: from == null ? { not: null } : ascending ? { gt: BigInt(from) } : { lt: BigInt(from) },
      ...(types
        ? { OR: [...(types.exact.length ? [{ type: { in: types.exact } }] : []), ...types.prefixes.map((prefix) => ({ type: { startsWith: prefix } }))] }
        : {}),
    },
    orderBy: { seq: ascending ? 'asc' : 'desc' },
    take: limit + 1,
    select: { seq: true, type: true, environment: true, subaccountId: true, objectType: true, objectId: true, previousStatus: true, createdAt: true },
  });
  const page = toPage(rows, limit, (row) => ({ seq: row.seq!.toString() }));
  const data = await snapshotsOf(db, page.data.map((row) => ({ seq: row.seq!, objectType: row.objectType as EventObjectType })));
  // Read after the events: a horizon that has not passed `after` by now had not when they were read.
  if (after !== null) await refuseExpired(db, scope, after);
  return {
    // An event the retention sweeper deleted between the two reads is left out (reading oldest
    // first, the horizon check above has refused the page instead).
    data: page.data.filter((row) => data.has(row.seq!.toString())).map((row) => ({
      ...row,
      seq: row.seq!,
      id: eventId(row.seq!),
      objectType: row.objectType as EventObjectType,
      data: data.get(row.seq!.toString())!,
    })),
    hasMore: page.hasMore,
    // Oldest first, the next page is `after` the last event's id.
    nextCursor: ascending ? null : page.nextCursor,
  };
}

/**
 * Refuses to read on from `after` when events of the scope after it were deleted (the retention
 * window, docs/events.md "Retention"): the scope's horizon, the highest number deleted, is past it.
 * Events after the horizon are all kept, so reading after it (or after any later id) misses nothing.
 */
async function refuseExpired(db: Db, scope: Scope, after: bigint): Promise<void> {
  const horizon = await db.eventHorizon.findUnique({ where: { workspaceId_environment: { workspaceId: scope.workspaceId, environment: scope.environment } }, select: { expiredThrough: true } });
  if (horizon && after < horizon.expiredThrough) {
    throw new DomainError(
      'events_expired',
      `Events after ${eventId(after)} are no longer kept (the event log's retention window); the oldest point to read on from is ${eventId(horizon.expiredThrough)}. ` +
        'Re-read the resources you follow (orders, fills, ...), then follow from the newest event.',
      'after',
    );
  }
}

/** The newest event of the scope, or null: where a stream that asks for nothing old starts. */
export async function latestEventId(db: Db, scope: Scope): Promise<string | null> {
  const row = await db.event.findFirst({ where: { ...scopedRows(scope), seq: { not: null } }, orderBy: { seq: 'desc' }, select: { seq: true } });
  return row ? eventId(row.seq!) : null;
}

/**
 * The data of these events (the page just read: each event's number and object type), by seq:
 * each snapshot read back as a row of its table (jsonb_populate_record), so numbers are exact
 * decimals and times are times, exactly as the resource's own reads give them; a breach is stored
 * as the object it is. One statement per object type on the page.
 */
async function snapshotsOf(db: Db, events: { seq: bigint; objectType: EventObjectType }[]): Promise<Map<string, object>> {
  const found = new Map<string, object>();
  const sql = sqlPoolOf(db);
  const byType = new Map<EventObjectType, string[]>();
  for (const { seq, objectType } of events) {
    const ofType = byType.get(objectType) ?? [];
    ofType.push(seq.toString());
    byType.set(objectType, ofType);
  }
  await Promise.all(
    [...byType].map(async ([objectType, ofType]) => {
      const rows =
        objectType === 'risk_limit_breach'
          ? await queryRows<{ eventSeq: string; snapshot: object }>(sql, Prisma.sql`SELECT seq::text AS event_seq, snapshot FROM events WHERE seq = ANY(${ofType}::bigint[])`)
          : await queryRows<{ eventSeq: string }>(
              sql,
              Prisma.sql`SELECT e.seq::text AS event_seq, (jsonb_populate_record(NULL::${Prisma.raw(EVENT_OBJECT_TABLES[objectType])}, e.snapshot)).*
                           FROM events e WHERE e.seq = ANY(${ofType}::bigint[])`,
            );
      for (const row of rows) {
        const { eventSeq, ...rest } = row as { eventSeq: string; snapshot?: object } & Record<string, unknown>;
        found.set(eventSeq, objectType === 'risk_limit_breach' ? breachOf(rest.snapshot as Record<string, unknown>) : rest);
      }
    }),
  );
  return found;
}

/** A refusal as stored (JSON): its time back to a Date. */
const breachOf = (snapshot: Record<string, unknown>) => ({ ...snapshot, createdAt: new Date(snapshot.createdAt as string) });

/** What a refused order is kept as in its risk_limit.breached event. */
export interface RiskLimitBreach {
  subaccountId: string;
  marketId: string;
  limit: string;
  message: string;
  side: string;
  action: string;
  type: string;
  price: string | null;
  quantity: string;
  clientOrderId: string | null;
  createdAt: string;
}

/** Writes a risk_limit.breached event (the refused order wrote nothing else). */
export async function recordRiskLimitBreach(db: Db, scope: Scope, breach: RiskLimitBreach): Promise<void> {
  await queryRows(
    sqlPoolOf(db),
    Prisma.sql`SELECT mk_record_event('risk_limit.breached', ${scope.workspaceId}, ${scope.environment}::"Environment", ${breach.subaccountId},
                                      'risk_limit_breach', ${breach.subaccountId}, NULL, ${JSON.stringify(breach)}::jsonb)`,
  );
}
