import { useEffect, useState, type FormEvent } from 'react';
import { api, segment } from '../api';
import { DeadMansSwitchPanel } from '../components/DeadMansSwitchPanel';
import { Money, Share } from '../components/Figures';
import { PageLayout } from '../components/PageLayout';
import { SubaccountSelect } from '../components/SubaccountSelect';
import { InputError, useErrors } from '../errors';
import { formatQuantity, formatTime } from '../format';
import { useSession } from '../session';
import type { RiskLimits, RiskStats, Workspace } from '../types';
import { useApiData } from '../useApiData';
import { useChosenSubaccount, useSubaccounts } from '../useSubaccounts';

type LimitName =
  | 'max_order_notional'
  | 'max_position_per_market'
  | 'max_gross_exposure'
  | 'max_daily_realized_loss'
  | 'max_open_orders'
  | 'max_orders_per_minute';

/**
 * The six limits: decimals are sent as the strings typed, integers as numbers; empty is null (no
 * limit). `money`: its use is shown as money (to the cent), else as a count.
 */
const LIMITS: { name: LimitName; label: string; unit: string; integer: boolean; money: boolean }[] = [
  { name: 'max_order_notional', label: 'Max order notional', unit: '$ per order', integer: false, money: true },
  { name: 'max_position_per_market', label: 'Max position per market', unit: 'contracts per market and side', integer: false, money: false },
  { name: 'max_gross_exposure', label: 'Max gross exposure', unit: '$ across positions and open orders', integer: false, money: true },
  { name: 'max_daily_realized_loss', label: 'Max daily realized loss', unit: '$ per UTC day', integer: false, money: true },
  { name: 'max_open_orders', label: 'Max open orders', unit: 'orders', integer: true, money: false },
  { name: 'max_orders_per_minute', label: 'Max orders per minute', unit: 'orders per minute', integer: true, money: false },
];

type LimitInputs = Record<LimitName, string>;

const toInputs = (limits: RiskLimits): LimitInputs =>
  Object.fromEntries(LIMITS.map(({ name }) => [name, limits[name] === null ? '' : String(limits[name])])) as LimitInputs;

export function RiskPage() {
  const { subaccounts } = useSubaccounts();
  const [subaccountId, setChosen] = useChosenSubaccount(subaccounts);

  return (
    <PageLayout title="Risk">
      <KillSwitch />
      <DeadMansSwitchPanel />
      <div className="panel">
        <div className="panel-head">
          <h3>Subaccount limits</h3>
          <div className="panel-tools">
            <SubaccountSelect id="risk-subaccount" subaccounts={subaccounts} value={subaccountId} onChange={setChosen} />
          </div>
        </div>
        {subaccounts === undefined && <p className="muted">Loading…</p>}
        {subaccounts?.length === 0 && <p className="muted">No subaccounts in this environment yet.</p>}
        {subaccountId && <LimitsForm key={subaccountId} subaccountId={subaccountId} />}
      </div>
    </PageLayout>
  );
}

function LimitsForm({ subaccountId }: { subaccountId: string }) {
  const { readOnly } = useSession();
  const { report, clear } = useErrors();
  const limits = useApiData<RiskLimits>(`/v1/risk_limits/${segment(subaccountId)}`);
  const stats = useApiData<RiskStats>('/v1/risk/stats', { subaccount_id: subaccountId });
  const [inputs, setInputs] = useState<LimitInputs | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);

  useEffect(() => {
    if (limits.data) {
      setInputs(toInputs(limits.data));
      setUpdatedAt(limits.data.updated_at);
    }
  }, [limits.data]);

  const use = new Map(
    (stats.data?.limits.find((entry) => entry.subaccount_id === subaccountId)?.limits ?? []).map((entry) => [entry.limit, entry]),
  );

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!inputs) return;
    const body: Record<string, string | number | null> = {};
    for (const { name, label, integer } of LIMITS) {
      const text = inputs[name].trim();
      if (text === '') body[name] = null;
      else if (!integer) body[name] = text;
      else if (/^\d+$/.test(text)) body[name] = Number(text);
      else {
        report(new InputError(`${label} must be a whole number, or empty for no limit.`, name));
        return;
      }
    }
    setBusy(true);
    setSaved(false);
    clear();
    try {
      const result = await api.put<RiskLimits>(`/v1/risk_limits/${segment(subaccountId)}`, body);
      setInputs(toInputs(result));
      setUpdatedAt(result.updated_at);
      setSaved(true);
      stats.reload();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  if (!inputs) return <p className="muted">Loading…</p>;

  return (
    <form onSubmit={save} noValidate aria-label="Risk limits">
      <table className="limits-table">
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Value</th>
            <th scope="col" className="num">
              In use now
            </th>
            <th scope="col" className="num">
              Utilisation
            </th>
          </tr>
        </thead>
        <tbody>
          {LIMITS.map(({ name, label, unit, integer, money }) => (
            <tr key={name}>
              <td>
                <label htmlFor={`risk-${name}`}>{label}</label>
                <div className="muted small">{unit}</div>
              </td>
              <td>
                <input
                  id={`risk-${name}`}
                  data-testid={`risk-${name}`}
                  inputMode={integer ? 'numeric' : 'decimal'}
                  placeholder="No limit"
                  value={inputs[name]}
                  disabled={readOnly}
                  onChange={(event) => {
                    setSaved(false);
                    setInputs({ ...inputs, [name]: event.target.value });
                  }}
                />
              </td>
              <td className="num" data-testid={`risk-use-${name}`}>
                {money ? <Money value={use.get(name)?.current} /> : formatQuantity(use.get(name)?.current)}
              </td>
              <td className="num">
                <Share value={use.get(name)?.utilisation} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="risk-save" disabled={readOnly || busy}>
          Save limits
        </button>
        {saved && (
          <span className="saved" role="status" data-testid="risk-saved">
            Saved
          </span>
        )}
        {updatedAt && <span className="muted small">Last changed {formatTime(updatedAt)}</span>}
      </div>
    </form>
  );
}

/** The workspace kill switch: while on, every new order of the workspace (test and live) is rejected. */
function KillSwitch() {
  const { readOnly } = useSession();
  const { report, clear } = useErrors();
  const workspace = useApiData<Workspace>('/v1/workspace');
  const [halted, setHalted] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (workspace.data) setHalted(workspace.data.trading_halted);
  }, [workspace.data]);

  const toggle = async () => {
    if (halted === null) return;
    setBusy(true);
    clear();
    try {
      const result = await api.put<Workspace>('/v1/risk/kill_switch', { enabled: !halted });
      setHalted(result.trading_halted);
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`panel kill-switch ${halted ? 'kill-switch-on' : ''}`}>
      <div>
        <h3>Kill switch</h3>
        <p className="muted small">While on, every new order of the workspace, test and live, is rejected.</p>
      </div>
      <div className="kill-switch-control">
        <span className="kill-switch-label">
          Kill switch is{' '}
          <strong data-testid="kill-switch-state">{halted === null ? '…' : halted ? 'on' : 'off'}</strong>
        </span>
        <button
          type="button"
          data-testid="kill-switch"
          className={halted ? 'primary' : 'danger'}
          aria-pressed={halted ?? undefined}
          disabled={readOnly || busy || halted === null}
          onClick={() => void toggle()}
        >
          {halted ? 'Resume trading' : 'Halt all trading'}
        </button>
      </div>
    </div>
  );
}
