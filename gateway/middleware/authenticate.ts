import type { Context, Middleware } from 'koa';
import { API_KEY_FORMAT, DASHBOARD_TOKEN_FORMAT, sha256Hex } from '../../contract/secrets';
import { SESSION_COOKIE } from '../../contract/sessionTokens';
import type { Access, Principal } from '../../contract/principal';
import type { AuthCache } from '../authCache';
import type { CoreClient } from '../coreClient';
import { ApiError, unauthorized } from '../errors';
import { environmentOf, sessionPrincipal } from '../dashboardSession';
import { beforeCredentialLookup } from './authFailures';

export interface Authenticated {
  id: string;
  principal: Principal;
  /** Requests per second allowed to this credential. */
  rateLimit: number;
}

/** Who may call a route: its credential kind, and whether a dashboard session may call it too. */
export interface RouteAccess {
  auth: 'api_key' | 'dashboard';
  /** An API-key route the dashboard's session may also call (docs/dashboard.md). */
  session?: boolean;
}

export interface AuthDeps {
  core: CoreClient;
  cache: AuthCache<Authenticated>;
  dashboardRateLimit: number;
}

const GATEWAY: Principal = { kind: 'gateway' };

/**
 * `Authorization: Bearer <secret>`: the format is checked first (no lookup for garbage), then the
 * SHA-256 of the secret is looked up in the core. Missing, malformed, unknown and revoked keys all
 * get the same 401, so that nothing is learned by trying. A request with an Authorization header is
 * judged by it alone; without one, the dashboard's session cookie is accepted where the route
 * allows it, with its CSRF token on every change.
 */
export function authenticate(access: RouteAccess, deps: AuthDeps): Middleware {
  const sessionAllowed = access.auth === 'dashboard' || access.session === true;
  return async (ctx, next) => {
    const authorization = ctx.get('Authorization');
    if (authorization === '' && ctx.cookies.get(SESSION_COOKIE)) {
      if (!sessionAllowed) throw new ApiError('unauthorized', 'This route needs an API key (Authorization: Bearer mk_…); the dashboard session is not accepted here.');
      const principal = await sessionPrincipal(ctx, deps.core);
      ctx.state.auth = { id: principal.sessionId, principal, rateLimit: deps.dashboardRateLimit };
    } else {
      ctx.state.auth = await bearerAuth(access.auth, authorization, ctx, deps);
    }
    await next();
  };
}

export async function bearerAuth(kind: RouteAccess['auth'], authorization: string, ctx: Context, deps: AuthDeps): Promise<Authenticated> {
  const format = kind === 'api_key' ? API_KEY_FORMAT : DASHBOARD_TOKEN_FORMAT;
  const match = /^Bearer ([^\s]+)$/.exec(authorization);
  if (!match || !format.test(match[1])) throw unauthorized();
  const secretHash = sha256Hex(match[1]);
  let auth = deps.cache.get(secretHash);
  if (!auth) {
    await beforeCredentialLookup(ctx);
    auth = kind === 'api_key' ? await lookupApiKey(deps.core, secretHash) : await lookupDashboardToken(deps.core, secretHash, deps.dashboardRateLimit);
    if (!auth) throw unauthorized();
    deps.cache.set(secretHash, auth);
  }
  if (auth.principal.kind === 'dashboard') return { ...auth, principal: { ...auth.principal, environment: environmentOf(ctx) } };
  return auth;
}

async function lookupApiKey(core: CoreClient, secretHash: string): Promise<Authenticated | undefined> {
  const key = (await core.execute('AuthenticateApiKey', { secretHash }, GATEWAY)) as
    | { key_id: string; workspace_id: string; environment: 'test' | 'live'; rate_limit: number }
    | null;
  if (!key) return undefined;
  return {
    id: key.key_id,
    principal: { kind: 'api_key', keyId: key.key_id, workspaceId: key.workspace_id, environment: key.environment },
    rateLimit: key.rate_limit,
  };
}

async function lookupDashboardToken(core: CoreClient, secretHash: string, rateLimit: number): Promise<Authenticated | undefined> {
  const token = (await core.execute('AuthenticateDashboardToken', { secretHash }, GATEWAY)) as
    | { token_id: string; workspace_id: string; access: Access }
    | null;
  if (!token) return undefined;
  return {
    id: token.token_id,
    // The environment is the request's own (X-Environment): bearerAuth sets it on every request.
    principal: { kind: 'dashboard', tokenId: token.token_id, workspaceId: token.workspace_id, environment: 'test', access: token.access },
    rateLimit,
  };
}
