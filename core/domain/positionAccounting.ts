import Decimal from 'decimal.js';

/**
 * How a fill changes a position (one market, one side) and cash. Average cost excludes fees; every
 * fee is realized when paid. Buying raises the position at a new weighted average cost; selling
 * reduces it and realizes (price - average cost) x quantity.
 */
export interface PositionState {
  quantity: Decimal;
  averageCost: Decimal;
}

export interface FillEffect {
  position: PositionState;
  realizedPnl: Decimal;
  cashChange: Decimal;
}

export function applyFill(
  position: PositionState,
  fill: { action: 'buy' | 'sell'; price: Decimal; quantity: Decimal; fee: Decimal },
): FillEffect {
  const notional = fill.price.mul(fill.quantity);
  if (fill.action === 'buy') {
    const quantity = position.quantity.add(fill.quantity);
    const averageCost = position.quantity.mul(position.averageCost).add(notional).div(quantity);
    return {
      position: { quantity, averageCost: averageCost.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN) },
      realizedPnl: fill.fee.neg(),
      cashChange: notional.add(fill.fee).neg(),
    };
  }
  if (fill.quantity.gt(position.quantity)) {
    throw new Error(`sell of ${fill.quantity} exceeds the position of ${position.quantity}`);
  }
  const quantity = position.quantity.sub(fill.quantity);
  return {
    position: { quantity, averageCost: quantity.isZero() ? new Decimal(0) : position.averageCost },
    realizedPnl: fill.price.sub(position.averageCost).mul(fill.quantity).sub(fill.fee),
    cashChange: notional.sub(fill.fee),
  };
}

/** Unrealized P&L of a position marked at `mark` (that side's price). */
export function unrealizedPnl(position: PositionState, mark: Decimal): Decimal {
  return mark.sub(position.averageCost).mul(position.quantity);
}
