import type { Environment } from '../../contract/environment';

/** What a request may see: one workspace, and in it only test or only live data. */
export interface Scope {
  workspaceId: string;
  environment: Environment;
}

/** Whether a row belongs to the scope; rows outside it answer not_found, as if they did not exist. */
export const inScope = (row: { workspaceId: string; environment: Environment }, scope: Scope) =>
  row.workspaceId === scope.workspaceId && row.environment === scope.environment;

/**
 * Whether the scope sees a market: one of its environment's, listed by a venue (every workspace
 * sees it) or made by its own workspace's test helper (POST /v1/test_helpers/markets). Any other
 * market answers not_found, as if it did not exist.
 */
export const marketVisibleTo = (market: { environment: Environment; workspaceId: string | null }, scope: Scope) =>
  market.environment === scope.environment && (market.workspaceId === null || market.workspaceId === scope.workspaceId);

/** The rows of the scope, optionally of one subaccount and one market: the start of every list's filter. */
export function scopedRows(scope: Scope, filter: { subaccountId?: string | null; marketId?: string | null } = {}) {
  return {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    ...(filter.subaccountId != null ? { subaccountId: filter.subaccountId } : {}),
    ...(filter.marketId != null ? { marketId: filter.marketId } : {}),
  };
}
