/**
 * Which price levels of one book side are non-empty, as a bitset over ticks.
 * Prices are bounded (1..9999), so finding the next best level after one empties
 * is a scan of at most 313 32-bit words with clz32, not a tree walk.
 */
export class PriceLevelIndex {
  private readonly words: Uint32Array;
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  set(tick: number): void {
    this.words[tick >>> 5] |= 1 << (tick & 31);
  }

  clear(tick: number): void {
    this.words[tick >>> 5] &= ~(1 << (tick & 31));
  }

  has(tick: number): boolean {
    return (this.words[tick >>> 5] & (1 << (tick & 31))) !== 0;
  }

  /** Highest set tick <= from, or -1. */
  highestAtOrBelow(from: number): number {
    if (from < 0) return -1;
    if (from >= this.size) from = this.size - 1;
    let w = from >>> 5;
    // Keep bits 0..(from & 31) of the first word.
    let bits = this.words[w] & (0xffffffff >>> (31 - (from & 31)));
    for (;;) {
      if (bits !== 0) return (w << 5) + 31 - Math.clz32(bits);
      if (--w < 0) return -1;
      bits = this.words[w];
    }
  }

  /** Lowest set tick >= from, or -1. */
  lowestAtOrAbove(from: number): number {
    if (from < 0) from = 0;
    if (from >= this.size) return -1;
    const last = this.words.length - 1;
    let w = from >>> 5;
    // Keep bits (from & 31)..31 of the first word.
    let bits = this.words[w] & (0xffffffff << (from & 31));
    for (;;) {
      // bits & -bits isolates the lowest set bit.
      if (bits !== 0) return (w << 5) + 31 - Math.clz32(bits & -bits);
      if (++w > last) return -1;
      bits = this.words[w];
    }
  }
}
