import { Decimal } from '../../domain/decimals';
import { grossExposure } from '../../domain/limitUsage';
import { queryPlain, type SqlClient } from '../../db/sql';
import { Prisma } from '../../generated/prisma/client';
import type { RiskLimitValues, SubaccountExposure } from '../../domain/preTradeRisk';
import { deadMansSwitchLapsed } from './deadMansSwitch';
import { limitUsageOf, limitUsageStatement, type LimitUsageRow } from './limitUsage';

export interface PreTradeState {
  exposure: SubaccountExposure;
  limits: RiskLimitValues;
  tradingHalted: boolean;
  /** A dead-man's switch covering the subaccount has lapsed (fired, or expired and about to be): docs/dead-mans-switch.md. */
  deadMansSwitchLapsed: boolean;
  /** The order that already has this client order id in the workspace, if any. */
  existingOrderId: string | null;
}

/**
 * Everything the pre-trade checks need, in one statement: the subaccount's limits, the
 * workspace kill switch and the dead-man's switches, its limit use (the statement the risk statistics use too), the position
 * and working orders on this market and side, cash, and whether the client order id is taken.
 * Run it after locking the subaccount row, in a statement of its own, so that its snapshot is
 * taken after the lock.
 */
export async function loadPreTradeState(
  tx: SqlClient,
  subaccount: { id: string; workspaceId: string; environment: 'test' | 'live' },
  market: { id: string; side: 'yes' | 'no' },
  clientOrderId: string,
): Promise<PreTradeState | null> {
  const [row] = await queryPlain<
    LimitUsageRow & {
      position: string;
      open_buys_here: string;
      open_sells_here: string;
      max_order_notional: string | null;
      max_position_per_market: string | null;
      max_gross_exposure: string | null;
      max_daily_realized_loss: string | null;
      max_open_orders: number | null;
      max_orders_per_minute: number | null;
      trading_halted: boolean;
      dead_mans_switch_lapsed: boolean;
      existing_order_id: string | null;
      cash_balance: string;
    }
  >(
    tx,
    limitUsageStatement([subaccount.id], {
      columns: Prisma.sql`,
      coalesce((SELECT quantity FROM positions WHERE subaccount_id = ${subaccount.id} AND market_id = ${market.id} AND side = ${market.side}::"OrderSide"), 0)::text AS position,
      coalesce((SELECT remaining FROM totals WHERE market_id = ${market.id} AND side = ${market.side}::"OrderSide" AND action = 'buy'), 0)::text AS open_buys_here,
      coalesce((SELECT remaining FROM totals WHERE market_id = ${market.id} AND side = ${market.side}::"OrderSide" AND action = 'sell'), 0)::text AS open_sells_here,
      l.max_order_notional::text, l.max_position_per_market::text, l.max_gross_exposure::text,
      l.max_daily_realized_loss::text, l.max_open_orders, l.max_orders_per_minute,
      (SELECT trading_halted FROM workspaces WHERE id = ${subaccount.workspaceId}) AS trading_halted,
      ${deadMansSwitchLapsed(subaccount)} AS dead_mans_switch_lapsed,
      (SELECT id FROM orders WHERE workspace_id = ${subaccount.workspaceId} AND client_order_id = ${clientOrderId}) AS existing_order_id,
      (SELECT cash_balance FROM subaccounts WHERE id = ${subaccount.id})::text AS cash_balance`,
    }),
  );
  if (!row) return null; // no such subaccount (its risk_limits row is created with it)
  const position = new Decimal(row.position);
  const usage = limitUsageOf(row);
  const decimal = (value: string | null) => (value === null ? null : new Decimal(value));
  return {
    exposure: {
      positionIncludingOpenBuys: position.add(row.open_buys_here),
      grossExposure: grossExposure(usage),
      openOrders: usage.openOrders,
      ordersInLastMinute: usage.ordersInLastMinute,
      realizedPnlToday: usage.realizedPnlToday,
      availableCash: subaccount.environment === 'test' ? new Decimal(row.cash_balance).sub(usage.openBuyNotional) : null,
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
    deadMansSwitchLapsed: row.dead_mans_switch_lapsed,
    existingOrderId: row.existing_order_id,
  };
}

