import { Decimal, roundShare } from './decimals';
import type { RiskLimitValues } from './preTradeRisk';

/**
 * What a subaccount uses now of each of its limits, in one place for the pre-trade check (which
 * adds the proposed order to these figures) and the risk statistics (which show them against the
 * limits). Working orders count with their remaining quantity; a market buy at the worst price, 1.
 */
export interface LimitUsage {
  /** The largest working order: remaining quantity x price (max_order_notional). */
  largestOrderNotional: Decimal;
  /** The largest, over markets and sides, of contracts held plus those wanted by open buys (max_position_per_market). */
  largestPositionIncludingOpenBuys: Decimal;
  /** Cost of all positions: quantity x average cost. */
  positionsCost: Decimal;
  /** Remaining quantity x price of every open buy; cash they reserve. */
  openBuyNotional: Decimal;
  openOrders: number;
  ordersInLastMinute: number;
  /** Realized P&L of the UTC day (negative: a loss). */
  realizedPnlToday: Decimal;
}

/** Positions at cost plus the notional of open buys (max_gross_exposure). */
export const grossExposure = (usage: LimitUsage): Decimal => usage.positionsCost.add(usage.openBuyNotional);

/** Today's realized loss, zero on a winning day (max_daily_realized_loss). */
export const realizedLossToday = (usage: LimitUsage): Decimal => Decimal.max(0, usage.realizedPnlToday.neg());

export interface LimitUse {
  /** The limit's name, as errors name it (`limit` of risk_limit_exceeded). */
  limit: string;
  /** The limit; null when there is none. */
  value: Decimal | null;
  current: Decimal;
  /** current / value to 4 places; null without a limit or with a limit of zero. */
  utilisation: Decimal | null;
}

/** Every limit with what the subaccount uses of it, in the order the pre-trade check tests them. */
export function limitUtilisation(limits: RiskLimitValues, usage: LimitUsage): LimitUse[] {
  const use = (limit: string, value: Decimal.Value | null, current: Decimal): LimitUse => {
    const bound = value === null ? null : new Decimal(value);
    return { limit, value: bound, current, utilisation: bound === null || bound.isZero() ? null : roundShare(current.div(bound)) };
  };
  return [
    use('max_order_notional', limits.maxOrderNotional, usage.largestOrderNotional),
    use('max_position_per_market', limits.maxPositionPerMarket, usage.largestPositionIncludingOpenBuys),
    use('max_gross_exposure', limits.maxGrossExposure, grossExposure(usage)),
    use('max_daily_realized_loss', limits.maxDailyRealizedLoss, realizedLossToday(usage)),
    use('max_open_orders', limits.maxOpenOrders, new Decimal(usage.openOrders)),
    use('max_orders_per_minute', limits.maxOrdersPerMinute, new Decimal(usage.ordersInLastMinute)),
  ];
}
