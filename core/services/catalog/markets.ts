import { marketVisibleTo, type Scope } from '../scope';
import { Prisma } from '../../generated/prisma/client';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { findMarket } from './statements';
import { ourVolumeOf } from '../marketData/ourTape';
import { invalidRequest, notFound } from '../../domain/errors';
import { MARKET_SORTS, toPrefixTsQuery } from '../../domain/marketSearch';
import { decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { venueFilterColumn } from '../../venues/venueModules';
import { MARKET_STATUSES } from '../../domain/marketLifecycle';


export interface MarketSearch {
  q?: string | null;
  venue?: string | null;
  status?: string | null;
  category?: string | null;
  /** `volume`: most traded first (docs/market-data.md); otherwise by rank with `q`, catalog order without. */
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

type RankCursor = { rank: number; id: string };
type VolumeCursor = { volume: string; id: string };
const isVolumeCursor = (value: unknown): value is VolumeCursor => {
  const volume = isIdCursor(value) ? (value as { volume?: unknown }).volume : undefined;
  return typeof volume === 'string' && /^\d{1,18}(\.\d{1,6})?$/.test(volume);
};
const isRankCursor = (value: unknown): value is RankCursor =>
  isIdCursor(value) && typeof (value as { rank?: unknown }).rank === 'number';

/**
 * Market search runs in PostgreSQL: full-text (every word as a prefix, ranked) over title,
 * ticker, category and description, with exact filters. Without `q` markets come in catalog order.
 */
export async function searchMarkets(db: Db, scope: Scope, search: MarketSearch) {
  const limit = parseLimit(search.limit);
  const venue = venueFilterColumn(search.venue);
  if (search.status != null && !(MARKET_STATUSES as readonly string[]).includes(search.status)) {
    throw invalidRequest('status', `status must be one of ${MARKET_STATUSES.join(', ')}.`);
  }
  // The scope's markets: its environment's venues', and its own workspace's test-helper markets.
  const filters = [Prisma.sql`environment = ${scope.environment}::"Environment"`, Prisma.sql`(workspace_id IS NULL OR workspace_id = ${scope.workspaceId})`];
  if (venue !== null) filters.push(Prisma.sql`venue = ${venue}::text`);
  if (search.status != null) filters.push(Prisma.sql`status = ${search.status}::"MarketStatus"`);
  if (search.category != null) filters.push(Prisma.sql`lower(category) = lower(${search.category})`);

  if (search.sort != null && !(MARKET_SORTS as readonly string[]).includes(search.sort)) {
    throw invalidRequest('sort', `sort must be one of ${MARKET_SORTS.join(', ')}.`);
  }
  const tsquery = search.q == null || search.q === '' ? null : toPrefixTsQuery(search.q);
  if (tsquery !== null) filters.push(Prisma.sql`search_vector @@ to_tsquery('simple', ${tsquery})`);

  if (search.sort === 'volume') {
    // Contracts traded: a live market's as its venue reported at the last catalog sync; a simulated
    // one's counted from its tape (ours). A page follows volumes as they are when it is read: a
    // market that trades between two pages may be seen twice or not at all.
    const after = decodeCursor(search.cursor, isVolumeCursor);
    const volume = scope.environment === 'test' ? ourVolumeOf(Prisma.sql`markets.id`) : Prisma.sql`coalesce(venue_volume, 0)`;
    const rows = await db.$queryRaw<{ id: string; volume: Prisma.Decimal }[]>`
      SELECT id, volume FROM (SELECT id, ${volume} AS volume FROM markets WHERE ${Prisma.join(filters, ' AND ')}) AS traded
      ${after ? Prisma.sql`WHERE volume < ${after.volume}::numeric OR (volume = ${after.volume}::numeric AND id > ${after.id})` : Prisma.empty}
      ORDER BY volume DESC, id LIMIT ${limit + 1}`;
    const volumeOf = new Map(rows.map((row) => [row.id, row.volume.toFixed()]));
    return toPage(await loadInOrder(db, rows), limit, (m) => ({ volume: volumeOf.get(m.id)!, id: m.id }));
  }

  if (tsquery === null) {
    const after = decodeCursor(search.cursor, isIdCursor);
    if (after) filters.push(Prisma.sql`id > ${after.id}`);
    const ids = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM markets WHERE ${Prisma.join(filters, ' AND ')} ORDER BY id LIMIT ${limit + 1}`;
    return toPage(await loadInOrder(db, ids), limit, (m) => ({ id: m.id }));
  }

  const after = decodeCursor(search.cursor, isRankCursor);
  const ranked = Prisma.sql`
    SELECT id, ts_rank(search_vector, to_tsquery('simple', ${tsquery}))::float8 AS rank
    FROM markets
    WHERE ${Prisma.join(filters, ' AND ')}`;
  const rows = await db.$queryRaw<{ id: string; rank: number }[]>`
    SELECT id, rank FROM (${ranked}) AS hits
    ${after ? Prisma.sql`WHERE rank < ${after.rank} OR (rank = ${after.rank} AND id > ${after.id})` : Prisma.empty}
    ORDER BY rank DESC, id LIMIT ${limit + 1}`;
  const rankOf = new Map(rows.map((row) => [row.id, row.rank]));
  return toPage(await loadInOrder(db, rows), limit, (m) => ({ rank: rankOf.get(m.id)!, id: m.id }));
}

async function loadInOrder(db: Db, ids: { id: string }[]) {
  const markets = await db.market.findMany({ where: { id: { in: ids.map((row) => row.id) } } });
  const byId = new Map(markets.map((m) => [m.id, m]));
  return ids.map((row) => byId.get(row.id)!);
}

// findUnique and a check here, not findFirst: Prisma caches unique-key query plans (4x faster).
export async function getMarket(db: Db, scope: Scope, id: string) {
  // Over pg directly, the order path's own statement: the uncached market read is a hot read (bench/README.md).
  const market = await findMarket(sqlPoolOf(db), id);
  if (!market || !marketVisibleTo(market, scope)) throw notFound('market', id);
  return market;
}
