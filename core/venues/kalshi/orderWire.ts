import { Decimal, formatDecimal, parseDecimalString } from '../../domain/decimals';
import { restsOnBook, type OrderAction, type OutcomeSide, type VenueTimeInForce } from '../../domain/orderTerms';
import type { OurOrderRecord, VenueFill, VenueOrderRequest, VenueOrderState } from '../venue';
import { recordOf, type WireRecord } from '../wireRecords';

/**
 * Our orders and fills in Kalshi's wire shapes and back (Trade API v2, docs as of 2026-08; order
 * writes on the V2 `/portfolio/events/orders` endpoints since June 2026; docs/VENUES.md, and the
 * shapes the fake records in fakes/kalshi/wireShapes.ts and exchange.ts). Pure: no I/O.
 *
 * V2 `side` is the YES leg only: `bid` buys YES, `ask` sells YES, and selling YES at q is buying NO
 * at 1 - q. So: YES buy at p = bid p; YES sell at p = ask p; NO buy at p = ask 1 - p; NO sell at
 * p = bid 1 - p. Prices are fixed-point dollars with 4 decimals ("0.5600"), counts with 2
 * ("10.00"); we refuse, never round, a figure with more decimals than that.
 */

/** Kalshi's V2 create body (`POST /portfolio/events/orders`), as we send it. */
export interface KalshiCreateOrderBody {
  readonly ticker: string;
  readonly side: KalshiBookSide;
  readonly count: string;
  readonly price: string;
  readonly time_in_force: KalshiTimeInForce;
  readonly self_trade_prevention_type: 'taker_at_cross';
  readonly client_order_id: string;
  /** A gtd order's end, unix seconds (V2 create `expiration_time`): the venue cancels the order then. */
  readonly expiration_time?: number;
  /** V2 create's flags, sent only when set (openapi.yaml 3.28.0 CreateOrderV2: `post_only`, `reduce_only`). */
  readonly post_only?: true;
  readonly reduce_only?: true;
}

export type KalshiBookSide = 'bid' | 'ask';
export type KalshiTimeInForce = 'good_till_canceled' | 'immediate_or_cancel' | 'fill_or_kill';

/** Why an order cannot be written in Kalshi's terms; nothing was sent. */
export interface KalshiWireRefusal {
  readonly code: 'not_a_decimal' | 'quantity_not_positive' | 'quantity_precision' | 'price_precision' | 'price_out_of_range' | 'price_missing' | 'market_order_rests' | 'expiration_missing';
  readonly param: 'quantity' | 'price' | 'timeInForce' | 'expiresAt';
  readonly message: string;
}

export type KalshiCreateBodyResult = { readonly ok: true; readonly body: KalshiCreateOrderBody } | { readonly ok: false; readonly refusal: KalshiWireRefusal };

/** Our order's terms that Kalshi's order and fill reads are mapped into. */
export type OurOrderTerms = Pick<OurOrderRecord, 'clientOrderId' | 'venueMarketId' | 'side' | 'action'>;

const COUNT_DECIMALS = 2;
const PRICE_DECIMALS = 4;
const ONE = new Decimal(1);

/**
 * A market order's limit when the request names no worst price: the extreme of the YES leg that
 * is a valid price on every Kalshi `price_ranges` structure (linear cent, deci-cent and tapered
 * deci-cent grids all contain 0.01 and 0.99, since both are whole cents), so it can never be
 * refused as off-tick, and it crosses everything but a deci-cent level beyond it.
 */
export const MARKET_BID_LIMIT = '0.9900';
export const MARKET_ASK_LIMIT = '0.0100';

const TIME_IN_FORCE: Readonly<Record<VenueTimeInForce, KalshiTimeInForce>> = {
  gtc: 'good_till_canceled',
  ioc: 'immediate_or_cancel',
  fok: 'fill_or_kill',
  // A gtd order rests until canceled, with its end sent as `expiration_time` (createOrderBody).
  gtd: 'good_till_canceled',
};

/** The V2 book side of our order: YES buy = bid, YES sell = ask, NO buy = ask, NO sell = bid. */
export function kalshiBookSide(side: OutcomeSide, action: OrderAction): KalshiBookSide {
  return (side === 'yes') === (action === 'buy') ? 'bid' : 'ask';
}

/** Our price (in the order's own terms) on Kalshi's YES leg. */
export function yesLegPrice(side: OutcomeSide, price: Decimal): Decimal {
  return side === 'yes' ? price : ONE.sub(price);
}

/**
 * Kalshi's `expiration_time` (V2 create, unix seconds) for our `expiresAt`: the second it falls in,
 * rounded up, so the order never leaves the book before the time the client gave (at most 999 ms
 * after it). Undefined when missing or unreadable.
 */
function expirationSecondsOf(expiresAt: string | undefined): number | undefined {
  const at = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
  return Number.isNaN(at) ? undefined : Math.ceil(at / 1000);
}

const refuse = (code: KalshiWireRefusal['code'], param: KalshiWireRefusal['param'], message: string): { readonly ok: false; readonly refusal: KalshiWireRefusal } => ({
  ok: false,
  refusal: { code, param, message: `${message}; the order was not sent to Kalshi.` },
});

/**
 * The V2 create body of our order. `client_order_id` is our order id, so a re-send after a lost
 * answer is answered 409 `order_already_exists` instead of placing a second order.
 *
 * Self-trade prevention `taker_at_cross`: where our new order would meet a resting order of the
 * same account, Kalshi cancels the NEW order at that price and leaves the resting one alone (the
 * alternative, `maker`, cancels our resting orders: other orders of ours that we would then only
 * learn about from a later read or the order stream). With `taker_at_cross` the effect stays on
 * the order being placed and comes back in its own answer (fill_count, remaining_count).
 *
 * A market order has no type on V2: it is sent as IOC or FOK (a market order never rests) at the
 * request's worst price if it names one, else at MARKET_BID_LIMIT / MARKET_ASK_LIMIT.
 */
export function createOrderBody(request: VenueOrderRequest): KalshiCreateBodyResult {
  const quantity = parseDecimalString(request.quantity);
  if (quantity === null) return refuse('not_a_decimal', 'quantity', `quantity '${String(request.quantity)}' is not a decimal string`);
  if (quantity.lte(0)) return refuse('quantity_not_positive', 'quantity', 'quantity must be greater than 0');
  if (quantity.decimalPlaces() > COUNT_DECIMALS) {
    return refuse('quantity_precision', 'quantity', `Kalshi counts contracts to ${COUNT_DECIMALS} decimals; quantity ${request.quantity} has more`);
  }
  if (request.type === 'market' && restsOnBook(request.timeInForce)) {
    return refuse('market_order_rests', 'timeInForce', 'a market order is sent as ioc or fok, never gtc or gtd');
  }
  const expirationTime = request.timeInForce === 'gtd' ? expirationSecondsOf(request.expiresAt) : null;
  if (expirationTime === undefined) return refuse('expiration_missing', 'expiresAt', 'a gtd order needs expiresAt, an RFC 3339 time');
  const side = kalshiBookSide(request.side, request.action);
  let yesPrice: Decimal;
  if (request.price !== undefined) {
    const price = parseDecimalString(request.price);
    if (price === null) return refuse('not_a_decimal', 'price', `price '${String(request.price)}' is not a decimal string`);
    if (price.decimalPlaces() > PRICE_DECIMALS) {
      return refuse('price_precision', 'price', `Kalshi prices are fixed-point dollars with ${PRICE_DECIMALS} decimals; price ${request.price} has more`);
    }
    if (price.lte(0) || price.gte(1)) return refuse('price_out_of_range', 'price', `price ${request.price} is not between 0 and 1`);
    yesPrice = yesLegPrice(request.side, price);
  } else if (request.type === 'market') {
    yesPrice = new Decimal(side === 'bid' ? MARKET_BID_LIMIT : MARKET_ASK_LIMIT);
  } else {
    return refuse('price_missing', 'price', 'a limit order needs a price');
  }
  return {
    ok: true,
    body: {
      ticker: request.venueMarketId,
      side,
      count: quantity.toFixed(COUNT_DECIMALS),
      price: yesPrice.toFixed(PRICE_DECIMALS),
      time_in_force: TIME_IN_FORCE[request.timeInForce],
      self_trade_prevention_type: 'taker_at_cross',
      client_order_id: request.clientOrderId,
      ...(expirationTime !== null ? { expiration_time: expirationTime } : {}),
      ...(request.postOnly ? { post_only: true as const } : {}),
      ...(request.reduceOnly ? { reduce_only: true as const } : {}),
    },
  };
}

// --- reading Kalshi's answers --------------------------------------------------------------

const textOf = (record: WireRecord, key: string): string | null => (typeof record[key] === 'string' && record[key] !== '' ? (record[key] as string) : null);
const decimalOf = (record: WireRecord, key: string): Decimal | null => parseDecimalString(record[key]);

function state(venueOrderId: string | null, clientOrderId: string, status: VenueOrderState['status'], filled: Decimal, remaining: Decimal): VenueOrderState {
  return { venueOrderId, clientOrderId, status, filledQuantity: formatDecimal(filled), remainingQuantity: formatDecimal(status === 'open' ? remaining : new Decimal(0)) };
}

/**
 * Our view of a V2 create answer (201 `{order_id, client_order_id, fill_count, remaining_count,
 * average_fill_price?, average_fee_paid?, ts_ms}`): all of it filled = filled; a good-till-canceled
 * remainder rests = open; anything else (an IOC/FOK remainder, or an order Kalshi stopped for
 * self-trade prevention) = canceled. Null when the body cannot be read.
 */
export function stateFromCreateAnswer(answer: unknown, request: Pick<VenueOrderRequest, 'clientOrderId' | 'quantity' | 'timeInForce'>): VenueOrderState | null {
  const body = recordOf(answer);
  const orderId = body && textOf(body, 'order_id');
  const filled = body && decimalOf(body, 'fill_count');
  const remaining = body && decimalOf(body, 'remaining_count');
  if (!orderId || !filled || !remaining) return null;
  if (remaining.gt(0) && restsOnBook(request.timeInForce)) return state(orderId, request.clientOrderId, 'open', filled, remaining);
  return state(orderId, request.clientOrderId, filled.gte(request.quantity) ? 'filled' : 'canceled', filled, remaining);
}

const REST_STATUS: Readonly<Record<string, VenueOrderState['status']>> = { resting: 'open', executed: 'filled', canceled: 'canceled' };

/**
 * Our view of a REST Order (`GET /portfolio/orders[/{id}]`: `status` resting | canceled |
 * executed, `fill_count_fp`, `remaining_count_fp`, `client_order_id`). Null when unreadable or in
 * a status the 2026-08 docs do not list.
 */
export function stateFromRestOrder(raw: unknown): VenueOrderState | null {
  const order = recordOf(raw);
  if (order === null) return null;
  const orderId = textOf(order, 'order_id');
  const status = REST_STATUS[textOf(order, 'status') ?? ''];
  const filled = decimalOf(order, 'fill_count_fp');
  const remaining = decimalOf(order, 'remaining_count_fp');
  if (!orderId || !status || !filled || !remaining) return null;
  return state(orderId, textOf(order, 'client_order_id') ?? '', status, filled, remaining);
}

/** A REST Order's limit price on the YES leg (`yes_price_dollars`), null when unreadable: our side's price is `yesLegPrice(side, it)`. */
export function yesPriceOfRestOrder(raw: unknown): Decimal | null {
  const order = recordOf(raw);
  return order === null ? null : decimalOf(order, 'yes_price_dollars');
}

/**
 * The V2 amend body (`POST /portfolio/events/orders/{order_id}/amend`, openapi.yaml 3.28.0
 * AmendOrderV2): the order's ticker and V2 side, its new YES-leg price and its new TOTAL count
 * (what filled included). Kalshi keeps the queue place only when the size drops.
 */
export interface KalshiAmendOrderBody {
  readonly ticker: string;
  readonly side: KalshiBookSide;
  readonly price: string;
  readonly count: string;
  readonly client_order_id: string;
}

export function amendOrderBody(
  record: Pick<OurOrderRecord, 'venueMarketId' | 'side' | 'action' | 'clientOrderId'>,
  price: string,
  quantity: string,
): { readonly ok: true; readonly body: KalshiAmendOrderBody } | { readonly ok: false; readonly refusal: KalshiWireRefusal } {
  const count = parseDecimalString(quantity);
  const ownPrice = parseDecimalString(price);
  if (count === null || count.decimalPlaces() > COUNT_DECIMALS || count.lte(0)) return refuse('quantity_precision', 'quantity', `quantity ${quantity} is not a count Kalshi takes`);
  if (ownPrice === null || ownPrice.decimalPlaces() > PRICE_DECIMALS || ownPrice.lte(0) || ownPrice.gte(1)) return refuse('price_out_of_range', 'price', `price ${price} is not a Kalshi price`);
  return {
    ok: true,
    body: {
      ticker: record.venueMarketId,
      side: kalshiBookSide(record.side, record.action),
      price: yesLegPrice(record.side, ownPrice).toFixed(PRICE_DECIMALS),
      count: count.toFixed(COUNT_DECIMALS),
      client_order_id: record.clientOrderId,
    },
  };
}

/** The order a fill belongs to: `order_id` always, `client_order_id` on the WebSocket only. */
export function fillOrderIds(raw: unknown): { venueOrderId: string; clientOrderId: string | null } | null {
  const fill = recordOf(raw);
  const venueOrderId = fill && textOf(fill, 'order_id');
  return venueOrderId ? { venueOrderId, clientOrderId: textOf(fill!, 'client_order_id') } : null;
}

/**
 * A fill in our order's own terms. Our side comes from our order, never from the fill's leg
 * fields: our YES sell is an ask, whose leg Kalshi reports as "no". The price is
 * `yes_price_dollars` for a YES order and `no_price_dollars` (= 1 - yes) for a NO order.
 */
function fillOf(fill: WireRecord, order: OurOrderTerms, executedAtMs: number | null): VenueFill | null {
  const fillId = textOf(fill, 'fill_id');
  const venueOrderId = textOf(fill, 'order_id');
  const yes = decimalOf(fill, 'yes_price_dollars');
  const quantity = decimalOf(fill, 'count_fp');
  const fee = decimalOf(fill, 'fee_cost');
  if (!fillId || !venueOrderId || !yes || !quantity || !fee || executedAtMs === null || Number.isNaN(executedAtMs)) return null;
  const price = order.side === 'yes' ? yes : (decimalOf(fill, 'no_price_dollars') ?? ONE.sub(yes));
  return {
    venueFillId: fillId,
    venueOrderId,
    clientOrderId: order.clientOrderId,
    venueMarketId: textOf(fill, 'ticker') ?? textOf(fill, 'market_ticker') ?? order.venueMarketId,
    side: order.side,
    action: order.action,
    price: formatDecimal(price),
    quantity: formatDecimal(quantity),
    fee: formatDecimal(fee),
    isTaker: fill.is_taker === true,
    executedAt: new Date(executedAtMs).toISOString(),
  };
}

/** A REST fill (`GET /portfolio/fills`; executed at `created_time`, RFC 3339) of our order. */
export function fillFromRest(raw: unknown, order: OurOrderTerms): VenueFill | null {
  const fill = recordOf(raw);
  const created = fill && textOf(fill, 'created_time');
  return fill && created ? fillOf(fill, order, Date.parse(created)) : null;
}

/** A WebSocket `fill` message's `msg` (executed at `ts_ms`) of our order. */
export function fillFromStream(raw: unknown, order: OurOrderTerms): VenueFill | null {
  const fill = recordOf(raw);
  return fill && typeof fill.ts_ms === 'number' ? fillOf(fill, order, fill.ts_ms) : null;
}
