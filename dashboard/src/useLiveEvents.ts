import { useEffect, useRef, useState } from 'react';
import { ApiRequestError, isAbort, openEventStream } from './api';
import { readEventStream } from './eventStreamReader';

/** Following the event log: connecting, live, reconnecting after a drop, or off (signed out, refused). */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

/** What a table needs of an event: its id and type (the full event is GET /v1/events's). */
export interface LiveEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface LiveHandlers {
  /** The stream (re)opened: what changed while it was not open is not in it, so read again. */
  onOpen: () => void;
  onEvent: (event: LiveEvent) => void;
}

/** The wait before reconnecting after a refusal to open (e.g. the credential's limit of streams). */
const REFUSED_RETRY_MS = 5000;

/**
 * Follows GET /v1/events/stream for `types` (e.g. `order.*,fill.*`; null follows nothing) while the
 * component is shown: fetch() streaming with the session cookie and X-Environment, the events
 * parsed by eventsource-parser. A dropped stream reconnects (after the server's `retry:` time) with
 * Last-Event-ID, so no event is lost; a 401 stops (the session is gone, the page signs out); a
 * Last-Event-ID no longer kept (410 events_expired) reconnects from now, the table read afresh.
 */
export function useLiveEvents(types: string | null, handlers: LiveHandlers): LiveState {
  const [state, setState] = useState<LiveState>(types === null ? 'off' : 'connecting');
  const current = useRef(handlers);
  current.current = handlers;

  useEffect(() => {
    if (types === null) {
      setState('off');
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      let lastEventId: string | undefined;
      let retryMs = 1000;
      while (!signal.aborted) {
        let wait = retryMs;
        try {
          const body = await openEventStream({ types }, lastEventId, signal);
          setState('live');
          current.current.onOpen();
          await readEventStream(body, {
            onEvent: (message) => {
              if (message.id) lastEventId = message.id;
              current.current.onEvent(JSON.parse(message.data) as LiveEvent);
            },
            onRetry: (ms) => {
              retryMs = ms;
            },
          });
        } catch (error) {
          if (signal.aborted || isAbort(error)) return;
          if (error instanceof ApiRequestError && error.code === 'events_expired') {
            // The events after the last one seen are no longer kept (docs/events.md "Retention"):
            // follow from now; opening re-reads the table (onOpen), which is what they would have changed.
            lastEventId = undefined;
          } else if (error instanceof ApiRequestError && error.status !== 429 && error.status < 500) {
            setState('off');
            return;
          } else if (error instanceof ApiRequestError) {
            wait = REFUSED_RETRY_MS;
          }
        }
        if (signal.aborted) return;
        setState('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    return () => controller.abort();
  }, [types]);

  return state;
}
