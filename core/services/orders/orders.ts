import { createHash } from 'node:crypto';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { allInOrder, inTransaction, isUniqueViolation, type CommitWait, type SqlClient } from '../../db/sql';
import type { Order } from '../../generated/prisma/client';
import type { IdempotencyPort } from '../idempotency/requestClaim';
import { marketIdentityOf } from '../catalog/marketIdentities';
import { findMarket } from '../catalog/statements';
import { findOrder, insertPendingOrder, leaseUnconfirmedOrder, linkChildOrder, lockActiveSubaccount, setOrderStatusIfUnchanged, type NewOrder } from './statements';
import { Decimal, formatDecimal } from '../../domain/decimals';
import { DomainError, invalidRequest, notFound, RateLimited, retryAfterSeconds } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { createdWithin, decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { checkPreTradeRisk, RiskLimitExceeded } from '../../domain/preTradeRisk';
import { recordRiskLimitBreach } from '../events/eventLog';
import { deadMansSwitchFired } from '../../domain/deadMansSwitch';
import { maxTakerFee } from '../../domain/marketRules';
import type { MarketRules } from '../../domain/venueRules';
import { validateOrderInput } from '../../domain/venueRules';
import { exchangeOf, gtdMinLeadMs, marketRulesOf, venueName, type VenueColumn } from '../../venues/venueModules';
import { restsOnBook, type VenueTimeInForce } from '../../domain/orderTerms';
import type { Venue, VenueCallOptions, VenueCancelResult, VenueNotSent, VenueOrderRequest, VenuePlaceResult, VenueRegistry } from '../../venues/venue';
import { recordExecution } from './executions';
import { loadPreTradeState } from '../risk/exposure';
import { isResting, isUnconfirmed, ORDER_STATUSES, WORKING_STATUSES } from '../../domain/orderLifecycle';
import { inScope, marketVisibleTo, scopedRows, type Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

export interface PlaceOrderInput {
  subaccountId: string;
  marketId: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string | null;
  quantity: string;
  timeInForce?: VenueTimeInForce | null;
  /** A gtd order's end: it rests until then (docs/trading.md, "Expiring orders"). */
  expiresAt?: Date | null;
  clientOrderId?: string | null;
  /** Never takes: a resting limit order (gtc) the venue refuses if it would cross (docs/trading.md). */
  postOnly?: boolean | null;
  /** Only shrinks the position: a sell of what is held (docs/trading.md). */
  reduceOnly?: boolean | null;
}

const CLIENT_ORDER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * How an order came to be placed, beyond its input:
 * - `idempotency`: the request's Idempotency-Key; the client order id is derived from it;
 * - `child`: the order is a child of a complex order; its client order id is the child's id, and
 *   the child is linked to the order in the transaction that creates it.
 * Either way a second placement with the same derived id reconciles the existing order.
 */
export interface PlacementOrigin {
  idempotency?: IdempotencyPort;
  child?: { complexOrderId: string; childOrderId: string };
}

/**
 * Places an order: validates it against the venue's rules, runs every pre-trade check and records
 * the order as pending in one transaction (the subaccount row locked, so concurrent orders cannot
 * pass a limit together), sends it to the venue with our order id as the venue's client order id,
 * then records the venue's answer. An order whose client order id already exists is not placed
 * again: a retry after a lost answer or a crash reconciles the existing order through the venue,
 * which knows it by the same id. `call.deadline` is when the client stops waiting: the venue call
 * keeps to it (see VenueCallOptions). With an Idempotency-Key, an order whose fate at the venue is
 * not known yet leaves the answer unstored: a retry with the key asks the venue again (same client
 * order id) instead of replaying it.
 */
export async function placeOrder(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  input: PlaceOrderInput,
  origin: PlacementOrigin = {},
  call: VenueCallOptions = {},
): Promise<Order> {
  const order = await placeOrSettle(db, venues, scope, input, origin, call);
  if (isUnconfirmed(order.status)) origin.idempotency?.leaveAnswerUnstored();
  venues.marketActivity?.(order.marketId);
  return order;
}

async function placeOrSettle(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  input: PlaceOrderInput,
  origin: PlacementOrigin,
  call: VenueCallOptions,
): Promise<Order> {
  const { idempotency, child } = origin;
  const sql = sqlPoolOf(db);
  // The market's venue is known before the transaction (it never changes); its status and rules are
  // read in the transaction's first write, beside the lock, and checked there.
  const identity = await marketIdentityOf(sql, input.marketId);
  if (!identity || !marketVisibleTo(identity, scope)) throw notFound('market', input.marketId);
  const timeInForce = input.timeInForce ?? (input.type === 'market' ? 'ioc' : input.expiresAt != null ? 'gtd' : 'gtc');
  if (input.type === 'market' && restsOnBook(timeInForce)) {
    throw invalidRequest('timeInForce', 'A market order never rests: timeInForce is ioc or fok.');
  }
  if (input.type === 'limit' && input.price == null) throw invalidRequest('price', 'price is required for a limit order.');
  if (input.postOnly && (input.type !== 'limit' || !restsOnBook(timeInForce))) {
    throw invalidRequest('postOnly', 'A post-only order is a resting limit order (type limit, time in force gtc or gtd): it never takes, so it cannot be immediate.');
  }
  checkExpiry(identity.venue, timeInForce, input.expiresAt);
  if (input.reduceOnly && input.action !== 'sell') {
    throw invalidRequest('reduceOnly', 'A reduce-only order sells what the subaccount holds (YES and NO are held apart here: to reduce a YES position, sell YES).');
  }
  if (input.clientOrderId != null && !CLIENT_ORDER_ID.test(input.clientOrderId)) {
    throw invalidRequest('clientOrderId', 'clientOrderId is 1 to 64 of A-Z a-z 0-9 _ . : -');
  }
  // Live: the subaccount must be the caller's before its credential's account is opened. The
  // registry reads the credential row itself; only when it has no venue is the reason looked for.
  if (scope.environment === 'live') await getSubaccount(db, scope, input.subaccountId);
  const venue = await venues.forSubaccount(identity.venue, input.subaccountId);
  if (!venue) {
    // The order is checked against the market first, as it would be with a venue; then "attach
    // your credentials" comes first: it is the answer a live trader can act on.
    checkAgainstMarket(await findMarket(sql, identity.id), input);
    if (scope.environment === 'live') await requireStoredCredential(db, input.subaccountId, identity.venue);
    throw new DomainError('venue_unavailable', `The venue ${venueName(identity.venue)} is not available.`);
  }

  const clientOrderId = child?.childOrderId ?? input.clientOrderId ?? idempotency?.reference ?? newId('order');
  const price = input.price == null ? null : new Decimal(input.price);
  const quantity = new Decimal(input.quantity);

  // Two round trips, the subaccount's row locked from the first to COMMIT: BEGIN, the market, the
  // lock and the pre-trade state in one write (the state statement runs after the lock, with a
  // snapshot that sees every order committed before it); the market's status and rules are checked
  // on what that write read; then the order row and COMMIT (sql.ts, Transaction).
  // The Idempotency-Key's claim, when the resolver leaves it to us, goes ahead of BEGIN in the same
  // write and commits on its own (ClaimInWrite); the key taken, nothing here is written.
  const claim = idempotency?.inWrite;
  const placement = () => inTransaction(sql, async (tx) => {
    let claimed: Promise<boolean> | undefined;
    const [listed, subaccount, state] = await tx.together(
      (c) =>
        allInOrder([
          findMarket(c, identity.id),
          lockActiveSubaccount(c, scope, input.subaccountId),
          loadPreTradeState(c, { id: input.subaccountId, workspaceId: scope.workspaceId, environment: scope.environment }, { id: identity.id, side: input.side }, clientOrderId),
        ]),
      claim && !claim.held ? (c) => (claimed = claim.send(c)).catch(() => undefined) : undefined,
    );
    if (claimed && !(await claimed)) throw KEY_TAKEN;
    const { market, rules } = checkAgainstMarket(listed, input);
    if (!subaccount || !state) throw notFound('subaccount', input.subaccountId);
    if (state.existingOrderId) {
      if (!idempotency && !child) {
        throw new DomainError('conflict', `clientOrderId '${clientOrderId}' is already used by order '${state.existingOrderId}'.`);
      }
      return { order: (await tx.together((c) => findOrder(c, state.existingOrderId!)))!, created: false, market };
    }
    if (state.deadMansSwitchLapsed) throw deadMansSwitchFired(subaccount.id);
    // A market order the venue signs at a price (live Polymarket) is priced now, under the market's
    // rules as they are now, and keeps that price (Venue.marketOrderPrice).
    const orderPrice = price ?? (input.type === 'market' && venue.marketOrderPrice ? new Decimal(venue.marketOrderPrice(input.action, rules)) : null);
    const worstPrice = orderPrice ?? new Decimal(1);
    checkPreTradeRisk(
      { action: input.action, quantity, worstPrice, maxFee: maxTakerFee(rules, worstPrice, quantity) },
      state.limits,
      state.exposure,
      state.tradingHalted,
    );
    const row: NewOrder = {
      id: newId('order'),
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      subaccountId: subaccount.id,
      marketId: market.id,
      venue: market.venue,
      side: input.side,
      action: input.action,
      type: input.type,
      timeInForce,
      price: orderPrice?.toFixed() ?? null,
      quantity: quantity.toFixed(),
      clientOrderId,
      complexOrderId: child?.complexOrderId ?? null,
      postOnly: input.postOnly === true,
      reduceOnly: input.reduceOnly === true,
      expiresAt: input.expiresAt ?? null,
    };
    const [order] = await tx.together((c) =>
      allInOrder([createOrderRow(c, row), child ? linkChildOrder(c, child.childOrderId, row.id) : Promise.resolve(), tx.commit(c)]),
    );
    return { order, created: true, market };
  });
  let placed: Awaited<ReturnType<typeof placement>>;
  try {
    try {
      placed = await placement();
    } catch (error) {
      if (error !== KEY_TAKEN) throw error;
      await claim!.settle(); // throws KeyAnswered (the key is another request's); resolves once a dead claim is ours
      placed = await placement();
    }
  } catch (error) {
    if (error instanceof RiskLimitExceeded) await recordBreach(db, scope, input, error);
    throw error;
  }
  const { created, market } = placed;
  let { order } = placed;
  if (!created) {
    // An existing order is sent again only while its fate at the venue is not known, and only by
    // whoever holds its lease: a reconciler (or another retry) working on it has moved it on.
    if (!isUnconfirmed(order.status)) return order;
    const leased = await leaseUnconfirmedOrder(sql, order);
    if (!leased) return (await findOrder(sql, order.id))!;
    order = leased;
  }

  let result: VenuePlaceResult;
  try {
    result = await venue.placeOrder(venueRequestOf(order, market.venueMarketId), call);
  } catch (error) {
    result = { outcome: 'unknown', message: error instanceof Error ? error.message : String(error) };
  }
  if (result.outcome === 'not_sent') return withdrawUnsent(db, order, created, result);
  // With an Idempotency-Key the request completes (or releases) its key, flushed, before it answers:
  // the venue's answer rides on that flush. Either way it is on disk when the client hears of it; a
  // crash before can only leave the order unconfirmed, which the reconcilers settle with the venue.
  return recordPlacement(db, order, result, idempotency ? 'by_next_write' : 'flushed');
}

/**
 * A refusal by a risk limit, as a risk_limit.breached event (docs/events.md): the refused order
 * wrote nothing, so this is the only trace of it. Written after the placement's transaction rolled
 * back, and never in the way of the answer: the client is told of the refusal whether or not this
 * write succeeds (a database that fails it fails the next request too, where it is reported).
 */
async function recordBreach(db: Db, scope: Scope, input: PlaceOrderInput, refusal: RiskLimitExceeded): Promise<void> {
  await recordRiskLimitBreach(db, scope, {
    subaccountId: input.subaccountId,
    marketId: input.marketId,
    limit: refusal.limit,
    message: refusal.message,
    side: input.side,
    action: input.action,
    type: input.type,
    price: input.price == null ? null : new Decimal(input.price).toFixed(),
    quantity: new Decimal(input.quantity).toFixed(),
    clientOrderId: input.clientOrderId ?? null,
    createdAt: new Date().toISOString(),
  }).catch(() => undefined);
}

/**
 * A gtd order's expiry: required, in the future, at least the venue's least lead ahead (Polymarket's
 * GTD minimum); and only on a gtd order.
 */
function checkExpiry(venue: VenueColumn, timeInForce: VenueTimeInForce, expiresAt: Date | null | undefined): void {
  if (timeInForce !== 'gtd') {
    if (expiresAt != null) throw invalidRequest('expiresAt', `expiresAt is for a gtd order (a limit order resting until then), not ${timeInForce}.`);
    return;
  }
  if (expiresAt == null) throw invalidRequest('expiresAt', 'A gtd order needs expiresAt: when it leaves the book.');
  const leadMs = gtdMinLeadMs(venue);
  if (expiresAt.getTime() <= Date.now() + leadMs) {
    throw invalidRequest(
      'expiresAt',
      leadMs >= 1000
        ? `expiresAt must be at least ${Math.ceil(leadMs / 1000)} seconds ahead on ${venueName(venue)} (the venue's least expiry lead time).`
        : 'expiresAt must be in the future.',
    );
  }
}

/** The order against the market as just read: open, and within its rules (tick, price range, size). The market and its rules. */
function checkAgainstMarket(market: MarketRow | undefined, input: PlaceOrderInput): { market: MarketRow; rules: MarketRules } {
  if (!market) throw notFound('market', input.marketId);
  if (market.status !== 'open') throw new DomainError('market_not_tradable', `Market '${market.id}' is ${market.status}.`);
  const rules = marketRulesOf(market);
  const checked = validateOrderInput(rules, { type: input.type, side: input.side, price: input.price ?? undefined, quantity: input.quantity });
  if (!checked.ok) throw invalidRequest(checked.param, checked.message);
  return { market, rules };
}

type MarketRow = NonNullable<Awaited<ReturnType<typeof findMarket>>>;

const KEY_TAKEN = Symbol('Idempotency-Key taken');
const NOT_WITHDRAWN = Symbol('not withdrawn');

/**
 * An order the venue never received (VenueNotSent): nothing of it exists there and no fill can come.
 * Created by this request, its pending row is withdrawn (a child order is unlinked, back to
 * `sending`) and the request fails with the reason (`rate_limited` with Retry-After, or
 * `venue_unavailable`), so that the client's retry with the same Idempotency-Key or client order id
 * places it afresh, through every check again. The row stays when the reconciler has claimed it
 * meanwhile (it bumps `updated_at`), and an order sent before by another request keeps its state:
 * the earlier send may have landed, so it is the reconciler's, and the answer is the order as it is.
 */
async function withdrawUnsent(db: Db, order: Order, created: boolean, result: VenueNotSent): Promise<Order> {
  if (created) {
    const withdrawn = await db
      .$transaction(async (tx) => {
        await tx.childOrder.updateMany({ where: { orderId: order.id }, data: { orderId: null, status: 'sending' } });
        const { count } = await tx.order.deleteMany({ where: { id: order.id, status: 'pending', updatedAt: order.updatedAt } });
        if (count !== 1) throw NOT_WITHDRAWN;
      })
      .then(() => true, (error: unknown) => {
        if (error === NOT_WITHDRAWN) return false;
        throw error;
      });
    if (withdrawn) {
      const message = `The order was not placed: ${result.message}`;
      throw result.reason === 'rate_limited' ? new RateLimited(message, retryAfterSeconds(result.retryAfterMs)) : new DomainError('venue_unavailable', message);
    }
  }
  return (await findOrder(sqlPoolOf(db), order.id))!;
}

/** What the venue is sent for one of our orders; the same every time it is sent (the client order id is our order id). */
export function venueRequestOf(order: Order, venueMarketId: string): VenueOrderRequest {
  return {
    clientOrderId: order.id,
    venueMarketId,
    side: order.side,
    action: order.action,
    type: order.type,
    ...(order.price ? { price: formatDecimal(order.price) } : {}),
    quantity: formatDecimal(order.quantity),
    timeInForce: order.timeInForce,
    ...(order.postOnly ? { postOnly: true } : {}),
    ...(order.reduceOnly ? { reduceOnly: true } : {}),
    ...(order.expiresAt ? { expiresAt: order.expiresAt.toISOString() } : {}),
  };
}

/**
 * Records the venue's answer on the order as this request wrote or found it (no re-read). `unknown`
 * and `rejected` are written only over that state (a fill recorded meanwhile, e.g. from a venue's
 * stream, is the venue's later word and stays).
 */
async function recordPlacement(db: Db, order: Order, result: Exclude<VenuePlaceResult, VenueNotSent>, commit: CommitWait): Promise<Order> {
  if (result.outcome === 'accepted') return recordExecution(db, order.id, { fills: result.fills, state: result.order }, order, commit);
  const sql = sqlPoolOf(db);
  const change = result.outcome === 'unknown' ? { status: 'unknown' as const } : { status: 'rejected' as const, rejectReason: `${result.venueCode}: ${result.message}` };
  const written = await setOrderStatusIfUnchanged(sql, order, change, commit);
  // Changed meanwhile: the venue's later word stands, and the answer is the order as it is now.
  if (!written) return (await findOrder(sql, order.id))!;
  if (result.outcome === 'unknown') return written;
  const message = `${venueName(order.venue)} rejected the order (${result.venueCode}): ${result.message}`;
  switch (result.code) {
    case 'market_not_tradable':
    case 'insufficient_funds':
      throw new DomainError(result.code, message);
    case 'venue_unavailable':
      throw new DomainError('venue_unavailable', message);
    case 'rate_limited':
      throw new RateLimited(message, retryAfterSeconds(result.retryAfterMs));
    case 'invalid_request':
      // The venue's own rules refused what ours let through (e.g. a price off Kalshi's price_ranges): the client's to fix.
      throw new DomainError('invalid_request', message, result.param);
    default:
      throw new DomainError('venue_error', message);
  }
}

/**
 * The pending order row. Subaccount locks do not cover the workspace-wide uniqueness of client
 * order ids: two subaccounts may race for one, and the unique index decides; the loser is a conflict.
 */
async function createOrderRow(tx: SqlClient, data: NewOrder): Promise<Order> {
  try {
    return await insertPendingOrder(tx, data);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('conflict', `clientOrderId '${data.clientOrderId}' is already used by another order.`);
    throw error;
  }
}

export async function requireCredentials(db: Db, scope: Scope, subaccountId: string, venue: VenueColumn) {
  await getSubaccount(db, scope, subaccountId);
  await requireStoredCredential(db, subaccountId, venue);
}

async function requireStoredCredential(db: Db, subaccountId: string, venue: VenueColumn) {
  const exchange = exchangeOf(venue);
  if (!exchange) return; // a simulated venue: no credential to attach
  const credential = await db.exchangeCredential.findFirst({ where: { subaccountId, exchange } });
  if (!credential) {
    throw new DomainError('forbidden', `Subaccount '${subaccountId}' has no ${exchange} credentials; attach them in the dashboard to trade live.`);
  }
}

/** An order of the scope; another workspace's is not found. */
export async function getOrder(db: Db, scope: Scope, id: string, query: object = {}) {
  const order = await db.order.findUnique({ ...query, where: { id } });
  if (!order || !inScope(order, scope)) throw notFound('order', id);
  return order;
}

export interface OrderFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  status?: string | null;
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

export async function listOrders(db: Db, scope: Scope, filter: OrderFilter) {
  const limit = parseLimit(filter.limit);
  const after = decodeCursor(filter.cursor, isIdCursor);
  if (filter.status != null && filter.status !== 'working' && !(ORDER_STATUSES as readonly string[]).includes(filter.status)) {
    throw invalidRequest('status', `status must be working or one of ${ORDER_STATUSES.join(', ')}.`);
  }
  const status =
    filter.status == null ? {} : filter.status === 'working' ? { status: { in: [...WORKING_STATUSES] } } : { status: filter.status as Order['status'] };
  const rows = await db.order.findMany({
    where: {
      ...scopedRows(scope, filter),
      ...status,
      ...createdWithin(filter.since, filter.until),
      ...(after ? { id: { lt: after.id } } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** Cancels the unfilled remainder of a working order at its venue, its venue calls within `call.deadline`. */
export async function cancelOrder(db: Db, venues: VenueRegistry, scope: Scope, id: string, call: VenueCallOptions = {}): Promise<Order> {
  const order = await getOrder(db, scope, id);
  if (!isResting(order.status)) {
    throw new DomainError('conflict', `Order '${id}' is ${order.status}; only open or partially filled orders can be canceled.`);
  }
  const venue = await venues.forSubaccount(order.venue, order.subaccountId);
  if (!venue) throw new DomainError('venue_unavailable', `The venue ${venueName(order.venue)} is not available.`);
  return recordCancel(db, venues, venue, order, await venue.cancelOrder(order.id, call));
}

/**
 * Records a venue's answer to the cancel of one resting order (alone, or in a batch cancel): the
 * order as it now is; a refusal or a lost answer as the error DELETE /v1/orders/{id} answers.
 */
export async function recordCancel(db: Db, venues: VenueRegistry, venue: Venue, order: Order, result: VenueCancelResult): Promise<Order> {
  if (result.outcome === 'unknown') throw new DomainError('venue_unavailable', `The cancel's outcome is unknown: ${result.message}`);
  if (result.outcome === 'rejected') {
    // Not sent: the order rests as it was.
    if (result.code === 'rate_limited') throw new RateLimited(`The cancel was not sent: ${result.message}`, retryAfterSeconds(result.retryAfterMs));
    if (result.code === 'venue_unavailable') throw new DomainError('venue_unavailable', `The cancel was not sent: ${result.message}`);
    const current = await venue.getOrder(order.id);
    if (current) return recordExecution(db, order.id, { fills: [], state: current }); // filled meanwhile
    throw new DomainError('venue_error', `${venueName(order.venue)} refused the cancel (${result.venueCode}): ${result.message}`);
  }
  const canceled = await recordExecution(db, order.id, { fills: [], state: result.order });
  venues.marketActivity?.(order.marketId);
  return canceled;
}
