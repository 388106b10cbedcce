import { useCallback, useEffect, useState } from 'react';
import { api, segment } from './api';
import { useErrors } from './errors';
import type { MarketTrade, Page } from './types';

/** How many trades the page lists: the newest. */
export const RECENT_TRADES = 50;

/**
 * A fresh read of the newest trades, with the trades `shown` has that are newer than all of them
 * (arrived from the stream while the read was under way) kept on top.
 */
function merged(read: MarketTrade[], shown: MarketTrade[] | undefined): MarketTrade[] {
  const ids = new Set(read.map((trade) => trade.id));
  const newest = read[0]?.executed_at ?? '';
  const newer = (shown ?? []).filter((trade) => !ids.has(trade.id) && trade.executed_at >= newest);
  return [...newer, ...read].slice(0, RECENT_TRADES);
}

export interface RecentTrades {
  /** Newest first; undefined until the first read. */
  trades: MarketTrade[] | undefined;
  /** Reads the newest trades again (the stream (re)opened: a trade before it is not in it). */
  reload: () => void;
  /** A trade from the stream, put on top (once). */
  add: (trade: MarketTrade) => void;
}

/** GET /v1/markets/{id}/trades (the newest RECENT_TRADES), and the trades the stream adds. */
export function useRecentTrades(marketId: string): RecentTrades {
  const { report } = useErrors();
  const [trades, setTrades] = useState<MarketTrade[] | undefined>(undefined);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<Page<MarketTrade>>(`/v1/markets/${segment(marketId)}/trades`, { limit: RECENT_TRADES }, controller.signal)
      .then((page) => {
        if (!controller.signal.aborted) setTrades((shown) => merged(page.data, shown));
      })
      .catch(report);
    return () => controller.abort();
  }, [marketId, generation, report]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const add = useCallback(
    (trade: MarketTrade) => setTrades((shown) => (shown?.some((t) => t.id === trade.id) ? shown : [trade, ...(shown ?? [])].slice(0, RECENT_TRADES))),
    [],
  );
  return { trades, reload, add };
}
