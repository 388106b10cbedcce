import type { Db } from '../../db/prismaClient';
import type { ChildOrder, ComplexOrder, ComplexOrderStatus } from '../../generated/prisma/client';
import { invalidRequest, notFound } from '../../domain/errors';
import { COMPLEX_ORDER_STATUSES } from '../../domain/orderLifecycle';
import { createdWithin, decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { requireStrategy } from '../../domain/planning';
import { inScope, scopedRows, type Scope } from '../scope';

/** A complex order of the scope; another workspace's (or environment's) is not found. */
export async function getComplexOrder(db: Db, scope: Scope, id: string, query: object = {}): Promise<ComplexOrder> {
  const order = await db.complexOrder.findUnique({ ...query, where: { id } });
  if (!order || !inScope(order, scope)) throw notFound('complex_order', id);
  return order;
}

export interface ComplexOrderFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  status?: string | null;
  strategy?: string | null;
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Newest first, with filters and an id cursor. */
export async function listComplexOrders(db: Db, scope: Scope, filter: ComplexOrderFilter) {
  const limit = parseLimit(filter.limit);
  const after = decodeCursor(filter.cursor, isIdCursor);
  if (filter.status != null && !(COMPLEX_ORDER_STATUSES as readonly string[]).includes(filter.status)) {
    throw invalidRequest('status', `status must be one of ${COMPLEX_ORDER_STATUSES.join(', ')}.`);
  }
  if (filter.strategy != null) requireStrategy(filter.strategy);
  const rows = await db.complexOrder.findMany({
    where: {
      ...scopedRows(scope, filter),
      ...(filter.status != null ? { status: filter.status as ComplexOrderStatus } : {}),
      ...(filter.strategy != null ? { strategy: filter.strategy } : {}),
      ...createdWithin(filter.since, filter.until),
      ...(after ? { id: { lt: after.id } } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** A complex order's children in plan order (slice time, then id). */
export async function listChildOrders(db: Db, scope: Scope, complexOrderId: string): Promise<ChildOrder[]> {
  await getComplexOrder(db, scope, complexOrderId);
  return db.childOrder.findMany({ where: { complexOrderId }, orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }] });
}
