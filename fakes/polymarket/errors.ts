/**
 * Polymarket CLOB errors as the venue answers them: a JSON object with one `error` string, on
 * the HTTP status the venue uses. Sources: docs.polymarket.com "Error Codes"
 * (resources/error-codes, as crawled 2026-06-18) for the strings and statuses, and the client
 * (github.com/Polymarket/clob-client-v2 at f3e1a05, src/http-helpers/index.ts) which reads a
 * non-2xx body's `error` and returns `{error, status}`.
 *
 * `invalid signature` (400) for an order whose EIP-712 signature does not recover to its signer is
 * not on that page; it is the string clients report from the live venue (e.g. issue reports on
 * Polymarket/clob-client) and the one the fake uses.
 *
 * An order for a market whose trading has ended (closed, resolving or resolved) is not on that page
 * either: the venue answers 400 `the orderbook {id} does not exist`, as bots trading V2 report it
 * (a condition id "in the middle", e.g. the Polymarket-bot architecture notes indexed by our code
 * search, FX-007: "the canonical V2 SDK 400 body is `the orderbook {cid} does not exist`"). The fake
 * names the condition id; whether the venue names the condition or the token is not documented.
 * `GET /markets/{condition_id}`'s errors are the page's "Markets" section: 400 `Invalid market`,
 * 404 `market not found`.
 *
 * The batch routes' limits are the page's too (its `POST orders` and `DELETE orders` sections, and
 * the same strings in the CLOB OpenAPI's examples, `api-spec/clob-openapi.yaml`): `Too many orders
 * in payload: {N}, max allowed: 15` for `POST /orders` (N the batch's size) and `Too many orders in
 * payload, max allowed: 3000` for `DELETE /orders` (no count, a comma instead of the colon).
 */
export interface ClobAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Extra response headers (the rate limiter's `Poly-RateLimit-*`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
}

const error = (status: number, message: string): ClobAnswer => ({ status, body: { error: message } });

export const clobErrors = {
  /** Global: L2 headers missing, stale, or not matching the key (the venue does not say which). */
  unauthorized: () => error(401, 'Unauthorized/Invalid api key'),
  tooManyRequests: () => error(429, 'Too Many Requests'),
  serverError: (status: number) => error(status, status === 425 ? 'Too Early' : 'Internal server error'),
  notFound: () => error(404, 'Not Found'),

  invalidOrderPayload: () => error(400, 'Invalid order payload'),
  orderOwnerNotApiKeyOwner: () => error(400, 'the order owner has to be the owner of the API KEY'),
  signerNotApiKeyAddress: () => error(400, 'the order signer address has to be the address of the API KEY'),
  invalidSignature: () => error(400, 'invalid signature'),

  tickSize: (orderId: string, price: string, tick: string) => error(400, `order ${orderId} is invalid. Price (${price}) breaks minimum tick size rule: ${tick}`),
  minSize: (orderId: string, size: string, min: string) => error(400, `order ${orderId} is invalid. Size (${size}) lower than the minimum: ${min}`),
  duplicated: (orderId: string) => error(400, `order ${orderId} is invalid. Duplicated.`),
  postOnlyCrosses: () => error(400, 'invalid post-only order: order crosses book'),
  invalidExpiration: () => error(400, 'invalid expiration'),
  fokNotFilled: () => error(400, "order couldn't be fully filled. FOK orders are fully filled or killed."),
  fakNoMatch: () => error(400, 'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.'),

  /** `POST /orders` over its limit (the whole batch refused, nothing placed). */
  tooManyOrdersToPlace: (count: number, max: number) => error(400, `Too many orders in payload: ${count}, max allowed: ${max}`),
  /** `DELETE /orders` over its limit (nothing cancelled). */
  tooManyOrdersToCancel: (max: number) => error(400, `Too many orders in payload, max allowed: ${max}`),

  invalidOrderId: () => error(400, 'Invalid orderID'),
  invalidTokenId: () => error(400, 'Invalid token id'),
  noOrderbook: () => error(404, 'No orderbook exists for the requested token id'),
  marketNotFound: () => error(404, 'market not found'),
  invalidMarket: () => error(400, 'Invalid market'),
  /** An order for a market whose trading ended (closed, resolving or resolved). */
  orderbookDoesNotExist: (conditionId: string) => error(400, `the orderbook ${conditionId} does not exist`),
  invalidOrderParams: () => error(400, 'invalid order params payload'),
  invalidTradeParams: () => error(400, 'Invalid trade params payload'),
};
