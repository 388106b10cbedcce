import type { Environment } from '../domain/secrets';

/** What a request may see: one workspace, and in it only test or only live data. */
export interface Scope {
  workspaceId: string;
  environment: Environment;
}
