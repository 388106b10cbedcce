import Decimal from 'decimal.js';
import { applyFill, cashChangeOf, replayFills, unrealizedPnl, type PositionState } from '../../core/domain/positionAccounting';

const D = (value: Decimal.Value) => new Decimal(value);
const position = (quantity: Decimal.Value, averageCost: Decimal.Value): PositionState => ({ quantity: D(quantity), averageCost: D(averageCost) });
const fill = (action: 'buy' | 'sell', quantity: Decimal.Value, price: Decimal.Value, fee: Decimal.Value) => ({ action, quantity: D(quantity), price: D(price), fee: D(fee) });

/** The effect as plain strings, for exact comparison. */
function effect(from: PositionState, f: ReturnType<typeof fill>) {
  const result = applyFill(from, f);
  return {
    quantity: result.position.quantity.toFixed(),
    averageCost: result.position.averageCost.toFixed(),
    realizedPnl: result.realizedPnl.toFixed(),
    cashChange: result.cashChange.toFixed(),
  };
}

describe('applyFill', () => {
  it('opens a position at the fill price; the fee is realized and paid in cash', () => {
    expect(effect(position(0, 0), fill('buy', 100, '0.40', '1.68'))).toEqual({ quantity: '100', averageCost: '0.4', realizedPnl: '-1.68', cashChange: '-41.68' });
  });

  it('adds to a position at the weighted average cost (fees excluded)', () => {
    // (100 x 0.40 + 50 x 0.46) / 150 = 63 / 150 = 0.42
    expect(effect(position(100, '0.40'), fill('buy', 50, '0.46', '0.87'))).toEqual({ quantity: '150', averageCost: '0.42', realizedPnl: '-0.87', cashChange: '-23.87' });
  });

  it('rounds the average cost as every average price: 8 places, half away from zero', () => {
    // (1 x 0.10 + 2 x 0.20) / 3 = 0.1666666... -> 0.16666667
    expect(effect(position(1, '0.10'), fill('buy', 2, '0.20', 0)).averageCost).toBe('0.16666667');
    // A tie at the 9th place: (31 x 0.0001 + 1 x 0.0002) / 32 = 0.000103125 -> 0.00010313 (away from zero, not to even)
    expect(effect(position(31, '0.0001'), fill('buy', 1, '0.0002', 0)).averageCost).toBe('0.00010313');
  });

  it('reduces a position at its average cost and realizes (price - cost) x quantity less the fee', () => {
    // (0.55 - 0.42) x 60 - 0.50 = 7.30; cash 60 x 0.55 - 0.50 = 32.50
    expect(effect(position(150, '0.42'), fill('sell', 60, '0.55', '0.50'))).toEqual({ quantity: '90', averageCost: '0.42', realizedPnl: '7.3', cashChange: '32.5' });
  });

  it('realizes a loss when selling below cost', () => {
    // (0.30 - 0.42) x 90 - 0.40 = -11.20
    expect(effect(position(90, '0.42'), fill('sell', 90, '0.30', '0.40'))).toEqual({ quantity: '0', averageCost: '0', realizedPnl: '-11.2', cashChange: '26.6' });
  });

  it('closes a position: no contracts left, no average cost', () => {
    const closed = applyFill(position(10, '0.25'), fill('sell', 10, '0.25', 0));
    expect(closed.position.quantity.isZero()).toBe(true);
    expect(closed.position.averageCost.isZero()).toBe(true);
    expect(closed.realizedPnl.isZero()).toBe(true);
  });

  it('never flips a position: selling more than is held is an error, not a short', () => {
    expect(() => applyFill(position(10, '0.25'), fill('sell', 11, '0.30', 0))).toThrow('sell of 11 exceeds the position of 10');
    expect(() => applyFill(position(0, 0), fill('sell', 1, '0.30', 0))).toThrow();
  });
});

describe('replayFills', () => {
  it('applies the fills in order from a flat position, each effect as applyFill gives it', () => {
    const fills = [fill('buy', 10, '0.40', '0.01'), fill('buy', 10, '0.60', '0.01'), fill('sell', 5, '0.70', '0.01')];
    const replay = replayFills(fills);
    if (!replay.ok) throw new Error('oversold');
    expect(replay.effects.map((e) => e.realizedPnl.toFixed())).toEqual(['-0.01', '-0.01', '0.99']);
    expect([replay.position.quantity.toFixed(), replay.position.averageCost.toFixed()]).toEqual(['15', '0.5']);
    // Without the first buy: the sell realizes against 0.60.
    const without = replayFills(fills.slice(1));
    if (!without.ok) throw new Error('oversold');
    expect(without.effects.map((e) => e.realizedPnl.toFixed())).toEqual(['-0.01', '0.49']);
    expect([without.position.quantity.toFixed(), without.position.averageCost.toFixed()]).toEqual(['5', '0.6']);
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
  it('is (mark - average cost) x quantity, negative below cost', () => {
    expect(unrealizedPnl(position(90, '0.42'), D('0.50')).toFixed()).toBe('7.2');
    expect(unrealizedPnl(position(90, '0.42'), D('0.40')).toFixed()).toBe('-1.8');
    expect(unrealizedPnl(position(0, 0), D('0.40')).toFixed()).toBe('0');
  });
});
