import { Decimal } from './decimals';
import { DomainError } from './errors';

/**
 * Pre-trade checks, run before anything reaches a venue, in a fixed order: the workspace kill
 * switch, then every limit of the subaccount, then what it can pay for or sell. A rejection names
 * the limit (the `limit` of the error) and gives the figures.
 */
export interface RiskLimitValues {
  maxOrderNotional: Decimal | null;
  maxPositionPerMarket: Decimal | null;
  maxGrossExposure: Decimal | null;
  maxDailyRealizedLoss: Decimal | null;
  maxOpenOrders: number | null;
  maxOrdersPerMinute: number | null;
}

export interface ProposedOrder {
  action: 'buy' | 'sell';
  quantity: Decimal;
  /** The most the order can cost or bring, per contract: its limit price, or 1 for a market buy. */
  worstPrice: Decimal;
  /** The most it can pay in fees (a buy must be able to pay them too). */
  maxFee: Decimal;
}

export interface SubaccountExposure {
  /** Contracts held on this market and side, plus those still wanted by open buy orders there. */
  positionIncludingOpenBuys: Decimal;
  /** Cost of all positions plus the notional of all open buy orders. */
  grossExposure: Decimal;
  openOrders: number;
  ordersInLastMinute: number;
  realizedPnlToday: Decimal;
  /** Cash not reserved by open buy orders (test subaccounts; null where the venue holds the cash). */
  availableCash: Decimal | null;
  /** Contracts held on this market and side, less those already offered by open sell orders. */
  sellableQuantity: Decimal;
}

export class RiskLimitExceeded extends DomainError {
  constructor(
    readonly limit: string,
    message: string,
  ) {
    super('risk_limit_exceeded', message);
  }
}

export function checkPreTradeRisk(
  order: ProposedOrder,
  limits: RiskLimitValues,
  exposure: SubaccountExposure,
  tradingHalted: boolean,
): void {
  if (tradingHalted) {
    throw new RiskLimitExceeded('kill_switch', 'The workspace kill switch is on: no order is accepted until it is turned off.');
  }
  const notional = order.worstPrice.mul(order.quantity);
  const buying = order.action === 'buy';
  if (limits.maxOrderNotional !== null && notional.gt(limits.maxOrderNotional)) {
    throw new RiskLimitExceeded('max_order_notional', `Order notional ${notional.toFixed()} exceeds max_order_notional ${limits.maxOrderNotional.toFixed()}.`);
  }
  if (buying && limits.maxPositionPerMarket !== null) {
    const after = exposure.positionIncludingOpenBuys.add(order.quantity);
    if (after.gt(limits.maxPositionPerMarket)) {
      throw new RiskLimitExceeded('max_position_per_market', `Position would reach ${after.toFixed()} contracts, above max_position_per_market ${limits.maxPositionPerMarket.toFixed()}.`);
    }
  }
  if (buying && limits.maxGrossExposure !== null) {
    const after = exposure.grossExposure.add(notional);
    if (after.gt(limits.maxGrossExposure)) {
      throw new RiskLimitExceeded('max_gross_exposure', `Gross exposure would reach ${after.toFixed()}, above max_gross_exposure ${limits.maxGrossExposure.toFixed()}.`);
    }
  }
  if (limits.maxDailyRealizedLoss !== null && exposure.realizedPnlToday.neg().gte(limits.maxDailyRealizedLoss)) {
    throw new RiskLimitExceeded('max_daily_realized_loss', `Realized loss today is ${exposure.realizedPnlToday.neg().toFixed()}, at or above max_daily_realized_loss ${limits.maxDailyRealizedLoss.toFixed()}.`);
  }
  if (limits.maxOpenOrders !== null && exposure.openOrders + 1 > limits.maxOpenOrders) {
    throw new RiskLimitExceeded('max_open_orders', `${exposure.openOrders} orders are open; max_open_orders is ${limits.maxOpenOrders}.`);
  }
  if (limits.maxOrdersPerMinute !== null && exposure.ordersInLastMinute + 1 > limits.maxOrdersPerMinute) {
    // The count stops at the limit (services/risk/limitUsage.ts): "or more".
    throw new RiskLimitExceeded('max_orders_per_minute', `${exposure.ordersInLastMinute} orders or more in the last minute; max_orders_per_minute is ${limits.maxOrdersPerMinute}.`);
  }
  const cost = notional.add(order.maxFee);
  if (buying && exposure.availableCash !== null && cost.gt(exposure.availableCash)) {
    throw new DomainError('insufficient_funds', `The order may cost ${cost.toFixed()} with fees but only ${exposure.availableCash.toFixed()} is available.`);
  }
  if (!buying && order.quantity.gt(exposure.sellableQuantity)) {
    throw new DomainError('insufficient_position', `Selling ${order.quantity.toFixed()} contracts, but only ${exposure.sellableQuantity.toFixed()} are held and not already offered.`);
  }
}

/**
 * The subaccount's exposure without one of its working limit orders (`remaining` at `price`): what
 * an amend checks the order's new terms against, in its place. A buy gives back its open quantity
 * here, its notional and its reserved cash; a sell what it offered; either its open-order slot.
 * An amend is no new order: it does not count against max_orders_per_minute.
 */
export function exposureWithout(exposure: SubaccountExposure, order: { action: 'buy' | 'sell'; remaining: Decimal; price: Decimal }): SubaccountExposure {
  const slotFreed = { openOrders: exposure.openOrders - 1, ordersInLastMinute: 0 };
  if (order.action === 'sell') return { ...exposure, ...slotFreed, sellableQuantity: exposure.sellableQuantity.add(order.remaining) };
  const notional = order.price.mul(order.remaining);
  return {
    ...exposure,
    ...slotFreed,
    positionIncludingOpenBuys: exposure.positionIncludingOpenBuys.sub(order.remaining),
    grossExposure: exposure.grossExposure.sub(notional),
    availableCash: exposure.availableCash === null ? null : exposure.availableCash.add(notional),
  };
}
