import { z } from 'zod';
import { ApiError } from '../../gateway/errors';
import { ROUTES, type Route } from '../../gateway/routes';
import { toVariables } from '../../gateway/variables';

const route = (operation: string): Route => {
  const found = ROUTES.find((r) => r.operation === operation);
  if (!found) throw new Error(`no route runs ${operation}`);
  return found;
};

const request = (parts: { params?: Record<string, string>; query?: Record<string, unknown>; body?: Record<string, unknown> }) => ({
  params: parts.params ?? {},
  query: parts.query ?? {},
  body: parts.body ?? {},
});

function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('toVariables', () => {
  it('camelCases path and query parameters and turns limit into a number', () => {
    const variables = toVariables(
      route('ListFills'),
      request({ query: { subaccount_id: 'sa_1', market_id: 'mkt_1', order_id: 'ord_1', since: '2026-11-22T10:00:00Z', limit: '25', cursor: 'abc' } }),
    );
    expect(variables).toEqual({
      subaccountId: 'sa_1',
      marketId: 'mkt_1',
      orderId: 'ord_1',
      since: '2026-11-22T10:00:00Z',
      limit: 25,
      cursor: 'abc',
    });
  });

  it('puts the body, camelCased, into the route’s body variable beside the path parameters', () => {
    const variables = toVariables(
      route('UpdateRiskLimits'),
      request({ params: { subaccount_id: 'sa_1' }, body: { max_order_notional: '250', max_open_orders: null } }),
    );
    expect(variables).toEqual({ subaccountId: 'sa_1', input: { maxOrderNotional: '250', maxOpenOrders: null } });
  });

  it('leaves out body fields that were not sent (a partial update stays partial)', () => {
    const variables = toVariables(route('UpdateRiskLimits'), request({ params: { subaccount_id: 'sa_1' }, body: { max_open_orders: 3 } }));
    expect(variables.input).toEqual({ maxOpenOrders: 3 });
    expect(Object.keys(variables.input as object)).toEqual(['maxOpenOrders']);
  });

  it('spreads the body into the variables when the route names no body variable', () => {
    const spread: Route = {
      method: 'POST', path: '/v1/things', operation: 'CreateThing', tag: 'Things', summary: 'Create a thing', auth: 'api_key',
      body: z.strictObject({ display_name: z.string(), max_size_2: z.number().optional() }), errors: [],
    };
    expect(toVariables(spread, request({ body: { display_name: 'x', max_size_2: 2 } }))).toEqual({ displayName: 'x', maxSize2: 2 });
  });

  it('ignores the body of GET and DELETE routes', () => {
    expect(toVariables(route('GetSubaccount'), request({ params: { id: 'sa_1' }, body: { anything: 1 } }))).toEqual({ id: 'sa_1' });
    expect(toVariables(route('DeleteSubaccount'), request({ params: { id: 'sa_1' }, body: { anything: 1 } }))).toEqual({ id: 'sa_1' });
  });

  it.each([
    ['an unknown query parameter', 'SearchMarkets', request({ query: { venu: 'sim-kalshi' } }), 'venu'],
    ['a query parameter on a route that takes none', 'GetRiskStats', request({ query: { verbose: '1' } }), 'verbose'],
    ['an unknown body field', 'CreateSubaccount', request({ body: { name: 'a', nmae: 'b' } }), 'nmae'],
    ['a missing body field', 'CreateSubaccount', request({ body: {} }), 'name'],
    ['a bad decimal', 'UpdateRiskLimits', request({ params: { subaccount_id: 'sa_1' }, body: { max_gross_exposure: '1e5' } }), 'max_gross_exposure'],
    ['a limit out of range', 'ListSubaccounts', request({ query: { limit: '201' } }), 'limit'],
    ['a bad path parameter', 'DeleteExchangeCredential', request({ params: { id: 'sa_1', exchange: 'binance' } }), 'exchange'],
    ['a bad enum in the query', 'SearchMarkets', request({ query: { status: 'pending' } }), 'status'],
  ])('%s is invalid_request naming the param', (_name, operation, input, param) => {
    const error = apiErrorOf(() => toVariables(route(operation), input));
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, extra: { param } });
  });

  it('a missing field says it is required', () => {
    expect(apiErrorOf(() => toVariables(route('CreateSubaccount'), request({ body: {} }))).message).toBe('name is required.');
  });

  it('a query parameter given more than once is invalid_request, not silently one of them', () => {
    const error = apiErrorOf(() => toVariables(route('ListFills'), request({ query: { subaccount_id: ['sa_mine', 'sa_theirs'] } })));
    expect(error).toMatchObject({ code: 'invalid_request', extra: { param: 'subaccount_id' } });
    expect(error.message).toContain('more than once');
  });
});

/** What PostgreSQL cannot store is refused at the edge, naming the field (docs/api-conventions.md, "Input limits"). */
describe('toVariables: input PostgreSQL cannot store', () => {
  const refusal = (operation: string, input: ReturnType<typeof request>) => {
    const error = apiErrorOf(() => toVariables(route(operation), input));
    return { code: error.code, status: error.status, param: error.extra.param, message: error.message };
  };

  it.each([
    ['a path id', 'GetOrder', request({ params: { id: 'ord_\u0000x' } }), 'id'],
    ['a query filter', 'ListOrders', request({ query: { subaccount_id: 'sa_\u0000' } }), 'subaccount_id'],
    ['a cursor', 'ListFills', request({ query: { cursor: '\u0000' } }), 'cursor'],
    ['a search', 'SearchMarkets', request({ query: { q: 'fed\u0000' } }), 'q'],
    ['a name in a body', 'CreateSubaccount', request({ body: { name: 'a\u0000b' } }), 'name'],
    ['the sign-in email', 'SignIn', request({ body: { email: 'a\u0000@example.com', password: 'x' } }), 'email'],
    ['a venue-verbatim credential field', 'AttachExchangeCredential', request({ params: { id: 'sa_1', exchange: 'kalshi' }, body: { key_id: '\u0000' } }), 'key_id'],
  ])('a NUL character in %s is invalid_request naming it', (_name, operation, input, param) => {
    expect(refusal(operation, input)).toEqual({ code: 'invalid_request', status: 400, param, message: `${param}: must not contain the NUL character (U+0000) or an unpaired surrogate` });
  });

  it('an unpaired surrogate (JSON\u2019s "\\ud800") is refused like NUL; a pair (an emoji) is text', () => {
    expect(refusal('CreateSubaccount', request({ body: { name: 'a\ud800' } }))).toMatchObject({ code: 'invalid_request', param: 'name' });
    expect(refusal('CreateSubaccount', request({ body: { name: '\udc00' } }))).toMatchObject({ code: 'invalid_request', param: 'name' });
    expect(toVariables(route('CreateSubaccount'), request({ body: { name: 'rocket \ud83d\ude80' } }))).toEqual({ input: { name: 'rocket \ud83d\ude80' } });
  });

  it.each([
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['year 0001 at an offset that puts it in year 0000', '0001-01-01T00:30:00+01:00'],
    ['year 9999 at an offset that puts it in year 10000', '9999-12-31T23:30:00-01:00'],
  ])('a timestamp in %s is invalid_request naming it', (_name, since) => {
    expect(refusal('ListOrders', request({ query: { since } }))).toEqual({
      code: 'invalid_request', status: 400, param: 'since', message: 'since: must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (UTC)',
    });
  });

  it('timestamps at both ends of the range, and dates of years 0001 and 9999, are accepted', () => {
    expect(toVariables(route('ListExecutionAnalytics'), request({ query: { from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' } })))
      .toEqual({ from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' });
    expect(toVariables(route('GetPnlHistory'), request({ query: { from: '0001-01-01', to: '9999-12-31' } }))).toEqual({ from: '0001-01-01', to: '9999-12-31' });
  });

  it('a date of year 0000 is invalid_request naming it', () => {
    expect(refusal('GetPnlHistory', request({ query: { from: '0000-12-31' } }))).toEqual({
      code: 'invalid_request', status: 400, param: 'from', message: 'from: must be a date between 0001-01-01 and 9999-12-31',
    });
  });

  it('a count limit is 0 to 1,000,000,000: beyond (2^31, 2^53 - 1) is invalid_request naming the field', () => {
    const update = (body: Record<string, unknown>) => request({ params: { subaccount_id: 'sa_1' }, body });
    expect(toVariables(route('UpdateRiskLimits'), update({ max_open_orders: 1_000_000_000, max_orders_per_minute: 0 })).input)
      .toEqual({ maxOpenOrders: 1_000_000_000, maxOrdersPerMinute: 0 });
    for (const [field, value] of [['max_open_orders', 1_000_000_001], ['max_open_orders', 2 ** 31], ['max_orders_per_minute', 2 ** 53 - 1]] as const) {
      expect(refusal('UpdateRiskLimits', update({ [field]: value }))).toMatchObject({ code: 'invalid_request', param: field, message: `${field}: Too big: expected number to be <=1000000000` });
    }
  });

  it('a blank sign-in email is invalid_request (the per-email limit needs an email to count)', () => {
    expect(refusal('SignIn', request({ body: { email: '  \t ', password: 'x' } }))).toEqual({ code: 'invalid_request', status: 400, param: 'email', message: 'email: must not be blank' });
  });
});

describe('a JSON number where a string belongs', () => {
  it('names the field and says money is a decimal string; a missing field is still "required"', () => {
    const placeOrder = route('PlaceOrder');
    const body = { subaccount_id: 'sa_1', market_id: 'mkt_1', side: 'yes', action: 'buy', type: 'limit', price: 0.5, quantity: '10' };
    const refusal = (fn: () => unknown) => {
      const { code, extra, message } = apiErrorOf(fn);
      return { code, param: extra.param, message };
    };
    const priced = refusal(() => toVariables(placeOrder, request({ body })));
    expect(priced).toMatchObject({ code: 'invalid_request', param: 'price', message: expect.stringMatching(/^price must be a decimal string such as "0.43", not a JSON number/) });
    const counted = refusal(() => toVariables(placeOrder, request({ body: { ...body, price: '0.5', quantity: 10 } })));
    expect(counted).toMatchObject({ param: 'quantity', message: expect.stringMatching(/^quantity must be a decimal string/) });
    const limits = refusal(() => toVariables(route('UpdateRiskLimits'), request({ params: { subaccount_id: 'sa_1' }, body: { max_order_notional: 250 } })));
    expect(limits).toMatchObject({ param: 'max_order_notional', message: expect.stringMatching(/^max_order_notional must be a decimal string/) });
    const named = refusal(() => toVariables(route('CreateSubaccount'), request({ body: { name: 5 } })));
    expect(named).toMatchObject({ param: 'name', message: 'name must be a string, not a JSON number.' });
    const missing = refusal(() => toVariables(placeOrder, request({ body: { ...body, price: '0.5', quantity: undefined } })));
    expect(missing).toEqual({ code: 'invalid_request', param: 'quantity', message: 'quantity is required.' });
  });
});
