import { z } from 'zod';
import { graphqlEnum } from '../graphqlEnums';
import { action, createdWindow, id, page, positive, price, side, timestamp, venue } from './inputs';
import type { Route } from './route';
import { MAX_ORDERS_PER_BATCH } from '../../contract/inputBounds';

const placeOrderBody = z.strictObject({
  subaccount_id: id('sa'),
  market_id: id('mkt'),
  side,
  action,
  type: graphqlEnum('OrderType'),
  price: price.optional().describe('Dollars per contract, 0 < price < 1, on the venue tick. Required for limit orders.'),
  quantity: positive.describe('Contracts, greater than 0.'),
  time_in_force: graphqlEnum('TimeInForce').optional().describe('gtc (rests until canceled), gtd (rests until expires_at), ioc, fok. Default: gtc for a limit order, gtd when expires_at is given, ioc for a market order.'),
  expires_at: timestamp.optional().describe('A limit order that leaves the book at this time (RFC 3339; time_in_force gtd), then ends expired with its reserved cash released. Sent as the venue\'s own expiry (Kalshi expiration_time, to the second, rounded up; Polymarket GTD, signed one minute later than this, the venue\'s security threshold). Must be in the future, on Polymarket at least 130 seconds ahead (else 400, param expires_at).'),
  client_order_id: z.string().min(1).max(64).optional(),
  post_only: z.boolean().optional().describe('A resting limit order (gtc or gtd) that never takes: refused (400, param post_only) and not placed if it would cross on arrival; sent as the venue\'s own flag (Kalshi post_only, Polymarket postOnly).'),
  reduce_only: z.boolean().optional().describe('A sell that may only shrink the position: a buy is refused (400); more than is held and not already offered is 422 insufficient_position. Sent to Kalshi as reduce_only.'),
});

/** Orders: place, list, read, cancel. */
export const ORDER_ROUTES: Route[] = [
  {
    method: 'POST', path: '/v1/orders', operation: 'PlaceOrder', tag: 'Orders', summary: 'Place order',
    description: 'Safe to retry with the same Idempotency-Key: the first result is replayed and nothing is placed twice.',
    auth: 'api_key', body: placeOrderBody, bodyVariable: 'input', idempotent: true,
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'not_found', 'conflict', 'dead_mans_switch_fired', 'idempotency_key_in_use', 'idempotency_key_reused', 'risk_limit_exceeded', 'insufficient_funds', 'insufficient_position', 'market_not_tradable', 'venue_error', 'venue_unavailable'],
  },
  {
    method: 'POST', path: '/v1/orders/batch', operation: 'PlaceOrders', tag: 'Orders', summary: 'Place a batch of orders',
    description:
      `Places 1 to ${MAX_ORDERS_PER_BATCH} orders, in the order given, each exactly as POST /v1/orders would (validation, the pre-trade checks, the venue), one after another: each order's checks see the orders before it. Answers 200 with \`data\`: one entry per order, in the same order, \`{order, error: null}\` or \`{order: null, error: {code, message, param, limit}}\` (the error it would have had alone, in the envelope's shape); one order's refusal does not stop the others. One Idempotency-Key covers the batch: a retry replays every answer and places nothing again; each order's client order id, unless it gives its own, derives from the key and its position, so a retry after a lost answer reconciles instead of placing twice. See docs/trading.md, "Placing a batch".`,
    auth: 'api_key', body: z.strictObject({ orders: z.array(placeOrderBody).min(1).max(MAX_ORDERS_PER_BATCH).describe(`1 to ${MAX_ORDERS_PER_BATCH} orders, each the body of POST /v1/orders.`) }), bodyVariable: 'input', idempotent: true,
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'idempotency_key_in_use', 'idempotency_key_reused'],
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
    method: 'DELETE', path: '/v1/orders', operation: 'CancelOrders', tag: 'Orders', summary: 'Cancel many orders',
    description:
      'Cancels the resting orders (open or partly filled) that match every filter given, at least one of subaccount_id, market_id, venue, side; oldest first, at most 200 a request (`has_more`: ask again). Each is canceled as DELETE /v1/orders/{id} would (one account\'s orders on a live venue in the venue\'s own batch cancel: Kalshi\'s batched cancel, Polymarket\'s DELETE /orders): `canceled` lists them as they now are; `failed` each one that could not be, with the code and message it would have had alone (`conflict`: filled or canceled meanwhile; `venue_unavailable`). Safe to repeat (docs/trading.md, "Cancel many").',
    auth: 'api_key', session: true,
    query: z.strictObject({ subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), venue: venue.optional(), side: side.optional() }),
    errors: ['invalid_request'],
  },
  {
    method: 'PATCH', path: '/v1/orders/{id}', operation: 'AmendOrder', tag: 'Orders', summary: 'Amend order',
    description:
      'Changes a resting limit order\'s price and/or quantity where it rests, with the venue\'s queue rules: the same price and a smaller quantity keeps its queue_position; a new price or a larger quantity loses it (and a new price that crosses trades at once; a post_only order is refused instead, 400 param post_only, and rests as it was). quantity is the new TOTAL, what already filled included; it must stay above filled_quantity (else 409: cancel instead). The pre-trade checks run on the new terms in place of the old (a pure size decrease skips them; an amend does not count against max_orders_per_minute). An order that filled or ended meanwhile answers 409 and is shown as it is. A dashboard session may only make an order smaller at its price (a new price or a larger size can trade: 403 without an API key). Safe to retry with the same Idempotency-Key. A lost venue answer is never re-sent: the order is read at the venue (503 venue_unavailable when it cannot be; the next amend or retry reads it first). Kalshi: V2 amend (decrease when only the size drops); Polymarket: not yet (400: cancel and place). See docs/trading.md, "Amending an order".',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('ord') }), bodyVariable: 'input', idempotent: true,
    body: z.strictObject({
      price: price.optional().describe('The new limit price, dollars per contract in the order\'s side\'s terms, on the market\'s tick.'),
      quantity: positive.optional().describe('The new total quantity (what filled included), above filled_quantity.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found', 'conflict', 'dead_mans_switch_fired', 'idempotency_key_in_use', 'idempotency_key_reused', 'risk_limit_exceeded', 'insufficient_funds', 'insufficient_position', 'market_not_tradable', 'rate_limited', 'venue_error', 'venue_unavailable'],
  },
  {
    method: 'DELETE', path: '/v1/orders/{id}', operation: 'CancelOrder', tag: 'Orders', summary: 'Cancel order',
    description: 'Cancels the unfilled remainder at the venue; 409 when the order is already final.',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('ord') }), errors: ['not_found', 'conflict', 'venue_error', 'venue_unavailable'],
  },
];
