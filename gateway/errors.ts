/**
 * Every error the API answers with: a stable code, its HTTP status, a message safe to show, and
 * where useful the offending parameter. One middleware (middleware/errorEnvelope.ts) writes them.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, description: 'A parameter or body field is missing or invalid; `param` names it.' },
  invalid_json: { status: 400, description: 'The body is not valid JSON.' },
  unauthorized: { status: 401, description: 'The API key is missing, malformed, unknown or revoked.' },
  forbidden: { status: 403, description: 'The credential is valid but not allowed to do this.' },
  not_found: { status: 404, description: 'No such route or resource (also for another workspace\u2019s ids).' },
  method_not_allowed: { status: 405, description: 'The path exists but not with this method; see `Allow`.' },
  idempotency_key_in_use: { status: 409, description: 'A request with this Idempotency-Key is still in flight.' },
  conflict: { status: 409, description: 'The resource is in a state that does not allow this.' },
  payload_too_large: { status: 413, description: 'The body is larger than the limit.' },
  unsupported_media_type: { status: 415, description: 'The body is not application/json.' },
  idempotency_key_reused: { status: 422, description: 'This Idempotency-Key was used with a different request.' },
  risk_limit_exceeded: { status: 422, description: 'A risk limit rejects the order; `limit` names it (kill_switch, max_order_notional, ...).' },
  insufficient_funds: { status: 422, description: 'The order may cost more than the cash not already reserved by open orders.' },
  insufficient_position: { status: 422, description: 'A sell of more contracts than are held and not already offered.' },
  market_not_tradable: { status: 422, description: 'The market is closed, settled or not on an allowed venue.' },
  no_executable_plan: { status: 422, description: 'No alternative of the requested strategy can execute (no liquidity within the limit, below the minimum size, ...); the message says why.' },
  rate_limited: { status: 429, description: 'The key\u2019s rate limit is exhausted; retry after `Retry-After` seconds.' },
  internal_error: { status: 500, description: 'An unexpected error; the request_id helps us find it.' },
  not_implemented: { status: 501, description: 'The route exists but is not available in this version yet.' },
  upstream_unavailable: { status: 502, description: 'The core service did not answer in time.' },
  venue_error: { status: 502, description: 'The venue refused the request; its own code is in the message.' },
  venue_unavailable: { status: 503, description: 'The venue cannot be reached.' },
} as const;

export type ApiErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: { param?: string; limit?: string; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.status = extra.status ?? ERROR_CODES[code].status;
  }
}

export const isApiErrorCode = (code: unknown): code is ApiErrorCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, code);

export const unauthorized = () => new ApiError('unauthorized', 'The API key is missing or invalid.');
export const upstreamUnavailable = () =>
  new ApiError('upstream_unavailable', 'The core service is unavailable; the request was not completed. Retry later.');
