import type { Middleware } from 'koa';
import type { Logger } from '../../core/support/logger';
import type { Authenticated } from './authenticate';

/**
 * One line per request, after the response is decided: request id, method, path (without the query
 * string), status, milliseconds, and the id of the credential that made it (a key, token or session
 * id, never a secret). Headers and bodies are never logged: they carry keys, cookies, passwords and
 * venue credentials.
 */
export function accessLog(logger: Logger): Middleware {
  if (!logger.isLevelEnabled('info')) return (_ctx, next) => next();
  // The line's fields are the fixed ones below, none of them a secret: path redaction (about half
  // the cost of a line) has nothing to find in them, so this child logger skips it.
  const lines = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const auth = ctx.state.auth as Authenticated | undefined;
      lines.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          ...(auth ? { credential: auth.id } : {}),
        },
        'request',
      );
    }
  };
}
