import { PriceLevelIndex } from '../../../core/domain/matching/priceLevelIndex';

describe('PriceLevelIndex', () => {
  it('finds neighbours across 32-bit word boundaries and at both ends', () => {
    const index = new PriceLevelIndex(10_000);
    for (const tick of [1, 31, 32, 63, 64, 9999]) index.set(tick);
    expect(index.highestAtOrBelow(9999)).toBe(9999);
    expect(index.highestAtOrBelow(9998)).toBe(64);
    expect(index.highestAtOrBelow(63)).toBe(63);
    expect(index.highestAtOrBelow(62)).toBe(32);
    expect(index.highestAtOrBelow(31)).toBe(31);
    expect(index.highestAtOrBelow(30)).toBe(1);
    expect(index.highestAtOrBelow(0)).toBe(-1);
    expect(index.lowestAtOrAbove(0)).toBe(1);
    expect(index.lowestAtOrAbove(2)).toBe(31);
    expect(index.lowestAtOrAbove(32)).toBe(32);
    expect(index.lowestAtOrAbove(33)).toBe(63);
    expect(index.lowestAtOrAbove(65)).toBe(9999);
    index.clear(9999);
    expect(index.lowestAtOrAbove(65)).toBe(-1);
    expect(index.has(64)).toBe(true);
    expect(index.has(65)).toBe(false);
  });

  it('agrees with a linear scan on random sets', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const index = new PriceLevelIndex(10_000);
    const present = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const tick = 1 + Math.floor(random() * 9999);
      if (present.has(tick)) {
        present.delete(tick);
        index.clear(tick);
      } else {
        present.add(tick);
        index.set(tick);
      }
      const probe = Math.floor(random() * 10_000);
      let below = -1;
      for (let t = probe; t >= 0; t--) if (present.has(t)) { below = t; break; }
      let above = -1;
      for (let t = probe; t < 10_000; t++) if (present.has(t)) { above = t; break; }
      expect(index.highestAtOrBelow(probe)).toBe(below);
      expect(index.lowestAtOrAbove(probe)).toBe(above);
    }
  });
});
