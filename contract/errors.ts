/**
 * The one catalogue of the errors the API answers with: each code's HTTP status, what it means (the
 * OpenAPI document shows it), and who raises it. `core` codes leave the core (DomainError and its
 * masking) and the gateway passes them on; `gateway` codes only the gateway raises (its own parsing,
 * limits, and the core's absence); `both`, either. Adding an error code is adding one line here.
 * Ordered by status, as the OpenAPI document lists them.
 */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, raisedBy: 'both', description: 'A parameter or body field is missing or invalid; `param` names it.' },
  invalid_json: { status: 400, raisedBy: 'gateway', description: 'The body is not valid JSON.' },
  unauthorized: { status: 401, raisedBy: 'both', description: 'The API key is missing, malformed, unknown or revoked.' },
  forbidden: { status: 403, raisedBy: 'both', description: 'The credential is valid but not allowed to do this.' },
  not_found: { status: 404, raisedBy: 'both', description: 'No such route or resource (also for another workspace\u2019s ids).' },
  method_not_allowed: { status: 405, raisedBy: 'gateway', description: 'The path exists but not with this method; see `Allow`.' },
  idempotency_key_in_use: { status: 409, raisedBy: 'core', description: 'A request with this Idempotency-Key is still in flight.' },
  conflict: { status: 409, raisedBy: 'core', description: 'The resource is in a state that does not allow this.' },
  dead_mans_switch_fired: { status: 409, raisedBy: 'core', description: 'A dead-man\u2019s switch covering the subaccount has lapsed: its open orders were canceled and new orders are refused until it is re-armed (PUT /v1/dead_mans_switch) or disarmed (DELETE).' },
  events_expired: { status: 410, raisedBy: 'core', description: 'Events after the given event id (`after`, Last-Event-ID) are no longer kept (the event log\u2019s retention window, docs/events.md): re-read the resources you follow (GET /v1/orders, GET /v1/fills, \u2026), then follow from the newest event (a stream without Last-Event-ID).' },
  payload_too_large: { status: 413, raisedBy: 'gateway', description: 'The body is larger than the limit.' },
  unsupported_media_type: { status: 415, raisedBy: 'gateway', description: 'The body is not application/json.' },
  idempotency_key_reused: { status: 422, raisedBy: 'core', description: 'This Idempotency-Key was used with a different request.' },
  risk_limit_exceeded: { status: 422, raisedBy: 'core', description: 'A risk limit rejects the order; `limit` names it (kill_switch, max_order_notional, ...).' },
  insufficient_funds: { status: 422, raisedBy: 'core', description: 'The order may cost more than the cash not already reserved by open orders.' },
  insufficient_position: { status: 422, raisedBy: 'core', description: 'A sell of more contracts than are held and not already offered.' },
  market_not_tradable: { status: 422, raisedBy: 'core', description: 'The market is closed, settled or not on an allowed venue.' },
  no_executable_plan: { status: 422, raisedBy: 'core', description: 'No alternative of the requested strategy can execute (no liquidity within the limit, below the minimum size, ...); the message says why.' },
  rate_limited: { status: 429, raisedBy: 'both', description: 'A rate limit is exhausted: the key\u2019s, or the venue\u2019s for the subaccount\u2019s credential (nothing was sent to the venue); retry after `Retry-After` seconds.' },
  internal_error: { status: 500, raisedBy: 'both', description: 'An unexpected error; the request_id helps us find it.' },
  not_implemented: { status: 501, raisedBy: 'both', description: 'The route exists but is not available in this version yet.' },
  upstream_unavailable: { status: 502, raisedBy: 'gateway', description: 'The core service did not answer in time: a write may or may not have been carried out; retry it with the same Idempotency-Key.' },
  venue_error: { status: 502, raisedBy: 'core', description: 'The venue refused the request; its own code is in the message.' },
  venue_unavailable: { status: 503, raisedBy: 'core', description: 'The venue cannot be reached.' },
  service_unavailable: { status: 503, raisedBy: 'both', description: 'A store the service needs (its database, or the Redis that gateways share) is unavailable; retry after `Retry-After` seconds, a write with the same Idempotency-Key.' },
} as const satisfies Record<string, { status: number; raisedBy: 'core' | 'gateway' | 'both'; description: string }>;

type Catalogue = typeof ERROR_CATALOGUE;

/** Every code the API answers with. */
export type ErrorCode = keyof Catalogue;

/** The codes the core may raise: all but the gateway's own. */
export type CoreErrorCode = { [C in ErrorCode]: Catalogue[C]['raisedBy'] extends 'gateway' ? never : C }[ErrorCode];

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, code);

export const isCoreErrorCode = (code: unknown): code is CoreErrorCode =>
  isErrorCode(code) && ERROR_CATALOGUE[code].raisedBy !== 'gateway';

/** The HTTP status the API answers a code with. */
export const statusOf = (code: ErrorCode): number => ERROR_CATALOGUE[code].status;
