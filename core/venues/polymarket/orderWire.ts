import { Decimal } from '../../domain/decimals';
import { polymarketMarketOrderWorstPrice, polymarketTakerFee } from '../../domain/venueRules';
import type { OrderAction, OutcomeSide, VenueTimeInForce } from '../../domain/orderTerms';
import type { VenueFill, VenueOrderState } from '../venue';
import { polymarketSaltFor, type PolymarketExactOrder } from './signing';

/**
 * Our orders and the CLOB V2 wire (shapes from the official client, github.com/Polymarket/
 * clob-client-v2 at f3e1a05: src/types/clob.ts `OpenOrder`, `Trade`, `MakerOrder`,
 * `OrderResponse`; amounts from src/order-builder/helpers/getOrderRawAmounts.ts).
 *
 * Identity: Polymarket has no client order id; an order's id is the EIP-712 hash of the signed
 * order. So the signed order is a pure function of OUR order: the salt comes from our client order
 * id (signing.ts polymarketSaltFor), the `timestamp` is our order's creation time (ms), and the
 * amounts are computed here exactly from its decimal price and quantity (never the client's float
 * rounding). Sending it again can only be answered `Duplicated`, never make a second order, and the
 * order can be found by its hash before the venue ever answered.
 *
 * A YES order trades the market's YES token and a NO order its NO token, each at the price in the
 * order's own terms (the token's price); buy is BUY and sell is SELL.
 */

/** What the adapter needs of one of our Polymarket markets (the catalog's row: venue_market_id = condition id). */
export interface PolymarketMarketTerms {
  /** The condition id. */
  readonly venueMarketId: string;
  readonly yesTokenId: string;
  readonly noTokenId: string;
  readonly negRisk: boolean;
  /** The token's tick, one of the V2 tick sizes. */
  readonly tickSize: string;
  readonly minSize: string;
}

/** The markets the adapter trades, answered from our catalog (the core reads the database). */
export interface PolymarketMarkets {
  byVenueMarketId(venueMarketId: string): Promise<PolymarketMarketTerms | null>;
  /** The markets this account has orders in (for `positions`). */
  traded(): Promise<PolymarketMarketTerms[]>;
}

/** One of our orders, as much as its signed form depends on. */
export interface PolymarketOrderTerms {
  readonly clientOrderId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  readonly type: 'limit' | 'market';
  readonly price?: string | null;
  readonly quantity: string;
  readonly timeInForce: VenueTimeInForce;
  readonly createdAt: Date;
  /** gtd: when the order must leave the book (signed into its `expiration`: polymarketExpirationOf). */
  readonly expiresAt?: string | Date | null;
  /** Sent as the request's `postOnly` (CLOB V2; not part of the signed order, so not of its hash). */
  readonly postOnly?: boolean;
}

export type PolymarketOrderType = 'GTC' | 'FOK' | 'FAK' | 'GTD';

/**
 * A GTD order leaves Polymarket's book one minute before its signed `expiration` (the venue's
 * security threshold: docs.polymarket.com "Orders overview", GTD), so we sign our `expiresAt`
 * (rounded up to the second) plus that minute: the order leaves the book at the time the client
 * gave. The venue refuses an expiration less than 3 minutes ahead; the core refuses such an
 * `expiresAt` before sending (the venue module's `gtdMinLeadMs`).
 */
export const POLYMARKET_GTD_THRESHOLD_SECONDS = 60;

export function polymarketExpirationOf(expiresAt: string | Date): number | null {
  const at = typeof expiresAt === 'string' ? Date.parse(expiresAt) : expiresAt.getTime();
  return Number.isNaN(at) ? null : Math.ceil(at / 1000) + POLYMARKET_GTD_THRESHOLD_SECONDS;
}

const AMOUNT_SCALE = new Decimal(1_000_000);

export type WireOrder = { ok: true; exact: PolymarketExactOrder; orderType: PolymarketOrderType; tokenId: string; price: string } | { ok: false; param: string; message: string };

const refuse = (param: string, message: string): { ok: false; param: string; message: string } => ({ ok: false, param, message });

/**
 * The exact order for one of ours, a pure function of OUR order (and the market's token ids and
 * exchange): what it is signed and hashed as, for a send and for every lookup or cancel by its hash.
 * It checks nothing that the catalog could change later (the tick: `tickRuleRefusal`), so an order
 * once sent always hashes the same. Limit gtc -> GTC; gtd -> GTD (expiration signed from expiresAt); ioc -> FAK; fok -> FOK. A market order is a
 * FOK or FAK at its worst acceptable price (the client's market orders are signed that way too: a
 * price bound and an amount; src/order-builder/helpers/getMarketOrderRawAmounts.ts): the price our
 * order service fixed and stored when the order was created (orders.ts `placeOrder`); a record
 * without one (made before that) is priced under the market's current tick, as it was then.
 */
export function wireOrderOf(order: PolymarketOrderTerms, market: PolymarketMarketTerms): WireOrder {
  const orderType: PolymarketOrderType | null =
    order.timeInForce === 'fok' ? 'FOK' : order.timeInForce === 'ioc' ? 'FAK' : order.type !== 'limit' ? null : order.timeInForce === 'gtd' ? 'GTD' : 'GTC';
  if (orderType === null) return refuse('time_in_force', 'A Polymarket market order is fill-or-kill or immediate-or-cancel (FOK or FAK); it cannot rest.');
  const expiration = orderType === 'GTD' ? (order.expiresAt == null ? null : polymarketExpirationOf(order.expiresAt)) : 0;
  if (expiration === null) return refuse('expiresAt', 'A gtd order needs expiresAt, an RFC 3339 time.');
  const priceText = order.price ?? (order.type === 'market' ? polymarketMarketOrderWorstPrice(order.action, market.tickSize) : null);
  if (priceText === null) return refuse('price', 'A limit order needs a price.');
  const price = new Decimal(priceText);
  if (price.lte(0) || price.gte(1)) return refuse('price', 'price must be between 0 and 1.');
  const size = new Decimal(order.quantity);
  if (size.lte(0) || size.decimalPlaces() > 2) return refuse('quantity', 'quantity must be a positive number of shares with at most 2 decimals.');
  const shares = size.times(AMOUNT_SCALE);
  const pusd = size.times(price).times(AMOUNT_SCALE);
  if (!pusd.isInteger()) return refuse('price', 'price × quantity must be a whole number of micro-pUSD (6 decimals).');
  const buy = order.action === 'buy';
  const tokenId = order.side === 'yes' ? market.yesTokenId : market.noTokenId;
  return {
    ok: true,
    orderType,
    tokenId,
    price: price.toFixed(),
    exact: {
      tokenId,
      side: buy ? 'BUY' : 'SELL',
      makerAmount: (buy ? pusd : shares).toFixed(0),
      takerAmount: (buy ? shares : pusd).toFixed(0),
      salt: polymarketSaltFor(order.clientOrderId),
      timestamp: String(order.createdAt.getTime()),
      expiration: String(expiration),
      negRisk: market.negRisk,
    },
  };
}

/**
 * The market's price rule, checked before a send only (never for a lookup): a multiple of the
 * market's tick from one tick to 1 - tick. Null when the price keeps it.
 */
export function tickRuleRefusal(price: string, market: PolymarketMarketTerms): { param: string; message: string } | null {
  const tick = new Decimal(market.tickSize);
  const value = new Decimal(price);
  if (!value.mod(tick).isZero()) return { param: 'price', message: `price must be a multiple of the market's tick size ${market.tickSize}.` };
  if (value.lt(tick) || value.gt(new Decimal(1).minus(tick))) return { param: 'price', message: `price must be between ${tick.toFixed()} and ${new Decimal(1).minus(tick).toFixed()}.` };
  return null;
}

const record = (value: unknown): Record<string, unknown> | null => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
const decimalText = (value: unknown): string | null => {
  const raw = typeof value === 'number' ? String(value) : value;
  if (typeof raw !== 'string' || !/^-?[0-9]+(\.[0-9]+)?$/.test(raw.trim())) return null;
  return new Decimal(raw.trim()).toFixed();
};

/** The venue's order status in our terms. `ORDER_STATUS_LIVE` (the API reference's spelling) and `LIVE` (the client's) both read. */
function statusOf(raw: unknown): VenueOrderState['status'] | null {
  if (typeof raw !== 'string') return null;
  const status = raw.toUpperCase().replace(/^ORDER_STATUS_/, '');
  if (status === 'LIVE' || status === 'DELAYED') return 'open';
  if (status === 'MATCHED') return 'filled';
  if (['CANCELED', 'CANCELLED', 'EXPIRED', 'UNMATCHED', 'INVALID', 'CANCELED_MARKET_RESOLVED'].includes(status)) return 'canceled';
  return null;
}

/** `GET /data/order/{id}` (an `OpenOrder`) in our terms; null when the body is empty or unreadable. */
export function stateFromOpenOrder(body: unknown, clientOrderId: string): VenueOrderState | null {
  const order = record(body);
  if (order === null || typeof order.id !== 'string') return null;
  const status = statusOf(order.status);
  const original = decimalText(order.original_size);
  const matched = decimalText(order.size_matched) ?? '0';
  if (status === null || original === null) return null;
  const remaining = status === 'open' ? Decimal.max(new Decimal(original).minus(matched), 0).toFixed() : '0';
  return { venueOrderId: order.id.toLowerCase(), clientOrderId, status, filledQuantity: matched, remainingQuantity: remaining };
}

/** Trade statuses (src/types/clob.ts; the user channel's MATCHED -> MINED -> CONFIRMED, or RETRYING / FAILED). */
export type PolymarketTradeStatus = 'MATCHED' | 'MATCHED_NOT_BROADCASTED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';

const TRADE_STATUSES: readonly PolymarketTradeStatus[] = ['MATCHED', 'MATCHED_NOT_BROADCASTED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'];

/**
 * A trade's status in either spelling the venue uses: plain on the user channel (`MATCHED`), with a
 * `TRADE_STATUS_` prefix in REST listings (`TRADE_STATUS_MATCHED`), as the official Python client's
 * account models read them (`_normalize_trade_status`; `_TradeStatus`: MATCHED,
 * MATCHED_NOT_BROADCASTED, MINED, CONFIRMED, RETRYING, FAILED). MATCHED_NOT_BROADCASTED is a match
 * whose transaction is not broadcast yet: a fill like MATCHED (it may still end FAILED, and is then
 * reversed). Null for a status no source lists.
 */
export function tradeStatusOf(raw: unknown): PolymarketTradeStatus | null {
  if (typeof raw !== 'string') return null;
  const plain = raw.toUpperCase().replace(/^TRADE_STATUS_/, '') as PolymarketTradeStatus;
  return TRADE_STATUSES.includes(plain) ? plain : null;
}

/** A fill of ours read from a trade, with the trade's settlement status. */
export type PolymarketFill = VenueFill & { readonly tradeStatus: PolymarketTradeStatus };

export interface OurOrderRef {
  readonly clientOrderId: string;
  readonly venueMarketId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
}

/**
 * Our fills in one `Trade`: one per maker order matched, for the taker order (when it is ours) and
 * for each maker order that is ours, at that maker order's price (the price the trade executed at
 * for that part; in the taker's terms `1 - price` when the maker order is on the complementary
 * token). Fill ids `{trade id}:{T|M}:{maker order id}` are unique per account.
 *
 * Counted when MATCHED: Polymarket's engine has matched the orders and the sizes are final on its
 * book (its `size_matched` moves, the resting remainder shrinks, the order is MATCHED); what
 * follows is the chain settling it. Waiting for MINED or CONFIRMED would leave a filled order's
 * shares unreported for seconds to minutes and let its remainder look larger than the venue says.
 * A trade that ends FAILED did not settle: its fills keep `tradeStatus: 'FAILED'`, and the adapter
 * hands them on apart, to be reversed (docs/polymarket.md "A FAILED trade reverses its fill").
 *
 * Fee (V2): size × rate × (price × (1 - price))^exponent, rate = the trade's `fee_rate_bps`,
 * charged to the taker; makers pay none (domain venueRules `polymarketTakerFee`, from the official
 * client's src/fees/index.ts `adjustBuyAmountForFees`).
 */
export function fillsFromTrade(trade: unknown, ours: ReadonlyMap<string, OurOrderRef>, onUnreadable: UnreadableTrade = () => undefined): PolymarketFill[] {
  const t = record(trade);
  const tradeId = typeof t?.id === 'string' ? t.id : null;
  const unreadable = (why: string): PolymarketFill[] => (onUnreadable(tradeId, why), []);
  if (t === null || tradeId === null || !Array.isArray(t.maker_orders)) return unreadable('no id or maker orders');
  const status = tradeStatusOf(t.status);
  if (status === null) return unreadable('unknown status');
  const matchedAt = matchTimeOf(t);
  if (matchedAt === null) return unreadable('no match time');
  const executedAt = matchedAt.toISOString();
  const takerAsset = typeof t.asset_id === 'string' ? t.asset_id : null;
  const takerOrderId = typeof t.taker_order_id === 'string' ? t.taker_order_id.toLowerCase() : null;
  const taker = takerOrderId === null ? undefined : ours.get(takerOrderId);
  const feeBps = new Decimal(decimalText(t.fee_rate_bps) ?? '0');
  const fills: PolymarketFill[] = [];
  for (const raw of t.maker_orders) {
    const m = record(raw);
    const price = decimalText(m?.price);
    const quantity = decimalText(m?.matched_amount);
    if (m === null || typeof m.order_id !== 'string' || price === null || quantity === null) {
      onUnreadable(tradeId, 'a maker order without id, price or size');
      continue;
    }
    const makerOrderId = m.order_id.toLowerCase();
    const maker = ours.get(makerOrderId);
    if (maker) {
      fills.push({ ...fillBase(maker, makerOrderId, executedAt, status), venueFillId: `${t.id}:M:${makerOrderId}`, price, quantity, fee: '0', isTaker: false });
    }
    if (taker && takerOrderId) {
      // The taker's price for this part: the maker's on the same token, 1 - it on the complementary
      // one. Which token the maker order was on must be said, never assumed.
      if (takerAsset === null || typeof m.asset_id !== 'string') {
        onUnreadable(tradeId, 'a maker order or the trade without asset_id: the taker fill cannot be priced');
        continue;
      }
      const takerPrice = m.asset_id !== takerAsset ? new Decimal(1).minus(price).toFixed() : price;
      const fee = new Decimal(polymarketTakerFee(quantity, takerPrice, feeBps, POLYMARKET_FEE_EXPONENT)).toFixed();
      fills.push({ ...fillBase(taker, takerOrderId, executedAt, status), venueFillId: `${t.id}:T:${makerOrderId}`, price: takerPrice, quantity, fee, isTaker: true });
    }
  }
  return fills;
}

/**
 * The exponent of the fee curve. The client reads it per market (`getClobMarketInfo`: `fd.e`,
 * beside the rate `fd.r`); a trade carries only the rate, and our catalog does not store the
 * exponent yet: 1, the published schedule's curve (size × rate × p × (1 - p)).
 */
const POLYMARKET_FEE_EXPONENT = 1;

/** Told of a trade (by its id only, null when it has none) or a part of it that could not be read, and why. */
export type UnreadableTrade = (tradeId: string | null, why: string) => void;

/**
 * When a trade matched: `match_time` (src/types/clob.ts `Trade`) or `matchtime` (the user channel's
 * spelling, docs.polymarket.com "User Channel"), as unix seconds (a number or a numeric string) or
 * an ISO 8601 time.
 */
function matchTimeOf(t: Record<string, unknown>): Date | null {
  const raw = t.match_time ?? t.matchtime;
  const numeric = typeof raw === 'number' ? String(raw) : typeof raw === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(raw.trim()) ? raw.trim() : null;
  if (numeric !== null) {
    const at = new Date(new Decimal(numeric).times(1000).floor().toNumber());
    return Number.isNaN(at.getTime()) ? null : at;
  }
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(raw.trim())) return null;
  const at = new Date(raw.trim());
  return Number.isNaN(at.getTime()) ? null : at;
}

function fillBase(order: OurOrderRef, venueOrderId: string, executedAt: string, tradeStatus: PolymarketTradeStatus) {
  return { venueOrderId, clientOrderId: order.clientOrderId, venueMarketId: order.venueMarketId, side: order.side, action: order.action, executedAt, tradeStatus };
}

/** The order ids a trade names (its taker order and every maker order). */
export function orderIdsOfTrade(trade: unknown): string[] {
  const t = record(trade);
  if (t === null) return [];
  const ids = typeof t.taker_order_id === 'string' ? [t.taker_order_id.toLowerCase()] : [];
  if (Array.isArray(t.maker_orders)) for (const m of t.maker_orders) if (typeof record(m)?.order_id === 'string') ids.push((record(m)!.order_id as string).toLowerCase());
  return ids;
}

/**
 * A user-channel `order` event (docs.polymarket.com "User Channel": the REST `OpenOrder` fields with
 * `event_type: "order"` and `type` PLACEMENT, UPDATE or CANCELLATION) as a state to record, for a
 * CANCELLATION only: the venue canceled the order (our cancel, its expiry, the venue's own
 * dead-man's switch), keeping what matched. A PLACEMENT says nothing new, and an UPDATE (a match)
 * is recorded by its trade's fills: reporting its `MATCHED` as `filled` would make a later reversal
 * of that trade's fill (a FAILED trade) look filled again. Null for anything else.
 */
export function stateFromOrderEvent(event: unknown, clientOrderId: string): VenueOrderState | null {
  const order = record(event);
  if (order === null || typeof order.id !== 'string' || typeof order.type !== 'string' || order.type.toUpperCase() !== 'CANCELLATION') return null;
  return { venueOrderId: order.id.toLowerCase(), clientOrderId, status: 'canceled', filledQuantity: decimalText(order.size_matched) ?? '0', remainingQuantity: '0' };
}

/** The kind of a user-channel event: `trade`, `order`, or null for anything else. */
export function userEventKind(event: unknown): 'trade' | 'order' | null {
  const kind = record(event)?.event_type;
  return kind === 'trade' || kind === 'order' ? kind : null;
}
