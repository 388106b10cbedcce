/**
 * A small seeded PRNG for the simulated venues: the same seed gives the same sequence on every
 * machine. Never Math.random.
 */

/** mulberry32: a 32-bit state generator, uniform in [0, 1), plenty for shaping simulated liquidity. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a 32-bit hash of a string: turns a venue and market name into a seed component. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * One independent stream per (seed, key), so a market's liquidity depends only on the seed and its
 * own name, not on which other markets exist or the order they are listed in.
 */
export function seededStream(seed: number, key: string): () => number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed ${seed} must be a whole number`);
  return mulberry32((hashString(key) ^ (seed >>> 0) ^ Math.floor(seed / 4_294_967_296)) >>> 0);
}

/** A whole number in [min, max] (both inclusive). */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
