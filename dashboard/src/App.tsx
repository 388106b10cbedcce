import { useEffect, useState, type ReactNode } from 'react';
import { ErrorBanner } from './components/ErrorBanner';
import { Header } from './components/Header';
import { Nav, isTabId, type TabId } from './components/Nav';
import { ErrorProvider, useErrors } from './errors';
import { AccountPage } from './pages/AccountPage';
import { MarketPage } from './pages/MarketPage';
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

/** What the hash shows: a section (`#/<tab>`), or one market (`#/market/<id>`, linked from the tables' market names). */
type Route = { kind: 'tab'; tab: TabId } | { kind: 'market'; marketId: string };

/** A path segment as written by `segment()`; as it is when it is not valid percent-encoding. */
const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const routeFromHash = (): Route => {
  const value = window.location.hash.replace(/^#\/?/, '');
  const market = /^market\/(.+)$/.exec(value);
  if (market) return { kind: 'market', marketId: decoded(market[1]!) };
  return { kind: 'tab', tab: isTabId(value) ? value : 'overview' };
};

function Shell() {
  const { environment } = useSession();
  const { clear } = useErrors();
  const [route, setRoute] = useState<Route>(routeFromHash);

  useEffect(() => {
    // A link followed (a market's name) or Back: what the user was doing changed, and its errors go.
    const onHash = () => {
      clear();
      setRoute(routeFromHash());
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [clear]);

  // Errors belong to what the user was doing; leaving the shell (sign-out, expiry) clears them.
  useEffect(() => clear, [clear]);

  const open = (next: TabId) => {
    clear();
    setRoute({ kind: 'tab', tab: next });
    if (window.location.hash !== `#/${next}`) window.history.replaceState(null, '', `#/${next}`);
  };

  return (
    <div className="shell">
      <Header />
      {/* A market's page is no section of its own (it is reached from the orders, fills, positions and
          settlements alike): no tab is current on it, and the browser's Back returns to the table. */}
      <Nav current={route.kind === 'tab' ? route.tab : null} onChange={open} />
      <main className="content">
        <ErrorBanner />
        {pageOf(route, environment)}
      </main>
    </div>
  );
}

/** The page a route shows, keyed by it and the environment: switching either remounts the page, which loads everything again. */
function pageOf(route: Route, environment: string): ReactNode {
  if (route.kind === 'market') return <MarketPage key={`market/${route.marketId}:${environment}`} marketId={route.marketId} />;
  const CurrentPage = PAGES[route.tab];
  return <CurrentPage key={`${route.tab}:${environment}`} />;
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
