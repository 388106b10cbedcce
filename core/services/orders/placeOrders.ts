import type { Db } from '../../db/prismaClient';
import type { Order } from '../../generated/prisma/client';
import { DomainError, invalidRequest } from '../../domain/errors';
import { RiskLimitExceeded } from '../../domain/preTradeRisk';
import type { VenueCallOptions, VenueRegistry } from '../../venues/venue';
import type { IdempotencyPort } from '../idempotency/requestClaim';
import type { Scope } from '../scope';
import type { Logger } from '../../support/logger';
import { placeOrder, type PlaceOrderInput } from './orders';
import { MAX_ORDERS_PER_BATCH } from '../../../contract/inputBounds';

export { MAX_ORDERS_PER_BATCH };

/** One order's answer in a batch: the order, or its error in the envelope's shape (GraphQL names in `param`). */
export type BatchOutcome =
  | { order: Order; error: null }
  | { order: null; error: { code: string; message: string; param: string | null; limit: string | null } };

/**
 * Places up to MAX_ORDERS_PER_BATCH orders, in the order given, each exactly as POST /v1/orders
 * would (validation, the pre-trade checks, the venue): one after another, so that each order's
 * checks see the orders before it (the second sees the first's reservation). An order's refusal
 * is its own answer and does not stop the others.
 *
 * One Idempotency-Key covers the batch: each order's client order id, unless it gives its own, is
 * the key's reference and its position (`idem_….3`), so a retry of a batch whose answer was not
 * stored (an order's fate unknown at its venue) finds every order placed before by its id and
 * reconciles it, never placing one twice; a stored answer is replayed whole.
 */
export async function placeOrders(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  orders: readonly PlaceOrderInput[],
  logger: Logger,
  idempotency?: IdempotencyPort,
  call: VenueCallOptions = {},
): Promise<BatchOutcome[]> {
  if (orders.length === 0) throw invalidRequest('orders', 'A batch holds at least one order.');
  if (orders.length > MAX_ORDERS_PER_BATCH) throw invalidRequest('orders', `A batch holds at most ${MAX_ORDERS_PER_BATCH} orders; this one has ${orders.length}.`);
  const outcomes: BatchOutcome[] = [];
  for (const [index, input] of orders.entries()) {
    const origin = idempotency ? { idempotency: positionOf(idempotency, index) } : {};
    try {
      outcomes.push({ order: await placeOrder(db, venues, scope, input, origin, call), error: null });
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error({ err: error, batchIndex: index }, 'an order of a batch failed on our side');
      outcomes.push({ order: null, error: envelopeOf(error, idempotency) });
    }
  }
  return outcomes;
}

/**
 * An order's refusal in the envelope's shape. A failure of ours (not a DomainError) leaves the
 * order's fate unknown: `internal_error`, no detail, and the batch's answer is not stored, so that
 * a retry with the key finds the order by its id instead of replaying this.
 */
function envelopeOf(error: unknown, idempotency: IdempotencyPort | undefined): Extract<BatchOutcome, { order: null }>['error'] {
  if (error instanceof DomainError) {
    return { code: error.code, message: error.message, param: error.param ?? null, limit: error instanceof RiskLimitExceeded ? error.limit : null };
  }
  idempotency?.leaveAnswerUnstored();
  return { code: 'internal_error', message: 'This order failed on our side; it may or may not have been placed: read your orders, or retry the batch with the same Idempotency-Key.', param: null, limit: null };
}

/** The batch's key as one order sees it: its own reference (the key's and its position); its claim is the batch's. */
function positionOf(batch: IdempotencyPort, index: number): IdempotencyPort {
  return {
    apiKeyId: batch.apiKeyId,
    key: batch.key,
    reference: `${batch.reference}.${index}`,
    leaveAnswerUnstored: () => batch.leaveAnswerUnstored(),
  };
}
