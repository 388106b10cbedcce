/**
 * Refusals of the simulated venues, in our codes (`VenueErrorCode`) with each venue's own code in
 * `venueCode`, spelled the way the real venue spells it: Kalshi's snake_case error codes
 * (`invalid_order`), Polymarket's CLOB `errorMsg` values (`INVALID_ORDER_MIN_TICK_SIZE`).
 */
import type { ValidationCode } from '../../domain/venueRules';
import type { VenueErrorCode } from '../venue';

export interface VenueRejection {
  readonly outcome: 'rejected';
  readonly code: VenueErrorCode;
  readonly venueCode: string;
  readonly message: string;
  /** The field of the order refused, in our GraphQL names. */
  readonly param?: string;
}

/** Thrown by calls whose result type has no room for a refusal (orderBook, restoreRestingOrders). */
export class SimVenueError extends Error {
  constructor(
    readonly code: VenueErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SimVenueError';
  }
}

function rejection(code: VenueErrorCode, venueCode: string, message: string): VenueRejection {
  return { outcome: 'rejected', code, venueCode, message };
}

/** A malformed order: bad tick, size, price range, or a field the venue does not accept. */
export function invalidOrder(venue: string, reason: ValidationCode | 'invalid_field', message: string): VenueRejection {
  if (venue === 'sim-kalshi') return rejection('invalid_request', 'invalid_order', message);
  const venueCode =
    reason === 'off_tick' ? 'INVALID_ORDER_MIN_TICK_SIZE' : reason === 'below_min_size' ? 'INVALID_ORDER_MIN_SIZE' : 'INVALID_ORDER_ERROR';
  return rejection('invalid_request', venueCode, message);
}

export function marketNotTradable(venue: string, venueMarketId: string): VenueRejection {
  const venueCode = venue === 'sim-kalshi' ? 'market_not_found' : 'MARKET_NOT_READY';
  return rejection('market_not_tradable', venueCode, `market ${venueMarketId} is not listed on ${venue}`);
}

export function orderNotFound(venue: string, message: string): VenueRejection {
  return rejection('order_not_found', venue === 'sim-kalshi' ? 'not_found' : 'ORDER_NOT_FOUND', message);
}

/** An internal refusal that should not happen (the book disagreed with the venue's own checks). */
export function venueError(venue: string, message: string): VenueRejection {
  return rejection('venue_error', venue === 'sim-kalshi' ? 'internal_server_error' : 'INTERNAL_ERROR', message);
}

/**
 * A post-only order that would trade on arrival, refused and not placed, as each venue refuses it:
 * Kalshi 400 `invalid_order` "post only cross" (recorded on demo), Polymarket "invalid post-only
 * order: order crosses book".
 */
export function postOnlyCrosses(venue: string): VenueRejection {
  const refused = venue === 'sim-kalshi'
    ? rejection('invalid_request', 'invalid_order', 'post only cross')
    : rejection('invalid_request', 'INVALID_POST_ONLY_ORDER', 'invalid post-only order: order crosses book');
  return { ...refused, param: 'postOnly' };
}
