import { Fragment, type ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** A class for the column's cells (not its header). */
  className?: string;
}

interface DataTableProps<T> {
  testId: string;
  columns: Column<T>[];
  /** Undefined while the first load is under way. */
  rows: T[] | undefined;
  rowKey: (row: T, index: number) => string;
  rowTestId: (row: T, index: number) => string;
  emptyText: string;
  busy?: boolean;
  /** What to show under a row, across the table (a form about it); null for nothing. Test id `<row's>-detail`. */
  rowDetail?: (row: T) => ReactNode;
}

/** A table of rows, one cell per column, with a row of its own when there are none (yet). */
export function DataTable<T>({ testId, columns, rows, rowKey, rowTestId, emptyText, busy, rowDetail }: DataTableProps<T>) {
  const numClass = (column: Column<T>) => (column.numeric ? 'num' : undefined);
  return (
    <div className="table-scroll">
      <table data-testid={testId} aria-busy={busy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={numClass(column)} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row, index) => {
            const detail = rowDetail?.(row);
            return (
              <Fragment key={rowKey(row, index)}>
                <tr data-testid={rowTestId(row, index)}>
                  {columns.map((column) => (
                    <td key={column.header} className={[numClass(column), column.className].filter(Boolean).join(' ') || undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
                {detail != null && (
                  <tr className="row-detail" data-testid={`${rowTestId(row, index)}-detail`}>
                    <td colSpan={columns.length}>{detail}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
          {!rows?.length && (
            <tr className="empty-row">
              <td colSpan={columns.length}>{rows ? emptyText : 'Loading…'}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
