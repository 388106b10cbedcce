import { useState } from 'react';
import { ORDER_STATUSES } from '../../../core/domain/orderLifecycle';
import type { Column } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { Money, Price } from '../components/Figures';
import { Id } from '../components/Id';
import { ListPage } from '../components/ListPage';
import { MarketName } from '../components/MarketName';
import { formatQuantity, formatTime } from '../format';
import type { Order } from '../types';

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

export function OrdersPage() {
  const [status, setStatus] = useState('');

  return (
    <ListPage<Order>
      title="Orders"
      filters={<SelectField id="orders-status" label="Status" options={STATUSES} value={status} onValue={setStatus} emptyOption="Any status" />}
      name="orders"
      path="/v1/orders"
      query={{ status: status || undefined }}
      columns={columns}
      liveTypes="order.*,market.*"
      rowKey={(order) => order.id}
      rowTestId={(order) => `order-row-${order.id}`}
      emptyText="No orders."
    />
  );
}
