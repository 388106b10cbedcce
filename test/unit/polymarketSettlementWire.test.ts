import { redeemableSettlements, redeemedSettlements, resolutionOf } from '../../core/venues/polymarket/settlementWire';

const CID = '0x' + 'ab'.repeat(32);
const YES = '111';
const NO = '222';
/** A CLOB market (`GET /markets/{condition_id}`) as it reads once closed. */
const market = (tokens: { winner: boolean; price: number }[], extra: Record<string, unknown> = {}) => ({
  condition_id: CID,
  closed: true,
  is_50_50_outcome: false,
  tokens: [
    { token_id: YES, outcome: 'Yes', ...tokens[0] },
    { token_id: NO, outcome: 'No', ...tokens[1] },
  ],
  ...extra,
});

describe('a Polymarket resolution from the CLOB market', () => {
  it('the winner token decides yes or no; a 50/50 outcome is a scalar at 0.5', () => {
    expect(resolutionOf(market([{ winner: false, price: 0 }, { winner: true, price: 1 }]))).toMatchObject({ result: 'no', settlementValue: '0' });
    expect(resolutionOf(market([{ winner: true, price: 1 }, { winner: false, price: 0 }]))).toMatchObject({ result: 'yes', settlementValue: '1' });
    const split = resolutionOf(market([{ winner: false, price: 0.5 }, { winner: false, price: 0.5 }], { is_50_50_outcome: true }))!;
    expect(split).toMatchObject({ result: 'scalar', settlementValue: '0.5' });
    expect(split.tokens.get(NO)!.pays.toFixed()).toBe('0.5');
  });

  it('is not resolved while open, proposed or disputed (no winner), nor for what is not a Yes/No market', () => {
    expect(resolutionOf(market([{ winner: false, price: 0.6 }, { winner: false, price: 0.4 }]))).toBeNull();
    expect(resolutionOf(market([{ winner: true, price: 1 }, { winner: false, price: 0 }], { closed: false }))).toBeNull();
    expect(resolutionOf({ ...market([{ winner: true, price: 1 }, { winner: false, price: 0 }]), tokens: [{ token_id: YES, outcome: 'Trump', winner: true }, { token_id: NO, outcome: 'Harris', winner: false }] })).toBeNull();
    expect(resolutionOf(null)).toBeNull();
  });
});

describe("a wallet's settlement records", () => {
  const resolutions = new Map([[CID, resolutionOf(market([{ winner: false, price: 0 }, { winner: true, price: 1 }]))!]]);
  const at = new Date('2026-12-01T00:00:00Z');

  it('redeemable positions of a resolved market: the shares of each outcome, paid at the CLOB’s prices', () => {
    const rows = [
      { conditionId: CID, asset: YES, size: 10, curPrice: 0, redeemable: true },
      { conditionId: CID, asset: NO, size: 3.5, curPrice: 1, redeemable: true },
      { conditionId: CID, asset: NO, size: 1, redeemable: false },
      { conditionId: '0x' + 'cd'.repeat(32), asset: '333', size: 5, redeemable: true },
    ];
    expect(redeemableSettlements(rows, resolutions, at)).toEqual([
      { venueMarketId: CID, result: 'no', settlementValue: '0', yesQuantity: '10', noQuantity: '3.5', payout: '3.5', fee: '0', settledAt: at, reference: `${CID}:redeemable`, redemption: 'redeemable' },
    ]);
  });

  it('redemptions since a time: the dollars paid, no quantities per outcome, at the first redemption', () => {
    const rows = [
      { type: 'REDEEM', conditionId: CID, size: 13.5, usdcSize: 3.5, timestamp: 1_795_000_100, transactionHash: '0xfeed' },
      { type: 'REDEEM', conditionId: CID, size: 1, usdcSize: 1, timestamp: 1_795_000_200, transactionHash: '0xbeef' },
      { type: 'REDEEM', conditionId: CID, size: 9, usdcSize: 9, timestamp: 1_700_000_000, transactionHash: '0xold' },
      { type: 'TRADE', conditionId: CID, size: 9, usdcSize: 9, timestamp: 1_795_000_300 },
    ];
    expect(redeemedSettlements(rows, resolutions, new Date(1_795_000_000_000))).toEqual([
      {
        venueMarketId: CID, result: 'no', settlementValue: '0', yesQuantity: null, noQuantity: null, payout: '4.5', fee: '0',
        settledAt: new Date(1_795_000_100_000), reference: `${CID}:redeemed:0xfeed`, redemption: 'redeemed',
      },
    ]);
  });
});
