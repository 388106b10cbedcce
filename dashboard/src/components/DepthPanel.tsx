import { DepthChart } from '../charts/DepthChart';
import { formatPrice } from '../format';
import type { SideBook } from '../types';

/** The depth chart of the YES book the stream keeps; until its first snapshot, a wait. */
export function DepthPanel({ book, mid, tickSize }: { book: SideBook | undefined; mid: string | null; tickSize: string }) {
  return (
    <div className="panel">
      <div className="panel-head">
        <h3>Depth (YES book)</h3>
        {mid !== null && (
          <span className="muted small">
            {/* The mid is often between two ticks: shown as it is, not rounded to one. */}
            mid <span data-testid="book-mid">{formatPrice(mid)}</span>
          </span>
        )}
      </div>
      {book ? <DepthChart book={book} mid={mid} tickSize={tickSize} /> : <div className="chart-box chart-loading">Waiting for the book…</div>}
    </div>
  );
}
