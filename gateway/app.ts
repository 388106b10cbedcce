import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import type Redis from 'ioredis';
import type { Logger } from '../core/support/logger';
import { AuthCache } from './authCache';
import { catalogKey, type CatalogCache } from './catalogCache';
import type { CoreClient } from './coreClient';
import { registerAnalystGraphql, type AnalystQueries, type AnalystSubscriptions } from './analystGraphql';
import { registerDashboardPage } from './dashboardPage';
import { answerOf, GATEWAY, sessionPrincipal, sessionTokenHash, signInLimiters } from './dashboardSession';
import { accessLog } from './middleware/accessLog';
import { authFailureLimit } from './middleware/authFailures';
import { authenticate, type Authenticated } from './middleware/authenticate';
import { errorEnvelope } from './middleware/errorEnvelope';
import type { EventStreams, StreamRequest } from './eventStreams';
import type { MarketStreamRequest, MarketStreams } from './marketStreams';
import type { BookCache } from './bookCache';
import { DEFAULT_BOOK_DEPTH } from '../contract/inputBounds';
import { jsonBody } from './middleware/jsonBody';
import { literalPaths } from './literalPaths';
import { registerOperatorRoutes, type OperatorDeps } from './operatorRoutes';
import { presentedCredentialLimit, rateLimit } from './middleware/rateLimit';
import { requestId } from './middleware/requestId';
import { buildOpenApi } from './openapi';
import { ApiError } from './errors';
import { restSpelling } from './restSpelling';
import { ROUTES, type Route, type SignInLimit } from './routes';
import { toVariables } from './variables';

export interface GatewayDeps {
  core: CoreClient;
  authCache: AuthCache<Authenticated>;
  /** Answers of catalog routes, per environment (CATALOG_CACHE_MS). */
  catalog: CatalogCache;
  redis?: Redis;
  logger: Logger;
  dashboardRateLimit: number;
  /** Sign-in attempts per minute, per client address and per email. */
  signInAttemptsPerMinute: number;
  /** Failed authentications per minute, per client address (middleware/authFailures.ts). */
  authFailuresPerMinute: number;
  /** Behind a TLS-terminating proxy: X-Forwarded-Proto and X-Forwarded-For are believed. */
  trustProxy: boolean;
  /** /healthz, /readyz, /metrics and the metrics they serve. */
  operator: OperatorDeps;
  /** GET /v1/events/stream. */
  streams: EventStreams;
  /** GET /v1/markets/stream. */
  marketStreams: MarketStreams;
  /** The simulated venues' books (GET /v1/markets/{id}/orderbook in the test environment), kept until their market's next notice. */
  books: BookCache;
  /** The analysts' GraphQL subscriptions: their per-credential limit (shared with the event streams) and how long one lasts. */
  subscriptions: AnalystSubscriptions;
  /** The analysts' documents: how many run at once per credential, how large an answer may be. */
  analystQueries: AnalystQueries;
}

/** The window of AUTH_FAILURES_PER_MINUTE. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;

/**
 * The REST gateway, not listening: request id -> access log -> metrics -> error envelope -> route
 * (sign-in limits -> auth -> rate limit -> body -> variables -> core -> answer); the dashboard's
 * page, the analysts' GraphQL and the operator's endpoints beside the routes.
 */
export function buildGatewayApp(deps: GatewayDeps): Koa {
  // Behind one trusted proxy: the client address is the last X-Forwarded-For entry (the one the
  // proxy appended), never an earlier one, which the client wrote itself.
  const app = new Koa({ proxy: deps.trustProxy, maxIpsCount: 1 });
  app.on('error', (error: { code?: unknown }, ctx?: Context) => {
    // An event stream's client that leaves ends its response early: that is how streams end.
    if (error?.code === 'ERR_STREAM_PREMATURE_CLOSE' && ctx?.response.type === 'text/event-stream') return;
    deps.logger.warn({ err: error }, 'koa error after the response');
  });
  const router = new Router();
  const { metrics } = deps.operator;
  const limit = rateLimit(deps.redis, () => metrics.rateLimited('credential'));
  const openApi = JSON.stringify(buildOpenApi(ROUTES));

  router.get('/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });

  registerDashboardPage(router);
  registerOperatorRoutes(router, deps.operator);

  const authDeps = { core: deps.core, cache: deps.authCache, dashboardRateLimit: deps.dashboardRateLimit };
  // Every authentication step counts its failures per client address, and refuses a guessing
  // address before it looks anything up.
  const countingFailures = authFailureLimit({
    redis: deps.redis,
    maxFailures: deps.authFailuresPerMinute,
    windowMs: AUTH_FAILURE_WINDOW_MS,
    onRefused: () => metrics.rateLimited('auth_failures'),
  });
  // Dashboard tokens are revoked in the database, with no revocation event: the analysts' endpoint
  // looks its credential up on every request (as the core did), never from the cache, and so does
  // an open event stream when its credential is checked again.
  const uncachedAuthDeps = { ...authDeps, cache: new AuthCache<Authenticated>(0) };
  registerAnalystGraphql(router, uncachedAuthDeps, limit, countingFailures, deps.subscriptions, deps.analystQueries, {
    rateLimit: presentedCredentialLimit(deps.redis, deps.analystQueries.ratePerCredential, () => metrics.rateLimited('credential')),
  });

  const signInLimits = signInLimiters({
    redis: deps.redis,
    signInAttemptsPerMinute: deps.signInAttemptsPerMinute,
    onRefused: (name) => metrics.rateLimited(`sign_in_${name}`),
  });
  const credentialOf = (route: Route): Middleware[] => {
    if (route.auth === 'none') return [];
    if (route.auth === 'session') {
      return [countingFailures(async (ctx, next) => {
        ctx.state.user = await sessionPrincipal(ctx, deps.core); // a live session, and its CSRF token on changes
        return next();
      })];
    }
    return [countingFailures(authenticate({ auth: route.auth, session: route.session }, authDeps)), limit];
  };
  // GET /v1/session looks the cookie up in its own operation, with no credential step before it:
  // its 401s count as failed authentications too.
  const countedIfLookup = (route: Route) => (answer: Middleware) => (route.auth === 'none' && route.sessionToken ? countingFailures(answer, 'at_once') : answer);
  /** Whether the request's credential still authenticates now (an open stream's, asked again every heartbeat). */
  const stillAuthenticated = (route: Route, ctx: Context) =>
    authenticate({ auth: route.auth as 'api_key' | 'dashboard', session: route.session }, uncachedAuthDeps)(ctx, async () => undefined).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return false;
        throw error;
      },
    );
  for (const route of ROUTES) {
    const spelling = restSpelling(route);
    const limits = (kind: SignInLimit) => (route.signInLimits?.includes(kind) ? [signInLimits[kind]] : []);
    router.register(koaPath(route.path), [route.method], [
      ...(route.signInLimits ? [signInLimits.sweep] : []),
      ...limits('address'),
      ...credentialOf(route),
      ...limits('user'),
      jsonBody(),
      (ctx, next) => {
        const variables = toVariables(route, { params: ctx.params, query: ctx.query, body: ctx.state.body });
        ctx.state.variables = route.sessionToken ? { ...variables, tokenHash: sessionTokenHash(ctx) } : variables;
        return next();
      },
      ...limits('email'),
      countedIfLookup(route)(async (ctx) => {
        const variables = ctx.state.variables as Record<string, unknown>;
        // Answers are per credential and some hold a secret shown once (a new key): never cached
        // by clients or proxies. Catalog answers are kept by the gateway itself, per environment.
        ctx.set('Cache-Control', 'no-store');
        // The dashboard's session routes run the gateway's internal operations, with the cookie's hash.
        const principal = route.auth === 'none' || route.auth === 'session' ? GATEWAY : (ctx.state.auth as Authenticated).principal;
        // A kept answer (catalog routes; the simulated venues' books): the exact JSON the core's answer was sent as.
        const kept = 'environment' in principal && (route.catalog || (route.bookCache && principal.environment === 'test'));
        if (kept) {
          const key = catalogKey(principal, route.operation, variables);
          const load = () =>
            deps.core.call(route.operation, variables, principal).then(spelling.answer, spelling.refusal).then((result) => JSON.stringify(result.value));
          ctx.type = 'application/json';
          ctx.body = await (route.catalog ? deps.catalog.get(key, load) : deps.books.get(String(variables.id), key, load));
          return;
        }
        if (route.marketStream) {
          const auth = ctx.state.auth as Authenticated;
          await deps.marketStreams.open(ctx, {
            principal: auth.principal as MarketStreamRequest['principal'],
            credentialId: auth.id,
            marketIds: variables.marketIds as string[],
            depth: (variables.depth as number | undefined) ?? DEFAULT_BOOK_DEPTH,
            recheck: () => stillAuthenticated(route, ctx),
          }).catch(spelling.refusal);
          return;
        }
        if (route.stream) {
          const auth = ctx.state.auth as Authenticated;
          const lastEventId = ctx.headers['last-event-id'];
          await deps.streams.open(ctx, {
            principal: auth.principal as StreamRequest['principal'],
            credentialId: auth.id,
            types: (variables.types as string[] | undefined) ?? [],
            subaccountId: variables.subaccountId as string | undefined,
            after: typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : (variables.after as string | undefined),
            recheck: () => stillAuthenticated(route, ctx),
          }).catch(spelling.refusal);
          return;
        }
        const idempotencyKey = route.idempotent ? idempotencyKeyOf(ctx.headers['idempotency-key']) : undefined;
        const result = await deps.core.call(route.operation, variables, principal, { idempotencyKey }).then(spelling.answer, spelling.refusal);
        // An order placed or canceled through this gateway: its market's kept book is read again
        // from the next request here on, before the core's notice reaches this gateway.
        const moved = route.method !== 'GET' && (result.value as { market_id?: unknown } | null)?.market_id;
        if (typeof moved === 'string') deps.books.invalidate(moved);
        if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
        ctx.body = answerOf(route, ctx, result.value);
      }),
    ]);
  }

  app.use(requestId());
  // No answer is to be read as another type than it says (a JSON error as HTML, say): set first, so that every answer has it.
  app.use((ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  app.use(accessLog(deps.logger));
  app.use(metrics.middleware());
  app.use(errorEnvelope(deps.logger));
  app.use(literalPaths(ROUTES));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * 1 to 255 printable ASCII characters, or no header at all. A header sent empty or blank (HTTP
 * trims the spaces, so both arrive empty) is refused: a client that meant to send a key and sent
 * nothing must not have its retries placed twice.
 */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(header)) {
    throw new ApiError('invalid_request', 'Idempotency-Key, when sent, must be 1 to 255 printable ASCII characters without spaces (an empty or blank key is refused).', { param: 'Idempotency-Key' });
  }
  return header;
}

/** `/v1/markets/{id}` in the spec's notation is `/v1/markets/:id` for the router. */
const koaPath = (path: Route['path']) => path.replace(/\{(\w+)\}/g, ':$1');
