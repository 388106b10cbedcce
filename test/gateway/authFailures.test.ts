/**
 * Failed authentications are limited per client address (AUTH_FAILURES_PER_MINUTE): past the limit,
 * an address's requests answer 429 rate_limited with Retry-After before any lookup, on the REST
 * routes, the analysts' GraphQL and the session routes alike; X-Forwarded-For is believed only
 * with TRUST_PROXY; with REDIS_URL the count is shared by every gateway, and a Redis that does not
 * answer is a 503, never an unmetered lookup. Real gateways on loopback over a real core.
 */
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { redisUrl, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, closedPort, envelopeOf } from '../support/http';
import { OwnGateways, watchedTransport } from '../support/ownGateways';
import { startStack, type Stack } from '../support/stack';

const LIMIT = 5;
const UNKNOWN_KEY = `mk_test_${'A'.repeat(40)}`;
const UNKNOWN_TOKEN = `mk_dash_${'c'.repeat(40)}`;

let stack: Stack;
let validKey: string;
const own = new OwnGateways(() => stack);

/** A gateway of its own on loopback, over the stack's core, counting what it asks the core. */
async function gatewayWith(overrides: Record<string, string>): Promise<{ base: string; coreCalls: () => number }> {
  let calls = 0;
  const transport = watchedTransport(stack, () => void (calls += 1));
  const base = await own.start(testConfig({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), ...overrides }), { transport });
  return { base, coreCalls: () => calls };
}

const expectLimited = (response: Awaited<ReturnType<typeof call>>) => {
  expect(response.status).toBe(429);
  expect(envelopeOf(response)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/failed authentications/) });
  const wait = Number(response.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
};

beforeAll(async () => {
  stack = await startStack(testConfig());
  validKey = (await buildWorkspace(stack.core.db, { name: 'Auth failures' })).secret;
});
afterAll(async () => {
  await own.closeAll();
  await stack?.close();
});

it(`answers ${LIMIT} unknown keys 401, then 429 with Retry-After instead of any lookup, whatever the key, on every authenticated route`, async () => {
  const { base, coreCalls } = await gatewayWith({});
  for (let i = 0; i < LIMIT; i += 1) {
    const response = await call(base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY });
    expect(response.status).toBe(401);
    expect(envelopeOf(response).code).toBe('unauthorized');
  }
  const lookups = coreCalls();
  expect(lookups).toBe(LIMIT); // one lookup per well-formed unknown key
  for (let i = 0; i < 50; i += 1) expectLimited(await call(base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY }));
  // The address is refused whatever it sends, wherever a lookup would follow: a valid key (not in
  // this gateway's authentication cache), a dashboard token on the analysts' endpoint, a session cookie.
  expectLimited(await call(base, 'GET', '/v1/portfolio', { key: validKey }));
  expectLimited(await call(base, 'POST', '/analyst/graphql', { key: UNKNOWN_TOKEN, body: { query: '{ workspace { id } }' } }));
  expectLimited(await call(base, 'GET', '/v1/session', { headers: { cookie: 'mk_session=garbage' } }));
  expect(coreCalls()).toBe(lookups); // nothing reached the core
  // Routes without a credential are not authentication: the contract still answers.
  expect((await call(base, 'GET', '/v1/openapi.json')).status).toBe(200);
});

it('counts failures of the analysts’ endpoint and of the session routes too, and a valid key is served until the limit', async () => {
  const { base } = await gatewayWith({});
  expect((await call(base, 'GET', '/v1/portfolio', { key: validKey })).status).toBe(200);
  for (let i = 0; i < 3; i += 1) {
    expect((await call(base, 'POST', '/analyst/graphql', { key: UNKNOWN_TOKEN, body: { query: '{ workspace { id } }' } })).status).toBe(401);
  }
  expect((await call(base, 'GET', '/v1/session', { headers: { cookie: 'mk_session=garbage' } })).status).toBe(401);
  expect((await call(base, 'DELETE', '/v1/session', { headers: { cookie: 'mk_session=garbage' } })).status).toBe(401);
  expectLimited(await call(base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY }));
});

it('counts per client address: X-Forwarded-For with TRUST_PROXY, the peer’s address without it', async () => {
  const proxied = await gatewayWith({ TRUST_PROXY: 'true' });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  for (let i = 0; i < LIMIT; i += 1) expect((await call(proxied.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers: from('203.0.113.7') })).status).toBe(401);
  expectLimited(await call(proxied.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers: from('203.0.113.7') }));
  // Another client behind the same proxy keeps its own budget, with a valid key and with a wrong one.
  expect((await call(proxied.base, 'GET', '/v1/portfolio', { key: validKey, headers: from('203.0.113.8') })).status).toBe(200);
  expect((await call(proxied.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers: from('203.0.113.8') })).status).toBe(401);

  // Without TRUST_PROXY, the header is the client's own text: changing it buys no budget.
  const direct = await gatewayWith({});
  for (let i = 0; i < LIMIT; i += 1) {
    expect((await call(direct.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers: from(`198.51.100.${i}`) })).status).toBe(401);
  }
  expectLimited(await call(direct.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers: from('198.51.100.99') }));
});

it('with REDIS_URL, every gateway shares the count; a Redis that does not answer is 503 service_unavailable, without a lookup', async () => {
  // The shared Redis outlives this run: an address of this run's own, behind a trusted proxy.
  const address = `2001:db8::${Date.now().toString(16).slice(-4)}:${process.pid.toString(16)}`;
  const shared = { REDIS_URL: redisUrl(), TRUST_PROXY: 'true' };
  const one = await gatewayWith(shared);
  const two = await gatewayWith(shared);
  const headers = { 'x-forwarded-for': address };
  for (let i = 0; i < LIMIT; i += 1) {
    expect((await call(i % 2 === 0 ? one.base : two.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers })).status).toBe(401);
  }
  expectLimited(await call(one.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY, headers }));
  expectLimited(await call(two.base, 'GET', '/v1/portfolio', { key: validKey, headers }));

  const down = await gatewayWith({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  const response = await call(down.base, 'GET', '/v1/portfolio', { key: UNKNOWN_KEY });
  expect(response.status).toBe(503);
  expect(envelopeOf(response).code).toBe('service_unavailable');
  expect(response.headers.get('retry-after')).toBe('1');
  expect(down.coreCalls()).toBe(0);
});

it('refuses a failing analyst token with a dashboard token created for the workspace still usable elsewhere', async () => {
  // The limit is the address's, not the token's: a valid dashboard token from another address works.
  const proxied = await gatewayWith({ TRUST_PROXY: 'true' });
  const { workspace } = await buildWorkspace(stack.core.db, { name: 'Auth failures analyst' });
  const token = (await createDashboardToken(stack.core.db, workspace.id, 'read_only')).secret;
  for (let i = 0; i < LIMIT; i += 1) {
    expect((await call(proxied.base, 'POST', '/analyst/graphql', { key: UNKNOWN_TOKEN, body: { query: '{ workspace { id } }' }, headers: { 'x-forwarded-for': '203.0.113.20' } })).status).toBe(401);
  }
  expectLimited(await call(proxied.base, 'POST', '/analyst/graphql', { key: token, body: { query: '{ workspace { id } }' }, headers: { 'x-forwarded-for': '203.0.113.20' } }));
  const elsewhere = await call(proxied.base, 'POST', '/analyst/graphql', { key: token, body: { query: '{ workspace { id } }' }, headers: { 'x-forwarded-for': '203.0.113.21' } });
  expect(elsewhere.status).toBe(200);
  expect(elsewhere.body.data.workspace.id).toBe(workspace.id);
});
