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
