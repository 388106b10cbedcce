import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { ApiRequestError, api, currentEnvironment, segment } from './api';
import type { Market } from './types';

/**
 * Markets by id, for naming them in tables and rounding their prices to the tick: each market is
 * read once (GET /v1/markets/{id}) per environment and kept for the page's life. While a market is
 * loading, or when the API does not know it, the caller shows the id. A read that failed otherwise
 * (the network, a 5xx) is tried again by a later use, no sooner than RETRY_AFTER_MS.
 */

type Entry = { state: 'loading' } | { state: 'found'; market: Market } | { state: 'missing' } | { state: 'failed'; at: number };

const RETRY_AFTER_MS = 30_000;
const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let version = 0;

const keyOf = (id: string) => `${currentEnvironment()}:${id}`;

function put(key: string, entry: Entry) {
  entries.set(key, entry);
  version += 1;
  for (const listener of listeners) listener();
}

function load(id: string) {
  const key = keyOf(id);
  const entry = entries.get(key);
  if (entry && !(entry.state === 'failed' && Date.now() - entry.at >= RETRY_AFTER_MS)) return;
  put(key, { state: 'loading' });
  api.get<Market>(`/v1/markets/${segment(id)}`).then(
    (market) => put(key, { state: 'found', market }),
    (error: unknown) => {
      const unknown = error instanceof ApiRequestError && (error.status === 404 || error.status === 400);
      put(key, unknown ? { state: 'missing' } : { state: 'failed', at: Date.now() });
    },
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const snapshot = () => version;

/** The markets of `ids` (read as needed); the function answers a market once it has been read. */
export function useMarkets(ids: readonly (string | null | undefined)[]): (id: string | null | undefined) => Market | undefined {
  const seen = useSyncExternalStore(subscribe, snapshot);
  const wanted = [...new Set(ids.filter((id): id is string => !!id))].sort().join('\n');
  useEffect(() => {
    for (const id of wanted.split('\n')) if (id) load(id);
  }, [wanted]);
  return useCallback(
    (id: string | null | undefined) => {
      const entry = id ? entries.get(keyOf(id)) : undefined;
      return entry?.state === 'found' ? entry.market : undefined;
    },
    // `seen` changes whenever a market arrives: a new function, so that memoized users look again.
    [seen],
  );
}

/** A market as an event (market.closed, market.settled, ...) carries it: its status and result shown from now on. */
export function rememberMarket(market: Market) {
  put(keyOf(market.id), { state: 'found', market });
}

/** One market, once read; undefined while loading or when the API does not know it. */
export function useMarket(id: string | null | undefined): Market | undefined {
  return useMarkets([id])(id);
}
