import type { Environment } from '../domain/secrets';

/** What a request may see: one workspace, and in it only test or only live data. */
export interface Scope {
  workspaceId: string;
  environment: Environment;
}

/** Whether a row belongs to the scope; rows outside it answer not_found, as if they did not exist. */
export const inScope = (row: { workspaceId: string; environment: Environment }, scope: Scope) =>
  row.workspaceId === scope.workspaceId && row.environment === scope.environment;
