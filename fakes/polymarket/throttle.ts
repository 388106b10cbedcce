/**
 * Polymarket's two rate-limit layers, as the fake plays them.
 *
 * 1. Cloudflare, per endpoint (docs.polymarket.com "Rate Limits", api-reference/rate-limits):
 *    "When you exceed the limit for any endpoint, requests are throttled (delayed/queued) rather
 *    than immediately rejected. Limits reset on sliding time windows." The CLOB's limits per 10 s:
 *    general 9,000; `POST /order` 3,500 (burst; 36,000 per 10 min sustained, not modelled);
 *    `DELETE /order` 3,000; `POST /orders` 1,000; `DELETE /orders` 1,000; `DELETE /cancel-all` 250;
 *    `DELETE /cancel-market-orders` 1,000 (the page's trading table; their 10-minute figures, 15,000,
 *    6,000 and 1,500, are not modelled); `/data/orders` and `/data/trades` 500; `/book` 1,500; tick
 *    size 200. The fake keeps a sliding window per endpoint (unlisted paths share the
 *    general one): a request over the limit waits for its slot; when more requests than
 *    `queueBound` already wait on that endpoint, it is answered 429 `Too Many Requests` at once
 *    (Cloudflare's queue depth is not published; the bound, by default one window's limit, is the
 *    fake's choice, as is the JSON body: Cloudflare's own 429 page is HTML).
 * 2. Per signer (docs.polymarket.com "CLOB Trading Rate Limits", api-reference/
 *    trading-rate-limits): an order bucket (`POST /order` 1 token, `POST /orders` one per order in
 *    the batch) and a cancel bucket (`DELETE /order` 1, `DELETE /orders` one per submitted id,
 *    duplicates included, `DELETE /cancel-all` 1 + the orders cancelled, `DELETE
 *    /cancel-market-orders` 1 + the matching orders cancelled: the fake counts the account's open
 *    orders the request would cancel when it arrives, exchange.ts `cancelableCount`) per signer
 *    address, refilled continuously, capacity = the tier's burst. "A batch is admitted only when the
 *    bucket contains enough tokens for every entry. Otherwise, the entire request is rejected and no
 *    entries are processed" (the page's "Batch Requests"): the charge is one check of the whole
 *    cost, so a cost above the burst can never pass. Standard tier: orders 40/s, burst 60; cancels
 *    80/s, burst 120 (the docs' tier table, as quoted by clients; the fake reads no
 *    other tier). From July 24, 2026 the limiter ran in warning mode: requests are processed and
 *    one that would be refused carries `Poly-RateLimit-Warning: true`; under enforcement it is
 *    refused (429, `Retry-After`). The fake offers both (`mode`, default warning, the last
 *    documented state). It reports `Poly-RateLimit-Remaining`, `-Reset` and `-Tier` on every
 *    answer a bucket charged (the header names are the SDKs'; Polymarket's ts-sdk and nautilus read
 *    them; what Remaining and Reset count exactly is not documented: here whole tokens left, and
 *    the unix second the bucket is full again).
 */
import { sleep } from '../loopback';

export interface ThrottleOptions {
  /** The sliding window, ms (default 10 000). */
  readonly windowMs?: number;
  /** Requests per window by `METHOD /path`, or `general`; merged over the venue's. */
  readonly limits?: Readonly<Record<string, number>>;
  /** How many requests may wait on one endpoint before the next is answered 429 (default: its limit). */
  readonly queueBound?: number;
}

export interface SignerTier {
  readonly name: string;
  readonly orderPerSecond: number;
  readonly orderBurst: number;
  readonly cancelPerSecond: number;
  readonly cancelBurst: number;
}

export interface SignerLimitOptions {
  readonly mode?: 'warning' | 'enforce';
  readonly tier?: SignerTier;
}

export const STANDARD_TIER: SignerTier = { name: 'standard', orderPerSecond: 40, orderBurst: 60, cancelPerSecond: 80, cancelBurst: 120 };

const VENUE_LIMITS: Readonly<Record<string, number>> = {
  general: 9_000,
  'POST /order': 3_500,
  'DELETE /order': 3_000,
  'POST /orders': 1_000,
  'DELETE /orders': 1_000,
  'DELETE /cancel-all': 250,
  'DELETE /cancel-market-orders': 1_000,
  'GET /data/orders': 500,
  'GET /data/trades': 500,
  'GET /book': 1_500,
  'GET /tick-size': 200,
};

/** Cloudflare's layer: a sliding window per endpoint that delays, then refuses. */
export class EndpointThrottle {
  private readonly windowMs: number;
  private readonly limits: Record<string, number>;
  private readonly queueBound: number | undefined;
  private readonly starts = new Map<string, number[]>();

  constructor(options: ThrottleOptions, private readonly clock: () => number = Date.now) {
    this.windowMs = options.windowMs ?? 10_000;
    this.limits = { ...VENUE_LIMITS, ...options.limits };
    this.queueBound = options.queueBound;
  }

  /** Waits for the request's slot; false when the queue is full (answer 429, nothing processed). */
  async admit(method: string, path: string): Promise<boolean> {
    const key = this.limits[`${method} ${path}`] === undefined ? 'general' : `${method} ${path}`;
    const limit = this.limits[key]!;
    const now = this.clock();
    const starts = (this.starts.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.starts.set(key, starts);
    const start = starts.length < limit ? now : Math.max(now, starts[starts.length - limit]! + this.windowMs);
    if (start > now && starts.filter((t) => t > now).length >= (this.queueBound ?? limit)) return false;
    starts.push(start);
    if (start > now) await sleep(start - now);
    return true;
  }
}

type Bucket = 'order' | 'cancel';

/**
 * The bucket and token cost of a trading request, or null for a request no bucket counts.
 * `cancelable`: how many orders a cancel-all or cancel-market-orders request would cancel.
 */
export function signerCost(method: string, path: string, body: unknown, cancelable = 0): { bucket: Bucket; cost: number } | null {
  const many = Array.isArray(body) ? Math.max(body.length, 1) : 1;
  if (method === 'POST' && path === '/order') return { bucket: 'order', cost: 1 };
  if (method === 'POST' && path === '/orders') return { bucket: 'order', cost: many };
  if (method === 'DELETE' && path === '/order') return { bucket: 'cancel', cost: 1 };
  if (method === 'DELETE' && path === '/orders') return { bucket: 'cancel', cost: many };
  if (method === 'DELETE' && (path === '/cancel-all' || path === '/cancel-market-orders')) return { bucket: 'cancel', cost: 1 + cancelable };
  return null;
}

export interface SignerVerdict {
  readonly refused: boolean;
  readonly headers: Record<string, string>;
}

/** The per-signer layer: two token buckets per signer address. */
export class SignerLimiter {
  private readonly mode: 'warning' | 'enforce';
  private readonly tier: SignerTier;
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(options: SignerLimitOptions, private readonly clock: () => number = Date.now) {
    this.mode = options.mode ?? 'warning';
    this.tier = options.tier ?? STANDARD_TIER;
  }

  /** Charges a trading request; null when no bucket counts it. `cancelable` as `signerCost` takes it. */
  charge(signer: string, method: string, path: string, body: unknown, cancelable = 0): SignerVerdict | null {
    const what = signerCost(method, path, body, cancelable);
    if (what === null) return null;
    const [rate, burst] = what.bucket === 'order' ? [this.tier.orderPerSecond, this.tier.orderBurst] : [this.tier.cancelPerSecond, this.tier.cancelBurst];
    const now = this.clock();
    const key = `${signer.toLowerCase()} ${what.bucket}`;
    const state = this.buckets.get(key) ?? { tokens: burst, atMs: now };
    state.tokens = Math.min(burst, state.tokens + ((now - state.atMs) / 1000) * rate);
    state.atMs = now;
    this.buckets.set(key, state);
    const short = state.tokens < what.cost;
    const refused = short && this.mode === 'enforce';
    if (!refused) state.tokens -= what.cost;
    const fullAtSeconds = Math.ceil((now + ((burst - Math.max(state.tokens, 0)) / rate) * 1000) / 1000);
    const headers: Record<string, string> = {
      'Poly-RateLimit-Remaining': String(Math.max(0, Math.floor(state.tokens))),
      'Poly-RateLimit-Reset': String(fullAtSeconds),
      'Poly-RateLimit-Tier': this.tier.name,
    };
    if (short && this.mode === 'warning') headers['Poly-RateLimit-Warning'] = 'true';
    if (refused) headers['Retry-After'] = String(Math.max(1, Math.ceil(((what.cost - state.tokens) / rate))));
    return { refused, headers };
  }
}
