import { formatQuantity, formatTime } from '../format';
import type { MarketTrade } from '../types';
import { DataTable, type Column } from './DataTable';
import { Price } from './Figures';

const columnsFor = (marketId: string): Column<MarketTrade>[] => [
  { header: 'Time', cell: (trade) => formatTime(trade.executed_at, { seconds: true }) },
  { header: 'Price (YES)', cell: (trade) => <Price value={trade.price} marketId={marketId} />, numeric: true },
  { header: 'Quantity', cell: (trade) => formatQuantity(trade.quantity), numeric: true },
  // The outcome the taker bought: a taker selling YES bought NO.
  { header: 'Taker bought', cell: (trade) => <span className={`taker taker-${trade.taker_side}`}>{trade.taker_side.toUpperCase()}</span> },
];

/** A market's public trades, newest first (test ids `trades-table`, `trade-row-<id>`). */
export function RecentTradesTable({ trades, marketId }: { trades: MarketTrade[] | undefined; marketId: string }) {
  return (
    <DataTable<MarketTrade>
      testId="trades-table"
      columns={columnsFor(marketId)}
      rows={trades}
      rowKey={(trade) => trade.id}
      rowTestId={(trade) => `trade-row-${trade.id}`}
      emptyText="No trades yet."
    />
  );
}
