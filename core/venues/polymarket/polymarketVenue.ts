import { Decimal, quantityOf } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import { restsOnBook, type OrderAction } from '../../domain/orderTerms';
import { polymarketMarketOrderWorstPrice, type MarketRules } from '../../domain/venueRules';
import type {
  LiveVenue,
  MarketData,
  OrderBookView,
  OurOrderRecord,
  OurOrders,
  QueuePositionView,
  VenueCallOptions,
  VenueCancelResult,
  VenueErrorCode,
  VenueFill,
  VenueOrderRequest,
  VenueOrderState,
  VenuePlaceResult,
  VenuePosition,
  VenueRejection,
  VenueSettlement,
} from '../venue';
import type { PolymarketSettlementReads } from './settlementReads';
import { describeRefusal, POLYMARKET_425_RETRY_AFTER_MS, POLYMARKET_429_RETRY_AFTER_MS, readPolymarketRefusal, type PolymarketRefusal } from './errors';
import { polymarketOrderPayload, PolymarketOrderInputError, type PolymarketOrderVersion } from './signing';
import { fillsFromTrade, orderIdsOfTrade, stateFromOpenOrder, stateFromOrderEvent, userEventKind, wireOrderOf, tickRuleRefusal, type OurOrderRef, type UnreadableTrade, type PolymarketFill, type PolymarketMarketTerms, type PolymarketMarkets, type PolymarketOrderTerms } from './orderWire';
import { PolymarketBooks } from './marketData';
import { answerOf, type PolymarketSession } from './session';
import { OrderType } from '@polymarket/clob-client-v2';

/**
 * Polymarket CLOB V2 as a `LiveVenue`: one account behind one credential's session (session.ts).
 * Paths and shapes from the official client (github.com/Polymarket/clob-client-v2 at f3e1a05,
 * src/endpoints.ts, src/types/clob.ts).
 *
 * Identity (orderWire.ts): the venue's order id is the EIP-712 hash of the signed order, and our
 * signed order is a pure function of our order (salt from our client order id, timestamp from its
 * creation). So:
 * - a placement whose answer was lost is `unknown`, and the only second `POST /order` ever sent is
 *   the caller's placeOrder for the SAME order, the very same signed bytes: Polymarket answers
 *   `Duplicated`, never makes a second order; the first one is then read and reported;
 * - getOrder / cancel / reconciliation find an order by its hash (`GET /data/order/{hash}`), even
 *   when the venue's answer never reached us.
 *
 * Fills are read from trades (`GET /data/trades`, and the user channel's `trade` events through
 * `readUserEvents`), counted when MATCHED (orderWire.ts says why) and reported with their
 * settlement status; FAILED trades are left out of `fillsSince` and listed apart by
 * `fillsAndFailuresSince`, for the sweeps to reverse their fills. `heartbeat` keeps the venue's own
 * dead-man's switch. Nothing here logs.
 */
export interface PolymarketVenueOptions {
  readonly session: PolymarketSession;
  readonly ourOrders: OurOrders;
  readonly markets: PolymarketMarkets;
  /** Public books; by default read through this account's session. */
  readonly books?: MarketData;
  /** The exchange version orders are signed for: 2 (default) or 3, as the server's `/version` says. */
  readonly orderVersion?: PolymarketOrderVersion;
  /** How far before our order's creation trades are read for it; 60 s by default. */
  readonly lookbackMs?: number;
  /** Told of each trade (by id only) or part of one that could not be read: it is left out, never guessed. */
  readonly onUnreadableTrade?: UnreadableTrade;
  /** The wallet's settlements (resolutions, redeemable positions, redemptions); without it none are read. */
  readonly settlements?: PolymarketSettlementReads;
  /** Closed with the account (its user channel). */
  readonly alsoClose?: readonly { close(): Promise<void> }[];
}

/** The field of our order a refusal names (errors.ts' venue codes). */
const REFUSED_PARAM: Readonly<Record<string, string>> = { post_only_crosses: 'postOnly' };

const rejected = (code: VenueErrorCode, venueCode: string, message: string): VenueRejection => {
  const param = code === 'invalid_request' ? REFUSED_PARAM[venueCode] : undefined;
  return { outcome: 'rejected', code, venueCode, message, ...(code === 'rate_limited' ? { retryAfterMs: POLYMARKET_429_RETRY_AFTER_MS } : {}), ...(param ? { param } : {}) };
};

/** The pages the client reads until `LTE=` (src/constants.ts END_CURSOR); a bound so a venue that kept answering cursors cannot loop us. */
const END_CURSOR = 'LTE=';
const MAX_PAGES = 100;

type Signed = { body: ReturnType<typeof polymarketOrderPayload>; hash: string; size: string; price: string; market: PolymarketMarketTerms };

/** A cancel's answer (`DELETE /order`, `DELETE /orders`: `{canceled: [hash], not_canceled: {hash: reason}}`), hashes in lower case. */
interface CancelAnswer {
  readonly canceled: ReadonlySet<string>;
  readonly reasons: ReadonlyMap<string, unknown>;
}

function cancelAnswerOf(body: unknown): CancelAnswer {
  const answer = body as { canceled?: unknown; not_canceled?: unknown } | null;
  const canceled = (Array.isArray(answer?.canceled) ? answer.canceled : []).filter((id): id is string => typeof id === 'string');
  const reasons = Object.entries((answer?.not_canceled ?? {}) as Record<string, unknown>);
  return { canceled: new Set(canceled.map((id) => id.toLowerCase())), reasons: new Map(reasons.map(([id, reason]) => [id.toLowerCase(), reason])) };
}

/** The most order hashes one `DELETE /orders` takes (docs.polymarket.com "Cancel orders": 3,000); the core sends at most 200 at once. */
const POLYMARKET_CANCEL_BATCH = 3000;

export class PolymarketVenue implements LiveVenue {
  readonly name = 'polymarket' as const;
  private readonly session: PolymarketSession;
  private readonly ourOrders: OurOrders;
  private readonly markets: PolymarketMarkets;
  private readonly lookbackMs: number;
  private readonly books: MarketData;
  /** The id the venue's heartbeat chain expects next (`""` starts one); kept per process. */
  private heartbeatId = '';
  /** Set by the first heartbeat sent: from then on the venue cancels the account's orders if they stop. */
  private heartbeating = false;

  constructor(private readonly options: PolymarketVenueOptions) {
    this.session = options.session;
    this.ourOrders = options.ourOrders;
    this.markets = options.markets;
    this.books = options.books ?? new PolymarketBooks(options.session, options.markets);
    this.lookbackMs = options.lookbackMs ?? 60_000;
  }

  /** A market order is signed as a limit order at the worst price of the market's tick (see Venue). */
  marketOrderPrice(action: OrderAction, rules: Pick<MarketRules, 'tickSize'>): string {
    return polymarketMarketOrderWorstPrice(action, rules.tickSize);
  }

  async placeOrder(request: VenueOrderRequest, call: VenueCallOptions = {}): Promise<VenuePlaceResult> {
    const record = await this.ourOrders.byClientOrderId(request.clientOrderId);
    if (record === null) return rejected('invalid_request', 'not_ours', `No order of ours has client order id '${request.clientOrderId}': its signed form needs our record.`);
    const signed = await this.sign({ ...request, createdAt: record.createdAt }, request.venueMarketId);
    if (!signed.ok) return signed.rejection;
    const ruleBroken = tickRuleRefusal(signed.value.price, signed.value.market);
    if (ruleBroken !== null) return this.refusedByTickRule(request, signed.value, ruleBroken, call);
    const outcome = await this.session.request('POST', '/order', { body: signed.value.body, write: true, deadline: call.deadline });
    if (outcome.kind === 'unknown') return { outcome: 'unknown', message: outcome.error.message };
    if (outcome.kind === 'unavailable') return { outcome: 'not_sent', reason: 'unreachable', retryAfterMs: 0, message: outcome.error.message };
    if (outcome.kind === 'refused') {
      // A 429 comes before the venue acts: the order is not there.
      if (outcome.status === 429) return { outcome: 'not_sent', reason: 'rate_limited', retryAfterMs: POLYMARKET_429_RETRY_AFTER_MS, message: outcome.error.message };
      // A 425 too: the matching engine is restarting and processed nothing (errors.ts).
      if (outcome.status === 425) return { outcome: 'not_sent', reason: 'unreachable', retryAfterMs: POLYMARKET_425_RETRY_AFTER_MS, message: outcome.error.message };
      return this.refusedPlacement(outcome.refusal, request, signed.value, call);
    }
    const answer = outcome.body as { success?: unknown; errorMsg?: unknown; orderID?: unknown; status?: unknown; tradeIDs?: unknown } | null;
    if (answer?.success === false) {
      return this.refusedPlacement(readPolymarketRefusal(200, answer), request, signed.value, call);
    }
    if (typeof answer?.orderID !== 'string' || answer.orderID.toLowerCase() !== signed.value.hash) {
      return { outcome: 'unknown', message: 'Polymarket accepted the order with an answer we could not read; it is reconciled by its order hash.' };
    }
    const status = typeof answer.status === 'string' ? answer.status.toLowerCase() : '';
    const tradeIds = Array.isArray(answer.tradeIDs) ? answer.tradeIDs.filter((id): id is string => typeof id === 'string') : [];
    return this.reportPlaced(request, signed.value, status, tradeIds, call);
  }

  async getOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueOrderState | null> {
    const found = await this.findOrder(clientOrderId, call);
    if (found === 'unavailable') throw new DomainError('venue_unavailable', `Polymarket could not be asked about order '${clientOrderId}' now.`);
    return found;
  }

  /**
   * One of our orders at Polymarket, by its hash (recorded, or rebuilt from our record):
   * `GET /data/order/{hash}`; when the venue answers nothing (it does for orders that matched in
   * full and left its order store: py-clob-client issue 217), the trades naming the hash since just
   * before our order's creation tell what it filled. Null: the venue holds no such order (or the
   * client order id is not ours); 'unavailable': it could not be asked now.
   */
  async findOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueOrderState | null | 'unavailable'> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    if (record === null) return null;
    const hash = await this.hashOf(record);
    if (hash === null) return null;
    const read = await this.readOrder(hash, clientOrderId, call);
    if (read !== null && read !== 'unavailable' && read.status === 'filled') {
      // MATCHED counts a failed trade's size too: the trades seen FAILED are taken off it.
      const seen = await this.fillsAndFailuresOfHash(hash, record, call).catch(() => null);
      return seen === null ? read : withoutFailedMatches(read, seen.failed);
    }
    if (read !== null) return read;
    const fills = await this.fillsAndFailuresOfHash(hash, record, call).then((seen) => seen.fills).catch(() => 'unavailable' as const);
    if (fills === 'unavailable') return 'unavailable';
    if (fills.length === 0) return null;
    const filled = quantityOf(fills);
    const remaining = Decimal.max(new Decimal(record.quantity).minus(filled), 0);
    // Gone from the order store with fills: matched in full, or the rest killed (FAK) or canceled.
    return { venueOrderId: hash, clientOrderId, status: remaining.isZero() ? 'filled' : 'canceled', filledQuantity: filled.toFixed(), remainingQuantity: '0' };
  }

  /**
   * `DELETE /order {orderID}` (the client's `cancelOrder`), then the order read back: the answer
   * is `{canceled: [ids], not_canceled: {id: reason}}`. An order the venue did not cancel
   * ("already canceled or matched") is `order_not_found`, as Kalshi's 404.
   */
  async cancelOrder(clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueCancelResult> {
    const record = await this.ourOrders.byClientOrderId(clientOrderId);
    if (record === null) return rejected('order_not_found', 'not_ours', `No order of ours has client order id '${clientOrderId}'.`);
    const hash = await this.hashOf(record);
    if (hash === null) return rejected('order_not_found', 'not_ours', `Order '${clientOrderId}' cannot be signed for its market any more; nothing was canceled.`);
    const outcome = await this.session.request('DELETE', '/order', { body: { orderID: hash }, write: true, deadline: call.deadline });
    if (outcome.kind === 'unknown') return { outcome: 'unknown', message: outcome.error.message };
    if (outcome.kind === 'unavailable') return rejected('venue_unavailable', outcome.reason, outcome.error.message);
    if (outcome.kind === 'refused') {
      if (outcome.status === 429) return rejected('rate_limited', 'too_many_requests', outcome.error.message);
      return rejected(outcome.refusal.code, outcome.refusal.venueCode, describeRefusal(outcome.refusal));
    }
    return this.afterCancel(cancelAnswerOf(outcome.body), hash, clientOrderId, call);
  }

  /** One order's part of a cancel answer: not canceled (with the venue's reason), or canceled and read back for what filled before. */
  private async afterCancel(answer: CancelAnswer, hash: string, clientOrderId: string, call: VenueCallOptions): Promise<VenueCancelResult> {
    if (!answer.canceled.has(hash)) {
      const reason = answer.reasons.get(hash);
      return rejected('order_not_found', 'not_canceled', `Polymarket did not cancel order '${clientOrderId}': ${typeof reason === 'string' ? reason.slice(0, 200) : 'no reason given'}.`);
    }
    const after = await this.readOrder(hash, clientOrderId, call);
    if (after === null || after === 'unavailable') {
      return { outcome: 'unknown', message: 'Polymarket canceled the order, but it could not be read back; its state comes with reconciliation.' };
    }
    return { outcome: 'canceled', order: { ...after, status: after.status === 'open' ? 'canceled' : after.status, remainingQuantity: '0' } };
  }

  /**
   * Cancels several of our orders with one `DELETE /orders` (CLOB V2: a JSON array of order hashes,
   * at most POLYMARKET_CANCEL_BATCH; answered `{canceled, not_canceled}` as `DELETE /order` is), then
   * reads each canceled order back for what filled before, as `cancelOrder` does. An order the venue
   * did not cancel is `order_not_found` with its reason; a lost answer leaves every order of the
   * call `unknown` (the core reads them again; nothing is re-sent).
   */
  async cancelOrders(clientOrderIds: readonly string[], call: VenueCallOptions = {}): Promise<Map<string, VenueCancelResult>> {
    const results = new Map<string, VenueCancelResult>();
    const hashes = new Map<string, string>();
    for (const clientOrderId of clientOrderIds) {
      const record = await this.ourOrders.byClientOrderId(clientOrderId);
      const hash = record === null ? null : await this.hashOf(record);
      if (hash === null) results.set(clientOrderId, rejected('order_not_found', 'not_ours', `Order '${clientOrderId}' is not ours, or cannot be signed for its market any more; nothing was canceled.`));
      else hashes.set(hash, clientOrderId);
    }
    const ids = [...hashes.keys()];
    for (let start = 0; start < ids.length; start += POLYMARKET_CANCEL_BATCH) {
      const chunk = ids.slice(start, start + POLYMARKET_CANCEL_BATCH);
      const outcome = await this.session.request('DELETE', '/orders', { body: chunk, write: true, deadline: call.deadline });
      const all = (result: VenueCancelResult) => chunk.forEach((hash) => results.set(hashes.get(hash)!, result));
      if (outcome.kind === 'unknown') all({ outcome: 'unknown', message: outcome.error.message });
      else if (outcome.kind === 'unavailable') all(rejected('venue_unavailable', outcome.reason, outcome.error.message));
      else if (outcome.kind === 'refused') all(outcome.status === 429 ? rejected('rate_limited', 'too_many_requests', outcome.error.message) : rejected(outcome.refusal.code, outcome.refusal.venueCode, describeRefusal(outcome.refusal)));
      else {
        const answer = cancelAnswerOf(outcome.body);
        await Promise.all(chunk.map(async (hash) => results.set(hashes.get(hash)!, await this.afterCancel(answer, hash, hashes.get(hash)!, call))));
      }
    }
    return results;
  }

  /** Polymarket publishes no queue position; the book's size at the price is all there is. */
  async queuePosition(): Promise<QueuePositionView | null> {
    return null;
  }

  /** The market's public book (marketData.ts), in YES terms. */
  async orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView> {
    return this.books.orderBook(venueMarketId, depth);
  }

  /** Our fills in the account's trades matched at or after `since` (`GET /data/trades?after=`, paged), oldest first; FAILED trades left out. */
  async fillsSince(since: Date): Promise<PolymarketFill[]> {
    return (await this.fillsAndFailuresSince(since)).fills;
  }

  /**
   * One listing of the account's trades matched at or after `since`, our fills among them, oldest
   * first: `fills` those that stand (MATCHED, MINED, CONFIRMED, RETRYING), `failed` those of trades
   * that ended FAILED, which the sweeps hand on to be reversed (a fill recorded from such a trade
   * is taken back; one not recorded yet never will be).
   */
  async fillsAndFailuresSince(since: Date): Promise<{ fills: PolymarketFill[]; failed: PolymarketFill[] }> {
    const trades = await this.tradesAfter(Math.floor(since.getTime() / 1000) - 1);
    const all = (await this.ourFills(trades)).filter((fill) => Date.parse(fill.executedAt) >= since.getTime() - 999);
    return splitFailed(all);
  }

  /**
   * User-channel events (userStream.ts) in our terms: `trade` events of our orders as fills, split
   * as `fillsAndFailuresSince` splits them (one mapping, orderWire.ts `fillsFromTrade`, the same
   * fill ids and terms as the REST listing); `order` CANCELLATIONs of our orders as states. Events
   * naming none of our orders (another program on the same key) are left out.
   */
  async readUserEvents(events: readonly unknown[]): Promise<{ fills: PolymarketFill[]; failed: PolymarketFill[]; canceled: VenueOrderState[] }> {
    const trades = events.filter((event) => userEventKind(event) === 'trade');
    const orders = events.filter((event) => userEventKind(event) === 'order');
    const { fills, failed } = splitFailed(await this.ourFills(trades));
    const canceled: VenueOrderState[] = [];
    const ids = orders.map((event) => (event as { id?: unknown }).id).filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase());
    if (ids.length > 0) {
      const ours = new Map((await this.ourOrders.byVenueOrderIds(ids)).filter((r) => r.venueOrderId !== null).map((r) => [r.venueOrderId!.toLowerCase(), r.clientOrderId]));
      for (const event of orders) {
        const id = (event as { id?: unknown }).id;
        const clientOrderId = typeof id === 'string' ? ours.get(id.toLowerCase()) : undefined;
        const state = clientOrderId === undefined ? null : stateFromOrderEvent(event, clientOrderId);
        if (state !== null) canceled.push(state);
      }
    }
    return { fills, failed, canceled };
  }

  /**
   * Polymarket's own dead-man's switch (venue.ts `heartbeat`): `POST /v1/heartbeats
   * {heartbeat_id}`, L2-signed (the official client's `postHeartbeat`, src/client.ts at f3e1a05).
   * The chain starts with `""`; each answer names the id the next beat must send. A 400 `Invalid
   * Heartbeat ID` (another core of ours beat the same key with the id we held, an answer we lost
   * moved the chain on, or the venue's chain lapsed) carries the id the venue expects: the chain
   * restarts from it at once (from `""` when it names none), in the same call. Timed out like every
   * call; a failure throws (the caller logs it: our explicit cancels remain the guarantee).
   */
  async heartbeat(call: VenueCallOptions = {}): Promise<void> {
    this.heartbeating = true;
    const first = await this.beat(this.heartbeatId, call);
    if (first === 'ok') return;
    if (first.expected === undefined) throw first.error;
    const second = await this.beat(first.expected, call);
    if (second !== 'ok') throw second.error;
  }

  heartbeatStarted(): boolean {
    return this.heartbeating;
  }

  /** The account's whole fill history cut after `afterVenueFillId` (as the Kalshi adapter): reconciliation uses `fillsSince`. */
  async listFills(options: { afterVenueFillId?: string; limit?: number } = {}): Promise<VenueFill[]> {
    const all = await this.fillsSince(new Date(0));
    const start = all.findIndex((fill) => fill.venueFillId === options.afterVenueFillId) + 1;
    return all.slice(start, options.limit === undefined ? undefined : start + options.limit);
  }

  /** `GET /balance-allowance?asset_type=COLLATERAL&signature_type=`: pUSD in 6-decimal base units, answered in dollars. */
  async balance(): Promise<string> {
    return this.tokenBalance('COLLATERAL');
  }

  /**
   * Polymarket's CLOB has no positions endpoint: the account's shares of each token are its
   * CONDITIONAL balance (`/balance-allowance?asset_type=CONDITIONAL&token_id=`). Read for the
   * markets this subaccount has orders in: net YES = YES shares - NO shares.
   */
  async positions(): Promise<VenuePosition[]> {
    const positions: VenuePosition[] = [];
    for (const market of await this.markets.traded()) {
      const yes = new Decimal(await this.tokenBalance('CONDITIONAL', market.yesTokenId));
      const no = new Decimal(await this.tokenBalance('CONDITIONAL', market.noTokenId));
      const net = yes.minus(no);
      if (!net.isZero()) positions.push({ venueMarketId: market.venueMarketId, netYes: net.toFixed() });
    }
    return positions;
  }

  /** The wallet's settlements at Polymarket since `since` (settlementReads.ts); none without the reads. */
  async settlementsSince(since: Date): Promise<VenueSettlement[]> {
    return this.options.settlements ? this.options.settlements.settlementsSince(since) : [];
  }

  async close(): Promise<void> {
    await Promise.all((this.options.alsoClose ?? []).map((resource) => resource.close()));
    await this.session.close();
  }

  // --- helpers ---------------------------------------------------------------------------

  /** One heartbeat with `id`: 'ok' (the chain moved on), or why not, with the id the venue expects when it said it. */
  private async beat(id: string, call: VenueCallOptions): Promise<'ok' | { error: DomainError; expected?: string }> {
    const outcome = await this.session.request('POST', '/v1/heartbeats', { body: { heartbeat_id: id }, write: true, deadline: call.deadline });
    if (outcome.kind === 'answered') {
      const next = (outcome.body as { heartbeat_id?: unknown } | null)?.heartbeat_id;
      if (typeof next !== 'string') return { error: new DomainError('venue_error', 'Polymarket answered a heartbeat without the next heartbeat id.') };
      this.heartbeatId = next;
      return 'ok';
    }
    if (outcome.kind === 'refused' && outcome.status === 400 && /invalid heartbeat id/i.test(outcome.refusal.message)) {
      const expected = (outcome.body as { heartbeat_id?: unknown } | null)?.heartbeat_id;
      return { error: outcome.error, expected: typeof expected === 'string' ? expected : '' };
    }
    return { error: outcome.error };
  }

  private async sign(order: PolymarketOrderTerms & { venueMarketId?: string }, venueMarketId: string): Promise<{ ok: true; value: Signed } | { ok: false; rejection: VenueRejection }> {
    const market = await this.markets.byVenueMarketId(venueMarketId);
    if (market === null) return { ok: false, rejection: rejected('market_not_tradable', 'unknown_market', `Polymarket market '${venueMarketId}' is not in our catalog with its tokens.`) };
    const wire = wireOrderOf(order, market);
    if (!wire.ok) return { ok: false, rejection: rejected('invalid_request', wire.param, wire.message) };
    const apiKey = this.session.apiKey;
    if (apiKey === undefined) return { ok: false, rejection: rejected('venue_unavailable', 'no_credentials', 'This Polymarket account has no API credentials yet; nothing was sent.') };
    let signed, hash;
    try {
      ({ order: signed, hash } = await this.session.signing.signExactOrder(wire.exact, this.options.orderVersion ?? 2));
    } catch (error) {
      // A catalog row the client cannot sign for (a malformed token id): nothing is sent.
      if (error instanceof PolymarketOrderInputError) return { ok: false, rejection: rejected('invalid_request', error.param, error.message) };
      throw error;
    }
    return { ok: true, value: { body: polymarketOrderPayload(signed, apiKey, OrderType[wire.orderType], order.postOnly === true), hash: hash.toLowerCase(), size: order.quantity, price: wire.price, market } };
  }

  /** The hash of one of our orders: recorded, or rebuilt from our record (null when its market is gone from our catalog). */
  private async hashOf(record: OurOrderRecord): Promise<string | null> {
    if (record.venueOrderId !== null) return record.venueOrderId.toLowerCase();
    const signed = await this.sign(record, record.venueMarketId);
    return signed.ok ? signed.value.hash : null;
  }

  /**
   * Our order breaks the market's tick rule as the catalog says it now. It may still have been sent
   * before, under the tick of that time (a first send whose answer was lost, the tick changed since):
   * it is looked up by its hash first, and reported when the venue holds it; only when the venue
   * holds nothing of it is it refused (and never sent).
   */
  private async refusedByTickRule(request: VenueOrderRequest, signed: Signed, broken: { param: string; message: string }, call: VenueCallOptions): Promise<VenuePlaceResult> {
    const state = await this.findOrder(request.clientOrderId, call);
    if (state === 'unavailable') return { outcome: 'unknown', message: `Order '${request.clientOrderId}' breaks the market's tick rule now, and Polymarket could not be asked whether it holds it from an earlier send; it is reconciled later.` };
    if (state === null) return rejected('invalid_request', broken.param, broken.message);
    return this.withFills(state, request, signed.hash);
  }

  private async refusedPlacement(refusal: PolymarketRefusal, request: VenueOrderRequest, signed: Signed, call: VenueCallOptions): Promise<VenuePlaceResult> {
    if (refusal.kind === 'killed') {
      // An answer, not an error: the FOK could not fill, the FAK found nothing; the venue keeps no order.
      return { outcome: 'accepted', order: { venueOrderId: signed.hash, clientOrderId: request.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' }, fills: [] };
    }
    if (refusal.kind === 'duplicated') {
      // Our very order landed before (its answer was lost): report it; never place another.
      const found = await this.readOrder(signed.hash, request.clientOrderId, call);
      const state = found === null || found === 'unavailable' ? await this.findOrder(request.clientOrderId, call) : found;
      if (state === null || state === 'unavailable') {
        return { outcome: 'unknown', message: `Polymarket already holds order '${request.clientOrderId}' (Duplicated) but it could not be read now; it is reconciled later.` };
      }
      return this.withFills(state, request, signed.hash);
    }
    return rejected(refusal.code, refusal.venueCode, describeRefusal(refusal));
  }

  /** The answer of an accepted post: `live` rests; `matched` traded on arrival (the trades are read); `delayed` is being matched. */
  private async reportPlaced(request: VenueOrderRequest, signed: Signed, status: string, tradeIds: string[], call: VenueCallOptions): Promise<VenuePlaceResult> {
    if (status === 'live' || status === 'delayed' || (status === 'unmatched' && restsOnBook(request.timeInForce))) {
      return { outcome: 'accepted', order: { venueOrderId: signed.hash, clientOrderId: request.clientOrderId, status: 'open', filledQuantity: '0', remainingQuantity: signed.size }, fills: [] };
    }
    if (status === 'unmatched') {
      return { outcome: 'accepted', order: { venueOrderId: signed.hash, clientOrderId: request.clientOrderId, status: 'canceled', filledQuantity: '0', remainingQuantity: '0' }, fills: [] };
    }
    const found = await this.readOrder(signed.hash, request.clientOrderId, call);
    const record = { clientOrderId: request.clientOrderId, venueMarketId: request.venueMarketId, side: request.side, action: request.action };
    const seen = await this.fillsOfTrades(tradeIds, new Map([[signed.hash, record]]), call).catch(() => null);
    const fills = seen === null ? null : seen.fills;
    if (found === null || found === 'unavailable') {
      // Matched, but its state cannot be read now: what the trades say, else the reconciler's sweep.
      if (fills === null) return { outcome: 'unknown', message: 'Polymarket matched the order, but its fills could not be read now; it is reconciled by its order hash.' };
      const filled = quantityOf(fills);
      const remaining = Decimal.max(new Decimal(signed.size).minus(filled), 0);
      const resting = restsOnBook(request.timeInForce) && !remaining.isZero();
      return { outcome: 'accepted', order: { venueOrderId: signed.hash, clientOrderId: request.clientOrderId, status: resting ? 'open' : remaining.isZero() ? 'filled' : 'canceled', filledQuantity: filled.toFixed(), remainingQuantity: resting ? remaining.toFixed() : '0' }, fills };
    }
    return { outcome: 'accepted', order: seen === null ? found : withoutFailedMatches(found, seen.failed), fills: fills ?? [] };
  }

  /** An order found after a Duplicated, with its fills (the order's trades since just before its creation). */
  private async withFills(state: VenueOrderState, request: VenueOrderRequest, hash: string): Promise<VenuePlaceResult> {
    if (new Decimal(state.filledQuantity).isZero()) return { outcome: 'accepted', order: state, fills: [] };
    const record = await this.ourOrders.byClientOrderId(request.clientOrderId);
    const fills = record === null ? [] : await this.fillsOfHash(hash, record).catch(() => []);
    return { outcome: 'accepted', order: state, fills };
  }

  /** `GET /data/order/{hash}`: the state, null when the venue answers nothing for it, 'unavailable' when it cannot be asked. */
  private async readOrder(hash: string, clientOrderId: string, call: VenueCallOptions = {}): Promise<VenueOrderState | null | 'unavailable'> {
    const outcome = await this.session.request('GET', `/data/order/${hash}`, { deadline: call.deadline });
    if (outcome.kind === 'answered') return stateFromOpenOrder(outcome.body, clientOrderId);
    if (outcome.kind === 'refused' && (outcome.status === 404 || outcome.refusal.code === 'order_not_found')) return null;
    return 'unavailable';
  }

  /** The trades of an order that matched on arrival (`GET /data/trades?id=`), within the caller's deadline. */
  private async fillsOfTrades(tradeIds: readonly string[], ours: ReadonlyMap<string, OurOrderRef>, call: VenueCallOptions): Promise<{ fills: PolymarketFill[]; failed: PolymarketFill[] }> {
    const all: PolymarketFill[] = [];
    for (const id of tradeIds) {
      const page = answerOf(await this.session.request('GET', '/data/trades', { query: { id }, deadline: call.deadline })) as { data?: unknown };
      for (const trade of Array.isArray(page?.data) ? page.data : []) all.push(...fillsFromTrade(trade, ours, this.options.onUnreadableTrade));
    }
    return splitFailed(all);
  }

  private async fillsOfHash(hash: string, record: OurOrderRecord): Promise<PolymarketFill[]> {
    return (await this.fillsAndFailuresOfHash(hash, record)).fills;
  }

  /** The fills of one order of ours in the account's trades since just before its creation, those of FAILED trades apart. */
  private async fillsAndFailuresOfHash(hash: string, record: OurOrderRecord, call: VenueCallOptions = {}): Promise<{ fills: PolymarketFill[]; failed: PolymarketFill[] }> {
    const trades = await this.tradesAfter(Math.floor((record.createdAt.getTime() - this.lookbackMs) / 1000), call);
    const ours = new Map([[hash, { clientOrderId: record.clientOrderId, venueMarketId: record.venueMarketId, side: record.side, action: record.action }]]);
    return splitFailed(oldestFirst(trades.flatMap((trade) => fillsFromTrade(trade, ours, this.options.onUnreadableTrade))));
  }

  /** Every trade of the account matched after `afterSeconds`, following `next_cursor` to `LTE=`. */
  private async tradesAfter(afterSeconds: number, call: VenueCallOptions = {}): Promise<unknown[]> {
    return this.allPages('/data/trades', { after: String(Math.max(0, afterSeconds)) }, call, 'trade');
  }

  /**
   * The hashes (lower case) of the account's open orders: `GET /data/orders`, every page (the
   * official client's `getOpenOrders`, src/client.ts at f3e1a05), within the caller's deadline.
   */
  async openOrderIds(call: VenueCallOptions = {}): Promise<ReadonlySet<string>> {
    const orders = await this.allPages('/data/orders', {}, call, 'open order');
    return new Set(orders.map((order) => (order as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase()));
  }

  /** Every item of a paged listing, following `next_cursor` to `LTE=`; a read that fails throws (answerOf). */
  private async allPages(path: string, query: Record<string, string>, call: VenueCallOptions, what: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const body = answerOf(await this.session.request('GET', path, { query: { ...query, next_cursor: cursor }, deadline: call.deadline })) as { data?: unknown; next_cursor?: unknown } | null;
      if (Array.isArray(body?.data)) items.push(...body.data);
      const next = typeof body?.next_cursor === 'string' ? body.next_cursor : END_CURSOR;
      if (next === END_CURSOR || next === '' || next === cursor) return items;
      cursor = next;
    }
    throw new DomainError('venue_error', `Polymarket kept answering ${what} pages; the listing was cut off.`);
  }

  /** Our fills among trades, FAILED ones included: their order ids resolved through our records; the others are left out. Oldest first. */
  private async ourFills(trades: readonly unknown[]): Promise<PolymarketFill[]> {
    const ids = [...new Set(trades.flatMap(orderIdsOfTrade))];
    if (ids.length === 0) return [];
    const records = await this.ourOrders.byVenueOrderIds(ids);
    const ours = new Map(records.filter((r) => r.venueOrderId !== null).map((r) => [r.venueOrderId!.toLowerCase(), r]));
    return oldestFirst(trades.flatMap((trade) => fillsFromTrade(trade, ours, this.options.onUnreadableTrade)));
  }

  private async tokenBalance(assetType: 'COLLATERAL' | 'CONDITIONAL', tokenId?: string): Promise<string> {
    const query = { asset_type: assetType, ...(tokenId ? { token_id: tokenId } : {}), signature_type: String(this.session.signing.signatureType) };
    const body = answerOf(await this.session.request('GET', '/balance-allowance', { query })) as { balance?: unknown } | null;
    if (typeof body?.balance !== 'string' || !/^[0-9]+$/.test(body.balance)) throw new DomainError('venue_error', 'Polymarket answered its balance with a body we could not read.');
    return new Decimal(body.balance).div(1_000_000).toFixed();
  }
}

/**
 * An order the venue reports MATCHED (filled) while some of its trades already FAILED: its matched
 * size still counts them (a failed trade does not put the order back), so it is reported
 * `canceled` with the venue's matched size less the sizes of the trades SEEN failed, as a reversal
 * would leave it (orderLifecycle.ts `statusAfterReversal`), never `filled` with less than its size.
 * Only trades seen FAILED are taken off: a trade merely not listed yet (the listing lags the
 * engine, or falls outside the lookback) leaves the venue's word as it is.
 */
function withoutFailedMatches(state: VenueOrderState, failed: readonly VenueFill[]): VenueOrderState {
  const failedSize = quantityOf(failed);
  if (state.status !== 'filled' || failedSize.isZero()) return state;
  const filled = Decimal.max(new Decimal(state.filledQuantity).minus(failedSize), 0);
  return { ...state, status: 'canceled', filledQuantity: filled.toFixed(), remainingQuantity: '0' };
}

function splitFailed(all: readonly PolymarketFill[]): { fills: PolymarketFill[]; failed: PolymarketFill[] } {
  return { fills: all.filter((fill) => fill.tradeStatus !== 'FAILED'), failed: all.filter((fill) => fill.tradeStatus === 'FAILED') };
}

function oldestFirst<T extends VenueFill>(fills: T[]): T[] {
  return fills.sort((a, b) => Date.parse(a.executedAt) - Date.parse(b.executedAt) || a.venueFillId.localeCompare(b.venueFillId));
}
