import type Redis from 'ioredis';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import ratelimit from 'koa-ratelimit';
import { ERROR_CATALOGUE } from '../../contract/errors';
import { ApiError } from '../errors';

const WINDOW_MS = 1000;
export const RATE_LIMIT_HEADERS = { remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset', total: 'RateLimit-Limit' };

/** What a per-credential limit needs of the caller that authenticate() put in ctx.state.auth. */
interface LimitedCaller {
  /** The credential's id: its budget's key. */
  id: string;
  /** Requests per second allowed to it. */
  rateLimit: number;
}

export interface LimiterOptions {
  /** Shared by every gateway when given; else `memory`, this process's own. */
  redis?: Redis;
  memory: Map<string, unknown>;
  namespace: string;
  durationMs: number;
  max: number;
  id: (ctx: ParameterizedContext) => string;
  /** The message of the 429. */
  message: string;
  /** Told of each refusal (the gateway's metrics). */
  onRefused?: () => void;
}

/**
 * One koa-ratelimit window. Its reset header is an epoch time and its Retry-After rounds down to 0
 * under a second: both become whole seconds to wait (>= 1). Its refusal becomes our 429
 * `rate_limited`, a failure of its store (Redis) our 503 `service_unavailable`; an error from
 * further down passes through untouched.
 */
export function limiter(options: LimiterOptions): Middleware {
  const window = ratelimit({
    driver: options.redis ? 'redis' : 'memory',
    db: options.redis ?? options.memory,
    namespace: options.namespace,
    duration: options.durationMs,
    max: options.max,
    id: options.id,
    headers: RATE_LIMIT_HEADERS,
    throw: true,
  }) as Middleware;
  return async (ctx, next) => {
    let passed = false;
    try {
      await window(ctx, (() => {
        passed = true;
        secondsUntilReset(ctx);
        return next();
      }) as Next);
    } catch (error) {
      if (passed) throw error;
      // Any other failure before the request passed is the limits' store: Redis, shared by every
      // gateway, is down or silent. Limits fail closed: no request goes by unmetered.
      if ((error as { status?: number }).status !== 429) {
        throw new ApiError('service_unavailable', 'Rate limits are shared through Redis, which is unavailable; retry after Retry-After seconds.', {
          headers: { 'Retry-After': '1' },
        });
      }
      options.onRefused?.();
      const wait = String(secondsUntilReset(ctx));
      throw new ApiError('rate_limited', options.message, { headers: { 'Retry-After': wait } });
    }
  };
}

/**
 * Per-credential limits, in requests per second: in memory by default, in Redis when several
 * gateways must share one budget. koa-ratelimit takes one `max` per middleware, so there is one
 * limiter per distinct limit, all over the same store.
 */
export function rateLimit(redis?: Redis, onRefused?: () => void): Middleware {
  const memory = new Map<string, unknown>();
  const byLimit = new Map<number, Middleware>();
  const limiterFor = (max: number) => {
    let perSecond = byLimit.get(max);
    if (!perSecond) {
      perSecond = limiter({
        redis,
        memory,
        namespace: 'mk:ratelimit',
        durationMs: WINDOW_MS,
        max,
        id: (ctx) => (ctx.state.auth as LimitedCaller).id,
        message: ERROR_CATALOGUE.rate_limited.description,
        onRefused,
      });
      byLimit.set(max, perSecond);
    }
    return perSecond;
  };
  return (ctx, next) => limiterFor((ctx.state.auth as LimitedCaller).rateLimit)(ctx, next);
}

/** koa-ratelimit's reset header is an epoch time: turned into whole seconds to wait (>= 1), also returned. */
export function secondsUntilReset(ctx: ParameterizedContext): number {
  const resetAt = Number(ctx.response.get(RATE_LIMIT_HEADERS.reset));
  const seconds = Number.isFinite(resetAt) ? Math.max(1, Math.ceil(resetAt - Date.now() / 1000)) : 1;
  ctx.set(RATE_LIMIT_HEADERS.reset, String(seconds));
  return seconds;
}

/**
 * A per-second limit keyed by the credential a request presents (its SHA-256, `ctx.state.presented`),
 * before the credential is looked up: a credential's flood is refused for the price of a hash and
 * a counter, not a lookup each. The analysts' endpoint, whose credentials are looked up on every
 * request (analystGraphql.ts), runs it first; the usual per-credential limit still follows the lookup.
 */
export function presentedCredentialLimit(redis: Redis | undefined, max: number, onRefused?: () => void): Middleware {
  return limiter({
    redis,
    memory: new Map<string, unknown>(),
    namespace: 'mk:ratelimit:presented',
    durationMs: WINDOW_MS,
    max,
    id: (ctx) => ctx.state.presented as string,
    message: ERROR_CATALOGUE.rate_limited.description,
    onRefused,
  });
}
