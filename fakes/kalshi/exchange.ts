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
 *   something filled. The request body's checks are in createOrderBody.ts.
 * - Cancel (V2): `{order_id, client_order_id, reduced_by, ts_ms}` (VENUES.md and the
 *   docs as of 2026-08; the June capture omitted client_order_id: the newer docs win).
 * - Amend, Decrease, Batch Create and Batch Cancel (V2): docs.kalshi.com api-reference/orders
 *   (openapi.yaml 3.28.0, 2026-08-20); the shapes and choices are at each method below and the
 *   bodies' checks in orderManagementBodies.ts. Only a smaller size at the same price keeps the
 *   queue place (the amend page's note; the matching engine reduces a resting order in place).
 * - Kalshi's announced misdescribed cancel/amend answers (changelog 2026-05-21): `misdescribe`.
 * - Orders, fills and the WebSocket messages: wireShapes.ts. Positions and balance:
 *   accounts.ts. Markets, series and the order book: markets.ts. Close, determination,
 *   settlement, the `market_lifecycle_v2` messages and Settlement records: lifecycle.ts.
 * - Public market data: every match is a public trade (publicTrades.ts), every change of a resting
 *   order a book-change event (marketDataEvents.ts) for the WebSocket feed (marketDataFeed.ts), and
 *   each market keeps its trades, top-of-book and open-interest history (marketHistory.ts) for the
 *   candlesticks (candlesticks.ts) and its 24-hour fields (markets.ts).
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
 * - A market that is not `active` refuses new orders, and one past its close also refuses
 *   cancels ("all order operations, including cancellations, are rejected", docs "Market
 *   Lifecycle", which names the code `MARKET_INACTIVE`): 409 `{"error":{"code":"market_closed"}}`,
 *   the body a client logged from production for an order on a closed market (2026-05); message
 *   and `service` assumed like the other exchange errors. Closing cancels every resting order of
 *   the market (the book empties), each reported like any exchange-side cancel (`user_order`
 *   frame, REST status `canceled`); so does reactivating a deactivated market.
 * Assumptions (not documented, not recorded): an IOC/FOK that fills partly and cancels
 * the rest ends `canceled`; the balance check at create needs the full cost at the
 * limit price of the part that opens exposure and reserves nothing for resting orders;
 * `average_fee_paid` is the fee per filled contract rounded half-up to 4 decimals.
 */
import { randomUUID } from 'node:crypto';
import type { FillEvent, PlaceResult } from '../../core/domain/matching';
import {
  applyFill,
  balanceJson,
  newAccount,
  openInterestUnits,
  positionRows,
  positionUnits,
  settlePosition,
  type Account,
  type SettlementStatusFilter,
} from './accounts';
import { MatchingEngine } from '../../core/domain/matching';
import { parseCreateOrderBody } from './createOrderBody';
import { parseAmendOrderBody, parseBatchCancelBody, parseBatchCreateBody, parseDecreaseOrderBody } from './orderManagementBodies';
import { errors, nestedError, type KalshiError } from './errors';
import { contracts, countFp, D, dollars4, parseCount, priceDollars, tickPrice, TICKS_PER_DOLLAR, type Dec } from './fixedPoint';
import {
  feeRates,
  marketJson,
  orderbookLevels,
  priceTicksOnRanges,
  seriesJson,
  WHOLE_CENT_RANGES,
  type CatalogSeed,
  type FeeRates,
  type MarketSeed,
  type SeriesSeed,
} from './markets';
import {
  activationMsg,
  closeDateUpdatedMsg,
  determinedMsg,
  settledMsg,
  settlementJson,
  SENT,
  type Determination,
  type LifecycleState,
  type NoticeDelivery,
  type SettlementRecord,
} from './lifecycle';
import type { BidLadders, MarketDataEvent, MarketDataSource, TickerState } from './marketDataEvents';
import { MarketHistory, topOfBook } from './marketHistory';
import type { BookSideV2, FillRecord, OrderRecord, PublicTradeRecord, TimeInForceV2 } from './records';
import { fillWsJson, orderJson, userOrderWsJson } from './wireShapes';

interface Market {
  readonly seed: MarketSeed;
  readonly series: SeriesSeed | undefined;
  readonly fees: FeeRates;
  readonly createdMs: number;
  /** The market's UUID, `market_id` on the WebSocket (Kalshi's REST market has none). */
  readonly marketId: string;
  lastPriceTicks: number | null;
  volumeUnits: number;
  lastTradeUnits: number;
  /** Sum of count x YES price over the market's trades (the ticker's `dollar_volume`). */
  dollarVolume: Dec;
  readonly life: LifecycleState;
  readonly history: MarketHistory;
}

const DAY_MS = 24 * 3_600_000;

/** A `market_lifecycle_v2` message for every subscribed socket, and how it is to be delivered. */
export interface MarketNotice {
  readonly msg: object;
  readonly delivery: NoticeDelivery;
}

/** What a lifecycle step of the control API did, or why it did nothing. */
export type LifecycleOutcome =
  | { readonly ok: true; readonly market: object; readonly settlements?: readonly { user_id: string; settlement: object }[] }
  | { readonly ok: false; readonly status: 404 | 409; readonly message: string };

const PAST_CLOSE: ReadonlySet<string> = new Set(['closed', 'determined', 'disputed', 'amended', 'finalized']);

/** ISO time in whole seconds, as Kalshi writes close_time ("2026-05-20T03:59:00Z"). */
function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const marketClosed = (): KalshiError => nestedError(409, 'market_closed', 'market closed', { service: 'exchange' });

/** What a user's private WebSocket channels carry. */
export type UserEvent = { readonly channel: 'user_orders'; readonly msg: object } | { readonly channel: 'fill'; readonly msg: object };

export type ExchangeAnswer = { readonly status: number; readonly body: unknown };

const ok = (status: number, body: unknown): ExchangeAnswer => ({ status, body });
const fail = (error: KalshiError): ExchangeAnswer => ({ status: error.status, body: error.body });

/** The `min_ts` / `max_ts` filters of the portfolio lists, in unix seconds, inclusive. */
function createdWithin(createdMs: number, window: { minTs?: number; maxTs?: number }): boolean {
  return (window.minTs === undefined || createdMs >= window.minTs * 1000) && (window.maxTs === undefined || createdMs <= window.maxTs * 1000);
}

/**
 * `average_fill_price` (a YES price) and `average_fee_paid` per contract of `filledUnits`, from the
 * fill costs (in the order's own leg) and fees they came with; 4 decimals, half-up.
 */
function averages(bookSide: BookSideV2, filledUnits: number, notional: Dec, fees: Dec): { average_fill_price: string; average_fee_paid: string } {
  const ownAverage = notional.div(contracts(filledUnits));
  const yesAverage = bookSide === 'bid' ? ownAverage : new D(1).minus(ownAverage);
  return {
    average_fill_price: dollars4(yesAverage.toDecimalPlaces(4)),
    average_fee_paid: dollars4(fees.div(contracts(filledUnits)).toDecimalPlaces(4)),
  };
}

/** The ErrorResponse object a batch item carries: the nested body's `error`, or a flat body itself. */
function itemError(body: unknown): unknown {
  const nested = (body as { error?: unknown } | null)?.error;
  return typeof nested === 'object' && nested !== null ? nested : body;
}

/** Which V2 answer the `wrong_order_answer` fault rewrites (controlApi.ts). */
export type MisdescribableAnswer = 'cancel' | 'amend';

export class Exchange implements MarketDataSource {
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
  private readonly noticeListeners = new Set<(notice: MarketNotice) => void>();
  /** Every account's settlement records, in the order they were written. */
  private readonly settlements: SettlementRecord[] = [];
  /** Every match on every book, oldest first (GET /markets/trades, the `trade` channel). */
  private readonly trades: PublicTradeRecord[] = [];
  private readonly marketDataListeners = new Set<(event: MarketDataEvent) => void>();

  constructor(catalog: CatalogSeed, private readonly clock: () => number = Date.now) {
    for (const s of catalog.series) this.series.set(s.ticker, s);
    for (const m of catalog.markets) this.addMarket(m);
  }

  addMarket(seed: MarketSeed): void {
    const series = this.series.get(seed.series_ticker);
    const life: LifecycleState = {
      status: seed.status ?? 'active',
      result: '',
      settlementValueTicks: null,
      closeTime: seed.close_time,
      expirationValue: '',
      determinedMs: null,
      settledMs: null,
    };
    const createdMs = this.clock();
    this.markets.set(seed.ticker, {
      seed,
      series,
      fees: feeRates(series),
      createdMs,
      marketId: randomUUID(),
      lastPriceTicks: null,
      volumeUnits: 0,
      lastTradeUnits: 0,
      dollarVolume: new D(0),
      life,
      history: new MarketHistory(createdMs),
    });
    this.engine.openMarket(seed.ticker);
  }

  /** Creates the account if needed; `balanceDollars` sets its cash. */
  ensureAccount(userId: string, balanceDollars?: string): void {
    let account = this.accounts.get(userId);
    if (account === undefined) {
      account = newAccount(userId, this.clock());
      this.accounts.set(userId, account);
    }
    if (balanceDollars !== undefined) account.balance = new D(balanceDollars);
  }

  onUserEvent(listener: (userId: string, event: UserEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Public market data: every book change, trade and ticker-relevant change, in order (marketDataEvents.ts). */
  onMarketData(listener: (event: MarketDataEvent) => void): () => void {
    this.marketDataListeners.add(listener);
    return () => this.marketDataListeners.delete(listener);
  }

  /** Lifecycle notices (`market_lifecycle_v2`): not account-scoped, every subscriber gets each. */
  onMarketNotice(listener: (notice: MarketNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  // ---- markets ------------------------------------------------------------------

  /** The seeds, each with the market's current status. */
  marketList(): readonly MarketSeed[] {
    return [...this.markets.values()].map((m) => ({ ...m.seed, status: m.life.status }));
  }

  seriesJson(ticker: string): object | undefined {
    const series = this.series.get(ticker);
    return series === undefined ? undefined : seriesJson(series);
  }

  eventJson(eventTicker: string): object | undefined {
    const market = [...this.markets.values()].find((m) => m.seed.event_ticker === eventTicker);
    if (market === undefined) return undefined;
    // `title` the seed's event title, else its first market's; `category` its series' (Kalshi still sends the event's own).
    const series = this.series.get(market.seed.series_ticker);
    return {
      event_ticker: eventTicker,
      series_ticker: market.seed.series_ticker,
      title: market.seed.event_title ?? market.seed.title,
      sub_title: '',
      category: series?.category ?? '',
      mutually_exclusive: false,
    };
  }

  marketJson(ticker: string): object | undefined {
    const m = this.markets.get(ticker);
    const book = this.engine.book(ticker);
    if (m === undefined || book === undefined) return undefined;
    const top = book.depth(1, 'yes');
    const dayAgo = this.clock() - DAY_MS;
    const previousTop = m.history.quoteAt(dayAgo);
    return marketJson(m.seed, {
      createdMs: m.createdMs,
      bestBid: top.bids[0],
      bestAsk: top.asks[0],
      lastPriceTicks: m.lastPriceTicks,
      volumeUnits: m.volumeUnits,
      volume24hUnits: m.history.unitsTradedAfter(dayAgo),
      dayAgo: { bidTicks: previousTop.bidTicks, askTicks: previousTop.askTicks, priceTicks: m.history.lastTradeAtOrBefore(dayAgo)?.yesPriceTicks ?? null },
      openInterestUnits: openInterestUnits(this.accounts.values(), ticker),
      lifecycle: {
        status: m.life.status,
        result: m.life.result,
        closeTime: m.life.closeTime,
        settlementValueDollars: m.life.settlementValueTicks === null ? null : priceDollars(m.life.settlementValueTicks),
        settlementTs: m.life.settledMs === null ? null : new Date(m.life.settledMs).toISOString(),
        expirationValue: m.life.expirationValue,
      },
    });
  }

  /** Bids only, both legs, best bid LAST (docs "Orderbook Responses"; recorded orderbook__base.json). */
  orderbookJson(ticker: string, depth: number): object | undefined {
    const book = this.engine.book(ticker);
    if (book === undefined) return undefined;
    const maxLevels = depth > 0 ? depth : Infinity;
    return {
      orderbook_fp: {
        yes_dollars: orderbookLevels(book.depth(maxLevels, 'yes').bids),
        no_dollars: orderbookLevels(book.depth(maxLevels, 'no').bids),
      },
    };
  }

  // ---- public market data (MarketDataSource, GET /markets/trades, candlesticks) ---------

  now(): number {
    return this.clock();
  }

  marketIdOf(ticker: string): string | undefined {
    return this.markets.get(ticker)?.marketId;
  }

  tickerOfMarketId(marketId: string): string | undefined {
    for (const m of this.markets.values()) if (m.marketId === marketId) return m.seed.ticker;
    return undefined;
  }

  bidLadders(ticker: string): BidLadders | undefined {
    const book = this.engine.book(ticker);
    if (book === undefined) return undefined;
    return { yesBids: book.depth(Infinity, 'yes').bids, noBids: book.depth(Infinity, 'no').bids };
  }

  tickerState(ticker: string): TickerState | undefined {
    const m = this.markets.get(ticker);
    const book = this.engine.book(ticker);
    if (m === undefined || book === undefined) return undefined;
    const top = book.depth(1, 'yes');
    return {
      ticker,
      marketId: m.marketId,
      lastPriceTicks: m.lastPriceTicks,
      bestBid: top.bids[0],
      bestAsk: top.asks[0],
      volumeUnits: m.volumeUnits,
      openInterestUnits: openInterestUnits(this.accounts.values(), ticker),
      lastTradeUnits: m.lastTradeUnits,
      dollarVolume: m.dollarVolume,
    };
  }

  /** Every public trade, oldest first. */
  publicTrades(): readonly PublicTradeRecord[] {
    return this.trades;
  }

  /** The market's history, when the market exists and belongs to `seriesTicker`. */
  historyOf(ticker: string, seriesTicker: string): MarketHistory | undefined {
    const m = this.markets.get(ticker);
    return m === undefined || m.seed.series_ticker !== seriesTicker ? undefined : m.history;
  }

  /** A resting order's change on its book level: recorded in the top-of-book history and published. */
  private bookChanged(order: OrderRecord, deltaUnits: number, causedBy: OrderRecord): void {
    const market = this.markets.get(order.ticker);
    const book = this.engine.book(order.ticker);
    if (market === undefined || book === undefined || deltaUnits === 0) return;
    const now = this.clock();
    const top = book.depth(1, 'yes');
    market.history.recordQuote(now, topOfBook(top.bids[0], top.asks[0]));
    this.publishMarketData({
      kind: 'book_delta',
      ticker: order.ticker,
      bookSide: order.bookSide,
      yesPriceTicks: order.yesPriceTicks,
      deltaUnits,
      causedBy: { userId: causedBy.userId, clientOrderId: causedBy.clientOrderId },
      ms: now,
    });
  }

  private publishMarketData(event: MarketDataEvent): void {
    for (const listener of this.marketDataListeners) listener(event);
  }

  // ---- orders -------------------------------------------------------------------

  /** POST /portfolio/events/orders for `userId`. */
  createOrder(userId: string, input: unknown): ExchangeAnswer {
    this.expireOrders();
    this.ensureAccount(userId);
    const account = this.accounts.get(userId)!;
    const parsed = parseCreateOrderBody(input);
    if (!parsed.ok) return fail(parsed.error);
    const body = parsed.body;
    const { ticker, timeInForce: tif } = body;
    const bookSide = body.side;

    const market = this.markets.get(ticker);
    if (market === undefined) return fail(errors.marketNotFound());
    if (market.life.status !== 'active') return fail(marketClosed());
    const priceTicks = priceTicksOnRanges(body.price, market.seed.price_ranges ?? WHOLE_CENT_RANGES);
    if (priceTicks === null) return fail(errors.invalidPrice());
    const units = parseCount(body.count);
    if (units === null || units <= 0) return fail(errors.invalidOrder(`invalid count ${body.count}`));
    if (!(market.seed.fractional_trading_enabled ?? false) && units % 100 !== 0) {
      return fail(errors.invalidOrder('fractional contracts are not enabled on this market'));
    }

    const clientOrderId = body.clientOrderId ?? randomUUID();
    if (account.clientOrderIds.has(clientOrderId)) return fail(errors.orderAlreadyExists());

    const position = positionUnits(account, ticker);
    if (body.reduceOnly) {
      const reduces = bookSide === 'bid' ? position < 0 && units <= -position : position > 0 && units <= position;
      if (!reduces) return fail(errors.invalidOrder('reduce only order would increase position'));
    }
    if (body.postOnly && this.wouldCross(ticker, bookSide, priceTicks)) return fail(errors.invalidOrder('post only cross'));

    if (this.lacksCollateral(account, ticker, bookSide, units, priceTicks)) return fail(errors.insufficientBalance());

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
      selfTradePrevention: body.selfTradePrevention,
      createdMs: now,
      updatedMs: now,
      expirationTime: body.expirationTime,
    };
    this.orders.set(order.orderId, order);
    this.orderList.push(order);

    const result = this.match(order, tif);
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
    if (filled > 0) Object.assign(response, averages(bookSide, filled, order.takerFillCost.plus(order.makerFillCost), order.takerFees.plus(order.makerFees)));
    return ok(201, response);
  }

  /**
   * True when the account's cash does not cover the full cost, at the limit price, of the part of
   * `units` that opens exposure (the rest closes an opposite position at $1 per pair).
   */
  private lacksCollateral(account: Account, ticker: string, bookSide: BookSideV2, units: number, priceTicks: number): boolean {
    const position = positionUnits(account, ticker);
    const closable = bookSide === 'bid' ? Math.max(0, -position) : Math.max(0, position);
    const opening = Math.max(0, units - closable);
    const sidePrice = bookSide === 'bid' ? tickPrice(priceTicks) : tickPrice(TICKS_PER_DOLLAR - priceTicks);
    return contracts(opening).times(sidePrice).gt(account.balance);
  }

  /** DELETE /portfolio/events/orders/{order_id}. */
  cancelOrder(userId: string, orderId: string): ExchangeAnswer {
    const order = this.orders.get(orderId);
    if (order !== undefined && order.userId === userId && PAST_CLOSE.has(this.markets.get(order.ticker)?.life.status ?? '')) return fail(marketClosed());
    if (order === undefined || order.userId !== userId || order.status !== 'resting') return fail(errors.notFound());
    const reducedBy = order.remainingUnits;
    this.cancelResting(order);
    return ok(200, { order_id: order.orderId, client_order_id: order.clientOrderId, reduced_by: countFp(reducedBy), ts_ms: order.updatedMs });
  }

  /**
   * POST /portfolio/events/orders/{order_id}/amend: a new price and/or a new total count (filled +
   * wanted resting). Only a smaller count at the same price keeps the order's place in its queue;
   * any other change takes it off the book and places the new remainder at the back of its (new)
   * price, where it may cross and fill as a taker first (Amend Order (V2) note, openapi.yaml 3.28.0).
   * The order keeps its order_id (docs: the V2 response names "the order"); `updated_client_order_id`
   * gives it a new client id (the old one stays taken: client ids are permanent per account).
   */
  amendOrder(userId: string, orderId: string, input: unknown): ExchangeAnswer {
    this.expireOrders();
    const parsed = parseAmendOrderBody(input);
    if (!parsed.ok) return fail(parsed.error);
    const body = parsed.body;
    const order = this.orders.get(orderId);
    if (order !== undefined && order.userId === userId && PAST_CLOSE.has(this.markets.get(order.ticker)?.life.status ?? '')) return fail(marketClosed());
    if (order === undefined || order.userId !== userId || order.status !== 'resting') return fail(errors.notFound());
    const market = this.markets.get(order.ticker)!;
    if (market.life.status !== 'active') return fail(marketClosed());
    if (body.ticker !== order.ticker || body.side !== order.bookSide || (body.clientOrderId !== undefined && body.clientOrderId !== order.clientOrderId)) {
      return fail(errors.invalidOrder('order attributes mismatch: ticker, side and client_order_id must be those of the order'));
    }
    const priceTicks = priceTicksOnRanges(body.price, market.seed.price_ranges ?? WHOLE_CENT_RANGES);
    if (priceTicks === null) return fail(errors.invalidPrice());
    const units = parseCount(body.count);
    if (units === null || units <= 0) return fail(errors.invalidOrder(`invalid count ${body.count}`));
    if (!(market.seed.fractional_trading_enabled ?? false) && units % 100 !== 0) {
      return fail(errors.invalidOrder('fractional contracts are not enabled on this market'));
    }
    const newRemaining = units - order.filledUnits;
    if (newRemaining <= 0) {
      return fail(errors.invalidOrder(`invalid amend quantity for order: count ${body.count} must exceed the filled count ${countFp(order.filledUnits)}`));
    }
    const account = this.accounts.get(userId)!;
    const updated = body.updatedClientOrderId;
    if (updated !== undefined && updated !== order.clientOrderId && account.clientOrderIds.has(updated)) return fail(errors.orderAlreadyExists());
    const keepsPlace = priceTicks === order.yesPriceTicks && newRemaining <= order.remainingUnits;
    if (!keepsPlace && this.lacksCollateral(account, order.ticker, order.bookSide, newRemaining, priceTicks)) return fail(errors.insufficientBalance());

    const renamed = updated !== undefined && updated !== order.clientOrderId;
    if (renamed) {
      account.clientOrderIds.add(updated);
      order.clientOrderId = updated;
    }
    const before = { remaining: order.remainingUnits, filled: order.filledUnits, notional: order.takerFillCost.plus(order.makerFillCost), fees: order.takerFees.plus(order.makerFees) };
    if (keepsPlace) {
      if (newRemaining < order.remainingUnits) this.reduceResting(order, order.remainingUnits - newRemaining);
      else if (renamed) {
        order.updatedMs = this.clock();
        this.emitOrder(order);
      }
    } else {
      // Off the book, then to the back of the queue at its (new) price, as a taker first.
      const removed = order.remainingUnits;
      this.engine.cancel(order.orderId);
      this.bookChanged(order, -removed, order);
      order.yesPriceTicks = priceTicks;
      const totalUnits = order.filledUnits + newRemaining;
      this.applyPlaceResult(order, this.match(order, 'good_till_canceled', newRemaining), market, totalUnits);
    }
    const filledNow = order.filledUnits - before.filled;
    const changed = filledNow > 0 || order.remainingUnits !== before.remaining;
    // x-omitempty false: the four fields are always sent, null when the amend did not fill / resize.
    const response: Record<string, unknown> = {
      order_id: order.orderId,
      client_order_id: order.clientOrderId,
      remaining_count: changed ? countFp(order.remainingUnits) : null,
      fill_count: changed ? countFp(filledNow) : null,
      average_fill_price: null,
      average_fee_paid: null,
      ts_ms: this.clock(),
    };
    if (filledNow > 0) {
      Object.assign(
        response,
        averages(order.bookSide, filledNow, order.takerFillCost.plus(order.makerFillCost).minus(before.notional), order.takerFees.plus(order.makerFees).minus(before.fees)),
      );
    }
    return ok(200, response);
  }

  /**
   * POST /portfolio/events/orders/{order_id}/decrease: `reduce_by` or `reduce_to` (the resting
   * count after it). Keeps the order's place in its queue; to zero it is a cancel. A `reduce_by`
   * larger than what rests is clamped to it (reported of V1's decrease by a client; assumed the
   * same in V2), a `reduce_to` above what rests is refused.
   */
  decreaseOrder(userId: string, orderId: string, input: unknown): ExchangeAnswer {
    this.expireOrders();
    const parsed = parseDecreaseOrderBody(input);
    if (!parsed.ok) return fail(parsed.error);
    const order = this.orders.get(orderId);
    const market = order === undefined ? undefined : this.markets.get(order.ticker);
    if (order !== undefined && order.userId === userId && PAST_CLOSE.has(market?.life.status ?? '')) return fail(marketClosed());
    if (order === undefined || market === undefined || order.userId !== userId || order.status !== 'resting') return fail(errors.notFound());
    const text = 'reduceBy' in parsed.body ? parsed.body.reduceBy : parsed.body.reduceTo;
    const units = parseCount(text);
    if (units === null) return fail(errors.invalidOrder(`invalid count ${text}`));
    if (!(market.seed.fractional_trading_enabled ?? false) && units % 100 !== 0) {
      return fail(errors.invalidOrder('fractional contracts are not enabled on this market'));
    }
    let reduceBy: number;
    if ('reduceBy' in parsed.body) {
      if (units <= 0) return fail(errors.invalidOrder('reduce_by must be positive'));
      reduceBy = Math.min(units, order.remainingUnits);
    } else {
      if (units > order.remainingUnits) return fail(errors.invalidOrder(`reduce_to ${text} is above the remaining count ${countFp(order.remainingUnits)}`));
      reduceBy = order.remainingUnits - units;
    }
    if (reduceBy === order.remainingUnits) this.cancelResting(order);
    else if (reduceBy > 0) this.reduceResting(order, reduceBy);
    return ok(200, { order_id: order.orderId, client_order_id: order.clientOrderId, remaining_count: countFp(order.remainingUnits), ts_ms: order.updatedMs });
  }

  /**
   * POST /portfolio/events/orders/batched: every item checked first (one malformed item refuses the
   * call), then each created as POST /portfolio/events/orders would, in order, and answered on its
   * own: `{order_id, client_order_id, fill_count, remaining_count, average_fill_price,
   * average_fee_paid, ts_ms}` or `{client_order_id?, ..., error}` (openapi.yaml 3.28.0
   * BatchCreateOrdersV2Response: the count, average and ts_ms fields are nullable and never
   * omitted, so they are null where they do not apply; `order_id` and `error` are left out).
   */
  batchCreateOrders(userId: string, input: unknown): ExchangeAnswer {
    const parsed = parseBatchCreateBody(input);
    if (!parsed.ok) return fail(parsed.error);
    const orders = parsed.body.map((item) => {
      const answer = this.createOrder(userId, item);
      if (answer.status === 201) return { average_fill_price: null, average_fee_paid: null, ...(answer.body as object) };
      const clientOrderId = item.client_order_id;
      return {
        ...(typeof clientOrderId === 'string' && clientOrderId !== '' ? { client_order_id: clientOrderId } : {}),
        fill_count: null,
        remaining_count: null,
        average_fill_price: null,
        average_fee_paid: null,
        ts_ms: null,
        error: itemError(answer.body),
      };
    });
    return ok(201, { orders });
  }

  /**
   * DELETE /portfolio/events/orders/batched: each order canceled as DELETE
   * /portfolio/events/orders/{order_id} would, answered on its own: `{order_id, client_order_id,
   * reduced_by, ts_ms}` or `{order_id, reduced_by: "0.00", ts_ms: null, error}` (openapi.yaml
   * 3.28.0 BatchCancelOrdersV2Response: reduced_by "Zero if the cancel errored", ts_ms "Absent
   * when the cancel errored" but never omitted).
   */
  batchCancelOrders(userId: string, input: unknown): ExchangeAnswer {
    const parsed = parseBatchCancelBody(input);
    if (!parsed.ok) return fail(parsed.error);
    const orders = parsed.body.map((orderId) => {
      const answer = this.cancelOrder(userId, orderId);
      if (answer.status === 200) return answer.body;
      return { order_id: orderId, reduced_by: countFp(0), ts_ms: null, error: itemError(answer.body) };
    });
    return ok(200, { orders });
  }

  /**
   * The known venue bug (changelog 2026-05-21, "V2 cancel/amend response correctness"): "responses
   * from DELETE .../events/orders/{order_id} and POST .../events/orders/{order_id}/amend do not
   * describe the order that was cancelled or amended — the order_id, client_order_id, and quantity
   * fields ... may not correspond to your request. The cancel or amend itself executes correctly".
   * `answer` is the true answer of a cancel or amend of `actedOn`; this is the same answer telling
   * of another order of the account (its newest other order), or of an order id nobody has when the
   * account has no other order.
   */
  misdescribe(userId: string, actedOn: string, kind: MisdescribableAnswer, answer: ExchangeAnswer): ExchangeAnswer {
    const other = [...this.orderList].reverse().find((o) => o.userId === userId && o.orderId !== actedOn);
    const described = {
      order_id: other?.orderId ?? randomUUID(),
      client_order_id: other?.clientOrderId ?? randomUUID(),
      remainingUnits: other?.remainingUnits ?? 0,
      filledUnits: other?.filledUnits ?? 0,
    };
    const body = answer.body as Record<string, unknown>;
    if (kind === 'cancel') {
      return ok(answer.status, { ...body, order_id: described.order_id, client_order_id: described.client_order_id, reduced_by: countFp(described.remainingUnits) });
    }
    return ok(answer.status, {
      ...body,
      order_id: described.order_id,
      client_order_id: described.client_order_id,
      remaining_count: countFp(described.remainingUnits),
      fill_count: countFp(described.filledUnits),
    });
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

  /** Takes `units` (below what rests) off a resting order where it stands: its queue place is kept. */
  private reduceResting(order: OrderRecord, units: number): void {
    this.engine.reduce(order.orderId, order.remainingUnits - units);
    order.remainingUnits -= units;
    order.updatedMs = this.clock();
    this.bookChanged(order, -units, order);
    this.emitOrder(order);
  }

  private cancelResting(order: OrderRecord): void {
    const removed = order.remainingUnits;
    this.engine.cancel(order.orderId);
    order.remainingUnits = 0;
    order.status = 'canceled';
    order.updatedMs = this.clock();
    this.bookChanged(order, -removed, order);
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

  /** Places `quantity` (default: the whole order) of the order at its price, as a taker first. */
  private match(order: OrderRecord, tif: TimeInForceV2, quantity: number = order.initialUnits): PlaceResult | null {
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
      quantity,
      timeInForce: engineTif,
    });
  }

  /** `totalUnits`: the order's size after the placement, filled plus open (an amend changes it). */
  private applyPlaceResult(order: OrderRecord, result: PlaceResult | null, market: Market, totalUnits: number = order.initialUnits): void {
    const fills = result?.fills ?? [];
    for (let i = 0; i + 1 < fills.length; i += 2) this.applyMatch(fills[i]!, fills[i + 1]!, market);
    order.remainingUnits = result?.status === 'resting' ? result.restingQuantity : 0;
    order.status = order.remainingUnits > 0 ? 'resting' : order.filledUnits === totalUnits ? 'executed' : 'canceled';
    order.updatedMs = this.clock();
    if (order.status === 'resting') this.bookChanged(order, order.remainingUnits, order);
    this.emitOrder(order);
  }

  private applyMatch(takerLeg: FillEvent, makerLeg: FillEvent, market: Market): void {
    const now = this.clock();
    market.lastPriceTicks = takerLeg.yesPriceTicks;
    market.volumeUnits += takerLeg.quantity;
    market.lastTradeUnits = takerLeg.quantity;
    market.dollarVolume = market.dollarVolume.plus(contracts(takerLeg.quantity).times(tickPrice(takerLeg.yesPriceTicks)));
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
      const postPosition = applyFill(this.accounts.get(order.userId)!, { ticker: order.ticker, bookSide: order.bookSide, units, ownPrice, fee, nowMs: now });
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
      this.emit(order.userId, { channel: 'fill', msg: fillWsJson(fill) });
      if (!isTaker) this.emitOrder(order);
    }
    const takerOrder = this.orders.get(takerLeg.orderId)!;
    this.bookChanged(this.orders.get(makerLeg.orderId)!, -makerLeg.quantity, takerOrder);
    this.recordPublicTrade(market, takerOrder.bookSide, takerLeg, now);
  }

  /** Every match is a public trade, whoever the participants (the fake market maker too). */
  private recordPublicTrade(market: Market, takerBookSide: BookSideV2, takerLeg: FillEvent, now: number): void {
    const trade: PublicTradeRecord = {
      tradeId: randomUUID(),
      sequence: this.trades.length + 1,
      ticker: market.seed.ticker,
      yesPriceTicks: takerLeg.yesPriceTicks,
      units: takerLeg.quantity,
      takerBookSide,
      createdMs: now,
    };
    this.trades.push(trade);
    market.history.recordTrade(trade);
    market.history.recordOpenInterest(now, openInterestUnits(this.accounts.values(), market.seed.ticker));
    this.publishMarketData({ kind: 'trade', trade });
  }

  // ---- market lifecycle (the control API drives it) -----------------------------

  /**
   * Closes the market now: status `closed`, every resting order on it canceled. Before the seed's
   * close_time it is an early close: close_time moves to now and `close_date_updated` is sent.
   */
  closeMarket(ticker: string, delivery: NoticeDelivery = SENT): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    if (PAST_CLOSE.has(market.life.status)) return { ok: false, status: 409, message: `market ${ticker} is already ${market.life.status}` };
    this.close(market, delivery);
    return { ok: true, market: this.marketJson(ticker)! };
  }

  /**
   * Sets the result (closing the market first if it is still open): `determined`, or `amended`
   * when it was determined (or disputed) already. Either way `determined` is sent with the result.
   */
  determineMarket(ticker: string, determination: Determination, delivery: NoticeDelivery = SENT): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    const life = market.life;
    if (life.status === 'finalized') return { ok: false, status: 409, message: `market ${ticker} is finalized` };
    if (!PAST_CLOSE.has(life.status)) this.close(market, SENT);
    const redetermined = life.status === 'determined' || life.status === 'disputed' || life.status === 'amended';
    life.status = redetermined ? 'amended' : 'determined';
    life.result = determination.result;
    life.settlementValueTicks = determination.settlementValueTicks;
    if (determination.expirationValue !== undefined) life.expirationValue = determination.expirationValue;
    life.determinedMs = this.clock();
    this.notice(determinedMsg(ticker, life), delivery);
    return { ok: true, market: this.marketJson(ticker)! };
  }

  /** A challenged result: `disputed` (no WebSocket event exists for it). */
  disputeMarket(ticker: string): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    if (market.life.status !== 'determined' && market.life.status !== 'amended') {
      return { ok: false, status: 409, message: `market ${ticker} is ${market.life.status}, only a determined or amended market can be disputed` };
    }
    market.life.status = 'disputed';
    return { ok: true, market: this.marketJson(ticker)! };
  }

  /**
   * Finalizes a determined (or amended) market: every account with a net position in it gets one
   * settlement record, its cash credited with the revenue, its position paid out; then `settled`.
   */
  settleMarket(ticker: string, delivery: NoticeDelivery = SENT): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    const life = market.life;
    if (life.status !== 'determined' && life.status !== 'amended') {
      return { ok: false, status: 409, message: `market ${ticker} is ${life.status}, only a determined or amended market settles` };
    }
    const result = life.result;
    // A market seeded as determined has no result: it must be determined through the control API first.
    if (result === '') return { ok: false, status: 409, message: `market ${ticker} has no result` };
    const now = this.clock();
    life.status = 'finalized';
    life.settledMs = now;
    const valueCents = life.settlementValueTicks === null ? null : life.settlementValueTicks / 100;
    const written: { user_id: string; settlement: object }[] = [];
    for (const account of this.accounts.values()) {
      const paid = settlePosition(account, ticker, result, life.settlementValueTicks, now);
      if (paid === null) continue;
      const record: SettlementRecord = {
        userId: account.userId,
        ticker,
        eventTicker: market.seed.event_ticker,
        result,
        ...paid,
        valueCents,
        settledMs: now,
      };
      this.settlements.push(record);
      written.push({ user_id: account.userId, settlement: settlementJson(record) });
    }
    market.history.recordOpenInterest(now, openInterestUnits(this.accounts.values(), ticker));
    this.publishMarketData({ kind: 'stats', ticker });
    this.notice(settledMsg(ticker, now), delivery);
    return { ok: true, market: this.marketJson(ticker)!, settlements: written };
  }

  /** Pauses trading on an active market: `inactive`, `deactivated` sent. Resting orders stay. */
  deactivateMarket(ticker: string, delivery: NoticeDelivery = SENT): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    if (market.life.status !== 'active') return { ok: false, status: 409, message: `market ${ticker} is ${market.life.status}, only an active market is deactivated` };
    market.life.status = 'inactive';
    this.notice(activationMsg(ticker, true), delivery);
    return { ok: true, market: this.marketJson(ticker)! };
  }

  /** Resumes a deactivated market: `active`, every resting order canceled, `activated` sent. */
  activateMarket(ticker: string, delivery: NoticeDelivery = SENT): LifecycleOutcome {
    const market = this.markets.get(ticker);
    if (market === undefined) return { ok: false, status: 404, message: `unknown market ${ticker}` };
    if (market.life.status !== 'inactive') return { ok: false, status: 409, message: `market ${ticker} is ${market.life.status}, only an inactive market is activated` };
    market.life.status = 'active';
    this.cancelAllResting(ticker);
    this.notice(activationMsg(ticker, false), delivery);
    return { ok: true, market: this.marketJson(ticker)! };
  }

  /** GET /portfolio/settlements for `userId`: newest first; min_ts / max_ts on settled_time in whole unix seconds, inclusive. */
  listSettlements(userId: string, filter: { ticker?: string; eventTicker?: string; minTs?: number; maxTs?: number }): object[] {
    return this.settlements
      .filter(
        (r) =>
          r.userId === userId &&
          (filter.ticker === undefined || r.ticker === filter.ticker) &&
          (filter.eventTicker === undefined || r.eventTicker === filter.eventTicker) &&
          (filter.minTs === undefined || Math.floor(r.settledMs / 1000) >= filter.minTs) &&
          (filter.maxTs === undefined || Math.floor(r.settledMs / 1000) <= filter.maxTs),
      )
      .reverse()
      .map((r) => settlementJson(r));
  }

  private close(market: Market, delivery: NoticeDelivery): void {
    const now = this.clock();
    market.life.status = 'closed';
    this.cancelAllResting(market.seed.ticker);
    if (now < Date.parse(market.seed.close_time)) {
      market.life.closeTime = isoSeconds(now);
      this.notice(closeDateUpdatedMsg(market.seed.ticker, now), delivery);
    }
  }

  private cancelAllResting(ticker: string): void {
    for (const order of this.orderList) if (order.ticker === ticker && order.status === 'resting') this.cancelResting(order);
  }

  private notice(msg: object, delivery: NoticeDelivery): void {
    for (const listener of this.noticeListeners) listener({ msg, delivery });
  }

  // ---- reads --------------------------------------------------------------------

  getOrder(userId: string, orderId: string): ExchangeAnswer {
    const order = this.orders.get(orderId);
    if (order === undefined || order.userId !== userId) return fail(errors.notFound());
    return ok(200, { order: orderJson(order) });
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

  positionsJson(userId: string, ticker?: string, settlementStatus: SettlementStatusFilter = 'unsettled'): object[] {
    const account = this.accounts.get(userId);
    if (account === undefined) return [];
    return positionRows(
      account,
      ticker,
      (t) => this.orderList.filter((o) => o.userId === userId && o.ticker === t && o.status === 'resting').length,
      settlementStatus,
    );
  }

  balanceJson(userId: string): object {
    this.ensureAccount(userId);
    return balanceJson(this.accounts.get(userId)!);
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

  private emitOrder(o: OrderRecord): void {
    this.emit(o.userId, { channel: 'user_orders', msg: userOrderWsJson(o) });
  }

  private emit(userId: string, event: UserEvent): void {
    for (const listener of this.listeners) listener(userId, event);
  }
}
