import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const ACCEPTED = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Every response carries X-Request-Id: the caller's own when it sent a sane one, else a new one. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    // randomUUID draws from a cached entropy pool: ~0.2 us, against ~2 us for randomBytes per call.
    const id = ACCEPTED.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
