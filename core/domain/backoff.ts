/**
 * Exponential backoff, the one formula behind every retry schedule of the service (a venue's
 * session, a venue's stream, webhook deliveries).
 */

/**
 * The delay after the `failures`-th failure in a row (1 for the first): `baseMs`, doubled with each
 * further failure, never more than `maxMs` (the exponent stops growing long before it could overflow).
 */
export function exponentialDelayMs(baseMs: number, maxMs: number, failures: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 40));
}

/**
 * "Full jitter": a wait drawn uniformly between 0 and the exponential delay, in whole milliseconds,
 * so that clients failing together do not retry together.
 */
export function fullJitterMs(backoff: { baseMs: number; maxMs: number }, failures: number, random: () => number): number {
  return Math.floor(random() * exponentialDelayMs(backoff.baseMs, backoff.maxMs, failures));
}
