/**
 * GET /series/{series_ticker}/markets/{ticker}/candlesticks, public, built from the market's own
 * history on the fake (marketHistory.ts): its trades, every change of its top of book and its
 * open interest.
 *
 * Shape: openapi.yaml 3.28.0 GetMarketCandlesticks (docs.kalshi.com 2026-08-22, mirrored in
 * ebowwa/dailydocupdates; kalshi-typescript 3.30.0 agrees): `{ticker, candlesticks: [{end_period_ts,
 * yes_bid: {open_dollars, low_dollars, high_dollars, close_dollars}, yes_ask: {...}, price:
 * {open_dollars, low_dollars, high_dollars, close_dollars, mean_dollars, previous_dollars},
 * volume_fp, open_interest_fp}]}`. The integer `open`/`volume`/`open_interest` fields of older
 * revisions are gone. `yes_bid` / `yes_ask` are required and never null; every `price` field is
 * nullable: open/low/high/close/mean "May be null if there was no trade during the period",
 * previous (the last trade before the period) "May be null if there were no trades before". A
 * candle captured from production on 2026-09-16 (a third party's notes) shows exactly that for a
 * period with a book but no trade: `"price":{"open_dollars":null,...,"previous_dollars":"0.0010",
 * "mean_dollars":null}, "volume_fp":"0.00"` and no `min_dollars` / `max_dollars` (documented as
 * "close price of any market", an event-level figure): the fake sends neither.
 *
 * Query: `start_ts`, `end_ts` (unix s; candles "ending on or after" start and "on or before" end),
 * `period_interval` (validated `required,oneof=1 60 1440`): a missing or other value is the bare
 * `{"msg"}` 400 of parameter validation, as recorded for `limit`. `include_latest_before_start`
 * is accepted and ignored (not modelled).
 *
 * Assumptions (not documented): a candle covers `(end_period_ts - period, end_period_ts]` with
 * period ends on multiples of the period since the epoch (UTC days for 1440); every period from the
 * one the market was created in up to the one in progress is present (so a quiet period has a
 * candle with null prices and "0.00" volume, and the forming period's candle shows the state so
 * far, as clients reading the "forming candle" expect); an empty bid side reads "0.0000" and an
 * empty ask side "1.0000", as on the market; `mean_dollars` is the volume-weighted mean, rounded
 * half-up to 4 decimals; more than 5000 candles (the documented cap of the event candlesticks) is
 * a 400 `{"error":{"code":"bad_request","message":"bad request"}}`, the body a client logged for
 * another out-of-range query (2026-01); a `start_ts` after `end_ts` lists nothing.
 */
import { errors, nestedError, type KalshiError } from './errors';
import { contracts, countFp, D, priceDollars, TICKS_PER_DOLLAR } from './fixedPoint';
import type { MarketHistory, TopOfBook } from './marketHistory';

export const PERIOD_INTERVALS: readonly number[] = [1, 60, 1440];
export const MAX_CANDLESTICKS = 5000;

export interface CandleQuery {
  readonly startTs: number;
  readonly endTs: number;
  readonly periodMinutes: number;
}

function validation(field: string, tag: string): KalshiError {
  return errors.parameterValidation(
    `Parameter validation failed for GetMarketCandlesticks: Key: 'GetMarketCandlesticksParams.${field}' Error:Field validation for '${field}' failed on the '${tag}' tag`,
  );
}

/** The query of the candlesticks route, or the 400 it gets. */
export function candleQueryFrom(query: URLSearchParams): CandleQuery | KalshiError {
  const read = (name: string, field: string): number | KalshiError => {
    const raw = query.get(name);
    if (raw === null || raw === '') return validation(field, 'required');
    if (!/^-?\d+$/.test(raw)) return errors.parameterValidation(`Invalid format for parameter ${name}: ${raw}`);
    return Number(raw);
  };
  const startTs = read('start_ts', 'StartTs');
  if (typeof startTs !== 'number') return startTs;
  const endTs = read('end_ts', 'EndTs');
  if (typeof endTs !== 'number') return endTs;
  const periodMinutes = read('period_interval', 'PeriodInterval');
  if (typeof periodMinutes !== 'number') return periodMinutes;
  if (!PERIOD_INTERVALS.includes(periodMinutes)) return validation('PeriodInterval', 'oneof');
  return { startTs, endTs, periodMinutes };
}

const BID_WHEN_EMPTY = 0;
const ASK_WHEN_EMPTY = TICKS_PER_DOLLAR;

function ohlc(tops: readonly TopOfBook[], pick: (t: TopOfBook) => number): object {
  const values = tops.map(pick);
  return {
    open_dollars: priceDollars(values[0]!),
    low_dollars: priceDollars(Math.min(...values)),
    high_dollars: priceDollars(Math.max(...values)),
    close_dollars: priceDollars(values[values.length - 1]!),
  };
}

function priceDistribution(history: MarketHistory, fromMs: number, toMs: number): object {
  const trades = history.tradesWithin(fromMs, toMs);
  const previous = history.lastTradeAtOrBefore(fromMs);
  const previousDollars = previous === undefined ? null : priceDollars(previous.yesPriceTicks);
  if (trades.length === 0) {
    return { open_dollars: null, low_dollars: null, high_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: previousDollars };
  }
  const ticks = trades.map((t) => t.yesPriceTicks);
  const units = trades.reduce((sum, t) => sum + t.units, 0);
  const notional = trades.reduce((sum, t) => sum.plus(contracts(t.units).times(t.yesPriceTicks)), new D(0));
  return {
    open_dollars: priceDollars(ticks[0]!),
    low_dollars: priceDollars(Math.min(...ticks)),
    high_dollars: priceDollars(Math.max(...ticks)),
    close_dollars: priceDollars(ticks[ticks.length - 1]!),
    mean_dollars: notional.div(contracts(units)).div(TICKS_PER_DOLLAR).toFixed(4),
    previous_dollars: previousDollars,
  };
}

/** One candle over `(endSeconds - period, endSeconds]`, as of `nowMs` when the period is still forming. */
function candle(history: MarketHistory, endSeconds: number, periodSeconds: number, nowMs: number): object {
  const fromMs = (endSeconds - periodSeconds) * 1000;
  const toMs = Math.min(endSeconds * 1000, nowMs);
  const tops = [history.quoteAt(fromMs), ...history.quotesWithin(fromMs, toMs)];
  const trades = history.tradesWithin(fromMs, toMs);
  return {
    end_period_ts: endSeconds,
    yes_bid: ohlc(tops, (t) => t.bidTicks ?? BID_WHEN_EMPTY),
    yes_ask: ohlc(tops, (t) => t.askTicks ?? ASK_WHEN_EMPTY),
    price: priceDistribution(history, fromMs, toMs),
    volume_fp: countFp(trades.reduce((sum, t) => sum + t.units, 0)),
    open_interest_fp: countFp(history.openInterestAt(toMs)),
  };
}

/** The end (unix s) of the period holding instant `ms`: periods are `(end - period, end]`. */
const periodEndHolding = (ms: number, periodSeconds: number): number => Math.ceil(ms / 1000 / periodSeconds) * periodSeconds;

/** The candles of `history` for the query, as of `nowMs`, or the 400 for too many. */
export function candlesticks(history: MarketHistory, q: CandleQuery, nowMs: number): object[] | KalshiError {
  const period = q.periodMinutes * 60;
  const first = Math.max(Math.ceil(q.startTs / period) * period, periodEndHolding(history.createdMs, period));
  const last = Math.min(Math.floor(q.endTs / period) * period, periodEndHolding(nowMs, period));
  if (first > last) return [];
  const count = (last - first) / period + 1;
  if (count > MAX_CANDLESTICKS) return nestedError(400, 'bad_request', 'bad request');
  const out: object[] = [];
  for (let end = first; end <= last; end += period) out.push(candle(history, end, period, nowMs));
  return out;
}
