/**
 * The gateway's allowed values (status, venue, strategy, side, action, order type, time in force,
 * exchange, environment) are the GraphQL schema's enums, in
 * the REST API's spelling (venues with a hyphen), and reach the core as GraphQL names.
 */
import { graphqlEnum } from '../../gateway/graphqlEnums';
import { checkedInSchema } from '../../gateway/operationShape';
import { buildOpenApi } from '../../gateway/openapi';
import { ROUTES } from '../../gateway/routes';
import { toVariables } from '../../gateway/variables';
import { isEnumType } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const enumNames = (name: string) => {
  const type = checkedInSchema().getType(name);
  if (!isEnumType(type)) throw new Error(`no enum ${name}`);
  return type.getValues().map((v) => v.name).sort();
};
const route = (method: string, path: string) => ROUTES.find((r) => r.method === method && r.path === path)!;
const openApi = buildOpenApi(ROUTES) as { paths: Record<string, Record<string, { parameters: { name: string; schema: { enum?: string[] } }[]; requestBody?: any }>> };
const queryEnum = (path: string, name: string) => [...(openApi.paths[path].get.parameters.find((p) => p.name === name)!.schema.enum ?? [])].sort();
const hyphenated = (names: string[]) => names.map((n) => n.replace('_', '-')).sort();

describe('enums of the GraphQL schema', () => {
  it('are the allowed values of every status, venue and strategy field of the REST API', () => {
    expect(queryEnum('/v1/orders', 'status')).toEqual(enumNames('OrderStatusFilter'));
    expect(enumNames('OrderStatusFilter')).toContain('working');
    expect(queryEnum('/v1/complex_orders', 'status')).toEqual(enumNames('ComplexOrderStatus'));
    expect(queryEnum('/v1/complex_orders', 'strategy')).toEqual(enumNames('ExecutionStrategy'));
    expect(queryEnum('/v1/markets', 'status')).toEqual(enumNames('MarketStatus'));
    expect(queryEnum('/v1/markets', 'venue')).toEqual(hyphenated(enumNames('Venue')));
    expect(queryEnum('/v1/analytics/execution', 'venue')).toEqual(hyphenated(enumNames('Venue')));
    expect(queryEnum('/v1/analytics/execution', 'strategy')).toEqual(enumNames('ExecutionStrategy'));
    const body = openApi.paths['/v1/complex_orders'].post.requestBody.content['application/json'].schema;
    expect([...body.properties.strategy.enum].sort()).toEqual(enumNames('ExecutionStrategy'));
    expect([...body.properties.venues.items.enum].sort()).toEqual(hyphenated(enumNames('Venue')));
  });

  it('are the allowed values of every order, credential and key field too, and no route file lists its own', () => {
    const bodyOf = (method: 'post' | 'put', path: string) => openApi.paths[path][method].requestBody.content['application/json'].schema;
    const order = bodyOf('post', '/v1/orders');
    expect([...order.properties.side.enum].sort()).toEqual(enumNames('OrderSide'));
    expect([...order.properties.action.enum].sort()).toEqual(enumNames('OrderAction'));
    expect([...order.properties.type.enum].sort()).toEqual(enumNames('OrderType'));
    expect([...order.properties.time_in_force.enum].sort()).toEqual(enumNames('TimeInForce'));
    const complex = bodyOf('post', '/v1/complex_orders');
    expect([...complex.properties.side.enum].sort()).toEqual(enumNames('OrderSide'));
    expect([...bodyOf('post', '/v1/api_keys').properties.environment.enum].sort()).toEqual(enumNames('Environment'));
    const exchange = openApi.paths['/v1/subaccounts/{id}/credentials/{exchange}'].put.parameters.find((p) => p.name === 'exchange')!;
    expect([...(exchange.schema.enum ?? [])].sort()).toEqual(enumNames('Exchange'));
    const folder = path.resolve(__dirname, '../../gateway/routes');
    const ownLists = readdirSync(folder).filter((file) => /z\.(enum|literal|union)\(/.test(readFileSync(path.join(folder, file), 'utf8')));
    expect(ownLists).toEqual([]);
  });

  it('take the REST spelling of a venue and give the core its GraphQL name', () => {
    const venue = graphqlEnum('Venue', (name) => name.replace('_', '-'));
    expect(venue.parse('sim-kalshi')).toBe('sim_kalshi');
    expect(venue.safeParse('sim_kalshi').success).toBe(false);
    const variables = toVariables(route('GET', '/v1/analytics/execution'), { params: {}, query: { venue: 'sim-polymarket', strategy: 'twap' }, body: {} });
    expect(variables).toEqual({ venue: 'sim_polymarket', strategy: 'twap' });
    const body = { subaccount_id: 'sa_x', market_id: 'mkt_x', side: 'yes', action: 'buy', quantity: '1', strategy: 'sweep', venues: ['kalshi', 'sim-kalshi'] };
    const placed = toVariables(route('POST', '/v1/complex_orders'), { params: {}, query: {}, body });
    expect((placed.input as { venues: string[] }).venues).toEqual(['kalshi', 'sim_kalshi']);
  });

  it('refuse a value outside the enum, naming the field', () => {
    expect(() => toVariables(route('GET', '/v1/orders'), { params: {}, query: { status: 'done' }, body: {} })).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: expect.objectContaining({ param: 'status' }) }),
    );
    expect(() => toVariables(route('GET', '/v1/markets'), { params: {}, query: { venue: 'sim_kalshi' }, body: {} })).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: expect.objectContaining({ param: 'venue' }) }),
    );
  });
});
