import type { VenueErrorCode } from '../venue';

/**
 * Polymarket CLOB V2 error answers, read and mapped to our `VenueErrorCode`s. The venue answers an
 * error as a JSON object with one `error` string (the official client, github.com/Polymarket/
 * clob-client-v2 at f3e1a05, src/http-helpers/index.ts, reads `error`); a `POST /order` may also
 * answer 200 with `{success: false, errorMsg}` (src/types/clob.ts OrderResponse). There are no
 * codes: the strings are the contract. Sources: docs.polymarket.com "Error Codes"
 * (resources/error-codes) and the fake built from it (fakes/polymarket/errors.ts,
 * docs/polymarket-fake.md). A string not listed here is `venue_error` with the venue's words kept,
 * so nothing is silently reinterpreted.
 */

/** What a refusal means for an order we sent, beyond its `VenueErrorCode`. */
export type PolymarketRefusalKind =
  /** The same signed order (same hash) was already accepted: ours landed before. */
  | 'duplicated'
  /** A FOK that could not fill entirely, a FAK with nothing to match: an answer, no order kept. */
  | 'killed'
  | 'refused';

export interface PolymarketRefusal {
  readonly kind: PolymarketRefusalKind;
  readonly code: VenueErrorCode;
  /** A short stable name for the venue's string (our `venueCode`; Polymarket has none of its own). */
  readonly venueCode: string;
  /** The venue's own words, cut to 200 characters. */
  readonly message: string;
}

interface Rule {
  readonly test: RegExp;
  readonly kind: PolymarketRefusalKind;
  readonly code: VenueErrorCode;
  readonly venueCode: string;
}

const RULES: readonly Rule[] = [
  { test: /\. Duplicated\.?$/i, kind: 'duplicated', code: 'venue_error', venueCode: 'duplicated' },
  { test: /FOK orders are fully filled or killed/i, kind: 'killed', code: 'venue_error', venueCode: 'fok_not_filled' },
  { test: /FAK orders are partially filled or killed/i, kind: 'killed', code: 'venue_error', venueCode: 'fak_no_match' },
  { test: /breaks minimum tick size rule/i, kind: 'refused', code: 'invalid_request', venueCode: 'tick_size' },
  { test: /lower than the minimum/i, kind: 'refused', code: 'invalid_request', venueCode: 'min_size' },
  { test: /^invalid post-only order/i, kind: 'refused', code: 'invalid_request', venueCode: 'post_only_crosses' },
  { test: /^invalid expiration/i, kind: 'refused', code: 'invalid_request', venueCode: 'invalid_expiration' },
  { test: /^Invalid order payload/i, kind: 'refused', code: 'invalid_request', venueCode: 'invalid_order_payload' },
  { test: /invalid amounts/i, kind: 'refused', code: 'invalid_request', venueCode: 'invalid_amounts' },
  { test: /not enough balance/i, kind: 'refused', code: 'insufficient_funds', venueCode: 'not_enough_balance' },
  { test: /^Invalid orderID/i, kind: 'refused', code: 'order_not_found', venueCode: 'invalid_order_id' },
  { test: /^(market not found|No orderbook exists)/i, kind: 'refused', code: 'market_not_tradable', venueCode: 'market_not_found' },
  { test: /^Invalid token id/i, kind: 'refused', code: 'market_not_tradable', venueCode: 'invalid_token_id' },
  { test: /(closed only mode|market is not yet ready|trading is currently disabled|cancel-only)/i, kind: 'refused', code: 'market_not_tradable', venueCode: 'not_accepting_orders' },
  // An order for a market whose trading ended (closed, resolving or resolved); reported by clients, not in the docs (docs/polymarket-fake.md).
  { test: /^the orderbook \S+ does not exist/i, kind: 'refused', code: 'market_not_tradable', venueCode: 'orderbook_closed' },
  // Our credential does not match what the venue holds: never the order's fault, and nothing to retry.
  { test: /^Unauthorized/i, kind: 'refused', code: 'venue_error', venueCode: 'unauthorized' },
  { test: /has to be the owner of the API KEY/i, kind: 'refused', code: 'venue_error', venueCode: 'owner_mismatch' },
  { test: /has to be the address of the API KEY/i, kind: 'refused', code: 'venue_error', venueCode: 'signer_mismatch' },
  { test: /^invalid signature/i, kind: 'refused', code: 'venue_error', venueCode: 'invalid_signature' },
];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : undefined);

/** The venue's error string from an error answer (`{error}`; a heartbeat's `{error_msg}`), or from a 200 `{success: false, errorMsg}`. */
export function polymarketErrorText(status: number, body: unknown): string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return text(record.error) ?? text(record.errorMsg) ?? text(record.error_msg) ?? text(record.message) ?? (typeof body === 'string' ? text(body) : undefined) ?? `HTTP ${status}`;
}

/** Our reading of a refusal (an answer with a 4xx status, or `success: false`). */
export function readPolymarketRefusal(status: number, body: unknown): PolymarketRefusal {
  const message = polymarketErrorText(status, body);
  const rule = RULES.find((candidate) => candidate.test.test(message));
  if (rule) return { kind: rule.kind, code: rule.code, venueCode: rule.venueCode, message };
  // 425 Too Early: the matching engine is restarting (about 90 s, docs.polymarket.com "Matching
  // Engine Restarts"); nothing was processed, try again with backoff.
  if (status === 425) return { kind: 'refused', code: 'venue_unavailable', venueCode: 'engine_restarting', message };
  if (status === 404) return { kind: 'refused', code: 'order_not_found', venueCode: 'not_found', message };
  return { kind: 'refused', code: 'venue_error', venueCode: `http_${status}`, message };
}

/** The sentence our callers see for a refusal: the venue's words, named as such. */
export function describeRefusal(refusal: PolymarketRefusal): string {
  return `Polymarket refused the request (${refusal.venueCode}): ${refusal.message}`;
}

/** Polymarket sends no Retry-After on its 429s (Cloudflare throttling mostly delays instead): try again after a second. */
export const POLYMARKET_429_RETRY_AFTER_MS = 1000;

/** A 425 (the matching engine restarting) names no time either: the venue says to start backing off at 1 to 2 s. */
export const POLYMARKET_425_RETRY_AFTER_MS = 2000;
