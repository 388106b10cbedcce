import { Decimal, roundAveragePrice, roundMoney } from './decimals';

/**
 * How a fill changes a position (one market, one side) and cash. The position keeps its cost
 * basis, fees excluded, as an exact sum at money scale (docs/decimals.md, "Cost basis"); every fee
 * is realized when paid. Buying adds the fill's notional to the cost basis; selling releases the
 * held cost in proportion (rounded once to money scale, or all of it when nothing is left) and
 * realizes proceeds minus released cost. The average cost is for display only (averageCostOf):
 * nothing is computed from it.
 */
export interface PositionState {
  quantity: Decimal;
  /** What the contracts held cost, fees excluded. */
  cost: Decimal;
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
    return {
      position: { quantity: position.quantity.add(fill.quantity), cost: position.cost.add(notional) },
      notional,
      realizedPnl: roundMoney(fill.fee.neg()),
      cashChange: cashChangeOf(fill),
    };
  }
  if (fill.quantity.gt(position.quantity)) {
    throw new Error(`sell of ${fill.quantity} exceeds the position of ${position.quantity}`);
  }
  const quantity = position.quantity.sub(fill.quantity);
  const released = quantity.isZero() ? position.cost : roundMoney(position.cost.mul(fill.quantity).div(position.quantity));
  return {
    position: { quantity, cost: position.cost.sub(released) },
    notional,
    realizedPnl: notional.sub(released).sub(fill.fee),
    cashChange: cashChangeOf(fill),
  };
}

/** The average cost per contract of a position, for display: its cost basis over its quantity, rounded once (0 when flat). */
export function averageCostOf(position: PositionState): Decimal {
  return position.quantity.isZero() ? new Decimal(0) : roundAveragePrice(position.cost.div(position.quantity));
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
  let position: PositionState = { quantity: new Decimal(0), cost: new Decimal(0) };
  const effects: FillEffect[] = [];
  for (const [index, fill] of fills.entries()) {
    if (fill.action === 'sell' && fill.quantity.gt(position.quantity)) return { ok: false, index, held: position.quantity };
    const effect = applyFill(position, fill);
    effects.push(effect);
    position = effect.position;
  }
  return { ok: true, position, effects };
}

/** Unrealized P&L of a position marked at `mark` (that side's price): its value at the mark less its cost basis. */
export function unrealizedPnl(position: PositionState, mark: Decimal): Decimal {
  return mark.mul(position.quantity).sub(position.cost);
}
