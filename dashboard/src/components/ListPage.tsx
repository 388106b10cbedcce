import { useState, type ReactNode } from 'react';
import type { Query } from '../api';
import { PagedTable, type PagedTableProps } from './PagedTable';
import { PageLayout } from './PageLayout';
import { SubaccountFilter } from './SubaccountSelect';

type ListPageProps<T> = PagedTableProps<T> & {
  title: string;
  /** Filters after the subaccount's, whose values the caller adds to `query`. */
  filters?: ReactNode;
};

/**
 * A page that lists one resource in a paged table, filtered by subaccount (all by default). Test
 * ids from `name`: `<name>-subaccount`, `<name>-table`, `<name>-prev`, `<name>-next`.
 */
export function ListPage<T>({ title, filters, query, ...table }: ListPageProps<T>) {
  const [subaccountId, setSubaccountId] = useState('');
  const fullQuery: Query = { subaccount_id: subaccountId || undefined, ...query };
  return (
    <PageLayout
      title={title}
      filters={
        <>
          <SubaccountFilter name={table.name} value={subaccountId} onChange={setSubaccountId} />
          {filters}
        </>
      }
    >
      <PagedTable<T> {...table} query={fullQuery} />
    </PageLayout>
  );
}
