import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { documentProblem } from '../contract/documentLimits';
import { ANALYST_GRAPHQL_PATH } from '../contract/endpoints';
import type { Principal } from '../contract/principal';
import { TEXT_RULE, unstorableTextPath } from '../contract/storableText';
import { SESSION_COOKIE } from '../core/domain/sessionTokens';
import type { CoreClient } from './coreClient';
import { environmentOf, sessionIdentity } from './dashboardSession';
import { ApiError, upstreamUnavailable } from './errors';
import { bearerAuth, type AuthDeps, type Authenticated } from './middleware/authenticate';
import { jsonBody } from './middleware/jsonBody';

/** GraphiQL, bundled in @graphql-yoga/render-graphiql: nothing is fetched from a CDN. */
const GRAPHIQL_PAGE = renderGraphiQL({
  title: 'Prediction markets — analyst GraphQL',
  endpoint: ANALYST_GRAPHQL_PATH,
  // Header values must be Latin-1 for fetch: no placeholder with an ellipsis here.
  headers: JSON.stringify({ 'X-Environment': 'test' }),
  defaultQuery: [
    '# Signed in to the dashboard in this browser? Queries just work (the session reads only).',
    '# Otherwise add "Authorization": "Bearer mk_dash_..." under Headers below.',
    '# X-Environment chooses test or live.',
    '{',
    '  workspace { id name tradingHalted }',
    '  subaccounts { data { id name cashBalance } }',
    '}',
    '',
  ].join('\n'),
});

/**
 * GraphiQL's page is one HTML file with its script and style inline: scripts only that one, by its
 * SHA-256; styles inline (the editor sets them at run time); its editor's workers from blob: URLs
 * it makes itself; requests to this origin only; never framed.
 */
const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${inlineScriptHashes(GRAPHIQL_PAGE)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function inlineScriptHashes(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  return hashes.join(' ');
}

type AnalystPrincipal = Extract<Principal, { kind: 'analyst' }>;

interface GraphQLBody {
  errors?: { extensions?: Record<string, unknown> }[];
}

/**
 * The analysts' GraphQL at /analyst/graphql (docs/analyst-graphql.md), an edge like every REST
 * route: the request id, the access log, the error envelope for request-level failures, the
 * credential (a dashboard token with its access, or the dashboard's session cookie as a read-only
 * analyst, in the environment of X-Environment) with its failures counted per client address, the
 * credential's rate limit, a bounded JSON body.
 * The document goes to the core's analyst endpoint with an `analyst` principal signed like every
 * other; the core's GraphQL answer comes back as it is, each error carrying the request id.
 */
export function registerAnalystGraphql(router: Router, deps: AuthDeps, limit: Middleware, countingFailures: (authenticate: Middleware) => Middleware): void {
  const authenticated = countingFailures(async (ctx, next) => {
    ctx.state.auth = await authenticateAnalyst(ctx, deps);
    return next();
  });
  router.get(ANALYST_GRAPHQL_PATH, graphiql, authenticated, limit, (ctx) => {
    refuseUnsafeParams(ctx.query);
    return forward(ctx, deps.core, { method: 'GET', path: ctx.url, headers: {} });
  });
  router.post(ANALYST_GRAPHQL_PATH, authenticated, limit, jsonBody(), (ctx) => {
    refuseUnsafeParams(ctx.state.body as Record<string, unknown>);
    return forward(ctx, deps.core, { method: 'POST', path: ANALYST_GRAPHQL_PATH, body: JSON.stringify(ctx.state.body), headers: { 'content-type': 'application/json' } });
  });
}

/**
 * At the edge, what the core would refuse before parsing anyway (contract/documentLimits.ts): a
 * document nested too deep, and any string PostgreSQL cannot store, in the document or elsewhere
 * in the request (`variables.name`, `operationName`). Answered 400 invalid_request in the envelope.
 */
function refuseUnsafeParams(params: Record<string, unknown>): void {
  const problem = typeof params.query === 'string' ? documentProblem(params.query) : undefined;
  if (problem) throw new ApiError('invalid_request', problem, { param: 'query' });
  const param = unstorableTextPath(params);
  if (param !== undefined) throw new ApiError('invalid_request', `${param} ${TEXT_RULE}.`, { param });
}

/** A browser's page view (GET, asking for HTML) gets GraphiQL, without credentials: it holds no data. */
const graphiql: Middleware = (ctx, next) => {
  if (!ctx.get('Accept').includes('text/html')) return next();
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', GRAPHIQL_CONTENT_SECURITY_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html';
  ctx.body = GRAPHIQL_PAGE;
};

/**
 * With an Authorization header, a dashboard token (its own access) and nothing else; without one,
 * the dashboard's session cookie, which only reads (so no CSRF token is needed: a forged request
 * can change nothing). The environment is checked first, as on the dashboard routes.
 */
async function authenticateAnalyst(ctx: Context, deps: AuthDeps): Promise<Authenticated> {
  const environment = environmentOf(ctx);
  const authorization = ctx.get('Authorization');
  if (authorization === '' && ctx.cookies.get(SESSION_COOKIE)) {
    const session = await sessionIdentity(ctx, deps.core);
    const principal: AnalystPrincipal = { kind: 'analyst', workspaceId: session.workspace_id, credentialId: session.session_id, environment, access: 'read_only' };
    return { id: session.session_id, principal, rateLimit: deps.dashboardRateLimit };
  }
  if (authorization === '') {
    throw new ApiError('unauthorized', 'Sign in to the dashboard in this browser, or send a dashboard token: Authorization: Bearer mk_dash_…');
  }
  const token = await bearerAuth('dashboard', authorization, ctx, deps);
  if (token.principal.kind !== 'dashboard') throw new ApiError('unauthorized', 'The dashboard token is unknown or revoked.');
  const { workspaceId, tokenId, access } = token.principal;
  return { ...token, principal: { kind: 'analyst', workspaceId, credentialId: tokenId, environment, access } };
}

async function forward(ctx: Context, core: CoreClient, request: { method: 'GET' | 'POST'; path: string; body?: string; headers: Record<string, string> }) {
  const { principal } = ctx.state.auth as Authenticated;
  const response = await core.send(request, principal);
  let body: GraphQLBody;
  try {
    body = JSON.parse(response.text) as GraphQLBody;
  } catch {
    throw upstreamUnavailable();
  }
  for (const error of body.errors ?? []) error.extensions = { ...error.extensions, request_id: ctx.state.requestId };
  ctx.set('Cache-Control', 'no-store');
  ctx.status = response.status;
  ctx.body = body;
  ctx.type = response.contentType || 'application/json';
}
