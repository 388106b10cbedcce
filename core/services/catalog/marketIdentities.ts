import { LRUCache } from 'lru-cache';
import type { SqlClient } from '../../db/sql';
import type { Market } from '../../generated/prisma/client';
import { findMarket } from './statements';

/**
 * What never changes about a market once it exists: its environment, its venue and the venue's id
 * for it, and the workspace of a test helper's market. The order path needs these before its transaction (to open the venue account outside the
 * subaccount lock), and reads the rest of the market (status, tick size, fees) inside the
 * transaction, in the same write as the lock: so only the immutable part is cached, and a change
 * of status or rules takes effect for the next order on every core, with no invalidation to miss.
 */
export type MarketIdentity = Pick<Market, 'id' | 'environment' | 'venue' | 'venueMarketId' | 'workspaceId'>;

const MAX_MARKETS = 100_000;
const caches = new WeakMap<SqlClient, LRUCache<string, MarketIdentity>>();

/** The market's identity, or undefined when no market has this id (not remembered: it may be listed later). */
export async function marketIdentityOf(sql: SqlClient, id: string): Promise<MarketIdentity | undefined> {
  let cache = caches.get(sql);
  if (!cache) {
    cache = new LRUCache({ max: MAX_MARKETS });
    caches.set(sql, cache);
  }
  const known = cache.get(id);
  if (known) return known;
  const market = await findMarket(sql, id);
  if (!market) return undefined;
  const identity: MarketIdentity = { id: market.id, environment: market.environment, venue: market.venue, venueMarketId: market.venueMarketId, workspaceId: market.workspaceId };
  cache.set(id, identity);
  return identity;
}
