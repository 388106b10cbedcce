import type { ReactNode } from 'react';

/** A page of the dashboard: its title, with its filters (if any) beside it, then its content. */
export function PageLayout({ title, filters, testId, children }: { title: string; filters?: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <section className="page" data-testid={testId}>
      <div className="page-head">
        <h2>{title}</h2>
        {filters && <div className="filters">{filters}</div>}
      </div>
      {children}
    </section>
  );
}
