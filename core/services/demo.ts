import type { Db } from '../db/prismaClient';
import { createApiKey, createDashboardToken } from './apiKeys';
import { createWorkspace } from './workspaces';

/** On an empty database, a demo workspace with a test key and a dashboard token, shown once. */
export async function createDemoWorkspaceIfEmpty(db: Db) {
  if ((await db.workspace.count()) > 0) return undefined;
  const workspace = await createWorkspace(db, 'Demo workspace');
  const { key, secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'demo' });
  const dashboard = await createDashboardToken(db, workspace.id);
  return { workspace, key, secret, dashboardSecret: dashboard.secret };
}
