import { z } from 'zod';
import { DECIMAL_PATTERN, fitsStorage, isDecimalString, isStorableDecimalString, STORAGE_RULE, STORAGE_SCALE } from '../core/domain/decimals';
import { normalizeEmail } from '../core/domain/emails';
import { DATE_RULE, INSTANT_RULE, isStorableInstant } from '../core/domain/instants';
import { MAX_LIMIT } from '../core/domain/pagination';
import { MAX_COUNT_LIMIT } from '../core/domain/riskLimits';
import { MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from '../core/domain/deadMansSwitch';
import { DEFAULT_PREVIOUS_SECRET_SECONDS, MAX_PREVIOUS_SECRET_SECONDS } from '../core/domain/webhooks';
import { venueName, type VenueColumn } from '../core/domain/venues';
import type { ApiErrorCode } from './errors';
import { graphqlEnum } from './graphqlEnums';

/**
 * The REST API, one row per route: method, path, the persisted GraphQL operation it runs, and how
 * the request maps to the operation's variables (path and query parameters by name, camelCased;
 * the body as one variable or spread). Adding an endpoint is adding a row and a .graphql document.
 * The same rows generate the OpenAPI document.
 */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  operation: string;
  tag: string;
  summary: string;
  description?: string;
  /**
   * The credential the route takes: an API key, or the dashboard (its session cookie, or a
   * dashboard token; read-only ones only read). `session` lets the dashboard's session call an API-key route too
   * (docs/dashboard.md): reads, risk settings, cancels; never order placement.
   * The dashboard's own session routes take `none` (no credential: signing in, reading the cookie's
   * session) or `session` (the live session of the cookie, with its CSRF token on changes). Both
   * run the gateway's internal operations, with the SHA-256 of the cookie as `tokenHash`.
   */
  auth: 'api_key' | 'dashboard' | 'none' | 'session';
  session?: boolean;
  /** The SHA-256 of the session cookie is the variable `tokenHash` (no cookie: 401). */
  sessionToken?: boolean;
  /** The limits on guessing a password (SIGN_IN_ATTEMPTS_PER_MINUTE each), per client address, email or user. */
  signInLimits?: SignInLimit[];
  /** A null answer is 401 unauthorized with this message. */
  nullIsUnauthorized?: string;
  /**
   * The session cookie: `set` from the answer's `token` (the answer's `session` is then the body),
   * or `clear` once the operation has run.
   */
  sessionCookie?: 'set' | 'clear';
  /** The body is these fields, and the answer (a scalar) as `field` when given: `{ signed_out: true, sessions_ended: 2 }`. */
  answerAs?: { constants: Record<string, true>; field?: string };
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /** The variable that receives the body; without it the body's fields are variables themselves. */
  bodyVariable?: string;
  /** The body's field names are the venue's own and reach the core as they are (not camelCased). */
  bodyVerbatim?: boolean;
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  /**
   * Answers as Server-Sent Events (gateway/eventStreams.ts): the operation's items, each as one
   * event, from the query's `after` or the Last-Event-ID header on, kept open.
   */
  stream?: boolean;
  /** The answer is a page of events: each item's object becomes its `data` (contract/eventShape.ts). */
  events?: boolean;
  /**
   * Catalog data: the answer depends only on the environment and the request, the same for every
   * workspace and key, so the gateway may serve it from its short-lived cache (CATALOG_CACHE_MS).
   */
  catalog?: boolean;
  /**
   * Errors this route's operation answers with; the OpenAPI document adds those every route can and
   * those of what the route takes (a credential, path and filter ids, Idempotency-Key): errorCodesOf.
   */
  errors: ApiErrorCode[];
}

export type SignInLimit = 'address' | 'email' | 'user';

/** The 401 of a request without a live dashboard session. */
export const SIGNED_OUT = 'Sign in first: the session is missing, has ended or has expired.';

const id = (prefix: string) => z.string().min(1).max(64).describe(`An id starting with \`${prefix}_\`.`);
/**
 * Decimal inputs by sign, as the server takes them: the gateway checks the shape and the storage
 * scale (names the field), and the JSON schema's pattern says both, and the sign, in one regular
 * expression (the fraction: at most 6 significant places, trailing zeros beyond them allowed).
 */
const FRACTION = '(\\.\\d{1,6}0{0,12})?';
export const DECIMAL_PATTERNS = {
  nonNegative: `^\\d{1,18}${FRACTION}$`,
  positive: `^(?=[\\d.]*[1-9])\\d{1,18}${FRACTION}$`,
  /** A price in dollars per contract: greater than 0 and less than 1. */
  price: `^0{1,18}\\.(?=\\d*[1-9])\\d{1,6}0{0,12}$`,
  /** A complex order's worst price: as a price, on the planner's grid of 4 decimal places. */
  limitPrice: `^0{1,18}\\.(?=\\d*[1-9])\\d{1,4}0{0,14}$`,
  /** A test subaccount's starting cash: below one trillion, so that trading profits can never push cash past its column. */
  balance: `^\\d{1,12}${FRACTION}$`,
} as const;
type DecimalSign = keyof typeof DECIMAL_PATTERNS;
const SIGN_RULE: Record<DecimalSign, string> = {
  nonNegative: 'must be at least 0',
  positive: 'must be greater than 0',
  price: 'must be greater than 0 and less than 1',
  limitPrice: 'must be greater than 0 and less than 1, at most 4 decimal places',
  balance: 'must be at least 0 and below 1,000,000,000,000',
};
const decimalOf = (sign: DecimalSign) =>
  z
    .string()
    .regex(DECIMAL_PATTERN, 'must be a decimal string such as "0.43"')
    .refine((value) => !isDecimalString(value) || fitsStorage(value), STORAGE_RULE)
    .refine((value) => !isStorableDecimalString(value) || new RegExp(DECIMAL_PATTERNS[sign]).test(value), SIGN_RULE[sign])
    .meta({ format: 'decimal', pattern: DECIMAL_PATTERNS[sign] })
    .describe(`A decimal number as a string, stored exactly: at most ${STORAGE_SCALE} decimal places; ${SIGN_RULE[sign].replace('must be ', '')}.`);
const decimal = decimalOf('nonNegative');
const positive = decimalOf('positive');
const price = decimalOf('price');
const limitPrice = decimalOf('limitPrice');
const balance = decimalOf('balance');
const timestamp = z.iso
  .datetime({ offset: true })
  .refine((value) => isStorableInstant(new Date(value)), INSTANT_RULE)
  .describe('RFC 3339, e.g. 2026-11-22T10:00:00Z; from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once in UTC.');
const day = (description: string) =>
  z.iso
    .date()
    .refine((value) => isStorableInstant(new Date(`${value}T00:00:00Z`)), DATE_RULE)
    .describe(`${description} From 0001-01-01 to 9999-12-31.`);
/** Counts a risk limit holds (open orders, orders a minute): what the core's Int and the int4 column store. */
const count = z.number().int().min(0).max(MAX_COUNT_LIMIT);
const limit = z
  .string()
  .regex(/^\d{1,4}$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_LIMIT))
  .describe(`Page size, 1 to ${MAX_LIMIT}; 50 when left out.`)
  // What a client sends is an integer; the query string carries it as digits.
  .meta({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, pattern: undefined });
const page = { limit: limit.optional(), cursor: z.string().max(512).optional().describe('The next_cursor of the previous page.') };
/** The creation window of a list: since inclusive, until exclusive; since later than until is refused (400, param since). */
const createdWindow = {
  since: timestamp.optional().describe('Created at or after (inclusive). Not later than until (else 400, param since).'),
  until: timestamp.optional().describe('Created before (exclusive).'),
};
const eventTypes = z
  .string()
  .max(2000)
  .transform((value) => value.split(','))
  .describe('Comma-separated event types, each exact (order.filled) or every type of an object (order.*); docs/events.md lists them.');
const eventId = z.string().max(64).describe('An event id (evt_ and 26 digits).');
const eventFilter = {
  types: eventTypes.optional(),
  subaccount_id: id('sa').optional(),
};
const exchange = z.enum(['kalshi', 'polymarket']);
// Allowed values from the GraphQL schema's enums; venues are spelled sim-kalshi in REST, sim_kalshi in GraphQL.
const venue = graphqlEnum('Venue', (name) => venueName(name as VenueColumn));
const strategy = graphqlEnum('ExecutionStrategy');

const riskLimitsBody = z.strictObject({
  max_order_notional: decimal.nullable().optional().describe('Dollars per order; null removes the limit.'),
  max_position_per_market: decimal.nullable().optional().describe('Contracts per market and side.'),
  max_gross_exposure: decimal.nullable().optional().describe('Dollars across all positions and open orders.'),
  max_daily_realized_loss: decimal.nullable().optional().describe('Dollars per UTC day.'),
  max_open_orders: count.nullable().optional().describe(`Orders working at once, 0 to ${MAX_COUNT_LIMIT}; null removes the limit.`),
  max_orders_per_minute: count.nullable().optional().describe(`Orders placed in any 60 seconds, 0 to ${MAX_COUNT_LIMIT}; null removes the limit.`),
});

const placeOrderBody = z.strictObject({
  subaccount_id: id('sa'),
  market_id: id('mkt'),
  side: z.enum(['yes', 'no']),
  action: z.enum(['buy', 'sell']),
  type: z.enum(['limit', 'market']),
  price: price.optional().describe('Dollars per contract, 0 < price < 1, on the venue tick. Required for limit orders.'),
  quantity: positive.describe('Contracts, greater than 0.'),
  time_in_force: z.enum(['gtc', 'ioc', 'fok']).optional(),
  client_order_id: z.string().min(1).max(64).optional(),
});

const complexOrderBody = z.strictObject({
  subaccount_id: id('sa'),
  market_id: id('mkt'),
  side: z.enum(['yes', 'no']),
  action: z.enum(['buy', 'sell']),
  quantity: positive.describe('Contracts, greater than 0.'),
  strategy,
  limit_price: limitPrice.optional().describe('Worst acceptable price in the side’s own terms.'),
  duration_seconds: z.number().int().positive().max(86_400).optional().describe('twap: the time the slices are spread over (required for twap).'),
  slices: z.number().int().min(1).max(1000).optional().describe('twap: how many slices; one a minute when left out.'),
  venues: z.array(venue).min(1).optional().describe('The venues the order may use; every venue listing the question when left out.'),
});

export const ROUTES: Route[] = [
  {
    method: 'POST', path: '/v1/orders', operation: 'PlaceOrder', tag: 'Orders', summary: 'Place order',
    description: 'Safe to retry with the same Idempotency-Key: the first result is replayed and nothing is placed twice.',
    auth: 'api_key', body: placeOrderBody, bodyVariable: 'input', idempotent: true,
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'not_found', 'conflict', 'dead_mans_switch_fired', 'idempotency_key_in_use', 'idempotency_key_reused', 'risk_limit_exceeded', 'insufficient_funds', 'insufficient_position', 'market_not_tradable', 'venue_error', 'venue_unavailable'],
  },
  {
    method: 'GET', path: '/v1/orders', operation: 'ListOrders', tag: 'Orders', summary: 'List orders',
    description: 'Newest first. status is an order status, or working (pending, open, partially_filled, unknown).',
    auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(), market_id: id('mkt').optional(),
      status: graphqlEnum('OrderStatusFilter').optional(),
      ...createdWindow, ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/orders/{id}', operation: 'GetOrder', tag: 'Orders', summary: 'Get order',
    description: 'A resting order carries its queue_position at the venue.',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('ord') }), errors: ['not_found'],
  },
  {
    method: 'DELETE', path: '/v1/orders/{id}', operation: 'CancelOrder', tag: 'Orders', summary: 'Cancel order',
    description: 'Cancels the unfilled remainder at the venue; 409 when the order is already final.',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('ord') }), errors: ['not_found', 'conflict', 'venue_error', 'venue_unavailable'],
  },
  {
    method: 'GET', path: '/v1/positions', operation: 'ListPositions', tag: 'Positions', summary: 'List positions',
    description: 'Open positions per subaccount, market and side (in that order, paged), with average cost, realized and unrealized P&L (marked to the venue mid).',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), ...page }),
    errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/portfolio', operation: 'GetPortfolio', tag: 'Portfolio', summary: 'Get balances and exposure',
    description: 'Per subaccount: cash, cash reserved by open buys, positions at cost and marked, realized and unrealized P&L, gross exposure, equity.',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional() }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'PUT', path: '/v1/risk/kill_switch', operation: 'SetKillSwitch', tag: 'Risk', summary: 'Turn the workspace kill switch on or off',
    description: 'While on, every new order of the workspace (test and live) is rejected with risk_limit_exceeded, limit kill_switch.',
    auth: 'api_key', session: true, body: z.strictObject({ enabled: z.boolean() }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type'],
  },
  ...deadMansSwitchRoutes(),
  {
    method: 'POST', path: '/v1/complex_orders', operation: 'PlaceComplexOrder', tag: 'Complex Orders', summary: 'Place complex order',
    description: 'Plans the parent order on the current books exactly as the preview does and executes the recommended alternative: every child is an order placed through the same path as POST /v1/orders, with the pre-trade risk checks when it is sent (a refused child is recorded as rejected with reject_code; the others go on). TWAP slices are sent on schedule by the core, surviving restarts. Safe to retry with the same Idempotency-Key. See docs/complex-orders.md.',
    auth: 'api_key', body: complexOrderBody, bodyVariable: 'input', idempotent: true,
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'not_found', 'dead_mans_switch_fired', 'idempotency_key_in_use', 'idempotency_key_reused', 'market_not_tradable', 'no_executable_plan'],
  },
  {
    method: 'GET', path: '/v1/complex_orders', operation: 'ListComplexOrders', tag: 'Complex Orders', summary: 'List complex orders',
    description: 'Newest first, with filled quantity, average fill price and fees over every child.',
    auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(), market_id: id('mkt').optional(),
      status: graphqlEnum('ComplexOrderStatus').optional(),
      strategy: strategy.optional(),
      ...createdWindow, ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'POST', path: '/v1/complex_orders/preview', operation: 'PreviewComplexOrder', tag: 'Complex Orders',
    summary: 'Preview order impact and recommended plan',
    description: 'Reads the current books of every eligible venue listing the question and returns the predicted impact (average price, slippage in bps against the arrival mid, fees, expected fill, worst price) and a recommended plan of child orders, with the alternatives compared and the reason. `risk` runs the subaccount\'s pre-trade checks over the children, in sequence as placement sends them (each sees the earlier ones\' reservations): `risk.passes` is false when a check would refuse a child of the recommended alternative, and `risk.refusals` names each such child (`child`: its index in `plan.recommended.children`, with venue, price and quantity), the `code` its order would be rejected with and the `limit` (kill_switch, max_order_notional, max_open_orders, ...; null for insufficient_funds, insufficient_position, dead_mans_switch_fired); `risk.alternatives` does the same for every alternative. `feasible` on the alternatives stays the books\' verdict: a placement executes the recommended alternative, and refused children end rejected. Reads only: nothing is reserved or recorded. See docs/complex-orders.md and docs/execution-planning.md.',
    auth: 'api_key', body: complexOrderBody, bodyVariable: 'input',
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found', 'market_not_tradable'],
  },
  {
    method: 'GET', path: '/v1/complex_orders/{id}', operation: 'GetComplexOrder', tag: 'Complex Orders', summary: 'Get complex order',
    description: 'With the plan it was placed with (recommended alternative, alternatives compared, reason).',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('cxo') }), errors: ['not_found'],
  },
  {
    method: 'DELETE', path: '/v1/complex_orders/{id}', operation: 'CancelComplexOrder', tag: 'Complex Orders', summary: 'Cancel complex order',
    description: 'Unsent children are canceled, resting children are canceled at their venues; what filled stays filled. 409 when the complex order is already final.',
    auth: 'api_key', params: z.strictObject({ id: id('cxo') }), errors: ['not_found', 'conflict', 'venue_unavailable'],
  },
  {
    method: 'GET', path: '/v1/complex_orders/{id}/children', operation: 'ListComplexOrderChildren', tag: 'Complex Orders',
    summary: "List a complex order's child orders and queue positions",
    description: 'Every child in plan order, each with the order it was sent as (fills so far, and its queue_position at the venue while it rests).',
    auth: 'api_key', params: z.strictObject({ id: id('cxo') }), errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/complex_orders/{id}/execution_report', operation: 'GetExecutionReport', tag: 'Complex Orders',
    summary: 'Get complex order execution quality (TCA)',
    description: 'Arrival price, average execution price, implementation shortfall in dollars and bps split into delay, market impact, fees and opportunity cost, slippage against the prediction, fill rate, duration and a per-venue breakdown. Formulas: docs/tca.md.',
    auth: 'api_key', params: z.strictObject({ id: id('cxo') }), errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/analytics/execution', operation: 'ListExecutionAnalytics', tag: 'Analytics',
    summary: 'List execution analytics (predicted vs realized)',
    description: 'Over the final complex orders created in [from, to): to is now and from 30 days before to by default; from must be earlier than to and the range at most 366 days (else 400, param from). The error of the predicted average price in bps (mean, p50, p90) and predicted vs realized fill rates, overall and by venue, strategy and market. See docs/execution-analytics.md.',
    auth: 'api_key',
    query: z.strictObject({
      from: timestamp.optional(), to: timestamp.optional(), subaccount_id: id('sa').optional(),
      strategy: strategy.optional(), venue: venue.optional(), market_id: id('mkt').optional(),
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/risk/pnl_history', operation: 'GetPnlHistory', tag: 'Risk', summary: 'Get daily realized P&L history',
    description: 'Realized P&L (fees included) per UTC day from `from` to `to` (both included), every day of the range present, with the running total. from must not be later than to, and the range covers at most 3,660 days (else 400, param from).',
    auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(),
      from: day('First UTC day (YYYY-MM-DD); 29 days before `to` by default.').optional(),
      to: day('Last UTC day (YYYY-MM-DD); today by default.').optional(),
    }),
    errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/risk/stats', operation: 'GetRiskStats', tag: 'Risk', summary: 'Get portfolio risk statistics',
    description: 'Gross and net exposure by venue and market, concentration, open-order notional, realized and unrealized P&L, the worst case of the binary payoffs, and each subaccount’s use of its risk limits.',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: id('sa').optional() }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/risk_limits/{subaccount_id}', operation: 'GetRiskLimits', tag: 'Risk limits',
    summary: 'Get subaccount risk limits', auth: 'api_key', session: true, params: z.strictObject({ subaccount_id: id('sa') }), errors: ['not_found'],
  },
  {
    method: 'PUT', path: '/v1/risk_limits/{subaccount_id}', operation: 'UpdateRiskLimits', tag: 'Risk limits',
    summary: 'Update subaccount risk limits',
    description: 'Fields left out keep their value; null removes a limit; 0 forbids what the limit measures.',
    auth: 'api_key', session: true, params: z.strictObject({ subaccount_id: id('sa') }), body: riskLimitsBody, bodyVariable: 'input',
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/subaccounts', operation: 'ListSubaccounts', tag: 'Subaccounts', summary: 'List subaccounts',
    auth: 'api_key', session: true, query: z.strictObject({ ...page }), errors: ['invalid_request'],
  },
  {
    method: 'POST', path: '/v1/subaccounts', operation: 'CreateSubaccount', tag: 'Subaccounts', summary: 'Create subaccount',
    description: 'Test subaccounts start with simulated cash (starting_balance, or the configured default).',
    auth: 'api_key', session: true, bodyVariable: 'input',
    body: z.strictObject({
      name: z.string().min(1).max(100),
      starting_balance: balance.optional().describe('Test keys only: simulated cash in dollars, below 1,000,000,000,000.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type'],
  },
  {
    method: 'GET', path: '/v1/subaccounts/{id}', operation: 'GetSubaccount', tag: 'Subaccounts', summary: 'Get subaccount',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('sa') }), errors: ['not_found'],
  },
  {
    method: 'DELETE', path: '/v1/subaccounts/{id}', operation: 'DeleteSubaccount', tag: 'Subaccounts', summary: 'Delete subaccount',
    description: 'Refused (409) while the subaccount has working orders. Its venue credentials are destroyed; its history is kept.',
    auth: 'api_key', params: z.strictObject({ id: id('sa') }), errors: ['not_found', 'conflict'],
  },
  {
    method: 'DELETE', path: '/v1/subaccounts/{id}/credentials/{exchange}', operation: 'DeleteExchangeCredential',
    tag: 'Subaccounts', summary: 'Delete exchange credentials of a subaccount for one exchange', auth: 'api_key', session: true,
    params: z.strictObject({ id: id('sa'), exchange }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/receipts', operation: 'ListReceipts', tag: 'Receipts', summary: 'List execution receipts',
    auth: 'api_key', session: true,
    query: z.strictObject({ subaccount_id: id('sa').optional(), order_id: id('ord').optional(), ...createdWindow, ...page }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/fills', operation: 'ListFills', tag: 'Fills', summary: 'List fills', auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), order_id: id('ord').optional(),
      ...createdWindow, ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/events', operation: 'ListEvents', events: true, tag: 'Events', summary: 'List events', auth: 'api_key', session: true,
    description: 'The event log of the workspace in this environment: every change of orders, fills, complex orders, switches, credentials and limits, in the order the changes were committed (docs/events.md). Newest first, paged with cursor; or, with after (an event id), oldest first from just after that event: pass the last id you got as the next after.',
    query: z.strictObject({ ...eventFilter, ...createdWindow, after: eventId.optional().describe('The events after this one, oldest first (not with cursor). 410 events_expired when events after it are no longer kept (EVENT_RETENTION_DAYS).'), ...page }),
    errors: ['invalid_request', 'events_expired'],
  },
  {
    method: 'GET', path: '/v1/events/stream', operation: 'ListEvents', stream: true, events: true, tag: 'Events', summary: 'Stream events (Server-Sent Events)',
    description: 'The event log as Server-Sent Events: each event is `id: <event id>` and `data: <the event as GET /v1/events lists it>`, in log order; a comment line (`: keep-alive`) every 15 s. Reconnect with the Last-Event-ID header (EventSource does) or after=<event id> to receive every event after it exactly once, in order; without either the stream starts now. At most EVENT_STREAMS_PER_KEY (10) streams per credential and EVENT_STREAMS_PER_WORKSPACE (100) per workspace at once, across gateways sharing Redis (429 rate_limited beyond). Streams of one workspace resuming from an event catch up taking turns (EVENT_CATCH_UP_PER_WORKSPACE reads at once per gateway). A stream ends after an hour, or when its client cannot keep up: reconnect with Last-Event-ID and nothing is lost.',
    auth: 'api_key', session: true,
    query: z.strictObject({ ...eventFilter, after: eventId.optional().describe('Start after this event (the Last-Event-ID header, when sent, takes precedence). 410 events_expired, before any stream, when events after it are no longer kept (EVENT_RETENTION_DAYS).') }),
    errors: ['invalid_request', 'events_expired', 'rate_limited'],
  },
  ...webhookRoutes(),
  {
    method: 'GET', path: '/v1/markets', operation: 'SearchMarkets', tag: 'Markets', summary: 'Search markets',
    description: 'Full-text search (every word, as a prefix) over title, ticker, category and description, ranked; without q, catalog order. Catalog answers may be up to CATALOG_CACHE_MS (1 s) old.',
    auth: 'api_key', session: true, catalog: true,
    query: z.strictObject({
      q: z.string().max(200).optional(), venue: venue.optional(),
      status: graphqlEnum('MarketStatus').optional(), category: z.string().max(64).optional(), ...page,
    }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/markets/{id}', operation: 'GetMarket', tag: 'Markets', summary: 'Get market', auth: 'api_key', session: true, catalog: true,
    description: 'The market as the catalog has it, up to CATALOG_CACHE_MS (1 s) old; placing an order always checks the current market.',
    params: z.strictObject({ id: id('mkt') }), errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/api_keys', operation: 'ListApiKeys', tag: 'API keys', summary: 'List API keys',
    description: 'Both environments, revoked keys included, newest first: name, prefix and last 4, rate limit, created, last used, revoked. Never a secret. Authenticated through the dashboard (session or dashboard token).',
    auth: 'dashboard', query: z.strictObject({ ...page }), errors: ['invalid_request', 'forbidden'],
  },
  {
    method: 'POST', path: '/v1/api_keys', operation: 'CreateApiKey', tag: 'API keys', summary: 'Create an API key',
    description: 'Answers the key and its `secret`, shown this once: only its SHA-256 is kept. Not idempotent (a replay would need the secret stored). Authenticated through the dashboard. A workspace holds at most API_KEYS_PER_WORKSPACE (50) unrevoked keys, both environments together: 409 conflict past it (revoke one first).',
    auth: 'dashboard', bodyVariable: 'input',
    body: z.strictObject({
      name: z.string().min(1).max(100),
      environment: z.enum(['test', 'live']),
      rate_limit: z.number().int().min(1).max(100_000).optional().describe('Requests per second; the workspace default when left out.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'conflict'],
  },
  {
    method: 'DELETE', path: '/v1/api_keys/{key_id}', operation: 'RevokeApiKey', tag: 'API keys', summary: 'Revoke an API key',
    description: 'Authenticated through the dashboard: its session cookie (with X-CSRF-Token), or `Authorization: Bearer mk_dash_...` (a full-access workspace dashboard token; a read-only one gets 403). Requests with the revoked key get 401 at once.',
    auth: 'dashboard', params: z.strictObject({ key_id: id('key') }), errors: ['not_found', 'forbidden'],
  },
  {
    method: 'PUT', path: '/v1/subaccounts/{id}/credentials/{exchange}', operation: 'AttachExchangeCredential',
    tag: 'Subaccounts', summary: 'Attach exchange credentials to a subaccount',
    description: 'Kalshi: key_id (a UUID), private_key (RSA PEM, at least 2048 bits) and environment (`demo` or `production`: the Kalshi environment that issued the key, where alone it works). Polymarket (CLOB V2): private_key (secp256k1, hex); signature_type (0 EOA, the default; 1 POLY_PROXY; 2 POLY_GNOSIS_SAFE; 3 POLY_1271); funder_address (required for 1 to 3); api_key, api_secret, api_passphrase (all three, or none: derived from the key with Polymarket\'s L1 auth when the account opens). The signer address derived from the key is the fingerprint. Shape-checked, sealed with AES-256-GCM under the configured key-encryption key, replacing what was attached before; answers only a fingerprint (and a Kalshi key\'s environment), never the secret again. Authenticated through the dashboard. See docs/credentials.md.',
    auth: 'dashboard', params: z.strictObject({ id: id('sa'), exchange }), bodyVariable: 'credentials', bodyVerbatim: true,
    body: z.strictObject({
      key_id: z.string().max(256).optional(),
      private_key: z.string().max(16_384).optional(),
      environment: z.string().max(32).optional(),
      api_key: z.string().max(256).optional(),
      api_secret: z.string().max(1024).optional(),
      api_passphrase: z.string().max(1024).optional(),
      funder_address: z.string().max(256).optional(),
      signature_type: z.number().int().optional(),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found', 'forbidden'],
  },
  {
    method: 'GET', path: '/v1/workspace', operation: 'GetWorkspace', tag: 'Workspaces', summary: 'Get the current workspace',
    auth: 'api_key', session: true, errors: [],
  },
  ...sessionRoutes(),
];

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
function webhookRoutes(): Route[] {
  const tag = 'Webhooks';
  const params = z.strictObject({ id: id('whe') });
  const url = z.string().min(1).max(2048).describe('https (or http) URL; one that resolves to a loopback, private, link-local or other special-purpose address is refused when delivering.');
  const eventTypes = z.array(z.string().min(1).max(64)).min(1).max(64).describe('Event types, each exact (order.filled) or every type of an object (order.*); docs/events.md lists them.');
  const description = z.string().max(500);
  return [
    {
      method: 'POST', path: '/v1/webhook_endpoints', operation: 'CreateWebhookEndpoint', tag, summary: 'Register a webhook endpoint',
      description: 'The workspace\u2019s events of this environment whose types match event_types are POSTed to url, each signed (Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">) with the endpoint\u2019s secret, retried with exponential backoff for 3 days until a 2xx answers. Answers `{endpoint, secret}`: the secret (whsec_…) is shown this once, stored sealed. Needs CREDENTIALS_KEK on the server (else 403); at most 16 endpoints per workspace and environment (else 409 conflict). Verification recipe and delivery rules: docs/webhooks.md.',
      auth: 'api_key', session: true, bodyVariable: 'input',
      body: z.strictObject({ url, event_types: eventTypes, description: description.optional() }),
      errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'conflict'],
    },
    {
      method: 'GET', path: '/v1/webhook_endpoints', operation: 'ListWebhookEndpoints', tag, summary: 'List webhook endpoints',
      description: 'The endpoints of the workspace in this environment, newest first; never a secret.',
      auth: 'api_key', session: true, query: z.strictObject({ ...page }), errors: ['invalid_request'],
    },
    {
      method: 'GET', path: '/v1/webhook_endpoints/{id}', operation: 'GetWebhookEndpoint', tag, summary: 'Get a webhook endpoint',
      auth: 'api_key', session: true, params, errors: ['not_found'],
    },
    {
      method: 'PUT', path: '/v1/webhook_endpoints/{id}', operation: 'UpdateWebhookEndpoint', tag, summary: 'Update a webhook endpoint',
      description: 'Changes url, event_types or description, checked as at registration; fields left out keep their value, description null removes it. The secret and the delivery history stay. Pending deliveries go to the new url from their next attempt (one under way finishes at the old one); new event_types apply to events recorded after the change, never to deliveries already made.',
      auth: 'api_key', session: true, params, bodyVariable: 'input',
      body: z.strictObject({ url: url.optional(), event_types: eventTypes.optional(), description: description.nullable().optional() }),
      errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
    },
    {
      method: 'POST', path: '/v1/webhook_endpoints/{id}/rotate_secret', operation: 'RotateWebhookSecret', tag, summary: "Rotate a webhook endpoint's signing secret",
      description: `Answers \`{endpoint, secret}\`: the new secret (whsec_…), shown this once, as at registration. Until the replaced secret expires (expire_previous_in_seconds, ${DEFAULT_PREVIOUS_SECRET_SECONDS} by default; 0 stops it at once), every delivery is signed with both: Webhook-Signature: t=<unix seconds>,v1=<new>,v1=<previous>; a receiver accepts any v1 that matches. Rotating again drops a previous secret still valid: only the one just replaced is kept. Safe to retry with the same Idempotency-Key: the retry answers the same secret (nothing is rotated twice). Needs CREDENTIALS_KEK on the server (else 403). See docs/webhooks.md.`,
      auth: 'api_key', session: true, params, bodyVariable: 'input', idempotent: true,
      body: z.strictObject({
        expire_previous_in_seconds: z.number().int().min(0).max(MAX_PREVIOUS_SECRET_SECONDS).optional()
          .describe(`How long the replaced secret keeps signing beside the new one, in whole seconds: 0 to ${MAX_PREVIOUS_SECRET_SECONDS} (7 days); ${DEFAULT_PREVIOUS_SECRET_SECONDS} when left out.`),
      }),
      errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'not_found', 'conflict', 'idempotency_key_in_use', 'idempotency_key_reused'],
    },
    {
      method: 'DELETE', path: '/v1/webhook_endpoints/{id}', operation: 'DeleteWebhookEndpoint', tag, summary: 'Delete a webhook endpoint',
      description: 'Nothing new is sent to it, and its pending deliveries are given up (status failed). Answers the endpoint as deleted; it answers 404 afterwards.',
      auth: 'api_key', session: true, params, errors: ['not_found'],
    },
    {
      method: 'GET', path: '/v1/webhook_endpoints/{id}/deliveries', operation: 'ListWebhookDeliveries', tag, summary: "List a webhook endpoint's deliveries and their attempts",
      description: 'Newest event first: each delivery\u2019s status (pending, succeeded, failed), attempts made, next attempt, and every attempt (start, duration, HTTP status or error).',
      auth: 'api_key', session: true, params, query: z.strictObject({ ...page }), errors: ['invalid_request', 'not_found'],
    },
  ];
}

/** The dead-man's switch (docs/dead-mans-switch.md): arm, read, keep alive, disarm. */
function deadMansSwitchRoutes(): Route[] {
  const tag = "Dead-man's switch";
  const subaccount = id('sa').optional().describe('The subaccount the switch covers; the whole workspace (in the key\u2019s environment) when left out.');
  return [
    {
      method: 'PUT', path: '/v1/dead_mans_switch', operation: 'ArmDeadMansSwitch', tag, summary: "Arm or re-arm the dead-man's switch",
      description: `Covers the key's workspace in the key's environment (a live key's switch covers live orders, a test key's test orders), or one subaccount. It lapses timeout_seconds after the last keep-alive: POST /v1/heartbeat, or any request authenticated by an API key of the workspace and environment (recorded at most a quarter of the timeout late). When it lapses, every open order of its scope is canceled at its venue and new orders are refused with 409 dead_mans_switch_fired until it is re-armed or disarmed. See docs/dead-mans-switch.md.`,
      auth: 'api_key', bodyVariable: 'input',
      body: z.strictObject({
        subaccount_id: subaccount,
        timeout_seconds: z.number().int().min(MIN_TIMEOUT_SECONDS).max(MAX_TIMEOUT_SECONDS).describe(`Whole seconds, ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}.`),
      }),
      errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
    },
    {
      method: 'GET', path: '/v1/dead_mans_switch', operation: 'GetDeadMansSwitches', tag, summary: "The dead-man's switches of the workspace",
      description: 'Every switch of the workspace in this environment (the workspace\u2019s first, then its subaccounts\u2019): state, timeout, expiry, last heartbeat, last firing and the orders it canceled; expires_at is the earliest expiry of an armed one.',
      auth: 'api_key', session: true, errors: [],
    },
    {
      method: 'DELETE', path: '/v1/dead_mans_switch', operation: 'DisarmDeadMansSwitch', tag, summary: "Disarm the dead-man's switch",
      description: 'Disarms the workspace\u2019s switch, or with subaccount_id the subaccount\u2019s; a fired switch then accepts new orders again. 404 when there is no such switch.',
      auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: subaccount }), errors: ['invalid_request', 'not_found'],
    },
    {
      method: 'POST', path: '/v1/heartbeat', operation: 'Heartbeat', tag, summary: "Keep the dead-man's switches alive",
      description: 'Every armed switch of the workspace in this environment now lapses its timeout from now; answers the switches and the earliest expiry. A switch that already lapsed is not revived: re-arm it.',
      auth: 'api_key', errors: [],
    },
  ];
}

/** The dashboard's sign-in, session check and sign-out (docs/dashboard.md). */
function sessionRoutes(): Route[] {
  const tag = 'Dashboard session';
  const password = z.string().min(1).max(1024);
  return [
    {
      method: 'POST', path: '/v1/session', operation: 'SignIn', tag, summary: 'Sign in to the dashboard',
      description: 'Sets the `mk_session` cookie (HttpOnly, SameSite=Strict, Secure over TLS). A wrong password and an unknown email get the same 401. Rate limited per client address and per email (SIGN_IN_ATTEMPTS_PER_MINUTE).',
      auth: 'none', signInLimits: ['address', 'email'], sessionCookie: 'set', nullIsUnauthorized: 'The email or password is incorrect.',
      body: z.strictObject({
        // Blank is refused here: the per-email limit keys on the normalized email, which must not be empty.
        email: z.string().min(1).max(254).refine((value) => normalizeEmail(value) !== '', 'must not be blank'),
        password,
      }),
      errors: ['invalid_request', 'invalid_json', 'unsupported_media_type', 'payload_too_large'],
    },
    {
      method: 'GET', path: '/v1/session', operation: 'GetSession', tag, summary: 'The cookie\u2019s session',
      auth: 'none', sessionToken: true, nullIsUnauthorized: SIGNED_OUT, errors: [],
    },
    {
      method: 'DELETE', path: '/v1/session', operation: 'SignOut', tag, summary: 'Sign out',
      description: 'Needs X-CSRF-Token. Ends the session in the database (every gateway refuses the cookie at once) and clears the cookie.',
      auth: 'session', sessionToken: true, sessionCookie: 'clear', answerAs: { constants: { signed_out: true } }, errors: ['forbidden'],
    },
    {
      method: 'DELETE', path: '/v1/sessions', operation: 'SignOutEverywhere', tag, summary: 'Sign out everywhere',
      description: 'Needs X-CSRF-Token. Ends every session of the signed-in user, this one included, and clears the cookie.',
      auth: 'session', sessionToken: true, sessionCookie: 'clear', answerAs: { constants: { signed_out: true }, field: 'sessions_ended' }, errors: ['forbidden'],
    },
    {
      method: 'PUT', path: '/v1/session/password', operation: 'ChangePassword', tag, summary: 'Change the password',
      description: 'Needs X-CSRF-Token and the current password (a wrong one: 403 with param current_password). The new one: 12 to 256 characters, not one character repeated, not the current one. Every other session of the user ends; this one goes on. Rate limited like sign-in, per client address and per user.',
      auth: 'session', sessionToken: true, signInLimits: ['address', 'user'], answerAs: { constants: { password_changed: true }, field: 'other_sessions_ended' },
      body: z.strictObject({ current_password: password, new_password: password }),
      errors: ['invalid_request', 'invalid_json', 'unsupported_media_type', 'payload_too_large', 'forbidden'],
    },
  ];
}
