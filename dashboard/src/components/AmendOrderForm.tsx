import { useRef, useState, type FormEvent } from 'react';
import { ApiRequestError, api, newIdempotencyKey, segment } from '../api';
import { InputError, toShownError, type ShownError } from '../errors';
import { formatQuantity, sameDecimal } from '../format';
import type { Order } from '../types';
import { TextField } from './Field';

/** What PATCH /v1/orders/{id} is sent: only the terms that change (quantity is the new total, filled included). */
type AmendedTerms = { price?: string; quantity?: string };

/** The typed terms that differ from the order's (as decimals: `0.30` is `0.3`); null when none does. */
function changedTerms(order: Order, price: string, quantity: string): AmendedTerms | null {
  const terms: AmendedTerms = {};
  if (!sameDecimal(price, order.price ?? '')) terms.price = price.trim();
  if (!sameDecimal(quantity, order.quantity)) terms.quantity = quantity.trim();
  return terms.price === undefined && terms.quantity === undefined ? null : terms;
}

/** A refusal as the API worded it; a request that never got an answer, in words (not the browser's). */
function shownRefusal(error: unknown): ShownError | null {
  if (error instanceof ApiRequestError || error instanceof InputError) return toShownError(error);
  return { message: 'The amend did not reach the server. Try again: the same terms are sent with the same Idempotency-Key.' };
}

interface AmendOrderFormProps {
  order: Order;
  /** The API's answer: the order as amended. */
  onAmended: (order: Order) => void;
  onClose: () => void;
}

/**
 * Amends a resting order (PATCH /v1/orders/{id}, docs/trading.md "Amending an order"): its price and
 * its total quantity, prefilled with the order's own; only what changed is sent, as typed (decimal
 * strings, never numbers). Each attempt has its own Idempotency-Key, except that the same terms sent
 * again after the request got no answer reuse the key of that attempt. A refusal shows the API's
 * message under the form. Test ids `order-amend-{form,price,quantity,submit,close,error}-<order id>`.
 */
export function AmendOrderForm({ order, onAmended, onClose }: AmendOrderFormProps) {
  const [price, setPrice] = useState(order.price ?? '');
  const [quantity, setQuantity] = useState(order.quantity);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<ShownError | null>(null);
  /** The attempt that got no answer (a network failure): its terms and its key. */
  const unanswered = useRef<{ body: string; key: string } | null>(null);
  const testId = (part: string) => `order-amend-${part}-${order.id}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const terms = changedTerms(order, price, quantity);
    if (!terms) {
      setRefusal(toShownError(new InputError('Change the price or the total quantity first.')));
      return;
    }
    const body = JSON.stringify(terms);
    const key = unanswered.current?.body === body ? unanswered.current.key : newIdempotencyKey();
    unanswered.current = { body, key };
    setBusy(true);
    setRefusal(null);
    try {
      const amended = await api.patch<Order>(`/v1/orders/${segment(order.id)}`, terms, key);
      unanswered.current = null;
      onAmended(amended);
    } catch (error) {
      if (error instanceof ApiRequestError) unanswered.current = null;
      setRefusal(shownRefusal(error));
    } finally {
      setBusy(false);
    }
  };

  const filled = formatQuantity(order.filled_quantity);
  return (
    <form className="amend-form" onSubmit={submit} noValidate aria-label={`Amend order ${order.id}`} data-testid={testId('form')}>
      <div className="form-row">
        {/* A dashboard session cannot trade: it may only make an order smaller at its price (a new price or a larger size needs an API key). */}
        <TextField id={testId('price')} label="Price" title="A new price can trade: it needs an API key" inputMode="decimal" autoComplete="off" value={price} onValue={setPrice} disabled />
        <TextField
          id={testId('quantity')}
          label={filled === '0' ? 'Total quantity' : `Total quantity (${filled} filled)`}
          title="The new total, what already filled included"
          inputMode="decimal"
          autoComplete="off"
          value={quantity}
          onValue={setQuantity}
          disabled={busy}
        />
        <div className="row-actions">
          <button type="submit" className="primary" data-testid={testId('submit')} disabled={busy}>
            {busy ? 'Amending…' : 'Amend'}
          </button>
          <button type="button" className="link-button" data-testid={testId('close')} onClick={onClose} disabled={busy}>
            Close
          </button>
        </div>
      </div>
      {refusal && (
        <p className="form-error amend-error" role="alert" data-testid={testId('error')}>
          {refusal.message}
          {refusal.param && (
            <>
              {' '}
              (<code>{refusal.param}</code>)
            </>
          )}
        </p>
      )}
    </form>
  );
}
