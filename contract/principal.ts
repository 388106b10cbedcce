import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from './environment';

/**
 * Who a gateway request acts for. The gateway authenticates the caller and signs the principal
 * with the internal secret; the core trusts nothing else. `gateway` is the gateway itself, allowed
 * only the internal operations (looking up a key by its hash).
 */
export type Principal =
  | { kind: 'api_key'; workspaceId: string; keyId: string; environment: Environment }
  /**
   * A workspace dashboard token on the gateway's dashboard routes (`Authorization: Bearer
   * mk_dash_…`), scoped to the environment of its `X-Environment` header; read-only ones only read.
   */
  | { kind: 'dashboard'; workspaceId: string; tokenId: string; environment: Environment; access: Access }
  /** A signed-in workspace user (the dashboard's session cookie), in the environment the page chose. */
  | { kind: 'user'; workspaceId: string; userId: string; sessionId: string; environment: Environment; access: Access }
  | { kind: 'gateway' }
  /**
   * A dashboard credential on the analysts' GraphQL (gateway/analystGraphql.ts): a dashboard token
   * with its access, or a dashboard session as `read_only`; the only kind the core's analyst
   * endpoint accepts. `read_only` refuses mutations.
   */
  | { kind: 'analyst'; workspaceId: string; credentialId: string; environment: Environment; access: Access }
  /**
   * The core itself rendering an event for a webhook endpoint (core/graphql/eventRendering.ts): reads
   * the endpoint's workspace and environment, never signed or sent over HTTP.
   */
  | { kind: 'webhook'; workspaceId: string; endpointId: string; environment: Environment };

/** What a dashboard user or analyst credential may do: everything, or only read. */
export type Access = 'full' | 'read_only';

export const PRINCIPAL_HEADER = 'x-mk-principal';
const MAX_AGE_MS = 60_000;

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

export function signPrincipal(principal: Principal, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ ...principal, iat: now })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The principal a header carries, or undefined when it is missing, forged, malformed or stale. */
export function verifyPrincipal(header: string | null | undefined, secret: string, now = Date.now()): Principal | undefined {
  if (!header) return undefined;
  const [payload, signature, extra] = header.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let value: (Principal & { iat?: unknown }) | undefined;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!value || typeof value.iat !== 'number' || Math.abs(now - value.iat) > MAX_AGE_MS) return undefined;
  const { iat: _iat, ...principal } = value;
  return principal as Principal;
}
