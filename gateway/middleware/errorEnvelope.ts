import type { Middleware } from 'koa';
import type { Logger } from '../../core/support/logger';
import { ERROR_CATALOGUE } from '../../contract/errors';
import { ApiError, type ApiErrorCode } from '../errors';

/**
 * The one place that writes errors: `{ error: { code, message, request_id, param? } }`. Errors
 * thrown by Koa's own parts (the router's 405, the rate limiter's 429, body limits) are mapped to
 * their codes; anything unexpected is logged and answered as internal_error, without details.
 */
export function errorEnvelope(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) {
        throw new ApiError('not_found', `No route ${ctx.method} ${ctx.path}.`);
      }
      // The router answers a known path with an unsupported method by setting Allow and 405 (501
      // for a method it does not know at all); both become method_not_allowed, keeping Allow.
      if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) {
        throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`, {
          headers: { Allow: ctx.response.get('Allow') },
        });
      }
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 500 && error.code !== 'not_implemented') {
        const unexpected = thrown instanceof ApiError ? undefined : thrown;
        logger.error({ err: unexpected, code: error.code, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'request failed');
      }
      ctx.status = error.status;
      ctx.state.errorCode = error.code; // for the metrics (gateway/metrics.ts)
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) ctx.set(name, value);
      ctx.body = {
        error: {
          code: error.code,
          message: error.message,
          ...(error.extra.param ? { param: error.extra.param } : {}),
          ...(error.extra.limit ? { limit: error.extra.limit } : {}),
          request_id: ctx.state.requestId,
        },
      };
    }
  };
}

/** An HTTP error thrown by one of Koa's parts is the catalogue's first code of its status that the gateway raises. */
const BY_STATUS = new Map<number, ApiErrorCode>();
for (const [code, { status, raisedBy }] of Object.entries(ERROR_CATALOGUE) as [ApiErrorCode, (typeof ERROR_CATALOGUE)[ApiErrorCode]][]) {
  if (raisedBy !== 'core' && !BY_STATUS.has(status)) BY_STATUS.set(status, code);
}

function toApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown;
  const http = thrown as { status?: number; expose?: boolean; headers?: Record<string, string>; message?: string };
  const code = typeof http?.status === 'number' ? BY_STATUS.get(http.status) : undefined;
  if (code && http.expose) {
    const message = code === 'method_not_allowed' ? 'This path does not accept this method.' : ERROR_CATALOGUE[code].description;
    return new ApiError(code, message, { headers: http.headers });
  }
  return new ApiError('internal_error', 'An internal error occurred.');
}
