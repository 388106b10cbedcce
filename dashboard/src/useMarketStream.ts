import { useEffect, useRef, useState } from 'react';
import { ApiRequestError, openMarketStream } from './api';
import { readEventStream } from './eventStreamReader';
import type { MarketStreamMessage } from './types';
import type { LiveState } from './useLiveEvents';

/** The wait before reconnecting after a refusal to open (the limit of streams, a 5xx). */
const REFUSED_RETRY_MS = 5000;

/** A message whose seq is not one more than the last on this connection: what the page holds may be wrong. */
class SkippedMessage extends Error {}

/**
 * Follows GET /v1/markets/stream for one market (null follows nothing) while the component is shown,
 * as useLiveEvents follows the event log: fetch() streaming with the session cookie and
 * X-Environment, parsed by eventsource-parser. Each message is handed to `onMessage` in order.
 *
 * A dropped or ended stream reconnects after the server's `retry:` time (5 s after a 429 or 5xx); a
 * new connection starts with a snapshot, which replaces the book. A seq that does not follow the
 * last one (the server skipped messages for a slow client and a snapshot should come first)
 * reconnects at once, for a snapshot. Any other refusal (401: the page signs out; 404: the market
 * is not this workspace's) stops.
 */
export function useMarketStream(marketId: string | null, depth: number, onMessage: (message: MarketStreamMessage) => void): LiveState {
  const [state, setState] = useState<LiveState>(marketId === null ? 'off' : 'connecting');
  const current = useRef(onMessage);
  current.current = onMessage;

  useEffect(() => {
    if (marketId === null) {
      setState('off');
      return;
    }
    const shown = new AbortController();
    void (async () => {
      let retryMs = 1000;
      while (!shown.signal.aborted) {
        let wait = retryMs;
        // One connection: ended when it fails, when its seq breaks, or when the page goes.
        const connection = new AbortController();
        const hangUp = () => connection.abort();
        shown.signal.addEventListener('abort', hangUp);
        try {
          const body = await openMarketStream({ market_ids: marketId, depth }, connection.signal);
          setState('live');
          let lastSeq: number | undefined;
          await readEventStream(body, {
            onEvent: (event) => {
              const message = JSON.parse(event.data) as MarketStreamMessage;
              if (message.market_id !== marketId) return;
              if (message.type !== 'snapshot' && (lastSeq === undefined || message.seq !== lastSeq + 1)) throw new SkippedMessage();
              lastSeq = message.seq;
              current.current(message);
            },
            onRetry: (ms) => {
              retryMs = ms;
            },
          });
        } catch (error) {
          if (shown.signal.aborted) return;
          if (error instanceof SkippedMessage) {
            wait = 0;
          } else if (error instanceof ApiRequestError && error.status !== 429 && error.status < 500) {
            setState('off');
            return;
          } else if (error instanceof ApiRequestError) {
            wait = REFUSED_RETRY_MS;
          }
        } finally {
          shown.signal.removeEventListener('abort', hangUp);
          connection.abort();
        }
        if (shown.signal.aborted) return;
        setState('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    return () => shown.abort();
  }, [marketId, depth]);

  return state;
}
