import { Decimal, roundAveragePrice, roundMoney } from './decimals';

/**
 * How a fill changes a position (one market, one side) and cash. Average cost excludes fees; every
 * fee is realized when paid. Buying raises the position at a new weighted average cost; selling
 * reduces it and realizes (price - average cost) x quantity. The average cost is an average price
 * and money is kept at storage scale, both as the decimal module rounds them, so every figure of the
 * effect is stored exactly.
 */
export interface PositionState {
  quantity: Decimal;
  averageCost: Decimal;
}

export interface FillEffect {
  position: PositionState;
  /** price x quantity, the fill's traded value. */
  notional: Decimal;
  realizedPnl: Decimal;
  cashChange: Decimal;
}

export function applyFill(
  position: PositionState,
  fill: { action: 'buy' | 'sell'; price: Decimal; quantity: Decimal; fee: Decimal },
): FillEffect {
  const notional = roundMoney(fill.price.mul(fill.quantity));
  if (fill.action === 'buy') {
    const quantity = position.quantity.add(fill.quantity);
    const averageCost = position.quantity.mul(position.averageCost).add(notional).div(quantity);
    return {
      position: { quantity, averageCost: roundAveragePrice(averageCost) },
      notional,
      realizedPnl: roundMoney(fill.fee.neg()),
      cashChange: roundMoney(notional.add(fill.fee).neg()),
    };
  }
  if (fill.quantity.gt(position.quantity)) {
    throw new Error(`sell of ${fill.quantity} exceeds the position of ${position.quantity}`);
  }
  const quantity = position.quantity.sub(fill.quantity);
  return {
    position: { quantity, averageCost: quantity.isZero() ? new Decimal(0) : position.averageCost },
    notional,
    realizedPnl: roundMoney(fill.price.sub(position.averageCost).mul(fill.quantity).sub(fill.fee)),
    cashChange: roundMoney(notional.sub(fill.fee)),
  };
}

/** Unrealized P&L of a position marked at `mark` (that side's price). */
export function unrealizedPnl(position: PositionState, mark: Decimal): Decimal {
  return mark.sub(position.averageCost).mul(position.quantity);
}
