import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { createUser } from '../../core/services/accounts/users';
import { databaseUrl, testConfig } from '../support/env';
import { runProcess } from '../support/processes';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { asPage, sessionCookieOf, signIn, type DashboardSession } from '../support/dashboardSession';
import { startStack, type Stack } from '../support/stack';

const PASSWORD = 'correct horse battery staple';

/**
 * The dashboard's side of the REST API over real HTTP (docs/dashboard.md): sign-in and its cookie,
 * CSRF, the session on the routes that allow it, API keys, venue credentials, read-only users,
 * sign-out, the sign-in rate limit, and the page itself.
 */
describe('dashboard API', () => {
  let stack: Stack;
  let base: string;
  let workspaceId: string;
  let email: string;
  let page: DashboardSession;

  const newUser = async (workspace: string, scope: 'full' | 'read_only' = 'full') => {
    const address = `${scope}-${randomBytes(6).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: workspace, email: address, password: PASSWORD, scope });
    return address;
  };

  beforeAll(async () => {
    stack = await startStack(testConfig({ CREDENTIALS_KEK: randomBytes(32).toString('base64'), SIGN_IN_ATTEMPTS_PER_MINUTE: '1000' }));
    base = stack.gateways[0];
    workspaceId = (await buildWorkspace(stack.core.db, { name: 'Dashboard Co' })).workspace.id;
    email = await newUser(workspaceId);
    page = await signIn(base, email, PASSWORD);
  });
  afterAll(() => stack?.close());

  describe('sign-in', () => {
    it('sets an HttpOnly, SameSite=Strict session cookie and answers the user, workspace and CSRF token', async () => {
      const response = await call(base, 'POST', '/v1/session', { body: { email: email.toUpperCase(), password: PASSWORD } });
      expect(response.status).toBe(200);
      const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('mk_session='))!;
      expect(setCookie).toMatch(/; httponly/i);
      expect(setCookie).toMatch(/; samesite=strict/i);
      expect(setCookie).toMatch(/; path=\//i);
      expect(setCookie).not.toMatch(/; secure/i); // plain HTTP on loopback
      expect(response.body).toEqual({
        user: { id: expect.stringMatching(/^usr_/), email, access: 'full' },
        workspace: { id: workspaceId, name: 'Dashboard Co' },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
      });
      const hours = (Date.parse(response.body.expires_at) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);
      expect(JSON.stringify(response.body)).not.toContain('scrypt');
    });

    it('answers a wrong password and an unknown email alike, with no cookie', async () => {
      const wrong = await call(base, 'POST', '/v1/session', { body: { email, password: 'not the password' } });
      const unknown = await call(base, 'POST', '/v1/session', { body: { email: 'nobody@example.com', password: PASSWORD } });
      for (const response of [wrong, unknown]) {
        expect(response.status).toBe(401);
        expect(envelopeOf(response)).toMatchObject({ code: 'unauthorized', message: 'The email or password is incorrect.' });
        expect(sessionCookieOf(response)).toBeUndefined();
      }
    });

    it('refuses a malformed body naming the field', async () => {
      const response = await call(base, 'POST', '/v1/session', { body: { email } });
      expect(response.status).toBe(400);
      expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'password' });
      const extra = await call(base, 'POST', '/v1/session', { body: { email, password: PASSWORD, remember: true } });
      expect(envelopeOf(extra).code).toBe('invalid_request');
    });

    it('GET /v1/session answers the cookie’s session, and 401 without one', async () => {
      const current = await asPage(base, page, 'GET', '/v1/session');
      expect(current.status).toBe(200);
      expect(current.body.csrf_token).toBe(page.csrf);
      const anonymous = await call(base, 'GET', '/v1/session');
      expect(anonymous.status).toBe(401);
      const forged = await call(base, 'GET', '/v1/session', { headers: { cookie: `mk_session=${randomBytes(32).toString('base64url')}` } });
      expect(forged.status).toBe(401);
    });
  });

  describe('CSRF', () => {
    it('refuses a change without the X-CSRF-Token header, or with another session’s', async () => {
      const other = await signIn(base, email, PASSWORD);
      const missing = await asPage(base, page, 'POST', '/v1/api_keys', { body: { name: 'x', environment: 'test' }, csrf: null });
      expect(missing.status).toBe(403);
      expect(envelopeOf(missing)).toMatchObject({ code: 'forbidden', param: 'X-CSRF-Token' });
      const foreign = await asPage(base, page, 'PUT', '/v1/risk/kill_switch', { body: { enabled: true }, csrf: other.csrf });
      expect(foreign.status).toBe(403);
      const workspace = await asPage(base, page, 'GET', '/v1/workspace', { csrf: null });
      expect(workspace.status).toBe(200);
      expect(workspace.body.trading_halted).toBe(false); // the refused change did nothing
    });
  });

  describe('API keys', () => {
    it('creates a key showing its secret once, lists it without the secret, and revoking it gives 401 at once', async () => {
      const created = await asPage(base, page, 'POST', '/v1/api_keys', { body: { name: 'bot 1', environment: 'test', rate_limit: 7 } });
      expect(created.status).toBe(200);
      const { key, secret } = created.body;
      expect(secret).toMatch(/^mk_test_/);
      expect(key).toMatchObject({ name: 'bot 1', environment: 'test', rate_limit: 7, prefix: secret.slice(0, 12), last4: secret.slice(-4), revoked_at: null });

      const used = await call(base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'from the key' } });
      expect(used.status).toBe(200);
      expect(used.headers.get('ratelimit-limit')).toBe('7');

      const listed = await asPage(base, page, 'GET', '/v1/api_keys');
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(secret);
      expect(JSON.stringify(listed.body)).not.toContain(secret.slice(12, -4));
      const row = listed.body.data.find((k: { id: string }) => k.id === key.id);
      expect(row).toMatchObject({ prefix: key.prefix, last4: key.last4, last_used_at: expect.any(String), revoked_at: null });

      const revoked = await asPage(base, page, 'DELETE', `/v1/api_keys/${key.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      const after = await call(base, 'GET', '/v1/subaccounts', { key: secret });
      expect(after.status).toBe(401);
      const relisted = await asPage(base, page, 'GET', '/v1/api_keys');
      expect(relisted.body.data.find((k: { id: string }) => k.id === key.id).revoked_at).toEqual(revoked.body.revoked_at);
    });

    it('validates the new key: environment, name, rate limit', async () => {
      const cases = [
        [{ name: 'x', environment: 'prod' }, 'environment'],
        [{ environment: 'test' }, 'name'],
        [{ name: '', environment: 'test' }, 'name'],
        [{ name: 'x', environment: 'test', rate_limit: 0 }, 'rate_limit'],
        [{ name: 'x', environment: 'test', rate_limit: 1.5 }, 'rate_limit'],
      ] as const;
      for (const [body, param] of cases) {
        const response = await asPage(base, page, 'POST', '/v1/api_keys', { body });
        expect(response.status).toBe(400);
        expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param });
      }
    });

    it('another workspace’s key is not_found and keeps working; an API key cannot manage keys', async () => {
      const other = await buildWorkspace(stack.core.db);
      const response = await asPage(base, page, 'DELETE', `/v1/api_keys/${other.key.id}`);
      expect(response.status).toBe(404);
      expect((await call(base, 'GET', '/v1/subaccounts', { key: other.secret })).status).toBe(200);
      const listed = await asPage(base, page, 'GET', '/v1/api_keys');
      expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(other.key.id);
      expect((await call(base, 'GET', '/v1/api_keys', { key: other.secret })).status).toBe(401);
    });

    it('a dashboard token manages keys too', async () => {
      const { dashboardSecret } = await buildWorkspace(stack.core.db);
      const created = await call(base, 'POST', '/v1/api_keys', { key: dashboardSecret, body: { name: 'ci', environment: 'live' } });
      expect(created.status).toBe(200);
      expect(created.body.secret).toMatch(/^mk_live_/);
    });
  });

  describe('the session on API routes', () => {
    it('reads the chosen environment, and refuses an unknown one', async () => {
      const scope = { workspaceId, environment: 'live' as const };
      const live = await createSubaccount(stack.core.db, scope, { name: 'live book' }, '0');
      const liveList = await asPage(base, page, 'GET', '/v1/subaccounts', { environment: 'live' });
      expect(liveList.body.data.map((s: { id: string }) => s.id)).toEqual([live.id]);
      const testList = await asPage(base, page, 'GET', '/v1/subaccounts');
      expect(testList.body.data.map((s: { id: string }) => s.id)).not.toContain(live.id);
      const bad = await asPage(base, page, 'GET', '/v1/subaccounts', { environment: 'prod' });
      expect(bad.status).toBe(400);
      expect(envelopeOf(bad)).toMatchObject({ code: 'invalid_request', param: 'X-Environment' });
    });

    it('edits risk limits and the kill switch', async () => {
      const subaccount = (await asPage(base, page, 'POST', '/v1/subaccounts', { body: { name: 'risky' } })).body;
      const limits = await asPage(base, page, 'PUT', `/v1/risk_limits/${subaccount.id}`, { body: { max_order_notional: '12.5', max_open_orders: 3 } });
      expect(limits.status).toBe(200);
      expect(limits.body).toMatchObject({ max_order_notional: '12.5', max_open_orders: 3 });
      const on = await asPage(base, page, 'PUT', '/v1/risk/kill_switch', { body: { enabled: true } });
      expect(on.status).toBe(200);
      expect((await asPage(base, page, 'GET', '/v1/workspace')).body.trading_halted).toBe(true);
      await asPage(base, page, 'PUT', '/v1/risk/kill_switch', { body: { enabled: false } });
    });

    it('cannot place orders: trading needs an API key', async () => {
      for (const path of ['/v1/orders', '/v1/complex_orders']) {
        const response = await asPage(base, page, 'POST', path, { body: {} });
        expect(response.status).toBe(401);
        expect(envelopeOf(response).message).toMatch(/needs an API key/);
      }
    });

    it('an Authorization header wins over the cookie', async () => {
      const response = await asPage(base, page, 'GET', '/v1/workspace', { headers: { authorization: 'Bearer mk_test_invalid' } });
      expect(response.status).toBe(401);
    });
  });

  describe('a read-only user', () => {
    it('reads everything and changes nothing', async () => {
      const reader = await signIn(base, await newUser(workspaceId, 'read_only'), PASSWORD);
      expect(reader.body.user.access).toBe('read_only');
      for (const path of ['/v1/orders', '/v1/fills', '/v1/positions', '/v1/api_keys', '/v1/risk/pnl_history', '/v1/risk/stats']) {
        expect((await asPage(base, reader, 'GET', path)).status).toBe(200);
      }
      const subaccountId = (await asPage(base, page, 'POST', '/v1/subaccounts', { body: { name: 'watched' } })).body.id;
      const limitsBefore = (await asPage(base, page, 'GET', `/v1/risk_limits/${subaccountId}`)).body;
      const writes: [string, string, unknown][] = [
        ['POST', '/v1/api_keys', { name: 'x', environment: 'test' }],
        ['PUT', `/v1/risk_limits/${subaccountId}`, { max_open_orders: 0 }],
        ['PUT', '/v1/risk/kill_switch', { enabled: true }],
        ['POST', '/v1/subaccounts', { name: 'not mine to make' }],
      ];
      for (const [method, path, body] of writes) {
        const response = await asPage(base, reader, method, path, { body });
        expect(response.status).toBe(403);
        expect(envelopeOf(response).code).toBe('forbidden');
      }
      expect((await asPage(base, page, 'GET', `/v1/risk_limits/${subaccountId}`)).body).toEqual(limitsBefore);
      expect((await asPage(base, page, 'GET', '/v1/workspace')).body.trading_halted).toBe(false);
    });
  });

  describe('venue credentials', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

    it('attaches, shows only the fingerprint and the Kalshi environment, refuses bad shapes without echoing them, and removes', async () => {
      const subaccount = (await asPage(base, page, 'POST', '/v1/subaccounts', { body: { name: 'venue' } })).body;
      const path = `/v1/subaccounts/${subaccount.id}/credentials/kalshi`;
      const attached = await asPage(base, page, 'PUT', path, { body: { key_id: randomUUID(), private_key: pem, environment: 'demo' } });
      expect(attached.status).toBe(200);
      expect(attached.body).toEqual({
        subaccount_id: subaccount.id,
        exchange: 'kalshi',
        fingerprint: expect.any(String),
        environment: 'demo',
        created_at: expect.any(String),
      });
      const shown = await asPage(base, page, 'GET', `/v1/subaccounts/${subaccount.id}`);
      expect(shown.body.credentials).toEqual([
        { exchange: 'kalshi', fingerprint: attached.body.fingerprint, environment: 'demo', created_at: attached.body.created_at },
      ]);
      expect((await asPage(base, page, 'GET', '/v1/subaccounts')).body.data.find((s: { id: string }) => s.id === subaccount.id).credentials).toEqual(
        shown.body.credentials,
      );

      // Without its environment a Kalshi key is refused: a key works only where it was issued.
      const noEnvironment = await asPage(base, page, 'PUT', path, { body: { key_id: randomUUID(), private_key: pem } });
      expect(noEnvironment.status).toBe(400);
      expect(envelopeOf(noEnvironment)).toMatchObject({ code: 'invalid_request', param: 'environment' });
      expect(JSON.stringify(noEnvironment.body)).not.toContain('PRIVATE KEY');
      const wrongEnvironment = await asPage(base, page, 'PUT', path, { body: { key_id: randomUUID(), private_key: pem, environment: 'live' } });
      expect(envelopeOf(wrongEnvironment)).toMatchObject({ code: 'invalid_request', param: 'environment' });
      // Nothing was replaced.
      expect((await asPage(base, page, 'GET', `/v1/subaccounts/${subaccount.id}`)).body.credentials).toEqual(shown.body.credentials);
      expect(JSON.stringify(shown.body)).not.toContain('PRIVATE KEY');

      const planted = `not-a-key-${randomBytes(8).toString('hex')}`;
      const bad = await asPage(base, page, 'PUT', path, { body: { key_id: randomUUID(), private_key: planted, environment: 'demo' } });
      expect(bad.status).toBe(400);
      expect(envelopeOf(bad).param).toBe('private_key');
      expect(JSON.stringify(bad.body)).not.toContain(planted);
      const misspelt = await asPage(base, page, 'PUT', path, { body: { keyid: 'x', private_key: pem } });
      expect(envelopeOf(misspelt)).toMatchObject({ code: 'invalid_request', param: 'keyid' });
      expect(JSON.stringify(misspelt.body)).not.toContain('PRIVATE KEY');

      const removed = await asPage(base, page, 'DELETE', path);
      expect(removed.body).toEqual({ subaccount_id: subaccount.id, exchange: 'kalshi', deleted: true });
      expect((await asPage(base, page, 'GET', `/v1/subaccounts/${subaccount.id}`)).body.credentials).toEqual([]);
    });

    it('an API key cannot attach credentials; another workspace’s subaccount is not_found', async () => {
      const other = await buildWorkspace(stack.core.db);
      const theirs = (await call(base, 'POST', '/v1/subaccounts', { key: other.secret, body: { name: 'theirs' } })).body;
      const path = `/v1/subaccounts/${theirs.id}/credentials/kalshi`;
      const byKey = await call(base, 'PUT', path, { key: other.secret, body: { key_id: randomUUID(), private_key: pem } });
      expect(byKey.status).toBe(401);
      const byOtherPage = await asPage(base, page, 'PUT', path, { body: { key_id: randomUUID(), private_key: pem } });
      expect(byOtherPage.status).toBe(404);
    });
  });

  describe('sign-out', () => {
    it('needs the CSRF token, clears the cookie and ends the session at once', async () => {
      const session = await signIn(base, email, PASSWORD);
      expect((await asPage(base, session, 'DELETE', '/v1/session', { csrf: null })).status).toBe(403);
      const out = await asPage(base, session, 'DELETE', '/v1/session');
      expect(out.status).toBe(200);
      expect(out.headers.getSetCookie().find((c) => c.startsWith('mk_session='))).toMatch(/^mk_session=;.*expires=Thu, 01 Jan 1970/);
      for (const path of ['/v1/session', '/v1/orders', '/v1/api_keys']) {
        expect((await asPage(base, session, 'GET', path)).status).toBe(401);
      }
      expect((await asPage(base, page, 'GET', '/v1/orders')).status).toBe(200); // other sessions go on
    });
  });

  describe('disabling a user', () => {
    it('`users disable` ends their sessions at once and refuses their sign-in', async () => {
      const address = await newUser(workspaceId);
      const session = await signIn(base, address, PASSWORD);
      const userId = session.body.user.id;
      const cli = await runProcess('bin/cli.ts', ['users', 'disable', userId], { DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent' });
      expect(cli.code).toBe(0);
      expect(cli.stdout).toContain(`${userId} (${address}) disabled at`);
      expect((await asPage(base, session, 'GET', '/v1/orders')).status).toBe(401);
      expect((await call(base, 'POST', '/v1/session', { body: { email: address, password: PASSWORD } })).status).toBe(401);
      const unknown = await runProcess('bin/cli.ts', ['users', 'disable', 'usr_nobody'], { DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent' });
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/^error: .*usr_nobody/m);
    });
  });

  describe('the OpenAPI document', () => {
    it('marks the credentials each route accepts and documents the session routes', async () => {
      const { body } = await call(base, 'GET', '/v1/openapi.json');
      expect(body.paths['/v1/orders'].post.security).toEqual([{ apiKey: [] }]);
      expect(body.paths['/v1/orders'].get.security).toEqual([{ apiKey: [] }, { dashboardSession: [] }]);
      expect(body.paths['/v1/api_keys'].post.security).toEqual([{ dashboardSession: [] }, { dashboardToken: [] }]);
      expect(body.paths['/v1/subaccounts/{id}/credentials/{exchange}'].put.requestBody).toBeDefined();
      expect(Object.keys(body.paths['/v1/session']).sort()).toEqual(['delete', 'get', 'post']);
      expect(body.paths['/v1/session'].post.responses['429']).toBeDefined();
      expect(body.paths['/v1/session'].get.responses['429']).toBeUndefined(); // not limited: it only reads the cookie's session
      expect(body.paths['/v1/session'].post.security).toEqual([]);
      expect(body.paths['/v1/session'].delete.security).toEqual([{ dashboardSession: [] }]);
      expect(body.paths['/v1/session/password'].put.responses['429']).toBeDefined();
      // Generated from the rows and their operations: the body each answers with.
      const session = body.paths['/v1/session'].get.responses['200'].content['application/json'].schema;
      expect(session).toEqual({ $ref: '#/components/schemas/DashboardSession' });
      const named = body.components.schemas.DashboardSession;
      expect(named.required).toEqual(['user', 'workspace', 'csrf_token', 'expires_at']);
      expect(body.components.schemas.DashboardUser.properties.access.enum).toEqual(['full', 'read_only']);
      expect(body.paths['/v1/session'].post.responses['200'].content['application/json'].schema).toEqual(session);
      expect(body.paths['/v1/sessions'].delete.responses['200'].content['application/json'].schema).toMatchObject({
        properties: { signed_out: { type: 'boolean', const: true }, sessions_ended: { type: 'integer' } },
      });
      expect(body.paths['/v1/session/password'].put.requestBody.content['application/json'].schema.required).toEqual(['current_password', 'new_password']);
      expect(body.components.securitySchemes.dashboardSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'mk_session' });
    });

    it('answers are never cached: a new key’s secret is not kept by any cache', async () => {
      const created = await asPage(base, page, 'POST', '/v1/api_keys', { body: { name: 'uncached', environment: 'test' } });
      expect(created.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('the page', () => {
    it('is served from the gateway with a strict CSP, its assets by name, nothing from elsewhere', async () => {
      const root = await fetch(`${base}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/dashboard/');
      const html = await fetch(`${base}/dashboard/`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(html.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const text = await html.text();
      expect(text).not.toMatch(/(src|href)="(https?:)?\/\//);
      const assets = [...text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThanOrEqual(1);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      for (const asset of assets) {
        const response = await fetch(`${base}${asset}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/);
        expect(response.headers.get('cache-control')).toContain('immutable');
      }
      expect((await fetch(`${base}/dashboard/keys`)).status).toBe(200); // the page's own routes
      expect((await fetch(`${base}/dashboard/assets/missing.js`)).status).toBe(404);
    });
  });
});

describe('dashboard behind a TLS proxy, and the sign-in rate limit', () => {
  let stack: Stack;
  let base: string;
  let email: string;

  beforeAll(async () => {
    stack = await startStack(testConfig({ TRUST_PROXY: 'true', SIGN_IN_ATTEMPTS_PER_MINUTE: '3' }));
    base = stack.gateways[0];
    const { workspace } = await buildWorkspace(stack.core.db);
    email = `tls-${randomBytes(4).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId: workspace.id, email, password: PASSWORD });
  });
  afterAll(() => stack?.close());

  it('marks the cookie Secure when the request came over TLS', async () => {
    const response = await call(base, 'POST', '/v1/session', {
      body: { email, password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().find((c) => c.startsWith('mk_session='))).toMatch(/; secure/i);
  });

  it('limits attempts per client address and per email, with Retry-After', async () => {
    const attempt = (address: string, who = email) =>
      call(base, 'POST', '/v1/session', { body: { email: who, password: 'guessing' }, headers: { 'x-forwarded-for': address } });
    // One client (the address the proxy appended last) writing a new address of its own in front each time.
    const fromOne = [];
    for (let i = 0; i < 4; i += 1) fromOne.push((await attempt(`10.0.0.${i}, 198.51.100.7`, `guess-${i}@example.com`)).status);
    expect(fromOne).toEqual([401, 401, 401, 429]);
    const limited = await attempt('198.51.100.7', 'someone-else@example.com');
    expect(envelopeOf(limited).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50); // the rest of the minute

    // One email from many addresses, spelt differently each time: the per-email budget holds.
    const target = `caf\u00e9-${randomBytes(4).toString('hex')}@example.com`;
    const spellings = [target, target.toUpperCase(), ` ${target}\n`, target.normalize('NFD')]; // the last: e + combining accent
    const spread = [];
    for (let i = 0; i < 4; i += 1) spread.push((await attempt(`192.0.2.${10 + i}`, spellings[i])).status);
    expect(spread).toEqual([401, 401, 401, 429]);
    const byEmail = await attempt('192.0.2.99', target);
    expect(envelopeOf(byEmail).code).toBe('rate_limited');
    expect(Number(byEmail.headers.get('retry-after'))).toBeGreaterThan(50);
  });
});
