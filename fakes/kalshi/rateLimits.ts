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
 *
 * The V2 order-management routes (docs.kalshi.com, 2026-08: each endpoint page's "Rate limit"
 * note, "Rate Limits and Tiers", and the changelog's legacy-cost entries, which price the V1 amend
 * and decrease at 10x "the corresponding V2 ... costs"): amend and decrease cost the default 10;
 * batched create costs 10 and batched cancel 2 per order in the batch ("billed per item, so total
 * cost for a batch of N orders is N x 10"). "The whole batch must fit in the bucket at once ... or
 * the entire batch is rejected" (a 429 like any call short of tokens), and "the maximum batch size
 * scales with your tier's write budget": the fake refuses outright (400, restRoutes.ts) a batch whose
 * cost is more than the tier's write bucket can ever hold, `maxBatchSize` items (basic: 10 creates,
 * 50 cancels).
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
  // Per order in the batch (BATCH_ITEM_COST); listed before the single cancel, whose pattern it matches.
  ['DELETE', /^\/trade-api\/v2\/portfolio\/events\/orders\/batched$/, 2],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/events\/orders\/[^/]+$/, 2],
  ['GET', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+$/, 2],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders$/, 20],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+$/, 4],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders\/[^/]+\/(amend|decrease)$/, 20],
  ['POST', /^\/trade-api\/v2\/portfolio\/orders\/batched$/, 20],
  ['DELETE', /^\/trade-api\/v2\/portfolio\/orders\/batched$/, 4],
];

const BATCHED = /^\/trade-api\/v2\/portfolio\/events\/orders\/batched$/;

/** True for the V2 batched create and cancel, which are billed per order in the batch. */
export function isBatched(method: string, path: string): boolean {
  return (method === 'POST' || method === 'DELETE') && BATCHED.test(path);
}

/** `items`: how many orders a batched call carries (1 for any other call). */
export function costOf(method: string, path: string, items = 1): number {
  let cost = DEFAULT_COST;
  for (const [m, pattern, c] of ENDPOINT_COSTS) {
    if (m === method && pattern.test(path)) {
      cost = c;
      break;
    }
  }
  return isBatched(method, path) ? cost * Math.max(1, items) : cost;
}

/** The most orders one batched call may carry on this tier: what its write bucket can pay for at once. */
export function maxBatchSize(tier: RateTier, method: 'POST' | 'DELETE'): number {
  return Math.floor(tier.writePerSecond / costOf(method, '/trade-api/v2/portfolio/events/orders/batched'));
}

/** How many orders a batched call's raw body lists (for its cost); 1 when it lists none or does not parse. */
export function batchItemCount(raw: string): number {
  try {
    const orders = (JSON.parse(raw) as { orders?: unknown } | null)?.orders;
    return Array.isArray(orders) && orders.length > 0 ? orders.length : 1;
  } catch {
    return 1;
  }
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

  /**
   * False when the key's bucket for this call is short of tokens (the call is then refused, nothing
   * drawn). `items`: the orders of a batched call, each billed.
   */
  allow(keyId: string, method: string, path: string, items = 1): boolean {
    const now = this.clock();
    let pair = this.buckets.get(keyId);
    if (pair === undefined) {
      pair = { read: new TokenBucket(this.tier.readPerSecond, now), write: new TokenBucket(this.tier.writePerSecond, now) };
      this.buckets.set(keyId, pair);
    }
    return (isWrite(method, path) ? pair.write : pair.read).take(costOf(method, path, items), now);
  }
}
