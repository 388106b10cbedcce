import { useCallback, useEffect, useState } from 'react';
import { api, withQuery, type Query } from './api';
import { useErrors } from './errors';

export interface ApiData<T> {
  data: T | undefined;
  loading: boolean;
  /** Fetches again (after a write), keeping what is shown until the answer arrives. */
  reload: () => void;
}

/**
 * GET `path` (with `query`) whenever either changes or reload() is called; a `null` path loads
 * nothing. An answer that arrives after the component moved on is dropped (the request is aborted).
 * Errors go to the error banner.
 */
export function useApiData<T>(path: string | null, query?: Query): ApiData<T> {
  const { report } = useErrors();
  const [data, setData] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const url = path === null ? null : withQuery(path, query);

  useEffect(() => {
    if (url === null) {
      setData(undefined);
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    api
      .get<T>(url, undefined, controller.signal)
      .then((value) => {
        if (!controller.signal.aborted) setData(value);
      })
      .catch(report)
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [url, generation, report]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, loading, reload };
}
