import Redis from 'ioredis';

/**
 * How long one Redis command may take, waiting for a connection included, before it fails: a Redis
 * that is down or silent turns into a fast 503 (rate limits) or a missed broadcast (revocations),
 * never a request that hangs.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** A Redis client as every gateway and core part uses one (REDIS_URL): commands bounded in time, one retry across a reconnect. */
export function redisClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
}
