import { useErrors } from '../errors';
import { useSession } from '../session';
import { EnvironmentSelect } from './EnvironmentSelect';

/** Workspace, environment, who is signed in, sign-out. */
export function Header() {
  const { session, environment, readOnly, changeEnvironment, signOut } = useSession();
  const { clear } = useErrors();
  if (!session) return null;
  return (
    <header className={`topbar env-${environment}`}>
      <div className="topbar-brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="workspace-name" data-testid="workspace-name">
          {session.workspace.name}
        </span>
        {environment === 'live' && <span className="badge badge-live">Live</span>}
        {readOnly && <span className="badge">Read-only</span>}
      </div>
      <div className="topbar-tools">
        <label className="env-field" htmlFor="env-select">
          <span>Environment</span>
          <EnvironmentSelect
            id="env-select"
            value={environment}
            onChange={(value) => {
              clear();
              changeEnvironment(value);
            }}
          />
        </label>
        <span className="user-email" data-testid="user-email">
          {session.user.email}
        </span>
        <button type="button" data-testid="signout" onClick={() => void signOut().catch(() => undefined)}>
          Sign out
        </button>
      </div>
    </header>
  );
}
