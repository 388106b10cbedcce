import { useState } from 'react';
import { api, type Query } from '../api';
import { toShownError, type ShownError } from '../errors';
import type { CanceledOrders, Subaccount } from '../types';
import { useMarket } from '../useMarkets';
import { Id } from './Id';

/** Requests of at most 200 cancels each (the API's bound) sent for one Cancel all, at most. */
const MAX_REQUESTS = 25;

/** What one Cancel all did, over all its requests. */
interface CancelAllOutcome {
  canceled: number;
  failed: CanceledOrders['failed'];
  /** Orders still matched when it stopped (after MAX_REQUESTS, or when only failures were left to try). */
  moreLeft: boolean;
  /** The request that was refused or got no answer, when one was. */
  error: ShownError | null;
}

/**
 * DELETE /v1/orders with `filters` until `has_more` is false (docs/trading.md, "Cancel many"): a
 * request that canceled nothing while more match stops it (the oldest orders left all failed, and
 * would be tried again), and so does MAX_REQUESTS. A failure later canceled is no failure.
 */
async function cancelEveryResting(filters: Query): Promise<CancelAllOutcome> {
  const canceled = new Set<string>();
  const failed = new Map<string, CanceledOrders['failed'][number]>();
  const outcome = (moreLeft: boolean, error: ShownError | null = null): CancelAllOutcome => ({
    canceled: canceled.size,
    failed: [...failed.values()].filter((failure) => !canceled.has(failure.order_id)),
    moreLeft,
    error,
  });
  try {
    for (let request = 0; request < MAX_REQUESTS; request++) {
      const answer = await api.delete<CanceledOrders>('/v1/orders', filters);
      for (const order of answer.canceled) canceled.add(order.id);
      for (const failure of answer.failed) failed.set(failure.order_id, failure);
      if (!answer.has_more) return outcome(false);
      if (answer.canceled.length === 0) break;
    }
    return outcome(true);
  } catch (error) {
    return outcome(false, toShownError(error));
  }
}

const ordersText = (count: number) => `${count} order${count === 1 ? '' : 's'}`;

interface CancelAllOrdersProps {
  /** The subaccount whose orders are canceled; none chosen: the action waits for one. */
  subaccount: Subaccount | undefined;
  /** Only this market's orders, when the table is filtered to one (""/undefined: every market). */
  marketId: string | undefined;
  /** After a Cancel all (whatever its outcome): the table and its filters read again. */
  onDone: () => void;
}

/**
 * "Cancel all": every resting order (open, partly filled) of the chosen subaccount, in the chosen
 * market when there is one, after a confirmation naming them; then how many were canceled and each
 * order that could not be (its id and the API's message). Test ids `orders-cancel-all`,
 * `orders-cancel-all-{confirm,keep,result,dismiss}`, `orders-cancel-all-failure-<order id>`.
 */
export function CancelAllOrders({ subaccount, marketId, onDone }: CancelAllOrdersProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CancelAllOutcome | null>(null);

  const cancelAll = async () => {
    if (!subaccount) return;
    setBusy(true);
    setOutcome(null);
    const result = await cancelEveryResting({ subaccount_id: subaccount.id, market_id: marketId || undefined });
    setBusy(false);
    setConfirming(false);
    setOutcome(result);
    onDone();
  };

  return (
    <div className="panel cancel-all" data-testid="orders-cancel-all-panel">
      {confirming && subaccount ? (
        <div className="row-actions cancel-all-confirm">
          <span>
            Cancel every resting order of <CancelScope subaccount={subaccount} marketId={marketId} />:
          </span>
          <button type="button" className="danger" data-testid="orders-cancel-all-confirm" disabled={busy} onClick={() => void cancelAll()}>
            {busy ? 'Canceling…' : 'Confirm cancel all'}
          </button>
          <button type="button" className="link-button" data-testid="orders-cancel-all-keep" disabled={busy} onClick={() => setConfirming(false)}>
            Keep them
          </button>
        </div>
      ) : (
        <div className="row-actions cancel-all-confirm">
          <button
            type="button"
            data-testid="orders-cancel-all"
            disabled={!subaccount}
            onClick={() => {
              setOutcome(null);
              setConfirming(true);
            }}
          >
            Cancel all…
          </button>
          <span className="muted small">
            {subaccount ? (
              <>
                Cancels every resting order of <CancelScope subaccount={subaccount} marketId={marketId} />
              </>
            ) : (
              'Choose a subaccount to cancel its resting orders.'
            )}
          </span>
        </div>
      )}
      {outcome && <CancelAllResult outcome={outcome} onDismiss={() => setOutcome(null)} />}
    </div>
  );
}

/** What a Cancel all covers: the subaccount by name and id, then the market by title and ticker (or every market). */
function CancelScope({ subaccount, marketId }: { subaccount: Subaccount; marketId: string | undefined }) {
  const market = useMarket(marketId);
  return (
    <span data-testid="orders-cancel-all-scope">
      <strong>{subaccount.name}</strong> ({subaccount.id}),{' '}
      {marketId ? (
        <>
          market <strong>{market?.title ?? marketId}</strong>
          {market && ` (${market.venue_market_id})`}
        </>
      ) : (
        'every market'
      )}
    </span>
  );
}

function CancelAllResult({ outcome, onDismiss }: { outcome: CancelAllOutcome; onDismiss: () => void }) {
  return (
    <div className="cancel-all-result" role="status" data-testid="orders-cancel-all-result">
      <p>
        Canceled <strong data-testid="orders-cancel-all-count">{ordersText(outcome.canceled)}</strong>.
        {outcome.moreLeft && ' More resting orders still match: press Cancel all again.'}{' '}
        <button type="button" className="link-button" data-testid="orders-cancel-all-dismiss" onClick={onDismiss}>
          Dismiss
        </button>
      </p>
      {outcome.error && (
        <p className="form-error" role="alert" data-testid="orders-cancel-all-error">
          {outcome.error.message}
        </p>
      )}
      {outcome.failed.length > 0 && (
        <>
          <p>Not canceled: {ordersText(outcome.failed.length)}.</p>
          <ul className="cancel-all-failures">
            {outcome.failed.map((failure) => (
              <li key={failure.order_id} data-testid={`orders-cancel-all-failure-${failure.order_id}`}>
                <Id value={failure.order_id} /> {failure.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
