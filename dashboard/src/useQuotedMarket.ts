import { useEffect, useState } from 'react';
import { ApiRequestError, api, segment } from './api';
import { useErrors } from './errors';
import type { QuotedMarket } from './types';
import { rememberMarket } from './useMarkets';

export type QuotedMarketRead =
  | { state: 'loading' }
  | { state: 'found'; market: QuotedMarket }
  /** The API does not know it, or it is another workspace's (404), or the id is not one (400). */
  | { state: 'missing' }
  /** The network or a 5xx: the error banner says why. */
  | { state: 'failed' };

/**
 * GET /v1/markets/{id} once for the market page: the market with its quote, read now (the tables'
 * cache, useMarkets, is told it too). A market the API does not know, or not this workspace's, is
 * `missing`: the page says so, not the error banner.
 */
export function useQuotedMarket(id: string): QuotedMarketRead {
  const { report } = useErrors();
  const [read, setRead] = useState<QuotedMarketRead>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setRead({ state: 'loading' });
    api.get<QuotedMarket>(`/v1/markets/${segment(id)}`, undefined, controller.signal).then(
      (market) => {
        if (controller.signal.aborted) return;
        rememberMarket(market);
        setRead({ state: 'found', market });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiRequestError && (error.status === 404 || error.status === 400)) {
          setRead({ state: 'missing' });
          return;
        }
        report(error);
        setRead({ state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [id, report]);

  return read;
}
