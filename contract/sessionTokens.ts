import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from './secrets';

/**
 * Dashboard session tokens (the cookie value) and CSRF tokens: 32 random bytes each, base64url
 * without padding (43 characters). Only the SHA-256 (hex) of a session token is stored, as for API
 * keys: a read of the sessions table does not give anyone a usable cookie. The CSRF token is not a
 * credential on its own (it is useless without the cookie) and is stored as it is, to be sent to
 * the signed-in page.
 */
const TOKEN_BYTES = 32;

/** The cookie that carries a dashboard session token. */
export const SESSION_COOKIE = 'mk_session';

/** The session token in a Cookie header, or undefined. */
export function sessionTokenFromCookieHeader(header: string | null | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

export const SESSION_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function generateSessionToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function generateCsrfToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What the sessions table stores and looks a cookie up by. */
export function hashSessionToken(token: string): string {
  return sha256Hex(token);
}

/** Compares a CSRF token sent with a request to the session's, in constant time. */
export function csrfTokenMatches(expected: string, provided: string | null | undefined): boolean {
  if (typeof provided !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(provided);
  return a.length === b.length && timingSafeEqual(a, b);
}
