import type { ReactNode } from 'react';

/** A page of the dashboard: its title, with its filters (if any) beside it, then its content. */
export function PageLayout({ title, filters, children }: { title: string; filters?: ReactNode; children: ReactNode }) {
  return (
    <section className="page">
      <div className="page-head">
        <h2>{title}</h2>
        {filters && <div className="filters">{filters}</div>}
      </div>
      {children}
    </section>
  );
}
