import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { allInOrder, inTransaction } from '../../db/sql';
import type { Order } from '../../generated/prisma/client';
import { Decimal, formatDecimal } from '../../domain/decimals';
import { DomainError, invalidRequest, notFound, RateLimited, retryAfterSeconds } from '../../domain/errors';
import { deadMansSwitchFired } from '../../domain/deadMansSwitch';
import { maxTakerFee } from '../../domain/marketRules';
import { isResting } from '../../domain/orderLifecycle';
import { checkPreTradeRisk, exposureWithout } from '../../domain/preTradeRisk';
import { validateOrderInput } from '../../domain/venueRules';
import { marketRulesOf, venueName } from '../../venues/venueModules';
import type { Venue, VenueAmendResult, VenueCallOptions, VenueOrderState, VenueRegistry, VenueRejection } from '../../venues/venue';
import type { IdempotencyPort } from '../idempotency/requestClaim';
import { findMarket } from '../catalog/statements';
import { loadPreTradeState } from '../risk/exposure';
import type { Scope } from '../scope';
import { recordExecution } from './executions';
import { getOrder } from './orders';
import { lockActiveSubaccount, lockOrder, markAmendmentLost, setOrderTerms, settleOrderTerms } from './statements';

export interface AmendOrderInput {
  /** The new limit price, in the order's own terms. */
  price?: string | null;
  /** The new total quantity: what filled included (docs/trading.md, "Amending an order"). */
  quantity?: string | null;
}

/** An amend sent to the venue whose outcome is not recorded yet, as `orders.pending_amendment` keeps it. */
interface PendingAmendment {
  price: string;
  quantity: string;
  from: { price: string; quantity: string };
  /** When it was sent (ms ISO): identifies it, and dates it. */
  sentAt: string;
  /** Its request gave up on it (the answer lost, the order unreadable): its outcome may be read at once. */
  lost?: boolean;
}

/**
 * How long an amend may be on its way: no venue call of ours lasts longer (every call has its
 * timeout). Before, another amend of the order is 409 (one at a time); after, an amend whose
 * request died is taken as lost and its outcome read at the venue.
 */
export const AMEND_IN_FLIGHT_MS = 60_000;

type Terms = { price: string; quantity: string };

/**
 * Amends a resting limit order's price and/or total quantity at its venue, where it rests (docs/trading.md,
 * "Amending an order"): the venue's own queue rules apply (a size decrease keeps the order's place;
 * a price change or a size increase loses it, and a new price that crosses trades at once).
 *
 * A caller that may not trade (a dashboard session) may only shrink an order at its price (403 otherwise).
 *
 * 1. Checked like a new order against the market's rules; the total must stay above what filled
 *    (else 409: nothing would be left: cancel instead).
 * 2. In one transaction, the subaccount and the order locked: unless the amend only shrinks the
 *    order, the pre-trade checks run on its new terms in place of its old ones; the amend is
 *    recorded as pending, the row's terms the larger of old and new (what may rest meanwhile), so
 *    that no concurrent order can use room the amend may still need.
 * 3. The venue is called with no lock held. Its answer is recorded: the new terms and any fills
 *    (amended), the old terms (refused; an order that ended meanwhile is recorded as it ended and
 *    answered 409). A lost answer is never re-sent: the order is read at the venue and its terms
 *    there decide; when it cannot be read, the amend stays pending, the answer is 503 and the next
 *    amend of the order, or a retry with the same Idempotency-Key, reads it first.
 */
export async function amendOrder(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  id: string,
  input: AmendOrderInput,
  caller: { idempotency?: IdempotencyPort; mayTrade: boolean },
  call: VenueCallOptions = {},
): Promise<Order> {
  const { idempotency } = caller;
  if (input.price == null && input.quantity == null) throw invalidRequest('price', 'Give the order a new price, a new quantity, or both.');
  let order = await getOrder(db, scope, id);
  const venue = await venues.forSubaccount(order.venue, order.subaccountId);
  if (!venue) throw new DomainError('venue_unavailable', `The venue ${venueName(order.venue)} is not available.`);
  if (!venue.amendOrder) {
    throw new DomainError('invalid_request', `Orders on ${venueName(order.venue)} cannot be amended yet: cancel the order and place a new one.`);
  }
  if (order.pendingAmendment !== null) {
    const pending = order.pendingAmendment as unknown as PendingAmendment;
    if (!pending.lost && Date.now() - Date.parse(pending.sentAt) < AMEND_IN_FLIGHT_MS) {
      throw new DomainError('conflict', `An amend of order '${id}' is under way; read the order, and amend again once it is done.`);
    }
    order = await settlePendingAmendment(db, venue, order, call, idempotency);
  }
  if (!isResting(order.status) || order.type !== 'limit' || order.price === null) {
    throw new DomainError('conflict', `Order '${id}' is ${order.status}; only a resting limit order (open or partially filled) can be amended.`);
  }
  if (order.complexOrderId !== null) {
    throw new DomainError('conflict', `Order '${id}' is a child of complex order '${order.complexOrderId}', which sets its terms: cancel the complex order rather than amend its children.`);
  }
  const sql = sqlPoolOf(db);
  const market = await findMarket(sql, order.marketId);
  if (!market || market.status !== 'open') throw new DomainError('market_not_tradable', `Market '${order.marketId}' is ${market?.status ?? 'gone'}.`);
  const rules = marketRulesOf(market);
  const old = { price: new Decimal(order.price.toString()), quantity: new Decimal(order.quantity.toString()) };
  const price = input.price == null ? old.price : new Decimal(input.price);
  const quantity = input.quantity == null ? old.quantity : new Decimal(input.quantity);
  const checked = validateOrderInput(rules, { type: 'limit', side: order.side, price: price.toFixed(), quantity: quantity.toFixed() });
  if (!checked.ok) throw invalidRequest(checked.param, checked.message);
  const filled = new Decimal(order.filledQuantity.toString());
  if (quantity.lte(filled)) {
    throw new DomainError('conflict', `quantity ${quantity.toFixed()} is not above the ${filled.toFixed()} already filled: nothing would be left to rest; cancel the order instead.`);
  }
  if (price.eq(old.price) && quantity.eq(old.quantity)) return order;
  const shrinking = price.eq(old.price) && quantity.lt(old.quantity);
  if (!shrinking && !caller.mayTrade) {
    throw new DomainError('forbidden', 'Without an API key (from the dashboard) an order can only be made smaller at its price: a new price or a larger size can trade, and trading needs an API key.');
  }
  const pending: PendingAmendment = {
    price: price.toFixed(),
    quantity: quantity.toFixed(),
    from: { price: old.price.toFixed(), quantity: old.quantity.toFixed() },
    sentAt: new Date().toISOString(),
  };

  const seen = order;
  const started = await inTransaction(sql, async (tx) => {
    const [subaccount, locked, state] = await tx.together((c) =>
      allInOrder([
        lockActiveSubaccount(c, scope, seen.subaccountId),
        lockOrder(c, seen.id),
        shrinking
          ? Promise.resolve(null)
          : loadPreTradeState(c, { id: seen.subaccountId, workspaceId: scope.workspaceId, environment: scope.environment }, { id: seen.marketId, side: seen.side }, ''),
      ]),
    );
    if (!subaccount) throw notFound('subaccount', seen.subaccountId);
    if (!locked || !isResting(locked.status) || locked.pendingAmendment !== null || !sameTerms(locked, old) || !locked.filledQuantity.equals(seen.filledQuantity)) {
      throw new DomainError('conflict', `Order '${seen.id}' changed while it was being amended (${locked?.status ?? 'gone'}); read it and amend again.`);
    }
    if (state) {
      if (state.deadMansSwitchLapsed) throw deadMansSwitchFired(subaccount.id);
      const remaining = quantity.sub(filled);
      checkPreTradeRisk(
        { action: seen.action, quantity: remaining, worstPrice: price, maxFee: maxTakerFee(rules, price, remaining) },
        state.limits,
        exposureWithout(state.exposure, { action: seen.action, remaining: old.quantity.sub(filled), price: old.price }),
        state.tradingHalted,
      );
    }
    const holding = { price: Decimal.max(price, old.price).toFixed(), quantity: Decimal.max(quantity, old.quantity).toFixed(), pendingAmendment: pending };
    const [written] = await tx.together((c) => allInOrder([setOrderTerms(c, locked, holding), tx.commit(c)]));
    return written!;
  });

  let result: VenueAmendResult;
  try {
    result = await venue.amendOrder(order.id, { price: pending.price, quantity: pending.quantity }, call);
  } catch (error) {
    result = { outcome: 'unknown', message: error instanceof Error ? error.message : String(error) };
  }
  const amended = await settleAnswer(db, venue, started, pending, result, call, idempotency);
  venues.marketActivity?.(amended.marketId);
  return amended;
}

/** Records the venue's answer to an amend (see amendOrder). */
async function settleAnswer(
  db: Db,
  venue: Venue,
  order: Order,
  pending: PendingAmendment,
  result: VenueAmendResult,
  call: VenueCallOptions,
  idempotency: IdempotencyPort | undefined,
): Promise<Order> {
  if (result.outcome === 'amended') {
    // The venue's answer may describe another order (a known Kalshi fault): the adapter reads the
    // order back; here the requested terms are recorded, with what the answer's state says of fills.
    await finish(db, order, pending, pending);
    return recordExecution(db, order.id, { fills: result.fills, state: result.order });
  }
  if (result.outcome === 'rejected') {
    await finish(db, order, pending, pending.from);
    return refused(db, venue, order, result);
  }
  const state = await venue.getOrder(order.id, call).catch(() => null);
  if (state === null) return stillUnknown(db, order, pending, result.message, idempotency);
  await finish(db, order, pending, termsAtVenue(state, pending));
  return recordExecution(db, order.id, { fills: [], state });
}

/**
 * An amend whose outcome was not recorded (its answer lost, the order unreadable then): the order is
 * read at the venue, and its terms there decide whether the amend took. Never sent again.
 */
async function settlePendingAmendment(db: Db, venue: Venue, order: Order, call: VenueCallOptions, idempotency?: IdempotencyPort): Promise<Order> {
  const pending = order.pendingAmendment as unknown as PendingAmendment;
  const state = await venue.getOrder(order.id, call).catch(() => null);
  if (state === null) return stillUnknown(db, order, pending, 'the order could not be read at the venue', idempotency);
  await finish(db, order, pending, termsAtVenue(state, pending));
  return recordExecution(db, order.id, { fills: [], state });
}

/**
 * Which terms the venue's order has: the new ones when it rests at the new price, or its total
 * (filled and resting) is the new quantity; else the old. An order the venue ended tells only its
 * total, which decides alone.
 */
function termsAtVenue(state: VenueOrderState, pending: PendingAmendment): Terms {
  const total = new Decimal(state.filledQuantity).add(state.remainingQuantity);
  const atNewPrice = state.price !== undefined && new Decimal(state.price).eq(pending.price) && !new Decimal(pending.price).eq(pending.from.price);
  if (state.status === 'open' && (atNewPrice || total.eq(pending.quantity))) return pending;
  return pending.from;
}

/**
 * The amend's outcome recorded: the order's terms, its pending amendment cleared (order.amended
 * when they changed). Only while it is still this amendment that is pending: once another request
 * recorded its outcome (after reading the venue), that record stands.
 */
async function finish(db: Db, order: Order, pending: PendingAmendment, terms: Terms): Promise<void> {
  await settleOrderTerms(sqlPoolOf(db), order.id, pending.sentAt, terms);
}

async function stillUnknown(db: Db, order: Order, pending: PendingAmendment, message: string, idempotency: IdempotencyPort | undefined): Promise<never> {
  await markAmendmentLost(sqlPoolOf(db), order.id, pending.sentAt);
  // With an Idempotency-Key, a retry runs again (it reads the order first) rather than replaying this.
  idempotency?.leaveAnswerUnstored();
  throw new DomainError(
    'venue_unavailable',
    `The amend's outcome is unknown (${message}): it is never sent again blind; the order is read at the venue on the next amend or retry (the same Idempotency-Key).`,
  );
}

/** A refused amend: the order rests as it was, unless it ended meanwhile (recorded as it ended, 409). */
async function refused(db: Db, venue: Venue, order: Order, result: VenueRejection): Promise<never> {
  const message = `${venueName(order.venue)} refused the amend (${result.venueCode}): ${result.message}`;
  switch (result.code) {
    case 'order_not_found': {
      const state = await venue.getOrder(order.id).catch(() => null);
      const now = state ? await recordExecution(db, order.id, { fills: [], state }) : order;
      throw new DomainError('conflict', `Order '${order.id}' is ${now.status} at the venue: nothing rests to amend.`);
    }
    case 'rate_limited':
      throw new RateLimited(`The amend was not sent: ${result.message}`, retryAfterSeconds(result.retryAfterMs));
    case 'venue_unavailable':
      throw new DomainError('venue_unavailable', `The amend was not sent: ${result.message}`);
    case 'invalid_request':
      throw new DomainError('invalid_request', message, result.param);
    case 'market_not_tradable':
    case 'insufficient_funds':
      throw new DomainError(result.code, message);
    default:
      throw new DomainError('venue_error', message);
  }
}

const sameTerms = (order: Order, terms: { price: Decimal; quantity: Decimal }) =>
  order.price !== null && terms.price.eq(formatDecimal(order.price)) && terms.quantity.eq(formatDecimal(order.quantity));
