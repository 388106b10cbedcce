import { DomainError } from '../domain/errors';
import type { Db } from '../db/prismaClient';
import { marketVisibleTo, type Scope } from '../services/scope';

/** The ids a list may be filtered by, as GraphQL names its arguments. */
export interface FilterIds {
  subaccountId?: string | null;
  marketId?: string | null;
  orderId?: string | null;
}

/**
 * One behaviour for every list: a filter id that names nothing the request may see (an id of
 * another workspace or environment, or of nothing at all) is 404 not_found naming the filter, as
 * the same id in a path is, never an empty page that a typo would make look like "no orders".
 * History lists (`live: false`: orders, fills, receipts, complex orders) still take a deleted
 * subaccount, whose history is kept; the live views (`live: true`: positions, portfolio, risk)
 * refuse it as its path id is refused.
 */
export async function checkFilterIds(db: Db, scope: Scope, filter: FilterIds, options: { live: boolean }): Promise<void> {
  const { subaccountId, marketId, orderId } = filter;
  const [subaccount, market, order] = await Promise.all([
    subaccountId == null
      ? undefined
      : db.subaccount.findUnique({ where: { id: subaccountId }, select: { workspaceId: true, environment: true, status: true } }),
    marketId == null ? undefined : db.market.findUnique({ where: { id: marketId }, select: { environment: true, workspaceId: true } }),
    orderId == null ? undefined : db.order.findUnique({ where: { id: orderId }, select: { workspaceId: true, environment: true } }),
  ]);
  if (subaccountId != null && (!subaccount || !sameScope(subaccount, scope) || (options.live && subaccount.status !== 'active'))) {
    throw unknownFilter('subaccount', subaccountId, 'subaccountId');
  }
  if (marketId != null && (!market || !marketVisibleTo(market, scope))) throw unknownFilter('market', marketId, 'marketId');
  if (orderId != null && (!order || !sameScope(order, scope))) throw unknownFilter('order', orderId, 'orderId');
}

const sameScope = (row: { workspaceId: string; environment: string }, scope: Scope) =>
  row.workspaceId === scope.workspaceId && row.environment === scope.environment;

const unknownFilter = (what: string, id: string, param: string) => new DomainError('not_found', `No ${what} with id '${id}'.`, param);
