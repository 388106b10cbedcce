import { queryRow, type SqlClient } from '../../db/sql';
import { Prisma, type Market } from '../../generated/prisma/client';

/** A market's row over `pg` directly (core/db/sql.ts): read by every order and by the uncached GET of a market. */
const MARKET_COLUMNS = Prisma.raw(
  'id, environment, venue, venue_market_id, question_key, title, description, category, status, tick_size, min_size, fair_value, ' +
    'close_time, price_ranges, fee_type, fee_multiplier, fractional_trading, created_at, updated_at, ' +
    'result, settlement_value, settled_at, workspace_id, event_id, venue_volume',
);

export function findMarket(sql: SqlClient, id: string): Promise<Omit<Market, 'searchVector'> | undefined> {
  return queryRow(sql, Prisma.sql`SELECT ${MARKET_COLUMNS} FROM markets WHERE id = ${id}`);
}
