import { ApiError } from '../../gateway/errors';
import { restSpelling } from '../../gateway/restSpelling';
import { ROUTES, type Route } from '../../gateway/routes';

const route = (operation: string): Route => {
  const found = ROUTES.find((r) => r.operation === operation);
  if (!found) throw new Error(`no route runs ${operation}`);
  return found;
};

/** The error `refusal` throws for a core error with this param and message. */
function refusalOf(operation: string, param: string | undefined, message: string): ApiError {
  try {
    restSpelling(route(operation)).refusal(new ApiError('invalid_request', message, { param, limit: 'kept', headers: { 'Idempotent-Replayed': 'true' } }));
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('refusal did not throw');
}

describe('the gateway spells the core’s GraphQL names as REST names', () => {
  it.each([
    ['PlaceOrder', 'timeInForce', 'time_in_force'],
    ['PlaceOrder', 'input.timeInForce', 'time_in_force'],
    ['PlaceOrder', 'input.clientOrderId', 'client_order_id'],
    ['PlaceOrder', 'price', 'price'],
    ['CreateSubaccount', 'input.startingBalance', 'starting_balance'],
    ['UpdateRiskLimits', 'maxOrderNotional', 'max_order_notional'],
    ['UpdateRiskLimits', 'subaccountId', 'subaccount_id'],
    ['ListOrders', 'subaccountId', 'subaccount_id'],
    ['PlaceComplexOrder', 'input.venues[0]', 'venues[0]'],
    ['AttachExchangeCredential', 'private_key', 'private_key'],
    ['AttachExchangeCredential', 'exchange', 'exchange'],
  ])('%s: param %s is %s', (operation, graphql, rest) => {
    expect(refusalOf(operation, graphql, 'refused').extra.param).toBe(rest);
  });

  it('the body variable itself names no parameter', () => {
    expect(refusalOf('PlaceOrder', 'input', 'refused').extra.param).toBeUndefined();
  });

  it('spells the route’s inputs in the message, keeps other words, the code, status, limit and headers', () => {
    const error = refusalOf('PlaceOrder', 'clientOrderId', "clientOrderId 'a' is already used; timeInForce and price are fine, clientOrderIdentity is no input.");
    expect(error.message).toBe("client_order_id 'a' is already used; time_in_force and price are fine, clientOrderIdentity is no input.");
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, extra: { limit: 'kept', headers: { 'Idempotent-Replayed': 'true' } } });
  });

  it('leaves the client’s own values alone: nothing inside quotes is respelled', () => {
    // A valid client_order_id may contain an input's GraphQL name; the 409 quotes it as it was sent.
    const error = refusalOf('PlaceOrder', 'clientOrderId', "clientOrderId 'hedge.marketId.1' is already used by order 'ord_1'; timeInForce is fine.");
    expect(error.message).toBe("client_order_id 'hedge.marketId.1' is already used by order 'ord_1'; time_in_force is fine.");
  });

  it('passes anything but an ApiError through untouched', () => {
    const unexpected = new Error('boom');
    expect(() => restSpelling(route('PlaceOrder')).refusal(unexpected)).toThrow(unexpected);
  });
});

describe('JSON fields of an answer', () => {
  const answer = (operation: string, value: unknown) => restSpelling(route(operation)).answer({ value, replayed: false }).value;

  it('a JSON root field (the execution report) has every key snake_cased, at any depth, values untouched', () => {
    expect(answer('GetExecutionReport', { arrivalPrice: '0.5', perVenue: [{ venueName: 'sim-kalshi', fillRate: '1', notes: ['keepCase'] }] })).toEqual({
      arrival_price: '0.5',
      per_venue: [{ venue_name: 'sim-kalshi', fill_rate: '1', notes: ['keepCase'] }],
    });
  });

  it('a JSON field inside an object (a complex order’s plan) is snake_cased; the other fields are left as the aliases name them', () => {
    expect(answer('GetComplexOrder', { id: 'cxo_1', market_ids_by_venue: { 'sim-kalshi': 'mkt_A' }, plan: { recommendedAlternative: { expectedFees: '0.1' } } })).toEqual({
      id: 'cxo_1',
      market_ids_by_venue: { 'sim-kalshi': 'mkt_A' },
      plan: { recommended_alternative: { expected_fees: '0.1' } },
    });
  });

  it('a receipt’s content is passed on exactly as stored (clients verify its hash)', () => {
    const page = { data: [{ id: 'rcpt_1', content: { orderId: 'ord_1', fills: [{ isTaker: true }] } }], has_more: false, next_cursor: null };
    expect(answer('ListReceipts', page)).toEqual(page);
  });

  it('an operation without JSON fields is passed on as it is', () => {
    const order = { id: 'ord_1', time_in_force: 'gtc', someCamel: 1 };
    expect(answer('GetOrder', order)).toBe(order);
  });
});
