import { useEffect, useState, type ReactNode } from 'react';
import { ErrorBanner } from './components/ErrorBanner';
import { Header } from './components/Header';
import { Nav, isTabId, type TabId } from './components/Nav';
import { ErrorProvider, useErrors } from './errors';
import { AccountPage } from './pages/AccountPage';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { CredentialsPage } from './pages/CredentialsPage';
import { FillsPage } from './pages/FillsPage';
import { OrdersPage } from './pages/OrdersPage';
import { OverviewPage } from './pages/OverviewPage';
import { PositionsPage } from './pages/PositionsPage';
import { SettlementsPage } from './pages/SettlementsPage';
import { RiskPage } from './pages/RiskPage';
import { SignInPage } from './pages/SignInPage';
import { SessionProvider, useSession } from './session';

export function App() {
  return (
    <SessionProvider>
      <ErrorProvider>
        <Gate />
      </ErrorProvider>
    </SessionProvider>
  );
}

/** GET /v1/session decides: the app, or the sign-in form. */
function Gate() {
  const { status } = useSession();
  if (status === 'loading') return <p className="boot">Loading…</p>;
  if (status === 'signed_out') return <SignInPage />;
  return <Shell />;
}

const tabFromHash = (): TabId => {
  const value = window.location.hash.replace(/^#\/?/, '');
  return isTabId(value) ? value : 'overview';
};

function Shell() {
  const { environment } = useSession();
  const { clear } = useErrors();
  const [tab, setTab] = useState<TabId>(tabFromHash);

  useEffect(() => {
    const onHash = () => setTab(tabFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // Errors belong to what the user was doing; leaving the shell (sign-out, expiry) clears them.
  useEffect(() => clear, [clear]);

  const open = (next: TabId) => {
    clear();
    setTab(next);
    if (window.location.hash !== `#/${next}`) window.history.replaceState(null, '', `#/${next}`);
  };

  const CurrentPage = PAGES[tab];
  return (
    <div className="shell">
      <Header />
      <Nav current={tab} onChange={open} />
      <main className="content">
        <ErrorBanner />
        {/* Keyed by environment: switching it remounts the page, which loads everything again. */}
        <CurrentPage key={`${tab}:${environment}`} />
      </main>
    </div>
  );
}

const PAGES: Record<TabId, () => ReactNode> = {
  overview: OverviewPage,
  keys: ApiKeysPage,
  subaccounts: CredentialsPage,
  risk: RiskPage,
  orders: OrdersPage,
  fills: FillsPage,
  positions: PositionsPage,
  settlements: SettlementsPage,
  account: AccountPage,
};
