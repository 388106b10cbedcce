/**
 * What the core needs of a trading venue. The simulated venues implement it now; the live Kalshi
 * and Polymarket adapters implement it next. Prices are decimal strings in dollars per contract in
 * the order's own terms (a NO order's price is the NO price), quantities decimal strings in
 * contracts (shares on Polymarket); never JS numbers.
 *
 * Every call that can change state is keyed by our `clientOrderId`, which is stable across retries:
 * a venue that already has an order with that id returns it instead of placing another, and an
 * answer that was lost is reported as `unknown`, never retried blindly.
 */
import type { VenueColumn, VenueName } from './venueNames';
import type { OrderAction, OutcomeSide, VenueTimeInForce } from '../domain/orderTerms';
import type { BookLevelView, OrderBookView } from '../domain/orderBookView';
import type { Candle, CandleInterval } from '../domain/candles';
import type { PublicTrade } from '../domain/publicTrades';
import type { MarketActivity } from '../domain/quotes';
import type { VenueReportedStatus } from '../domain/orderLifecycle';
import type { MarketRules } from '../domain/venueRules';

/** The domain defines these shapes; a venue adapter speaks them. */
export type { BookLevelView, OrderAction, OrderBookView, OutcomeSide, VenueTimeInForce };

export interface VenueOrderRequest {
  clientOrderId: string;
  /** The venue's market id (Kalshi ticker, Polymarket token id, or the simulated ticker). */
  venueMarketId: string;
  side: OutcomeSide;
  action: OrderAction;
  type: 'limit' | 'market';
  /** Limit price; for a market order, the optional worst acceptable price. */
  price?: string;
  quantity: string;
  timeInForce: VenueTimeInForce;
  /**
   * gtd: when the order leaves the book (RFC 3339, ms), as the venue's own expiry. The order ends
   * then with its remainder canceled by the venue; the core records it `expired`.
   */
  expiresAt?: string;
  /** Refuse rather than take: the venue rejects it, placing nothing, if it would cross on arrival. */
  postOnly?: boolean;
  /** Only reduce the position (Kalshi's `reduce_only`); our pre-trade check enforces it everywhere. */
  reduceOnly?: boolean;
}

export interface VenueFill {
  /** Unique per venue: the key that makes applying a fill idempotent. */
  venueFillId: string;
  venueOrderId: string;
  clientOrderId: string;
  venueMarketId: string;
  side: OutcomeSide;
  action: OrderAction;
  /** Execution price in the order's own terms. */
  price: string;
  quantity: string;
  /** Fee charged for this fill, in dollars. */
  fee: string;
  isTaker: boolean;
  /** RFC 3339. */
  executedAt: string;
}

/** The venue's view of one order. */
export interface VenueOrderState {
  /** Null when the venue kept no order (Kalshi answers a killed fill-or-kill without one). */
  venueOrderId: string | null;
  clientOrderId: string;
  /** open: resting (possibly partly filled); filled; canceled (remainder dropped or canceled). */
  status: VenueReportedStatus;
  filledQuantity: string;
  remainingQuantity: string;
  /** Its limit price in the order's own terms, where the venue reports it (an amend's outcome is read by it). */
  price?: string;
}

/** An amend of a resting order: its new limit price (the order's own terms) and new total quantity (what filled included). */
export interface VenueAmendRequest {
  price: string;
  quantity: string;
}

/**
 * The venue's answer to an amend: the order as it now is, with any fills the amend caused (a new
 * price that crosses trades at once); a refusal leaves the order as it was; `unknown`: the answer
 * was lost, read the order to learn which terms it has (never re-send blind).
 */
export type VenueAmendResult =
  | { outcome: 'amended'; order: VenueOrderState; fills: VenueFill[] }
  | VenueRejection
  | { outcome: 'unknown'; message: string };

/** The venue refused (or, for `rate_limited` and `venue_unavailable`, was never sent) the request. */
export interface VenueRejection {
  outcome: 'rejected';
  code: VenueErrorCode;
  venueCode: string;
  message: string;
  /** `rate_limited`: when a retry may be carried out, if the venue or our buckets say. */
  retryAfterMs?: number;
  /** `invalid_request`: the field of our order the venue refused (our GraphQL name: `price`, `postOnly`), when the adapter can tell. */
  param?: string;
}

export type VenuePlaceResult =
  | { outcome: 'accepted'; order: VenueOrderState; fills: VenueFill[] }
  | VenueRejection
  /** The request may or may not have reached the venue: reconcile by clientOrderId, never resend blindly. */
  | { outcome: 'unknown'; message: string }
  | VenueNotSent;

/**
 * The order certainly did not reach the venue, or the venue turned it away before acting (a 429):
 * no order exists there. `rate_limited`: the venue's rate limit for this account (its 429s, or our
 * buckets that keep us under it), worth trying again after `retryAfterMs`; `unreachable`: no
 * connection could be made, or no time was left in the caller's deadline to send it.
 */
export interface VenueNotSent {
  outcome: 'not_sent';
  reason: 'rate_limited' | 'unreachable';
  retryAfterMs: number;
  message: string;
}

/**
 * Limits a caller puts on one venue call. `deadline` (epoch ms): past it the caller no longer waits,
 * so nothing is sent that could not be answered in time (a rate-limit wait, a 429 backoff), and a
 * call in flight is given up (a write then ends `unknown`). Without one, the venue's own timeouts apply.
 */
export interface VenueCallOptions {
  deadline?: number;
}

export type VenueCancelResult =
  | { outcome: 'canceled'; order: VenueOrderState }
  | VenueRejection
  | { outcome: 'unknown'; message: string };

/** Venue errors mapped to our codes; `venueCode` keeps the venue's own. */
export type VenueErrorCode =
  | 'invalid_request' // the venue says the order is malformed (tick, size, price range)
  | 'market_not_tradable' // closed, settled, not found on the venue
  | 'insufficient_funds'
  | 'order_not_found'
  | 'venue_error' // any other refusal
  | 'rate_limited' // the venue's rate limit for this account, after our backoff
  | 'venue_unavailable'; // down

export interface QueuePositionView {
  venueOrderId: string;
  /** Orders ahead at the same price; null where the venue reports only the quantity ahead (Kalshi). */
  ordersAhead: number | null;
  /** Quantity ahead at the same price. */
  quantityAhead: string;
}


export interface Venue {
  readonly name: VenueName;
  placeOrder(request: VenueOrderRequest, options?: VenueCallOptions): Promise<VenuePlaceResult>;
  cancelOrder(clientOrderId: string, options?: VenueCallOptions): Promise<VenueCancelResult>;
  /**
   * Changes a resting order's price and/or total quantity where it is, with the venue's queue rules
   * (a size decrease keeps the order's place; a price change or a size increase loses it). Left out
   * by a venue without an amend: the core refuses amends there.
   */
  amendOrder?(clientOrderId: string, amend: VenueAmendRequest, options?: VenueCallOptions): Promise<VenueAmendResult>;
  /**
   * Cancels several of our orders through the venue's batch cancel, split at its limit: each
   * answered as `cancelOrder` would answer it alone, by client order id (one left out of the map is
   * `unknown`). Left out by a venue without a batch cancel: the core cancels one by one there.
   */
  cancelOrders?(clientOrderIds: readonly string[], options?: VenueCallOptions): Promise<Map<string, VenueCancelResult>>;
  /** Our order at the venue by our client order id; null when the venue holds none. `options.deadline` where the venue honours one (Polymarket). */
  getOrder(clientOrderId: string, options?: VenueCallOptions): Promise<VenueOrderState | null>;
  /** Fills after `afterVenueFillId` (exclusive), oldest first. */
  listFills(options?: { afterVenueFillId?: string; limit?: number }): Promise<VenueFill[]>;
  orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView>;
  queuePosition(clientOrderId: string, options?: VenueCallOptions): Promise<QueuePositionView | null>;
  /**
   * The venue's private fill stream, where it has one: fills of our resting orders as they happen
   * (another participant traded against them). The reconciliation path is `listFills` on the
   * simulated venues and `fillsSince` (the REST sweep) on live ones.
   * Returns a function that removes the listener.
   */
  onFills?(listener: (fills: VenueFill[]) => void): () => void;
  /**
   * The price a market order is sent at, where the venue's market order is a priced order whose
   * signed form is its identity (Polymarket: the worst price, `polymarketMarketOrderWorstPrice`).
   * Placement fixes it under the market's rules as they are then and stores it on the order, so
   * that no later change of the market's tick changes the order we send. Left out where a market
   * order goes without a price.
   */
  marketOrderPrice?(action: OrderAction, rules: Pick<MarketRules, 'tickSize'>): string;
}

/** A market as a venue's public data is asked about it: its id there and what else the venue needs to find it. */
export interface VenueMarketRef {
  readonly venueMarketId: string;
}

/** A page of a venue's own public tape, newest first; `nextCursor` the venue's own, null on the last page. */
export interface VenueTradesPage {
  readonly trades: PublicTrade[];
  readonly nextCursor: string | null;
}

/** A venue's public market data: what planning, marks and books need without an account. */
export interface MarketData {
  orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView>;
  /**
   * The venue's own public tape, newest first, within [since, until). Left out by a venue that
   * publishes none, whose every trade has one of our orders as taker (the simulated venues): their
   * tape is our taker fills (services/marketData/ourTape.ts).
   */
  publicTrades?(market: VenueMarketRef, query: { since?: Date; until?: Date; limit: number; cursor?: string }): Promise<VenueTradesPage>;
  /** The venue's own candles of [from, to), oldest first; left out where the tape is ours (above). */
  candles?(market: VenueMarketRef, interval: CandleInterval, from: Date, to: Date): Promise<Candle[]>;
  /**
   * The tops of several markets' books and their activity as the venue reports it, in one read
   * where the venue allows (by venue market id; a market the venue did not answer for is left
   * out). Left out by a venue whose books are read one by one and whose tape is ours.
   */
  quotes?(markets: readonly VenueMarketRef[]): Promise<Map<string, VenueQuote>>;
}

/** A market's top of book (YES terms) and activity as its venue reports them. */
export interface VenueQuote {
  readonly book: Pick<OrderBookView, 'bids' | 'asks'>;
  readonly activity: MarketActivity;
}

/** A position as the venue holds it, in YES terms: positive = YES contracts, negative = NO contracts. */
export interface VenuePosition {
  venueMarketId: string;
  /** Net YES contracts (Kalshi's `position_fp`). */
  netYes: string;
}

/**
 * One account's settlement of one market as the venue records it (docs/settlement.md, "Live
 * venues"): the outcome, what the account held and was paid. The venue's record is the truth our
 * books settle at and are compared with (drift). Quantities and money are decimal strings.
 */
export interface VenueSettlement {
  venueMarketId: string;
  /** `yes`, `no`, `scalar` or `void`, and the dollars one YES contract pays (null when void). */
  result: 'yes' | 'no' | 'scalar' | 'void';
  settlementValue: string | null;
  /**
   * What the account held when the market settled (a venue that nets positions holds one side);
   * null when the venue's record does not say (a Polymarket redemption lists the shares burnt, not
   * each outcome's).
   */
  yesQuantity: string | null;
  noQuantity: string | null;
  /** Dollars credited to the account for it. */
  payout: string;
  /** Dollars the venue charged for the settlement itself (none on yes/no results today). */
  fee: string;
  settledAt: Date;
  /** The venue's reference for it, for the settlement's receipt (e.g. a Kalshi ticker and time). */
  reference: string;
  /**
   * Where the venue pays by an act of the account's owner (Polymarket: the wallet redeems its
   * tokens on chain): `redeemable` until the venue reports it done, then `redeemed`. Left out where
   * the venue pays by itself (Kalshi).
   */
  redemption?: 'redeemable' | 'redeemed';
}

/**
 * A live venue: one account behind one credential. Beyond `Venue`, it answers what reconciliation
 * and the operator's comparison need. Every call times out; none re-sends a write.
 */
export interface LiveVenue extends Venue {
  /** The account's fills executed at or after `since`, oldest first, mapped to our orders (fills of orders that are not ours are left out). */
  fillsSince(since: Date): Promise<VenueFill[]>;
  /**
   * For a venue whose trades can fail after they counted as fills (Polymarket: a trade counts when
   * MATCHED and may end FAILED on chain): one listing of what `fillsSince` answers, with the fills
   * of failed trades apart. The fill sweep records the first and reverses the second
   * (core/services/orders/fillReversals.ts). A venue without such failures leaves it out.
   */
  fillsAndFailuresSince?(since: Date): Promise<{ fills: VenueFill[]; failed: VenueFill[] }>;
  /**
   * The venue order ids (lower case) of the account's open orders, every page, for the working-order
   * sweep (core/services/reconciliation/workingOrderSweep.ts) to notice orders the venue ended on its own
   * (Polymarket: `GET /data/orders`; Kalshi: `GET /portfolio/orders?status=resting`). A venue
   * without it is not swept.
   */
  openOrderIds?(options?: VenueCallOptions): Promise<ReadonlySet<string>>;
  /** The account's cash at the venue, in dollars. */
  balance(): Promise<string>;
  /** The account's non-zero positions at the venue. */
  positions(): Promise<VenuePosition[]>;
  /**
   * The account's settlements made by the venue at or after `since`, from its own records (Kalshi:
   * `GET /portfolio/settlements`). The settlement sweep (core/services/settlement/venueSettlements.ts)
   * books them and the venue-account view compares them with ours. A venue without per-account
   * records leaves it out.
   */
  settlementsSince?(since: Date): Promise<VenueSettlement[]>;
  /** Stops the account's streams and closes its connections. */
  close(): Promise<void>;
  /**
   * The venue's own dead-man's switch, where it has one: Polymarket's heartbeats (`POST
   * /v1/heartbeats` with the rotating `heartbeat_id` the previous answer gave; missing them cancels
   * every open order of the account) go here, the adapter keeping the chain of ids. The core calls
   * it about every 5 s (deadMansSwitchSweeper.ts, VENUE_HEARTBEAT_MS) for each account open on
   * that core that an armed dead-man's switch covers. Once started (`heartbeatStarted`), a chain is
   * kept going after a disarm too (stopping it would have the venue cancel every order of the
   * account some seconds later); it stops when a switch covering the account fires (its orders are
   * canceled anyway) or the account closes; with several cores, each core calls it for the accounts it has open, so
   * an adapter whose venue rotates ids must recover from a stale one (re-start its chain) rather
   * than fail. A venue without one leaves it out: our explicit cancels on firing are the guarantee
   * everywhere, this only adds the venue's own protection when our cores are gone.
   */
  heartbeat?(options?: VenueCallOptions): Promise<void>;
  /** Whether this process has started the venue's heartbeat chain for the account (with `heartbeat`). */
  heartbeatStarted?(): boolean;
}

/**
 * What a live adapter asks of our own records about one of our orders; the registry answers from
 * the database. A venue without a client-order-id lookup (Kalshi) finds a lost order by its market
 * and the time it was placed; one whose order id is the hash of the signed order (Polymarket)
 * rebuilds that order from these terms.
 */
export interface OurOrderRecord {
  clientOrderId: string;
  venueOrderId: string | null;
  venueMarketId: string;
  side: OutcomeSide;
  action: OrderAction;
  type: 'limit' | 'market';
  /** Decimal string; null for a market order without a worst price. */
  price: string | null;
  quantity: string;
  timeInForce: VenueTimeInForce;
  /** gtd: when the order leaves the book; Polymarket signs its expiration from it. Null otherwise. */
  expiresAt?: Date | null;
  /** When we created the order (ms precision, as stored): Polymarket signs it as the order's `timestamp`. */
  createdAt: Date;
}

export interface OurOrders {
  byClientOrderId(clientOrderId: string): Promise<OurOrderRecord | null>;
  byVenueOrderIds(venueOrderIds: readonly string[]): Promise<OurOrderRecord[]>;
}

/**
 * The venues the core trades on, by the column the database stores.
 * - `marketData`: books for planning and marks: the simulated venue, or a live venue's public data;
 * - `forSubaccount`: the venue that trades for one subaccount: the shared simulated venue, or the
 *   session of the subaccount's own credential on a live venue (opened on first use, closed when the
 *   credential is replaced or removed). Undefined when the venue is not available; a credential that
 *   cannot trade (no environment) is a DomainError saying why.
 */
export interface VenueRegistry {
  marketData(venue: VenueColumn): MarketData | undefined;
  forSubaccount(venue: VenueColumn, subaccountId: string): Promise<Venue | undefined>;
  /** The live venues running, each with the account of a subaccount (undefined without a credential). */
  live: ReadonlyMap<VenueColumn, { forSubaccount(subaccountId: string): Promise<LiveVenue | undefined> }>;
  /**
   * Lists a market on a simulated venue running in this core's memory, now (a test helper's market,
   * its row already written); false when the venue is not one (a live venue, or the simulated
   * venues' service of SIM_VENUE_URL, which lists its markets at its own start).
   */
  listSimulatedMarket?(venue: VenueColumn, market: SimulatedListing): boolean;
  /**
   * Says that an order of ours was placed or canceled on a market and recorded: its book may have
   * moved and its tape grown (the market-data streams read it again). Never throws.
   */
  marketActivity?(marketId: string): void;
}

/** A market as a simulated venue lists it (decimal strings; its module's rules). */
export interface SimulatedListing {
  readonly venueMarketId: string;
  readonly tickSize: string;
  readonly minSize: string;
  /** The market maker's starting fair value of YES. */
  readonly fairValue: string;
  readonly rules: MarketRules;
}
