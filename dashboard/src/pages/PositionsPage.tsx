import type { Column } from '../components/DataTable';
import { Id } from '../components/Id';
import { ListPage } from '../components/ListPage';
import { Signed } from '../components/Signed';
import { formatDecimal, formatTime } from '../format';
import type { Position } from '../types';

const columns: Column<Position>[] = [
  { header: 'Subaccount', cell: (position) => <Id value={position.subaccount_id} /> },
  { header: 'Market', cell: (position) => <Id value={position.market_id} /> },
  { header: 'Side', cell: (position) => position.side },
  { header: 'Quantity', cell: (position) => formatDecimal(position.quantity), numeric: true },
  { header: 'Avg cost', cell: (position) => formatDecimal(position.average_cost), numeric: true },
  { header: 'Mark', cell: (position) => formatDecimal(position.mark_price), numeric: true },
  { header: 'Realized P&L', cell: (position) => <Signed value={position.realized_pnl} />, numeric: true },
  { header: 'Unrealized P&L', cell: (position) => <Signed value={position.unrealized_pnl} />, numeric: true },
  { header: 'Updated', cell: (position) => formatTime(position.updated_at) },
];

export function PositionsPage() {
  return (
    <ListPage<Position>
      title="Positions"
      name="positions"
      path="/v1/positions"
      columns={columns}
      rowKey={(position) => `${position.subaccount_id}:${position.market_id}:${position.side}`}
      rowTestId={(_position, index) => `position-row-${index}`}
      emptyText="No open positions."
    />
  );
}
