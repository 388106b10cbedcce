/**
 * Kalshi's rate limits (Trade API v2): token buckets per API key, separate read and
 * write buckets, refilled continuously; most calls cost 10 tokens.
 *
 * Sources: docs.kalshi.com "Rate Limits and Tiers" via VENUES.md (Basic 200/100,
 * Advanced 300/300, Expert 600/600, Premier 1000/1000 tokens/s); the recorded
 * `GET /account/limits` (`read`/`write` `{bucket_capacity, refill_rate}`, basic 200/100)
 * and `GET /account/endpoint_costs` (default_cost 10; V2 cancel 2, GET one order 2,
 * V1 create 20) in XavierBriggs/Fortuna fixtures/kalshi (2026-06-11).
 * Assumption: capacity = one second of refill (what the recorded limits show).
 */
export interface RateTier {
  readonly name: string;
  readonly readPerSecond: number;
  readonly writePerSecond: number;
}

export const RATE_TIERS = {
  basic: { name: 'basic', readPerSecond: 200, writePerSecond: 100 },
  advanced: { name: 'advanced', readPerSecond: 300, writePerSecond: 300 },
  expert: { name: 'expert', readPerSecond: 600, writePerSecond: 600 },
  premier: { name: 'premier', readPerSecond: 1000, writePerSecond: 1000 },
} as const satisfies Record<string, RateTier>;

export const DEFAULT_COST = 10;

/** Non-default costs from the recorded endpoint_costs, as (method, route pattern). */
const ENDPOINT_COSTS: ReadonlyArray<readonly [string, RegExp, number]> = [
  ['DELETE', /^\/trade-api\/v2\/portfolio\/events\/orders\/[^/]+$/, 2],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/events\/orders\/batched$/, 2],
  ['GET', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+$/, 2],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders$/, 20],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+$/, 4],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+\/(amend|decrease)$/, 20],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders\/batched$/, 20],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/orders\/batched$/, 4],
];

export function costOf(method: string, path: string): number {
  for (const [m, pattern, cost] of ENDPOINT_COSTS) if (m === method && pattern.test(path)) return cost;
  return DEFAULT_COST;
}

/** Writes are the order-changing calls; everything else draws on the read bucket. */
export function isWrite(method: string, path: string): boolean {
  return method !== 'GET' && path.startsWith('/trade-api/v2/portfolio/');
}

class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly perSecond: number, now: number) {
    this.tokens = perSecond;
    this.last = now;
  }

  take(cost: number, now: number): boolean {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

export class RateLimiter {
  private readonly buckets = new Map<string, { read: TokenBucket; write: TokenBucket }>();

  constructor(private tier: RateTier, private readonly clock: () => number = Date.now) {}

  get currentTier(): RateTier {
    return this.tier;
  }

  setTier(tier: RateTier): void {
    this.tier = tier;
    this.buckets.clear();
  }

  /** False when the key's bucket for this call is short of tokens (the call is then refused, nothing drawn). */
  allow(keyId: string, method: string, path: string): boolean {
    const now = this.clock();
    let pair = this.buckets.get(keyId);
    if (pair === undefined) {
      pair = { read: new TokenBucket(this.tier.readPerSecond, now), write: new TokenBucket(this.tier.writePerSecond, now) };
      this.buckets.set(keyId, pair);
    }
    return (isWrite(method, path) ? pair.write : pair.read).take(costOf(method, path), now);
  }
}
