import { ROUTES } from '../../gateway/routes';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let base: string;
let secret: string;
let dashboardSecret: string;
let workspaceId: string;

beforeAll(async () => {
  stack = await startStack(testConfig());
  base = stack.gateways[0];
  ({ secret, dashboardSecret, workspace: { id: workspaceId } } = await buildWorkspace(stack.core.db));
});
afterAll(() => stack.close());

describe('X-Request-Id', () => {
  it('is on successful responses, and a sane caller id is echoed', async () => {
    const fresh = await call(base, 'GET', '/v1/markets?limit=1', { key: secret });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const echoed = await call(base, 'GET', '/v1/markets?limit=1', { key: secret, headers: { 'x-request-id': 'client-abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-abc-123');
  });

  it('replaces an id that could inject anything', async () => {
    const response = await call(base, 'GET', '/v1/markets', { key: secret, headers: { 'x-request-id': 'a b<script>' } });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('authentication', () => {
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a scheme other than Bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['a malformed key', { authorization: 'Bearer mk_test_short' }],
    ['a key of another prefix', { authorization: `Bearer sk_test_${'a'.repeat(40)}` }],
    ['an unknown well-formed test key', { authorization: `Bearer mk_test_${'A'.repeat(40)}` }],
    ['an unknown well-formed live key', { authorization: `Bearer mk_live_${'b'.repeat(40)}` }],
  ];
  it.each(cases)('%s gets 401 unauthorized in the envelope', async (_name, headers) => {
    const response = await call(base, 'GET', '/v1/markets', { headers });
    expect(response.status).toBe(401);
    const error = envelopeOf(response);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/API key is missing or invalid/);
  });

  it('a revoked key gets 401 on the very next request', async () => {
    const { key, secret: doomed } = await buildWorkspace(stack.core.db).then(async (ws) => ({ ...ws }));
    const dash = (await stack.core.db.dashboardToken.findFirst({ where: { workspaceId: key.workspaceId } }))!;
    expect(dash).toBeTruthy();
    expect((await call(base, 'GET', '/v1/markets', { key: doomed })).status).toBe(200);
    const { dashboardSecret: workspaceDashboard } = await buildDashboardFor(key.workspaceId);
    const revoked = await call(base, 'DELETE', `/v1/api_keys/${key.id}`, { key: workspaceDashboard });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    const after = await call(base, 'GET', '/v1/markets', { key: doomed });
    expect(after.status).toBe(401);
    expect(envelopeOf(after).code).toBe('unauthorized');
  });

  it('the revoke route takes a dashboard token, not an API key', async () => {
    const { key } = await buildWorkspace(stack.core.db);
    const withApiKey = await call(base, 'DELETE', `/v1/api_keys/${key.id}`, { key: secret });
    expect(withApiKey.status).toBe(401);
  });

  it("a dashboard cannot revoke another workspace's key: not_found, and the key keeps working", async () => {
    const other = await buildWorkspace(stack.core.db);
    const response = await call(base, 'DELETE', `/v1/api_keys/${other.key.id}`, { key: dashboardSecret });
    expect(response.status).toBe(404);
    expect(envelopeOf(response).code).toBe('not_found');
    expect((await call(base, 'GET', '/v1/markets', { key: other.secret })).status).toBe(200);
  });
});

async function buildDashboardFor(workspaceId: string) {
  const { createDashboardToken } = await import('../../core/services/accounts/apiKeys');
  const { secret: dashboard } = await createDashboardToken(stack.core.db, workspaceId);
  return { dashboardSecret: dashboard };
}

describe('the error envelope for every kind of bad request', () => {
  it('unknown route: 404 not_found', async () => {
    const response = await call(base, 'GET', '/v1/nothing_here', { key: secret });
    expect(response.status).toBe(404);
    expect(envelopeOf(response).code).toBe('not_found');
  });

  it('wrong method: 405 method_not_allowed with Allow', async () => {
    const response = await call(base, 'PATCH', '/v1/markets', { key: secret });
    expect(response.status).toBe(405);
    expect(envelopeOf(response).code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toContain('GET');
  });

  it('malformed JSON: 400 invalid_json, and nothing is created', async () => {
    // This workspace's subaccounts: other suites share the run's database and create theirs meanwhile.
    const before = await stack.core.db.subaccount.count({ where: { workspaceId } });
    const response = await call(base, 'POST', '/v1/subaccounts', {
      key: secret,
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(envelopeOf(response).code).toBe('invalid_json');
    expect(await stack.core.db.subaccount.count({ where: { workspaceId } })).toBe(before);
  });

  it('a JSON body that is not an object: 400 invalid_request', async () => {
    const response = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: ['name'] });
    expect(response.status).toBe(400);
    expect(envelopeOf(response).code).toBe('invalid_request');
  });

  it('oversize body: 413 payload_too_large', async () => {
    const response = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'x'.repeat(70 * 1024) } });
    expect(response.status).toBe(413);
    expect(envelopeOf(response).code).toBe('payload_too_large');
  });

  it('wrong content type: 415 unsupported_media_type', async () => {
    const response = await call(base, 'POST', '/v1/subaccounts', {
      key: secret,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(envelopeOf(response).code).toBe('unsupported_media_type');
  });

  it('a missing field names its param', async () => {
    const response = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: {} });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'name', message: 'name is required.' });
  });

  it('an unknown body field is rejected, not ignored', async () => {
    const response = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'a', nmae: 'b' } });
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'nmae' });
  });

  it('an unknown query parameter is rejected, not ignored', async () => {
    const response = await call(base, 'GET', '/v1/markets?venu=sim-kalshi', { key: secret });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'venu' });
  });

  it.each([['0'], ['201'], ['abc'], ['1.5']])('limit=%s is rejected with param limit', async (limit) => {
    const response = await call(base, 'GET', `/v1/fills?limit=${limit}`, { key: secret });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'limit' });
  });

  it('a cursor the API did not issue is rejected', async () => {
    const response = await call(base, 'GET', '/v1/markets?cursor=not-a-cursor', { key: secret });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('a starting balance of a trillion or more is refused, so that profits can never overflow the cash column; just below is accepted', async () => {
    const refused = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'rich', starting_balance: '1000000000000' } });
    expect(refused.status).toBe(400);
    expect(envelopeOf(refused)).toMatchObject({ code: 'invalid_request', param: 'starting_balance' });
    const accepted = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'rich enough', starting_balance: '999999999999.999999' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.cash_balance).toBe('999999999999.999999');
  });

  it('a bad decimal in a body names its field', async () => {
    const created = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'limits' } });
    const response = await call(base, 'PUT', `/v1/risk_limits/${created.body.id}`, {
      key: secret,
      body: { max_order_notional: '1e5' },
    });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'max_order_notional' });
  });
});

describe('every route answers for real', () => {
  it.each(ROUTES.filter((route) => route.auth === 'api_key').map((route) => [route.method, route.path]))(
    '%s %s never answers 501 not_implemented',
    async (method, path) => {
      const concrete = path.replace(/\{[a-z_]+\}/g, (param) => (param === '{exchange}' ? 'kalshi' : 'cxo_01abcdefghjkmnpqrstvwxyz0'));
      const response = await call(base, method, concrete, { key: secret, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      expect(response.status).not.toBe(501);
      expect(response.status).toBeLessThan(500);
    },
  );
});

describe('OpenAPI', () => {
  it('GET /v1/openapi.json lists all 18 paths of the spec with their methods', async () => {
    const response = await call(base, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const spec: [string, string][] = [
      ['post', '/v1/orders'], ['get', '/v1/complex_orders'], ['post', '/v1/complex_orders/preview'],
      ['get', '/v1/complex_orders/{id}/children'], ['get', '/v1/complex_orders/{id}/execution_report'],
      ['get', '/v1/analytics/execution'], ['get', '/v1/risk/pnl_history'], ['get', '/v1/risk/stats'],
      ['get', '/v1/risk_limits/{subaccount_id}'], ['post', '/v1/subaccounts'], ['get', '/v1/subaccounts/{id}'],
      ['delete', '/v1/subaccounts/{id}'], ['delete', '/v1/subaccounts/{id}/credentials/{exchange}'],
      ['get', '/v1/receipts'], ['get', '/v1/fills'], ['get', '/v1/markets'], ['get', '/v1/markets/{id}'],
      ['delete', '/v1/api_keys/{key_id}'],
    ];
    for (const [method, path] of spec) expect(response.body.paths[path]?.[method]).toBeDefined();
  });

  it('documents parameters, bodies, response fields and error codes', async () => {
    const { body } = await call(base, 'GET', '/v1/openapi.json');
    const search = body.paths['/v1/markets'].get;
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['q', 'venue', 'limit', 'cursor']));
    // Answers reference named schemas: MarketPage, whose items are QuotedMarket (a market with its quote).
    const named = (schema: { $ref?: string }) => body.components.schemas[schema.$ref!.replace('#/components/schemas/', '')];
    expect(search.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/MarketPage' });
    const page = named(search.responses['200'].content['application/json'].schema);
    expect(page.required).toEqual(['data', 'has_more', 'next_cursor']);
    expect(named(page.properties.data.items).properties.tick_size).toMatchObject({ type: 'string' });
    expect(search.responses['401'].description).toContain('unauthorized');
    expect(search.responses['429'].headers['Retry-After']).toBeDefined();
    const order = body.paths['/v1/orders'].post;
    expect(order.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(order.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['subaccount_id', 'market_id', 'side', 'action', 'type', 'quantity']),
    );
    expect(order.responses['422'].description).toContain('risk_limit_exceeded');
  });
});

describe('rate limits (memory store, one gateway)', () => {
  it('answers 429 rate_limited with Retry-After past the key’s limit, with RateLimit-* headers before', async () => {
    const { workspace } = await buildWorkspace(stack.core.db);
    const { buildApiKey } = await import('../support/factories');
    const { secret: limitedKey } = await buildApiKey(stack.core.db, workspace.id, 'test', 3);
    const responses = await Promise.all(Array.from({ length: 6 }, () => call(base, 'GET', '/v1/fills', { key: limitedKey })));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(3);
    expect(limited).toHaveLength(3);
    expect(ok.map((r) => r.headers.get('ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort()).toEqual([0, 1, 2]);
    expect(Number(ok[0].headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    expect(envelopeOf(limited[0]).code).toBe('rate_limited');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited[0].headers.get('retry-after'))).toBeLessThanOrEqual(1);
  });
});
