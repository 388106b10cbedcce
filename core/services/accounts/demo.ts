import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/prismaClient';
import { createApiKey, createDashboardToken } from './apiKeys';
import { createUser } from './users';
import { createWorkspace } from './workspaces';

export const DEMO_USER_EMAIL = 'demo@example.com';

/**
 * On an empty database, a demo workspace with a test key, a dashboard token and a dashboard user
 * with a random password, all shown once (only hashes are stored).
 */
export async function createDemoWorkspaceIfEmpty(db: Db) {
  if ((await db.workspace.count()) > 0) return undefined;
  const workspace = await createWorkspace(db, 'Demo workspace');
  const { key, secret } = await createApiKey(db, { workspaceId: workspace.id, environment: 'test', name: 'demo' });
  const dashboard = await createDashboardToken(db, workspace.id);
  const password = randomBytes(12).toString('base64url');
  const user = await createUser(db, { workspaceId: workspace.id, email: DEMO_USER_EMAIL, password });
  return { workspace, key, secret, dashboardSecret: dashboard.secret, user, password };
}
