import { useState, type FormEvent } from 'react';
import { api, segment } from '../api';
import type { Column } from '../components/DataTable';
import { EnvironmentSelect } from '../components/EnvironmentSelect';
import { Field, TextField } from '../components/Field';
import { PageLayout } from '../components/PageLayout';
import { PagedTable } from '../components/PagedTable';
import { InputError, useErrors } from '../errors';
import { formatTime } from '../format';
import { useSession } from '../session';
import type { ApiKey, CreatedApiKey, Environment } from '../types';

/** The secret of the key just created: shown once, dropped for good on Done. */
interface ShownSecret {
  keyName: string;
  secret: string;
}

export function ApiKeysPage() {
  const { readOnly, environment: currentEnvironment } = useSession();
  const { report, clear } = useErrors();
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>(currentEnvironment);
  const [rateLimit, setRateLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [reloadSignal, setReloadSignal] = useState(0);
  const refresh = () => setReloadSignal((value) => value + 1);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const limit = rateLimit.trim();
    if (limit !== '' && !/^\d+$/.test(limit)) {
      report(new InputError('Rate limit must be a whole number of requests per second.', 'rate_limit'));
      return;
    }
    setBusy(true);
    clear();
    try {
      const created = await api.post<CreatedApiKey>('/v1/api_keys', {
        name: name.trim(),
        environment,
        ...(limit === '' ? {} : { rate_limit: Number(limit) }),
      });
      setShown({ keyName: created.key.name, secret: created.secret });
      setCopied(false);
      setName('');
      setRateLimit('');
      refresh();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
    } catch {
      report(new Error('The browser did not allow copying; select the secret and copy it by hand.'));
    }
  };

  const revoke = async (key: ApiKey) => {
    clear();
    try {
      await api.delete<ApiKey>(`/v1/api_keys/${segment(key.id)}`);
      setConfirming(null);
      refresh();
    } catch (error) {
      report(error);
    }
  };

  const columns: Column<ApiKey>[] = [
    { header: 'Name', cell: (key) => key.name },
    { header: 'Environment', cell: (key) => <span className={`badge env-badge-${key.environment}`}>{key.environment}</span> },
    { header: 'Key', cell: (key) => <code>{`${key.prefix}…${key.last4}`}</code> },
    { header: 'Rate limit', cell: (key) => (key.rate_limit === null ? '—' : `${key.rate_limit}/s`), numeric: true },
    { header: 'Created', cell: (key) => formatTime(key.created_at) },
    { header: 'Last used', cell: (key) => (key.last_used_at ? formatTime(key.last_used_at) : 'Never') },
    {
      header: 'Status',
      cell: (key) => (
        <span data-testid={`key-status-${key.id}`} className={key.revoked_at ? 'status status-revoked' : 'status status-active'}>
          {key.revoked_at ? 'revoked' : 'active'}
        </span>
      ),
    },
    {
      header: '',
      cell: (key) =>
        key.revoked_at ? null : confirming === key.id ? (
          <span className="row-actions">
            <button type="button" className="danger" data-testid={`key-revoke-confirm-${key.id}`} onClick={() => void revoke(key)}>
              Confirm revoke
            </button>
            <button type="button" className="link-button" onClick={() => setConfirming(null)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" data-testid={`key-revoke-${key.id}`} disabled={readOnly} onClick={() => setConfirming(key.id)}>
            Revoke
          </button>
        ),
    },
  ];

  return (
    <PageLayout title="API keys">
      {shown && (
        <div className="secret-box" role="status">
          <p>
            The secret of <strong>{shown.keyName}</strong>. It is shown only this once: store it now.
          </p>
          <div className="secret-line">
            <code className="secret" data-testid="key-secret">{shown.secret}</code>
            <button type="button" data-testid="key-copy" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button
              type="button"
              className="primary"
              data-testid="key-secret-done"
              onClick={() => {
                setShown(null);
                setCopied(false);
              }}
            >
              Done
            </button>
          </div>
        </div>
      )}

      <form className="panel form-row" onSubmit={create} noValidate aria-label="Create an API key">
        <TextField id="key-name" label="Name" maxLength={100} value={name} onValue={setName} disabled={readOnly} />
        <Field id="key-environment" label="Environment">
          <EnvironmentSelect id="key-environment" value={environment} onChange={setEnvironment} disabled={readOnly} />
        </Field>
        <TextField
          id="key-rate-limit"
          label="Rate limit (requests/s, optional)"
          inputMode="numeric"
          value={rateLimit}
          onValue={setRateLimit}
          disabled={readOnly}
        />
        <button type="submit" className="primary" data-testid="key-create" disabled={readOnly || busy}>
          Create key
        </button>
      </form>

      <PagedTable<ApiKey>
        name="keys"
        path="/v1/api_keys"
        columns={columns}
        rowKey={(key) => key.id}
        rowTestId={(key) => `key-row-${key.id}`}
        reloadSignal={reloadSignal}
        emptyText="No API keys yet."
      />
    </PageLayout>
  );
}
