import type { Column } from '../components/DataTable';
import { Money, Price } from '../components/Figures';
import { Id } from '../components/Id';
import { ListPage } from '../components/ListPage';
import { MarketName } from '../components/MarketName';
import { formatQuantity, formatTime } from '../format';
import type { Fill } from '../types';

const columns: Column<Fill>[] = [
  { header: 'Time', cell: (fill) => formatTime(fill.created_at) },
  { header: 'Fill', cell: (fill) => <Id value={fill.id} note={fill.venue_fill_id && `Venue fill ${fill.venue_fill_id}`} /> },
  { header: 'Order', cell: (fill) => <Id value={fill.order_id} /> },
  { header: 'Subaccount', cell: (fill) => <Id value={fill.subaccount_id} /> },
  { header: 'Market', cell: (fill) => <MarketName id={fill.market_id} /> },
  { header: 'Venue', cell: (fill) => fill.venue },
  { header: 'Side', cell: (fill) => `${fill.action} ${fill.side}` },
  { header: 'Price', cell: (fill) => <Price value={fill.price} marketId={fill.market_id} />, numeric: true },
  { header: 'Quantity', cell: (fill) => formatQuantity(fill.quantity), numeric: true },
  { header: 'Fee', cell: (fill) => <Money value={fill.fee} />, numeric: true },
  { header: 'Realized P&L', cell: (fill) => <Money value={fill.realized_pnl} signed />, numeric: true },
  { header: 'Liquidity', cell: (fill) => (fill.is_taker === null ? '—' : fill.is_taker ? 'taker' : 'maker') },
  // A reversed fill's venue trade failed: it no longer counts in positions and P&L (docs/reconciliation.md).
  {
    header: 'Status',
    cell: (fill) =>
      fill.status === 'reversed' ? <span title={`${fill.reversal_reason ?? ''} ${formatTime(fill.reversed_at)}`.trim()}>reversed</span> : 'counted',
  },
];

export function FillsPage() {
  return (
    <ListPage<Fill>
      title="Fills"
      name="fills"
      path="/v1/fills"
      columns={columns}
      liveTypes="fill.*"
      rowKey={(fill) => fill.id}
      rowTestId={(fill) => `fill-row-${fill.id}`}
      emptyText="No fills."
    />
  );
}
