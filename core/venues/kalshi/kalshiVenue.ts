import { Decimal, formatDecimal } from '../../domain/decimals';
import { DomainError, type ErrorCode } from '../../domain/errors';
import type {
  LiveVenue,
  MarketData,
  OrderBookView,
  OurOrderRecord,
  OurOrders,
  QueuePositionView,
  VenueAmendRequest,
  VenueAmendResult,
  VenueCallOptions,
  VenueCancelResult,
  VenueErrorCode,
  VenueRejection,
  VenueFill,
  VenueNotSent,
  VenueOrderRequest,
  VenueOrderState,
  VenuePlaceResult,
  VenuePosition,
  VenueSettlement,
} from '../venue';
import { KalshiAccountReads, ONE_ORDER_COST, oldestFirst, type KalshiOrderLookup } from './accountReads';
import { amendOrderBody, createOrderBody, fillFromRest, fillFromStream, fillOrderIds, stateFromCreateAnswer, yesLegPrice, type OurOrderTerms } from './orderWire';
import { KALSHI_429_RETRY_AFTER_MS } from './errors';
import type { KalshiOutcome, KalshiSession } from './session';

export type { KalshiOrderLookup } from './accountReads';

/**
 * Kalshi as a `LiveVenue`: one account behind one credential's session (session.ts), speaking
 * Trade API v2 as of 2026-08 (order writes on the V2 `/portfolio/events/orders` endpoints since
 * June 2026; docs/VENUES.md, docs/kalshi.md). Wire shapes are mapped in orderWire.ts.
 *
 * Nothing here re-sends a write on its own: a create whose answer was lost is `unknown`, and the
 * only second create ever sent is the caller's placeOrder with the SAME client_order_id, which
 * Kalshi answers 409 `order_already_exists` (then the first order is found and reported).
 * Nothing here logs; messages come from our own errors (session.ts writes them without secrets).
 */
export interface KalshiVenueOptions {
  readonly session: KalshiSession;
  readonly ourOrders: OurOrders;
  readonly books: MarketData;
  readonly clock?: () => number;
  /** How far before our order's creation a lookup by ticker and time starts; 5 minutes by default. */
  readonly lookupWindowMs?: number;
  /** What else the account holds open (its private stream), closed before the session. */
  readonly alsoClose?: readonly { close(): Promise<void> }[];
}

type FillListener = (fills: VenueFill[]) => void;
type Lookup = Pick<OurOrderRecord, 'clientOrderId' | 'venueMarketId' | 'venueOrderId' | 'createdAt'>;

const CREATE = '/portfolio/events/orders';
const DEFAULT_LOOKUP_WINDOW_MS = 5 * 60_000;

/** Kalshi codes whose meaning is narrower than errors.ts' general mapping (docs "Order Errors"; the fake's recorded bodies). */
const BY_VENUE_CODE: Readonly<Record<string, VenueErrorCode>> = {
  invalid_price: 'invalid_request',
  invalid_order: 'invalid_request',
  bad_request: 'invalid_request',
  missing_parameters: 'invalid_request',
  market_closed: 'market_not_tradable',
};
const BY_ERROR_CODE: Partial<Readonly<Record<ErrorCode, VenueErrorCode>>> = {
  insufficient_funds: 'insufficient_funds',
  market_not_tradable: 'market_not_tradable',
  not_found: 'order_not_found', // 404 on the order paths: no such order, or already canceled or executed
  rate_limited: 'rate_limited', // 429 after our backoff
};

/**
 * The field of our order a refusal names: Kalshi's `invalid_price` is the price; its `invalid_order`
 * "post only cross" (recorded on demo: Kalshi has no code of its own for it) the post-only flag.
 */
function refusedParam(venueCode: string, message: string): string | undefined {
  if (venueCode === 'invalid_price') return 'price';
  if (venueCode === 'invalid_order' && /post only cross/i.test(message)) return 'postOnly';
  return undefined;
}

const rejected = (code: VenueErrorCode, venueCode: string, message: string, retryAfterMs?: number): VenueRejection => {
  const param = code === 'invalid_request' ? refusedParam(venueCode, message) : undefined;
  // Kalshi's 429 says no Retry-After: a refused rate_limited may be retried once its buckets refill.
  return { outcome: 'rejected', code, venueCode, message, ...(code === 'rate_limited' ? { retryAfterMs: retryAfterMs ?? KALSHI_429_RETRY_AFTER_MS } : {}), ...(param ? { param } : {}) };
};

/** A create the session never sent: over our rate limit (its tokens are `retryAfterMs` away), no connection, or no time left. */
function notSent(outcome: Extract<KalshiOutcome, { kind: 'unavailable' }>): VenueNotSent {
  return outcome.reason === 'rate_wait_exceeded'
    ? { outcome: 'not_sent', reason: 'rate_limited', retryAfterMs: outcome.retryAfterMs ?? KALSHI_429_RETRY_AFTER_MS, message: outcome.error.message }
    : { outcome: 'not_sent', reason: 'unreachable', retryAfterMs: 0, message: outcome.error.message };
}

function refusalCode(outcome: Extract<KalshiOutcome, { kind: 'refused' }>): VenueErrorCode {
  return BY_VENUE_CODE[outcome.venueCode] ?? BY_ERROR_CODE[outcome.error.code] ?? 'venue_error';
}

/** Orders per V2 batched cancel: within the batch size of every tier (it scales with the tier's write budget). */
const KALSHI_CANCEL_BATCH = 20;

/** The refused items of a V2 batch answer (`{orders: [{order_id, error?: {code, message}}]}`), by order id. */
function batchItemErrors(body: unknown): Map<string, { code: string; message: string }> {
  const items = (body as { orders?: unknown } | null)?.orders;
  const errors = new Map<string, { code: string; message: string }>();
  for (const item of Array.isArray(items) ? items : []) {
    const { order_id: id, error } = (item ?? {}) as { order_id?: unknown; error?: { code?: unknown; message?: unknown } | null };
    if (typeof id === 'string' && error) errors.set(id, { code: String(error.code ?? 'unknown'), message: String(error.message ?? '').slice(0, 200) });
  }
  return errors;
}

export class KalshiVenue implements LiveVenue {
  readonly name = 'kalshi' as const;
  private readonly session: KalshiSession;
  private readonly reads: KalshiAccountReads;
  private readonly ourOrders: OurOrders;
  private readonly books: MarketData;
  private readonly clock: () => number;
  private readonly lookupWindowMs: number;
  private readonly listeners = new Set<FillListener>();

  constructor(private readonly options: KalshiVenueOptions) {
    this.session = options.session;
    this.reads = new KalshiAccountReads(options.session);
    this.ourOrders = options.ourOrders;
    this.books = options.books;
    this.clock = options.clock ?? Date.now;
    this.lookupWindowMs = options.lookupWindowMs ?? DEFAULT_LOOKUP_WINDOW_MS;
  }

  /**
   * One V2 create. Within the caller's deadline (`call`): the create is sent only if it can be
   * answered in time, and the reads after it (the fills of an order that traded) are left to the
   * reconciliation sweep when no time is left.
   */
  async placeOrder(request: VenueOrderRequest, call: VenueCallOptions = {}): Promise<VenuePlaceResult> {
    const built = createOrderBody(request);
    if (!built.ok) return rejected('invalid_request', built.refusal.code, built.refusal.message);
    const outcome = await this.session.request('POST', CREATE, { kind: 'write', body: built.body, deadline: call.deadline });
    if (outcome.kind === 'unknown') return { outcome: 'unknown', message: outcome.error.message };
    // A write is `unavailable` only when nothing was sent (no connection, the rate-limit wait, no time left).
    if (outcome.kind === 'unavailable') return notSent(outcome);
    if (outcome.kind === 'answered') {
      const state = stateFromCreateAnswer(outcome.body, request);
      // Kalshi acted but we cannot read what it did: the reconciler finds the order by its client_order_id.
      if (state === null) return { outcome: 'unknown', message: 'Kalshi accepted the order with an answer we could not read; it is reconciled by its client order id.' };
      return this.accepted(state, request, call);
    }
    // Kalshi's 429 comes before it acts: the order is not there.
    if (outcome.status === 429) return { outcome: 'not_sent', reason: 'rate_limited', retryAfterMs: KALSHI_429_RETRY_AFTER_MS, message: outcome.error.message };
    if (outcome.venueCode === 'order_already_exists') return this.alreadyPlaced(request, call);
    // A killed fill-or-kill is an answer, not an error: Kalshi keeps no order for it.
    if (outcome.venueCode === 'fill_or_kill_insufficient_resting_volume') {
      const killed = { venueOrderId: null, clientOrderId: request.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' } as const;
      return { outcome: 'accepted', order: killed, fills: [] };
    }
    return rejected(refusalCode(outcome), outcome.venueCode, outcome.error.message);
  }

  /**
   * Finds one of our orders at Kalshi: by its venue order id when we have it
   * (`GET /portfolio/orders/{id}`), else by ticker and time window (`GET /portfolio/orders?ticker=
   * &min_ts=`, paged) matching `client_order_id`, since Kalshi has no client_order_id filter.
   * For the reconciler. Answers `{ state }` when found; null when Kalshi holds no such order (see
   * `KalshiOrderLookup`) or the client order id is not in our records; 'unavailable' when Kalshi
   * could not be asked now. A lookup by window starts `lookupWindowMs` before our `createdAt`.
   */
  async findOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<KalshiOrderLookup> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    return record === null ? null : this.locate(record, call);
  }

  /** Our order at Kalshi, with its limit price in our side's terms (an amend's outcome is read by it). */
  async getOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueOrderState | null> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    const found = record === null ? null : await this.locate(record, call);
    if (found === 'unavailable') throw new DomainError('venue_unavailable', `Kalshi could not be asked about order '${clientOrderId}' now.`);
    return found === null ? null : withOwnPrice(found, record!);
  }

  /**
   * Amends a resting order (V2): only a smaller size at the same price goes as `decrease` (`reduce_by`
   * the drop in total, which keeps the queue place); anything else as `amend` with the new YES-leg
   * price and total count (a new price or a larger size goes to the back, and may trade at once).
   * Kalshi's answer to an amend can describe another order (a known venue fault): the order is read
   * back, and that read is the answer, with the fills of an order that traded. A lost answer or a
   * failed read-back is `unknown`: the core reads the order to learn its terms, never sends again.
   */
  async amendOrder(clientOrderId: string, amend: VenueAmendRequest, call: VenueCallOptions = {}): Promise<VenueAmendResult> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    if (record === null || record.price === null) return rejected('order_not_found', 'not_ours', `No limit order of ours has client order id '${clientOrderId}'.`);
    const venueOrderId = await this.venueOrderIdOf(record, call);
    if (venueOrderId === 'unavailable') return rejected('venue_unavailable', 'lookup_failed', `Kalshi could not be asked where order '${clientOrderId}' is; nothing was amended.`);
    if (venueOrderId === null) return rejected('order_not_found', 'not_found', `Kalshi holds no order with client order id '${clientOrderId}'.`);
    const decrease = new Decimal(amend.price).eq(record.price) && new Decimal(amend.quantity).lt(record.quantity);
    let path: string;
    let body: object;
    if (decrease) {
      path = `${CREATE}/${encodeURIComponent(venueOrderId)}/decrease`;
      body = { reduce_by: new Decimal(record.quantity).sub(amend.quantity).toFixed(2) };
    } else {
      const built = amendOrderBody(record, amend.price, amend.quantity);
      if (!built.ok) return { ...rejected('invalid_request', built.refusal.code, built.refusal.message), param: built.refusal.param };
      path = `${CREATE}/${encodeURIComponent(venueOrderId)}/amend`;
      body = built.body;
    }
    const outcome = await this.session.request('POST', path, { kind: 'write', body, deadline: call.deadline });
    if (outcome.kind === 'unknown') return { outcome: 'unknown', message: outcome.error.message };
    if (outcome.kind === 'unavailable') return rejected(outcome.reason === 'rate_wait_exceeded' ? 'rate_limited' : 'venue_unavailable', outcome.reason, outcome.error.message, outcome.retryAfterMs);
    if (outcome.kind === 'refused') {
      if (outcome.status === 429) return rejected('rate_limited', outcome.venueCode, outcome.error.message, KALSHI_429_RETRY_AFTER_MS);
      return rejected(refusalCode(outcome), outcome.venueCode, outcome.error.message);
    }
    const after = await this.reads.orderById(venueOrderId, call);
    if (after === null || after === 'unavailable') {
      return { outcome: 'unknown', message: 'Kalshi accepted the amend, but the order could not be read back; its terms are read again before anything else.' };
    }
    const placed = await this.accepted(withOwnPrice(after, record), record, call);
    return placed.outcome === 'accepted' ? { outcome: 'amended', order: placed.order, fills: placed.fills } : { outcome: 'unknown', message: 'the amended order could not be read' };
  }

  /**
   * Cancels through V2 `DELETE /portfolio/events/orders/{order_id}`, then reads the order back and
   * reports what the read says: Kalshi's V2 cancel answer sometimes describes another order (a
   * known venue bug; the action itself is right). When that read fails the outcome is `unknown`:
   * the cancel was done, but what the order looks like now is not known.
   */
  async cancelOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueCancelResult> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    if (record === null) return rejected('order_not_found', 'not_ours', `No order of ours has client order id '${clientOrderId}'.`);
    const venueOrderId = await this.venueOrderIdOf(record, call);
    if (venueOrderId === 'unavailable') return rejected('venue_unavailable', 'lookup_failed', `Kalshi could not be asked where order '${clientOrderId}' is; nothing was canceled.`);
    if (venueOrderId === null) return rejected('order_not_found', 'not_found', `Kalshi holds no order with client order id '${clientOrderId}'.`);
    const outcome = await this.session.request('DELETE', `${CREATE}/${encodeURIComponent(venueOrderId)}`, { kind: 'write', cost: ONE_ORDER_COST, deadline: call.deadline });
    if (outcome.kind === 'unknown') return { outcome: 'unknown', message: outcome.error.message };
    if (outcome.kind === 'unavailable') return rejected(outcome.reason === 'rate_wait_exceeded' ? 'rate_limited' : 'venue_unavailable', outcome.reason, outcome.error.message, outcome.retryAfterMs);
    if (outcome.kind === 'refused') return rejected(refusalCode(outcome), outcome.venueCode, outcome.error.message);
    const after = await this.reads.orderById(venueOrderId, call);
    if (after === null || after === 'unavailable') {
      return { outcome: 'unknown', message: 'Kalshi accepted the cancel, but the order could not be read back; its state comes with reconciliation.' };
    }
    return { outcome: 'canceled', order: after.state };
  }

  /**
   * Cancels several of our orders with V2 `DELETE /portfolio/events/orders/batched` (`{orders:
   * [{order_id}]}`, openapi.yaml 3.28.0 BatchCancelOrdersV2; each item answered on its own, an
   * item's `error` its refusal), KALSHI_CANCEL_BATCH at a time (the venue's batch size scales with
   * the account's tier; a cancel costs ONE_ORDER_COST tokens an order). Each canceled order is read
   * back, as `cancelOrder` does: the answers can describe other orders (the V2 fault). A lost answer
   * leaves its chunk `unknown`.
   */
  async cancelOrders(clientOrderIds: readonly string[], call: VenueCallOptions = {}): Promise<Map<string, VenueCancelResult>> {
    const results = new Map<string, VenueCancelResult>();
    const byVenueId = new Map<string, string>();
    for (const clientOrderId of clientOrderIds) {
      const record = await this.ourOrders.byClientOrderId(clientOrderId);
      const venueOrderId = record === null ? null : await this.venueOrderIdOf(record, call);
      if (venueOrderId === 'unavailable') results.set(clientOrderId, rejected('venue_unavailable', 'lookup_failed', `Kalshi could not be asked where order '${clientOrderId}' is; nothing was canceled.`));
      else if (venueOrderId === null) results.set(clientOrderId, rejected('order_not_found', 'not_found', `Kalshi holds no order of ours with client order id '${clientOrderId}'.`));
      else byVenueId.set(venueOrderId, clientOrderId);
    }
    const ids = [...byVenueId.keys()];
    for (let start = 0; start < ids.length; start += KALSHI_CANCEL_BATCH) {
      const chunk = ids.slice(start, start + KALSHI_CANCEL_BATCH);
      const body = { orders: chunk.map((order_id) => ({ order_id })) };
      const outcome = await this.session.request('DELETE', `${CREATE}/batched`, { kind: 'write', body, cost: ONE_ORDER_COST * chunk.length, deadline: call.deadline });
      const all = (result: VenueCancelResult) => chunk.forEach((id) => results.set(byVenueId.get(id)!, result));
      if (outcome.kind === 'unknown') all({ outcome: 'unknown', message: outcome.error.message });
      else if (outcome.kind === 'unavailable') all(rejected(outcome.reason === 'rate_wait_exceeded' ? 'rate_limited' : 'venue_unavailable', outcome.reason, outcome.error.message, outcome.retryAfterMs));
      else if (outcome.kind === 'refused') all(rejected(outcome.status === 429 ? 'rate_limited' : refusalCode(outcome), outcome.venueCode, outcome.error.message));
      else {
        const refusals = batchItemErrors(outcome.body);
        await Promise.all(chunk.map(async (venueOrderId) => {
          const clientOrderId = byVenueId.get(venueOrderId)!;
          const refusal = refusals.get(venueOrderId);
          if (refusal) {
            results.set(clientOrderId, rejected(refusal.code === 'not_found' ? 'order_not_found' : 'venue_error', refusal.code, refusal.message));
            return;
          }
          const after = await this.reads.orderById(venueOrderId, call);
          results.set(clientOrderId, after === null || after === 'unavailable'
            ? { outcome: 'unknown', message: 'Kalshi accepted the cancel, but the order could not be read back; its state comes with reconciliation.' }
            : { outcome: 'canceled', order: after.state });
        }));
      }
    }
    return results;
  }

  /** For the working-order sweep: the order ids (lower case) of the account's resting orders, every page (`GET /portfolio/orders?status=resting`). */
  async openOrderIds(call: VenueCallOptions = {}): Promise<ReadonlySet<string>> {
    return this.reads.restingOrderIds(call);
  }

  /** The contracts ahead of our resting order (Kalshi does not count the orders); null when it is not resting or not ours. */
  async queuePosition(clientOrderId: string, call: VenueCallOptions = {}): Promise<QueuePositionView | null> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    if (record === null) return null;
    const venueOrderId = await this.venueOrderIdOf(record, call);
    if (venueOrderId === 'unavailable') throw new DomainError('venue_unavailable', `Kalshi could not be asked where order '${clientOrderId}' is.`);
    return venueOrderId === null ? null : this.reads.queuePosition(venueOrderId, call);
  }

  async orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView> {
    return this.books.orderBook(venueMarketId, depth);
  }

  /** `GET /portfolio/fills?min_ts=` (unix seconds, so the first second is trimmed to `since` here), paged; our orders' fills only, oldest first. */
  async fillsSince(since: Date): Promise<VenueFill[]> {
    const fills = await this.ourFills(await this.reads.rawFillsSince(since));
    return fills.filter((fill) => Date.parse(fill.executedAt) >= since.getTime());
  }

  /**
   * The `Venue` listing by fill id. Kalshi has no "after this fill" filter, so this reads the
   * account's whole fill history (fillsSince the epoch) and cuts it after `afterVenueFillId`
   * (an id not found lists from the beginning, as the simulated venue does; recording is
   * idempotent by fill id). Costly on a long history: reconciliation uses `fillsSince`.
   */
  async listFills(options: { afterVenueFillId?: string; limit?: number } = {}): Promise<VenueFill[]> {
    const all = await this.fillsSince(new Date(0));
    const start = all.findIndex((fill) => fill.venueFillId === options.afterVenueFillId) + 1;
    return all.slice(start, options.limit === undefined ? undefined : start + options.limit);
  }

  async balance(): Promise<string> {
    return this.reads.balance();
  }

  async positions(): Promise<VenuePosition[]> {
    return this.reads.positions();
  }

  /** `GET /portfolio/settlements?min_ts=` (settlementWire.ts). */
  async settlementsSince(since: Date): Promise<VenueSettlement[]> {
    return this.reads.settlementsSince(since);
  }

  onFills(listener: FillListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Applies WebSocket `fill` messages (whole frames `{type: "fill", msg}` or their `msg`; other
   * frames are ignored): each is resolved to our order by its `client_order_id`, else its
   * `order_id`, mapped to our terms and handed to the listeners in one call. Fills of orders that
   * are not ours, and unreadable ones, are left out; a listener that throws is ignored: the REST
   * sweep (`fillsSince`) is the truth and brings anything missed.
   */
  async applyStreamFills(messages: readonly unknown[]): Promise<void> {
    const fills: VenueFill[] = [];
    for (const message of messages) {
      const frame = message as { type?: unknown; msg?: unknown } | null;
      const msg = frame?.type === 'fill' ? frame.msg : frame?.type === undefined ? message : undefined;
      const ids = fillOrderIds(msg);
      if (ids === null) continue;
      const byClient = ids.clientOrderId === null ? null : await this.ourOrders.byClientOrderId(ids.clientOrderId);
      const ours = byClient !== null && (byClient.venueOrderId === null || byClient.venueOrderId === ids.venueOrderId) ? byClient : (await this.ourOrders.byVenueOrderIds([ids.venueOrderId]))[0];
      const fill = ours === undefined ? null : fillFromStream(msg, ours);
      if (fill !== null) fills.push(fill);
    }
    if (fills.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(fills);
      } catch {
        // The REST sweep re-reads what a listener failed to take.
      }
    }
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all((this.options.alsoClose ?? []).map((resource) => resource.close()));
    await this.session.close();
  }

  // --- helpers ---------------------------------------------------------------------------

  /** An accepted order with its fills (`GET /portfolio/fills?order_id=`) when anything filled. */
  private async accepted(state: VenueOrderState, order: OurOrderTerms, call: VenueCallOptions): Promise<VenuePlaceResult> {
    if (state.venueOrderId === null || new Decimal(state.filledQuantity).isZero()) return { outcome: 'accepted', order: state, fills: [] };
    const fills = await this.reads.fillsOfOrder(state.venueOrderId, order, call);
    // The order is placed either way: if its fills cannot be read now, the REST sweep (fillsSince) brings them.
    return { outcome: 'accepted', order: state, fills: fills instanceof DomainError ? [] : fills };
  }

  /** A 409 `order_already_exists`: the first send with this client_order_id landed. Report that order; never place another. */
  private async alreadyPlaced(request: VenueOrderRequest, call: VenueCallOptions): Promise<VenuePlaceResult> {
    const record = await this.ourOrders.byClientOrderId(request.clientOrderId);
    const found = await this.locate(
      {
        clientOrderId: request.clientOrderId,
        venueMarketId: request.venueMarketId,
        venueOrderId: record?.venueOrderId ?? null,
        createdAt: record?.createdAt ?? new Date(this.clock()),
      },
      call,
    );
    if (found === null || found === 'unavailable') {
      return { outcome: 'unknown', message: `Kalshi already holds an order with client order id '${request.clientOrderId}' but it could not be read now; it is reconciled later.` };
    }
    return this.accepted(found.state, request, call);
  }

  /** By venue order id when we have it, else by ticker and time window from our creation minus `lookupWindowMs`. */
  private async locate(order: Lookup, call: VenueCallOptions = {}): Promise<KalshiOrderLookup> {
    if (order.venueOrderId !== null) return this.reads.orderById(order.venueOrderId, call);
    return this.reads.orderByClientId(order.venueMarketId, order.clientOrderId, new Date(order.createdAt.getTime() - this.lookupWindowMs), call);
  }

  /** Our venue order id for a record: the recorded one, else found by lookup; null when Kalshi holds no such order. */
  private async venueOrderIdOf(record: OurOrderRecord, call: VenueCallOptions = {}): Promise<string | null | 'unavailable'> {
    if (record.venueOrderId !== null) return record.venueOrderId;
    const found = await this.locate(record, call);
    return found === null || found === 'unavailable' ? found : found.state.venueOrderId;
  }

  /** Our fills among raw REST fills: resolved through our records by venue order id; the others are left out. Oldest first. */
  private async ourFills(raw: readonly unknown[]): Promise<VenueFill[]> {
    const orderIds = [...new Set(raw.map((fill) => fillOrderIds(fill)?.venueOrderId).filter((id): id is string => id !== undefined))];
    if (orderIds.length === 0) return [];
    const records = new Map((await this.ourOrders.byVenueOrderIds(orderIds)).map((record) => [record.venueOrderId, record]));
    const fills: VenueFill[] = [];
    for (const item of raw) {
      const record = records.get(fillOrderIds(item)?.venueOrderId ?? null);
      const fill = record === undefined ? null : fillFromRest(item, record);
      if (fill !== null) fills.push(fill);
    }
    return oldestFirst(fills);
  }
}

/** A looked-up order's state with its limit price in our order's side's terms, when Kalshi's record gives it. */
function withOwnPrice(found: { state: VenueOrderState; yesPrice: Decimal | null }, record: Pick<OurOrderRecord, 'side'>): VenueOrderState {
  return found.yesPrice === null ? found.state : { ...found.state, price: formatDecimal(yesLegPrice(record.side, found.yesPrice)) };
}
