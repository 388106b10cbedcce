import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest, notFound } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { generateCsrfToken, generateSessionToken, hashSessionToken, SESSION_TOKEN_FORMAT } from '../../../contract/sessionTokens';
import type { Session } from '../../generated/prisma/client';
import type { PublicUser } from './users';

/**
 * Dashboard sessions. The cookie holds a random token; the table holds only its SHA-256, a CSRF
 * token, and the times.
 *
 * Expiry is absolute, not sliding: a session ends `ttlMs` (12 hours by default) after sign-in
 * however busy it is, so a stolen cookie is good for at most that long and nobody stays signed in
 * for days by keeping a tab open. `lastSeenAt` is kept (at most one write a minute per session, so
 * that checking a cookie is nearly always a read) for "signed in devices" lists and audits, not
 * for expiry. A sliding expiry, if ever wanted, belongs in findSession next to that write, capped
 * by an absolute maximum counted from `createdAt`.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Longest ttlMs createSession accepts. */
export const SESSION_MAX_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export type SessionWithUser = Session & { user: PublicUser; workspaceId: string };

/**
 * A new session for a user who has just proved who they are. Returns the row, the token (the cookie
 * value; shown once, only its hash is stored) and the CSRF token.
 */
export async function createSession(
  db: Db,
  userId: string,
  options: { ttlMs?: number } = {},
): Promise<{ session: Session; token: string; csrfToken: string }> {
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > SESSION_MAX_TTL_MS) {
    throw invalidRequest('ttlMs', `ttlMs must be a whole number of milliseconds from 1 to ${SESSION_MAX_TTL_MS}.`);
  }
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, disabledAt: true } });
  if (!user) throw notFound('user', userId);
  if (user.disabledAt) throw new DomainError('forbidden', `User '${userId}' is disabled.`);
  const token = generateSessionToken();
  const csrfToken = generateCsrfToken();
  const now = new Date();
  const session = await db.session.create({
    data: {
      id: newId('session'),
      userId,
      tokenHash: hashSessionToken(token),
      csrfToken,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    },
  });
  return { session, token, csrfToken };
}

/**
 * The live session a cookie value stands for, with its user (without the password hash) and the
 * user's workspace; null when the token is malformed or unknown, or the session has expired or
 * been revoked, or its user has been disabled.
 */
export async function findSession(db: Db, token: string): Promise<SessionWithUser | null> {
  if (typeof token !== 'string' || !SESSION_TOKEN_FORMAT.test(token)) return null;
  return findSessionByHash(db, hashSessionToken(token));
}

/** findSession by the token's SHA-256 (hex), as the gateway sends it: the token itself never leaves the gateway. */
export async function findSessionByHash(db: Db, tokenHash: string): Promise<SessionWithUser | null> {
  if (!SHA256_HEX.test(tokenHash)) return null;
  const found = await db.session.findUnique({
    where: { tokenHash },
    include: { user: { omit: { passwordHash: true } } },
  });
  const now = Date.now();
  if (!found || found.revokedAt || found.expiresAt.getTime() <= now || found.user.disabledAt) return null;
  let session = found;
  if (now - found.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    const lastSeenAt = new Date(now);
    // Conditional, so that concurrent requests of one session write once.
    await db.session.updateMany({
      where: { id: found.id, lastSeenAt: { lte: new Date(now - LAST_SEEN_RESOLUTION_MS) } },
      data: { lastSeenAt },
    });
    session = { ...found, lastSeenAt };
  }
  return { ...session, workspaceId: session.user.workspaceId };
}

/** Ends the session of this cookie value (sign-out). True when a live session was revoked; idempotent. */
export async function revokeSession(db: Db, token: string): Promise<boolean> {
  if (typeof token !== 'string' || !SESSION_TOKEN_FORMAT.test(token)) return false;
  return revokeSessionByHash(db, hashSessionToken(token));
}

/** revokeSession by the token's SHA-256 (hex). */
export async function revokeSessionByHash(db: Db, tokenHash: string): Promise<boolean> {
  if (!SHA256_HEX.test(tokenHash)) return false;
  const { count } = await db.session.updateMany({
    where: { tokenHash, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** Ends every session of a user ("sign out everywhere", password change, disabling). Returns how many were live. */
export async function revokeUserSessions(db: Db, userId: string): Promise<number> {
  const { count } = await db.session.updateMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    data: { revokedAt: new Date() },
  });
  return count;
}
