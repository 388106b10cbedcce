import type { Middleware } from 'koa';
import { API_KEY_FORMAT, DASHBOARD_TOKEN_FORMAT, sha256Hex } from '../../core/domain/secrets';
import type { Principal } from '../../core/protocol/principal';
import type { AuthCache } from '../authCache';
import type { CoreClient } from '../coreClient';
import { unauthorized } from '../errors';

export interface Authenticated {
  id: string;
  principal: Principal;
  /** Requests per second allowed to this credential. */
  rateLimit: number;
}

const GATEWAY: Principal = { kind: 'gateway' };

/**
 * `Authorization: Bearer <secret>`: the format is checked first (no lookup for garbage), then the
 * SHA-256 of the secret is looked up in the core. Missing, malformed, unknown and revoked keys all
 * get the same 401, so that nothing is learned by trying.
 */
export function authenticate(
  kind: 'api_key' | 'dashboard',
  core: CoreClient,
  cache: AuthCache<Authenticated>,
  dashboardRateLimit: number,
): Middleware {
  const format = kind === 'api_key' ? API_KEY_FORMAT : DASHBOARD_TOKEN_FORMAT;
  return async (ctx, next) => {
    const match = /^Bearer ([^\s]+)$/.exec(ctx.get('Authorization'));
    if (!match || !format.test(match[1])) throw unauthorized();
    const secretHash = sha256Hex(match[1]);
    let auth = cache.get(secretHash);
    if (!auth) {
      auth = kind === 'api_key' ? await lookupApiKey(core, secretHash) : await lookupDashboard(core, secretHash, dashboardRateLimit);
      if (!auth) throw unauthorized();
      cache.set(secretHash, auth);
    }
    ctx.state.auth = auth;
    await next();
  };
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

async function lookupDashboard(core: CoreClient, secretHash: string, rateLimit: number): Promise<Authenticated | undefined> {
  const token = (await core.execute('AuthenticateDashboardToken', { secretHash }, GATEWAY)) as
    | { token_id: string; workspace_id: string }
    | null;
  if (!token) return undefined;
  return { id: token.token_id, principal: { kind: 'dashboard', tokenId: token.token_id, workspaceId: token.workspace_id }, rateLimit };
}
