import Decimal from 'decimal.js';
import type { Prisma } from '../generated/prisma/client';
import type { SubaccountExposure } from '../domain/preTradeRisk';

type Tx = Prisma.TransactionClient;

export const WORKING_STATUSES = ['pending', 'open', 'partially_filled', 'unknown'] as const;

/**
 * What the pre-trade checks need to know about a subaccount, in one SQL round trip: positions,
 * working orders (what they still want to buy or sell), today's realized P&L (UTC) and cash.
 */
export async function loadExposure(
  tx: Tx,
  subaccount: { id: string; cashBalance: Decimal.Value; environment: 'test' | 'live' },
  market: { id: string; side: 'yes' | 'no' },
): Promise<SubaccountExposure> {
  const [row] = await tx.$queryRaw<
    {
      position: string;
      open_buys_here: string;
      open_sells_here: string;
      positions_cost: string;
      open_buy_notional: string;
      open_orders: number;
      orders_last_minute: number;
      realized_today: string;
    }[]
  >`
    WITH working AS (
      SELECT market_id, side, action, (quantity - filled_quantity) AS remaining, price
        FROM orders
       WHERE subaccount_id = ${subaccount.id}
         AND status IN ('pending', 'open', 'partially_filled', 'unknown')
    )
    SELECT
      coalesce((SELECT quantity FROM positions WHERE subaccount_id = ${subaccount.id} AND market_id = ${market.id} AND side = ${market.side}::"OrderSide"), 0)::text AS position,
      coalesce((SELECT sum(remaining) FROM working WHERE market_id = ${market.id} AND side = ${market.side}::"OrderSide" AND action = 'buy'), 0)::text AS open_buys_here,
      coalesce((SELECT sum(remaining) FROM working WHERE market_id = ${market.id} AND side = ${market.side}::"OrderSide" AND action = 'sell'), 0)::text AS open_sells_here,
      coalesce((SELECT sum(quantity * average_cost) FROM positions WHERE subaccount_id = ${subaccount.id}), 0)::text AS positions_cost,
      coalesce((SELECT sum(remaining * coalesce(price, 1)) FROM working WHERE action = 'buy'), 0)::text AS open_buy_notional,
      (SELECT count(*) FROM working)::int AS open_orders,
      (SELECT count(*) FROM orders WHERE subaccount_id = ${subaccount.id} AND created_at > now() - interval '60 seconds')::int AS orders_last_minute,
      coalesce((SELECT sum(realized_pnl) FROM fills WHERE subaccount_id = ${subaccount.id}
                 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0)::text AS realized_today`;
  const position = new Decimal(row.position);
  const openBuyNotional = new Decimal(row.open_buy_notional);
  return {
    positionIncludingOpenBuys: position.add(row.open_buys_here),
    grossExposure: new Decimal(row.positions_cost).add(openBuyNotional),
    openOrders: row.open_orders,
    ordersInLastMinute: row.orders_last_minute,
    realizedPnlToday: new Decimal(row.realized_today),
    availableCash: subaccount.environment === 'test' ? new Decimal(subaccount.cashBalance.toString()).sub(openBuyNotional) : null,
    sellableQuantity: position.sub(row.open_sells_here),
  };
}
