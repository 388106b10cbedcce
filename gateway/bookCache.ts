/**
 * Order book answers of the simulated venues (GET /v1/markets/{id}/orderbook in the test
 * environment), kept as the exact JSON sent until the market's next notice (MARKET_NOTICE_TOPIC:
 * every order placed or canceled there is announced once recorded, in-process or over Redis) or
 * `maxAgeMs` (MARKET_STREAM_POLL_MS: a notice lost to a Redis outage costs at most that). A
 * simulated book moves only by our orders, so a kept answer is the book as it is
 * (docs/market-data.md, "The order book"). Kept per workspace (a test helper's market is its
 * workspace's alone) and depth. A read that began before a notice is never kept after it; errors
 * are never kept. Concurrent misses for one entry share one core call.
 */
type Load = () => Promise<string>;

/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 10_000;

export class BookCache {
  private readonly kept = new Map<string, { body: string; at: number; marketId: string }>();
  private readonly loading = new Map<string, Promise<string>>();
  /** Per market, how many notices it has had: a read started under an older count is not kept. */
  private readonly generations = new Map<string, number>();
  private readonly keysOf = new Map<string, Set<string>>();

  constructor(private readonly maxAgeMs: number) {}

  async get(marketId: string, key: string, load: Load): Promise<string> {
    const hit = this.kept.get(key);
    if (hit && Date.now() - hit.at < this.maxAgeMs) return hit.body;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generations.get(marketId) ?? 0;
    const read = load()
      .then((body) => {
        if ((this.generations.get(marketId) ?? 0) === generation) this.keep(marketId, key, body);
        return body;
      })
      .finally(() => {
        if (this.loading.get(key) === read) this.loading.delete(key);
      });
    this.loading.set(key, read);
    this.index(marketId, key);
    return read;
  }

  /** The market may have moved: what was kept or is being read of it is not served again. */
  invalidate(marketId: string): void {
    const keys = this.keysOf.get(marketId);
    if (!keys) return; // nothing kept nor being read: nothing to forget
    this.generations.set(marketId, (this.generations.get(marketId) ?? 0) + 1);
    for (const key of keys) {
      this.kept.delete(key);
      this.loading.delete(key);
    }
    this.keysOf.delete(marketId);
  }

  private keep(marketId: string, key: string, body: string): void {
    this.kept.delete(key);
    this.kept.set(key, { body, at: Date.now(), marketId });
    this.index(marketId, key);
    if (this.kept.size > MAX_ENTRIES) {
      const [oldest, entry] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.keysOf.get(entry.marketId)?.delete(oldest);
    }
  }

  private index(marketId: string, key: string): void {
    const keys = this.keysOf.get(marketId) ?? new Set<string>();
    keys.add(key);
    this.keysOf.set(marketId, keys);
  }
}
