import Decimal from 'decimal.js';
import { concentration, marketRisk, type MarketHolding } from '../../core/domain/binaryRisk';

const D = (value: Decimal.Value) => new Decimal(value);

/** Holdings as [quantity, price paid]: their cost is quantity x price. */
function risk(h: { yes?: [Decimal.Value, Decimal.Value]; no?: [Decimal.Value, Decimal.Value]; mid: Decimal.Value | null }) {
  const holding: MarketHolding = {
    yesQuantity: D(h.yes?.[0] ?? 0), yesCost: D(h.yes?.[0] ?? 0).mul(h.yes?.[1] ?? 0),
    noQuantity: D(h.no?.[0] ?? 0), noCost: D(h.no?.[0] ?? 0).mul(h.no?.[1] ?? 0),
    yesMid: h.mid === null ? null : D(h.mid),
  };
  return Object.fromEntries(Object.entries(marketRisk(holding)).map(([name, value]) => [name, value.toFixed()]));
}

describe('marketRisk', () => {
  it('long YES only: the worst case (NO wins) loses the whole cost', () => {
    // 100 YES at 0.40, mid 0.55
    expect(risk({ yes: [100, '0.40'], mid: '0.55' })).toEqual({
      grossExposure: '40', netExposure: '55', netContracts: '100', marketValue: '55', unrealizedPnl: '15', worstCaseLoss: '40',
    });
  });

  it('long NO only: valued at 1 - the YES mid, short YES in net terms', () => {
    // 50 NO at 0.30, YES mid 0.60 -> NO worth 0.40
    expect(risk({ no: [50, '0.30'], mid: '0.60' })).toEqual({
      grossExposure: '15', netExposure: '-20', netContracts: '-50', marketValue: '20', unrealizedPnl: '5', worstCaseLoss: '15',
    });
  });

  it('both sides: the smaller side pays out whatever happens, so it offsets the worst case', () => {
    // 100 YES at 0.40 + 60 NO at 0.50 = 70; worst case YES loses: 70 - 60 = 10
    expect(risk({ yes: [100, '0.40'], no: [60, '0.50'], mid: '0.45' })).toEqual({
      grossExposure: '70', netExposure: '12', netContracts: '40', marketValue: '78', unrealizedPnl: '8', worstCaseLoss: '10',
    });
  });

  it('a locked-in profit is a negative worst-case loss', () => {
    // 100 YES at 0.40 + 100 NO at 0.50 = 90, and one side pays 100 whatever happens
    expect(risk({ yes: [100, '0.40'], no: [100, '0.50'], mid: '0.50' }).worstCaseLoss).toBe('-10');
  });

  it('values the positions at cost without a two-sided book', () => {
    expect(risk({ yes: [100, '0.40'], no: [60, '0.50'], mid: null })).toEqual({
      grossExposure: '70', netExposure: '10', netContracts: '40', marketValue: '70', unrealizedPnl: '0', worstCaseLoss: '10',
    });
  });

  it('is all zero without positions', () => {
    expect(Object.values(risk({ mid: '0.5' }))).toEqual(['0', '0', '0', '0', '0', '0']);
  });
});

describe('concentration', () => {
  it('gives the largest share and the Herfindahl index of the shares', () => {
    // shares 0.5, 0.3, 0.2: H = 0.25 + 0.09 + 0.04 = 0.38
    const spread = concentration([D(50), D(30), D(20)]);
    expect(spread.largestShare.toFixed()).toBe('0.5');
    expect(spread.herfindahl.toFixed()).toBe('0.38');
  });

  it('is zero with nothing exposed, and 1 with one market', () => {
    expect(concentration([]).herfindahl.toFixed()).toBe('0');
    expect(concentration([D(0), D(0)]).largestShare.toFixed()).toBe('0');
    const one = concentration([D(12)]);
    expect([one.largestShare.toFixed(), one.herfindahl.toFixed()]).toEqual(['1', '1']);
  });
});
