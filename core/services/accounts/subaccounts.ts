import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest, notFound } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { Decimal, parseStorableDecimal } from '../../domain/decimals';
import { isIdCursor, decodeCursor, parseLimit, toPage } from '../../domain/pagination';
import { WORKING_STATUSES } from '../../domain/orderLifecycle';
import { DEFAULT_RISK_LIMITS } from '../../domain/riskLimits';
import { inScope, type Scope } from '../scope';

/**
 * A test subaccount's starting cash is below one trillion dollars: its cash column holds up to 10^18,
 * so no run of profits can push it past what PostgreSQL stores.
 */
export const MAX_STARTING_BALANCE = '1000000000000';

export async function createSubaccount(
  db: Db,
  scope: Scope,
  input: { name: string; startingBalance?: string | null },
  defaultStartingBalance: string,
  query: object = {},
) {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw invalidRequest('name', 'name must be 1 to 100 characters.');
  let cashBalance = new Decimal(0);
  if (scope.environment === 'test') {
    cashBalance = input.startingBalance != null
      ? parseStorableDecimal('startingBalance', input.startingBalance, { min: '0', below: MAX_STARTING_BALANCE })
      : new Decimal(defaultStartingBalance);
  } else if (input.startingBalance != null) {
    throw invalidRequest('startingBalance', 'startingBalance is for test subaccounts; live balances come from the venues.');
  }
  const id = newId('subaccount');
  return db.subaccount.create({
    ...query,
    data: {
      id,
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      name,
      cashBalance: cashBalance.toFixed(),
      riskLimits: { create: { ...DEFAULT_RISK_LIMITS } },
    },
  });
}

/** An active subaccount of the scope; another workspace's, or a deleted one, is not found. */
export async function getSubaccount(db: Db, scope: Scope, id: string, query: object = {}) {
  const subaccount = await db.subaccount.findUnique({ ...query, where: { id } });
  if (!subaccount || !inScope(subaccount, scope) || subaccount.status !== 'active') throw notFound('subaccount', id);
  return subaccount;
}

export async function listSubaccounts(db: Db, scope: Scope, args: { limit?: number | null; cursor?: string | null }) {
  const limit = parseLimit(args.limit);
  const after = decodeCursor(args.cursor, isIdCursor);
  const rows = await db.subaccount.findMany({
    where: {
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      status: 'active',
      ...(after ? { id: { lt: after.id } } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/**
 * Deletes a subaccount that has no working orders: its venue credentials are destroyed, its
 * history (orders, fills, receipts) is kept for the record, and it disappears from the API.
 */
export async function deleteSubaccount(db: Db, scope: Scope, id: string, query: object = {}) {
  return db.$transaction(async (tx) => {
    const subaccount = await getSubaccount(tx as Db, scope, id);
    const working = await tx.order.count({ where: { subaccountId: id, status: { in: [...WORKING_STATUSES] } } });
    if (working > 0) {
      throw new DomainError('conflict', `Subaccount '${id}' has ${working} working order(s); cancel them first.`);
    }
    await tx.exchangeCredential.deleteMany({ where: { subaccountId: id } });
    return tx.subaccount.update({
      ...query,
      where: { id: subaccount.id },
      data: { status: 'deleted', deletedAt: new Date() },
    });
  });
}
