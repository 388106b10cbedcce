export const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'keys', label: 'API keys' },
  { id: 'subaccounts', label: 'Subaccounts & credentials' },
  { id: 'risk', label: 'Risk' },
  { id: 'orders', label: 'Orders' },
  { id: 'fills', label: 'Fills' },
  { id: 'positions', label: 'Positions' },
  { id: 'settlements', label: 'Settlements' },
  { id: 'account', label: 'Account' },
] as const;

export type TabId = (typeof TABS)[number]['id'];

export const isTabId = (value: string): value is TabId => TABS.some((tab) => tab.id === value);

/** The sections; `current` null on a page that is none of them (a market's). */
export function Nav({ current, onChange }: { current: TabId | null; onChange: (tab: TabId) => void }) {
  return (
    <nav className="tabs" aria-label="Sections">
      {TABS.map((tab) => (
        <button
          key={tab.id}
          type="button"
          data-testid={`nav-${tab.id}`}
          className={tab.id === current ? 'tab active' : 'tab'}
          aria-current={tab.id === current ? 'page' : undefined}
          onClick={() => onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </nav>
  );
}
