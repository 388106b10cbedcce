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

export interface PositionFill {
  action: 'buy' | 'sell';
  price: Decimal;
  quantity: Decimal;
  fee: Decimal;
}

/** What a fill does to cash, whatever the position: a buy pays price x quantity and the fee, a sell receives the one and pays the other. */
export function cashChangeOf(fill: PositionFill): Decimal {
  const notional = roundMoney(fill.price.mul(fill.quantity));
  return fill.action === 'buy' ? roundMoney(notional.add(fill.fee).neg()) : roundMoney(notional.sub(fill.fee));
}

export function applyFill(position: PositionState, fill: PositionFill): FillEffect {
  const notional = roundMoney(fill.price.mul(fill.quantity));
  if (fill.action === 'buy') {
    const quantity = position.quantity.add(fill.quantity);
    const averageCost = position.quantity.mul(position.averageCost).add(notional).div(quantity);
    return {
      position: { quantity, averageCost: roundAveragePrice(averageCost) },
      notional,
      realizedPnl: roundMoney(fill.fee.neg()),
      cashChange: cashChangeOf(fill),
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
    cashChange: cashChangeOf(fill),
  };
}

/** A position rebuilt from its fills: the final state and each fill's effect, in the fills' order. */
export type PositionReplay =
  | { ok: true; position: PositionState; effects: FillEffect[] }
  /** The fill at `index` sells more than the fills before it leave: the sequence cannot stand. */
  | { ok: false; index: number; held: Decimal };

/**
 * Applies `fills` in order from a flat position, as they were applied when recorded: what the
 * position and each fill's realized P&L are once a fill is taken out of the sequence (a reversed
 * fill), without it ever having happened.
 */
export function replayFills(fills: readonly PositionFill[]): PositionReplay {
  let position: PositionState = { quantity: new Decimal(0), averageCost: new Decimal(0) };
  const effects: FillEffect[] = [];
  for (const [index, fill] of fills.entries()) {
    if (fill.action === 'sell' && fill.quantity.gt(position.quantity)) return { ok: false, index, held: position.quantity };
    const effect = applyFill(position, fill);
    effects.push(effect);
    position = effect.position;
  }
  return { ok: true, position, effects };
}

/** Unrealized P&L of a position marked at `mark` (that side's price). */
export function unrealizedPnl(position: PositionState, mark: Decimal): Decimal {
  return mark.sub(position.averageCost).mul(position.quantity);
}
