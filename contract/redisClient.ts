import Redis from 'ioredis';

/**
 * How long one Redis command may take, waiting for a connection included, before it fails: a Redis
 * that is down or silent turns into a fast 503 (rate limits) or a missed broadcast (revocations),
 * never a request that hangs.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** A Redis client as every gateway and core part uses one (REDIS_URL): commands bounded in time, one retry across a reconnect. */
export function redisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  // A lost connection is reported by the commands that fail (a 503, a readiness check, a revocation
  // not announced); without a listener ioredis would print every reconnection attempt to stderr.
  client.on('error', () => undefined);
  return client;
}
