import { Decimal } from '../domain/decimals';
import type { Db } from '../db/prismaClient';
import { sqlList } from '../db/sqlLists';
import { Prisma } from '../generated/prisma/client';
import type { LimitUsage } from '../domain/limitUsage';
import { WORKING_STATUSES } from '../domain/orderLifecycle';

/** The columns limitUsageStatement gives for each subaccount. */
export interface LimitUsageRow {
  subaccount_id: string;
  largest_order_notional: string;
  largest_position: string;
  positions_cost: string;
  open_buy_notional: string;
  open_orders: number;
  orders_last_minute: number;
  realized_today: string;
}

/**
 * The one statement that measures limit use (see domain/limitUsage.ts), one row per subaccount.
 * The pre-trade check adds its own columns and joins (`more`) so that its figures come from one
 * snapshot; its `working` CTE (market_id, side, action, remaining, notional of every working order
 * of the subaccounts) is there to use.
 */
export function limitUsageStatement(subaccountIds: readonly string[], more: { columns: Prisma.Sql; joins: Prisma.Sql } = { columns: Prisma.empty, joins: Prisma.empty }): Prisma.Sql {
  const ids = [...subaccountIds];
  return Prisma.sql`
    WITH working AS (
      SELECT subaccount_id, market_id, side, action, (quantity - filled_quantity) AS remaining,
             (quantity - filled_quantity) * coalesce(price, 1) AS notional
        FROM orders
       WHERE subaccount_id = ANY(${ids}) AND status IN ${sqlList(WORKING_STATUSES)}
    ), held_or_wanted AS (
      SELECT subaccount_id, market_id, side, sum(quantity) AS quantity FROM (
        SELECT subaccount_id, market_id, side, quantity FROM positions WHERE subaccount_id = ANY(${ids})
        UNION ALL
        SELECT subaccount_id, market_id, side, remaining FROM working WHERE action = 'buy') AS contracts
       GROUP BY subaccount_id, market_id, side
    )
    SELECT s.id AS subaccount_id,
      coalesce((SELECT max(notional) FROM working w WHERE w.subaccount_id = s.id), 0)::text AS largest_order_notional,
      greatest(coalesce((SELECT max(quantity) FROM held_or_wanted h WHERE h.subaccount_id = s.id), 0), 0)::text AS largest_position,
      coalesce((SELECT sum(quantity * average_cost) FROM positions p WHERE p.subaccount_id = s.id), 0)::text AS positions_cost,
      coalesce((SELECT sum(notional) FROM working w WHERE w.subaccount_id = s.id AND w.action = 'buy'), 0)::text AS open_buy_notional,
      (SELECT count(*) FROM working w WHERE w.subaccount_id = s.id)::int AS open_orders,
      (SELECT count(*) FROM orders o WHERE o.subaccount_id = s.id AND o.created_at > now() - interval '60 seconds')::int AS orders_last_minute,
      coalesce((SELECT realized_pnl FROM daily_pnl d WHERE d.subaccount_id = s.id
                 AND d.day = (now() AT TIME ZONE 'UTC')::date), 0)::text AS realized_today
      ${more.columns}
    FROM unnest(${ids}::text[]) AS s(id) ${more.joins}`;
}

export const limitUsageOf = (row: LimitUsageRow): LimitUsage => ({
  largestOrderNotional: new Decimal(row.largest_order_notional),
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
  const rows = await db.$queryRaw<LimitUsageRow[]>(limitUsageStatement(subaccountIds));
  return new Map(rows.map((row) => [row.subaccount_id, limitUsageOf(row)]));
}
