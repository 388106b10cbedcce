import { DomainError, RateLimited, retryAfterSeconds, type ErrorCode } from '../../domain/errors';

/**
 * Kalshi's error answers (Trade API v2, as of 2026-08) read and mapped to our codes
 * (contract/errors.ts), keeping the venue's own code in the message.
 *
 * Shapes, from docs.kalshi.com "Order Errors" (getting_started/order_errors) and the demo
 * captures the fake is built from (docs/kalshi-fake.md): usually nested
 * `{"error":{code,message,details?,service?}}`; a body the API cannot decode answers a flat
 * `{code,message,details}` (`bad_request`); parameter validation answers `{"msg": ...}`; a 429 is
 * `{"error":"too many requests"}`. Kalshi says: switch on `code` (read `error.code`, fall back to a
 * top-level `code`); one status can carry several codes (409 is `order_already_exists` or
 * `fill_or_kill_insufficient_resting_volume`).
 *
 * The mapping covers the codes documented or recorded there; any other code is `venue_error`
 * (502) with the code in the message, so nothing is silently reinterpreted.
 */
export interface KalshiErrorBody {
  /** Kalshi's `code`, or `http_<status>` when the body carries none. */
  readonly code: string;
  readonly message: string;
  readonly details?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value.slice(0, 200) : undefined);

/** Kalshi's code, message and details from an error answer, whatever its shape. */
export function readKalshiError(status: number, body: unknown): KalshiErrorBody {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const nested = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : undefined;
  if (nested !== undefined) {
    return { code: text(nested.code) ?? `http_${status}`, message: text(nested.message) ?? '', details: text(nested.details) };
  }
  if (text(record.code) !== undefined) return { code: text(record.code)!, message: text(record.message) ?? '', details: text(record.details) };
  if (status === 429) return { code: 'too_many_requests', message: text(record.error) ?? 'too many requests' };
  return { code: `http_${status}`, message: text(record.error) ?? text(record.msg) ?? text(record.message) ?? '' };
}

/**
 * Our code for a Kalshi code. Sources: the "Order Errors" page and the recorded bodies
 * (docs/kalshi-fake.md, fakes/kalshi/errors.ts).
 */
const CODE_MAP: Readonly<Record<string, ErrorCode>> = {
  // 409: the client_order_id was used before; the first order with it exists.
  order_already_exists: 'conflict',
  // 400 on create: the account cannot pay for the order.
  insufficient_balance: 'insufficient_funds',
  // 404 on create: no such market at the venue.
  market_not_found: 'market_not_tradable',
  // 409 on create (and cancel) once the market is past its close: docs "Market Lifecycle" name it
  // MARKET_INACTIVE; the recorded body's code is market_closed (docs/kalshi-fake.md).
  market_closed: 'market_not_tradable',
  // 404 on cancel or one-order reads: no such order, or it is already canceled or executed.
  not_found: 'not_found',
};

function describe(venue: KalshiErrorBody): string {
  const details = venue.details === undefined ? '' : ` (${venue.details})`;
  const message = venue.message === '' || venue.message === venue.code ? '' : `: ${venue.message}`;
  return `Kalshi refused the request with code '${venue.code}'${details}${message}.`;
}

/** Kalshi refills its buckets every second: a 429 we stopped retrying is worth trying again after one. */
export const KALSHI_429_RETRY_AFTER_MS = 1000;

/** Our rate_limited error for this credential's Kalshi rate limit; nothing was sent, so it may be retried after `retryAfterMs`. */
export function rateLimited(what: string, retryAfterMs: number): RateLimited {
  const seconds = retryAfterSeconds(retryAfterMs);
  return new RateLimited(`Kalshi's rate limit for this subaccount's credential: ${what}. Retry after ${seconds} s.`, seconds);
}

/** The DomainError for a Kalshi refusal (an answer with an error status). */
export function kalshiRefusalError(status: number, venue: KalshiErrorBody): DomainError {
  if (status === 429) return rateLimited(`Kalshi answered 429 '${venue.code}' and our backoff ran out`, KALSHI_429_RETRY_AFTER_MS);
  if (status >= 500) return new DomainError('venue_unavailable', `Kalshi answered ${status} '${venue.code}'.`);
  return new DomainError(CODE_MAP[venue.code] ?? 'venue_error', describe(venue));
}
