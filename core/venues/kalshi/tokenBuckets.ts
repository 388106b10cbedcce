/**
 * Client-side token buckets for one Kalshi credential, so that we do not cause 429s (Trade API v2
 * "Rate Limits and Tiers", as of 2026-08; docs/VENUES.md). Kalshi keeps a read and a write bucket
 * per API key, refilled continuously, capacity one second of refill; most calls cost 10 tokens.
 * Tiers in tokens per second, read/write: Basic 200/100, Advanced 300/300, Expert 600/600,
 * Premier 1000/1000.
 *
 * A call reserves its tokens and waits until they are there (the balance may go below zero: later
 * calls queue behind, first come first served). A call that would wait longer than its bound
 * reserves nothing and is refused, so nothing queues forever. We run a little under the tier
 * (`headroom`, 0.9 by default): our clock and Kalshi's see a call at slightly different moments.
 */
export interface KalshiRateTier {
  readonly name: string;
  readonly readPerSecond: number;
  readonly writePerSecond: number;
}

export const KALSHI_RATE_TIERS = {
  basic: { name: 'basic', readPerSecond: 200, writePerSecond: 100 },
  advanced: { name: 'advanced', readPerSecond: 300, writePerSecond: 300 },
  expert: { name: 'expert', readPerSecond: 600, writePerSecond: 600 },
  premier: { name: 'premier', readPerSecond: 1000, writePerSecond: 1000 },
} as const satisfies Record<string, KalshiRateTier>;

export type KalshiTierName = keyof typeof KALSHI_RATE_TIERS;
export const KALSHI_TIER_NAMES = Object.keys(KALSHI_RATE_TIERS) as [KalshiTierName, ...KalshiTierName[]];

/** What most Kalshi calls cost (the recorded `GET /account/endpoint_costs` default_cost). */
export const KALSHI_DEFAULT_COST = 10;
export const KALSHI_DEFAULT_HEADROOM = 0.9;

export type BucketKind = 'read' | 'write';

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly capacity: number,
    private readonly clock: () => number,
  ) {
    if (!(perSecond > 0) || !(capacity > 0)) throw new RangeError('a token bucket needs a positive rate and capacity');
    this.tokens = capacity;
    this.last = clock();
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  /**
   * Reserves `cost` tokens and answers how many milliseconds to wait before sending, or null (and
   * nothing reserved) when that wait would be longer than `maxWaitMs` or the cost can never fit.
   */
  reserve(cost: number, maxWaitMs: number): number | null {
    if (!(cost > 0) || cost > this.capacity) return null;
    const waitMs = this.waitFor(cost);
    if (waitMs > maxWaitMs) return null;
    this.tokens -= cost;
    return waitMs;
  }

  /** How many milliseconds `cost` tokens are away now (0 when they are there); reserves nothing. */
  waitFor(cost: number): number {
    this.refill();
    const after = this.tokens - cost;
    return after >= 0 ? 0 : Math.ceil((-after / this.perSecond) * 1000);
  }

  /** The venue said 429: what we thought was there is not; start again from empty. */
  drain(): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
  }
}

/** The read and write buckets of one credential's session. */
export class KalshiTokenBuckets {
  private readonly buckets: Record<BucketKind, TokenBucket>;

  constructor(tier: KalshiRateTier, clock: () => number = Date.now, headroom = KALSHI_DEFAULT_HEADROOM) {
    if (!(headroom > 0 && headroom <= 1)) throw new RangeError('headroom must be in (0, 1]');
    const bucket = (perSecond: number) => new TokenBucket(perSecond * headroom, perSecond * headroom, clock);
    this.buckets = { read: bucket(tier.readPerSecond), write: bucket(tier.writePerSecond) };
  }

  reserve(kind: BucketKind, cost: number, maxWaitMs: number): number | null {
    return this.buckets[kind].reserve(cost, maxWaitMs);
  }

  waitFor(kind: BucketKind, cost: number): number {
    return this.buckets[kind].waitFor(cost);
  }

  drain(kind: BucketKind): void {
    this.buckets[kind].drain();
  }
}
