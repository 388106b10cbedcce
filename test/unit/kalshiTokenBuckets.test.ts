/** The client-side Kalshi token buckets (core/venues/kalshi/tokenBuckets.ts), on a hand-moved clock. */
import { KALSHI_RATE_TIERS, KalshiTokenBuckets, TokenBucket } from '../../core/venues/kalshi/tokenBuckets';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('a Kalshi token bucket', () => {
  it('lets a full bucket through at once, then spaces calls at the refill rate, first come first served', () => {
    const time = clock();
    const bucket = new TokenBucket(100, 100, time.now); // 10 calls of 10 per second
    for (let i = 0; i < 10; i += 1) expect(bucket.reserve(10, 1000)).toBe(0);
    expect(bucket.reserve(10, 1000)).toBe(100);
    expect(bucket.reserve(10, 1000)).toBe(200);
    time.advance(200);
    expect(bucket.reserve(10, 1000)).toBe(100);
  });

  it('refuses, reserving nothing, a call that would wait past its bound or can never fit', () => {
    const time = clock();
    const bucket = new TokenBucket(100, 100, time.now);
    expect(bucket.reserve(100, 0)).toBe(0);
    expect(bucket.reserve(10, 50)).toBeNull();
    expect(bucket.reserve(10, 100)).toBe(100); // the refused call took nothing
    expect(bucket.reserve(101, 10_000)).toBeNull();
  });

  it('starts again from empty after a 429, never from a debt smaller than what is queued', () => {
    const time = clock();
    const bucket = new TokenBucket(100, 100, time.now);
    bucket.drain();
    expect(bucket.reserve(10, 1000)).toBe(100);
    bucket.drain(); // already in debt: queued calls keep their turn
    expect(bucket.reserve(10, 1000)).toBe(200);
  });
});

describe("a session's read and write buckets", () => {
  it('are separate and run at 90 % of the tier', () => {
    const time = clock();
    const buckets = new KalshiTokenBuckets(KALSHI_RATE_TIERS.basic, time.now);
    // Basic write: 100 tokens/s, so 90 usable: 9 writes of 10 at once, the 10th waits 1/9 s.
    for (let i = 0; i < 9; i += 1) expect(buckets.reserve('write', 10, 1000)).toBe(0);
    expect(buckets.reserve('write', 10, 1000)).toBe(112);
    // Reads are untouched by the writes: 18 at once.
    for (let i = 0; i < 18; i += 1) expect(buckets.reserve('read', 10, 1000)).toBe(0);
    expect(buckets.reserve('read', 10, 1000)).toBe(56);
  });
});
