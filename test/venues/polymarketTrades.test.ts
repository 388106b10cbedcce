/**
 * Reading a Polymarket CLOB V2 `Trade` into our fills (core/venues/polymarket/orderWire.ts
 * `fillsFromTrade`, a pure function): the match time as the REST listing (`match_time`, unix
 * seconds as a string: src/types/clob.ts in github.com/Polymarket/clob-client-v2 at f3e1a05) and
 * the user channel (`matchtime`) write it, numeric or ISO; a maker order that does not say its token
 * never prices the taker's fill by a guess; the taker's fee follows V2's curve (the official
 * client's src/fees/index.ts); a status in the channel's plain spelling or REST's TRADE_STATUS_ one;
 * what cannot be read is told by trade id only.
 */
import { fillsFromTrade, type OurOrderRef } from '../../core/venues/polymarket/orderWire';

const TAKER = `0x${'aa'.repeat(32)}`;
const MAKER = `0x${'bb'.repeat(32)}`;
const YES = '1'.repeat(70);
const NO = '2'.repeat(70);
const ours = new Map<string, OurOrderRef>([[TAKER, { clientOrderId: 'order_taker', venueMarketId: '0xc0', side: 'yes', action: 'buy' }]]);

function trade(overrides: Record<string, unknown> = {}, maker: Record<string, unknown> = {}) {
  return {
    id: 'trade-1', taker_order_id: TAKER, asset_id: YES, status: 'MATCHED', fee_rate_bps: '0', match_time: '1764000000',
    maker_orders: [{ order_id: MAKER, matched_amount: '5', price: '0.3', asset_id: NO, ...maker }],
    ...overrides,
  };
}

function read(raw: unknown) {
  const told: [string | null, string][] = [];
  const fills = fillsFromTrade(raw, ours, (id, why) => told.push([id, why]));
  return { fills, told };
}

describe('Polymarket trades read into fills', () => {
  it('match_time and matchtime, in unix seconds (string or number) or ISO, all read as the same instant', () => {
    const at = new Date(1_764_000_000_000).toISOString();
    for (const time of [{ match_time: '1764000000' }, { match_time: 1764000000 }, { match_time: undefined, matchtime: '1764000000' }, { match_time: undefined, matchtime: at }]) {
      const { fills, told } = read(trade(time));
      expect(told).toEqual([]);
      expect(fills).toEqual([expect.objectContaining({ venueFillId: `trade-1:T:${MAKER}`, executedAt: at, price: '0.7', quantity: '5', isTaker: true })]);
    }
  });

  it('a maker order without asset_id is not priced as the same token: the taker part is left out and told by trade id', () => {
    const { fills, told } = read(trade({}, { asset_id: undefined }));
    expect(fills).toEqual([]);
    expect(told).toEqual([['trade-1', expect.stringContaining('asset_id')]]);
    // Our own maker order on it still reads at its own price.
    const asMaker = fillsFromTrade(trade({ taker_order_id: `0x${'cc'.repeat(32)}` }, { asset_id: undefined, order_id: TAKER }), ours);
    expect(asMaker).toEqual([expect.objectContaining({ price: '0.3', isTaker: false })]);
  });

  it("the taker's fee is V2's size × rate × p × (1 − p), floored to 0.00001", () => {
    // 10 shares at 0.65 on a 700 bps (crypto) market: 10 × 0.07 × 0.65 × 0.35 = 0.15925 (V1's min(p, 1 − p) would say 0.245).
    const { fills } = read(trade({ fee_rate_bps: '700' }, { asset_id: YES, price: '0.65', matched_amount: '10' }));
    expect(fills).toEqual([expect.objectContaining({ price: '0.65', quantity: '10', fee: '0.15925', isTaker: true })]);
    const { fills: odd } = read(trade({ fee_rate_bps: '700' }, { asset_id: YES, price: '0.333', matched_amount: '3' }));
    // 3 × 0.07 × 0.333 × 0.667 = 0.046644... -> 0.04664
    expect(odd).toEqual([expect.objectContaining({ fee: '0.04664' })]);
  });

  it('reads a status in either spelling, plain (the user channel) or TRADE_STATUS_-prefixed (REST listings), MATCHED_NOT_BROADCASTED included', () => {
    const spellings: [string, string][] = [
      ['MATCHED', 'MATCHED'], ['TRADE_STATUS_MATCHED', 'MATCHED'], ['trade_status_confirmed', 'CONFIRMED'],
      ['MATCHED_NOT_BROADCASTED', 'MATCHED_NOT_BROADCASTED'], ['TRADE_STATUS_MATCHED_NOT_BROADCASTED', 'MATCHED_NOT_BROADCASTED'],
      ['TRADE_STATUS_MINED', 'MINED'], ['TRADE_STATUS_RETRYING', 'RETRYING'], ['TRADE_STATUS_FAILED', 'FAILED'],
    ];
    for (const [status, readAs] of spellings) {
      const { fills, told } = read(trade({ status }));
      expect(told).toEqual([]);
      expect(fills).toEqual([expect.objectContaining({ venueFillId: `trade-1:T:${MAKER}`, quantity: '5', tradeStatus: readAs })]);
    }
    expect(read(trade({ status: 'TRADE_STATUS_SETTLING' })).told).toEqual([['trade-1', 'unknown status']]);
  });

  it('a trade without a readable time or status is left out and told by its id only', () => {
    expect(read(trade({ match_time: 'yesterday' })).told).toEqual([['trade-1', 'no match time']]);
    expect(read(trade({ status: 'SETTLING' })).told).toEqual([['trade-1', 'unknown status']]);
    expect(read({ maker_orders: [] }).told).toEqual([[null, 'no id or maker orders']]);
  });
});
