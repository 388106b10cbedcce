/** The one exponential backoff (core/domain/backoff.ts) behind the venues' sessions and streams and webhook retries. */
import { exponentialDelayMs, fullJitterMs } from '../../core/domain/backoff';

describe('exponentialDelayMs', () => {
  test('starts at the base after the first failure and doubles with each further one', () => {
    expect([1, 2, 3, 4, 5].map((failures) => exponentialDelayMs(100, 10_000, failures))).toEqual([100, 200, 400, 800, 1600]);
  });

  test('never exceeds the cap, however many failures in a row', () => {
    expect(exponentialDelayMs(100, 2000, 6)).toBe(2000);
    expect(exponentialDelayMs(100, 2000, 1_000_000)).toBe(2000);
    expect(Number.isFinite(exponentialDelayMs(10_000, 3_600_000, 5_000))).toBe(true);
  });

  test('a count below one is the first failure', () => {
    expect(exponentialDelayMs(500, 30_000, 0)).toBe(500);
  });
});

describe('fullJitterMs', () => {
  const backoff = { baseMs: 100, maxMs: 2000 };

  test('draws between 0 and the exponential delay, in whole milliseconds', () => {
    expect(fullJitterMs(backoff, 3, () => 0)).toBe(0);
    expect(fullJitterMs(backoff, 3, () => 0.5)).toBe(200);
    expect(fullJitterMs(backoff, 3, () => 0.9999)).toBe(399);
    expect(fullJitterMs(backoff, 30, () => 0.9999)).toBe(1999);
  });

  test('spreads clients that failed together', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const waits = Array.from({ length: 200 }, () => fullJitterMs(backoff, 4, random));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(800);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });
});
