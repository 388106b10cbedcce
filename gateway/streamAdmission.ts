import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { ApiError } from './errors';

/**
 * How many streams a credential may hold open at once (EVENT_STREAMS_PER_KEY), counted together
 * across GET /v1/events/stream and the analysts' GraphQL subscriptions, and across every gateway
 * sharing REDIS_URL (in this process only without Redis). It also knows how to end the streams
 * open here: a revoked credential's, and every one at shutdown (clients reconnect elsewhere).
 */
export class StreamAdmission {
  /** Per credential, how to end each of its streams open on this gateway. */
  private readonly open = new Map<string, Set<() => void>>();
  private closing = false;

  constructor(
    private readonly options: { maxPerCredential: number; heartbeatMs: number },
    private readonly redis?: Redis,
  ) {}

  /**
   * Counts a stream against its credential's limit, or refuses it (429 rate_limited; 503 while
   * shutting down). `end` ends the stream; the function answered frees its place (call it when the
   * stream ends, however it ends).
   */
  async admit(credentialId: string, end: () => void): Promise<() => void> {
    if (this.closing) throw new ApiError('service_unavailable', 'The gateway is shutting down; reconnect.');
    const max = this.options.maxPerCredential;
    const refused = () =>
      new ApiError('rate_limited', `At most ${max} event streams and subscriptions may be open at once per credential; close one first.`, { headers: { 'Retry-After': '1' } });
    let free: () => void;
    if (this.redis) {
      free = await this.admitShared(credentialId, max, refused);
    } else {
      if ((this.open.get(credentialId)?.size ?? 0) >= max) throw refused();
      free = () => undefined;
    }
    // Read after the wait: two first streams of one credential admitted at once share one set.
    const ends = this.open.get(credentialId) ?? new Set();
    ends.add(end);
    this.open.set(credentialId, ends);
    return once(() => {
      ends.delete(end);
      if (ends.size === 0 && this.open.get(credentialId) === ends) this.open.delete(credentialId);
      free();
    });
  }

  private async admitShared(credentialId: string, max: number, refused: () => ApiError): Promise<() => void> {
    const redis = this.redis!;
    const key = `mk:event-streams:${credentialId}`;
    const member = randomUUID();
    const now = Date.now();
    // Members expire unless renewed: a gateway that dies does not hold its places for ever.
    const ttl = this.options.heartbeatMs * 3;
    const admitted = (await redis.eval(ADMIT_SCRIPT, 1, key, String(now), String(now + ttl), member, String(max), String(ttl))) as number;
    if (admitted !== 1) throw refused();
    // The member's expiry and the set's together: a set whose own TTL lapsed while its streams
    // lived would forget them, and admit past the limit.
    const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 1, key, String(Date.now() + ttl), member, String(ttl)).catch(() => undefined), this.options.heartbeatMs);
    renew.unref();
    return () => {
      clearInterval(renew);
      void redis.zrem(key, member).catch(() => undefined);
    };
  }

  /** Streams and subscriptions open on this gateway (its metrics). */
  get openHere(): number {
    let open = 0;
    for (const ends of this.open.values()) open += ends.size;
    return open;
  }

  /** Ends every stream of this credential open here (a revoked key). */
  endCredential(credentialId: string): void {
    for (const end of [...(this.open.get(credentialId) ?? [])]) end();
  }

  /** Ends every stream open here and admits no new one (shutdown). */
  close(): void {
    this.closing = true;
    for (const ends of [...this.open.values()]) for (const end of [...ends]) end();
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      f();
    }
  };
}

/** KEYS[1] the credential's set; ARGV: the member's new expiry, the member, ttl ms. */
const RENEW_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS[1] the credential's set; ARGV: now, expiry, member, max, ttl ms. 1 when admitted. */
const ADMIT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;
