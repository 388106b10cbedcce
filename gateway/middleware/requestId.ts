import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';

const ACCEPTED = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Every response carries X-Request-Id: the caller's own when it sent a sane one, else a new one. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const id = ACCEPTED.test(given) ? given : `req_${randomBytes(12).toString('hex')}`;
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
