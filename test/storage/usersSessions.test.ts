import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { DomainError } from '../../core/domain/errors';
import { isIdOf } from '../../core/domain/ids';
import { hashPassword, SCRYPT_PARAMS, verifyPassword } from '../../core/domain/passwords';
import { hashSessionToken, SESSION_TOKEN_FORMAT } from '../../contract/sessionTokens';
import { sha256Hex } from '../../contract/secrets';
import {
  createSession,
  findSession,
  LAST_SEEN_RESOLUTION_MS,
  revokeSession,
  revokeUserSessions,
  SESSION_TTL_MS,
} from '../../core/services/accounts/sessions';
import { authenticateUser, createUser, disableUser } from '../../core/services/accounts/users';
import { createWorkspace } from '../../core/services/accounts/workspaces';
import { databaseUrl } from '../support/env';

/** Users and dashboard sessions on the run's PostgreSQL database. Every sign-in costs a scrypt. */
const SLOW = 60_000;
const PASSWORD = 'Tr0ub4dor & 3 horses';

let db: Db;
let workspaceId: string;
/** Emails are unique across workspaces and the database is shared by the run: keep them apart. */
const run = `${Date.now().toString(36)}${process.pid}`;
const email = (name: string) => `${name}.${run}@example.com`;

async function expectDomainError(promise: Promise<unknown>, code: string, param?: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  if (param) expect((error as DomainError).param).toBe(param);
  return error as DomainError;
}

/** The row as PostgreSQL holds it, every column as text. */
async function rawRow(table: 'users' | 'sessions', id: string): Promise<string> {
  const rows =
    table === 'users'
      ? await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(u)::text AS row FROM users u WHERE id = ${id}`
      : await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(s)::text AS row FROM sessions s WHERE id = ${id}`;
  expect(rows).toHaveLength(1);
  return rows[0].row;
}

beforeAll(async () => {
  db = createPrismaClient(databaseUrl(), 2);
  workspaceId = (await createWorkspace(db, 'Users and sessions')).id;
});
afterAll(async () => {
  await db.$disconnect();
});

describe('createUser', () => {
  it('creates a user with a usr_ id, the email trimmed and lower-cased, full scope by default, no hash returned', async () => {
    const user = await createUser(db, { workspaceId, email: `  ${email('Alice').toUpperCase()} `, password: PASSWORD });
    expect(isIdOf('user', user.id)).toBe(true);
    expect(user).toMatchObject({ workspaceId, email: email('alice'), scope: 'full', disabledAt: null });
    expect(user).not.toHaveProperty('passwordHash');
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.email).toBe(email('alice'));
  }, SLOW);

  it('creates read-only users', async () => {
    const user = await createUser(db, { workspaceId, email: email('reader'), password: PASSWORD, scope: 'read_only' });
    expect(user.scope).toBe('read_only');
  }, SLOW);

  it('the stored hash is scrypt, never equals nor contains the password, and verifies', async () => {
    const password = 'a password to look for 12345';
    const user = await createUser(db, { workspaceId, email: email('hash'), password });
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$${SCRYPT_PARAMS.r}\\$${SCRYPT_PARAMS.p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(row.passwordHash).not.toBe(password);
    expect(row.passwordHash).not.toContain(password);
    await expect(verifyPassword(password, row.passwordHash)).resolves.toBe(true);
    // Nothing in any column of the row holds the password, a large part of it, or an unsalted digest of it.
    const raw = await rawRow('users', user.id);
    expect(raw).toContain(row.passwordHash);
    for (const fragment of [password, password.slice(0, 12), password.slice(-12), sha256Hex(password), Buffer.from(password).toString('base64')]) {
      expect(raw).not.toContain(fragment);
    }
  }, SLOW);

  it('a second user with the same email, in any case or workspace, is a conflict', async () => {
    await createUser(db, { workspaceId, email: email('dup'), password: PASSWORD });
    const other = await createWorkspace(db, 'Another workspace');
    const error = await expectDomainError(
      createUser(db, { workspaceId: other.id, email: email('DUP'), password: PASSWORD }),
      'conflict',
      'email',
    );
    expect(error.status).toBe(409);
    expect(error.message).toContain(email('dup'));
    expect(await db.user.count({ where: { email: email('dup') } })).toBe(1);
  }, SLOW);

  it('an unknown workspace is not_found', async () => {
    const error = await expectDomainError(
      createUser(db, { workspaceId: 'ws_01zzzzzzzzzzzzzzzzzzzzzzzz', email: email('orphan'), password: PASSWORD }),
      'not_found',
    );
    expect(error.message).toContain('ws_01zzzzzzzzzzzzzzzzzzzzzzzz');
    expect(await db.user.count({ where: { email: email('orphan') } })).toBe(0);
  }, SLOW);

  it('a password against the policy is invalid_request on password, and nothing is stored', async () => {
    for (const password of ['short pass', 'x'.repeat(40), 'y'.repeat(257)]) {
      const error = await expectDomainError(createUser(db, { workspaceId, email: email('weak'), password }), 'invalid_request', 'password');
      expect(error.status).toBe(400);
    }
    expect(await db.user.count({ where: { email: email('weak') } })).toBe(0);
  }, SLOW);

  it('an email that is not one is invalid_request on email', async () => {
    for (const bad of ['', '   ', 'no-at-sign.example.com', 'two@@example.com', 'a b@example.com', 'user@localhost', 'user@.example.com', `${'a'.repeat(250)}@example.com`]) {
      await expectDomainError(createUser(db, { workspaceId, email: bad, password: PASSWORD }), 'invalid_request', 'email');
    }
  }, SLOW);
});

describe('authenticateUser', () => {
  let userId: string;
  beforeAll(async () => {
    userId = (await createUser(db, { workspaceId, email: email('signin'), password: PASSWORD })).id;
  }, SLOW);

  it('the right password gives the user, without its hash; the email in any case and with spaces', async () => {
    const user = await authenticateUser(db, email('signin'), PASSWORD);
    expect(user).toMatchObject({ id: userId, workspaceId, email: email('signin') });
    expect(user).not.toHaveProperty('passwordHash');
    await expect(authenticateUser(db, ` ${email('SignIn')} `, PASSWORD)).resolves.toMatchObject({ id: userId });
  }, SLOW);

  it('a wrong password, an unknown email or a malformed one give null', async () => {
    await expect(authenticateUser(db, email('signin'), `${PASSWORD}!`)).resolves.toBeNull();
    await expect(authenticateUser(db, email('signin'), PASSWORD.toUpperCase())).resolves.toBeNull();
    await expect(authenticateUser(db, email('signin'), '')).resolves.toBeNull();
    await expect(authenticateUser(db, email('nobody'), PASSWORD)).resolves.toBeNull();
    await expect(authenticateUser(db, 'not an email', PASSWORD)).resolves.toBeNull();
  }, SLOW);

  it('an unknown email costs a scrypt verification like a known one (no fast "no such user")', async () => {
    const time = async (address: string) => {
      const start = performance.now();
      await authenticateUser(db, address, 'a wrong password here');
      return performance.now() - start;
    };
    // scrypt at N = 2^15 takes tens of milliseconds on any machine; a bare database miss about one.
    const floor = 15;
    expect(await time(email('nobody'))).toBeGreaterThan(floor);
    expect(await time('not an email')).toBeGreaterThan(floor);
    expect(await time(email('signin'))).toBeGreaterThan(floor);
  }, SLOW);

  it('a disabled user gives null even with the right password', async () => {
    const user = await createUser(db, { workspaceId, email: email('gone'), password: PASSWORD });
    await expect(authenticateUser(db, email('gone'), PASSWORD)).resolves.toMatchObject({ id: user.id });
    const disabled = await disableUser(db, user.id);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect(disabled).not.toHaveProperty('passwordHash');
    await expect(authenticateUser(db, email('gone'), PASSWORD)).resolves.toBeNull();
    // Idempotent: disabling again keeps the first time.
    const again = await disableUser(db, user.id);
    expect(again.disabledAt!.getTime()).toBe(disabled.disabledAt!.getTime());
  }, SLOW);

  it('disableUser of an unknown user, or of another workspace, is not_found', async () => {
    await expectDomainError(disableUser(db, 'usr_01zzzzzzzzzzzzzzzzzzzzzzzz'), 'not_found');
    await expectDomainError(disableUser(db, userId, 'ws_01zzzzzzzzzzzzzzzzzzzzzzzz'), 'not_found');
    const row = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(row.disabledAt).toBeNull();
  }, SLOW);

  it('a hash made with older parameters is replaced at the next successful sign-in', async () => {
    const user = await createUser(db, { workspaceId, email: email('oldhash'), password: PASSWORD });
    // What an earlier version with N = 2^14 would have stored.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 3);
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const old = `scrypt$${2 ** 14}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    await db.user.update({ where: { id: user.id }, data: { passwordHash: old } });

    await expect(authenticateUser(db, email('oldhash'), 'wrong password!!')).resolves.toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(old);

    await expect(authenticateUser(db, email('oldhash'), PASSWORD)).resolves.toMatchObject({ id: user.id });
    const rehashed = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    expect(rehashed).not.toBe(old);
    expect(rehashed.startsWith(`scrypt$${SCRYPT_PARAMS.N}$`)).toBe(true);
    await expect(authenticateUser(db, email('oldhash'), PASSWORD)).resolves.toMatchObject({ id: user.id });
  }, SLOW);
});

describe('sessions', () => {
  let userId: string;
  beforeAll(async () => {
    userId = (await createUser(db, { workspaceId, email: email('session'), password: PASSWORD })).id;
  }, SLOW);

  it('the default lifetime is 12 hours', () => {
    expect(SESSION_TTL_MS).toBe(12 * 60 * 60 * 1000);
  });

  it('createSession: a ses_ id, a 32-byte token and CSRF token, expiring after the TTL', async () => {
    const before = Date.now();
    const { session, token, csrfToken } = await createSession(db, userId);
    expect(isIdOf('session', session.id)).toBe(true);
    expect(token).toMatch(SESSION_TOKEN_FORMAT);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(Buffer.from(csrfToken, 'base64url')).toHaveLength(32);
    expect(csrfToken).not.toBe(token);
    expect(session).toMatchObject({ userId, csrfToken, revokedAt: null });
    expect(session.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_TTL_MS);
    expect(session.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + SESSION_TTL_MS);
  });

  it('the raw token is stored nowhere: only its SHA-256 hex', async () => {
    const { session, token } = await createSession(db, userId);
    const row = await db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(row.tokenHash).toBe(hashSessionToken(token));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const raw = await rawRow('sessions', session.id);
    expect(raw).toContain(row.tokenHash);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(token.slice(0, 16));
    expect(raw).not.toContain(Buffer.from(token, 'base64url').toString('hex'));
    const [{ count }] = await db.$queryRaw<{ count: bigint }[]>`
      SELECT count(*) AS count FROM sessions s WHERE position(${token} IN row_to_json(s)::text) > 0`;
    expect(Number(count)).toBe(0);
  });

  it('findSession gives the session with its user (no hash) and workspace', async () => {
    const { session, token, csrfToken } = await createSession(db, userId);
    const found = await findSession(db, token);
    expect(found).toMatchObject({ id: session.id, userId, csrfToken, workspaceId, user: { id: userId, email: email('session'), workspaceId } });
    expect(found!.user).not.toHaveProperty('passwordHash');
  });

  it('findSession of an unknown, malformed or hash-instead-of-token value is null', async () => {
    const { token } = await createSession(db, userId);
    await expect(findSession(db, 'A'.repeat(43))).resolves.toBeNull();
    await expect(findSession(db, '')).resolves.toBeNull();
    await expect(findSession(db, `${token}x`)).resolves.toBeNull();
    await expect(findSession(db, hashSessionToken(token))).resolves.toBeNull();
    await expect(findSession(db, token)).resolves.not.toBeNull();
  });

  it('an expired session is not found', async () => {
    const { token } = await createSession(db, userId, { ttlMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(findSession(db, token)).resolves.toBeNull();

    const { session, token: other } = await createSession(db, userId);
    await expect(findSession(db, other)).resolves.not.toBeNull();
    await db.session.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expect(findSession(db, other)).resolves.toBeNull();
  });

  it('the expiry is absolute: using a session does not push it back', async () => {
    const { session, token } = await createSession(db, userId);
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: new Date(Date.now() - 5 * LAST_SEEN_RESOLUTION_MS) } });
    const found = await findSession(db, token);
    expect(found!.expiresAt.getTime()).toBe(session.expiresAt.getTime());
    const row = await db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.expiresAt.getTime()).toBe(session.expiresAt.getTime());
  });

  it('lastSeenAt is written at most once a minute', async () => {
    const { session, token } = await createSession(db, userId);
    await findSession(db, token);
    let row = await db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.lastSeenAt.getTime()).toBe(session.lastSeenAt.getTime()); // just created: no write

    const stale = new Date(Date.now() - 2 * LAST_SEEN_RESOLUTION_MS);
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: stale } });
    const before = Date.now();
    const found = await findSession(db, token);
    row = await db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(found!.lastSeenAt.getTime()).toBe(row.lastSeenAt.getTime());

    const written = row.lastSeenAt.getTime();
    await findSession(db, token);
    row = await db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.lastSeenAt.getTime()).toBe(written);
  });

  it('revokeSession ends that session only, idempotently', async () => {
    const a = await createSession(db, userId);
    const b = await createSession(db, userId);
    await expect(revokeSession(db, a.token)).resolves.toBe(true);
    await expect(revokeSession(db, a.token)).resolves.toBe(false);
    await expect(revokeSession(db, 'B'.repeat(43))).resolves.toBe(false);
    await expect(findSession(db, a.token)).resolves.toBeNull();
    await expect(findSession(db, b.token)).resolves.toMatchObject({ id: b.session.id });
    const row = await db.session.findUniqueOrThrow({ where: { id: a.session.id } });
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("revokeUserSessions ends every live session of that user and nobody else's", async () => {
    const user = await createUser(db, { workspaceId, email: email('everywhere'), password: PASSWORD });
    const mine = await Promise.all([createSession(db, user.id), createSession(db, user.id), createSession(db, user.id)]);
    const theirs = await createSession(db, userId);
    await revokeSession(db, mine[0].token);
    await expect(revokeUserSessions(db, user.id)).resolves.toBe(2);
    for (const { token } of mine) await expect(findSession(db, token)).resolves.toBeNull();
    await expect(findSession(db, theirs.token)).resolves.not.toBeNull();
    await expect(revokeUserSessions(db, user.id)).resolves.toBe(0);
  }, SLOW);

  it('disabling a user ends their sessions, and no new one can be made for them', async () => {
    const user = await createUser(db, { workspaceId, email: email('disabled.sessions'), password: PASSWORD });
    const { session, token } = await createSession(db, user.id);
    await expect(findSession(db, token)).resolves.not.toBeNull();
    await disableUser(db, user.id);
    await expect(findSession(db, token)).resolves.toBeNull();
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).revokedAt).toBeInstanceOf(Date);
    await expectDomainError(createSession(db, user.id), 'forbidden');
  }, SLOW);

  it('a session whose user is disabled behind its back (no revocation) is not found either', async () => {
    const user = await createUser(db, { workspaceId, email: email('disabled.direct'), password: PASSWORD });
    const { token } = await createSession(db, user.id);
    await db.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    await expect(findSession(db, token)).resolves.toBeNull();
  }, SLOW);

  it('createSession for an unknown user is not_found; a bad ttl is invalid_request', async () => {
    await expectDomainError(createSession(db, 'usr_01zzzzzzzzzzzzzzzzzzzzzzzz'), 'not_found');
    for (const ttlMs of [0, -1, 1.5, 31 * 24 * 60 * 60 * 1000]) {
      await expectDomainError(createSession(db, userId, { ttlMs }), 'invalid_request', 'ttlMs');
    }
  });
});
