/**
 * Market lifecycle on the fake (Trade API v2, 2026): close, determination, a dispute's
 * re-determination (`amended`), settlement (`finalized`); the `market_lifecycle_v2` WebSocket
 * messages that announce them; the `Settlement` records of GET /portfolio/settlements; how a
 * notice is delivered (sent, lost, repeated, late).
 *
 * Sources, newest first:
 * - docs.kalshi.com getting_started/market_lifecycle (2026): statuses `initialized, active,
 *   inactive, closed, determined, disputed, amended, finalized` ("In REST, settled markets end up
 *   at `finalized` rather than a separate `settled` status, and `settlement_ts` is populated");
 *   events: `close_date_updated` when a market is closed ahead of its close time, `determined`
 *   (closed -> determined), `settled` (determined / amended -> finalized), `deactivated` /
 *   `activated` (active <-> inactive; "All resting orders are cancelled on this reactivation");
 *   no event at all is listed for determined -> disputed or disputed -> amended. "Once
 *   `close_time` passes, all order operations, including cancellations, are rejected with
 *   `MARKET_INACTIVE`. Resting orders are cancelled shortly after close, and cancellation
 *   updates are published on the usual user channels."
 * - docs.kalshi.com websockets/market-and-event-lifecycle, AsyncAPI `market_lifecycle_v2`
 *   (2026): `{type: "market_lifecycle_v2", sid, seq, msg: {market_ticker, event_type, ...}}`,
 *   `seq` required; `close_ts` (unix s) only on created / close_date_updated; `result`,
 *   `settlement_value` ("Settlement value of the market in fixed-point dollars (e.g. "0.5000")",
 *   a string) and `determination_ts` (unix s) only on determined; `settled_ts` (unix s) only on
 *   settled; `is_deactivated` only on (de)activation. Not account-scoped: "Receives all market
 *   and event lifecycle notifications (`market_ticker` filters are not supported)".
 * - A capture of production around KXBTC closes (2026-09-25, a client's research notes): the
 *   book empties at the close (every resting order canceled), `determined` then `settled` on
 *   `market_lifecycle_v2`, and "several duplicate `settled` messages per market: 8 per market at
 *   21:00Z" -- the `repeated` delivery below.
 * - Settlement record: docs.kalshi.com api-reference get-settlements, openapi.yaml 3.29.0:
 *   required `ticker, exchange_index, event_ticker, market_result, yes_count_fp,
 *   yes_total_cost_dollars, no_count_fp, no_total_cost_dollars, revenue, settled_time, fee_cost`,
 *   optional nullable `value`. `revenue` and `value` are integer cents ("winning contracts pay out
 *   100 cents each"; "Payout of a single yes contract in cents"), `fee_cost` fixed-point dollars
 *   ("Total fees paid", example "0.3400"). The integer `yes_count`/`yes_total_cost`/`no_count`/
 *   `no_total_cost` of older SDKs are gone from 3.29.0 and not served.
 * - docs.kalshi.com getting_started/market_settlement: "Only net positions are settled"; "The
 *   actual payout (`CollateralAmountChange`) is rounded to whole cents. `CollateralAmountChange +
 *   MiscFeeAmt` equals the pre-rounding settlement value."
 *
 * Choices where the sources are silent (docs/kalshi-fake.md lists them):
 * - `void`: 3.29.0 lists `market_result` (and the market's `result`) as yes | no | scalar only;
 *   older SDK models (kalshi-typescript 3.11, the Python SDK) and the FIX spec also list `void`
 *   ("market was voided/cancelled and all positions returned at original cost"). The fake serves
 *   `void`, returns each position at its cost, and has no settlement value (`value` null, no
 *   `settlement_value_dollars`, no `settlement_value` in the notice).
 * - A scalar value must be whole cents (0.00 .. 1.00): `value` is integer cents.
 * - Revenue is the pre-rounding value rounded DOWN to the cent; what rounding takes off is added
 *   to `fee_cost` (the MiscFeeAmt above). `fee_cost` is otherwise the trading fees the account
 *   paid on the market (the position's `fees_paid`); settling a yes/no market costs nothing.
 * - A re-determination (determine on a determined or disputed market) makes the market `amended`
 *   and sends `determined` again with the new result (the docs list no event for it: deliver it
 *   `lost` to model that).
 * - Costs are served with 4 decimals (the docs' FixedPointDollars example "0.5600").
 */
import { contracts, countFp, D, dollars4, priceDollars, TICKS_PER_DOLLAR, type Dec } from './fixedPoint';
import type { MarketStatus } from './markets';

export type MarketResult = 'yes' | 'no' | 'scalar' | 'void';
export const MARKET_RESULTS: readonly MarketResult[] = ['yes', 'no', 'scalar', 'void'];

/** How a lifecycle notice reaches the sockets: once, never, several times, or after a while. */
export type NoticeDelivery =
  | { readonly kind: 'sent' }
  | { readonly kind: 'lost' }
  | { readonly kind: 'repeated'; readonly times: number }
  | { readonly kind: 'late'; readonly ms: number };

export const SENT: NoticeDelivery = { kind: 'sent' };
const DEFAULT_REPEAT = 2;
const DEFAULT_LATE_MS = 200;

/** `{notice?, repeat?, late_ms?}` of a control request, or the reason it is not one. */
export function noticeDeliveryFrom(body: Record<string, unknown>): NoticeDelivery | string {
  const notice = body.notice ?? 'sent';
  if (notice === 'sent') return SENT;
  if (notice === 'lost') return { kind: 'lost' };
  if (notice === 'repeated') {
    const times = body.repeat ?? DEFAULT_REPEAT;
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 100) return 'repeat must be an integer from 1 to 100';
    return { kind: 'repeated', times };
  }
  if (notice === 'late') {
    const ms = body.late_ms ?? DEFAULT_LATE_MS;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000) return 'late_ms must be a number of milliseconds from 0 to 600000';
    return { kind: 'late', ms };
  }
  return 'notice must be sent, lost, repeated or late';
}

/** Where one market is in its lifecycle (mutable, owned by the exchange). */
export interface LifecycleState {
  status: MarketStatus;
  result: '' | MarketResult;
  /** The YES payout in engine ticks ($0.0001), once determined; null for void or before. */
  settlementValueTicks: number | null;
  /** close_time as served: the seed's, or the moment of an early close. */
  closeTime: string;
  expirationValue: string;
  determinedMs: number | null;
  settledMs: number | null;
}

/** The parsed determination of a control request. */
export interface Determination {
  readonly result: MarketResult;
  readonly settlementValueTicks: number | null;
  readonly expirationValue?: string;
}

const DOLLARS_0_TO_1 = /^(0(\.\d{1,4})?|1(\.0{1,4})?)$/;

/**
 * `{result, settlement_value_dollars?, expiration_value?}`: yes -> 1.0000, no -> 0.0000, scalar
 * needs a whole-cent value in [0, 1], void has none. A value sent with yes or no must agree.
 */
export function determinationFrom(body: Record<string, unknown>): Determination | string {
  const result = body.result;
  if (typeof result !== 'string' || !(MARKET_RESULTS as readonly string[]).includes(result)) return 'result must be yes, no, scalar or void';
  const raw = body.settlement_value_dollars;
  if (raw !== undefined && (typeof raw !== 'string' || !DOLLARS_0_TO_1.test(raw))) return 'settlement_value_dollars must be a dollar string from "0.00" to "1.00"';
  if (body.expiration_value !== undefined && typeof body.expiration_value !== 'string') return 'expiration_value must be a string';
  const expirationValue = body.expiration_value as string | undefined;
  const ticks = raw === undefined ? null : new D(raw).times(TICKS_PER_DOLLAR).toNumber();
  if (ticks !== null && ticks % 100 !== 0) return 'settlement_value_dollars must be whole cents (Settlement.value is integer cents)';
  const r = result as MarketResult;
  if (r === 'scalar') {
    if (ticks === null) return 'a scalar result needs settlement_value_dollars';
    return { result: r, settlementValueTicks: ticks, expirationValue };
  }
  if (r === 'void') {
    if (ticks !== null) return 'a void result has no settlement value';
    return { result: r, settlementValueTicks: null, expirationValue };
  }
  const implied = r === 'yes' ? TICKS_PER_DOLLAR : 0;
  if (ticks !== null && ticks !== implied) return `a ${r} result settles at ${priceDollars(implied)}`;
  return { result: r, settlementValueTicks: implied, expirationValue };
}

// ---- market_lifecycle_v2 messages (the `msg` of a frame) ----------------------------

const seconds = (ms: number): number => Math.floor(ms / 1000);

export function closeDateUpdatedMsg(ticker: string, closeMs: number): object {
  return { market_ticker: ticker, event_type: 'close_date_updated', close_ts: seconds(closeMs) };
}

export function determinedMsg(ticker: string, state: LifecycleState): object {
  return {
    market_ticker: ticker,
    event_type: 'determined',
    result: state.result,
    determination_ts: seconds(state.determinedMs ?? 0),
    ...(state.settlementValueTicks === null ? {} : { settlement_value: priceDollars(state.settlementValueTicks) }),
  };
}

export function settledMsg(ticker: string, settledMs: number): object {
  return { market_ticker: ticker, event_type: 'settled', settled_ts: seconds(settledMs) };
}

export function activationMsg(ticker: string, deactivated: boolean): object {
  return { market_ticker: ticker, event_type: deactivated ? 'deactivated' : 'activated', is_deactivated: deactivated };
}

// ---- settlement ---------------------------------------------------------------------

/** What settling a market pays one account, booked into its cash (accounts.ts settlePosition). */
export interface PositionSettlement {
  /** Hundredths of a contract. */
  readonly yesUnits: number;
  readonly yesCost: Dec;
  readonly noUnits: number;
  readonly noCost: Dec;
  readonly revenueCents: number;
  /** Trading fees paid on the market plus what rounding the payout down to the cent took. */
  readonly feeCost: Dec;
}

/** One account's settlement of one market, fixed when the market is finalized. */
export interface SettlementRecord extends PositionSettlement {
  readonly userId: string;
  readonly ticker: string;
  readonly eventTicker: string;
  readonly result: MarketResult;
  readonly valueCents: number | null;
  readonly settledMs: number;
}

/** What a net position (+YES / -NO units, cost basis `exposure`) is paid at settlement. */
export function payout(
  units: number,
  exposure: Dec,
  result: MarketResult,
  valueTicks: number | null,
): { yesUnits: number; yesCost: Dec; noUnits: number; noCost: Dec; revenueCents: number; roundingFee: Dec } {
  const yesUnits = Math.max(0, units);
  const noUnits = Math.max(0, -units);
  const yesCost = yesUnits > 0 ? exposure : new D(0);
  const noCost = noUnits > 0 ? exposure : new D(0);
  let value: Dec;
  if (result === 'void') value = exposure;
  else {
    const yesPays = new D(valueTicks ?? 0).div(TICKS_PER_DOLLAR);
    value = contracts(yesUnits).times(yesPays).plus(contracts(noUnits).times(new D(1).minus(yesPays)));
  }
  const revenueCents = value.times(100).floor().toNumber();
  return { yesUnits, yesCost, noUnits, noCost, revenueCents, roundingFee: value.minus(new D(revenueCents).div(100)) };
}

/** The Settlement of GET /portfolio/settlements (openapi.yaml 3.29.0). */
export function settlementJson(r: SettlementRecord): object {
  return {
    ticker: r.ticker,
    exchange_index: 0,
    event_ticker: r.eventTicker,
    market_result: r.result,
    yes_count_fp: countFp(r.yesUnits),
    yes_total_cost_dollars: dollars4(r.yesCost.toDecimalPlaces(4)),
    no_count_fp: countFp(r.noUnits),
    no_total_cost_dollars: dollars4(r.noCost.toDecimalPlaces(4)),
    revenue: r.revenueCents,
    settled_time: new Date(r.settledMs).toISOString(),
    fee_cost: dollars4(r.feeCost.toDecimalPlaces(4, D.ROUND_UP)),
    value: r.valueCents,
  };
}
