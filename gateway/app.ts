import Router from '@koa/router';
import Koa from 'koa';
import type Redis from 'ioredis';
import type { Logger } from '../core/support/logger';
import type { AuthCache } from './authCache';
import type { CoreClient } from './coreClient';
import { authenticate, type Authenticated } from './middleware/authenticate';
import { errorEnvelope } from './middleware/errorEnvelope';
import { jsonBody } from './middleware/jsonBody';
import { rateLimit } from './middleware/rateLimit';
import { requestId } from './middleware/requestId';
import { buildOpenApi } from './openapi';
import { ApiError } from './errors';
import { ROUTES, type Route } from './routes';
import { toVariables } from './variables';

export interface GatewayDeps {
  core: CoreClient;
  authCache: AuthCache<Authenticated>;
  redis?: Redis;
  logger: Logger;
  dashboardRateLimit: number;
}

/** The REST gateway, not listening: request id -> error envelope -> route (auth -> rate limit -> body -> core). */
export function buildGatewayApp(deps: GatewayDeps): Koa {
  const app = new Koa({ proxy: false });
  app.on('error', (error) => deps.logger.warn({ err: error }, 'koa error after the response'));
  const router = new Router();
  const limit = rateLimit(deps.redis);
  const openApi = JSON.stringify(buildOpenApi(ROUTES));

  router.get('/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });

  for (const route of ROUTES) {
    router.register(koaPath(route.path), [route.method], [
      authenticate(route.auth, deps.core, deps.authCache, deps.dashboardRateLimit),
      limit,
      jsonBody(),
      async (ctx) => {
        const variables = toVariables(route, { params: ctx.params, query: ctx.query, body: ctx.state.body });
        const auth = ctx.state.auth as Authenticated;
        const idempotencyKey = route.idempotent ? idempotencyKeyOf(ctx.get('Idempotency-Key')) : undefined;
        const result = await deps.core.call(route.operation, variables, auth.principal, { idempotencyKey });
        if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
        ctx.body = result.value;
      },
    ]);
  }

  app.use(requestId());
  app.use(errorEnvelope(deps.logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** 1 to 255 printable ASCII characters, or no header at all. */
function idempotencyKeyOf(header: string): string | undefined {
  if (header === '') return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(header)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 printable characters without spaces.', { param: 'Idempotency-Key' });
  }
  return header;
}

/** `/v1/markets/{id}` in the spec's notation is `/v1/markets/:id` for the router. */
const koaPath = (path: Route['path']) => path.replace(/\{(\w+)\}/g, ':$1');
