import { settlementFromRest } from '../../core/venues/kalshi/settlementWire';

/** A settlement record as `GET /portfolio/settlements` lists it (kalshi-typescript 3.11 `Settlement`). */
const record = (overrides: Record<string, unknown> = {}) => ({
  ticker: 'KXFAKEFED-26DEC-T4.00',
  event_ticker: 'KXFAKEFED-26DEC',
  market_result: 'yes',
  yes_count_fp: '30.00',
  yes_total_cost_dollars: '19.100000',
  no_count_fp: '0.00',
  no_total_cost_dollars: '0.000000',
  revenue: 3000,
  value: 100,
  fee_cost: '0.3500',
  settled_time: '2026-12-17T01:00:00Z',
  ...overrides,
});

describe("a Kalshi settlement record in our terms", () => {
  it('a yes result: 1 a YES contract, the payout is the revenue in dollars, referenced by ticker and time', () => {
    expect(settlementFromRest(record())).toEqual({
      venueMarketId: 'KXFAKEFED-26DEC-T4.00',
      result: 'yes',
      settlementValue: '1',
      yesQuantity: '30',
      noQuantity: '0',
      payout: '30',
      fee: '0',
      settledAt: new Date('2026-12-17T01:00:00Z'),
      reference: 'KXFAKEFED-26DEC-T4.00@2026-12-17T01:00:00Z',
    });
  });

  it('a scalar result pays value / 100 a YES contract; a NO holding is paid the rest', () => {
    expect(settlementFromRest(record({ market_result: 'scalar', value: 37, yes_count_fp: '0.00', no_count_fp: '10.00', revenue: 630 }))).toMatchObject({
      result: 'scalar', settlementValue: '0.37', noQuantity: '10', payout: '6.3',
    });
  });

  it('no pays 0 a YES contract; void has no value and returns the cost', () => {
    expect(settlementFromRest(record({ market_result: 'no', value: 0, revenue: 0 }))).toMatchObject({ result: 'no', settlementValue: '0', payout: '0' });
    expect(settlementFromRest(record({ market_result: 'void', value: undefined, revenue: 1910 }))).toMatchObject({ result: 'void', settlementValue: null, payout: '19.1' });
  });

  it('leaves out what it cannot read rather than book a guess', () => {
    for (const bad of [
      null,
      'text',
      record({ market_result: 'maybe' }),
      record({ market_result: 'scalar', value: undefined }),
      record({ market_result: 'scalar', value: 140 }),
      record({ revenue: '3000' }),
      record({ revenue: 30.5 }),
      record({ yes_count_fp: 'thirty' }),
      record({ settled_time: 'yesterday' }),
      record({ ticker: 7 }),
    ]) {
      expect(settlementFromRest(bad)).toBeNull();
    }
  });
});
