import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { TextField } from '../components/Field';
import { PageLayout } from '../components/PageLayout';
import { InputError, useErrors } from '../errors';
import { formatTime } from '../format';
import { useSession } from '../session';

/** The signed-in user's own account: who they are, a password change, and signing out everywhere. */
export function AccountPage() {
  const { session, signOut } = useSession();
  const { report, clear } = useErrors();
  if (!session) return null;
  const signOutEverywhere = () => {
    clear();
    signOut({ everywhere: true }).catch(report);
  };
  return (
    <PageLayout title="Account">
      <div className="two-columns">
        <div className="panel">
          <h3>Signed in</h3>
          <p>
            <strong data-testid="account-email">{session.user.email}</strong> in {session.workspace.name}
          </p>
          <p className="muted small">
            Access: {session.user.access === 'read_only' ? 'read only' : 'full'}. This session ends {formatTime(session.expires_at)}.
          </p>
          <p className="muted small">Signing out everywhere ends every session of this account, on every device, this one included.</p>
          <div className="form-actions">
            <button type="button" className="danger" data-testid="signout-everywhere" onClick={signOutEverywhere}>
              Sign out everywhere
            </button>
          </div>
        </div>
        <PasswordForm />
      </div>
    </PageLayout>
  );
}

function PasswordForm() {
  const { report, clear } = useErrors();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    clear();
    setDone(null);
    if (next !== repeated) {
      report(new InputError('The new password and its repetition differ.', 'new_password'));
      return;
    }
    setBusy(true);
    try {
      const result = await api.put<{ other_sessions_ended: number }>('/v1/session/password', { current_password: current, new_password: next });
      const others = result.other_sessions_ended;
      setDone(`Password changed. ${others === 1 ? '1 other session was' : `${others} other sessions were`} signed out.`);
    } catch (error) {
      report(error);
    } finally {
      // Passwords stay in this form only until the request ends, whatever its answer.
      setCurrent('');
      setNext('');
      setRepeated('');
      setBusy(false);
    }
  };

  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Change the password">
      <h3>Change the password</h3>
      <TextField id="password-current" label="Current password" type="password" autoComplete="current-password" value={current} onValue={setCurrent} />
      <TextField id="password-new" label="New password (12 characters or more)" type="password" autoComplete="new-password" value={next} onValue={setNext} />
      <TextField id="password-repeat" label="New password, again" type="password" autoComplete="new-password" value={repeated} onValue={setRepeated} />
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="password-change" disabled={busy}>
          Change password
        </button>
        {done && (
          <span className="saved" role="status" data-testid="password-changed">
            {done}
          </span>
        )}
      </div>
      <p className="muted small">Changing it signs out every other session of this account.</p>
    </form>
  );
}
