/**
 * The OpenAPI document tells the truth: every status a route answers is among the responses it
 * documents, and every header an answer carries is declared on that response. Checked against what
 * the service really answers: a sample of the hostile corpus (test/hostile/corpus.ts, the refused
 * and the edge requests of every route), unknown and foreign filter ids on every list, and the
 * methods a literal path does not take. The document's own promises (named schemas, strict request
 * schemas, required request_id) are checked on the document as served.
 */
import http from 'node:http';
import { buildOpenApi } from '../../gateway/openapi';
import { ROUTES, type Route } from '../../gateway/routes';
import { routeCorpus, type HostileRequest } from '../hostile/corpus';
import { buildFixture, send } from '../hostile/fixture';
import { testConfig } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import type { Fixture } from '../hostile/corpus';

jest.setTimeout(180_000);

type Json = { [key: string]: any };

/** Headers whose presence the document must declare, as Node spells them. */
const DECLARED_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed'];

let stack: Stack;
let base: string;
let fixture: Fixture;
let doc: Json;

beforeAll(async () => {
  stack = await startStack(
    testConfig({
      // The corpus tests statuses, not the limiters: budgets it never reaches.
      RATE_LIMIT_DEFAULT: '1000000',
      SIGN_IN_ATTEMPTS_PER_MINUTE: '10000',
      CREDENTIALS_KEK: Buffer.alloc(32, 7).toString('base64'),
    }),
  );
  base = stack.gateways[0];
  fixture = await buildFixture(stack, base, 'statuses');
  doc = (await call(base, 'GET', '/v1/openapi.json')).body;
});
afterAll(() => stack.close());

const operationOf = (route: Route): Json => doc.paths[route.path][route.method.toLowerCase()];

describe('the document as served', () => {
  it('is the document the route table builds', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi(ROUTES))));
  });

  it.each(ROUTES.map((route) => [route.method, route.path, route] as const))(
    '%s %s documents the statuses of every route, and X-Request-Id on each',
    (_method, _path, route) => {
      const { responses } = operationOf(route);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413', '415', '500', '502', '503']));
      const ids = route.params !== undefined || Object.keys(route.query?.shape ?? {}).some((name) => name.endsWith('_id'));
      if (ids) expect(responses['404'].description).toContain('not_found');
      if (route.auth === 'api_key' || route.auth === 'dashboard') expect(responses['429'].description).toContain('rate_limited');
      expect(responses['503'].description).toContain('service_unavailable');
      for (const response of Object.values<Json>(responses)) {
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
      expect(responses['503'].headers['Retry-After']).toBeDefined();
      if (route.idempotent) expect(responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    },
  );

  it('names its schemas, answers reference them, and an error always carries its request_id', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Order', 'Fill', 'Market', 'Subaccount', 'Position', 'Receipt', 'ComplexOrder', 'ChildOrder', 'RiskLimits', 'ApiKey', 'Error']) {
      expect(schemas[name]).toMatchObject({ type: 'object' });
    }
    const answer = (method: string, path: string) => doc.paths[path][method].responses['200'].content['application/json'].schema;
    expect(answer('get', '/v1/orders/{id}')).toEqual({ $ref: '#/components/schemas/Order' });
    expect(answer('post', '/v1/orders')).toEqual({ $ref: '#/components/schemas/Order' });
    expect(schemas.FillPage.properties.data.items).toEqual({ $ref: '#/components/schemas/Fill' });
    expect(schemas.Error.properties.error.required).toEqual(['code', 'message', 'request_id']);
    // Every reference resolves.
    for (const [, name] of JSON.stringify(doc).matchAll(/"#\/components\/(?:schemas|headers)\/([^"]+)"/g)) {
      expect(schemas[name] ?? doc.components.headers[name]).toBeDefined();
    }
  });

  it('asks for what the server takes: limit an integer 1..200, decimals by sign, the time windows described', () => {
    const parameter = (path: string, name: string) => doc.paths[path].get.parameters.find((p: Json) => p.name === name);
    expect(parameter('/v1/fills', 'limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    const body = doc.paths['/v1/orders'].post.requestBody.content['application/json'].schema.properties;
    const matches = (schema: Json, value: string) => new RegExp(schema.pattern).test(value);
    expect(['1', '0.5', '10.000001'].every((v) => matches(body.quantity, v))).toBe(true);
    expect(['0', '0.0', '-1', '0.0000001'].some((v) => matches(body.quantity, v))).toBe(false);
    expect(['0.01', '0.99', '0.5000000'].every((v) => matches(body.price, v))).toBe(true);
    expect(['0', '1', '1.5', '-0.3'].some((v) => matches(body.price, v))).toBe(false);
    expect(body.subaccount_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    expect(doc.paths['/v1/risk/pnl_history'].get.description).toMatch(/from must not be later than to.*3,660 days/);
    expect(doc.paths['/v1/analytics/execution'].get.description).toMatch(/from must be earlier than to.*366 days/);
  });
});

describe('what the service answers is documented', () => {
  it('every status and header of the hostile corpus sample is documented for its route and status', async () => {
    const corpus = [...routeCorpus('refused', fixture, 80, 113), ...routeCorpus('edge', fixture, 30, 3113)];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const undocumented = new Set<string>();
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < corpus.length) {
        const request = corpus[next++];
        const answer = await send(agent, new URL(base), request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        for (const problem of problemsWith(request, answer.status, answer.headers)) undocumented.add(problem);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    agent.destroy();
    process.stdout.write(`documented statuses: ${corpus.length} requests, ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')}\n`);
    expect([...undocumented].sort()).toEqual([]);
    expect(statuses.size).toBeGreaterThan(4);
  });

  /** The filter ids of the lists, each with an id of nothing and one of another workspace. */
  const FILTERS = ROUTES.filter((route) => route.method === 'GET').flatMap((route) =>
    Object.keys(route.query?.shape ?? {})
      .filter((name) => name.endsWith('_id'))
      .map((param) => [route.path, param] as const),
  );

  it.each(FILTERS)('GET %s?%s= an unknown or foreign id: 404 not_found naming the filter', async (path, param) => {
    const foreign = { subaccount_id: fixture.foreign.subaccount, order_id: fixture.foreign.order, market_id: 'mkt_does_not_exist' }[param];
    for (const id of [`${param.slice(0, 3)}_does_not_exist`, foreign]) {
      const response = await call(base, 'GET', `${path}?${param}=${id}`, { key: fixture.apiKey });
      expect(response.status).toBe(404);
      expect(envelopeOf(response)).toMatchObject({ code: 'not_found', param });
    }
  });

  it.each(FILTERS)('GET %s?%s= an id of the workspace still answers a page', async (path, param) => {
    const own = { subaccount_id: fixture.ids.subaccount, order_id: fixture.ids.order, market_id: fixture.ids.market }[param];
    const response = await call(base, 'GET', `${path}?${param}=${own}`, { key: fixture.apiKey });
    expect(response.status).toBe(200);
  });

  it.each(['GET', 'DELETE', 'PUT', 'HEAD'])('%s /v1/complex_orders/preview is 405 with Allow, never read as an id', async (method) => {
    const response = await call(base, method, '/v1/complex_orders/preview', { key: fixture.apiKey });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    if (method !== 'HEAD') expect(envelopeOf(response).code).toBe('method_not_allowed');
  });

  it('the path is matched as the router matches it: any case, a trailing slash optional', async () => {
    const response = await call(base, 'GET', '/V1/Complex_Orders/PREVIEW/', { key: fixture.apiKey });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('OPTIONS /v1/complex_orders/preview lists only what the path takes; POST still previews', async () => {
    const options = await call(base, 'OPTIONS', '/v1/complex_orders/preview', { key: fixture.apiKey });
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    const preview = await call(base, 'POST', '/v1/complex_orders/preview', {
      key: fixture.apiKey,
      body: { subaccount_id: fixture.ids.subaccount, market_id: fixture.ids.market, side: 'yes', action: 'buy', quantity: '1', strategy: 'sweep' },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.plan.recommended).toBeDefined();
    // The id route is untouched.
    const child = await call(base, 'GET', `/v1/complex_orders/${fixture.ids.complexOrder}`, { key: fixture.apiKey });
    expect(child.status).toBe(200);
  });
});

/** The route a request reaches: a literal path before a parametrised one, as the gateway routes it. */
function routesAt(pathname: string): Route[] {
  // Paths are matched without regard to case, and a trailing slash is optional (the router's defaults).
  const segments = pathname.replace(/(.)\/$/, '$1').split('/');
  const matches = (route: Route, literalOnly: boolean) => {
    const pattern = route.path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((part, i) => part === segments[i].toLowerCase() || (!literalOnly && /^\{\w+\}$/.test(part) && segments[i] !== ''))
    );
  };
  const literal = ROUTES.filter((route) => matches(route, true));
  return literal.length > 0 ? literal : ROUTES.filter((route) => matches(route, false));
}

/** What the document does not say about an answer: its status for the route, a header it carries. */
function problemsWith(request: HostileRequest, status: number, headers: http.IncomingHttpHeaders): string[] {
  const pathname = request.path.split('?')[0];
  const candidates = routesAt(pathname);
  const route = candidates.find((r) => r.method === request.method || (request.method === 'HEAD' && r.method === 'GET'));
  const label = `${request.method} ${route?.path ?? pathname.slice(0, 60)}`;
  if (!route) {
    // Not an operation: a path of no route is 404 (405 for a method the router does not know at
    // all, such as TRACE); a known path answers another method 405 with Allow, OPTIONS 200.
    const expected = candidates.length === 0 ? [404, 405] : request.method === 'OPTIONS' ? [200] : [405];
    return expected.includes(status) ? [] : [`${label}: answered ${status}, expected ${expected.join(' or ')}`];
  }
  const response = operationOf(route).responses[String(status)];
  if (!response) return [`${label}: answered ${status}, not documented (${request.label})`];
  const declared = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
  return DECLARED_HEADERS.filter((name) => headers[name] !== undefined && !declared.has(name)).map(
    (name) => `${label}: ${status} carries ${name}, not declared`,
  );
}
