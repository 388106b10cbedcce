import type { Db } from '../../db/prismaClient';
import { invalidRequest } from '../../domain/errors';
import { createdWithin, decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { scopedRows, type Scope } from '../scope';

export interface RecordFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  orderId?: string | null;
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

function where(scope: Scope, filter: RecordFilter) {
  const after = decodeCursor(filter.cursor, isIdCursor);
  return {
    ...scopedRows(scope, { subaccountId: filter.subaccountId }),
    ...(filter.orderId != null ? { orderId: filter.orderId } : {}),
    ...createdWithin(filter.since, filter.until),
    ...(after ? { id: { lt: after.id } } : {}),
  };
}

/** Fills of the scope, newest first. */
export async function listFills(db: Db, scope: Scope, filter: RecordFilter) {
  const limit = parseLimit(filter.limit);
  const rows = await db.fill.findMany({
    where: { ...where(scope, filter), ...(filter.marketId != null ? { marketId: filter.marketId } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** Execution receipts of the scope, newest first. */
export async function listReceipts(db: Db, scope: Scope, filter: RecordFilter) {
  if (filter.marketId != null) throw invalidRequest('marketId', 'receipts are filtered by subaccountId or orderId.');
  const limit = parseLimit(filter.limit);
  const rows = await db.receipt.findMany({ where: where(scope, filter), orderBy: { id: 'desc' }, take: limit + 1 });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}
