import type { Db } from '../../db/prismaClient';
import { invalidRequest } from '../../domain/errors';
import { decodeCursor, encodeCursor, parseLimit, timeWindow, type Page } from '../../domain/pagination';
import type { PublicTrade } from '../../domain/publicTrades';
import type { VenueRegistry } from '../../venues/venue';
import type { Scope } from '../scope';
import { marketWithData } from './marketSource';
import { ourTradesPage, type TapePosition } from './ourTape';

export interface TradesQuery {
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Our cursor over a venue's tape: the venue's own cursor, or where our tape of a simulated venue goes on. */
type TradesCursor = { venue: string } | { at: string; seq: string };
const isTradesCursor = (value: unknown): value is TradesCursor => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.venue === 'string') return true;
  return typeof v.at === 'string' && !Number.isNaN(Date.parse(v.at)) && typeof v.seq === 'string' && /^\d{1,19}$/.test(v.seq);
};

/**
 * A market's public trades, newest first, cursor paged, within [since, until) (docs/market-data.md,
 * "Trades"): the venue's own tape, read now; or, for a venue that publishes none (the simulated
 * ones), our taker fills on it. Prices in YES terms; `takerSide` the outcome the taker bought.
 */
export async function marketTrades(db: Db, venues: VenueRegistry, scope: Scope, marketId: string, query: TradesQuery): Promise<Page<PublicTrade>> {
  const limit = parseLimit(query.limit);
  const window = timeWindow(query.since, query.until);
  const cursor = decodeCursor(query.cursor, isTradesCursor);
  const { market, data } = await marketWithData(db, venues, scope, marketId, 'its trades');
  if (data.publicTrades) {
    if (cursor && !('venue' in cursor)) throw invalidRequest('cursor', 'cursor is not one this API returned.');
    const page = await data.publicTrades(market, { since: window?.gte, until: window?.lt, limit, cursor: cursor?.venue });
    return { data: page.trades, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor === null ? null : encodeCursor({ venue: page.nextCursor }) };
  }
  if (cursor && 'venue' in cursor) throw invalidRequest('cursor', 'cursor is not one this API returned.');
  const rows = await ourTradesPage(db, market.id, window, cursor as TapePosition | undefined, limit);
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: page.map(({ position: _position, ...trade }) => trade),
    hasMore,
    nextCursor: hasMore ? encodeCursor(page[page.length - 1]!.position) : null,
  };
}
