/**
 * The Polymarket fake's exchange state: accounts (API keys), one price-time book per token (the
 * project's matching engine, core/domain/matching, in 0.0001 price ticks and 0.01-share units),
 * orders and trades, with the CLOB V2 rules the venue enforces on `POST /order`.
 *
 * Sources (github.com/Polymarket/clob-client-v2 at f3e1a05 unless said otherwise):
 * - Request body: src/types/ordersV2.ts `NewOrderV2` {order, owner (the API key), orderType
 *   GTC|FOK|GTD|FAK (src/types/clob.ts OrderType), deferExec, postOnly}.
 * - Answer: src/types/clob.ts `OrderResponse` {success, errorMsg, orderID, tradeIDs?, status,
 *   takingAmount, makingAmount}; status "live" (rests) or "matched" (traded on arrival), as the
 *   venue's create-order docs list them.
 * - The order id is the order's EIP-712 hash (docs.polymarket.com cancel examples use the hash;
 *   the client's `OrderPayload` is {orderID}).
 * - Price and size come from the signed amounts (6 decimals): BUY makerAmount = pUSD paid and
 *   takerAmount = shares, SELL the reverse (src/order-builder/helpers/getOrderRawAmounts.ts); so
 *   price = pUSD / shares, as the venue's own tick error shows ("Price (0.518990099009901) breaks
 *   minimum tick size rule: 0.01" reported by clients).
 * - Rules and their error strings: errors.ts (docs.polymarket.com "Error Codes").
 * - GTD (docs.polymarket.com "Place orders" and "Orders overview"): an order leaves the book one
 *   minute before its stated expiration (the venue's security threshold), and an expiration less
 *   than 3 minutes ahead is refused. Other order types must carry expiration 0 (the docs only say
 *   to omit it for GTC; refusing it elsewhere is the fake's choice). An expired order is a
 *   CANCELLATION on the user channel and reads CANCELED (`openOrderJson`).
 * - Order management: `POST /orders` (at most 15, each entry as `POST /order` answers or a per-order
 *   error entry), `DELETE /orders` (at most 3000 ids), `DELETE /cancel-all`,
 *   `DELETE /cancel-market-orders` ({market?, asset_id?}); shapes, limits and sources at each method.
 * - Trades: src/types/clob.ts `Trade` and `MakerOrder`. One trade per taker order's match, with
 *   every maker order it matched; each side reads it with `trader_side` TAKER or MAKER. A trade is
 *   MATCHED when made; MINED, CONFIRMED, RETRYING and FAILED come from settlement.ts (a timer, or
 *   the control API); every change is emitted on `events` (events.ts) for the user channel.
 *
 * Another participant's order can also be placed unsigned (`placeAs`: the control path of the
 * fake's market maker, marketMaker.ts); past the signature it is an ordinary order of the book.
 *
 * A market's trading ends (`closeCondition`, driven by resolution.ts): its resting orders leave the
 * book as CANCELLATIONs with status `CANCELED_MARKET_RESOLVED` (the venue's order status "Order
 * canceled as market resolved": docs.polymarket.com order statuses, `ORDER_STATUS_CANCELED_MARKET_RESOLVED`
 * in the API reference, `CANCELED_MARKET_RESOLVED` in NautilusTrader's PolymarketOrderStatus), its
 * books are gone (`GET /book` 404 `No orderbook exists for the requested token id`), and a new order
 * is refused 400 `the orderbook {condition_id} does not exist` (errors.ts).
 *
 * Not modelled yet: balances and allowances ("not enough balance / allowance"), fees, matching a
 * token against its complement, self-trade rules, the min size of market (FOK/FAK) orders.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Decimal } from '../../core/domain/decimals';
import { MatchingEngine, type FillEvent } from '../../core/domain/matching';
import { clobErrors, type ClobAnswer } from './errors';
import { ExchangeEvents, type ExchangeEvent } from './events';
import type { TokenSeed } from './markets';
import { orderHash, verifyOrder, type PolymarketAccountKey, type WireOrderV2 } from './verify';
import { FakeWallets } from './wallets';
import { orderBookSummary, type EngineDepth, type LastTradePriceFormat } from './bookSummary';
import { PRICE_TICKS_PER_DOLLAR, UNITS_PER_SHARE } from './units';

export { PRICE_TICKS_PER_DOLLAR, UNITS_PER_SHARE } from './units';

/** 6-decimal fixed point of pUSD and of shares (src/config.ts COLLATERAL_TOKEN_DECIMALS). */
const AMOUNT_SCALE = new Decimal(1_000_000);
const GTD_THRESHOLD_SECONDS = 60;
const GTD_MIN_AHEAD_SECONDS = 180;
/** `POST /orders`: at most 15 orders a request (docs "Post multiple orders"; the CLOB OpenAPI's `maxItems: 15`). */
export const MAX_BATCH_ORDERS = 15;
/** `DELETE /orders`: at most 3000 order ids a request (docs "Cancel multiple orders"). */
export const MAX_CANCEL_IDS = 3000;
const ORDER_ID = /^0x[0-9a-fA-F]{64}$/;
const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;
const TOKEN_ID = /^[0-9]{1,78}$/;
/**
 * The reason for an order a cancel did not cancel (not open, another account's, or unknown): the
 * venue's as recorded cancel answers give it (e.g. nautilus-polymarket test data). A NautilusTrader
 * user's log of the live venue reads "order can't be found - already canceled or matched"
 * (nautilus_trader issue 3797), which may be the whole string; the fake keeps the shorter one.
 */
const NOT_CANCELED_REASON = 'already canceled or matched';

export type OrderTypeName = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export type TradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';

const NEXT: Record<TradeStatus, readonly TradeStatus[]> = {
  MATCHED: ['MINED', 'RETRYING', 'FAILED'],
  MINED: ['CONFIRMED', 'RETRYING', 'FAILED'],
  RETRYING: ['MINED', 'FAILED'],
  CONFIRMED: [],
  FAILED: [],
};

export interface FakeAccount extends PolymarketAccountKey {
  readonly apiKey: string;
  /** base64 or base64url, as the venue hands it out. */
  readonly secret: string;
  readonly passphrase: string;
  /** pUSD the funding wallet holds at the start (decimal dollars); 0 when absent. See wallets.ts. */
  readonly collateral?: string;
}

export interface OrderRecord {
  readonly id: string;
  readonly apiKey: string;
  readonly makerAddress: string;
  readonly token: TokenSeed;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly originalUnits: number;
  matchedUnits: number;
  status: 'LIVE' | 'MATCHED' | 'CANCELED' | 'EXPIRED';
  /** Cancelled by the venue because its market ended: the wire status is CANCELED_MARKET_RESOLVED. */
  canceledAsMarketResolved?: boolean;
  readonly orderType: OrderTypeName;
  readonly expiration: string;
  /** When a GTD order leaves the book (ms); null for none. */
  readonly expiresAtMs: number | null;
  readonly createdAtSeconds: number;
  readonly associateTrades: string[];
}

interface MakerFill {
  readonly order: OrderRecord;
  readonly units: number;
  readonly priceTicks: number;
}

export interface TradeRecord {
  readonly id: string;
  readonly taker: OrderRecord;
  readonly units: number;
  /** pUSD exchanged, exact. */
  readonly notional: Decimal;
  readonly makers: readonly MakerFill[];
  readonly matchTimeSeconds: number;
  status: TradeStatus;
  lastUpdateSeconds: number;
  transactionHash: string;
}

/** An order past the request's checks, about to meet the venue's rules and the book (`accept`). */
interface CheckedOrder {
  readonly id: string;
  readonly account: FakeAccount;
  readonly makerAddress: string;
  readonly token: TokenSeed;
  readonly side: 'BUY' | 'SELL';
  readonly price: Decimal;
  readonly size: Decimal;
  readonly orderType: OrderTypeName;
  readonly postOnly: boolean;
  readonly expiration: bigint;
}

/** `DELETE /cancel-market-orders`' filter: a condition id (lower case) and/or a token id. */
export interface MarketCancelFilter {
  readonly market?: string;
  readonly assetId?: string;
}

/** An unsigned order of another participant (`placeAs`): decimal strings, as a client writes them. */
export interface CounterOrder {
  readonly tokenId: string;
  readonly side: 'BUY' | 'SELL';
  /** pUSD per share on the token's tick, e.g. "0.46". */
  readonly price: string;
  /** Shares, up to 2 decimals, e.g. "10". */
  readonly size: string;
  /** GTC (default), FOK or FAK; GTD is not offered on the control path. */
  readonly orderType?: OrderTypeName;
  readonly postOnly?: boolean;
}

/** An order or trade change on this exchange (events.ts). */
export type PolymarketEvent = ExchangeEvent<OrderRecord, TradeRecord>;

const postOrderBody = z.object({
  order: z.record(z.string(), z.unknown()),
  owner: z.string().min(1),
  orderType: z.enum(['GTC', 'GTD', 'FOK', 'FAK']),
  deferExec: z.boolean().optional(),
  postOnly: z.boolean().optional(),
});

const ok = (body: unknown): ClobAnswer => ({ status: 200, body });

function ticksToText(ticks: number, tick: string): string {
  return new Decimal(ticks).div(PRICE_TICKS_PER_DOLLAR).toFixed(Math.max(new Decimal(tick).decimalPlaces(), 2));
}

export function unitsToShares(units: number): string {
  return new Decimal(units).div(UNITS_PER_SHARE).toString();
}

export class PolymarketExchange {
  /**
   * REST trade listings (`GET /data/trades`) spell a status with the `TRADE_STATUS_` prefix
   * (`TRADE_STATUS_MATCHED`), as the official Python client's account models expect of REST
   * (`_normalize_trade_status`), while the user channel keeps the plain form. Off by default (the
   * plain form, as the TypeScript client compares it); a test turns it on to check a reader takes both.
   */
  restTradeStatusPrefixed = false;

  /** Order and trade changes, for the user channel, settlement and heartbeats (events.ts). */
  readonly events = new ExchangeEvents<OrderRecord, TradeRecord>();
  private readonly engine = new MatchingEngine();
  private readonly tokens = new Map<string, TokenSeed>();
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly orders = new Map<string, OrderRecord>();
  private readonly trades: TradeRecord[] = [];
  private readonly lastTradePrice = new Map<string, string>();
  /** The taker's side of each token's last trade (`GET /last-trade-price`'s `side`). */
  private readonly lastTradeSide = new Map<string, 'BUY' | 'SELL'>();
  /** Conditions whose trading ended (resolution.ts): no book, no new order. */
  private readonly closedConditions = new Set<string>();
  /** Balances and L1-made keys (wallets.ts). */
  readonly wallets: FakeWallets;
  /** How summaries write `last_trade_price` (bookSummary.ts; the server's `marketData` option picks the venue's). */
  lastTradePriceFormat: LastTradePriceFormat = 'shortest';

  constructor(
    readonly chainId: number,
    tokens: readonly TokenSeed[],
    private readonly clock: () => number,
  ) {
    this.wallets = new FakeWallets(chainId);
    for (const token of tokens) this.addToken(token);
  }

  addToken(token: TokenSeed): void {
    this.tokens.set(token.tokenId, token);
    this.engine.openMarket(token.tokenId);
  }

  addAccount(account: FakeAccount): void {
    this.accounts.set(account.apiKey, account);
    if (account.collateral !== undefined) this.wallets.seedCollateral(account.funderAddress, account.collateral);
  }

  /** The API keys whose owner (L1 address) is `address`. */
  accountsOwnedBy(address: string): FakeAccount[] {
    return [...this.accounts.values()].filter((account) => account.ownerAddress.toLowerCase() === address.toLowerCase());
  }

  account(apiKey: string): FakeAccount | undefined {
    return this.accounts.get(apiKey);
  }

  token(tokenId: string): TokenSeed | undefined {
    return this.tokens.get(tokenId);
  }

  tokenList(): TokenSeed[] {
    return [...this.tokens.values()];
  }

  /** A condition's tokens, in the order they were added (a binary market: Yes, then No). */
  tokensOf(conditionId: string): TokenSeed[] {
    return this.tokenList().filter((token) => token.conditionId === conditionId);
  }

  /** The price of the token's last trade (the book's `last_trade_price`), if it traded. */
  lastTradePriceOf(tokenId: string): string | undefined {
    return this.lastTradePrice.get(tokenId);
  }

  /** The token's last trade: its last fill's price and the taker's side (`GET /last-trade-price`). */
  lastTradeOf(tokenId: string): { readonly price: string; readonly side: 'BUY' | 'SELL' } | undefined {
    const price = this.lastTradePrice.get(tokenId);
    const side = this.lastTradeSide.get(tokenId);
    return price === undefined || side === undefined ? undefined : { price, side };
  }

  /** The token's aggregated levels, best first on each side (undefined for an unknown token). */
  depthOf(tokenId: string): EngineDepth | undefined {
    return this.engine.book(tokenId)?.depth();
  }

  /** Every trade the exchange made, oldest first (the market data's tape: Data API trades, volumes). */
  allTrades(): readonly TradeRecord[] {
    return this.trades;
  }

  /**
   * The token's tick size changes (the venue moves a book to a finer tick when its price nears 0 or
   * 1: docs.polymarket.com "Market Channel", `tick_size_change`). Orders already resting stay; new
   * ones must be on the new tick. Answers the tick it had, or undefined for an unknown token.
   */
  setTickSize(tokenId: string, tickSize: TokenSeed['tickSize']): TokenSeed['tickSize'] | undefined {
    const token = this.tokens.get(tokenId);
    if (token === undefined) return undefined;
    const old = token.tickSize;
    // TokenSeed is read-only to its users; the exchange owns the object every order refers to.
    (token as { tickSize: TokenSeed['tickSize'] }).tickSize = tickSize;
    return old;
  }

  isClosed(conditionId: string): boolean {
    return this.closedConditions.has(conditionId);
  }

  /**
   * Trading on a condition ends (the market closed): every resting order of its tokens leaves the
   * book (CANCELED, read on the wire as CANCELED_MARKET_RESOLVED) with a CANCELLATION event (the user channel's
   * venue-side cancel); the books are gone and new orders are refused. Answers the orders it
   * cancelled; closing a closed condition cancels nothing.
   */
  closeCondition(conditionId: string): OrderRecord[] {
    if (this.closedConditions.has(conditionId)) return [];
    this.closedConditions.add(conditionId);
    const canceled: OrderRecord[] = [];
    for (const order of this.orders.values()) {
      if (order.status !== 'LIVE' || order.token.conditionId !== conditionId) continue;
      this.engine.cancel(order.id);
      order.status = 'CANCELED';
      order.canceledAsMarketResolved = true;
      canceled.push(order);
      this.events.emit({ kind: 'order', type: 'CANCELLATION', order });
    }
    return canceled;
  }

  allOrders(): OrderRecord[] {
    return [...this.orders.values()];
  }

  /**
   * GTD orders whose time has come leave the book, each with a CANCELLATION on the user channel
   * (checked before every request and on the server's expiry sweep, server.ts).
   */
  expireOrders(): void {
    const now = this.clock();
    for (const order of this.orders.values()) {
      if (order.status === 'LIVE' && order.expiresAtMs !== null && order.expiresAtMs <= now) {
        this.engine.cancel(order.id);
        order.status = 'EXPIRED';
        this.events.emit({ kind: 'order', type: 'CANCELLATION', order });
      }
    }
  }

  /** `POST /order`: the request's checks, then the book (a refusal is the route's 400). */
  async postOrder(account: FakeAccount, rawBody: unknown): Promise<ClobAnswer> {
    const checked = await this.checkOrder(account, rawBody);
    return checked.ok ? this.accept(checked.order) : checked.refusal;
  }

  /**
   * `POST /orders` (src/client.ts `postOrders`, path `POST_ORDERS = "/orders"` in src/endpoints.ts):
   * a JSON array of `POST /order` bodies, at most 15 (the CLOB OpenAPI's `maxItems: 15`, docs
   * "Post multiple orders": "Orders are processed in parallel. Maximum 15 orders per request").
   * An array that is empty or not an array is 400 `Invalid order payload` and more than 15 is 400
   * `Too many orders in payload: {N}, max allowed: 15` (the OpenAPI's `empty_payload` and
   * `too_many_orders` examples): nothing is placed.
   *
   * Every item first passes the request's checks of `POST /order` (its shape, `owner` the API key,
   * a known token, the signature and who signs: the OpenAPI lists `Invalid order payload`, the owner
   * and signer errors among the batch's own 400s; `invalid signature` joins them here, the docs being
   * silent on it); one item refused refuses the whole batch with that item's error (the first in
   * array order) and places nothing. The rest are the docs' processing errors ("returned when an
   * order passes initial validation but fails during processing. They appear in the response body
   * of POST /order and POST /orders": tick, minimum size, duplicated, post-only crossing, expiration,
   * FOK/FAK, a market whose book is gone): each fails only its own entry.
   *
   * Answer: 200 and one `OrderResponse` per item, in request order. A placed order's entry is what
   * `POST /order` answers; a refused one's is the OpenAPI's per-order error entry `{errorMsg,
   * orderID: "", takingAmount: "", makingAmount: "", status: "", success: true}` with the error
   * string `POST /order` would have answered (Polymarket's ts-sdk parses exactly that entry,
   * success true, and reads a non-empty `errorMsg` as the rejection: packages/bindings/src/clob/
   * order-response.ts and its test "maps batch post-only rejections ... per order"). The fake
   * verifies the signatures concurrently and then places the orders one after another in array
   * order, so the same signed order twice in one batch places once and answers the second
   * `Duplicated.`.
   */
  async postOrders(account: FakeAccount, rawBody: unknown): Promise<ClobAnswer> {
    if (!Array.isArray(rawBody) || rawBody.length === 0) return clobErrors.invalidOrderPayload();
    if (rawBody.length > MAX_BATCH_ORDERS) return clobErrors.tooManyOrdersToPlace(rawBody.length, MAX_BATCH_ORDERS);
    const checked = await Promise.all(rawBody.map((item) => this.checkOrder(account, item)));
    for (const c of checked) if (!c.ok) return c.refusal;
    return ok(checked.map((c) => batchEntry(this.accept((c as { ok: true; order: CheckedOrder }).order))));
  }

  /**
   * What `POST /order` checks before the book: the body's shape, `owner` the API key, a known
   * token, post-only only on GTC/GTD, the signature and who signs (verify.ts), and non-zero amounts.
   */
  private async checkOrder(account: FakeAccount, rawBody: unknown): Promise<{ ok: true; order: CheckedOrder } | { ok: false; refusal: ClobAnswer }> {
    const refuse = (refusal: ClobAnswer) => ({ ok: false as const, refusal });
    const body = postOrderBody.safeParse(rawBody);
    if (!body.success) return refuse(clobErrors.invalidOrderPayload());
    const { orderType, postOnly = false } = body.data;
    if (body.data.owner !== account.apiKey) return refuse(clobErrors.orderOwnerNotApiKeyOwner());
    const token = typeof body.data.order.tokenId === 'string' ? this.tokens.get(body.data.order.tokenId) : undefined;
    if (token === undefined) return refuse(clobErrors.invalidOrderPayload());
    if (postOnly && (orderType === 'FOK' || orderType === 'FAK')) return refuse(clobErrors.invalidOrderPayload());

    const verdict = await verifyOrder(body.data.order, account, { chainId: this.chainId, negRisk: token.negRisk });
    if (!verdict.ok) return refuse(refusalFor(verdict.reason));
    const order = verdict.order;
    const [paid, shares] = order.side === 'BUY' ? [order.makerAmount, order.takerAmount] : [order.takerAmount, order.makerAmount];
    if (shares === 0n || paid === 0n) return refuse(clobErrors.invalidOrderPayload());
    return {
      ok: true,
      order: {
        id: orderHash(order, this.chainId, token.negRisk),
        account,
        makerAddress: order.maker,
        token,
        side: order.side,
        price: new Decimal(paid.toString()).div(shares.toString()),
        size: new Decimal(shares.toString()).div(AMOUNT_SCALE),
        orderType,
        postOnly,
        expiration: order.expiration,
      },
    };
  }

  /**
   * Another participant's order, placed without a signature (the control path: the fake's market
   * maker, marketMaker.ts, or a test acting as a registered account). It is an ordinary order of the
   * book from here on: the same checks (tick, minimum size, post-only, FOK/FAK), the same matching,
   * trades, user-channel events and settlement as `POST /order`. Its id has the shape of an order
   * hash (32 random bytes), and its maker address is the account's funder.
   */
  placeAs(account: FakeAccount, order: CounterOrder): ClobAnswer {
    const token = this.tokens.get(order.tokenId);
    if (token === undefined) return clobErrors.invalidOrderPayload();
    const orderType = order.orderType ?? 'GTC';
    const postOnly = order.postOnly ?? false;
    if (orderType === 'GTD') return clobErrors.invalidOrderPayload();
    if (postOnly && (orderType === 'FOK' || orderType === 'FAK')) return clobErrors.invalidOrderPayload();
    if (!/^\d+(\.\d+)?$/.test(order.price) || !/^\d+(\.\d+)?$/.test(order.size)) return clobErrors.invalidOrderPayload();
    const price = new Decimal(order.price);
    const size = new Decimal(order.size);
    if (size.lte(0)) return clobErrors.invalidOrderPayload();
    return this.accept({
      id: `0x${randomBytes(32).toString('hex')}`,
      account,
      makerAddress: account.funderAddress,
      token,
      side: order.side,
      price,
      size,
      orderType,
      postOnly,
      expiration: 0n,
    });
  }

  /**
   * The venue's rules past the signature, then the book: what `POST /order`, each order of
   * `POST /orders` and `placeAs` share (the docs' processing errors: errors.ts).
   */
  private accept(o: CheckedOrder): ClobAnswer {
    const { id, account, token, price, size, orderType, postOnly, expiration } = o;
    if (this.orders.has(id)) return clobErrors.duplicated(id);
    if (this.closedConditions.has(token.conditionId)) return clobErrors.orderbookDoesNotExist(token.conditionId);
    const tick = new Decimal(token.tickSize);
    if (!price.mod(tick).isZero() || price.lt(tick) || price.gt(new Decimal(1).minus(tick))) {
      return clobErrors.tickSize(id, price.toString(), token.tickSize);
    }
    const units = size.times(UNITS_PER_SHARE);
    if (!units.isInteger()) return clobErrors.invalidOrderPayload();
    const resting = orderType === 'GTC' || orderType === 'GTD';
    if (resting && size.lt(token.minOrderSize)) return clobErrors.minSize(id, size.toString(), token.minOrderSize);

    const nowMs = this.clock();
    let expiresAtMs: number | null = null;
    if (orderType === 'GTD') {
      if (expiration < BigInt(Math.floor(nowMs / 1000) + GTD_MIN_AHEAD_SECONDS)) return clobErrors.invalidExpiration();
      expiresAtMs = (Number(expiration) - GTD_THRESHOLD_SECONDS) * 1000;
    } else if (expiration !== 0n) {
      return clobErrors.invalidExpiration();
    }

    const priceTicks = price.times(PRICE_TICKS_PER_DOLLAR).toNumber();
    const book = this.engine.book(token.tokenId)!;
    if (postOnly) {
      const crosses = o.side === 'BUY' ? (book.bestAskTicks() ?? Infinity) <= priceTicks : (book.bestBidTicks() ?? -Infinity) >= priceTicks;
      if (crosses) return clobErrors.postOnlyCrosses();
    }

    const result = book.place({
      type: 'limit',
      orderId: id,
      side: 'yes',
      action: o.side === 'BUY' ? 'buy' : 'sell',
      priceTicks,
      quantity: units.toNumber(),
      timeInForce: orderType === 'FOK' ? 'FOK' : orderType === 'FAK' ? 'IOC' : 'GTC',
    });
    if (result.status === 'rejected') return clobErrors.invalidOrderPayload();
    if (orderType === 'FOK' && result.filledQuantity === 0) return clobErrors.fokNotFilled();
    if (orderType === 'FAK' && result.filledQuantity === 0) return clobErrors.fakNoMatch();

    const record: OrderRecord = {
      id,
      apiKey: account.apiKey,
      makerAddress: o.makerAddress,
      token,
      side: o.side,
      price: ticksToText(priceTicks, token.tickSize),
      originalUnits: units.toNumber(),
      matchedUnits: result.filledQuantity,
      status: result.status === 'resting' ? 'LIVE' : result.status === 'filled' ? 'MATCHED' : 'CANCELED',
      orderType,
      expiration: expiration.toString(),
      expiresAtMs,
      createdAtSeconds: Math.floor(nowMs / 1000),
      associateTrades: [],
    };
    this.orders.set(id, record);
    const trade = this.recordTrade(record, result.fills, token);
    this.events.emit({ kind: 'order', type: 'PLACEMENT', order: record });
    if (trade !== null) {
      for (const m of trade.makers) this.events.emit({ kind: 'order', type: 'UPDATE', order: m.order });
      this.events.emit({ kind: 'trade', trade });
    }
    if (trade === null) return ok({ success: true, errorMsg: '', orderID: id, tradeIDs: [], status: 'live', takingAmount: '', makingAmount: '' });
    const sharesText = unitsToShares(trade.units);
    const notionalText = trade.notional.toString();
    return ok({
      success: true,
      errorMsg: '',
      orderID: id,
      tradeIDs: [trade.id],
      status: 'matched',
      makingAmount: o.side === 'BUY' ? notionalText : sharesText,
      takingAmount: o.side === 'BUY' ? sharesText : notionalText,
    });
  }

  private recordTrade(taker: OrderRecord, fills: readonly FillEvent[], token: TokenSeed): TradeRecord | null {
    const makers: MakerFill[] = [];
    for (const fill of fills) {
      if (fill.liquidity !== 'maker') continue;
      const makerOrder = this.orders.get(fill.orderId)!;
      makerOrder.matchedUnits += fill.quantity;
      if (fill.remainingQuantity === 0) makerOrder.status = 'MATCHED';
      makers.push({ order: makerOrder, units: fill.quantity, priceTicks: fill.priceTicks });
      const shares = new Decimal(fill.quantity).div(UNITS_PER_SHARE);
      const pusd = shares.times(fill.priceTicks).div(PRICE_TICKS_PER_DOLLAR);
      const [buyer, seller] = taker.side === 'BUY' ? [taker, makerOrder] : [makerOrder, taker];
      this.wallets.settle(buyer.makerAddress, seller.makerAddress, token.tokenId, shares, pusd);
    }
    if (makers.length === 0) return null;
    const nowSeconds = Math.floor(this.clock() / 1000);
    const trade: TradeRecord = {
      id: randomUUID(),
      taker,
      units: makers.reduce((sum, m) => sum + m.units, 0),
      notional: makers.reduce((sum, m) => sum.plus(new Decimal(m.units).div(UNITS_PER_SHARE).times(m.priceTicks).div(PRICE_TICKS_PER_DOLLAR)), new Decimal(0)),
      makers,
      matchTimeSeconds: nowSeconds,
      status: 'MATCHED',
      lastUpdateSeconds: nowSeconds,
      transactionHash: '',
    };
    this.trades.push(trade);
    taker.associateTrades.push(trade.id);
    for (const m of makers) if (!m.order.associateTrades.includes(trade.id)) m.order.associateTrades.push(trade.id);
    this.lastTradePrice.set(token.tokenId, ticksToText(makers[makers.length - 1]!.priceTicks, token.tickSize));
    this.lastTradeSide.set(token.tokenId, taker.side);
    return trade;
  }

  /** DELETE /order {orderID}: answers {canceled, not_canceled} (docs.polymarket.com "Cancel single order"). */
  cancelOrder(account: FakeAccount, rawBody: unknown): ClobAnswer {
    const body = z.object({ orderID: z.string() }).safeParse(rawBody);
    if (!body.success) return clobErrors.invalidOrderPayload();
    const id = body.data.orderID;
    if (!ORDER_ID.test(id)) return clobErrors.invalidOrderId();
    const canceled = this.cancelOne(account, id);
    return ok(canceled === null ? { canceled: [], not_canceled: { [id]: NOT_CANCELED_REASON } } : { canceled: [canceled], not_canceled: {} });
  }

  /**
   * DELETE /orders with a JSON array of order ids (src/client.ts `cancelOrders(ordersHashes)`, path
   * `CANCEL_ORDERS = "/orders"`): each id as `DELETE /order` would cancel it, in one
   * `{canceled, not_canceled}`. The CLOB OpenAPI ("Cancel multiple orders"): at most 3000 ids
   * ("Maximum 3000 orders per request"; an older copy of the page said 1000), over it 400
   * `Too many orders in payload, max allowed: 3000`; "Duplicate order IDs in the request are
   * automatically ignored"; a body that is not an array of strings is 400 `Invalid order payload`
   * and any malformed id 400 `Invalid orderID` ("One or more order IDs are not valid", docs "Error
   * Codes"): nothing is cancelled then. An empty array cancels nothing (200, the fake's choice).
   */
  cancelOrders(account: FakeAccount, rawBody: unknown): ClobAnswer {
    if (!Array.isArray(rawBody) || !rawBody.every((id): id is string => typeof id === 'string')) return clobErrors.invalidOrderPayload();
    if (rawBody.length > MAX_CANCEL_IDS) return clobErrors.tooManyOrdersToCancel(MAX_CANCEL_IDS);
    if (!rawBody.every((id) => ORDER_ID.test(id))) return clobErrors.invalidOrderId();
    const canceled: string[] = [];
    const notCanceled: Record<string, string> = {};
    const seen = new Set<string>();
    for (const id of rawBody) {
      if (seen.has(id.toLowerCase())) continue;
      seen.add(id.toLowerCase());
      const done = this.cancelOne(account, id);
      if (done === null) notCanceled[id] = NOT_CANCELED_REASON;
      else canceled.push(done);
    }
    return ok({ canceled, not_canceled: notCanceled });
  }

  /**
   * DELETE /cancel-all (src/client.ts `cancelAll`, no body): every open order of the API key,
   * `{canceled: [...], not_canceled: {}}` (the OpenAPI's `no_orders` example is both empty).
   */
  cancelAll(account: FakeAccount): ClobAnswer {
    return ok({ canceled: this.openOrdersOf(account).map((order) => this.cancelOne(account, order.id)!), not_canceled: {} });
  }

  /**
   * DELETE /cancel-market-orders with `{market?, asset_id?}` (src/client.ts `cancelMarketOrders`,
   * src/types/clob.ts `OrderMarketCancelParams`): the API key's open orders on that condition and/or
   * that token. Both are optional, "omit both to cancel all orders" (docs "Cancel orders",
   * trading/orders/cancel). A body that is not an object, or a filter that is not a condition id
   * (0x + 64 hex) or a token id (digits), is 400 `Invalid order payload` ("The request body is
   * malformed or contains invalid filter parameters", docs "Error Codes"); an empty string counts
   * as absent (the fake's choice). Answers `{canceled, not_canceled: {}}`.
   */
  cancelMarketOrders(account: FakeAccount, rawBody: unknown): ClobAnswer {
    const filter = marketCancelFilter(rawBody);
    if (filter === null) return clobErrors.invalidOrderPayload();
    return ok({ canceled: this.openOrdersOf(account, filter).map((order) => this.cancelOne(account, order.id)!), not_canceled: {} });
  }

  /**
   * How many orders a cancel-all or cancel-market-orders request would cancel now (the per-signer
   * cancel bucket charges 1 + that: throttle.ts); 0 for any other request or a refused body.
   */
  cancelableCount(account: FakeAccount, method: string, path: string, body: unknown): number {
    if (method !== 'DELETE') return 0;
    if (path === '/cancel-all') return this.openOrdersOf(account).length;
    if (path !== '/cancel-market-orders') return 0;
    const filter = marketCancelFilter(body);
    return filter === null ? 0 : this.openOrdersOf(account, filter).length;
  }

  /** The API key's open (LIVE) orders, oldest first, on a condition and/or a token when given. */
  openOrdersOf(account: FakeAccount, filter: MarketCancelFilter = {}): OrderRecord[] {
    return [...this.orders.values()].filter(
      (o) => o.apiKey === account.apiKey && o.status === 'LIVE' && (filter.market === undefined || o.token.conditionId === filter.market) && (filter.assetId === undefined || o.token.tokenId === filter.assetId),
    );
  }

  /** Cancels one of the account's open orders: its id, or null when it is not open or not the account's. */
  private cancelOne(account: FakeAccount, id: string): string | null {
    const order = this.orders.get(id.toLowerCase());
    if (order === undefined || order.apiKey !== account.apiKey || order.status !== 'LIVE') return null;
    this.engine.cancel(order.id);
    order.status = 'CANCELED';
    this.events.emit({ kind: 'order', type: 'CANCELLATION', order });
    return order.id;
  }

  /** GET /data/orders: the account's open orders, one page (next_cursor "LTE=", the client's END_CURSOR). */
  openOrders(account: FakeAccount, query: URLSearchParams): ClobAnswer {
    const id = query.get('id');
    const market = query.get('market');
    const assetId = query.get('asset_id');
    const data = [...this.orders.values()]
      .filter((o) => o.apiKey === account.apiKey && o.status === 'LIVE')
      .filter((o) => (id === null || o.id === id.toLowerCase()) && (market === null || o.token.conditionId === market) && (assetId === null || o.token.tokenId === assetId))
      .map(openOrderJson);
    return ok({ data, next_cursor: 'LTE=', limit: 500, count: data.length });
  }

  /**
   * GET /data/order/{id} (src/client.ts getOrder, path src/endpoints.ts GET_ORDER): the account's
   * order in the `OpenOrder` shape whatever its status (LIVE, MATCHED, CANCELED, or CANCELED for an
   * expired GTD order: `openOrderJson`); an
   * order that is not the account's, or unknown, answers 200 with an empty body (`null`), as
   * clients report the venue doing (py-clob-client issue 217).
   */
  orderById(account: FakeAccount, id: string): ClobAnswer {
    if (!/^0x[0-9a-fA-F]{64}$/.test(id)) return clobErrors.invalidOrderId();
    const order = this.orders.get(id.toLowerCase());
    return ok(order === undefined || order.apiKey !== account.apiKey ? null : openOrderJson(order));
  }

  /** GET /data/trades: trades the account took part in, as taker or maker. */
  tradesFor(account: FakeAccount, query: URLSearchParams): ClobAnswer {
    const id = query.get('id');
    const market = query.get('market');
    const assetId = query.get('asset_id');
    const makerAddress = query.get('maker_address');
    const before = query.get('before');
    const after = query.get('after');
    if ((before !== null && !/^\d+$/.test(before)) || (after !== null && !/^\d+$/.test(after))) return clobErrors.invalidTradeParams();
    const data = this.trades
      .map((trade) => ({ trade, side: traderSide(trade, account) }))
      .filter((t): t is { trade: TradeRecord; side: 'TAKER' | 'MAKER' } => t.side !== null)
      .filter(({ trade }) => (id === null || trade.id === id) && (market === null || trade.taker.token.conditionId === market) && (assetId === null || trade.taker.token.tokenId === assetId))
      .filter(({ trade }) => makerAddress === null || trade.taker.makerAddress.toLowerCase() === makerAddress.toLowerCase() || trade.makers.some((m) => m.order.makerAddress.toLowerCase() === makerAddress.toLowerCase()))
      .filter(({ trade }) => (before === null || trade.matchTimeSeconds < Number(before)) && (after === null || trade.matchTimeSeconds > Number(after)))
      .map(({ trade, side }) => tradeJson(trade, side))
      .map((json) => (this.restTradeStatusPrefixed ? { ...json, status: `TRADE_STATUS_${json.status}` } : json));
    return ok({ data, next_cursor: 'LTE=', limit: 500, count: data.length });
  }

  /**
   * GET /book?token_id=: the client's OrderBookSummary, best price LAST on each side, with the
   * venue's hash (bookSummary.ts has the shape, the formats and the hash, and their sources).
   */
  book(tokenId: string | null): ClobAnswer {
    if (tokenId === null || !/^[0-9]{1,78}$/.test(tokenId)) return clobErrors.invalidTokenId();
    const summary = this.summaryOf(tokenId);
    return summary === undefined ? clobErrors.noOrderbook() : ok(summary);
  }

  /** The token's OrderBookSummary at `atMs` (now by default); undefined when it has no book (unknown, or its market ended). */
  summaryOf(tokenId: string, atMs: number = this.clock()) {
    const token = this.tokens.get(tokenId);
    const depth = token && this.depthOf(tokenId);
    if (token === undefined || depth === undefined || this.closedConditions.has(token.conditionId)) return undefined;
    return orderBookSummary(token, depth, this.lastTradePrice.get(tokenId), atMs, this.lastTradePriceFormat);
  }

  /** A trade's settlement moves on (settlement.ts's clock, or the control API, stand in for the chain). */
  setTradeStatus(tradeId: string, status: TradeStatus): { ok: true; trade: TradeRecord } | { ok: false; reason: string } {
    const trade = this.trades.find((t) => t.id === tradeId);
    if (trade === undefined) return { ok: false, reason: 'unknown trade' };
    if (!NEXT[trade.status].includes(status)) return { ok: false, reason: `a ${trade.status} trade cannot become ${status}` };
    trade.status = status;
    trade.lastUpdateSeconds = Math.floor(this.clock() / 1000);
    if (status === 'MINED' && trade.transactionHash === '') trade.transactionHash = `0x${randomBytes(32).toString('hex')}`;
    this.events.emit({ kind: 'trade', trade });
    return { ok: true, trade };
  }
}

/** One `POST /orders` entry: the `POST /order` answer when placed, else the OpenAPI's per-order error entry. */
function batchEntry(answer: ClobAnswer): unknown {
  if (answer.status === 200) return answer.body;
  const error = (answer.body as { error?: unknown }).error;
  return { errorMsg: typeof error === 'string' ? error : 'could not insert order', orderID: '', takingAmount: '', makingAmount: '', status: '', success: true };
}

/** `{market?, asset_id?}` as a filter, or null when the body or a filter is malformed. */
function marketCancelFilter(raw: unknown): MarketCancelFilter | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { market, asset_id: assetId } = raw as Record<string, unknown>;
  const given = (value: unknown) => value !== undefined && value !== null && value !== '';
  if (given(market) && (typeof market !== 'string' || !CONDITION_ID.test(market))) return null;
  if (given(assetId) && (typeof assetId !== 'string' || !TOKEN_ID.test(assetId))) return null;
  return { ...(given(market) ? { market: (market as string).toLowerCase() } : {}), ...(given(assetId) ? { assetId: assetId as string } : {}) };
}

/** verify.ts reasons -> the venue's answers (errors.ts). */
function refusalFor(reason: string): ClobAnswer {
  if (reason.startsWith('invalid order field')) return clobErrors.invalidOrderPayload();
  if (reason === 'signer is not the owner of the API key') return clobErrors.signerNotApiKeyAddress();
  if (reason.startsWith('maker is not') || reason === 'EOA orders must have maker == signer' || reason.startsWith('POLY_1271 orders are signed')) {
    return clobErrors.orderOwnerNotApiKeyOwner();
  }
  return clobErrors.invalidSignature();
}

export function traderSide(trade: TradeRecord, account: FakeAccount): 'TAKER' | 'MAKER' | null {
  if (trade.taker.apiKey === account.apiKey) return 'TAKER';
  return trade.makers.some((m) => m.order.apiKey === account.apiKey) ? 'MAKER' : null;
}

/**
 * An order as `GET /data/order/{id}`, `GET /data/orders` and the user channel show it. Its status is
 * one of the venue's (the CLOB OpenAPI's `OpenOrder.status`: LIVE, INVALID, CANCELED_MARKET_RESOLVED,
 * CANCELED, MATCHED): a GTD order that expired reads CANCELED, as the AsyncAPI's "Order
 * cancellation" example (a GTD order, `type: CANCELLATION`, `status: CANCELED`) shows; the venue
 * has no EXPIRED status on the wire. The fake keeps EXPIRED in its own record (`GET /_fake/orders`).
 */
export function openOrderJson(order: OrderRecord) {
  return {
    id: order.id,
    status: order.canceledAsMarketResolved === true ? 'CANCELED_MARKET_RESOLVED' : order.status === 'EXPIRED' ? 'CANCELED' : order.status,
    owner: order.apiKey,
    maker_address: order.makerAddress,
    market: order.token.conditionId,
    asset_id: order.token.tokenId,
    side: order.side,
    original_size: unitsToShares(order.originalUnits),
    size_matched: unitsToShares(order.matchedUnits),
    price: order.price,
    associate_trades: [...order.associateTrades],
    outcome: order.token.outcome,
    created_at: order.createdAtSeconds,
    expiration: order.expiration,
    order_type: order.orderType,
  };
}

export function tradeJson(trade: TradeRecord, side: 'TAKER' | 'MAKER') {
  const { taker } = trade;
  const averagePrice = trade.notional.div(new Decimal(trade.units).div(UNITS_PER_SHARE));
  return {
    id: trade.id,
    taker_order_id: taker.id,
    market: taker.token.conditionId,
    asset_id: taker.token.tokenId,
    side: taker.side,
    size: unitsToShares(trade.units),
    fee_rate_bps: '0',
    price: averagePrice.toString(),
    status: trade.status,
    match_time: String(trade.matchTimeSeconds),
    last_update: String(trade.lastUpdateSeconds),
    outcome: taker.token.outcome,
    bucket_index: 0,
    owner: taker.apiKey,
    maker_address: taker.makerAddress,
    maker_orders: trade.makers.map((m) => ({
      order_id: m.order.id,
      owner: m.order.apiKey,
      maker_address: m.order.makerAddress,
      matched_amount: unitsToShares(m.units),
      price: ticksToText(m.priceTicks, m.order.token.tickSize),
      fee_rate_bps: '0',
      asset_id: m.order.token.tokenId,
      outcome: m.order.token.outcome,
      side: m.order.side,
    })),
    transaction_hash: trade.transactionHash,
    err_msg: trade.status === 'FAILED' ? 'trade failed on chain (fake)' : null,
    trader_side: side,
  };
}
