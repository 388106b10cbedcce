import type Redis from 'ioredis';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import ratelimit from 'koa-ratelimit';
import type { Authenticated } from './authenticate';

const WINDOW_MS = 1000;
const HEADERS = { remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset', total: 'RateLimit-Limit' };

/**
 * Per-credential limits with koa-ratelimit: in memory by default, in Redis when several gateways
 * must share one budget. koa-ratelimit takes one `max` per middleware, so there is one middleware
 * per distinct limit, all over the same store. Its reset header is an epoch time and its
 * Retry-After rounds down to 0 under a second; both are turned into whole seconds to wait (>= 1).
 */
export function rateLimit(redis?: Redis): Middleware {
  const memory = new Map();
  const byLimit = new Map<number, Middleware>();
  const limiterFor = (max: number) => {
    let limiter = byLimit.get(max);
    if (!limiter) {
      limiter = ratelimit({
        driver: redis ? 'redis' : 'memory',
        db: redis ?? memory,
        namespace: 'mk:ratelimit',
        duration: WINDOW_MS,
        max,
        id: (ctx) => (ctx.state.auth as Authenticated).id,
        headers: HEADERS,
        throw: true,
      }) as Middleware;
      byLimit.set(max, limiter);
    }
    return limiter;
  };

  return async (ctx, next) => {
    const limiter = limiterFor((ctx.state.auth as Authenticated).rateLimit);
    try {
      await limiter(ctx, (() => {
        secondsUntilReset(ctx);
        return next();
      }) as Next);
    } catch (error) {
      const headers = (error as { status?: number; headers?: Record<string, string | number> }).headers;
      if ((error as { status?: number }).status === 429 && headers) {
        const wait = String(secondsUntilReset(ctx));
        headers['Retry-After'] = wait;
        headers[HEADERS.reset] = wait;
      }
      throw error;
    }
  };
}

function secondsUntilReset(ctx: ParameterizedContext): number {
  const resetAt = Number(ctx.response.get(HEADERS.reset));
  const seconds = Number.isFinite(resetAt) ? Math.max(1, Math.ceil(resetAt - Date.now() / 1000)) : 1;
  ctx.set(HEADERS.reset, String(seconds));
  return seconds;
}
