/**
 * The `msg` of Kalshi's public market-data WebSocket frames (Trade API v2, "Kalshi Market Data
 * WebSocket API" asyncapi.yaml 2.0.0 as published in 2026, the revision that retires error codes
 * 6/16/17, read from the copy in TexasCoding/kalshi-python-sdk specs/asyncapi.yaml; docs.kalshi.com
 * websockets pages mirrored 2026-08-22 in ebowwa/dailydocupdates), checked against frames recorded
 * on demo 2026-06-11 (XavierBriggs/Fortuna fixtures/kalshi ws__orderbook_trade_noleg.jsonl):
 *
 * - `orderbook_snapshot`: `{market_ticker, market_id, yes_dollars_fp?, no_dollars_fp?}`, levels
 *   `[price_dollars, count_fp]` string pairs, "This key will not exist if there are no Yes offers";
 *   bids only, best bid LAST as in the REST book (asyncapi example and the recording list prices
 *   ascending). The legacy integer `yes`/`no` and `yes_dollars` arrays are gone from the 2026 spec.
 * - `orderbook_delta`: `{market_ticker, market_id, price_dollars, delta_fp, side, client_order_id?,
 *   ts, ts_ms, subaccount?}`; `delta_fp` signed ("-3.00" recorded); `client_order_id` "Present
 *   only when you caused this orderbook change"; `ts` (deprecated) RFC 3339 with sub-seconds as
 *   recorded, `ts_ms` unix ms. `subaccount` is not sent (the fake has none).
 * - `side` `no` prices are NO-leg prices (1 - the YES ask) unless the subscription asked for
 *   `use_yes_price: true` ("no-side orderbook_delta and orderbook_snapshot updates are reported in
 *   yes-leg pricing instead of no-leg pricing"). Assumed: in a yes-priced snapshot the NO levels
 *   keep their order (best NO bid last, so YES prices descending).
 * - `ticker` (no `seq`: the schema requires only type, sid, msg): `{market_id, market_ticker,
 *   price_dollars, yes_bid_dollars, yes_ask_dollars, volume_fp, open_interest_fp, dollar_volume,
 *   dollar_open_interest, yes_bid_size_fp, yes_ask_size_fp, last_trade_size_fp, ts, ts_ms, time}`.
 *   Empty sides read like the REST market (`yes_bid_dollars` "0.0000", `yes_ask_dollars`
 *   "1.0000"); `price_dollars` "0.0000" before any trade. Assumed (the spec only says "signed
 *   whole-dollar"): `dollar_volume` = the sum of count x YES price over the trades, truncated;
 *   `dollar_open_interest` = open interest x last YES price, truncated.
 * - `trade`: `{trade_id, market_ticker, yes_price_dollars, no_price_dollars, count_fp, taker_side,
 *   taker_outcome_side, taker_book_side, is_block_trade, ts, ts_ms}`; `taker_side` (deprecated,
 *   still sent) equals `taker_outcome_side`: buying YES (bid) is `yes`, selling YES (ask) is `no`.
 */
import type { BookLevel } from '../../core/domain/matching';
import { countFp, priceDollars, TICKS_PER_DOLLAR } from './fixedPoint';
import type { BidLadders, BookDelta, TickerState } from './marketDataEvents';
import type { BookSideV2, PublicTradeRecord } from './records';
import { goRfc3339, unixSeconds } from './wireTime';

/** `[price, count]` pairs, best level last; `priceOf` maps the level's ticks to the price shown. */
function levelPairs(bestFirst: readonly BookLevel[], priceOf: (ticks: number) => number): string[][] {
  return bestFirst.map((l) => [priceDollars(priceOf(l.priceTicks)), countFp(l.quantity)]).reverse();
}

const complement = (ticks: number): number => TICKS_PER_DOLLAR - ticks;
const same = (ticks: number): number => ticks;

export function orderbookSnapshotMsg(ticker: string, marketId: string, ladders: BidLadders, useYesPrice: boolean): object {
  const msg: Record<string, unknown> = { market_ticker: ticker, market_id: marketId };
  if (ladders.yesBids.length > 0) msg.yes_dollars_fp = levelPairs(ladders.yesBids, same);
  if (ladders.noBids.length > 0) msg.no_dollars_fp = levelPairs(ladders.noBids, useYesPrice ? complement : same);
  return msg;
}

/** `side` and the price shown for a change at `yesPriceTicks` on the YES book side `bookSide`. */
function sideAndPrice(bookSide: BookSideV2, yesPriceTicks: number, useYesPrice: boolean): { side: 'yes' | 'no'; ticks: number } {
  if (bookSide === 'bid') return { side: 'yes', ticks: yesPriceTicks };
  return { side: 'no', ticks: useYesPrice ? yesPriceTicks : complement(yesPriceTicks) };
}

export function orderbookDeltaMsg(delta: BookDelta, marketId: string, useYesPrice: boolean, ownClientOrderId: string | undefined): object {
  const { side, ticks } = sideAndPrice(delta.bookSide, delta.yesPriceTicks, useYesPrice);
  return {
    market_ticker: delta.ticker,
    market_id: marketId,
    price_dollars: priceDollars(ticks),
    delta_fp: countFp(delta.deltaUnits),
    side,
    ...(ownClientOrderId === undefined ? {} : { client_order_id: ownClientOrderId }),
    ts: goRfc3339(delta.ms),
    ts_ms: delta.ms,
  };
}

/** The ticker message without its timestamps: what "any ticker field changes" compares. */
export function tickerFields(state: TickerState): Record<string, unknown> {
  const lastPrice = state.lastPriceTicks === null ? 0 : state.lastPriceTicks;
  return {
    market_id: state.marketId,
    market_ticker: state.ticker,
    price_dollars: priceDollars(lastPrice),
    yes_bid_dollars: state.bestBid === undefined ? '0.0000' : priceDollars(state.bestBid.priceTicks),
    yes_ask_dollars: state.bestAsk === undefined ? '1.0000' : priceDollars(state.bestAsk.priceTicks),
    volume_fp: countFp(state.volumeUnits),
    open_interest_fp: countFp(state.openInterestUnits),
    dollar_volume: state.dollarVolume.floor().toNumber(),
    dollar_open_interest: Math.floor((state.openInterestUnits * lastPrice) / (100 * TICKS_PER_DOLLAR)),
    yes_bid_size_fp: countFp(state.bestBid?.quantity ?? 0),
    yes_ask_size_fp: countFp(state.bestAsk?.quantity ?? 0),
    last_trade_size_fp: countFp(state.lastTradeUnits),
  };
}

export function tickerMsg(fields: Record<string, unknown>, ms: number): object {
  return { ...fields, ts: unixSeconds(ms), ts_ms: ms, time: goRfc3339(ms) };
}

export function tradeMsg(t: PublicTradeRecord): object {
  const outcome = t.takerBookSide === 'bid' ? 'yes' : 'no';
  return {
    trade_id: t.tradeId,
    market_ticker: t.ticker,
    yes_price_dollars: priceDollars(t.yesPriceTicks),
    no_price_dollars: priceDollars(complement(t.yesPriceTicks)),
    count_fp: countFp(t.units),
    taker_side: outcome,
    taker_outcome_side: outcome,
    taker_book_side: t.takerBookSide,
    is_block_trade: false,
    ts: unixSeconds(t.createdMs),
    ts_ms: t.createdMs,
  };
}
