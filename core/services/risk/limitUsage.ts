import { Decimal } from '../../domain/decimals';
import type { Db } from '../../db/prismaClient';
import { Prisma } from '../../generated/prisma/client';
import type { LimitUsage } from '../../domain/limitUsage';

/** The columns limitUsageStatement gives for each subaccount (`largest_order_notional` is null for the pre-trade check). */
export interface LimitUsageRow {
  subaccount_id: string;
  largest_order_notional: string | null;
  largest_position: string;
  positions_cost: string;
  open_buy_notional: string;
  open_orders: number;
  orders_last_minute: number;
  realized_today: string;
}

/**
 * The one statement that measures limit use (see domain/limitUsage.ts), one row per subaccount.
 * Working orders are read from their totals (`working_order_totals`, kept by a trigger on orders,
 * the CTE `totals`: market_id, side, action, orders, remaining, notional), so its cost does not grow
 * with the number of working orders, with one exception that only the risk statistics pay
 * (`statistics`): the orders of the last minute are counted exactly. The largest single working
 * order is one index lookup (`orders.working_notional`, computed by PostgreSQL, null once an order
 * is done). The pre-trade check counts the last minute's orders only up to its
 * limit (the index on subaccount and creation time stops there; 0 without a limit, which is never
 * tested) and adds its own columns and joins (`more`; `l` is the subaccount's risk_limits row) so
 * that its figures come from one snapshot.
 */
export function limitUsageStatement(
  subaccountIds: readonly string[],
  purpose: 'statistics' | { columns: Prisma.Sql },
): Prisma.Sql {
  const ids = [...subaccountIds];
  const statistics = purpose === 'statistics';
  const recent = Prisma.sql`SELECT 1 FROM orders o WHERE o.subaccount_id = s.id AND o.created_at > now() - interval '60 seconds'`;
  return Prisma.sql`
    WITH totals AS (
      SELECT subaccount_id, market_id, side, action, orders, remaining, notional
        FROM working_order_totals WHERE subaccount_id = ANY(${ids})
    ), held_or_wanted AS (
      SELECT subaccount_id, market_id, side, sum(quantity) AS quantity FROM (
        SELECT subaccount_id, market_id, side, quantity FROM positions WHERE subaccount_id = ANY(${ids})
        UNION ALL
        SELECT subaccount_id, market_id, side, remaining FROM totals WHERE action = 'buy') AS contracts
       GROUP BY subaccount_id, market_id, side
    )
    SELECT s.id AS subaccount_id,
      ${statistics
        ? Prisma.sql`coalesce((SELECT max(o.working_notional) FROM orders o WHERE o.subaccount_id = s.id), 0)::text`
        : Prisma.sql`NULL::text`} AS largest_order_notional,
      greatest(coalesce((SELECT max(quantity) FROM held_or_wanted h WHERE h.subaccount_id = s.id), 0), 0)::text AS largest_position,
      coalesce((SELECT sum(cost_basis) FROM positions p WHERE p.subaccount_id = s.id), 0)::text AS positions_cost,
      coalesce((SELECT sum(notional) FROM totals t WHERE t.subaccount_id = s.id AND t.action = 'buy'), 0)::text AS open_buy_notional,
      coalesce((SELECT sum(orders) FROM totals t WHERE t.subaccount_id = s.id), 0)::int AS open_orders,
      ${statistics
        ? Prisma.sql`(SELECT count(*) FROM (${recent}) AS recent)::int`
        : Prisma.sql`CASE WHEN l.max_orders_per_minute IS NULL THEN 0
                          ELSE (SELECT count(*) FROM (${recent} LIMIT l.max_orders_per_minute) AS recent)::int END`} AS orders_last_minute,
      coalesce((SELECT realized_pnl FROM daily_pnl d WHERE d.subaccount_id = s.id
                 AND d.day = (now() AT TIME ZONE 'UTC')::date), 0)::text AS realized_today
      ${statistics ? Prisma.empty : purpose.columns}
    FROM unnest(${ids}::text[]) AS s(id) ${statistics ? Prisma.empty : Prisma.sql`JOIN risk_limits l ON l.subaccount_id = s.id`}`;
}

/** A row of the statistics' statement as limit use. */
export const limitUsageOf = (row: LimitUsageRow): LimitUsage => ({
  largestOrderNotional: new Decimal(row.largest_order_notional ?? 0),
  largestPositionIncludingOpenBuys: new Decimal(row.largest_position),
  positionsCost: new Decimal(row.positions_cost),
  openBuyNotional: new Decimal(row.open_buy_notional),
  openOrders: row.open_orders,
  ordersInLastMinute: row.orders_last_minute,
  realizedPnlToday: new Decimal(row.realized_today),
});

/** Limit use of each of the subaccounts, by id. */
export async function loadLimitUsage(db: Db, subaccountIds: readonly string[]): Promise<Map<string, LimitUsage>> {
  if (subaccountIds.length === 0) return new Map();
  const rows = await db.$queryRaw<LimitUsageRow[]>(limitUsageStatement(subaccountIds, 'statistics'));
  return new Map(rows.map((row) => [row.subaccount_id, limitUsageOf(row)]));
}
