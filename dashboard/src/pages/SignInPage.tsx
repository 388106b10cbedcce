import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '../api';
import { TextField } from '../components/Field';
import { useSession } from '../session';

export function SignInPage() {
  const { signIn, notice } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
    } catch (thrown) {
      setError(thrown instanceof ApiRequestError ? thrown.message : 'The server could not be reached. Try again.');
      setBusy(false);
    } finally {
      setPassword('');
    }
  };

  return (
    <div className="signin-screen">
      <form className="signin-card" onSubmit={submit} noValidate aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in</h1>
        <p className="muted">Trading dashboard</p>
        {notice && !error && <p className="notice" data-testid="signin-notice">{notice}</p>}
        {error && (
          <p className="form-error" role="alert" data-testid="signin-error">
            {error}
          </p>
        )}
        <TextField id="signin-email" label="Email" type="email" autoComplete="username" value={email} onValue={setEmail} />
        <TextField
          id="signin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
        <button type="submit" className="primary" data-testid="signin-submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
