import type { Db } from '../../db/prismaClient';
import { invalidRequest, notFound } from '../../domain/errors';
import { newId } from '../../domain/ids';

export async function createWorkspace(db: Db, name: string) {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw invalidRequest('name', 'name must be 1 to 100 characters.');
  return db.workspace.create({ data: { id: newId('workspace'), name: trimmed } });
}

export async function getWorkspace(db: Db, workspaceId: string) {
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) throw notFound('workspace', workspaceId);
  return workspace;
}
