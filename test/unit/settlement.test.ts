import Decimal from 'decimal.js';
import { replayFills } from '../../core/domain/positionAccounting';
import { outcomeOf, payoutPerContract, settlePosition, settlementDrift, type MarketOutcome } from '../../core/domain/settlement';

const D = (value: Decimal.Value) => new Decimal(value);
const outcome = (input: Parameters<typeof outcomeOf>[0]): MarketOutcome => {
  const checked = outcomeOf(input);
  if (!checked.ok) throw new Error(checked.reason);
  return checked.outcome;
};
/** An outcome with its value as a string, for exact comparison. */
const read = (input: Parameters<typeof outcomeOf>[0]) => {
  const { result, settlementValue } = outcome(input);
  return { result, settlementValue: settlementValue?.toFixed() ?? null };
};
const strings = (settled: ReturnType<typeof settlePosition>) => ({
  quantity: settled.quantity.toFixed(), costBasis: settled.costBasis.toFixed(), payout: settled.payout.toFixed(), fee: settled.fee.toFixed(), realizedPnl: settled.realizedPnl.toFixed(),
});

describe('outcomeOf', () => {
  it('reads a result, or a settlement value alone as the result it means', () => {
    expect(read({ result: 'yes' })).toEqual({ result: 'yes', settlementValue: '1' });
    expect(read({ result: 'no' })).toEqual({ result: 'no', settlementValue: '0' });
    expect(read({ result: 'void' })).toEqual({ result: 'void', settlementValue: null });
    expect(read({ settlementValue: '0.37' })).toEqual({ result: 'scalar', settlementValue: '0.37' });
    expect(read({ settlementValue: '1' })).toEqual({ result: 'yes', settlementValue: '1' });
    expect(read({ settlementValue: '0' })).toEqual({ result: 'no', settlementValue: '0' });
    expect(read({ result: 'yes', settlementValue: '1.0' })).toEqual({ result: 'yes', settlementValue: '1' });
  });

  it('refuses what is not one outcome, saying why', () => {
    expect(outcomeOf({})).toEqual({ ok: false, reason: 'Give a result (yes, no, void) or a settlementValue.' });
    expect(outcomeOf({ settlementValue: '1.01' })).toMatchObject({ ok: false, reason: expect.stringContaining('from 0 to 1') });
    expect(outcomeOf({ settlementValue: '-0.1' })).toMatchObject({ ok: false });
    expect(outcomeOf({ settlementValue: 'half' })).toMatchObject({ ok: false });
    expect(outcomeOf({ result: 'yes', settlementValue: '0.5' })).toEqual({ ok: false, reason: 'A yes result settles at 1, not 0.5.' });
    expect(outcomeOf({ result: 'scalar' })).toEqual({ ok: false, reason: 'A scalar result needs its settlementValue.' });
    expect(outcomeOf({ result: 'void', settlementValue: '0.5' })).toMatchObject({ ok: false });
  });
});

describe('settlePosition', () => {
  // 10 @ 0.63 and 20 @ 0.64: cost basis 19.1, exactly.
  const bought = replayFills([
    { action: 'buy', quantity: D(10), price: D('0.63'), fee: D(0) },
    { action: 'buy', quantity: D(20), price: D('0.64'), fee: D(0) },
  ]);
  if (!bought.ok) throw new Error('oversold');
  const held = bought.position;

  it('pays a YES position 1 a contract at yes, 0 at no: realized = payout - cost basis', () => {
    expect(strings(settlePosition('yes', held, outcome({ result: 'yes' })))).toEqual({ quantity: '30', costBasis: '19.1', payout: '30', fee: '0', realizedPnl: '10.9' });
    expect(strings(settlePosition('yes', held, outcome({ result: 'no' })))).toEqual({ quantity: '30', costBasis: '19.1', payout: '0', fee: '0', realizedPnl: '-19.1' });
  });

  it('pays a NO position 1 minus the settlement value', () => {
    expect(strings(settlePosition('no', held, outcome({ result: 'no' })))).toMatchObject({ payout: '30', realizedPnl: '10.9' });
    expect(payoutPerContract('no', outcome({ settlementValue: '0.37' }))!.toFixed()).toBe('0.63');
  });

  it('pays both sides of a scalar value in proportion: a YES and a NO contract together pay 1', () => {
    const value = outcome({ settlementValue: '0.37' });
    const yes = settlePosition('yes', held, value);
    const no = settlePosition('no', { quantity: D(30), cost: D('11.4') }, value);
    expect([yes.payout.toFixed(), no.payout.toFixed()]).toEqual(['11.1', '18.9']);
    expect(yes.payout.add(no.payout).toFixed()).toBe('30');
    expect(yes.realizedPnl.toFixed()).toBe('-8'); // 11.1 - 19.1
  });

  it('returns the cost basis when the market is void: no P&L but the fee', () => {
    expect(strings(settlePosition('yes', held, outcome({ result: 'void' })))).toEqual({ quantity: '30', costBasis: '19.1', payout: '19.1', fee: '0', realizedPnl: '0' });
    expect(settlePosition('yes', held, outcome({ result: 'void' }), D('0.02')).realizedPnl.toFixed()).toBe('-0.02');
  });

  it('rounds a payout once, to money scale, half away from zero', () => {
    // 0.33 contracts x 0.3333335 = 0.110000055 -> 0.110000
    expect(settlePosition('yes', { quantity: D('0.33'), cost: D('0.1') }, outcome({ settlementValue: '0.3333335' })).payout.toFixed()).toBe('0.11');
    // 3 x 0.0000005 = 0.0000015 -> 0.000002
    expect(settlePosition('yes', { quantity: D(3), cost: D(0) }, outcome({ settlementValue: '0.0000005' })).payout.toFixed()).toBe('0.000002');
  });
});

describe('settlementDrift (venue - ours)', () => {
  const ours = (result: 'yes' | 'no' | 'scalar' | 'void', yes: number, no: number, payout: string) => ({ result, yesQuantity: D(yes), noQuantity: D(no), payout: D(payout) });
  const venue = (yes: number, no: number, payout: string) => ({ yesQuantity: D(yes), noQuantity: D(no), payout: D(payout) });
  const [NETS, HOLDS_BOTH] = [true, false];
  const figures = (drift: ReturnType<typeof settlementDrift>) => ({ quantity: drift.quantity?.toFixed() ?? null, payout: drift.payout?.toFixed() ?? null });

  it('is zero when the venue paid what we booked for the one side we held', () => {
    expect(figures(settlementDrift(ours('yes', 30, 0, '30'), venue(30, 0, '30'), NETS))).toEqual({ quantity: '0', payout: '0' });
    expect(figures(settlementDrift(ours('void', 0, 10, '5.5'), venue(0, 10, '5.5'), NETS))).toEqual({ quantity: '0', payout: '0' });
  });

  it('shows contracts and dollars the venue has beyond ours', () => {
    expect(figures(settlementDrift(ours('yes', 30, 0, '30'), venue(32, 0, '32'), NETS))).toEqual({ quantity: '2', payout: '2' });
    expect(figures(settlementDrift(ours('no', 0, 10, '10'), venue(0, 8, '8'), NETS))).toEqual({ quantity: '2', payout: '-2' });
  });

  it('compares a venue that nets: 30 YES and 10 NO booked are 20 YES there, the 10 pairs paid when they met', () => {
    // ours at yes: 30 x 1 + 10 x 0 = 30; the venue pays 20 for its 20 YES and paid 10 for the pairs earlier.
    expect(figures(settlementDrift(ours('yes', 30, 10, '30'), venue(20, 0, '20'), NETS))).toEqual({ quantity: '0', payout: '0' });
    // at a scalar 0.37: ours 30 x 0.37 + 10 x 0.63 = 17.4; the venue 20 x 0.37 = 7.4, plus 10 paid for the pairs.
    expect(figures(settlementDrift(ours('scalar', 30, 10, '17.4'), venue(20, 0, '7.4'), NETS))).toEqual({ quantity: '0', payout: '0' });
  });

  it('compares a venue that holds both outcomes as they are: 30 YES and 10 NO there too, each paid at settlement', () => {
    expect(figures(settlementDrift(ours('yes', 30, 10, '30'), venue(30, 10, '30'), HOLDS_BOTH))).toEqual({ quantity: '0', payout: '0' });
    expect(figures(settlementDrift(ours('void', 30, 10, '25'), venue(30, 10, '25'), HOLDS_BOTH))).toEqual({ quantity: '0', payout: '0' });
  });

  it('compares only the payout of a record without quantities per outcome (a redemption)', () => {
    expect(figures(settlementDrift(ours('yes', 30, 10, '30'), { yesQuantity: null, noQuantity: null, payout: D('30') }, HOLDS_BOTH))).toEqual({ quantity: null, payout: '0' });
    expect(figures(settlementDrift(ours('yes', 30, 0, '30'), { yesQuantity: null, noQuantity: null, payout: D('28') }, HOLDS_BOTH))).toEqual({ quantity: null, payout: '-2' });
  });

  it('leaves the payout of a void market whose both sides we held uncompared', () => {
    expect(figures(settlementDrift(ours('void', 30, 10, '25'), venue(20, 0, '13'), NETS))).toEqual({ quantity: '0', payout: null });
  });
});
