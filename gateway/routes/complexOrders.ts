import { z } from 'zod';
import { graphqlEnum } from '../graphqlEnums';
import { action, createdWindow, id, limitPrice, page, positive, side, strategy, venue } from './inputs';
import type { Route } from './route';

const complexOrderBody = z.strictObject({
  subaccount_id: id('sa'),
  market_id: id('mkt'),
  side,
  action,
  quantity: positive.describe('Contracts, greater than 0.'),
  strategy,
  limit_price: limitPrice.optional().describe('Worst acceptable price in the side’s own terms.'),
  duration_seconds: z.number().int().positive().max(86_400).optional().describe('twap: the time the slices are spread over (required for twap).'),
  slices: z.number().int().min(1).max(1000).optional().describe('twap: how many slices; one a minute when left out.'),
  venues: z.array(venue).min(1).optional().describe('The venues the order may use; every venue listing the question when left out.'),
});

/** Complex orders (docs/complex-orders.md): place, preview, list, read, cancel, children, execution report. */
export const COMPLEX_ORDER_ROUTES: Route[] = [
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
];
