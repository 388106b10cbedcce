import { Decimal, parseDecimalString, roundMoney } from './decimals';
import type { PositionState } from './positionAccounting';

/**
 * What a market's resolution pays (docs/settlement.md): each YES contract pays the settlement value
 * in dollars, between 0 and 1, and each NO contract 1 minus it. `yes` settles at 1, `no` at 0, a
 * `scalar` result at its value (Kalshi's scalar markets; Polymarket's 50/50 split at 0.5), and a
 * `void` market pays nothing but returns every position's cost basis. Pure: the services book it.
 */
export const MARKET_RESULTS = ['yes', 'no', 'scalar', 'void'] as const;
export type MarketResult = (typeof MARKET_RESULTS)[number];

/** A market's outcome: its result, and the dollars one YES contract pays (null when void). */
export interface MarketOutcome {
  readonly result: MarketResult;
  readonly settlementValue: Decimal | null;
}

/**
 * The outcome of a result, or of a settlement value alone (a scalar unless it is 0 or 1); or why
 * they do not make one, as a sentence an error can carry: a value outside 0..1, a yes or no with a value other than
 * 1 or 0, a scalar without a value, a void with one.
 */
export function outcomeOf(input: { result?: MarketResult | null; settlementValue?: string | null }): { ok: true; outcome: MarketOutcome } | { ok: false; reason: string } {
  const value = input.settlementValue == null ? null : parseDecimalString(input.settlementValue);
  if (input.settlementValue != null && (value === null || value.lt(0) || value.gt(1))) {
    return { ok: false, reason: 'settlementValue must be a decimal string from 0 to 1 (dollars per YES contract).' };
  }
  const result = input.result ?? (value === null ? null : value.eq(1) ? 'yes' : value.isZero() ? 'no' : 'scalar');
  switch (result) {
    case 'yes':
    case 'no': {
      const expected = new Decimal(result === 'yes' ? 1 : 0);
      if (value !== null && !value.eq(expected)) return { ok: false, reason: `A ${result} result settles at ${expected.toFixed()}, not ${value.toFixed()}.` };
      return { ok: true, outcome: { result, settlementValue: expected } };
    }
    case 'scalar':
      if (value === null) return { ok: false, reason: 'A scalar result needs its settlementValue.' };
      return { ok: true, outcome: { result, settlementValue: value } };
    case 'void':
      if (value !== null) return { ok: false, reason: 'A void market has no settlementValue: it returns the cost.' };
      return { ok: true, outcome: { result, settlementValue: null } };
    default:
      return { ok: false, reason: 'Give a result (yes, no, void) or a settlementValue.' };
  }
}

/** What one contract of `side` pays at `outcome`, in dollars; null when void (the cost is returned instead). */
export function payoutPerContract(side: 'yes' | 'no', outcome: MarketOutcome): Decimal | null {
  if (outcome.settlementValue === null) return null;
  return side === 'yes' ? outcome.settlementValue : new Decimal(1).sub(outcome.settlementValue);
}

export interface PositionSettlement {
  readonly quantity: Decimal;
  readonly costBasis: Decimal;
  /** Cash the position receives: quantity x what a contract pays (money scale), or its cost basis when void. */
  readonly payout: Decimal;
  /** The settlement's fee (Kalshi charges none today; a venue's record says). */
  readonly fee: Decimal;
  /** payout - cost basis - fee, exactly. */
  readonly realizedPnl: Decimal;
}

/** Closes a position at its market's outcome: every contract paid, the cost basis released whole. */
export function settlePosition(side: 'yes' | 'no', position: PositionState, outcome: MarketOutcome, fee: Decimal = new Decimal(0)): PositionSettlement {
  const perContract = payoutPerContract(side, outcome);
  const payout = perContract === null ? position.cost : roundMoney(perContract.mul(position.quantity));
  return { quantity: position.quantity, costBasis: position.cost, payout, fee, realizedPnl: payout.sub(position.cost).sub(fee) };
}

/** Where the venue's record of an account's settlement and ours differ: venue - ours. */
export interface SettlementDrift {
  /** In net YES contracts (YES held - NO held); null when the venue's record gives no quantities per outcome. */
  readonly quantity: Decimal | null;
  /** In dollars paid; null when it cannot be compared (a void market whose both sides we held). */
  readonly payout: Decimal | null;
}

/**
 * The venue's settlement record of one account beside ours of the subaccount (docs/settlement.md,
 * "Drift"). A venue that nets positions (`venueNets`) (Kalshi: a YES and a NO held together are closed at once,
 * paying 1) settles one side where our books may hold both: quantities compare net, and each pair
 * we held (min of the sides) paid 1 at our settlement but was paid at the venue when the sides met,
 * so it is taken out of ours before the payouts compare. A void market returns each side's cost,
 * which pairs do not split: its payout compares only when we held one side. A record without
 * quantities per outcome (a Polymarket redemption) compares its payout only.
 */
export function settlementDrift(
  ours: { readonly result: MarketResult; readonly yesQuantity: Decimal; readonly noQuantity: Decimal; readonly payout: Decimal },
  venue: { readonly yesQuantity: Decimal | null; readonly noQuantity: Decimal | null; readonly payout: Decimal },
  venueNets: boolean,
): SettlementDrift {
  const quantity = venue.yesQuantity === null || venue.noQuantity === null ? null : venue.yesQuantity.sub(venue.noQuantity).sub(ours.yesQuantity.sub(ours.noQuantity));
  const pairs = venueNets ? Decimal.min(ours.yesQuantity, ours.noQuantity) : new Decimal(0);
  if (ours.result === 'void' && pairs.gt(0)) return { quantity, payout: null };
  return { quantity, payout: venue.payout.sub(ours.payout.sub(ours.result === 'void' ? 0 : pairs)) };
}
