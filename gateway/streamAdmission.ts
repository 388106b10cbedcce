import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { ApiError } from './errors';

/** Whose a stream is: the credential that opened it, and that credential's workspace. */
export interface StreamOwner {
  credentialId: string;
  workspaceId: string;
}

/**
 * How many streams a credential may hold open at once (EVENT_STREAMS_PER_KEY), and its workspace
 * whatever its number of credentials (EVENT_STREAMS_PER_WORKSPACE), counted together across GET
 * /v1/events/stream and the analysts' GraphQL subscriptions, and across every gateway sharing
 * REDIS_URL (in this process only without Redis). It also knows how to end the streams open here:
 * a revoked credential's, and every one at shutdown (clients reconnect elsewhere).
 */
export class StreamAdmission {
  /** Per credential, how to end each of its streams open on this gateway. */
  private readonly open = new Map<string, Set<() => void>>();
  /** Per workspace, its streams open on this gateway (the limit without Redis). */
  private readonly openPerWorkspace = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly options: { maxPerCredential: number; maxPerWorkspace: number; heartbeatMs: number },
    private readonly redis?: Redis,
  ) {}

  /**
   * Counts a stream against its credential's and its workspace's limits, or refuses it (429
   * rate_limited; 503 while shutting down). `end` ends the stream; the function answered frees its
   * place (call it when the stream ends, however it ends).
   */
  async admit(owner: StreamOwner, end: () => void): Promise<() => void> {
    if (this.closing) throw new ApiError('service_unavailable', 'The gateway is shutting down; reconnect.');
    const { credentialId, workspaceId } = owner;
    const { maxPerCredential, maxPerWorkspace } = this.options;
    const refused = (whose: 'credential' | 'workspace') =>
      new ApiError(
        'rate_limited',
        whose === 'credential'
          ? `At most ${maxPerCredential} event streams and subscriptions may be open at once per credential; close one first.`
          : `At most ${maxPerWorkspace} event streams and subscriptions may be open at once per workspace, whatever the credential; close one first.`,
        { headers: { 'Retry-After': '1' } },
      );
    let free: () => void;
    if (this.redis) {
      free = await this.admitShared(owner, refused);
    } else {
      if ((this.open.get(credentialId)?.size ?? 0) >= maxPerCredential) throw refused('credential');
      if ((this.openPerWorkspace.get(workspaceId) ?? 0) >= maxPerWorkspace) throw refused('workspace');
      this.openPerWorkspace.set(workspaceId, (this.openPerWorkspace.get(workspaceId) ?? 0) + 1);
      free = () => {
        const left = (this.openPerWorkspace.get(workspaceId) ?? 1) - 1;
        if (left === 0) this.openPerWorkspace.delete(workspaceId);
        else this.openPerWorkspace.set(workspaceId, left);
      };
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

  private async admitShared({ credentialId, workspaceId }: StreamOwner, refused: (whose: 'credential' | 'workspace') => ApiError): Promise<() => void> {
    const redis = this.redis!;
    // One hash tag, the workspace's: both sets live in one Redis Cluster slot, as one script needs.
    const keys = [`mk:event-streams:{${workspaceId}}:credential:${credentialId}`, `mk:event-streams:{${workspaceId}}:workspace`];
    const member = randomUUID();
    const now = Date.now();
    // Members expire unless renewed: a gateway that dies does not hold its places for ever.
    const ttl = this.options.heartbeatMs * 3;
    const { maxPerCredential, maxPerWorkspace } = this.options;
    const admitted = (await redis.eval(ADMIT_SCRIPT, 2, ...keys, String(now), String(now + ttl), member, String(maxPerCredential), String(maxPerWorkspace), String(ttl))) as number;
    if (admitted === 0) throw refused('credential');
    if (admitted === -1) throw refused('workspace');
    // The member's expiry and the sets' together: a set whose own TTL lapsed while its streams
    // lived would forget them, and admit past the limit.
    const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 2, ...keys, String(Date.now() + ttl), member, String(ttl)).catch(() => undefined), this.options.heartbeatMs);
    renew.unref();
    return () => {
      clearInterval(renew);
      void Promise.all(keys.map((key) => redis.zrem(key, member))).catch(() => undefined);
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

/** KEYS the credential's and the workspace's sets; ARGV: the member's new expiry, the member, ttl ms. */
const RENEW_SCRIPT = `
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[1], ARGV[2])
  redis.call('PEXPIRE', key, ARGV[3])
end
return 1`;

/**
 * KEYS the credential's and the workspace's sets; ARGV: now, expiry, member, the credential's
 * limit, the workspace's, ttl ms. 1 when admitted (in both), 0 when the credential is at its limit,
 * -1 when the workspace is.
 */
const ADMIT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -1 end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIRE', key, ARGV[6])
end
return 1`;
