import type Redis from 'ioredis';
import type { Context, Middleware, Next } from 'koa';
import { ApiError } from '../errors';

export interface AuthFailureLimitOptions {
  /** Shared by every gateway when given; else this process's own counters. */
  redis?: Redis;
  /** Failed authentications allowed per client address per window. */
  maxFailures: number;
  windowMs: number;
  /** Told of each refusal (the gateway's metrics). */
  onRefused?: () => void;
}

/** Counted failures of one address and when its window ends (epoch ms). */
interface Window {
  failures: number;
  resetAt: number;
}

const NAMESPACE = 'mk:authfail';
/** The in-memory counters are swept of ended windows past this many addresses: addresses are the client's to choose (IPv6). */
const SWEEP_ABOVE_ENTRIES = 10_000;

/**
 * Counts failed authentications (401 from an authentication step: a missing, malformed, unknown or
 * revoked key or token, a session that is not live) per client address (ctx.ip: the peer, or the
 * proxy's X-Forwarded-For entry when TRUST_PROXY is set) in a fixed window that starts at the first
 * failure. While an address is at the limit, every request of it that would look a credential up
 * answers 429 `rate_limited` with Retry-After instead: guessing keys costs the database nothing
 * (a valid key the gateway holds in its authentication cache is still served).
 * koa-ratelimit (rateLimit.ts) counts every request it sees and cannot look without counting, so
 * this counts only failures, in the same store: Redis when configured, else memory. A store that
 * fails is a 503 `service_unavailable`, as for the other limits: no lookup goes by unmetered.
 */
export function authFailureLimit(options: AuthFailureLimitOptions): (authenticate: Middleware, lookup?: 'inside' | 'at_once') => Middleware {
  const store = options.redis ? redisWindows(options.redis, options.windowMs) : memoryWindows(options.windowMs);
  const storeUnavailable = () =>
    new ApiError('service_unavailable', 'Failed authentications are counted through Redis, which is unavailable; retry after Retry-After seconds.', {
      headers: { 'Retry-After': '1' },
    });
  const refuseIfLimited = async (address: string) => {
    const current = await store.read(address).catch(() => {
      throw storeUnavailable();
    });
    if (current && current.failures >= options.maxFailures) {
      options.onRefused?.();
      const wait = Math.max(1, Math.ceil((current.resetAt - Date.now()) / 1000));
      throw new ApiError('rate_limited', 'Too many failed authentications from this address; retry after Retry-After seconds.', {
        headers: { 'Retry-After': String(wait) },
      });
    }
  };
  // `inside`: the step calls beforeCredentialLookup() where it would look a credential up (a
  // credential it already holds, from the authentication cache, needs no check); `at_once`: the
  // step is itself the lookup.
  return (authenticate, lookup = 'inside') => async (ctx, next) => {
    const address = ctx.ip;
    if (lookup === 'at_once') await refuseIfLimited(address);
    else ctx.state[BEFORE_LOOKUP] = () => refuseIfLimited(address);
    let authenticated = false;
    try {
      await authenticate(ctx, (() => {
        authenticated = true;
        return next();
      }) as Next);
    } catch (error) {
      // Only the authentication step's own refusal counts, never a 401 from further down.
      if (!authenticated && error instanceof ApiError && error.code === 'unauthorized') {
        await store.record(address).catch(() => {
          throw storeUnavailable();
        });
      }
      throw error;
    }
  };
}

const BEFORE_LOOKUP = 'beforeCredentialLookup';

/** Called by an authentication step just before it looks a credential up: refuses a limited address (429) or a failing store (503). */
export async function beforeCredentialLookup(ctx: Context): Promise<void> {
  await (ctx.state[BEFORE_LOOKUP] as (() => Promise<void>) | undefined)?.();
}

interface WindowStore {
  read(address: string): Promise<Window | undefined>;
  record(address: string): Promise<void>;
}

function redisWindows(redis: Redis, windowMs: number): WindowStore {
  const key = (address: string) => `${NAMESPACE}:${address}`;
  return {
    async read(address) {
      const [[getError, failures], [ttlError, ttl]] = (await redis.multi().get(key(address)).pttl(key(address)).exec()) as [Error | null, unknown][];
      if (getError || ttlError) throw getError ?? ttlError;
      if (failures === null || typeof ttl !== 'number' || ttl < 0) return undefined;
      return { failures: Number(failures), resetAt: Date.now() + ttl };
    },
    async record(address) {
      // The window starts at the first failure (SET … NX); INCR keeps the key's expiry.
      const results = await redis.multi().set(key(address), '0', 'PX', windowMs, 'NX').incr(key(address)).exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction aborted');
    },
  };
}

function memoryWindows(windowMs: number): WindowStore {
  const windows = new Map<string, Window>();
  const live = (address: string) => {
    const window = windows.get(address);
    if (window && window.resetAt <= Date.now()) windows.delete(address);
    return window && window.resetAt > Date.now() ? window : undefined;
  };
  return {
    async read(address) {
      return live(address);
    },
    async record(address) {
      const window = live(address);
      if (window) {
        window.failures += 1;
        return;
      }
      if (windows.size > SWEEP_ABOVE_ENTRIES) {
        const now = Date.now();
        for (const [known, entry] of windows) if (entry.resetAt <= now) windows.delete(known);
      }
      windows.set(address, { failures: 1, resetAt: Date.now() + windowMs });
    },
  };
}
