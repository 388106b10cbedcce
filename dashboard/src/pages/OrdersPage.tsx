import { useCallback, useState } from 'react';
import { ORDER_STATUSES, RESTING_STATUSES } from '../../../core/domain/orderLifecycle';
import { AmendOrderForm } from '../components/AmendOrderForm';
import { CancelAllOrders } from '../components/CancelAllOrders';
import type { Column } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { Money, Price } from '../components/Figures';
import { Id } from '../components/Id';
import { MarketFilter } from '../components/MarketFilter';
import { MarketName } from '../components/MarketName';
import { PageLayout } from '../components/PageLayout';
import { PagedTable } from '../components/PagedTable';
import { SubaccountSelect } from '../components/SubaccountSelect';
import { formatQuantity, formatTime } from '../format';
import { useSession } from '../session';
import type { Order } from '../types';
import { useSubaccounts } from '../useSubaccounts';
import { useWorkingOrderMarkets } from '../useWorkingOrderMarkets';

/** The status filter's choices: `working`, then every order status, from the order lifecycle itself. */
const STATUSES = ['working', ...ORDER_STATUSES];

const columns: Column<Order>[] = [
  { header: 'Created', cell: (order) => formatTime(order.created_at) },
  { header: 'Order', cell: (order) => <Id value={order.id} note={order.client_order_id && `Client order id ${order.client_order_id}`} /> },
  { header: 'Subaccount', cell: (order) => <Id value={order.subaccount_id} /> },
  { header: 'Market', cell: (order) => <MarketName id={order.market_id} /> },
  { header: 'Venue', cell: (order) => order.venue },
  { header: 'Side', cell: (order) => `${order.action} ${order.side}` },
  { header: 'Type', cell: (order) => [order.type, order.time_in_force].filter(Boolean).join(' · ') },
  { header: 'Price', cell: (order) => <Price value={order.price} marketId={order.market_id} />, numeric: true },
  { header: 'Quantity', cell: (order) => formatQuantity(order.quantity), numeric: true },
  { header: 'Filled', cell: (order) => formatQuantity(order.filled_quantity), numeric: true },
  { header: 'Avg fill', cell: (order) => <Price value={order.average_fill_price} marketId={order.market_id} />, numeric: true },
  { header: 'Fees', cell: (order) => <Money value={order.fees_paid} />, numeric: true },
  {
    header: 'Status',
    cell: (order) => (
      <span className={`status status-${order.status}`} title={order.reject_reason ?? undefined}>
        {order.status}
      </span>
    ),
  },
];

/** An order that rests at its venue (open, partly filled): the one kind that can be amended or canceled. */
const isResting = (order: Order) => (RESTING_STATUSES as readonly string[]).includes(order.status);

/** A resting order's Amend button (pressed while its form is open under the row). */
function amendColumn(amendingId: string | null, setAmendingId: (id: string | null) => void): Column<Order> {
  return {
    header: '',
    className: 'actions',
    cell: (order) =>
      isResting(order) && (
        <button
          type="button"
          data-testid={`order-amend-${order.id}`}
          aria-pressed={amendingId === order.id}
          onClick={() => setAmendingId(amendingId === order.id ? null : order.id)}
        >
          Amend
        </button>
      ),
  };
}

/**
 * The orders, filtered by subaccount, market and status, live. A full-access user may amend each
 * resting order and cancel all the resting orders of the chosen subaccount (and market); a read-only
 * user sees neither action (the API would refuse them: 403). An amend's form opens under its order's
 * row. Test ids `orders-subaccount`, `orders-market`, `orders-status`, `orders-table`,
 * `order-row-<id>`, `order-amend-<id>`.
 */
export function OrdersPage() {
  const { readOnly } = useSession();
  const { subaccounts } = useSubaccounts();
  const [subaccountId, setSubaccountId] = useState('');
  const [marketId, setMarketId] = useState('');
  const [status, setStatus] = useState('');
  const [amendingId, setAmendingId] = useState<string | null>(null);
  // After the page's own changes: the table reads its page again, and the market filter its markets.
  const [changes, setChanges] = useState(0);
  const [liveReads, setLiveReads] = useState(0);
  const changed = useCallback(() => setChanges((value) => value + 1), []);
  const readLive = useCallback(() => setLiveReads((value) => value + 1), []);
  const marketIds = useWorkingOrderMarkets(subaccountId, changes + liveReads);

  return (
    <PageLayout
      title="Orders"
      filters={
        <>
          <SubaccountSelect id="orders-subaccount" subaccounts={subaccounts} value={subaccountId} onChange={setSubaccountId} emptyOption="All subaccounts" />
          <MarketFilter id="orders-market" marketIds={marketIds} value={marketId} onChange={setMarketId} />
          <SelectField id="orders-status" label="Status" options={STATUSES} value={status} onValue={setStatus} emptyOption="Any status" />
        </>
      }
    >
      {!readOnly && (
        // Keyed by what it covers: another subaccount or market asks for its confirmation afresh.
        <CancelAllOrders
          key={`${subaccountId}:${marketId}`}
          subaccount={subaccounts?.find((subaccount) => subaccount.id === subaccountId)}
          marketId={marketId}
          onDone={changed}
        />
      )}
      <PagedTable<Order>
        name="orders"
        path="/v1/orders"
        query={{ subaccount_id: subaccountId || undefined, market_id: marketId || undefined, status: status || undefined }}
        columns={readOnly ? columns : [...columns, amendColumn(amendingId, setAmendingId)]}
        rowDetail={(order) =>
          !readOnly && amendingId === order.id && isResting(order) ? (
            <AmendOrderForm
              order={order}
              onAmended={() => {
                setAmendingId(null);
                changed();
              }}
              onClose={() => setAmendingId(null)}
            />
          ) : null
        }
        liveTypes="order.*,market.*"
        onLiveRead={readLive}
        reloadSignal={changes}
        rowKey={(order) => order.id}
        rowTestId={(order) => `order-row-${order.id}`}
        emptyText="No orders."
      />
    </PageLayout>
  );
}
