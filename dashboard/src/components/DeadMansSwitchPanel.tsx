import { useState } from 'react';
import { api, withQuery } from '../api';
import { useErrors } from '../errors';
import { formatTime } from '../format';
import { useSession } from '../session';
import type { DeadMansSwitch, DeadMansSwitches } from '../types';
import { useApiData } from '../useApiData';
import { useSubaccounts } from '../useSubaccounts';
import { DataTable, type Column } from './DataTable';

/**
 * The dead-man's switches of the workspace in the chosen environment (GET /v1/dead_mans_switch):
 * each switch's scope, state, timeout, expiry, last heartbeat and last firing. A switch is armed and
 * kept alive by the trading program's API key; the dashboard only reads them and disarms one (a
 * fired switch then lets orders in again).
 */
export function DeadMansSwitchPanel() {
  const { readOnly } = useSession();
  const { report, clear } = useErrors();
  const status = useApiData<DeadMansSwitches>('/v1/dead_mans_switch');
  const { subaccounts } = useSubaccounts();
  const nameOf = (id: string) => subaccounts?.find((subaccount) => subaccount.id === id)?.name;
  const [busy, setBusy] = useState(false);
  const fired = status.data?.switches.some((row) => row.state === 'fired') ?? false;

  const disarm = async (row: DeadMansSwitch) => {
    setBusy(true);
    clear();
    try {
      await api.delete(withQuery('/v1/dead_mans_switch', row.subaccount_id ? { subaccount_id: row.subaccount_id } : {}));
      status.reload();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: Column<DeadMansSwitch>[] = [
    { header: 'Covers', cell: (row) => (row.subaccount_id ? `${nameOf(row.subaccount_id) ?? ''} (${row.subaccount_id})`.trim() : 'Whole workspace') },
    {
      header: 'State',
      cell: (row) => (
        <span className={`status status-dms-${row.state}`} data-testid={`dms-state-${row.id}`}>
          {row.state === 'fired' && row.canceling_orders ? 'fired, canceling' : row.state}
        </span>
      ),
    },
    { header: 'Timeout', cell: (row) => `${row.timeout_seconds} s`, numeric: true },
    { header: 'Expires', cell: (row) => (row.state === 'armed' ? formatTime(row.expires_at) : '—') },
    { header: 'Last heartbeat', cell: (row) => formatTime(row.last_heartbeat_at) },
    { header: 'Last fired', cell: (row) => formatTime(row.fired_at) },
    { header: 'Orders canceled', cell: (row) => (row.fired_at ? String(row.orders_canceled) : '—'), numeric: true },
    {
      header: '',
      cell: (row) =>
        row.state === 'disarmed' ? null : (
          <button type="button" data-testid={`dms-disarm-${row.id}`} disabled={readOnly || busy} onClick={() => void disarm(row)}>
            Disarm
          </button>
        ),
    },
  ];

  return (
    <div className={`panel ${fired ? 'dead-mans-switch-fired' : ''}`} data-testid="dead-mans-switch">
      <div className="panel-head">
        <h3>Dead-man&apos;s switch</h3>
        <button type="button" onClick={status.reload} disabled={status.loading}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        Armed by a trading program with its API key (PUT /v1/dead_mans_switch) and kept alive by its requests and heartbeats; when it lapses,
        every open order it covers is canceled and new orders are refused until it is re-armed or disarmed.
      </p>
      <DataTable
        testId="dead-mans-switches"
        columns={columns}
        rows={status.data?.switches}
        rowKey={(row) => row.id}
        rowTestId={(row) => `dms-${row.id}`}
        emptyText="No dead-man's switch in this environment."
        busy={status.loading}
      />
    </div>
  );
}
