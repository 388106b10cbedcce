/**
 * The fake exchange's state: accounts, markets, one real order book per market (the
 * project's price-time matching engine, YES-terms book), orders, fills, positions and
 * balances. It speaks Kalshi Trade API v2 shapes (orders written through the V2
 * `/portfolio/events/orders` endpoints, June 2026) and knows nothing of HTTP.
 *
 * Shapes, from newest source first:
 * - Create Order (V2) request/response: docs.kalshi.com api-reference/orders/create-order-v2
 *   (openapi.yaml 3.26.0) and the demo captures orders__create_v2_maker / _taker_ioc
 *   (XavierBriggs/Fortuna fixtures/kalshi, 2026-06-11): 201
 *   `{order_id, client_order_id, fill_count, remaining_count, average_fill_price?,
 *   average_fee_paid?, ts_ms}`, counts "1.00", prices "0.5200", the averages only when
 *   something filled.
 * - Cancel (V2): `{order_id, client_order_id, reduced_by, ts_ms}` (VENUES.md and the
 *   docs as of 2026-08; the June capture omitted client_order_id: the newer docs win).
 * - Order (GET /portfolio/orders*): the fields of orders__get_after_create.json.
 * - Fill (GET /portfolio/fills): the fields of fills__after_taker.json; fee_cost with 6
 *   decimals, `ts` in seconds.
 * - WebSocket `fill` and `user_order` messages: docs.kalshi.com websockets user-fills /
 *   user-orders as modelled by the spec-driven kalshi Rust crates (fields
 *   `post_position_fp`, `purchased_side`, `created_ts_ms`, `last_updated_ts_ms`, ...).
 * - Positions: portfolio__positions.json. Balance: auth__balance_ok.json (`balance`
 *   whole cents, truncated; `balance_dollars` 4 decimals; `portfolio_value` cents;
 *   `updated_ts` seconds).
 *
 * Semantics and where they come from:
 * - V2 `side` is the YES leg: bid = buy YES, ask = sell YES = buy NO at 1 - price
 *   ("BookSide: for event markets this refers to the YES leg only").
 * - Fees: taker 0.07 x C x P x (1-P), maker 0.0175 x ... on quadratic_with_maker_fees
 *   series, times the series fee_multiplier, rounded UP to $0.0001 per fill (docs
 *   fee_rounding; confirmed by the recorded fills: 0.52 -> 0.017500, 0.99 -> 0.000700).
 *   The per-order accumulator that refunds rounding at settlement is not modelled.
 * - A duplicate client_order_id answers 409 order_already_exists, also after the first
 *   order was canceled (recorded: client ids are permanent per account).
 * - post_only that would cross is refused at create, 400 invalid_order "post only cross"
 *   (recorded on demo; older docs described create-then-cancel).
 * - Self-trade prevention: taker_at_cross cancels the incoming order where it would meet
 *   the account's own resting order (recorded: 201 with fill 0 and remaining 0, the
 *   resting order untouched); maker cancels the account's crossed resting orders first.
 *   Simplification: with taker_at_cross the taker stops one tick before the price of the
 *   own order, so it does not fill other orders queued ahead of it at that same price.
 * - Cancel of an unknown, canceled or executed order: 404 not_found (recorded, the three
 *   bodies are identical).
 * - A fill_or_kill that cannot fill entirely: 409 fill_or_kill_insufficient_resting_volume
 *   and no order (reported verbatim by clients). An immediate_or_cancel that fills nothing
 *   answers 201 with fill_count "0.00" here; one client also lists an
 *   `immediate_or_cancel_insufficient_resting_volume` code, unconfirmed.
 * - YES and NO held together net out at $1 immediately (a bid that meets a NO position
 *   closes it), so positions are one signed `position_fp` (+YES / -NO).
 * Assumptions (not documented, not recorded): an IOC/FOK that fills partly and cancels
 * the rest ends `canceled`; the balance check at create needs the full cost at the
 * limit price of the part that opens exposure and reserves nothing for resting orders;
 * `average_fee_paid` is the fee per filled contract rounded half-up to 4 decimals.
 */
import { randomUUID } from 'node:crypto';
import { MatchingEngine } from '../../core/domain/matching';
import type { FillEvent, PlaceResult } from '../../core/domain/matching';
import { errors, nestedError, type KalshiError } from './errors';
import {
  contracts,
  countFp,
  D,
  dollars4,
  dollars6,
  parseCount,
  priceDollars,
  tickPrice,
  TICKS_PER_DOLLAR,
  type Dec,
} from './fixedPoint';
import {
  feeRates,
  priceTicksOnRanges,
  WHOLE_CENT_RANGES,
  type CatalogSeed,
  type FeeRates,
  type MarketSeed,
  type SeriesSeed,
} from './markets';

export type BookSideV2 = 'bid' | 'ask';
export type TimeInForceV2 = 'fill_or_kill' | 'good_till_canceled' | 'immediate_or_cancel';
export type SelfTradePrevention = 'taker_at_cross' | 'maker';
export type OrderStatus = 'resting' | 'canceled' | 'executed';

export interface OrderRecord {
  readonly orderId: string;
  readonly userId: string;
  readonly clientOrderId: string;
  readonly ticker: string;
  readonly eventTicker: string;
  readonly bookSide: BookSideV2;
  readonly yesPriceTicks: number;
  readonly initialUnits: number;
  filledUnits: number;
  remainingUnits: number;
  status: OrderStatus;
  takerFees: Dec;
  makerFees: Dec;
  takerFillCost: Dec;
  makerFillCost: Dec;
  readonly selfTradePrevention: SelfTradePrevention;
  readonly createdMs: number;
  updatedMs: number;
  readonly expirationTime: number | null;
}

export interface FillRecord {
  readonly fillId: string;
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly userId: string;
  readonly ticker: string;
  readonly bookSide: BookSideV2;
  readonly yesPriceTicks: number;
  readonly units: number;
  readonly isTaker: boolean;
  readonly fee: Dec;
  readonly createdMs: number;
  readonly postPositionUnits: number;
}

interface Position {
  /** Signed hundredths of a contract: + YES, - NO. */
  units: number;
  /** Cost basis of the open position, in dollars. */
  exposure: Dec;
  realizedPnl: Dec;
  feesPaid: Dec;
  traded: Dec;
  updatedMs: number;
}

interface Account {
  readonly userId: string;
  balance: Dec;
  readonly positions: Map<string, Position>;
  readonly clientOrderIds: Set<string>;
  updatedMs: number;
}

interface Market {
  readonly seed: MarketSeed;
  readonly series: SeriesSeed | undefined;
  readonly fees: FeeRates;
  readonly createdMs: number;
  lastPriceTicks: number | null;
  volumeUnits: number;
}

/** What a user's private WebSocket channels carry. */
export type UserEvent = { readonly channel: 'user_orders'; readonly msg: object } | { readonly channel: 'fill'; readonly msg: object };

export type ExchangeAnswer = { readonly status: number; readonly body: unknown };

const ok = (status: number, body: unknown): ExchangeAnswer => ({ status, body });
const fail = (error: KalshiError): ExchangeAnswer => ({ status: error.status, body: error.body });

const TIME_IN_FORCE: readonly string[] = ['fill_or_kill', 'good_till_canceled', 'immediate_or_cancel'];
const STP: readonly string[] = ['taker_at_cross', 'maker'];

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The `min_ts` / `max_ts` filters of the portfolio lists, in unix seconds, inclusive. */
function createdWithin(createdMs: number, window: { minTs?: number; maxTs?: number }): boolean {
  return (window.minTs === undefined || createdMs >= window.minTs * 1000) && (window.maxTs === undefined || createdMs <= window.maxTs * 1000);
}

function missing(field: string): KalshiError {
  // Not recorded; assumed nested like the other validation errors.
  return nestedError(400, 'missing_parameters', 'missing parameters', { details: `${field} is required` });
}

function notAString(field: string, value: unknown): KalshiError {
  // Recorded for a JSON number in `count` (orders__numeric_field_types.json): Go's unmarshal error.
  const kind = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'bool' : typeof value === 'object' ? 'object' : typeof value;
  return errors.badRequest(`json: cannot unmarshal ${kind} into Go struct field CreateOrderV2Request.${field} of type string`);
}

export class Exchange {
  private readonly engine = new MatchingEngine();
  private readonly markets = new Map<string, Market>();
  private readonly series = new Map<string, SeriesSeed>();
  private readonly accounts = new Map<string, Account>();
  private readonly orders = new Map<string, OrderRecord>();
  private readonly orderList: OrderRecord[] = [];
  private readonly fills: FillRecord[] = [];
  /** Resting orders with an expiration_time, checked lazily. */
  private readonly expiring = new Set<OrderRecord>();
  private readonly listeners = new Set<(userId: string, event: UserEvent) => void>();

  constructor(catalog: CatalogSeed, private readonly clock: () => number = Date.now) {
    for (const s of catalog.series) this.series.set(s.ticker, s);
    for (const m of catalog.markets) this.addMarket(m);
  }

  addMarket(seed: MarketSeed): void {
    const series = this.series.get(seed.series_ticker);
    this.markets.set(seed.ticker, { seed, series, fees: feeRates(series), createdMs: this.clock(), lastPriceTicks: null, volumeUnits: 0 });
    this.engine.openMarket(seed.ticker);
  }

  /** Creates the account if needed; `balanceDollars` sets its cash. */
  ensureAccount(userId: string, balanceDollars?: string): void {
    let account = this.accounts.get(userId);
    if (account === undefined) {
      account = { userId, balance: new D(0), positions: new Map(), clientOrderIds: new Set(), updatedMs: this.clock() };
      this.accounts.set(userId, account);
    }
    if (balanceDollars !== undefined) account.balance = new D(balanceDollars);
  }

  onUserEvent(listener: (userId: string, event: UserEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- markets ------------------------------------------------------------------

  marketList(): readonly MarketSeed[] {
    return [...this.markets.values()].map((m) => m.seed);
  }

  marketStatus(ticker: string): string | undefined {
    const m = this.markets.get(ticker);
    return m === undefined ? undefined : (m.seed.status ?? 'active');
  }

  seriesJson(ticker: string): object | undefined {
    const s = this.series.get(ticker);
    if (s === undefined) return undefined;
    return {
      ticker: s.ticker,
      title: s.title,
      category: s.category ?? '',
      frequency: 'custom',
      tags: [],
      settlement_sources: [],
      contract_url: '',
      fee_type: s.fee_type,
      fee_multiplier: Number(s.fee_multiplier),
    };
  }

  eventJson(eventTicker: string): object | undefined {
    const market = [...this.markets.values()].find((m) => m.seed.event_ticker === eventTicker);
    if (market === undefined) return undefined;
    return { event_ticker: eventTicker, series_ticker: market.seed.series_ticker, title: market.seed.title, mutually_exclusive: false };
  }

  marketJson(ticker: string): object | undefined {
    const m = this.markets.get(ticker);
    if (m === undefined) return undefined;
    const s = m.seed;
    const depthYes = this.engine.book(ticker)?.depth(1, 'yes');
    const bestBid = depthYes?.bids[0];
    const bestAsk = depthYes?.asks[0];
    const dollarsOr0 = (ticks: number | undefined): string => (ticks === undefined ? '0.0000' : priceDollars(ticks));
    return {
      ticker: s.ticker,
      event_ticker: s.event_ticker,
      market_type: 'binary',
      title: s.title,
      yes_sub_title: s.yes_sub_title ?? '',
      no_sub_title: s.no_sub_title ?? '',
      created_time: iso(m.createdMs),
      open_time: s.open_time ?? iso(m.createdMs),
      close_time: s.close_time,
      expiration_time: s.close_time,
      latest_expiration_time: s.close_time,
      expected_expiration_time: s.close_time,
      status: s.status ?? 'active',
      result: '',
      can_close_early: true,
      yes_bid_dollars: dollarsOr0(bestBid?.priceTicks),
      yes_bid_size_fp: countFp(bestBid?.quantity ?? 0),
      yes_ask_dollars: bestAsk === undefined ? '1.0000' : priceDollars(bestAsk.priceTicks),
      yes_ask_size_fp: countFp(bestAsk?.quantity ?? 0),
      no_bid_dollars: bestAsk === undefined ? '0.0000' : priceDollars(TICKS_PER_DOLLAR - bestAsk.priceTicks),
      no_ask_dollars: bestBid === undefined ? '1.0000' : priceDollars(TICKS_PER_DOLLAR - bestBid.priceTicks),
      last_price_dollars: dollarsOr0(m.lastPriceTicks ?? undefined),
      volume_fp: countFp(m.volumeUnits),
      open_interest_fp: countFp(this.openInterestUnits(ticker)),
      notional_value_dollars: '1.0000',
      price_level_structure: s.price_level_structure ?? 'linear_cent',
      price_ranges: s.price_ranges ?? WHOLE_CENT_RANGES,
      fractional_trading_enabled: s.fractional_trading_enabled ?? false,
      rules_primary: s.rules_primary ?? '',
      rules_secondary: '',
    };
  }

  /** Bids only, both legs, best bid LAST (docs "Orderbook Responses"; recorded orderbook__base.json). */
  orderbookJson(ticker: string, depth: number): object | undefined {
    const book = this.engine.book(ticker);
    if (book === undefined) return undefined;
    const levels = (view: 'yes' | 'no'): string[][] =>
      book
        .depth(depth > 0 ? depth : Infinity, view)
        .bids.map((l) => [priceDollars(l.priceTicks), countFp(l.quantity)])
        .reverse();
    return { orderbook_fp: { yes_dollars: levels('yes'), no_dollars: levels('no') } };
  }

  private openInterestUnits(ticker: string): number {
    let total = 0;
    for (const a of this.accounts.values()) {
      const p = a.positions.get(ticker);
      if (p !== undefined && p.units > 0) total += p.units;
    }
    return total;
  }

  // ---- orders -------------------------------------------------------------------

  /** POST /portfolio/events/orders for `userId`. */
  createOrder(userId: string, input: unknown): ExchangeAnswer {
    this.expireOrders();
    this.ensureAccount(userId);
    const account = this.accounts.get(userId)!;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return fail(errors.badRequest('json: cannot unmarshal into Go value of type CreateOrderV2Request'));
    }
    const body = input as Record<string, unknown>;
    for (const field of ['ticker', 'side', 'count', 'price', 'time_in_force', 'self_trade_prevention_type', 'client_order_id']) {
      const value = body[field];
      if (value !== undefined && value !== null && typeof value !== 'string') return fail(notAString(field, value));
    }
    for (const field of ['post_only', 'reduce_only', 'cancel_order_on_pause']) {
      const value = body[field];
      if (value !== undefined && typeof value !== 'boolean') {
        return fail(errors.badRequest(`json: cannot unmarshal ${typeof value} into Go struct field CreateOrderV2Request.${field} of type bool`));
      }
    }
    if (body.expiration_time !== undefined && body.expiration_time !== null && !Number.isInteger(body.expiration_time)) {
      return fail(errors.badRequest('json: cannot unmarshal into Go struct field CreateOrderV2Request.expiration_time of type int64'));
    }
    for (const field of ['ticker', 'side', 'count', 'price', 'time_in_force', 'self_trade_prevention_type']) {
      if (typeof body[field] !== 'string' || body[field] === '') return fail(missing(field));
    }
    const ticker = body.ticker as string;
    const side = body.side as string;
    const tif = body.time_in_force as string;
    const stp = body.self_trade_prevention_type as string;
    if (side !== 'bid' && side !== 'ask') return fail(errors.invalidOrder(`side must be bid or ask, got ${side}`));
    if (!TIME_IN_FORCE.includes(tif)) return fail(errors.invalidOrder(`unknown time_in_force ${tif}`));
    if (!STP.includes(stp)) return fail(errors.invalidOrder(`unknown self_trade_prevention_type ${stp}`));

    const market = this.markets.get(ticker);
    if (market === undefined) return fail(errors.marketNotFound());
    if ((market.seed.status ?? 'active') !== 'active') {
      return fail(nestedError(400, 'market_closed', 'market closed', { service: 'exchange' }));
    }
    const priceTicks = priceTicksOnRanges(body.price as string, market.seed.price_ranges ?? WHOLE_CENT_RANGES);
    if (priceTicks === null) return fail(errors.invalidPrice());
    const units = parseCount(body.count as string);
    if (units === null || units <= 0) return fail(errors.invalidOrder(`invalid count ${String(body.count)}`));
    if (!(market.seed.fractional_trading_enabled ?? false) && units % 100 !== 0) {
      return fail(errors.invalidOrder('fractional contracts are not enabled on this market'));
    }

    const clientOrderId = typeof body.client_order_id === 'string' && body.client_order_id !== '' ? body.client_order_id : randomUUID();
    if (account.clientOrderIds.has(clientOrderId)) return fail(errors.orderAlreadyExists());

    const bookSide = side as BookSideV2;
    const position = account.positions.get(ticker)?.units ?? 0;
    if (body.reduce_only === true) {
      const reduces = bookSide === 'bid' ? position < 0 && units <= -position : position > 0 && units <= position;
      if (!reduces) return fail(errors.invalidOrder('reduce only order would increase position'));
    }
    if (body.post_only === true && this.wouldCross(ticker, bookSide, priceTicks)) return fail(errors.invalidOrder('post only cross'));

    // Collateral for the part that opens exposure (the rest closes an opposite position at $1 per pair).
    const closable = bookSide === 'bid' ? Math.max(0, -position) : Math.max(0, position);
    const opening = Math.max(0, units - closable);
    const sidePrice = bookSide === 'bid' ? tickPrice(priceTicks) : tickPrice(TICKS_PER_DOLLAR - priceTicks);
    if (contracts(opening).times(sidePrice).gt(account.balance)) return fail(errors.insufficientBalance());

    account.clientOrderIds.add(clientOrderId);
    const now = this.clock();
    const order: OrderRecord = {
      orderId: randomUUID(),
      userId,
      clientOrderId,
      ticker,
      eventTicker: market.seed.event_ticker,
      bookSide,
      yesPriceTicks: priceTicks,
      initialUnits: units,
      filledUnits: 0,
      remainingUnits: units,
      status: 'resting',
      takerFees: new D(0),
      makerFees: new D(0),
      takerFillCost: new D(0),
      makerFillCost: new D(0),
      selfTradePrevention: stp as SelfTradePrevention,
      createdMs: now,
      updatedMs: now,
      expirationTime: typeof body.expiration_time === 'number' ? body.expiration_time : null,
    };
    this.orders.set(order.orderId, order);
    this.orderList.push(order);

    const result = this.match(order, tif as TimeInForceV2);
    if (tif === 'fill_or_kill' && (result === null || result.reason === 'fok_unfillable')) {
      // Killed before any fill: Kalshi answers 409 and keeps no order. Assumed: the
      // client_order_id stays free (no order carries it).
      this.orders.delete(order.orderId);
      this.orderList.pop();
      account.clientOrderIds.delete(clientOrderId);
      return fail(errors.fillOrKillInsufficientVolume());
    }
    this.applyPlaceResult(order, result, market);
    if (order.status === 'resting' && order.expirationTime !== null) this.expiring.add(order);

    const filled = order.filledUnits;
    const response: Record<string, unknown> = {
      order_id: order.orderId,
      client_order_id: order.clientOrderId,
      fill_count: countFp(filled),
      remaining_count: countFp(order.remainingUnits),
      ts_ms: now,
    };
    if (filled > 0) {
      const notional = order.takerFillCost.plus(order.makerFillCost);
      // The fill costs are in the order's own leg; the average is reported as a YES price.
      const ownAverage = notional.div(contracts(filled));
      const yesAverage = bookSide === 'bid' ? ownAverage : new D(1).minus(ownAverage);
      response.average_fill_price = dollars4(yesAverage.toDecimalPlaces(4));
      response.average_fee_paid = dollars4(order.takerFees.plus(order.makerFees).div(contracts(filled)).toDecimalPlaces(4));
    }
    return ok(201, response);
  }

  /** DELETE /portfolio/events/orders/{order_id}. */
  cancelOrder(userId: string, orderId: string): ExchangeAnswer {
    const order = this.orders.get(orderId);
    if (order === undefined || order.userId !== userId || order.status !== 'resting') return fail(errors.notFound());
    const reducedBy = order.remainingUnits;
    this.cancelResting(order);
    return ok(200, { order_id: order.orderId, client_order_id: order.clientOrderId, reduced_by: countFp(reducedBy), ts_ms: order.updatedMs });
  }

  /**
   * Cancels resting orders whose expiration_time (unix seconds) has passed. Kalshi expires
   * them on its own clock; the fake does it lazily before serving each request.
   */
  expireOrders(): void {
    const nowSeconds = this.clock() / 1000;
    for (const order of this.expiring) {
      if (order.status !== 'resting') this.expiring.delete(order);
      else if (order.expirationTime !== null && order.expirationTime <= nowSeconds) {
        this.expiring.delete(order);
        this.cancelResting(order);
      }
    }
  }

  private cancelResting(order: OrderRecord): void {
    this.engine.cancel(order.orderId);
    order.remainingUnits = 0;
    order.status = 'canceled';
    order.updatedMs = this.clock();
    this.emitOrder(order);
  }

  private wouldCross(ticker: string, side: BookSideV2, priceTicks: number): boolean {
    const book = this.engine.book(ticker);
    if (book === undefined) return false;
    if (side === 'bid') {
      const ask = book.bestAskTicks();
      return ask !== null && ask <= priceTicks;
    }
    const bid = book.bestBidTicks();
    return bid !== null && bid >= priceTicks;
  }

  /** The account's own resting orders on the other side that an order at `priceTicks` would meet. */
  private ownCrossed(order: OrderRecord): OrderRecord[] {
    return this.orderList.filter(
      (o) =>
        o.userId === order.userId &&
        o.ticker === order.ticker &&
        o.status === 'resting' &&
        o.orderId !== order.orderId &&
        o.bookSide !== order.bookSide &&
        (order.bookSide === 'bid' ? o.yesPriceTicks <= order.yesPriceTicks : o.yesPriceTicks >= order.yesPriceTicks),
    );
  }

  private match(order: OrderRecord, tif: TimeInForceV2): PlaceResult | null {
    let limit = order.yesPriceTicks;
    let engineTif: 'GTC' | 'IOC' | 'FOK' = tif === 'good_till_canceled' ? 'GTC' : tif === 'immediate_or_cancel' ? 'IOC' : 'FOK';
    const crossed = this.ownCrossed(order);
    if (crossed.length > 0) {
      if (order.selfTradePrevention === 'maker') {
        for (const own of crossed) this.cancelResting(own);
      } else {
        // taker_at_cross: trade only at prices better than the nearest own order, then cancel.
        const nearest = order.bookSide === 'bid' ? Math.min(...crossed.map((o) => o.yesPriceTicks)) : Math.max(...crossed.map((o) => o.yesPriceTicks));
        limit = order.bookSide === 'bid' ? nearest - 1 : nearest + 1;
        if (engineTif === 'GTC') engineTif = 'IOC';
        if (limit < 1 || limit > TICKS_PER_DOLLAR - 1) return null;
      }
    }
    return this.engine.place(order.ticker, {
      type: 'limit',
      orderId: order.orderId,
      side: 'yes',
      action: order.bookSide === 'bid' ? 'buy' : 'sell',
      priceTicks: limit,
      quantity: order.initialUnits,
      timeInForce: engineTif,
    });
  }

  private applyPlaceResult(order: OrderRecord, result: PlaceResult | null, market: Market): void {
    const fills = result?.fills ?? [];
    for (let i = 0; i + 1 < fills.length; i += 2) this.applyMatch(fills[i]!, fills[i + 1]!, market);
    order.remainingUnits = result?.status === 'resting' ? result.restingQuantity : 0;
    order.status = order.remainingUnits > 0 ? 'resting' : order.filledUnits === order.initialUnits ? 'executed' : 'canceled';
    order.updatedMs = this.clock();
    this.emitOrder(order);
  }

  private applyMatch(takerLeg: FillEvent, makerLeg: FillEvent, market: Market): void {
    const now = this.clock();
    market.lastPriceTicks = takerLeg.yesPriceTicks;
    market.volumeUnits += takerLeg.quantity;
    for (const leg of [takerLeg, makerLeg]) {
      const order = this.orders.get(leg.orderId)!;
      const isTaker = leg.liquidity === 'taker';
      const units = leg.quantity;
      const price = tickPrice(leg.yesPriceTicks);
      const rate = isTaker ? market.fees.taker : market.fees.maker;
      const fee = rate.times(contracts(units)).times(price).times(new D(1).minus(price)).toDecimalPlaces(4, D.ROUND_UP);
      const ownPrice = order.bookSide === 'bid' ? price : new D(1).minus(price);
      const cost = ownPrice.times(contracts(units));
      order.filledUnits += units;
      if (isTaker) {
        order.takerFees = order.takerFees.plus(fee);
        order.takerFillCost = order.takerFillCost.plus(cost);
      } else {
        order.makerFees = order.makerFees.plus(fee);
        order.makerFillCost = order.makerFillCost.plus(cost);
        order.remainingUnits = leg.remainingQuantity;
        if (order.remainingUnits === 0) order.status = 'executed';
        order.updatedMs = now;
      }
      const postPosition = this.applyToAccount(order, units, ownPrice, fee, now);
      // Kalshi's Fill model: trade_id is "the legacy field name, same as fill_id"; one per leg
      // (recorded fills carry equal values).
      const fillId = randomUUID();
      const fill: FillRecord = {
        fillId,
        tradeId: fillId,
        orderId: order.orderId,
        clientOrderId: order.clientOrderId,
        userId: order.userId,
        ticker: order.ticker,
        bookSide: order.bookSide,
        yesPriceTicks: leg.yesPriceTicks,
        units,
        isTaker,
        fee,
        createdMs: now,
        postPositionUnits: postPosition,
      };
      this.fills.push(fill);
      this.emit(order.userId, { channel: 'fill', msg: this.fillWsJson(fill) });
      if (!isTaker) this.emitOrder(order);
    }
  }

  /** Cash and position after a fill of `units` at `ownPrice` (the price of the leg bought). Returns the new position. */
  private applyToAccount(order: OrderRecord, units: number, ownPrice: Dec, fee: Dec, now: number): number {
    const account = this.accounts.get(order.userId)!;
    let p = account.positions.get(order.ticker);
    if (p === undefined) {
      p = { units: 0, exposure: new D(0), realizedPnl: new D(0), feesPaid: new D(0), traded: new D(0), updatedMs: now };
      account.positions.set(order.ticker, p);
    }
    const direction = order.bookSide === 'bid' ? 1 : -1;
    const opposite = direction === 1 ? Math.max(0, -p.units) : Math.max(0, p.units);
    const closing = Math.min(units, opposite);
    const opening = units - closing;
    if (closing > 0) {
      const averageCost = p.exposure.div(contracts(Math.abs(p.units)));
      const closed = contracts(closing);
      // A YES and a NO held together pay $1: cash back 1 - price per pair.
      account.balance = account.balance.plus(closed.times(new D(1).minus(ownPrice)));
      p.realizedPnl = p.realizedPnl.plus(closed.times(new D(1).minus(ownPrice).minus(averageCost)));
      p.exposure = p.exposure.minus(closed.times(averageCost));
    }
    if (opening > 0) {
      const opened = contracts(opening).times(ownPrice);
      account.balance = account.balance.minus(opened);
      p.exposure = p.exposure.plus(opened);
    }
    account.balance = account.balance.minus(fee);
    p.units += direction * units;
    if (p.units === 0) p.exposure = new D(0);
    p.feesPaid = p.feesPaid.plus(fee);
    p.traded = p.traded.plus(contracts(units).times(ownPrice));
    p.updatedMs = now;
    account.updatedMs = now;
    return p.units;
  }

  // ---- reads --------------------------------------------------------------------

  getOrder(userId: string, orderId: string): ExchangeAnswer {
    const order = this.orders.get(orderId);
    if (order === undefined || order.userId !== userId) return fail(errors.notFound());
    return ok(200, { order: this.orderJson(order) });
  }

  /** Newest first, filtered like GET /portfolio/orders (no client_order_id filter exists). */
  listOrders(
    userId: string,
    filter: { ticker?: string; eventTicker?: string; minTs?: number; maxTs?: number; status?: string },
  ): OrderRecord[] {
    return this.orderList
      .filter(
        (o) =>
          o.userId === userId &&
          (filter.ticker === undefined || o.ticker === filter.ticker) &&
          (filter.eventTicker === undefined || o.eventTicker === filter.eventTicker) &&
          createdWithin(o.createdMs, filter) &&
          (filter.status === undefined || o.status === filter.status),
      )
      .reverse();
  }

  listFills(userId: string, filter: { ticker?: string; orderId?: string; minTs?: number; maxTs?: number }): FillRecord[] {
    return this.fills
      .filter(
        (f) =>
          f.userId === userId &&
          (filter.ticker === undefined || f.ticker === filter.ticker) &&
          (filter.orderId === undefined || f.orderId === filter.orderId) &&
          createdWithin(f.createdMs, filter),
      )
      .reverse();
  }

  positionsJson(userId: string, ticker?: string): object[] {
    const account = this.accounts.get(userId);
    if (account === undefined) return [];
    const rows: object[] = [];
    for (const [t, p] of account.positions) {
      if (ticker !== undefined && t !== ticker) continue;
      const resting = this.orderList.filter((o) => o.userId === userId && o.ticker === t && o.status === 'resting').length;
      rows.push({
        ticker: t,
        position_fp: countFp(p.units),
        market_exposure_dollars: dollars6(p.exposure),
        realized_pnl_dollars: dollars6(p.realizedPnl),
        fees_paid_dollars: dollars6(p.feesPaid),
        total_traded_dollars: dollars6(p.traded),
        resting_orders_count: resting,
        last_updated_ts: iso(p.updatedMs),
      });
    }
    return rows;
  }

  balanceJson(userId: string): object {
    this.ensureAccount(userId);
    const account = this.accounts.get(userId)!;
    let exposure = new D(0);
    for (const p of account.positions.values()) exposure = exposure.plus(p.exposure);
    return {
      balance: account.balance.times(100).floor().toNumber(),
      balance_dollars: dollars4(account.balance.toDecimalPlaces(4, D.ROUND_DOWN)),
      portfolio_value: exposure.times(100).floor().toNumber(),
      updated_ts: Math.floor(account.updatedMs / 1000),
    };
  }

  queuePositionOf(userId: string, orderId: string): { queuePositionUnits: number; ticker: string } | null {
    const order = this.orders.get(orderId);
    if (order === undefined || order.userId !== userId || order.status !== 'resting') return null;
    const q = this.engine.queuePosition(orderId);
    return q === null ? null : { queuePositionUnits: q.quantityAhead, ticker: order.ticker };
  }

  restingOrderIds(userId: string, tickers: readonly string[] | undefined, eventTicker: string | undefined): string[] {
    return this.orderList
      .filter(
        (o) =>
          o.userId === userId &&
          o.status === 'resting' &&
          (tickers === undefined || tickers.includes(o.ticker)) &&
          (eventTicker === undefined || o.eventTicker === eventTicker),
      )
      .map((o) => o.orderId);
  }

  /** Every order the exchange holds, for tests counting what arrived. */
  allOrders(): readonly OrderRecord[] {
    return this.orderList;
  }

  // ---- JSON of orders and fills ---------------------------------------------------

  private legFields(bookSide: BookSideV2): { action: string; side: string; outcome_side: string; book_side: string } {
    // Recorded for a bid: action buy, side yes, outcome_side yes. An ask buys the NO leg (assumed
    // symmetric: action buy, side no, outcome_side no).
    return bookSide === 'bid'
      ? { action: 'buy', side: 'yes', outcome_side: 'yes', book_side: 'bid' }
      : { action: 'buy', side: 'no', outcome_side: 'no', book_side: 'ask' };
  }

  orderJson(o: OrderRecord): object {
    return {
      order_id: o.orderId,
      user_id: o.userId,
      client_order_id: o.clientOrderId,
      ticker: o.ticker,
      ...this.legFields(o.bookSide),
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

  fillJson(f: FillRecord): object {
    return {
      fill_id: f.fillId,
      trade_id: f.tradeId,
      order_id: f.orderId,
      ticker: f.ticker,
      market_ticker: f.ticker,
      ...this.legFields(f.bookSide),
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

  private fillWsJson(f: FillRecord): object {
    const leg = this.legFields(f.bookSide);
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

  private emitOrder(o: OrderRecord): void {
    const json = this.orderJson(o) as Record<string, unknown>;
    this.emit(o.userId, {
      channel: 'user_orders',
      msg: { ...json, is_yes: o.bookSide === 'bid', created_ts_ms: o.createdMs, last_updated_ts_ms: o.updatedMs },
    });
  }

  private emit(userId: string, event: UserEvent): void {
    for (const listener of this.listeners) listener(userId, event);
  }
}
