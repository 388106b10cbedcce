/**
 * Cash and positions of one account on the fake exchange.
 *
 * A position is one signed count per market (+ YES / - NO), as Kalshi's `position_fp`:
 * a YES and a NO held together pay $1, so a fill that meets an opposite position closes
 * it and returns 1 - price per contract at once. `market_exposure_dollars` is the cost
 * basis of what stays open. Shapes: GET /portfolio/positions and /portfolio/balance as
 * recorded on demo 2026-06-11 (XavierBriggs/Fortuna fixtures/kalshi portfolio__positions,
 * auth__balance_ok): 6-decimal dollar strings, `balance` in whole cents (truncated),
 * `balance_dollars` with 4 decimals, `updated_ts` in seconds.
 *
 * Settlement (lifecycle.ts) pays a position out and marks it settled: GET /portfolio/positions
 * takes `settlement_status` all | unsettled | settled, "Defaults to unsettled" (docs.kalshi.com
 * api-reference get-positions; the FCM positions endpoint lists the same enum), so a settled
 * market drops out of the default listing and shows, at 0 with its realized P&L, under
 * `settlement_status=settled` or `all`.
 */
import { contracts, countFp, D, dollars4, dollars6, type Dec } from './fixedPoint';
import { payout, type MarketResult, type PositionSettlement } from './lifecycle';
import type { BookSideV2 } from './records';

interface Position {
  /** Signed hundredths of a contract: + YES, - NO. */
  units: number;
  exposure: Dec;
  realizedPnl: Dec;
  feesPaid: Dec;
  traded: Dec;
  updatedMs: number;
  /** Paid out when its market was finalized (then units and exposure are 0). */
  settled: boolean;
}

export interface Account {
  readonly userId: string;
  balance: Dec;
  readonly positions: Map<string, Position>;
  /** Every client_order_id the account ever used (Kalshi never frees one). */
  readonly clientOrderIds: Set<string>;
  updatedMs: number;
}

export function newAccount(userId: string, nowMs: number): Account {
  return { userId, balance: new D(0), positions: new Map(), clientOrderIds: new Set(), updatedMs: nowMs };
}

export function positionUnits(account: Account, ticker: string): number {
  return account.positions.get(ticker)?.units ?? 0;
}

export interface AccountFill {
  readonly ticker: string;
  readonly bookSide: BookSideV2;
  readonly units: number;
  /** Price of the leg bought: the YES price for a bid, 1 - YES price for an ask. */
  readonly ownPrice: Dec;
  readonly fee: Dec;
  readonly nowMs: number;
}

/** Books a fill into cash and position; returns the position after it (signed units). */
export function applyFill(account: Account, fill: AccountFill): number {
  let p = account.positions.get(fill.ticker);
  if (p === undefined) {
    p = { units: 0, exposure: new D(0), realizedPnl: new D(0), feesPaid: new D(0), traded: new D(0), updatedMs: fill.nowMs, settled: false };
    account.positions.set(fill.ticker, p);
  }
  const direction = fill.bookSide === 'bid' ? 1 : -1;
  const opposite = direction === 1 ? Math.max(0, -p.units) : Math.max(0, p.units);
  const closing = Math.min(fill.units, opposite);
  const opening = fill.units - closing;
  const payoutPerPair = new D(1).minus(fill.ownPrice);
  if (closing > 0) {
    const averageCost = p.exposure.div(contracts(Math.abs(p.units)));
    const closed = contracts(closing);
    account.balance = account.balance.plus(closed.times(payoutPerPair));
    p.realizedPnl = p.realizedPnl.plus(closed.times(payoutPerPair.minus(averageCost)));
    p.exposure = p.exposure.minus(closed.times(averageCost));
  }
  if (opening > 0) {
    const cost = contracts(opening).times(fill.ownPrice);
    account.balance = account.balance.minus(cost);
    p.exposure = p.exposure.plus(cost);
  }
  account.balance = account.balance.minus(fill.fee);
  p.units += direction * fill.units;
  if (p.units === 0) p.exposure = new D(0);
  p.feesPaid = p.feesPaid.plus(fill.fee);
  p.traded = p.traded.plus(contracts(fill.units).times(fill.ownPrice));
  p.updatedMs = fill.nowMs;
  account.updatedMs = fill.nowMs;
  return p.units;
}

/**
 * Pays out the account's net position in `ticker` (revenue in whole cents, credited to cash) and
 * marks it settled. Only a non-zero position is settled ("Only net positions are settled").
 */
export function settlePosition(
  account: Account,
  ticker: string,
  result: MarketResult,
  valueTicks: number | null,
  nowMs: number,
): PositionSettlement | null {
  const p = account.positions.get(ticker);
  if (p === undefined || p.settled || p.units === 0) return null;
  const paid = payout(p.units, p.exposure, result, valueTicks);
  const revenue = new D(paid.revenueCents).div(100);
  account.balance = account.balance.plus(revenue);
  p.realizedPnl = p.realizedPnl.plus(revenue.minus(p.exposure));
  p.units = 0;
  p.exposure = new D(0);
  p.settled = true;
  p.updatedMs = nowMs;
  account.updatedMs = nowMs;
  return { ...paid, feeCost: p.feesPaid.plus(paid.roundingFee) };
}

export type SettlementStatusFilter = 'all' | 'unsettled' | 'settled';

export function positionRows(
  account: Account,
  ticker: string | undefined,
  restingCount: (ticker: string) => number,
  settlementStatus: SettlementStatusFilter = 'unsettled',
): object[] {
  const rows: object[] = [];
  for (const [t, p] of account.positions) {
    if (ticker !== undefined && t !== ticker) continue;
    if ((settlementStatus === 'unsettled' && p.settled) || (settlementStatus === 'settled' && !p.settled)) continue;
    rows.push({
      ticker: t,
      position_fp: countFp(p.units),
      market_exposure_dollars: dollars6(p.exposure),
      realized_pnl_dollars: dollars6(p.realizedPnl),
      fees_paid_dollars: dollars6(p.feesPaid),
      total_traded_dollars: dollars6(p.traded),
      resting_orders_count: restingCount(t),
      last_updated_ts: new Date(p.updatedMs).toISOString(),
    });
  }
  return rows;
}

export function balanceJson(account: Account): object {
  let exposure = new D(0);
  for (const p of account.positions.values()) exposure = exposure.plus(p.exposure);
  return {
    balance: account.balance.times(100).floor().toNumber(),
    balance_dollars: dollars4(account.balance.toDecimalPlaces(4, D.ROUND_DOWN)),
    portfolio_value: exposure.times(100).floor().toNumber(),
    updated_ts: Math.floor(account.updatedMs / 1000),
  };
}

export function openInterestUnits(accounts: Iterable<Account>, ticker: string): number {
  let total = 0;
  for (const a of accounts) {
    const units = positionUnits(a, ticker);
    if (units > 0) total += units;
  }
  return total;
}
