import { Decimal } from '../domain/decimals';
import type { Prisma } from '../generated/prisma/client';
import type { RiskLimitValues, SubaccountExposure } from '../domain/preTradeRisk';

type Tx = Prisma.TransactionClient;


export interface PreTradeState {
  exposure: SubaccountExposure;
  limits: RiskLimitValues;
  tradingHalted: boolean;
  /** The order that already has this client order id in the workspace, if any. */
  existingOrderId: string | null;
}

/**
 * Everything the pre-trade checks need, in one statement: the subaccount's limits and the
 * workspace kill switch, positions, working orders (what they still want to buy or sell), today's
 * realized P&L (UTC), cash, and whether the client order id is taken. Run it after locking the
 * subaccount row, in a statement of its own, so that its snapshot is taken after the lock.
 */
export async function loadPreTradeState(
  tx: Tx,
  subaccount: { id: string; workspaceId: string; cashBalance: Decimal.Value; environment: 'test' | 'live' },
  market: { id: string; side: 'yes' | 'no' },
  clientOrderId: string,
): Promise<PreTradeState> {
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
      max_order_notional: string | null;
      max_position_per_market: string | null;
      max_gross_exposure: string | null;
      max_daily_realized_loss: string | null;
      max_open_orders: number | null;
      max_orders_per_minute: number | null;
      trading_halted: boolean;
      existing_order_id: string | null;
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
      coalesce((SELECT realized_pnl FROM daily_pnl WHERE subaccount_id = ${subaccount.id}
                 AND day = (now() AT TIME ZONE 'UTC')::date), 0)::text AS realized_today,
      l.max_order_notional::text, l.max_position_per_market::text, l.max_gross_exposure::text,
      l.max_daily_realized_loss::text, l.max_open_orders, l.max_orders_per_minute,
      (SELECT trading_halted FROM workspaces WHERE id = ${subaccount.workspaceId}) AS trading_halted,
      (SELECT id FROM orders WHERE workspace_id = ${subaccount.workspaceId} AND client_order_id = ${clientOrderId}) AS existing_order_id
    FROM risk_limits l WHERE l.subaccount_id = ${subaccount.id}`;
  const position = new Decimal(row.position);
  const openBuyNotional = new Decimal(row.open_buy_notional);
  const decimal = (value: string | null) => (value === null ? null : new Decimal(value));
  return {
    exposure: {
      positionIncludingOpenBuys: position.add(row.open_buys_here),
      grossExposure: new Decimal(row.positions_cost).add(openBuyNotional),
      openOrders: row.open_orders,
      ordersInLastMinute: row.orders_last_minute,
      realizedPnlToday: new Decimal(row.realized_today),
      availableCash: subaccount.environment === 'test' ? new Decimal(subaccount.cashBalance.toString()).sub(openBuyNotional) : null,
      sellableQuantity: position.sub(row.open_sells_here),
    },
    limits: {
      maxOrderNotional: decimal(row.max_order_notional),
      maxPositionPerMarket: decimal(row.max_position_per_market),
      maxGrossExposure: decimal(row.max_gross_exposure),
      maxDailyRealizedLoss: decimal(row.max_daily_realized_loss),
      maxOpenOrders: row.max_open_orders,
      maxOrdersPerMinute: row.max_orders_per_minute,
    },
    tradingHalted: row.trading_halted,
    existingOrderId: row.existing_order_id,
  };
}
