import type Router from '@koa/router';
import type Redis from 'ioredis';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { normalizeEmail } from '../core/domain/emails';
import { environmentFromHeader, ENVIRONMENT_HEADER, type Environment } from '../contract/environment';
import { csrfTokenMatches, hashSessionToken, SESSION_COOKIE } from '../core/domain/sessionTokens';
import type { Access, Principal } from '../contract/principal';
import type { CoreClient } from './coreClient';
import { ApiError } from './errors';
import { jsonBody } from './middleware/jsonBody';
import { limiter } from './middleware/rateLimit';

/**
 * The dashboard's sign-in, session check and sign-out (docs/dashboard.md). The cookie holds a
 * random token; the gateway sends the core only its SHA-256 (as for API keys), and the core stores
 * only that. The page sends the session's CSRF token back in X-CSRF-Token with every change.
 */
const GATEWAY: Principal = { kind: 'gateway' };
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

interface SessionFields {
  user_id: string;
  email: string;
  access: Access;
  workspace_id: string;
  workspace_name: string;
  csrf_token: string;
  expires_at: string;
}

export const signedOut = () => new ApiError('unauthorized', 'Sign in first: the session is missing, has ended or has expired.');

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

const signInBody = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) });
const passwordChangeBody = z.strictObject({ current_password: z.string().min(1).max(1024), new_password: z.string().min(1).max(1024) });

/** What the page gets about its session: who, which workspace, the CSRF token and when it ends. */
const sessionBody = (session: SessionFields) => ({
  user: { id: session.user_id, email: session.email, access: session.access },
  workspace: { id: session.workspace_id, name: session.workspace_name },
  csrf_token: session.csrf_token,
  expires_at: session.expires_at,
});

export interface SessionRouteDeps {
  core: CoreClient;
  redis?: Redis;
  /** Sign-in attempts allowed per minute, per client address and per email. */
  signInAttemptsPerMinute: number;
}

/** POST, GET and DELETE /v1/session; DELETE /v1/sessions (everywhere); PUT /v1/session/password. */
export function registerSessionRoutes(router: Router, deps: SessionRouteDeps): void {
  const { core } = deps;
  const memory = new Map<string, { reset: number }>();
  const signInLimiter = (name: string, id: (ctx: Context) => string) =>
    limiter({
      redis: deps.redis,
      memory,
      namespace: `mk:signin:${name}`,
      durationMs: SIGN_IN_WINDOW_MS,
      max: deps.signInAttemptsPerMinute,
      id,
      message: 'Too many sign-in attempts; retry after Retry-After seconds.',
    });
  const byAddress = signInLimiter('address', (ctx) => ctx.ip);
  // The email as users.ts looks it up, so that no spelling of one address gets a budget of its own.
  const byEmail = signInLimiter('email', (ctx) => normalizeEmail((ctx.state.signIn as z.infer<typeof signInBody>).email));
  const readSignIn: Middleware = (ctx, next) => {
    const parsed = signInBody.safeParse(ctx.state.body);
    if (!parsed.success) {
      const param = parsed.error.issues[0].path.join('.') || 'email';
      throw new ApiError('invalid_request', `${param} is required: sign in with { "email", "password" }.`, { param });
    }
    ctx.state.signIn = parsed.data;
    return next();
  };
  // A password change proves the current password: guessing it is limited like signing in, per
  // address and per user (whoever holds the cookie).
  const byUser = signInLimiter('user', (ctx) => (ctx.state.user as Extract<Principal, { kind: 'user' }>).userId);
  const signedInUser: Middleware = async (ctx, next) => {
    ctx.state.user = await sessionPrincipal(ctx, core); // a live session, and its CSRF token
    return next();
  };

  router.post('/v1/session', sweepExpired(memory), byAddress, jsonBody(), readSignIn, byEmail, async (ctx) => {
    const signedIn = (await core.execute('SignIn', ctx.state.signIn, GATEWAY)) as { token: string; session: SessionFields } | null;
    if (!signedIn) throw new ApiError('unauthorized', 'The email or password is incorrect.');
    ctx.cookies.set(SESSION_COOKIE, signedIn.token, cookieOptions(ctx, new Date(signedIn.session.expires_at)));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = sessionBody(signedIn.session);
  });

  router.get('/v1/session', async (ctx) => {
    const tokenHash = cookieTokenHash(ctx);
    const session = tokenHash ? ((await core.execute('CurrentSession', { tokenHash }, GATEWAY)) as SessionFields | null) : null;
    if (!session) throw signedOut();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = sessionBody(session);
  });

  router.delete('/v1/session', signedInUser, async (ctx) => {
    await core.execute('SignOut', { tokenHash: cookieTokenHash(ctx) }, GATEWAY);
    clearCookie(ctx);
    ctx.body = { signed_out: true };
  });

  router.delete('/v1/sessions', signedInUser, async (ctx) => {
    const ended = (await core.execute('SignOutEverywhere', { tokenHash: cookieTokenHash(ctx) }, GATEWAY)) as number;
    clearCookie(ctx);
    ctx.body = { signed_out: true, sessions_ended: ended };
  });

  router.put('/v1/session/password', sweepExpired(memory), byAddress, signedInUser, byUser, jsonBody(), async (ctx) => {
    const parsed = passwordChangeBody.safeParse(ctx.state.body);
    if (!parsed.success) {
      const param = parsed.error.issues[0].path.join('.') || 'new_password';
      throw new ApiError('invalid_request', `${param} is required: send { "current_password", "new_password" }.`, { param });
    }
    const { current_password: currentPassword, new_password: newPassword } = parsed.data;
    const ended = (await core.execute('ChangePassword', { tokenHash: cookieTokenHash(ctx), currentPassword, newPassword }, GATEWAY)) as number;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { password_changed: true, other_sessions_ended: ended };
  });
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
