import type { Column } from '../components/DataTable';
import { Money } from '../components/Figures';
import { Id } from '../components/Id';
import { ListPage } from '../components/ListPage';
import { MarketName } from '../components/MarketName';
import { formatQuantity, formatTime } from '../format';
import type { Settlement } from '../types';

/** What a settlement paid: the outcome, YES's value (NO pays 1 minus it), or "void" (the cost back). */
const outcomeOf = (settlement: Settlement) =>
  settlement.result === 'void' ? 'void: cost returned' : `${settlement.result} (${settlement.settlement_value} per YES)`;

const columns: Column<Settlement>[] = [
  { header: 'Subaccount', cell: (settlement) => <Id value={settlement.subaccount_id} /> },
  { header: 'Market', cell: (settlement) => <MarketName id={settlement.market_id} /> },
  { header: 'Result', cell: outcomeOf },
  { header: 'YES', cell: (settlement) => formatQuantity(settlement.yes_quantity), numeric: true },
  { header: 'NO', cell: (settlement) => formatQuantity(settlement.no_quantity), numeric: true },
  { header: 'Cost basis', cell: (settlement) => <Money value={settlement.cost_basis} />, numeric: true },
  { header: 'Payout', cell: (settlement) => <Money value={settlement.payout} />, numeric: true },
  { header: 'Realized P&L', cell: (settlement) => <Money value={settlement.realized_pnl} signed />, numeric: true },
  { header: 'Settled', cell: (settlement) => formatTime(settlement.settled_at) },
];

/** Markets that resolved: each subaccount's positions in them closed at the outcome and paid. */
export function SettlementsPage() {
  return (
    <ListPage<Settlement>
      title="Settlements"
      name="settlements"
      path="/v1/settlements"
      columns={columns}
      rowKey={(settlement) => settlement.id}
      rowTestId={(settlement) => `settlement-row-${settlement.id}`}
      emptyText="No settled positions yet."
    />
  );
}
