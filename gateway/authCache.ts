import type { RevocationBus } from '../contract/revocationBus';

/**
 * Remembers recent authentications for a short time, so that a burst of requests costs one
 * lookup. A revocation reaches every gateway through the revocation bus and evicts at once; where
 * no bus reaches this gateway (separate processes without Redis) the TTL is 0 and nothing is kept.
 * Revocations fail closed: while the bus cannot reach this gateway (Redis down), a revocation could
 * pass it by, so the cache keeps nothing and every request is authenticated by the core; and what
 * it kept before such a loss is not served after it.
 */
export class AuthCache<T extends { id: string }> {
  private readonly entries = new Map<string, { value: T; expiresAt: number; hearingSince: number | undefined }>();

  constructor(
    private readonly ttlMs: number,
    private readonly bus?: RevocationBus,
  ) {
    bus?.subscribe((id) => this.evict(id));
  }

  get(secretHash: string): T | undefined {
    const hearingSince = this.bus?.hearingSince();
    if (this.bus && hearingSince === undefined) {
      this.entries.clear();
      return undefined;
    }
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    // Expired, or kept before the bus was lost and found again: a revocation may have passed by meanwhile.
    if (entry.expiresAt <= Date.now() || entry.hearingSince !== hearingSince) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry.value;
  }

  set(secretHash: string, value: T): void {
    const hearingSince = this.bus?.hearingSince();
    if (this.ttlMs <= 0 || (this.bus && hearingSince === undefined)) return;
    if (this.entries.size >= 100_000) this.entries.clear(); // bounded: never grow without limit
    this.entries.set(secretHash, { value, expiresAt: Date.now() + this.ttlMs, hearingSince });
  }

  evict(id: string): void {
    for (const [hash, entry] of this.entries) if (entry.value.id === id) this.entries.delete(hash);
  }
}
