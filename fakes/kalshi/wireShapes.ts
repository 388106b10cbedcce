/**
 * Orders and fills as Kalshi writes them (Trade API v2):
 * - REST Order (GET /portfolio/orders*): the fields of orders__get_after_create.json and
 *   portfolio__orders_list.json, recorded on demo 2026-06-11 (XavierBriggs/Fortuna
 *   fixtures/kalshi).
 * - REST Fill (GET /portfolio/fills): fills__after_taker.json; docs' Fill model says
 *   `trade_id` is the legacy name of `fill_id` (same value) and `market_ticker` the
 *   legacy name of `ticker`.
 * - WebSocket `fill` and `user_order` messages: docs.kalshi.com websockets (user fills,
 *   user orders) as modelled by the spec-generated Kalshi Rust crates: `post_position_fp`,
 *   `purchased_side`, `ts_ms`; `is_yes`, `created_ts_ms`, `last_updated_ts_ms`.
 * The legs: recorded for a bid, `action: "buy", side: "yes", outcome_side: "yes"`. An ask
 * buys the NO leg; assumed symmetric (`action: "buy", side: "no", outcome_side: "no"`).
 */
import { countFp, dollars6, priceDollars, TICKS_PER_DOLLAR } from './fixedPoint';
import type { BookSideV2, FillRecord, OrderRecord } from './records';

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function legFields(bookSide: BookSideV2): { action: string; side: string; outcome_side: string; book_side: string } {
  return bookSide === 'bid'
    ? { action: 'buy', side: 'yes', outcome_side: 'yes', book_side: 'bid' }
    : { action: 'buy', side: 'no', outcome_side: 'no', book_side: 'ask' };
}

export function orderJson(o: OrderRecord): Record<string, unknown> {
  return {
    order_id: o.orderId,
    user_id: o.userId,
    client_order_id: o.clientOrderId,
    ticker: o.ticker,
    ...legFields(o.bookSide),
    type: 'limit',
    status: o.status,
    yes_price_dollars: priceDollars(o.yesPriceTicks),
    no_price_dollars: priceDollars(TICKS_PER_DOLLAR - o.yesPriceTicks),
    fill_count_fp: countFp(o.filledUnits),
    remaining_count_fp: countFp(o.remainingUnits),
    initial_count_fp: countFp(o.initialUnits),
    taker_fees_dollars: dollars6(o.takerFees),
    maker_fees_dollars: dollars6(o.makerFees),
    taker_fill_cost_dollars: dollars6(o.takerFillCost),
    maker_fill_cost_dollars: dollars6(o.makerFillCost),
    self_trade_prevention_type: o.selfTradePrevention,
    created_time: iso(o.createdMs),
    last_update_time: iso(o.updatedMs),
    ...(o.expirationTime === null ? {} : { expiration_time: iso(o.expirationTime * 1000) }),
    subaccount_number: 0,
  };
}

export function userOrderWsJson(o: OrderRecord): object {
  return { ...orderJson(o), is_yes: o.bookSide === 'bid', created_ts_ms: o.createdMs, last_updated_ts_ms: o.updatedMs };
}

export function fillJson(f: FillRecord): object {
  return {
    fill_id: f.fillId,
    trade_id: f.tradeId,
    order_id: f.orderId,
    ticker: f.ticker,
    market_ticker: f.ticker,
    ...legFields(f.bookSide),
    count_fp: countFp(f.units),
    yes_price_dollars: priceDollars(f.yesPriceTicks),
    no_price_dollars: priceDollars(TICKS_PER_DOLLAR - f.yesPriceTicks),
    is_taker: f.isTaker,
    fee_cost: dollars6(f.fee),
    created_time: iso(f.createdMs),
    ts: Math.floor(f.createdMs / 1000),
    subaccount_number: 0,
  };
}

export function fillWsJson(f: FillRecord): object {
  const leg = legFields(f.bookSide);
  return {
    trade_id: f.tradeId,
    fill_id: f.fillId,
    order_id: f.orderId,
    client_order_id: f.clientOrderId,
    ticker: f.ticker,
    market_ticker: f.ticker,
    ...leg,
    purchased_side: leg.outcome_side,
    count_fp: countFp(f.units),
    yes_price_dollars: priceDollars(f.yesPriceTicks),
    no_price_dollars: priceDollars(TICKS_PER_DOLLAR - f.yesPriceTicks),
    is_taker: f.isTaker,
    fee_cost: dollars6(f.fee),
    post_position_fp: countFp(f.postPositionUnits),
    subaccount: 0,
    ts: Math.floor(f.createdMs / 1000),
    ts_ms: f.createdMs,
  };
}
