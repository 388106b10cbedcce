import { useState } from 'react';
import { ExposureChart, type ExposureView } from '../charts/ExposureChart';
import { PnlChart } from '../charts/PnlChart';
import { Select } from '../components/Field';
import { Money } from '../components/Figures';
import { PageLayout } from '../components/PageLayout';
import { SubaccountFilter } from '../components/SubaccountSelect';
import type { Page, PnlDay, RiskStats } from '../types';
import { useApiData } from '../useApiData';

const RANGES = [
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
];

/** The first UTC day of a range of `days` days ending today (the API's default `to`). */
function fromDate(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - (days - 1));
  return date.toISOString().slice(0, 10);
}

export function OverviewPage() {
  const [subaccountId, setSubaccountId] = useState('');
  const [days, setDays] = useState(30);
  const [view, setView] = useState<ExposureView>('venue');

  const filter = { subaccount_id: subaccountId || undefined };
  // 30 days is the API's default range; longer ones send `from`.
  const pnl = useApiData<Page<PnlDay>>('/v1/risk/pnl_history', { ...filter, from: days === 30 ? undefined : fromDate(days) });
  const stats = useApiData<RiskStats>('/v1/risk/stats', filter);
  const history = pnl.data?.data;
  const last = history?.at(-1);

  return (
    <PageLayout title="Overview" filters={<SubaccountFilter name="overview" value={subaccountId} onChange={setSubaccountId} />}>
      {stats.data && <StatCards stats={stats.data} />}

      <div className="panel">
        <div className="panel-head">
          <h3>Realized P&amp;L</h3>
          <div className="panel-tools">
            {last && (
              <span className="muted">
                Total over the range:{' '}
                <strong data-testid="pnl-range-total">
                  <Money value={last.cumulative_realized_pnl} signed />
                </strong>
              </span>
            )}
            <label className="inline-field" htmlFor="pnl-range">
              <span className="visually-hidden">Range</span>
              <Select id="pnl-range" value={String(days)} options={RANGES} onValue={(value) => setDays(Number(value))} />
            </label>
          </div>
        </div>
        {history ? <PnlChart days={history} /> : <div className="chart-box chart-loading">Loading…</div>}
      </div>

      <div className="panel">
        <div className="panel-head">
          <h3>Exposure</h3>
          <div className="panel-tools">
            <div className="segmented" role="group" aria-label="Exposure by">
              {(['venue', 'market'] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  data-testid={`exposure-view-${value}`}
                  className={view === value ? 'active' : undefined}
                  aria-pressed={view === value}
                  onClick={() => setView(value)}
                >
                  By {value}
                </button>
              ))}
            </div>
          </div>
        </div>
        {stats.data ? <ExposureChart stats={stats.data} view={view} /> : <div className="chart-box chart-loading">Loading…</div>}
      </div>
    </PageLayout>
  );
}

type MoneyStat = 'gross_exposure' | 'net_exposure' | 'market_value' | 'open_order_notional' | 'realized_pnl' | 'unrealized_pnl' | 'worst_case_loss';

/** The workspace's (or a subaccount's) figures, money to the cent; test ids `stat-<name>`. */
function StatCards({ stats }: { stats: RiskStats }) {
  const cards: { name: MoneyStat; label: string; signed?: boolean }[] = [
    { name: 'gross_exposure', label: 'Gross exposure' },
    { name: 'net_exposure', label: 'Net exposure', signed: true },
    { name: 'market_value', label: 'Market value' },
    { name: 'open_order_notional', label: 'Open order notional' },
    { name: 'realized_pnl', label: 'Realized P&L', signed: true },
    { name: 'unrealized_pnl', label: 'Unrealized P&L', signed: true },
    { name: 'worst_case_loss', label: 'Worst-case loss' },
  ];
  return (
    <div className="cards">
      {cards.map((card) => (
        <div className="card" key={card.name} data-testid={`stat-${card.name}`}>
          <div className="card-label">{card.label}</div>
          <div className="card-value">
            <Money value={stats[card.name]} signed={card.signed} />
          </div>
        </div>
      ))}
      <div className="card">
        <div className="card-label">Trading</div>
        <div className={`card-value ${stats.trading_halted ? 'negative' : 'positive'}`}>{stats.trading_halted ? 'Halted' : 'Enabled'}</div>
      </div>
    </div>
  );
}
