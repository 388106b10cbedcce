/**
 * The analysts' GraphQL at the gateway's /analyst/graphql, over real HTTP: authenticated with a dashboard token,
 * read-only tokens refused mutations, depth and complexity bounded, GraphiQL served without any
 * CDN, and workspace B's data unreachable from workspace A through every query shape: direct ids,
 * filters, nested relations, lists.
 *
 * Orders rest at 0.01 on sim-kalshi HURRICANE-CAT5, which only analystQueries.test.ts also uses
 * (the same way: bids nobody trades).
 */
import { createDashboardToken, revokeApiKey } from '../../core/services/accounts/apiKeys';
import { placeOrder } from '../../core/services/orders/orders';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { createUser } from '../../core/services/accounts/users';
import { asPage, signIn } from '../support/dashboardSession';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let url: string;

interface Party {
  workspaceId: string;
  full: string;
  readOnly: string;
  subaccountId: string;
  orderId: string;
  keyId: string;
}

async function party(name: string): Promise<Party> {
  const { workspace, key } = await buildWorkspace(stack.core.db, { name });
  const scope = { workspaceId: workspace.id, environment: 'test' as const };
  const subaccount = await createSubaccount(stack.core.db, scope, { name: `${name} book` }, '1000');
  const market = await stack.core.db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'HURRICANE-CAT5' } });
  const order = await placeOrder(stack.core.db, stack.core.venues, scope, {
    subaccountId: subaccount.id, marketId: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1',
  });
  const full = (await createDashboardToken(stack.core.db, workspace.id, 'full')).secret;
  const readOnly = (await createDashboardToken(stack.core.db, workspace.id, 'read_only')).secret;
  return { workspaceId: workspace.id, full, readOnly, subaccountId: subaccount.id, orderId: order.id, keyId: key.id };
}

async function gql(token: string | null, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] } };
}

let a: Party;
let b: Party;

beforeAll(async () => {
  stack = await startStack(testConfig());
  url = `${stack.gateways[0]}/analyst/graphql`;
  a = await party('Workspace A');
  b = await party('Workspace B');
});
afterAll(() => stack?.close());

describe('authentication and access', () => {
  it('refuses requests without a valid, unrevoked dashboard token', async () => {
    expect((await gql(null, '{ workspace { id } }')).status).toBe(401);
    expect((await gql('mk_dash_' + 'x'.repeat(40), '{ workspace { id } }')).status).toBe(401);
    expect((await gql('mk_test_' + 'x'.repeat(40), '{ workspace { id } }')).status).toBe(401);
    const { token, secret } = await createDashboardToken(stack.core.db, a.workspaceId, 'read_only');
    expect((await gql(secret, '{ workspace { id } }')).status).toBe(200);
    await stack.core.db.dashboardToken.update({ where: { id: token.id }, data: { revokedAt: new Date() } });
    expect((await gql(secret, '{ workspace { id } }')).status).toBe(401);
  });

  it('answers a read-only token’s queries and refuses its mutations', async () => {
    const read = await gql(a.readOnly, '{ workspace { id } subaccounts { data { id } } }');
    expect(read.status).toBe(200);
    expect(read.body.data.workspace.id).toBe(a.workspaceId);
    expect(read.body.data.subaccounts.data.map((s: { id: string }) => s.id)).toEqual([a.subaccountId]);
    const write = await gql(a.readOnly, 'mutation { setKillSwitch(enabled: true) { id } }');
    expect(write.status).toBe(403);
    expect(write.body.errors?.[0].extensions?.code).toBe('forbidden');
    expect((await stack.core.db.workspace.findUniqueOrThrow({ where: { id: a.workspaceId } })).tradingHalted).toBe(false);
  });

  it('lets a full token run mutations in its own workspace only', async () => {
    const cancel = await gql(a.full, 'mutation($id: String!) { cancelOrder(id: $id) { id status } }', { id: b.orderId });
    expect(cancel.body.errors?.[0].extensions?.code).toBe('not_found');
    expect((await stack.core.db.order.findUniqueOrThrow({ where: { id: b.orderId } })).status).toBe('open');
  });

  it('a read-only token reads the gateway’s dashboard routes and cannot change anything there (revoking a key)', async () => {
    const listed = await call(stack.gateways[0], 'GET', '/v1/api_keys', { key: a.readOnly });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(a.keyId);
    const response = await call(stack.gateways[0], 'DELETE', `/v1/api_keys/${a.keyId}`, { key: a.readOnly });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
    expect((await stack.core.db.apiKey.findUniqueOrThrow({ where: { id: a.keyId } })).revokedAt).toBeNull();
  });

  it('a signed-in dashboard user’s session cookie reads, never writes, and ends with sign-out', async () => {
    const email = `analyst-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId: a.workspaceId, email, password: 'a long enough password' });
    const page = await signIn(stack.gateways[0], email, 'a long enough password');
    const read = await gql(null, '{ workspace { id } subaccounts { data { id } } }', {}, { cookie: page.cookie });
    expect(read.status).toBe(200);
    expect(read.body.data.workspace.id).toBe(a.workspaceId);
    expect(read.body.data.subaccounts.data.map((s: { id: string }) => s.id)).toEqual([a.subaccountId]);
    const write = await gql(null, 'mutation { setKillSwitch(enabled: true) { id } }', {}, { cookie: page.cookie, 'x-csrf-token': page.csrf });
    expect(write.status).toBe(403);
    const keys = await gql(null, '{ apiKeys { data { id } } }', {}, { cookie: page.cookie });
    expect(keys.body.errors?.[0].extensions?.code).toBe('forbidden'); // an analyst's reads, not the dashboard's
    expect((await stack.core.db.workspace.findUniqueOrThrow({ where: { id: a.workspaceId } })).tradingHalted).toBe(false);
    const crossSite = await fetch(url, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(crossSite.headers.get('access-control-allow-origin')).toBeNull();
    await asPage(stack.gateways[0], page, 'DELETE', '/v1/session');
    expect((await gql(null, '{ workspace { id } }', {}, { cookie: page.cookie })).status).toBe(401);
  });

  it('bounds depth and complexity', async () => {
    const deep = await gql(a.readOnly, `{ subaccounts { data { orders { complexOrder { orders { complexOrder { orders { complexOrder { orders { id } } } } } } } } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request', param: 'depth' } });
    const wide = await gql(a.readOnly, `{ subaccounts { data { orders(limit: 200) { fills { id } receipts { id } market { id } complexOrder { id children { id order { id fills { id } } } } } } } }`);
    expect(wide.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request', param: 'complexity' } });
    expect(wide.body.data ?? null).toBeNull();
  });

  it('counts list limits in the cost, nested and for every alias and fragment spread: the issue’s query and its aliased copies answer 400, never 500', async () => {
    // 1 + 200 × (data 1 + id 1 + orders (1 + 200 × 2)) = 80,601: 40,000 orders asked for.
    const issue = '{subaccounts(limit:200){data{id orders(limit:200){id status}}}}';
    const refused = await gql(a.readOnly, issue);
    expect(refused.status).toBe(400);
    expect(refused.body.data ?? null).toBeNull();
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request', param: 'complexity' } });
    expect(refused.body.errors?.[0].message).toMatch(/complexity is 80601, above the limit of 10000/);
    const twice = await gql(a.readOnly, `{ one: ${issue.slice(1, -1)} two: ${issue.slice(1, -1)} }`);
    expect(twice.status).toBe(400);
    expect(twice.body.errors?.[0].message).toMatch(/complexity is 161202,/);

    // 1 + 100 × (3 + 24 × 2) = 5,101: one copy runs; two aliased copies (10,202) or a fragment spread twice do not.
    const within = 'subaccounts(limit:100){data{id orders(limit:24){id status}}}';
    const one = await gql(a.readOnly, `{ ${within} }`);
    expect(one.status).toBe(200);
    expect(one.body.data.subaccounts.data.map((s: { id: string }) => s.id)).toEqual([a.subaccountId]);
    const aliased = await gql(a.readOnly, `{ one: ${within} two: ${within} }`);
    expect(aliased.status).toBe(400);
    expect(aliased.body.errors?.[0].message).toMatch(/complexity is 10202,/);
    const rows = 'fragment Rows on Subaccount { id orders(limit:24){id status} }';
    const spread = await gql(a.readOnly, `{ one: subaccounts(limit:100){data{...Rows}} two: subaccounts(limit:100){data{...Rows}} } ${rows}`);
    expect(spread.status).toBe(400);
    expect(spread.body.errors?.[0].message).toMatch(/complexity is 10202,/);
    // A limit given in a variable counts the same.
    const variable = await gql(a.readOnly, 'query($n: Int) { subaccounts(limit: $n) { data { id orders(limit: $n) { id status } } } }', { n: 200 });
    expect(variable.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request', param: 'complexity' } });
  });

  it('runs the portfolio query of docs/analyst-graphql.md (cost 5,011) with a full page of orders', async () => {
    const portfolio = await gql(a.readOnly, `{
      subaccount(id: "${a.subaccountId}") {
        cashBalance
        balance { equity realizedPnl unrealizedPnl }
        positions { marketId side quantity averageCost unrealizedPnl }
        pnlHistory(from: "2026-11-01") { date realizedPnl cumulativeRealizedPnl }
        orders(limit: 100) { id status market { title } fills { price quantity fee } complexOrder { id strategy } }
        complexOrders(limit: 20) { id strategy status filledQuantity averageFillPrice children { venue status order { queuePosition { ordersAhead } } } }
      }
      executionAnalytics(strategy: sweep)
    }`);
    expect(portfolio.status).toBe(200);
    expect(portfolio.body.errors).toBeUndefined();
    expect(portfolio.body.data.subaccount.orders.map((o: { id: string }) => o.id)).toEqual([a.orderId]);
  });

  it('serves GraphiQL from the gateway itself, with no script from another origin', async () => {
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.toLowerCase()).toContain('graphiql');
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i);
    // Never framed, scripts only its own inline one (by hash), requests to this origin only.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).toMatch(/connect-src 'self'/);
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends X-Content-Type-Options: nosniff with every JSON answer: GraphQL data and errors, REST answers and the error envelope', async () => {
    const answers = [
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${a.readOnly}` }, body: JSON.stringify({ query: '{ workspace { id } }' }) }),
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${a.readOnly}` }, body: JSON.stringify({ query: '{ nope }' }) }),
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${stack.gateways[0]}/v1/api_keys`, { headers: { authorization: `Bearer ${a.readOnly}` } }),
      await fetch(`${stack.gateways[0]}/v1/orders`),
      await fetch(`${stack.gateways[0]}/v1/openapi.json`),
      await fetch(`${stack.gateways[0]}/no/such/route`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 401, 200, 401, 200, 404]);
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('workspace A cannot reach workspace B', () => {
  it.each([
    ['subaccount by id', 'query($id: ID!) { subaccount(id: $id) { id } }', () => ({ id: b.subaccountId })],
    ['order by id', 'query($id: String!) { order(id: $id) { id } }', () => ({ id: b.orderId })],
    ['risk limits by subaccount', 'query($id: ID!) { riskLimits(subaccountId: $id) { maxOrderNotional } }', () => ({ id: b.subaccountId })],
    ['positions filtered by B’s subaccount', 'query($id: String) { positions(subaccountId: $id) { data { marketId } } }', () => ({ id: b.subaccountId })],
    ['portfolio filtered by B’s subaccount', 'query($id: String) { portfolio(subaccountId: $id) { data { subaccountId } } }', () => ({ id: b.subaccountId })],
    ['risk stats filtered by B’s subaccount', 'query($id: String) { riskStats(subaccountId: $id) { grossExposure } }', () => ({ id: b.subaccountId })],
    ['P&L history filtered by B’s subaccount', 'query($id: String) { pnlHistory(subaccountId: $id) { data { date } } }', () => ({ id: b.subaccountId })],
    ['complex order by id', 'query($id: String!) { complexOrder(id: $id) { id } }', () => ({ id: 'cxo_01abcdefghjkmnpqrstvwxyz0' })],
  ])('%s answers not_found', async (_name, query, variables) => {
    const response = await gql(a.readOnly, query, variables());
    expect(response.body.errors?.[0].extensions?.code).toBe('not_found');
    expect(response.body.data ?? null).toBeNull();
    expect(JSON.stringify(response.body)).not.toContain('Workspace B');
  });

  it.each([
    ['orders filtered by B’s subaccount', 'query($id: String) { orders(subaccountId: $id) { data { id } } }'],
    ['fills filtered by B’s subaccount', 'query($id: String) { fills(subaccountId: $id) { data { id } } }'],
    ['receipts filtered by B’s subaccount', 'query($id: String) { receipts(subaccountId: $id) { data { id } } }'],
    ['complex orders filtered by B’s subaccount', 'query($id: String) { complexOrders(subaccountId: $id) { data { id } } }'],
  ])('%s answers not_found naming the filter, as the REST lists do', async (_name, query) => {
    const response = await gql(a.readOnly, query, { id: b.subaccountId });
    expect(response.body.errors?.[0].extensions).toMatchObject({ code: 'not_found', param: 'subaccountId' });
    expect(response.body.data ?? null).toBeNull();
    expect(JSON.stringify(response.body)).not.toContain('Workspace B');
  });

  it('every list and nested relation of A holds only A’s rows', async () => {
    const response = await gql(
      a.readOnly,
      `{ workspace { id }
         subaccounts(limit: 10) { data { id orders(limit: 10) { id subaccountId fills { subaccountId } receipts { subaccountId } } complexOrders(limit: 10) { id } fills(limit: 10) { subaccountId } } }
         orders { data { id subaccountId } } fills { data { subaccountId } } receipts { data { subaccountId } }
         positions { data { subaccountId } } portfolio { data { subaccountId } } complexOrders { data { subaccountId } } }`,
    );
    expect(response.body.errors).toBeUndefined();
    const text = JSON.stringify(response.body.data);
    expect(text).toContain(a.subaccountId);
    expect(text).toContain(a.orderId);
    expect(text).not.toContain(b.subaccountId);
    expect(text).not.toContain(b.orderId);
    expect(text).not.toContain(b.workspaceId);
  });

  it('the dashboard-only and trading fields are closed to analysts, the internal ones absent, and a session lists only its own keys', async () => {
    const closed: [string, Record<string, unknown>][] = [
      ['{ apiKeys { data { id } } }', {}],
      ['mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: b.keyId }],
      ['mutation { createApiKey(input: { name: "x", environment: test }) { secret } }', {}],
      ['mutation($id: ID!) { attachExchangeCredential(subaccountId: $id, exchange: kalshi, credentials: {}) { fingerprint } }', { id: b.subaccountId }],
      ['mutation($sa: String!) { placeOrder(input: { subaccountId: $sa, marketId: "mkt_x", side: yes, action: buy, type: market, quantity: "1" }) { id } }', { sa: a.subaccountId }],
    ];
    for (const [query, variables] of closed) {
      const response = await gql(a.full, query, variables);
      expect(response.body.errors?.[0].extensions?.code).toBe('forbidden');
    }
    // The gateway's own lookups and sign-in are not in the analysts' schema at all.
    const absent: [string, Record<string, unknown>][] = [
      ['query($t: String!) { authenticateSession(tokenHash: $t) { userId } }', { t: 'a'.repeat(64) }],
      ['query($h: String!) { authenticateApiKey(secretHash: $h) { keyId } }', { h: 'a'.repeat(64) }],
      ['mutation { signIn(email: "x@example.com", password: "y") { token } }', {}],
      ['mutation($t: String!) { changePassword(tokenHash: $t, currentPassword: "x", newPassword: "a new long password") }', { t: 'a'.repeat(64) }],
      ['mutation($t: String!) { signOutEverywhere(tokenHash: $t) }', { t: 'a'.repeat(64) }],
    ];
    for (const [query, variables] of absent) {
      const response = await gql(a.full, query, variables);
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Cannot query field/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    }
    expect((await stack.core.db.apiKey.findUniqueOrThrow({ where: { id: b.keyId } })).revokedAt).toBeNull();

    const email = `keys-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId: a.workspaceId, email, password: 'a long enough password' });
    const page = await signIn(stack.gateways[0], email, 'a long enough password');
    const keys = await call(stack.gateways[0], 'GET', '/v1/api_keys', { headers: { cookie: page.cookie } });
    const ids = keys.body.data.map((k: { id: string }) => k.id);
    expect(ids).toContain(a.keyId);
    expect(ids).not.toContain(b.keyId);
  });

  it('the live environment of A holds none of A’s test data, and B’s key cannot be revoked from A', async () => {
    const live = await gql(a.readOnly, '{ subaccounts { data { id } } orders { data { id } } }', {}, { 'x-environment': 'live' });
    expect(live.body.data).toEqual({ subaccounts: { data: [] }, orders: { data: [] } });
    await expect(revokeApiKey(stack.core.db, stack.core.revocations, a.workspaceId, b.keyId)).rejects.toMatchObject({ code: 'not_found' });
  });
});
