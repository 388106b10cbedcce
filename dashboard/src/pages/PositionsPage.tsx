import type { Column } from '../components/DataTable';
import { Money, Price } from '../components/Figures';
import { Id } from '../components/Id';
import { ListPage } from '../components/ListPage';
import { MarketName } from '../components/MarketName';
import { formatQuantity, formatTime } from '../format';
import type { Position } from '../types';

const columns: Column<Position>[] = [
  { header: 'Subaccount', cell: (position) => <Id value={position.subaccount_id} /> },
  { header: 'Market', cell: (position) => <MarketName id={position.market_id} /> },
  { header: 'Side', cell: (position) => position.side },
  { header: 'Quantity', cell: (position) => formatQuantity(position.quantity), numeric: true },
  { header: 'Avg cost', cell: (position) => <Price value={position.average_cost} marketId={position.market_id} />, numeric: true },
  { header: 'Mark', cell: (position) => <Price value={position.mark_price} marketId={position.market_id} />, numeric: true },
  { header: 'Realized P&L', cell: (position) => <Money value={position.realized_pnl} signed />, numeric: true },
  { header: 'Unrealized P&L', cell: (position) => <Money value={position.unrealized_pnl} signed />, numeric: true },
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
