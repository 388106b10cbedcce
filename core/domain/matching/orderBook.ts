/**
 * The central limit order book of one binary market, kept in YES terms, with
 * price-time priority (best price first, then arrival order within a price).
 *
 * Pure and deterministic: no clock, no randomness, no I/O. Every operation returns
 * what happened (fills for both maker and taker) so the caller can persist it.
 * The book has no notion of account, so it does not prevent self-trades: an order
 * that crosses an order of the same owner simply trades with it.
 */
import { PriceLevel, RestingOrder } from './priceLevel';
import { PriceLevelIndex } from './priceLevelIndex';
import type {
  BookDepth,
  BookLevel,
  BookSide,
  CancelReason,
  CancelResult,
  FillEvent,
  OrderRequest,
  OutcomeSide,
  PlaceResult,
  QueuePosition,
  RejectReason,
  RestingOrderView,
  TopOfBook,
} from './types';
import * as units from './units';
import * as complement from './yesNoComplement';
import type { BookSideIndex } from './yesNoComplement';

// Module-local copies: loaders such as tsx (esbuild) compile imported bindings to
// getters, which cost ~15% of the hot path when read on every order.
const { MAX_PRICE_TICKS, MIN_PRICE_TICKS, PRICE_TICKS_PER_DOLLAR } = units;
const { ASK, BID, bookSideIndexOf, fromYesPriceTicks, toYesPriceTicks } = complement;

/** Sentinels for an empty side: they never cross any valid limit (1..9999). */
const NO_BID = 0;
const NO_ASK = PRICE_TICKS_PER_DOLLAR;

const NO_FILLS: readonly FillEvent[] = Object.freeze([]);

export interface OrderBookOptions {
  /**
   * Order-id index of resting orders. An engine passes one map to all its books so
   * ids are unique engine-wide and a cancel needs no market id.
   */
  readonly orderIndex?: Map<string, RestingOrder>;
}

function isValidTick(ticks: number): boolean {
  return Number.isInteger(ticks) && ticks >= MIN_PRICE_TICKS && ticks <= MAX_PRICE_TICKS;
}

export class OrderBook {
  readonly marketId: string;

  private readonly levels: [Array<PriceLevel | undefined>, Array<PriceLevel | undefined>];
  private readonly nonEmpty: [PriceLevelIndex, PriceLevelIndex];
  private readonly orders: Map<string, RestingOrder>;
  private bestBid = NO_BID;
  private bestAsk = NO_ASK;
  private sequence = 0;
  private matchSequence = 0;
  private restingCount = 0;

  constructor(marketId: string, options: OrderBookOptions = {}) {
    this.marketId = marketId;
    this.levels = [new Array<PriceLevel | undefined>(NO_ASK), new Array<PriceLevel | undefined>(NO_ASK)];
    this.nonEmpty = [new PriceLevelIndex(NO_ASK), new PriceLevelIndex(NO_ASK)];
    this.orders = options.orderIndex ?? new Map();
  }

  /** Places a limit or market order: matches what crosses, then rests, cancels or kills the rest. */
  place(request: OrderRequest): PlaceResult {
    const sequence = ++this.sequence;
    const { orderId, side, action, quantity } = request;

    if (!Number.isSafeInteger(quantity) || quantity <= 0) {
      return rejected(sequence, orderId, 'invalid_quantity');
    }
    if (this.orders.has(orderId)) return rejected(sequence, orderId, 'duplicate_order_id');

    const bookSide = bookSideIndexOf(side, action);
    let limitYes: number;
    let timeInForce: 'GTC' | 'IOC' | 'FOK';
    if (request.type === 'limit') {
      if (!isValidTick(request.priceTicks)) return rejected(sequence, orderId, 'invalid_price');
      limitYes = toYesPriceTicks(side, request.priceTicks);
      timeInForce = request.timeInForce;
    } else {
      const protection = request.protectionPriceTicks;
      if (protection === undefined) {
        limitYes = bookSide === BID ? MAX_PRICE_TICKS : MIN_PRICE_TICKS;
      } else {
        if (!isValidTick(protection)) return rejected(sequence, orderId, 'invalid_price');
        limitYes = toYesPriceTicks(side, protection);
      }
      timeInForce = request.timeInForce ?? 'IOC';
    }

    // FOK is decided before any fill so a kill leaves the book untouched.
    if (timeInForce === 'FOK' && this.quantityAvailable(bookSide, limitYes, quantity) < quantity) {
      return {
        sequence,
        orderId,
        status: 'canceled',
        filledQuantity: 0,
        restingQuantity: 0,
        canceledQuantity: quantity,
        reason: 'fok_unfillable',
        fills: NO_FILLS,
      };
    }

    let remaining = quantity;
    let fills = NO_FILLS;
    if (bookSide === BID ? this.bestAsk <= limitYes : this.bestBid >= limitYes) {
      const collected: FillEvent[] = [];
      remaining = this.sweep(orderId, side, action, bookSide, limitYes, quantity, collected);
      fills = collected;
    }
    const filledQuantity = quantity - remaining;

    if (remaining === 0) {
      return { sequence, orderId, status: 'filled', filledQuantity, restingQuantity: 0, canceledQuantity: 0, fills };
    }
    if (request.type === 'limit' && timeInForce === 'GTC') {
      this.rest(orderId, side, action, bookSide, limitYes, remaining);
      return { sequence, orderId, status: 'resting', filledQuantity, restingQuantity: remaining, canceledQuantity: 0, fills };
    }
    const reason: CancelReason = request.type === 'market' ? 'market_remainder' : 'ioc_remainder';
    return {
      sequence,
      orderId,
      status: 'canceled',
      filledQuantity,
      restingQuantity: 0,
      canceledQuantity: remaining,
      reason,
      fills,
    };
  }

  /** Removes a resting order. Unknown, filled or already canceled ids answer unknown_order. */
  cancel(orderId: string): CancelResult {
    const order = this.orders.get(orderId);
    if (order === undefined || order.owner !== this) return { ok: false, orderId, reason: 'unknown_order' };
    const sequence = ++this.sequence;
    const canceledQuantity = order.remaining;
    this.unlink(order);
    return { ok: true, sequence, orderId, canceledQuantity };
  }

  /**
   * Shrinks a resting order to `remaining` (0 < remaining < its remaining) where it stands: it keeps
   * its place in the queue, as exchanges keep it for a size decrease. False for an unknown order or
   * a size that is not a decrease (a price change or a size increase is a cancel and a new placement).
   */
  reduce(orderId: string, remaining: number): boolean {
    const order = this.ownOrder(orderId);
    if (order === null || !Number.isSafeInteger(remaining) || remaining <= 0 || remaining >= order.remaining) return false;
    ++this.sequence;
    order.level.totalQuantity -= order.remaining - remaining;
    order.remaining = remaining;
    return true;
  }

  /**
   * How many orders and how much quantity are ahead of a resting order at its price: the level's
   * totals less the order and those behind it. Counted from the back of the queue, so that the
   * answer to a placement (the order is last) costs the same however long the queue is.
   */
  queuePosition(orderId: string): QueuePosition | null {
    const order = this.ownOrder(orderId);
    if (order === null) return null;
    let ordersBehind = 0;
    let quantityBehind = 0;
    for (let o = order.level.tail; o !== order && o !== null; o = o.prev) {
      ordersBehind++;
      quantityBehind += o.remaining;
    }
    const { level } = order;
    return {
      ...viewOf(order),
      ordersAhead: level.orderCount - 1 - ordersBehind,
      quantityAhead: level.totalQuantity - order.remaining - quantityBehind,
    };
  }

  getOrder(orderId: string): RestingOrderView | null {
    const order = this.ownOrder(orderId);
    return order === null ? null : viewOf(order);
  }

  /** Every resting order, bids best-first then asks best-first, FIFO within a level. */
  restingOrders(): RestingOrderView[] {
    const out: RestingOrderView[] = [];
    for (const side of [BID, ASK] as const) {
      this.forEachLevel(side, Infinity, (level) => {
        for (let o = level.head; o !== null; o = o.next) out.push(viewOf(o));
      });
    }
    return out;
  }

  get restingOrderCount(): number {
    return this.restingCount;
  }

  /**
   * Depth by level, best first. The NO view shows the same liquidity as NO prices:
   * NO bids are the YES asks at 1 − p, NO asks the YES bids at 1 − p.
   */
  depth(maxLevels: number = Infinity, view: OutcomeSide = 'yes'): BookDepth {
    const yesBids = this.collectLevels(BID, maxLevels);
    const yesAsks = this.collectLevels(ASK, maxLevels);
    if (view === 'yes') return { bids: yesBids, asks: yesAsks };
    return { bids: yesAsks.map(complementLevel), asks: yesBids.map(complementLevel) };
  }

  topOfBook(view: OutcomeSide = 'yes'): TopOfBook {
    const { bids, asks } = this.depth(1, view);
    return { bid: bids[0] ?? null, ask: asks[0] ?? null };
  }

  /** Best YES bid and ask in ticks, null when that side is empty. */
  bestBidTicks(): number | null {
    return this.bestBid === NO_BID ? null : this.bestBid;
  }

  bestAskTicks(): number | null {
    return this.bestAsk === NO_ASK ? null : this.bestAsk;
  }

  /** (bid + ask) / 2 in ticks of the chosen view; may be a half tick (exact in a double). */
  midPriceTicks(view: OutcomeSide = 'yes'): number | null {
    if (this.bestBid === NO_BID || this.bestAsk === NO_ASK) return null;
    const yesMid = (this.bestBid + this.bestAsk) / 2;
    return view === 'yes' ? yesMid : PRICE_TICKS_PER_DOLLAR - yesMid;
  }

  /** Ask − bid in ticks (the same in both views), null when a side is empty. */
  spreadTicks(): number | null {
    if (this.bestBid === NO_BID || this.bestAsk === NO_ASK) return null;
    return this.bestAsk - this.bestBid;
  }

  // --- hot path ---------------------------------------------------------------------

  /** Matches an incoming order against the opposite side up to its YES limit; returns what is left. */
  private sweep(
    takerId: string,
    takerSide: OutcomeSide,
    takerAction: 'buy' | 'sell',
    bookSide: BookSideIndex,
    limitYes: number,
    quantity: number,
    fills: FillEvent[],
  ): number {
    const makerSide: BookSideIndex = bookSide === BID ? ASK : BID;
    const levels = this.levels[makerSide];
    let remaining = quantity;
    while (remaining > 0) {
      const price = makerSide === ASK ? this.bestAsk : this.bestBid;
      if (makerSide === ASK ? price > limitYes : price < limitYes) break;
      const level = levels[price]!;
      const takerPrice = fromYesPriceTicks(takerSide, price);
      let maker = level.head;
      while (maker !== null && remaining > 0) {
        const traded = maker.remaining < remaining ? maker.remaining : remaining;
        const next = maker.next;
        remaining -= traded;
        maker.remaining -= traded;
        level.totalQuantity -= traded;
        const matchId = ++this.matchSequence;
        fills.push(
          {
            matchId,
            orderId: takerId,
            counterpartyOrderId: maker.id,
            liquidity: 'taker',
            side: takerSide,
            action: takerAction,
            priceTicks: takerPrice,
            yesPriceTicks: price,
            quantity: traded,
            remainingQuantity: remaining,
          },
          {
            matchId,
            orderId: maker.id,
            counterpartyOrderId: takerId,
            liquidity: 'maker',
            side: maker.side,
            action: maker.action,
            priceTicks: fromYesPriceTicks(maker.side, price),
            yesPriceTicks: price,
            quantity: traded,
            remainingQuantity: maker.remaining,
          },
        );
        if (maker.remaining === 0) this.unlink(maker);
        maker = next;
      }
    }
    return remaining;
  }

  private rest(
    orderId: string,
    side: OutcomeSide,
    action: 'buy' | 'sell',
    bookSide: BookSideIndex,
    yesPrice: number,
    quantity: number,
  ): void {
    const levels = this.levels[bookSide];
    let level = levels[yesPrice];
    if (level === undefined) {
      // Levels are kept once created: a busy price empties and refills all the time.
      level = new PriceLevel(yesPrice);
      levels[yesPrice] = level;
    }
    if (level.orderCount === 0) {
      this.nonEmpty[bookSide].set(yesPrice);
      if (bookSide === BID) {
        if (yesPrice > this.bestBid) this.bestBid = yesPrice;
      } else if (yesPrice < this.bestAsk) {
        this.bestAsk = yesPrice;
      }
    }
    const order = new RestingOrder(orderId, side, action, bookSide, yesPrice, quantity, this, level);
    level.append(order);
    this.orders.set(orderId, order);
    this.restingCount++;
  }

  /** Takes an order off its level (filled or canceled) and repairs the best price if needed. */
  private unlink(order: RestingOrder): void {
    const level = order.level;
    level.remove(order);
    this.orders.delete(order.id);
    this.restingCount--;
    if (level.orderCount !== 0) return;
    const bookSide = order.bookSide;
    const price = order.yesPriceTicks;
    const index = this.nonEmpty[bookSide];
    index.clear(price);
    if (bookSide === BID) {
      if (price === this.bestBid) {
        const next = index.highestAtOrBelow(price - 1);
        this.bestBid = next < 0 ? NO_BID : next;
      }
    } else if (price === this.bestAsk) {
      const next = index.lowestAtOrAbove(price + 1);
      this.bestAsk = next < 0 ? NO_ASK : next;
    }
  }

  /** Quantity on the opposite side at prices an order with this YES limit would take, capped at `needed`. */
  private quantityAvailable(bookSide: BookSideIndex, limitYes: number, needed: number): number {
    let total = 0;
    const makerSide: BookSideIndex = bookSide === BID ? ASK : BID;
    this.forEachLevel(makerSide, Infinity, (level) => {
      if (makerSide === ASK ? level.yesPriceTicks > limitYes : level.yesPriceTicks < limitYes) return false;
      total += level.totalQuantity;
      return total < needed;
    });
    return total;
  }

  /** Visits non-empty levels of one side best-first; the visitor returns false to stop. */
  private forEachLevel(bookSide: BookSideIndex, maxLevels: number, visit: (level: PriceLevel) => boolean | void): void {
    const levels = this.levels[bookSide];
    const index = this.nonEmpty[bookSide];
    let price = bookSide === BID ? this.bestBid : this.bestAsk;
    if (price === NO_BID || price === NO_ASK) return;
    for (let seen = 0; seen < maxLevels && price >= 0; seen++) {
      if (visit(levels[price]!) === false) return;
      price = bookSide === BID ? index.highestAtOrBelow(price - 1) : index.lowestAtOrAbove(price + 1);
    }
  }

  private collectLevels(bookSide: BookSideIndex, maxLevels: number): BookLevel[] {
    const out: BookLevel[] = [];
    this.forEachLevel(bookSide, maxLevels, (level) => {
      out.push({ priceTicks: level.yesPriceTicks, quantity: level.totalQuantity, orders: level.orderCount });
    });
    return out;
  }

  private ownOrder(orderId: string): RestingOrder | null {
    const order = this.orders.get(orderId);
    return order !== undefined && order.owner === this ? order : null;
  }
}

function rejected(sequence: number, orderId: string, reason: RejectReason): PlaceResult {
  return {
    sequence,
    orderId,
    status: 'rejected',
    filledQuantity: 0,
    restingQuantity: 0,
    canceledQuantity: 0,
    reason,
    fills: NO_FILLS,
  };
}

function viewOf(order: RestingOrder): RestingOrderView {
  const bookSide: BookSide = order.bookSide === BID ? 'bid' : 'ask';
  return {
    orderId: order.id,
    side: order.side,
    action: order.action,
    priceTicks: fromYesPriceTicks(order.side, order.yesPriceTicks),
    yesPriceTicks: order.yesPriceTicks,
    bookSide,
    remainingQuantity: order.remaining,
  };
}

function complementLevel(level: BookLevel): BookLevel {
  return { priceTicks: PRICE_TICKS_PER_DOLLAR - level.priceTicks, quantity: level.quantity, orders: level.orders };
}
