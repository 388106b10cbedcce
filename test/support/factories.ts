import type { Db } from '../../core/db/prismaClient';
import type { Environment } from '../../contract/environment';
import { createApiKey, createDashboardToken } from '../../core/services/accounts/apiKeys';
import { createWorkspace } from '../../core/services/accounts/workspaces';

/** A workspace with one API key (and a dashboard token), created through the real services. */
export async function buildWorkspace(db: Db, options: { environment?: Environment; rateLimit?: number; name?: string } = {}) {
  const workspace = await createWorkspace(db, options.name ?? 'Test workspace');
  const { key, secret } = await createApiKey(db, {
    workspaceId: workspace.id,
    environment: options.environment ?? 'test',
    rateLimit: options.rateLimit,
  });
  const dashboard = await createDashboardToken(db, workspace.id);
  return { workspace, key, secret, dashboardSecret: dashboard.secret };
}

export async function buildApiKey(db: Db, workspaceId: string, environment: Environment, rateLimit?: number) {
  return createApiKey(db, { workspaceId, environment, rateLimit });
}
