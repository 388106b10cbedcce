import { randomBytes } from 'node:crypto';
import { createUser } from '../../core/services/accounts/users';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { asPage, signIn as signInFrom } from '../support/dashboardSession';
import { startStack, type Stack } from '../support/stack';

const PASSWORD = 'the first long password';
const NEW_PASSWORD = 'a second, longer password';
const ATTEMPTS_PER_MINUTE = 5;

/**
 * A signed-in user's own account over real HTTP: changing the password (proving the current one,
 * ending every other session, limited like sign-in) and signing out everywhere.
 */
describe('dashboard account', () => {
  let stack: Stack;
  let base: string;
  let workspaceId: string;

  const newUser = async () => {
    const email = `account-${randomBytes(6).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId, email, password: PASSWORD });
    return email;
  };
  // Behind a trusted proxy every request comes from an address of its own, so that only the
  // per-user budget is under test (the per-address one is the sign-in suite's).
  let addresses = 0;
  const fromNewAddress = () => ({ 'x-forwarded-for': `10.9.${(addresses >> 8) & 255}.${addresses++ & 255}` });
  const signIn = (baseUrl: string, email: string, password: string) => signInFrom(baseUrl, email, password, fromNewAddress());
  const sessionStatus = async (cookie: string) => (await call(base, 'GET', '/v1/session', { headers: { cookie } })).status;
  const change = (page: Awaited<ReturnType<typeof signIn>>, body: unknown, csrf?: string | null) =>
    asPage(base, page, 'PUT', '/v1/session/password', { body, csrf, headers: fromNewAddress() });

  beforeAll(async () => {
    stack = await startStack(testConfig({ SIGN_IN_ATTEMPTS_PER_MINUTE: String(ATTEMPTS_PER_MINUTE), TRUST_PROXY: 'true' }));
    base = stack.gateways[0];
    workspaceId = (await buildWorkspace(stack.core.db, { name: 'Account Co' })).workspace.id;
  });
  afterAll(() => stack?.close());

  it('changes the password: the old one stops signing in, other sessions end, this one goes on', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const otherDevice = await signIn(base, email, PASSWORD);

    const changed = await change(page, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ password_changed: true, other_sessions_ended: 1 });
    expect(changed.headers.get('cache-control')).toBe('no-store');
    expect(JSON.stringify(changed.body)).not.toContain(NEW_PASSWORD);

    expect(await sessionStatus(page.cookie)).toBe(200);
    expect(await sessionStatus(otherDevice.cookie)).toBe(401);
    const withOld = await call(base, 'POST', '/v1/session', { body: { email, password: PASSWORD }, headers: fromNewAddress() });
    expect(withOld.status).toBe(401);
    await signIn(base, email, NEW_PASSWORD);
  });

  it('refuses a wrong current password with 403 naming it, and changes nothing', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const otherDevice = await signIn(base, email, PASSWORD);
    const refused = await change(page, { current_password: 'not the current password', new_password: NEW_PASSWORD });
    expect(refused.status).toBe(403);
    expect(envelopeOf(refused)).toMatchObject({ code: 'forbidden', param: 'current_password' });
    expect(await sessionStatus(page.cookie)).toBe(200); // a wrong guess does not sign the page out
    expect(await sessionStatus(otherDevice.cookie)).toBe(200);
    await signIn(base, email, PASSWORD);
  });

  it('refuses a new password against the policy, the same password, and a malformed body, naming the field', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const short = await change(page, { current_password: PASSWORD, new_password: 'short' });
    expect(short.status).toBe(400);
    expect(envelopeOf(short)).toMatchObject({ code: 'invalid_request', param: 'new_password' });
    expect(envelopeOf(short).message).toMatch(/^new_password must be at least 12 characters/);
    const same = await change(page, { current_password: PASSWORD, new_password: PASSWORD });
    expect(same.status).toBe(400);
    expect(envelopeOf(same)).toMatchObject({ code: 'invalid_request', param: 'new_password' });
    const missing = await change(page, { current_password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(envelopeOf(missing)).toMatchObject({ code: 'invalid_request', param: 'new_password' });
    const extra = await change(page, { current_password: PASSWORD, new_password: NEW_PASSWORD, email: 'x@example.com' });
    expect(extra.status).toBe(400);
    for (const response of [short, same, missing, extra]) expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
    await signIn(base, email, PASSWORD); // nothing changed
  });

  it('needs the session and its CSRF token', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const body = { current_password: PASSWORD, new_password: NEW_PASSWORD };
    const noCsrf = await change(page, body, null);
    expect(noCsrf.status).toBe(403);
    expect(envelopeOf(noCsrf)).toMatchObject({ code: 'forbidden', param: 'X-CSRF-Token' });
    const noCookie = await call(base, 'PUT', '/v1/session/password', { body, headers: { 'x-csrf-token': page.csrf } });
    expect(noCookie.status).toBe(401);
    const { secret } = await buildWorkspace(stack.core.db);
    const withKey = await call(base, 'PUT', '/v1/session/password', { key: secret, body });
    expect(withKey.status).toBe(401);
    await signIn(base, email, PASSWORD); // nothing changed
  });

  it('limits guesses of the current password per user, with Retry-After', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof change>> | undefined;
    for (let i = 0; i < ATTEMPTS_PER_MINUTE + 1; i += 1) {
      const response = await change(page, { current_password: `guess number ${i} of many`, new_password: NEW_PASSWORD });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.slice(0, ATTEMPTS_PER_MINUTE)).toEqual(Array(ATTEMPTS_PER_MINUTE).fill(403));
    expect(limited).toBeDefined();
    expect(envelopeOf(limited!).code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits now: the budget is the user's, not the guess's.
    expect((await change(page, { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(429);
  });

  it('lets a read-only user change their own password', async () => {
    const email = `read-only-${randomBytes(6).toString('hex')}@example.com`;
    await createUser(stack.core.db, { workspaceId, email, password: PASSWORD, scope: 'read_only' });
    const page = await signIn(base, email, PASSWORD);
    expect((await asPage(base, page, 'PUT', '/v1/risk/kill_switch', { body: { enabled: true } })).status).toBe(403);
    const changed = await change(page, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    await signIn(base, email, NEW_PASSWORD);
  });

  it('signs out everywhere: every session of the user ends, this one included; other users keep theirs', async () => {
    const email = await newUser();
    const page = await signIn(base, email, PASSWORD);
    const otherDevice = await signIn(base, email, PASSWORD);
    const someoneElse = await signIn(base, await newUser(), PASSWORD);

    expect((await asPage(base, page, 'DELETE', '/v1/sessions', { csrf: null })).status).toBe(403);
    const ended = await asPage(base, page, 'DELETE', '/v1/sessions');
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ signed_out: true, sessions_ended: 2 });
    expect(ended.headers.getSetCookie().find((c) => c.startsWith('mk_session='))).toMatch(/^mk_session=;/);
    expect(await sessionStatus(page.cookie)).toBe(401);
    expect(await sessionStatus(otherDevice.cookie)).toBe(401);
    expect(await sessionStatus(someoneElse.cookie)).toBe(200);
  });
});
