import Decimal from 'decimal.js';
import { applyFill, averageCostOf, cashChangeOf, replayFills, unrealizedPnl, type PositionState } from '../../core/domain/positionAccounting';

const D = (value: Decimal.Value) => new Decimal(value);
const position = (quantity: Decimal.Value, cost: Decimal.Value): PositionState => ({ quantity: D(quantity), cost: D(cost) });
const fill = (action: 'buy' | 'sell', quantity: Decimal.Value, price: Decimal.Value, fee: Decimal.Value) => ({ action, quantity: D(quantity), price: D(price), fee: D(fee) });

/** The effect as plain strings, for exact comparison. */
function effect(from: PositionState, f: ReturnType<typeof fill>) {
  const result = applyFill(from, f);
  return {
    quantity: result.position.quantity.toFixed(),
    cost: result.position.cost.toFixed(),
    realizedPnl: result.realizedPnl.toFixed(),
    cashChange: result.cashChange.toFixed(),
  };
}

describe('applyFill', () => {
  it('opens a position at the fill’s notional; the fee is realized and paid in cash', () => {
    expect(effect(position(0, 0), fill('buy', 100, '0.40', '1.68'))).toEqual({ quantity: '100', cost: '40', realizedPnl: '-1.68', cashChange: '-41.68' });
  });

  it('adds a buy’s notional to the cost basis (fees excluded)', () => {
    expect(effect(position(100, 40), fill('buy', 50, '0.46', '0.87'))).toEqual({ quantity: '150', cost: '63', realizedPnl: '-0.87', cashChange: '-23.87' });
  });

  it('keeps the cost exact where an average would not be: 10 @ 0.63 and 20 @ 0.64 cost 19.1', () => {
    const bought = replayFills([fill('buy', 10, '0.63', 0), fill('buy', 20, '0.64', 0)]);
    if (!bought.ok) throw new Error('oversold');
    expect(bought.position.cost.toFixed()).toBe('19.1');
    expect(averageCostOf(bought.position).toFixed()).toBe('0.63666667'); // for display only
    expect(unrealizedPnl(bought.position, D('0.64')).toFixed()).toBe('0.1'); // 30 x 0.64 - 19.1, not 0.0999999
  });

  it('releases the held cost in proportion on a sell, rounded once, and all of it on the last: the releases add up to the cost', () => {
    // 19.1 x 10 / 30 = 6.3666... -> 6.366667 released; 7 - 6.366667 realized.
    const first = applyFill(position(30, '19.1'), fill('sell', 10, '0.70', 0));
    expect([first.position.cost.toFixed(), first.realizedPnl.toFixed()]).toEqual(['12.733333', '0.633333']);
    // The last sell releases exactly what is left: 14 - 12.733333.
    const last = applyFill(first.position, fill('sell', 20, '0.70', 0));
    expect([last.position.quantity.toFixed(), last.position.cost.toFixed(), last.realizedPnl.toFixed()]).toEqual(['0', '0', '1.266667']);
    // 30 x 0.70 - 19.1, exactly.
    expect(first.realizedPnl.add(last.realizedPnl).toFixed()).toBe('1.9');
  });

  it('realizes proceeds less released cost less the fee', () => {
    // 60 of 150 release 63 x 60 / 150 = 25.2; 33 - 25.2 - 0.5 = 7.3; cash 33 - 0.5
    expect(effect(position(150, 63), fill('sell', 60, '0.55', '0.50'))).toEqual({ quantity: '90', cost: '37.8', realizedPnl: '7.3', cashChange: '32.5' });
  });

  it('realizes a loss when selling below cost', () => {
    // 27 - 37.8 - 0.40 = -11.20
    expect(effect(position(90, '37.8'), fill('sell', 90, '0.30', '0.40'))).toEqual({ quantity: '0', cost: '0', realizedPnl: '-11.2', cashChange: '26.6' });
  });

  it('never flips a position: selling more than is held is an error, not a short', () => {
    expect(() => applyFill(position(10, '2.5'), fill('sell', 11, '0.30', 0))).toThrow('sell of 11 exceeds the position of 10');
    expect(() => applyFill(position(0, 0), fill('sell', 1, '0.30', 0))).toThrow();
  });
});

describe('averageCostOf', () => {
  it('is the cost basis over the quantity, rounded as every average price: 8 places, half away from zero; 0 when flat', () => {
    expect(averageCostOf(position(3, '0.5')).toFixed()).toBe('0.16666667');
    // A tie at the 9th place: 0.0033 / 32 = 0.000103125 -> 0.00010313 (away from zero, not to even)
    expect(averageCostOf(position(32, '0.0033')).toFixed()).toBe('0.00010313');
    expect(averageCostOf(position(0, 0)).toFixed()).toBe('0');
  });
});

describe('replayFills', () => {
  it('applies the fills in order from a flat position, each effect as applyFill gives it', () => {
    const fills = [fill('buy', 10, '0.40', '0.01'), fill('buy', 10, '0.60', '0.01'), fill('sell', 5, '0.70', '0.01')];
    const replay = replayFills(fills);
    if (!replay.ok) throw new Error('oversold');
    expect(replay.effects.map((e) => e.realizedPnl.toFixed())).toEqual(['-0.01', '-0.01', '0.99']);
    expect([replay.position.quantity.toFixed(), replay.position.cost.toFixed()]).toEqual(['15', '7.5']);
    // Without the first buy: the sell realizes against 0.60.
    const without = replayFills(fills.slice(1));
    if (!without.ok) throw new Error('oversold');
    expect(without.effects.map((e) => e.realizedPnl.toFixed())).toEqual(['-0.01', '0.49']);
    expect([without.position.quantity.toFixed(), without.position.cost.toFixed()]).toEqual(['5', '3']);
  });

  it('says which fill sells more than is held, and how much was held', () => {
    const replay = replayFills([fill('buy', 3, '0.40', 0), fill('sell', 2, '0.50', 0), fill('sell', 2, '0.50', 0)]);
    expect(replay.ok).toBe(false);
    if (!replay.ok) expect([replay.index, replay.held.toFixed()]).toEqual([2, '1']);
    expect(replayFills([]).ok).toBe(true);
  });
});

describe('cashChangeOf', () => {
  it('is the cash applyFill moves, whatever the position', () => {
    expect(cashChangeOf(fill('buy', 10, '0.40', '0.02')).toFixed()).toBe('-4.02');
    expect(cashChangeOf(fill('sell', 10, '0.40', '0.02')).toFixed()).toBe('3.98');
  });
});

describe('unrealizedPnl', () => {
  it('is the value at the mark less the cost basis, negative below cost', () => {
    expect(unrealizedPnl(position(90, '37.8'), D('0.50')).toFixed()).toBe('7.2');
    expect(unrealizedPnl(position(90, '37.8'), D('0.40')).toFixed()).toBe('-1.8');
    expect(unrealizedPnl(position(0, 0), D('0.40')).toFixed()).toBe('0');
  });
});
