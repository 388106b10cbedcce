/**
 * A simulated venue (sim-kalshi or sim-polymarket) behind the core's `Venue` contract: one
 * price-time-priority book per market, the venue's own rules (ticks, sizes, fees, error codes), and
 * a seeded market maker for liquidity. Pure and in memory: no database, no network, no real clock
 * (timestamps come from the injected clock), no Math.random.
 *
 * Boundaries: requests and answers carry decimal strings (dollars in the order's own terms,
 * contracts or shares); inside, prices are integer ticks of $0.0001 and quantities integer base
 * units. See docs/simulated-venues.md for the model, ids, fees, listeners and the restart rule.
 */
import {
  MatchingEngine,
  toYesTerms,
  quantityToUnits,
  ticksToPrice,
  unitsToQuantity,
  type FillEvent,
  type LimitOrderRequest,
  type OrderBook,
  type OrderRequest,
} from '../../domain/matching';
import { DEFAULT_BOOK_DEPTH } from '../../../contract/inputBounds';
import { validateOrderInput, validatePrice } from '../../domain/venueRules';
import {
  type OrderAction,
  type OrderBookView,
  type OutcomeSide,
  type QueuePositionView,
  type Venue,
  type VenueAmendRequest,
  type VenueAmendResult,
  type VenueCancelResult,
  type VenueFill,
  type VenueOrderRequest,
  type VenueOrderState,
  type VenuePlaceResult,
} from '../venue';
import { restsOnBook } from '../../domain/orderTerms';
import { isMarketMakerOrderId, MarketMaker, type MarketMakerOptions } from './marketMaker';
import { feesForOperation, indexesBy } from './operationFees';
import { simMarketOf, type SimMarket, type SimMarketConfig } from './simMarketRules';
import { invalidOrder, marketNotTradable, orderNotFound, postOnlyCrosses, SimVenueError, venueError, type VenueRejection } from './venueRejections';

export interface SimVenueOptions {
  /** sim-kalshi, sim-polymarket, or another simulated venue whose markets bring their rules (SimMarketConfig.rules). */
  readonly name: string;
  readonly markets: readonly SimMarketConfig[];
  /** Seeds the market maker: the same seed and the same calls give the same books and fills. */
  readonly seed: number;
  /** Source of fill timestamps (`executedAt`); the venue never reads the system clock itself. */
  readonly clock: () => Date;
  readonly marketMaker?: MarketMakerOptions;
}

/** A client order that was resting before a restart, as the core has it in its database. */
export interface RestingOrderToRestore {
  readonly clientOrderId: string;
  readonly venueMarketId: string;
  readonly side: OutcomeSide;
  readonly action: OrderAction;
  /** Limit price in dollars, in the order's own terms. */
  readonly price: string;
  readonly remainingQuantity: string;
  /** What had filled before the restart, so `getOrder` keeps reporting it. Default "0". */
  readonly filledQuantity?: string;
  /** A gtd order's end (RFC 3339): it leaves the book then, as before the restart. */
  readonly expiresAt?: string;
}

export type FillListener = (fills: VenueFill[]) => void;


const SIDES: readonly OutcomeSide[] = ['yes', 'no'];
const ACTIONS: readonly OrderAction[] = ['buy', 'sell'];
const ORDER_TYPES: readonly VenueOrderRequest['type'][] = ['limit', 'market'];
const TIMES_IN_FORCE: readonly VenueOrderRequest['timeInForce'][] = ['gtc', 'ioc', 'fok', 'gtd'];
const MAX_CLIENT_ORDER_ID_LENGTH = 255;

interface ListedMarket {
  readonly market: SimMarket;
  readonly book: OrderBook;
  readonly maker: MarketMaker;
  /** When its book last changed (listed, an order placed or canceled, orders restored): the book's `asOf`. */
  changedAt: Date;
}

interface RestoredOrder {
  readonly clientOrderId: string;
  readonly listed: ListedMarket;
  readonly filledUnits: number;
  readonly request: LimitOrderRequest;
  readonly expiresAtMs: number | null;
}

interface ClientOrder {
  readonly venueOrderId: string;
  readonly clientOrderId: string;
  readonly venueMarketId: string;
  readonly unitsPerWhole: number;
  /** Its total (filled included); an amend changes it. */
  quantityUnits: number;
  /** Refuses to take: kept for amends (a new price that would cross is refused too). */
  postOnly: boolean;
  filledUnits: number;
  status: VenueOrderState['status'];
  readonly fills: VenueFill[];
}

export class SimVenue implements Venue {
  readonly name: string;

  private readonly engine = new MatchingEngine();
  private readonly markets = new Map<string, ListedMarket>();
  private readonly ordersByClientId = new Map<string, ClientOrder>();
  /** Client orders by the id they have in the book (their venueOrderId). */
  private readonly ordersByVenueId = new Map<string, ClientOrder>();
  private readonly fills: VenueFill[] = [];
  private readonly fillPositions = new Map<string, number>();
  private readonly listeners = new Set<FillListener>();
  /** Resting gtd orders by client order id: when each leaves the book (ms). */
  private readonly expiring = new Map<string, number>();
  private readonly clock: () => Date;
  private readonly seed: number;
  private readonly marketMakerOptions: MarketMakerOptions | undefined;

  constructor(options: SimVenueOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.seed = options.seed;
    this.marketMakerOptions = options.marketMaker;
    for (const config of options.markets) this.listMarket(config);
  }

  /** Lists a market while running (a test helper's market), its book quoted by the market maker as at start-up. */
  listMarket(config: SimMarketConfig): void {
    const market = simMarketOf(this.name, config);
    if (this.markets.has(market.venueMarketId)) throw new RangeError(`market ${market.venueMarketId} is listed twice`);
    const book = this.engine.openMarket(market.venueMarketId);
    const maker = new MarketMaker(market, this.seed, this.name, this.marketMakerOptions);
    maker.quote(book);
    this.markets.set(market.venueMarketId, { market, book, maker, changedAt: this.clock() });
  }

  /** The venue's market ids, in listing order. */
  marketIds(): string[] {
    return [...this.markets.keys()];
  }

  async placeOrder(request: VenueOrderRequest): Promise<VenuePlaceResult> {
    return this.place(request);
  }

  async cancelOrder(clientOrderId: string): Promise<VenueCancelResult> {
    this.expireDue();
    const order = this.ordersByClientId.get(clientOrderId);
    if (order === undefined) return orderNotFound(this.name, `no order with client order id ${clientOrderId}`);
    if (order.status === 'canceled') return { outcome: 'canceled', order: stateOf(order) };
    if (order.status === 'filled') return orderNotFound(this.name, `order ${clientOrderId} is already filled`);
    const canceled = this.engine.cancel(order.venueOrderId);
    if (!canceled.ok) return venueError(this.name, `order ${clientOrderId} was not on the book`);
    order.status = 'canceled';
    this.markets.get(order.venueMarketId)!.changedAt = this.clock();
    return { outcome: 'canceled', order: stateOf(order) };
  }

  /**
   * Amends a resting order with exchange semantics: the same price and a smaller total shrinks it
   * where it stands (its queue place kept); a new price or a larger total takes it off the book and
   * places the rest again under the same ids, at the back of its new level, trading at once if the
   * new price crosses (a post-only order is refused instead, and stays as it was). The total counts
   * what filled: it must stay above it.
   */
  async amendOrder(clientOrderId: string, amend: VenueAmendRequest): Promise<VenueAmendResult> {
    this.expireDue();
    const order = this.ordersByClientId.get(clientOrderId);
    if (order === undefined) return orderNotFound(this.name, `no order with client order id ${clientOrderId}`);
    const resting = order.status === 'open' ? this.engine.getOrder(order.venueOrderId) : null;
    if (resting === null) return orderNotFound(this.name, `order ${clientOrderId} is ${order.status}: nothing rests to amend`);
    const listed = this.markets.get(order.venueMarketId)!;
    const checked = validateOrderInput(listed.market.rules, { type: 'limit', price: amend.price, quantity: amend.quantity });
    if (!checked.ok) return invalidOrder(this.name, checked.code, checked.message);
    const remaining = checked.quantityUnits - order.filledUnits;
    if (remaining <= 0) return invalidOrder(this.name, 'invalid_field', `quantity ${amend.quantity} is not above what filled (${unitsToQuantity(order.filledUnits, order.unitsPerWhole)})`);
    const priceTicks = checked.priceTicks!;
    if (priceTicks === resting.priceTicks && remaining <= resting.remainingQuantity) {
      if (remaining < resting.remainingQuantity) this.engine.reduce(order.venueOrderId, remaining);
      order.quantityUnits = checked.quantityUnits;
      listed.changedAt = this.clock();
      return { outcome: 'amended', order: this.viewOf(order), fills: [] };
    }
    const request: LimitOrderRequest = { type: 'limit', orderId: order.venueOrderId, side: resting.side, action: resting.action, priceTicks, quantity: remaining, timeInForce: 'GTC' };
    if (order.postOnly && this.wouldTake(listed.book, request)) return postOnlyCrosses(this.name);
    this.engine.cancel(order.venueOrderId);
    order.quantityUnits = checked.quantityUnits;
    const fills = this.execute(listed, order, request);
    return { outcome: 'amended', order: this.viewOf(order), fills: fills.filter((fill) => fill.clientOrderId === clientOrderId) };
  }

  async getOrder(clientOrderId: string): Promise<VenueOrderState | null> {
    this.expireDue();
    const order = this.ordersByClientId.get(clientOrderId);
    if (order === undefined) return null;
    return this.viewOf(order);
  }

  /**
   * Every fill of a client order, oldest first, after `afterVenueFillId` (exclusive). An id this
   * venue does not know (for example one from before a restart) lists from the beginning: the core
   * applies fills idempotently by venueFillId, so re-reading is safe and skipping is not.
   */
  async listFills(options: { afterVenueFillId?: string; limit?: number } = {}): Promise<VenueFill[]> {
    const { afterVenueFillId, limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new SimVenueError('invalid_request', `limit ${limit} must be a whole number >= 1`);
    }
    const after = afterVenueFillId === undefined ? undefined : this.fillPositions.get(afterVenueFillId);
    const start = after === undefined ? 0 : after + 1;
    return this.fills.slice(start, limit === undefined ? undefined : start + limit).map(copyFill);
  }

  /** The book in YES terms, best level first, `depth` levels a side; throws for an unknown market. */
  async orderBook(venueMarketId: string, depth: number = DEFAULT_BOOK_DEPTH): Promise<OrderBookView> {
    this.expireDue();
    const listed = this.markets.get(venueMarketId);
    if (listed === undefined) throw new SimVenueError('market_not_tradable', marketNotTradable(this.name, venueMarketId).message);
    if (!Number.isInteger(depth) || depth < 1) throw new SimVenueError('invalid_request', `depth ${depth} must be a whole number >= 1`);
    const { book, market } = listed;
    const { bids, asks } = book.depth(depth);
    const perWhole = market.rules.unitsPerWhole;
    const view = (level: { priceTicks: number; quantity: number }) => ({
      price: ticksToPrice(level.priceTicks),
      quantity: unitsToQuantity(level.quantity, perWhole),
    });
    const mid = book.midPriceTicks();
    return { venueMarketId, bids: bids.map(view), asks: asks.map(view), mid: mid === null ? null : ticksToPrice(mid), asOf: listed.changedAt };
  }

  async queuePosition(clientOrderId: string): Promise<QueuePositionView | null> {
    this.expireDue();
    const order = this.ordersByClientId.get(clientOrderId);
    if (order === undefined || order.status !== 'open') return null;
    const position = this.engine.queuePosition(order.venueOrderId);
    if (position === null) return null;
    return {
      venueOrderId: order.venueOrderId,
      ordersAhead: position.ordersAhead,
      quantityAhead: unitsToQuantity(position.quantityAhead, order.unitsPerWhole),
    };
  }

  /**
   * Registers a listener for every client fill, the taker's own included, once per operation with
   * all of that operation's client fills in match order. It is called synchronously, before the
   * `placeOrder` that caused the fills resolves. A listener that throws is ignored (listFills is the
   * reconciliation path). Returns a function that removes the listener.
   */
  onFills(listener: FillListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * After a restart: puts the client orders that were resting back on the books, in the order given
   * (the core passes them in their original time order). In every market touched, the market maker's
   * quotes are withdrawn first and re-posted after, so restored client orders keep their order among
   * themselves and stand ahead of the market maker at the same price. Client order ids this venue
   * already knows are left alone. Invalid input throws before anything changes.
   */
  restoreRestingOrders(orders: readonly RestingOrderToRestore[]): VenueOrderState[] {
    const seen = new Set<string>();
    const checked = orders.map((order) => {
      const entry = this.checkRestoredOrder(order);
      if (seen.has(order.clientOrderId)) {
        throw new SimVenueError('invalid_request', `cannot restore order ${order.clientOrderId}: it is listed twice`);
      }
      seen.add(order.clientOrderId);
      return entry;
    });
    const fresh = checked.filter((entry) => !this.ordersByClientId.has(entry.clientOrderId));
    const touched = new Set(fresh.map((entry) => entry.listed));
    for (const listed of touched) listed.maker.withdraw(listed.book);
    for (const entry of fresh) {
      const { listed, request, filledUnits } = entry;
      const order = this.register(entry.clientOrderId, listed.market, filledUnits + request.quantity, filledUnits);
      this.execute(listed, order, { ...request, orderId: order.venueOrderId });
      if (entry.expiresAtMs !== null && order.status === 'open') this.expiring.set(entry.clientOrderId, entry.expiresAtMs);
    }
    for (const listed of touched) {
      listed.maker.quote(listed.book);
      listed.changedAt = this.clock();
    }
    return orders.map((order) => this.viewOf(this.ordersByClientId.get(order.clientOrderId)!));
  }

  /** The venue's view of a client order: its state, with its limit price while it rests. */
  private viewOf(order: ClientOrder): VenueOrderState {
    const resting = order.status === 'open' ? this.engine.getOrder(order.venueOrderId) : null;
    return stateOf(order, resting?.priceTicks);
  }

  // --- placing -------------------------------------------------------------------------

  /**
   * Takes the gtd orders whose time has come off their books, as the venue's own expiry: each ends
   * `canceled` at the venue (the core, seeing its `expiresAt` passed, records it `expired`). Run
   * before every call that reads or changes the books, so that no expired order is read or traded.
   */
  private expireDue(): void {
    if (this.expiring.size === 0) return;
    const now = this.clock().getTime();
    for (const [clientOrderId, expiresAtMs] of this.expiring) {
      if (expiresAtMs > now) continue;
      this.expiring.delete(clientOrderId);
      const order = this.ordersByClientId.get(clientOrderId);
      if (order === undefined || order.status !== 'open') continue;
      if (!this.engine.cancel(order.venueOrderId).ok) continue;
      order.status = 'canceled';
      this.markets.get(order.venueMarketId)!.changedAt = this.clock();
    }
  }

  private place(request: VenueOrderRequest): VenuePlaceResult {
    this.expireDue();
    const clientOrderId: unknown = request.clientOrderId;
    if (typeof clientOrderId !== 'string' || clientOrderId.length === 0 || clientOrderId.length > MAX_CLIENT_ORDER_ID_LENGTH) {
      return invalidOrder(this.name, 'invalid_field', `clientOrderId must be a string of 1..${MAX_CLIENT_ORDER_ID_LENGTH} characters`);
    }
    const known = this.ordersByClientId.get(clientOrderId);
    if (known !== undefined) return { outcome: 'accepted', order: this.viewOf(known), fills: known.fills.map(copyFill) };

    const listed = this.markets.get(request.venueMarketId);
    if (listed === undefined) return marketNotTradable(this.name, String(request.venueMarketId));
    const parsed = this.parseRequest(listed.market, request);
    if ('outcome' in parsed) return parsed;
    if (request.postOnly === true && this.wouldTake(listed.book, parsed)) return postOnlyCrosses(this.name);
    const expiry = this.expiryOf(request);
    if (typeof expiry !== 'number' && expiry !== null) return expiry;

    const order = this.register(clientOrderId, listed.market, parsed.quantity, 0);
    order.postOnly = request.postOnly === true;
    const fills = this.execute(listed, order, { ...parsed, orderId: order.venueOrderId });
    if (expiry !== null && order.status === 'open') this.expiring.set(clientOrderId, expiry);
    return { outcome: 'accepted', order: this.viewOf(order), fills: fills.filter((fill) => fill.clientOrderId === clientOrderId) };
  }

  /** A gtd order's end (ms), null for another time in force; refused when missing, unreadable or not in the future. */
  private expiryOf(request: VenueOrderRequest): number | null | VenueRejection {
    if (request.timeInForce !== 'gtd') {
      return request.expiresAt === undefined ? null : invalidOrder(this.name, 'invalid_field', 'expiresAt is for a gtd order only');
    }
    const at = typeof request.expiresAt === 'string' ? Date.parse(request.expiresAt) : Number.NaN;
    if (Number.isNaN(at)) return invalidOrder(this.name, 'invalid_field', 'a gtd order needs expiresAt, an RFC 3339 time');
    if (at <= this.clock().getTime()) return invalidOrder(this.name, 'invalid_field', 'expiresAt must be in the future');
    return at;
  }

  /** Whether a post-only order would trade on arrival: a limit order at or through the best price of the other side (YES terms). */
  private wouldTake(book: OrderBook, order: OrderRequest): boolean {
    if (order.type !== 'limit') return true; // a market order always takes
    const { bookSide, yesPriceTicks } = toYesTerms(order.side, order.action, order.priceTicks);
    const opposite = bookSide === 'bid' ? book.bestAskTicks() : book.bestBidTicks();
    if (opposite === null) return false;
    return bookSide === 'bid' ? yesPriceTicks >= opposite : yesPriceTicks <= opposite;
  }

  /** The request's fields checked against the market's rules and turned into a book order. */
  private parseRequest(market: SimMarket, request: VenueOrderRequest): OrderRequest | VenueRejection {
    if (!SIDES.includes(request.side)) return invalidOrder(this.name, 'invalid_field', `side must be one of ${SIDES.join(', ')}`);
    if (!ACTIONS.includes(request.action)) return invalidOrder(this.name, 'invalid_field', `action must be one of ${ACTIONS.join(', ')}`);
    if (!ORDER_TYPES.includes(request.type)) return invalidOrder(this.name, 'invalid_field', `type must be one of ${ORDER_TYPES.join(', ')}`);
    if (!TIMES_IN_FORCE.includes(request.timeInForce)) {
      return invalidOrder(this.name, 'invalid_field', `timeInForce must be one of ${TIMES_IN_FORCE.join(', ')}`);
    }
    if (request.type === 'market' && restsOnBook(request.timeInForce)) {
      return invalidOrder(this.name, 'invalid_field', 'a market order never rests: timeInForce must be ioc or fok');
    }
    const checked = validateOrderInput(market.rules, { type: request.type, price: request.price, quantity: request.quantity });
    if (!checked.ok) return invalidOrder(this.name, checked.code, checked.message);

    const base = { orderId: '', side: request.side, action: request.action, quantity: checked.quantityUnits };
    if (request.type === 'limit') {
      const timeInForce = restsOnBook(request.timeInForce) ? 'GTC' : request.timeInForce === 'ioc' ? 'IOC' : 'FOK';
      return { ...base, type: 'limit', priceTicks: checked.priceTicks!, timeInForce };
    }
    const timeInForce = request.timeInForce === 'fok' ? 'FOK' : 'IOC';
    return checked.priceTicks === null
      ? { ...base, type: 'market', timeInForce }
      : { ...base, type: 'market', timeInForce, protectionPriceTicks: checked.priceTicks };
  }

  private register(clientOrderId: string, market: SimMarket, quantityUnits: number, filledUnits: number): ClientOrder {
    const order: ClientOrder = {
      venueOrderId: `${this.name}-order-${clientOrderId}`,
      clientOrderId,
      venueMarketId: market.venueMarketId,
      unitsPerWhole: market.rules.unitsPerWhole,
      quantityUnits,
      postOnly: false,
      filledUnits,
      status: 'open',
      fills: [],
    };
    this.ordersByClientId.set(clientOrderId, order);
    this.ordersByVenueId.set(order.venueOrderId, order);
    return order;
  }

  /**
   * Runs one client order through the book: records its fills and those of any client order it hit,
   * lets the market maker re-quote if its quotes were taken, and tells the listeners.
   */
  private execute(listed: ListedMarket, order: ClientOrder, request: OrderRequest): VenueFill[] {
    const result = this.engine.place(listed.market.venueMarketId, request);
    listed.changedAt = this.clock();
    if (result.status === 'rejected') {
      // The venue's own checks come first, so the book refusing means a bug; the order never existed.
      this.ordersByClientId.delete(order.clientOrderId);
      this.ordersByVenueId.delete(order.venueOrderId);
      throw new Error(`book refused order ${order.clientOrderId}: ${result.reason ?? 'unknown reason'}`);
    }
    const fills = this.recordFills(listed.market, result.fills);
    order.status = result.status === 'resting' ? 'open' : result.status === 'filled' ? 'filled' : 'canceled';

    const tookFromMarketMaker = result.fills.some((leg) => leg.liquidity === 'maker' && isMarketMakerOrderId(leg.orderId));
    if (tookFromMarketMaker) {
      const clientBoughtYes = (request.side === 'yes') === (request.action === 'buy');
      listed.maker.refreshAfterClientTrade(listed.book, clientBoughtYes);
    }
    this.notify(fills);
    return fills;
  }

  /** Turns the book's fill legs into venue fills for the legs of client orders (the maker's are internal). */
  private recordFills(market: SimMarket, legs: readonly FillEvent[]): VenueFill[] {
    const clientLegs = legs.filter((leg) => this.ordersByVenueId.has(leg.orderId));
    if (clientLegs.length === 0) return [];
    const executedAt = this.clock().toISOString();
    const fees = this.operationFees(market, clientLegs);
    return clientLegs.map((leg, index) => {
      const order = this.ordersByVenueId.get(leg.orderId)!;
      const fill: VenueFill = {
        venueFillId: `${order.venueOrderId}-left-${leg.remainingQuantity}`,
        venueOrderId: order.venueOrderId,
        clientOrderId: order.clientOrderId,
        venueMarketId: market.venueMarketId,
        side: leg.side,
        action: leg.action,
        price: ticksToPrice(leg.priceTicks),
        quantity: unitsToQuantity(leg.quantity, market.rules.unitsPerWhole),
        fee: fees[index]!,
        isTaker: leg.liquidity === 'taker',
        executedAt,
      };
      order.filledUnits += leg.quantity;
      if (leg.remainingQuantity === 0) order.status = 'filled';
      order.fills.push(fill);
      this.fillPositions.set(fill.venueFillId, this.fills.length);
      this.fills.push(fill);
      return fill;
    });
  }

  /**
   * Fees per leg, priced per order and operation: all of one order's legs in this operation share
   * the fee of their total quantity at each price (a maker order has one leg per operation).
   */
  private operationFees(market: SimMarket, legs: readonly FillEvent[]): string[] {
    const legsByOrder = indexesBy(legs, (leg) => leg.orderId);
    const fees = new Array<string>(legs.length);
    for (const indexes of legsByOrder.values()) {
      const orderLegs = indexes.map((index) => legs[index]!);
      const priced = orderLegs.map((leg) => ({ priceTicks: leg.priceTicks, quantityUnits: leg.quantity }));
      feesForOperation(market.rules, orderLegs[0]!.liquidity, priced).forEach((fee, position) => {
        fees[indexes[position]!] = fee;
      });
    }
    return fees;
  }

  private notify(fills: readonly VenueFill[]): void {
    if (fills.length === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(fills.map(copyFill));
      } catch {
        // A listener's failure must not undo or block the trade; listFills reconciles.
      }
    }
  }

  /** Checks one order to restore against the market's rules; throws a SimVenueError if it is invalid. */
  private checkRestoredOrder(order: RestingOrderToRestore): RestoredOrder {
    const refuse = (message: string) =>
      new SimVenueError('invalid_request', `cannot restore order ${String(order.clientOrderId)}: ${message}`);
    if (typeof order.clientOrderId !== 'string' || order.clientOrderId.length === 0) throw refuse('clientOrderId is missing');
    const listed = this.markets.get(order.venueMarketId);
    if (listed === undefined) {
      throw new SimVenueError('market_not_tradable', `cannot restore order ${order.clientOrderId}: market ${order.venueMarketId} is not listed`);
    }
    if (!SIDES.includes(order.side)) throw refuse(`side ${String(order.side)} is not yes or no`);
    if (!ACTIONS.includes(order.action)) throw refuse(`action ${String(order.action)} is not buy or sell`);
    const price = validatePrice(listed.market.rules, order.price);
    if (!price.ok) throw refuse(price.message);
    const perWhole = listed.market.rules.unitsPerWhole;
    const toUnits = (value: string, what: string): number => {
      try {
        return quantityToUnits(value, perWhole);
      } catch (error) {
        throw refuse(`${what}: ${(error as Error).message}`);
      }
    };
    const remainingUnits = toUnits(order.remainingQuantity, 'remainingQuantity');
    if (remainingUnits <= 0) throw refuse('remainingQuantity must be greater than 0');
    const filledUnits = order.filledQuantity === undefined ? 0 : toUnits(order.filledQuantity, 'filledQuantity');
    const expiresAtMs = order.expiresAt === undefined ? null : Date.parse(order.expiresAt);
    if (Number.isNaN(expiresAtMs)) throw refuse('expiresAt is not an RFC 3339 time');
    return {
      expiresAtMs,
      clientOrderId: order.clientOrderId,
      listed,
      filledUnits,
      request: {
        type: 'limit',
        orderId: '',
        side: order.side,
        action: order.action,
        priceTicks: price.priceTicks,
        quantity: remainingUnits,
        timeInForce: 'GTC',
      },
    };
  }
}

function stateOf(order: ClientOrder, priceTicks?: number): VenueOrderState {
  const open = order.status === 'open';
  return {
    ...(priceTicks === undefined ? {} : { price: ticksToPrice(priceTicks) }),
    venueOrderId: order.venueOrderId,
    clientOrderId: order.clientOrderId,
    status: order.status,
    filledQuantity: unitsToQuantity(order.filledUnits, order.unitsPerWhole),
    remainingQuantity: unitsToQuantity(open ? order.quantityUnits - order.filledUnits : 0, order.unitsPerWhole),
  };
}

function copyFill(fill: VenueFill): VenueFill {
  return { ...fill };
}
