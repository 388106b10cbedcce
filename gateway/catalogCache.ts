import { LRUCache } from 'lru-cache';

type Load = () => Promise<string>;

/**
 * Answers of catalog routes (markets), kept for a short time as the exact JSON sent. A live catalog
 * answer depends only on the environment and the request, never on the workspace or the key, so
 * one entry serves every live caller; a test answer is kept per workspace, since a workspace's
 * test-helper markets are its alone (docs/settlement.md). Authentication and rate limits still run for
 * each request. Concurrent misses for one entry share one core call (lru-cache's `fetch`); errors
 * are never kept. `ttlMs` 0 keeps nothing: every request goes to the core (docs/architecture.md, Catalog cache).
 */
export class CatalogCache {
  private readonly entries: LRUCache<string, string, Load> | undefined;

  /** At most `maxBytes` of JSON (a search page can be large), least recently used out first. */
  constructor(ttlMs: number, maxBytes = 32 * 1024 * 1024) {
    this.entries =
      ttlMs > 0
        ? new LRUCache<string, string, Load>({
            ttl: ttlMs,
            maxSize: maxBytes,
            sizeCalculation: (body, key) => body.length + key.length,
            fetchMethod: (_key, _stale, { context }) => context(),
          })
        : undefined;
  }

  /** The kept answer for `key`, else `load()`'s (kept when it succeeds). */
  async get(key: string, load: Load): Promise<string> {
    if (!this.entries) return load();
    return (await this.entries.fetch(key, { context: load }))!;
  }
}

/** The entry of one request: environment (and, in the test environment, workspace), operation and its variables. */
export function catalogKey(principal: { environment: string; workspaceId: string }, operation: string, variables: Record<string, unknown>): string {
  const audience = principal.environment === 'test' ? `test\u0000${principal.workspaceId}` : principal.environment;
  return `${audience}\u0000${operation}\u0000${JSON.stringify(variables)}`;
}
