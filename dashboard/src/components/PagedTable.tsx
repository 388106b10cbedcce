import { useEffect, useRef, useState, type ReactNode } from 'react';
import { withQuery, type Query } from '../api';
import type { Market, Page } from '../types';
import { useApiData } from '../useApiData';
import { useLiveEvents, type LiveEvent } from '../useLiveEvents';
import { rememberMarket } from '../useMarkets';
import { DataTable, type Column } from './DataTable';
import { LiveMarker } from './LiveMarker';

export interface PagedTableProps<T> {
  /** Test ids `${name}-table`, `${name}-next`, `${name}-prev`. */
  name: string;
  path: string;
  query?: Query;
  columns: Column<T>[];
  rowKey: (row: T, index: number) => string;
  rowTestId: (row: T, index: number) => string;
  /** Sends limit and cursor and shows Previous/Next; false for lists the API returns whole. */
  paged?: boolean;
  pageSize?: number;
  /** Change it to fetch the current page again (after a write). */
  reloadSignal?: number;
  emptyText?: string;
  /**
   * Event types (`order.*`) after which the page shown is read again, as they happen
   * (GET /v1/events/stream); the table says whether it is live. Test id `${name}-live`.
   */
  liveTypes?: string;
  /** What to show under a row, across the table (DataTable's rowDetail). */
  rowDetail?: (row: T) => ReactNode;
  /** Called whenever events (or the stream opening) make the table read its page again: what the page derives from the same rows reads again too. */
  onLiveRead?: () => void;
}

/** Reads after events are gathered for this long: a burst (an order and its fills) is one read. */
const LIVE_READ_DELAY_MS = 150;

/**
 * A table over a `{ data, has_more, next_cursor }` list. Next follows next_cursor; Previous pops
 * the stack of cursors that led here. A different path or filter starts again at the first page.
 */
export function PagedTable<T>({
  name,
  path,
  query = {},
  columns,
  rowKey,
  rowTestId,
  paged = true,
  pageSize = 25,
  reloadSignal = 0,
  emptyText = 'Nothing yet.',
  liveTypes,
  onLiveRead,
  rowDetail,
}: PagedTableProps<T>) {
  const base = withQuery(path, query);
  const [stack, setStack] = useState<{ base: string; cursors: string[] }>({ base, cursors: [] });
  const cursors = stack.base === base ? stack.cursors : [];
  const cursor = cursors.at(-1);

  const { data: page, loading, reload } = useApiData<Page<T>>(
    path,
    paged ? { ...query, limit: pageSize, cursor } : query,
  );

  useEffect(() => {
    if (reloadSignal > 0) reload();
  }, [reloadSignal, reload]);

  // Live: the page shown is read again after events (and when the stream opens: what changed
  // before it is not in it). Not rows patched from events: the filters and the page stay the API's.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  const readSoon = () => {
    pending.current ??= setTimeout(() => {
      pending.current = undefined;
      reload();
      onLiveRead?.();
    }, LIVE_READ_DELAY_MS);
  };
  const onEvent = (event: LiveEvent) => {
    // A market's status changed: every table naming it shows the new status (MarketName).
    if (event.type.startsWith('market.')) rememberMarket(event.data as unknown as Market);
    readSoon();
  };
  const live = useLiveEvents(liveTypes ?? null, { onOpen: readSoon, onEvent });

  const next = () => {
    if (page?.next_cursor) setStack({ base, cursors: [...cursors, page.next_cursor] });
  };
  const previous = () => setStack({ base, cursors: cursors.slice(0, -1) });

  return (
    <div className="table-block">
      {liveTypes && <LiveMarker state={live} testId={`${name}-live`} />}
      <DataTable<T>
        testId={`${name}-table`}
        columns={columns}
        rows={page ? page.data : loading ? undefined : []}
        rowKey={rowKey}
        rowTestId={rowTestId}
        emptyText={emptyText}
        busy={loading}
        rowDetail={rowDetail}
      />
      {paged && (
        <div className="pager">
          <button type="button" data-testid={`${name}-prev`} onClick={previous} disabled={cursors.length === 0 || loading}>
            Previous
          </button>
          <span className="pager-page">Page {cursors.length + 1}</span>
          <button
            type="button"
            data-testid={`${name}-next`}
            onClick={next}
            disabled={!page?.has_more || !page.next_cursor || loading}
          >
            Next
          </button>
        </div>
      )}
    </div>
  );
}
