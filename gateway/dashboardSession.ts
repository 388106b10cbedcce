import type Redis from 'ioredis';
import type { Context, Middleware } from 'koa';
import { normalizeEmail } from '../contract/emails';
import { environmentFromHeader, ENVIRONMENT_HEADER, type Environment } from '../contract/environment';
import { csrfTokenMatches, hashSessionToken, SESSION_COOKIE } from '../contract/sessionTokens';
import type { Access, Principal } from '../contract/principal';
import type { CoreClient } from './coreClient';
import { restEventPage } from '../contract/eventShape';
import { ApiError } from './errors';
import { beforeCredentialLookup } from './middleware/authFailures';
import { limiter } from './middleware/rateLimit';
import { SIGNED_OUT, type Route, type SignInLimit } from './routes';

/**
 * The dashboard's session (docs/dashboard.md; its routes are rows of routes/session.ts). The cookie holds a
 * random token; the gateway sends the core only its SHA-256 (as for API keys), and the core stores
 * only that. The page sends the session's CSRF token back in X-CSRF-Token with every change.
 */
/** The gateway's own principal: the session routes run its internal operations, with the cookie's hash. */
export const GATEWAY: Principal = { kind: 'gateway' };
const SIGN_IN_WINDOW_MS = 60_000;
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** The in-memory sign-in counters are swept of expired entries past this many. */
const SWEEP_ABOVE_ENTRIES = 10_000;

export interface SessionIdentity {
  session_id: string;
  user_id: string;
  workspace_id: string;
  access: Access;
  csrf_token: string;
}

export const signedOut = () => new ApiError('unauthorized', SIGNED_OUT);

/** `X-Environment: test|live` for dashboard credentials; test when absent. */
export function environmentOf(ctx: Context): Environment {
  const environment = environmentFromHeader(ctx.get(ENVIRONMENT_HEADER));
  if (!environment) throw new ApiError('invalid_request', 'X-Environment must be test or live.', { param: ENVIRONMENT_HEADER });
  return environment;
}

const cookieTokenHash = (ctx: Context) => {
  const token = ctx.cookies.get(SESSION_COOKIE);
  return token ? hashSessionToken(token) : undefined;
};

/** The live session a request's cookie stands for (no CSRF check: for reads only), or 401. */
export async function sessionIdentity(ctx: Context, core: CoreClient): Promise<SessionIdentity> {
  const tokenHash = cookieTokenHash(ctx);
  if (tokenHash) await beforeCredentialLookup(ctx);
  const session = tokenHash ? ((await core.execute('AuthenticateSession', { tokenHash }, GATEWAY)) as SessionIdentity | null) : null;
  if (!session) throw signedOut();
  return session;
}

/**
 * The signed-in user a request's cookie stands for, or 401; a change (any method but GET/HEAD)
 * also needs the session's CSRF token, or 403. Never cached: a signed-out or expired session is
 * refused by the very next request, on every gateway.
 */
export async function sessionPrincipal(ctx: Context, core: CoreClient): Promise<Extract<Principal, { kind: 'user' }>> {
  const session = await sessionIdentity(ctx, core);
  if (!SAFE_METHODS.has(ctx.method) && !csrfTokenMatches(session.csrf_token, ctx.get('X-CSRF-Token'))) {
    throw new ApiError('forbidden', 'This change needs the X-CSRF-Token header of the signed-in page.', { param: 'X-CSRF-Token' });
  }
  return {
    kind: 'user',
    workspaceId: session.workspace_id,
    userId: session.user_id,
    sessionId: session.session_id,
    environment: environmentOf(ctx),
    access: session.access,
  };
}

export interface SignInLimitDeps {
  redis?: Redis;
  /** Sign-in attempts allowed per minute, per client address and per email. */
  signInAttemptsPerMinute: number;
  /** Told of each refusal, with the limit's name (the gateway's metrics). */
  onRefused?: (limit: SignInLimit) => void;
}

/**
 * The limits on guessing a password (a route's `signInLimits`): per client address, per email (as
 * users.ts looks it up, so that no spelling of one address gets a budget of its own), and per
 * signed-in user (a password change proves the current password: whoever holds the cookie).
 * `sweep` keeps the in-memory counters bounded.
 */
export function signInLimiters(deps: SignInLimitDeps): Record<SignInLimit, Middleware> & { sweep: Middleware } {
  const memory = new Map<string, { reset: number }>();
  const signInLimiter = (name: SignInLimit, id: (ctx: Context) => string) =>
    limiter({
      redis: deps.redis,
      memory,
      namespace: `mk:signin:${name}`,
      durationMs: SIGN_IN_WINDOW_MS,
      max: deps.signInAttemptsPerMinute,
      id,
      message: 'Too many sign-in attempts; retry after Retry-After seconds.',
      onRefused: () => deps.onRefused?.(name),
    });
  return {
    sweep: sweepExpired(memory),
    address: signInLimiter('address', (ctx) => ctx.ip),
    email: signInLimiter('email', (ctx) => normalizeEmail((ctx.state.variables as { email: string }).email)),
    user: signInLimiter('user', (ctx) => (ctx.state.user as Extract<Principal, { kind: 'user' }>).userId),
  };
}

/** The SHA-256 of the session cookie, for a route's `tokenHash` variable; no cookie is 401. */
export function sessionTokenHash(ctx: Context): string {
  const tokenHash = cookieTokenHash(ctx);
  if (!tokenHash) throw signedOut();
  return tokenHash;
}

/**
 * A route's answer: for the session routes, a null answer refused, the cookie set from a new
 * session's token or cleared, and the body they answer with (Route.answerAs); others' as they are.
 */
export function answerOf(route: Route, ctx: Context, value: unknown): unknown {
  if (value === null && route.nullIsUnauthorized) throw new ApiError('unauthorized', route.nullIsUnauthorized);
  let body = value;
  if (route.sessionCookie === 'set') {
    const signedIn = value as { token: string; session: { expires_at: string } };
    ctx.cookies.set(SESSION_COOKIE, signedIn.token, cookieOptions(ctx, new Date(signedIn.session.expires_at)));
    body = signedIn.session;
  }
  if (route.sessionCookie === 'clear') clearCookie(ctx);
  if (route.answerAs) body = { ...route.answerAs.constants, ...(route.answerAs.field ? { [route.answerAs.field]: value } : {}) };
  if (route.events) body = restEventPage(value as Parameters<typeof restEventPage>[0]);
  return body;
}

function clearCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx, new Date(0)), maxAge: 0 });
}

/**
 * HttpOnly (scripts never read it), SameSite=Strict (not sent on requests started by other sites),
 * Secure when the request came over TLS (ctx.secure: directly, or per X-Forwarded-Proto when the
 * gateway trusts its proxy), for the whole site (the API and the page share the origin).
 */
function cookieOptions(ctx: Context, expires: Date) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: ctx.secure, path: '/', expires, overwrite: true };
}

/**
 * koa-ratelimit's memory store never forgets a key, and sign-in keys are chosen by whoever sends
 * them: past SWEEP_ABOVE_ENTRIES entries, those whose window has ended are dropped. (With Redis the
 * keys expire by themselves.)
 */
function sweepExpired(memory: Map<string, { reset: number }>): Middleware {
  return (_ctx, next) => {
    if (memory.size > SWEEP_ABOVE_ENTRIES) {
      const now = Date.now() / 1000;
      for (const [key, entry] of memory) if (entry.reset < now) memory.delete(key);
    }
    return next();
  };
}
