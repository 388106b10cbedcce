import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/prismaClient';
import { notFound } from '../../domain/errors';
import { toPrefixTsQuery } from '../../domain/marketSearch';
import { decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { venueFilterColumn } from '../../venues/venueModules';
import type { Scope } from '../scope';

export interface MarketEventSearch {
  q?: string | null;
  venue?: string | null;
  category?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

/** The most markets one event answers with (an event of a venue rarely holds more). */
export const MAX_EVENT_MARKETS = 200;

/**
 * The venues' events of the scope's environment (GET /v1/market_events, docs/market-data.md
 * "Events"): every word of `q` as a prefix over the title, the venue's event id and the category;
 * exact venue and category filters; in id order, cursor paged.
 */
export async function searchMarketEvents(db: Db, scope: Scope, search: MarketEventSearch) {
  const limit = parseLimit(search.limit);
  const venue = venueFilterColumn(search.venue);
  const filters = [Prisma.sql`environment = ${scope.environment}::"Environment"`];
  if (venue !== null) filters.push(Prisma.sql`venue = ${venue}::text`);
  if (search.category != null) filters.push(Prisma.sql`lower(category) = lower(${search.category})`);
  if (search.q != null && search.q !== '') {
    filters.push(Prisma.sql`to_tsvector('simple', title || ' ' || venue_event_id || ' ' || category) @@ to_tsquery('simple', ${toPrefixTsQuery(search.q)})`);
  }
  const after = decodeCursor(search.cursor, isIdCursor);
  if (after) filters.push(Prisma.sql`id > ${after.id}`);
  const ids = await db.$queryRaw<{ id: string }[]>`SELECT id FROM market_events WHERE ${Prisma.join(filters, ' AND ')} ORDER BY id LIMIT ${limit + 1}`;
  const rows = await db.marketEvent.findMany({ where: { id: { in: ids.map((row) => row.id) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return toPage(ids.map((row) => byId.get(row.id)!), limit, (event) => ({ id: event.id }));
}

/** One event of the scope's environment; another environment's is not_found. */
export async function getMarketEvent(db: Db, scope: Scope, id: string) {
  const event = await db.marketEvent.findUnique({ where: { id } });
  if (!event || event.environment !== scope.environment) throw notFound('market event', id);
  return event;
}

/** An event's markets the scope sees (a test helper's market only its workspace's), in id order, at most MAX_EVENT_MARKETS. */
export function marketsOfEvent(db: Db, scope: Scope, eventId: string) {
  return db.market.findMany({
    where: { eventId, environment: scope.environment, OR: [{ workspaceId: null }, { workspaceId: scope.workspaceId }] },
    orderBy: { id: 'asc' },
    take: MAX_EVENT_MARKETS,
  });
}
