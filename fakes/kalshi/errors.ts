/**
 * Kalshi's error bodies as they are on the wire (Trade API v2, June 2026).
 *
 * Sources: operator-recorded demo captures in XavierBriggs/Fortuna `fixtures/kalshi/`
 * (2026-06-11) and the Create Order (V2) docs page (openapi.yaml 3.26.0).
 * VENUES.md and the OpenAPI ErrorResponse schema say `{code, message, details}` flat;
 * the only recorded bodies (the wire) wrap almost every 4xx in `{"error": {code,
 * message, details?, service?}}`. For the shape of a body the fake follows the wire:
 * nested for auth and exchange errors, flat `{code, message, details}` only for a body
 * that does not decode
 * (captured `bad_request`), and the bare `{"msg": ...}` of parameter validation
 * (captured for `limit=1001`). 429 is `{"error":"too many requests"}` with no
 * Retry-After (VENUES.md, docs "Rate Limits").
 */
export interface KalshiError {
  readonly status: number;
  readonly body: unknown;
}

export function nestedError(
  status: number,
  code: string,
  message: string,
  extra: { details?: string; service?: string } = {},
): KalshiError {
  return { status, body: { error: { code, message, ...extra } } };
}

export const errors = {
  // 401s, captured verbatim (auth__*.json).
  badSignature: () => nestedError(401, 'authentication_error', 'authentication_error', { details: 'INCORRECT_API_KEY_SIGNATURE' }),
  unknownKeyId: () => nestedError(401, 'authentication_error', 'authentication_error', { details: 'NOT_FOUND' }),
  signatureMissing: () => nestedError(401, 'signature_is_missing_from_headers', 'signature is missing from headers'),
  timestampExpired: () => nestedError(401, 'header_timestamp_expired', 'header timestamp expired'),
  // Not captured: a request without KALSHI-ACCESS-KEY or KALSHI-ACCESS-TIMESTAMP. Assumed to be
  // the generic authentication_error with a details string naming the header.
  headerMissing: (header: string) =>
    nestedError(401, 'authentication_error', 'authentication_error', { details: `${header} header is missing` }),
  // Exchange errors, captured verbatim (orders__*.json).
  orderAlreadyExists: () => nestedError(409, 'order_already_exists', 'order already exists', { service: 'exchange' }),
  notFound: () => nestedError(404, 'not_found', 'not found', { service: 'exchange' }),
  invalidPrice: () => nestedError(400, 'invalid_price', 'invalid price', { service: 'exchange' }),
  insufficientBalance: () => nestedError(400, 'insufficient_balance', 'insufficient balance', { service: 'exchange' }),
  // A fill_or_kill that cannot fill entirely is refused with 409 and no order (reported
  // verbatim by several clients, 2026-05 to 2026-08). Note: a 409 is not always "already exists".
  fillOrKillInsufficientVolume: () =>
    nestedError(409, 'fill_or_kill_insufficient_resting_volume', 'fill or kill insufficient resting volume'),
  invalidOrder: (details: string) => nestedError(400, 'invalid_order', 'invalid order', { details }),
  // Assumed (not recorded), as createOrderBody.ts answers a missing required field.
  missingParameters: (details: string) => nestedError(400, 'missing_parameters', 'missing parameters', { details }),
  // Assumed: a request that decodes but breaks a documented rule of the whole call (decrease with
  // both or neither of reduce_by / reduce_to, a batch over the tier's size). The code is one of
  // Kalshi's (listed in the docs' RFQ error table); its use here is not recorded.
  invalidParameters: (details: string) => nestedError(400, 'invalid_parameters', 'invalid parameters', { details }),
  // Seen in client code handling create-order errors; body shape assumed like the others.
  marketNotFound: () => nestedError(404, 'market_not_found', 'market not found', { service: 'exchange' }),
  // The V1 order writes after the June 2026 cut-over: HTTP 410, code deprecated_v1_order_endpoint,
  // "Please switch to the V2 endpoints" (reported by several clients hitting production, 2026-06-21
  // to 2026-09-04). The nesting and the details link are assumed like the other nested errors.
  deprecatedV1: () =>
    nestedError(410, 'deprecated_v1_order_endpoint', 'Please switch to the V2 endpoints', {
      details: 'https://docs.kalshi.com/api-reference/orders/create-order-v2',
    }),
  // Flat shape, captured for a body that does not decode (orders__numeric_field_types.json).
  badRequest: (details: string): KalshiError => ({ status: 400, body: { code: 'bad_request', message: 'bad request', details } }),
  // Bare shape, captured for parameter validation (markets__limit_over_max.json).
  parameterValidation: (msg: string): KalshiError => ({ status: 400, body: { msg } }),
  // Not captured: routes the fake does not know. Assumed nested not_found.
  routeNotFound: () => nestedError(404, 'not_found', 'not found'),
  // Not captured: an injected 5xx. Assumed nested.
  internal: (status: number) => nestedError(status, 'internal_server_error', 'internal server error'),
  tooManyRequests: (): KalshiError => ({ status: 429, body: { error: 'too many requests' } }),
};
