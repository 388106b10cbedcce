import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiRequestError, api, isAbort, segment } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { Field, Select, SelectField, TextField } from '../components/Field';
import { Money } from '../components/Figures';
import { PageLayout } from '../components/PageLayout';
import { SubaccountSelect } from '../components/SubaccountSelect';
import { useErrors } from '../errors';
import { formatTime } from '../format';
import { useSession } from '../session';
import { EXCHANGES, type Credential, type Exchange, type KalshiEnvironment, type Page, type Subaccount, type SubaccountBalance } from '../types';
import { useChosenSubaccount, useSubaccounts } from '../useSubaccounts';

interface CredentialField {
  /** In the body. */
  name: string;
  label: string;
  /** Also the input's id. */
  testId: string;
  multiline?: boolean;
  secret: boolean;
  /** A choice among fixed values; empty is left out. */
  choices?: { value: string; label: string }[];
  /** Sent as a number (Polymarket's signature_type), not a string. */
  numeric?: boolean;
  /** The value the form starts with and returns to after each attempt; a choice with one has no empty option. */
  initial?: string;
}

/** The credential fields each exchange takes. */
const FIELDS: Record<Exchange, CredentialField[]> = {
  kalshi: [
    { name: 'key_id', label: 'Key ID', testId: 'cred-kalshi-key-id', secret: false },
    { name: 'private_key', label: 'Private key (PEM)', testId: 'cred-kalshi-private-key', multiline: true, secret: true },
    // A Kalshi key works only in the environment that issued it. Demo (play money) is the default:
    // choosing production is a deliberate act.
    {
      name: 'environment',
      label: 'Kalshi environment (where the key was issued)',
      testId: 'cred-kalshi-environment',
      secret: false,
      initial: 'demo',
      choices: [
        { value: 'demo', label: 'demo (play money)' },
        { value: 'production', label: 'production (real money)' },
      ],
    },
  ],
  polymarket: [
    // Polymarket CLOB V2: the wallet key signs orders; the signer address derived from it is the
    // credential's fingerprint (shown below), never the key.
    { name: 'private_key', label: 'Private key', testId: 'cred-pm-private-key', secret: true },
    {
      name: 'signature_type',
      label: 'Signature type (optional: EOA)',
      testId: 'cred-pm-signature-type',
      secret: false,
      numeric: true,
      choices: [
        { value: '0', label: '0: EOA (the key holds the funds)' },
        { value: '1', label: '1: POLY_PROXY (email or browser-wallet account)' },
        { value: '2', label: '2: POLY_GNOSIS_SAFE' },
        { value: '3', label: '3: POLY_1271 (smart-contract deposit wallet)' },
      ],
    },
    // A proxy, Safe or 1271 wallet holds the funds the key signs for.
    { name: 'funder_address', label: 'Funder address (proxy, Safe or 1271 wallet; not for EOA)', testId: 'cred-pm-funder-address', secret: false },
    // All three or none: left out, they are derived from the key when the account first trades.
    { name: 'api_key', label: 'API key (optional: derived from the key)', testId: 'cred-pm-api-key', secret: true },
    { name: 'api_secret', label: 'API secret (optional)', testId: 'cred-pm-api-secret', secret: true },
    { name: 'api_passphrase', label: 'API passphrase (optional)', testId: 'cred-pm-api-passphrase', secret: true },
  ],
};

interface AttachedCredential {
  subaccount_id: string;
  exchange: Exchange;
  fingerprint: string;
  environment: KalshiEnvironment | null;
  created_at: string;
}

export function CredentialsPage() {
  const { readOnly } = useSession();
  const { report, clear } = useErrors();
  const { subaccounts, reload } = useSubaccounts();

  return (
    <PageLayout title="Subaccounts & credentials">
      <div className="two-columns">
        <CreateSubaccountForm readOnly={readOnly} onCreated={reload} report={report} clear={clear} />
        <AttachCredentialForm subaccounts={subaccounts} readOnly={readOnly} onAttached={reload} report={report} clear={clear} />
      </div>
      <SubaccountsTable subaccounts={subaccounts} />
      <CredentialsTable subaccounts={subaccounts} readOnly={readOnly} onRemoved={reload} report={report} clear={clear} />
    </PageLayout>
  );
}

interface WriteProps {
  readOnly: boolean;
  report: (error: unknown) => void;
  clear: () => void;
}

function CreateSubaccountForm({ readOnly, onCreated, report, clear }: WriteProps & { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      await api.post<Subaccount>('/v1/subaccounts', { name: name.trim() });
      setName('');
      onCreated();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Create a subaccount">
      <h3>New subaccount</h3>
      <TextField id="subaccount-name" label="Name" maxLength={100} value={name} onValue={setName} disabled={readOnly} />
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="subaccount-create" disabled={readOnly || busy}>
          Create subaccount
        </button>
      </div>
    </form>
  );
}

/** A form's starting values: empty, but for the fields with an initial value (Kalshi's environment: demo). */
const emptyFields = (): Record<string, string> =>
  Object.fromEntries(Object.values(FIELDS).flatMap((fields) => fields.flatMap((field) => (field.initial === undefined ? [] : [[field.name, field.initial]]))));

function AttachCredentialForm({
  subaccounts,
  readOnly,
  onAttached,
  report,
  clear,
}: WriteProps & { subaccounts: Subaccount[] | undefined; onAttached: () => void }) {
  const [exchange, setExchange] = useState<Exchange>('kalshi');
  // Secrets stay in this state only until the request ends, whatever its answer.
  const [fields, setFields] = useState<Record<string, string>>(emptyFields);
  const [busy, setBusy] = useState(false);
  const [attached, setAttached] = useState<AttachedCredential | null>(null);

  const [subaccountId, setChosen] = useChosenSubaccount(subaccounts);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!subaccountId) {
      report(new Error('Create a subaccount first.'));
      return;
    }
    // Empty fields are left out, so that the API names the missing one.
    const body = Object.fromEntries(
      FIELDS[exchange].flatMap((field) => {
        const value = fields[field.name];
        if (!value) return [];
        return [[field.name, field.numeric ? Number(value) : value]];
      }),
    );
    setBusy(true);
    setAttached(null);
    clear();
    try {
      const result = await api.put<AttachedCredential>(
        `/v1/subaccounts/${segment(subaccountId)}/credentials/${segment(exchange)}`,
        body,
      );
      setAttached(result);
      onAttached();
    } catch (error) {
      report(error);
    } finally {
      setFields(emptyFields());
      setBusy(false);
    }
  };

  return (
    <form className="panel" onSubmit={submit} noValidate autoComplete="off" aria-label="Attach exchange credentials">
      <h3>Attach exchange credentials</h3>
      <div className="form-grid">
        <SubaccountSelect id="cred-subaccount" subaccounts={subaccounts} value={subaccountId} onChange={setChosen} disabled={readOnly} />
        <SelectField
          id="cred-exchange"
          label="Exchange"
          options={EXCHANGES}
          value={exchange}
          disabled={readOnly}
          onValue={(value) => {
            setExchange(value);
            setFields(emptyFields());
          }}
        />
      </div>
      {FIELDS[exchange].map((field) => (
        <Field id={field.testId} label={field.label} key={`${exchange}-${field.name}`}>
          <CredentialInput
            field={field}
            value={fields[field.name] ?? ''}
            disabled={readOnly}
            onValue={(value) => setFields((current) => ({ ...current, [field.name]: value }))}
          />
        </Field>
      ))}
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="cred-attach" disabled={readOnly || busy}>
          Attach
        </button>
        {attached && (
          <span className="saved" role="status">
            Attached {attached.exchange}
            {attached.environment ? ` (${attached.environment})` : ''} to {attached.subaccount_id}: <code>{attached.fingerprint}</code>
          </span>
        )}
      </div>
      <p className="muted small">Secrets are sent once and never shown again; attaching replaces what was there.</p>
    </form>
  );
}

/** A credential's control: never autofilled or spell-checked; secrets masked, a PEM key in a textarea. */
function CredentialInput({
  field,
  value,
  disabled,
  onValue,
}: {
  field: CredentialField;
  value: string;
  disabled: boolean;
  onValue: (value: string) => void;
}) {
  const control = {
    id: field.testId,
    'data-testid': field.testId,
    value,
    disabled,
    autoComplete: 'off',
    spellCheck: false,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onValue(event.target.value),
  };
  if (field.choices) {
    const emptyOption = field.initial === undefined ? 'Not set' : undefined;
    return <Select id={field.testId} value={value} options={field.choices} emptyOption={emptyOption} disabled={disabled} onValue={onValue} />;
  }
  return field.multiline ? (
    <textarea {...control} rows={5} className="mono" placeholder="-----BEGIN PRIVATE KEY-----" />
  ) : (
    <input {...control} type={field.secret ? 'password' : 'text'} />
  );
}

/** The portfolio's cash per subaccount, read for one list of subaccounts (or why it could not be read). */
interface CashRead {
  of: Subaccount[];
  cash?: Map<string, string>;
  failure?: string;
}

/**
 * Each subaccount's cash as GET /v1/portfolio has it: a test subaccount's simulated cash, a live
 * one's the venues' balances read now (a live subaccount's own `cash_balance` is not its cash), so
 * that this table and the portfolio never disagree. Read again with every new list of subaccounts.
 * A refusal (a live venue that cannot be asked) is shown in the column, not as the page's error.
 */
function usePortfolioCash(subaccounts: Subaccount[] | undefined): CashRead | undefined {
  const [read, setRead] = useState<CashRead | undefined>(undefined);

  useEffect(() => {
    if (subaccounts === undefined) return;
    const controller = new AbortController();
    api
      .get<Page<SubaccountBalance>>('/v1/portfolio', undefined, controller.signal)
      .then((portfolio) => setRead({ of: subaccounts, cash: new Map(portfolio.data.map((row) => [row.subaccount_id, row.cash_balance])) }))
      .catch((error: unknown) => {
        if (isAbort(error) || controller.signal.aborted) return;
        setRead({ of: subaccounts, failure: error instanceof ApiRequestError ? `${error.code}: ${error.message}` : 'The portfolio could not be read.' });
      });
    return () => controller.abort();
  }, [subaccounts]);

  return read;
}

function SubaccountsTable({ subaccounts }: { subaccounts: Subaccount[] | undefined }) {
  const read = usePortfolioCash(subaccounts);

  const cashCell = (subaccount: Subaccount) => {
    const value = read?.cash?.get(subaccount.id);
    if (value !== undefined) return <Money value={value} />; // the last read's, until the next one answers
    if (read?.of !== subaccounts) return <span className="muted">…</span>;
    if (read?.failure) {
      return (
        <span className="muted" title={read.failure}>
          unavailable
        </span>
      );
    }
    return '—'; // not in the portfolio (a subaccount no longer active)
  };

  const columns: Column<Subaccount>[] = [
    { header: 'Name', cell: (subaccount) => subaccount.name },
    { header: 'ID', cell: (subaccount) => <code>{subaccount.id}</code> },
    { header: 'Status', cell: (subaccount) => subaccount.status },
    { header: 'Cash', cell: cashCell, numeric: true },
    { header: 'Credentials', cell: (subaccount) => (subaccount.credentials ?? []).map((credential) => credential.exchange).join(', ') || '—' },
    { header: 'Created', cell: (subaccount) => formatTime(subaccount.created_at) },
  ];

  return (
    <div className="panel">
      <h3>Subaccounts</h3>
      <DataTable<Subaccount>
        testId="subaccounts-table"
        columns={columns}
        rows={subaccounts}
        rowKey={(subaccount) => subaccount.id}
        rowTestId={(subaccount) => `subaccount-row-${subaccount.id}`}
        emptyText="No subaccounts in this environment yet."
      />
    </div>
  );
}

/** Kalshi's environment; a Kalshi key attached before it was asked is unknown and must be attached again to trade. */
function environmentLabel(credential: Credential): string {
  if (credential.environment) return credential.environment;
  return credential.exchange === 'kalshi' ? 'unknown: attach again' : '—';
}

interface CredentialRow {
  subaccount: Subaccount;
  credential: Credential;
}

function CredentialsTable({
  subaccounts,
  readOnly,
  onRemoved,
  report,
  clear,
}: WriteProps & { subaccounts: Subaccount[] | undefined; onRemoved: () => void }) {
  const rows: CredentialRow[] = (subaccounts ?? []).flatMap((subaccount) =>
    (subaccount.credentials ?? []).map((credential) => ({ subaccount, credential })),
  );

  const remove = async (subaccountId: string, exchange: Exchange) => {
    clear();
    try {
      await api.delete(`/v1/subaccounts/${segment(subaccountId)}/credentials/${segment(exchange)}`);
      onRemoved();
    } catch (error) {
      report(error);
    }
  };

  const columns: Column<CredentialRow>[] = [
    {
      header: 'Subaccount',
      cell: ({ subaccount }) => (
        <>
          {subaccount.name} <code className="muted">{subaccount.id}</code>
        </>
      ),
    },
    { header: 'Exchange', cell: ({ credential }) => credential.exchange },
    { header: 'Fingerprint', cell: ({ credential }) => <code>{credential.fingerprint}</code> },
    { header: 'Environment', cell: ({ credential }) => environmentLabel(credential) },
    { header: 'Attached', cell: ({ credential }) => formatTime(credential.created_at) },
    {
      header: '',
      className: 'actions',
      cell: ({ subaccount, credential }) => (
        <button
          type="button"
          className="danger"
          data-testid={`cred-remove-${subaccount.id}-${credential.exchange}`}
          disabled={readOnly}
          onClick={() => void remove(subaccount.id, credential.exchange)}
        >
          Remove
        </button>
      ),
    },
  ];

  return (
    <div className="panel">
      <h3>Attached credentials</h3>
      <DataTable<CredentialRow>
        testId="credentials-table"
        columns={columns}
        rows={rows}
        rowKey={({ subaccount, credential }) => `${subaccount.id}-${credential.exchange}`}
        rowTestId={({ subaccount, credential }) => `cred-row-${subaccount.id}-${credential.exchange}`}
        emptyText="No credentials attached."
      />
    </div>
  );
}
