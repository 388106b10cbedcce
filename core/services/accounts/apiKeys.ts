import type { Db } from '../../db/prismaClient';
import { DomainError, invalidRequest, notFound } from '../../domain/errors';
import { decodeCursor, isIdCursor, parseLimit, toPage } from '../../domain/pagination';
import { newId } from '../../domain/ids';
import { displayParts, generateApiKeySecret, generateDashboardToken, sha256Hex } from '../../../contract/secrets';
import { type Environment } from '../../../contract/environment';
import type { RevocationBus } from '../../../contract/revocationBus';

const MAX_RATE_LIMIT = 100_000;
/** last_used_at is written at most this often per key, so that authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Creates a key. With `maxActive` (API_KEYS_PER_WORKSPACE, on the dashboard's and the CLI's way),
 * the workspace may hold at most that many unrevoked keys, both environments together: the count
 * and the insert are one transaction under the workspace's advisory lock, so two creations at once
 * cannot both take the last place. Past it: 409 conflict.
 */
export async function createApiKey(
  db: Db,
  input: { workspaceId: string; environment: Environment; name?: string | null; rateLimit?: number | null },
  limits: { maxActive?: number } = {},
) {
  const { rateLimit } = input;
  const name = input.name == null ? null : input.name.trim();
  if (name !== null && (name.length < 1 || name.length > 100)) throw invalidRequest('name', 'name must be 1 to 100 characters.');
  if (rateLimit != null && (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_RATE_LIMIT)) {
    throw invalidRequest('rateLimit', `rateLimit must be an integer from 1 to ${MAX_RATE_LIMIT} requests per second.`);
  }
  const secret = generateApiKeySecret(input.environment);
  const data = {
    id: newId('apiKey'),
    workspaceId: input.workspaceId,
    environment: input.environment,
    name,
    secretHash: sha256Hex(secret),
    ...displayParts(secret),
    rateLimit: rateLimit ?? null,
  };
  const { maxActive } = limits;
  if (maxActive === undefined) return { key: await db.apiKey.create({ data }), secret };
  const key = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`api_keys:${input.workspaceId}`}, 0))`;
    const active = await tx.apiKey.count({ where: { workspaceId: input.workspaceId, revokedAt: null } });
    if (active >= maxActive) {
      throw new DomainError('conflict', `The workspace holds ${active} active API keys, the most it may (API_KEYS_PER_WORKSPACE is ${maxActive}); revoke one it no longer uses first.`);
    }
    return tx.apiKey.create({ data });
  });
  return { key, secret };
}

/** The workspace's keys, both environments, revoked ones included, newest first (ids are ULIDs). */
export async function listApiKeys(db: Db, workspaceId: string, args: { limit?: number | null; cursor?: string | null }) {
  const limit = parseLimit(args.limit);
  const after = decodeCursor(args.cursor, isIdCursor);
  const rows = await db.apiKey.findMany({
    where: { workspaceId, ...(after ? { id: { lt: after.id } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** Revokes a key of the workspace (idempotent) and tells every gateway at once. */
/**
 * Revokes a key in the database, which is what every authentication reads, then tells every gateway
 * to forget it at once. `announced` is false when that broadcast failed (Redis down): the revocation
 * stands all the same; a gateway that cannot hear revocations keeps no authentication cache (fail
 * closed, gateway/authCache.ts), and one that could but missed this message stops accepting the key
 * within AUTH_CACHE_TTL_MS.
 */
export async function revokeApiKey(db: Db, bus: RevocationBus, workspaceId: string, keyId: string) {
  const key = await db.apiKey.findFirst({ where: { id: keyId, workspaceId } });
  if (!key) throw notFound('API key', keyId);
  const revoked = key.revokedAt
    ? key
    : await db.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
  const announced = await bus.publish(keyId).then(
    () => true,
    () => false,
  );
  return { key: revoked, announced };
}

/** The live key with this secret hash, with the rate limit that applies to it; null otherwise. */
export async function authenticateApiKey(db: Db, secretHash: string, defaultRateLimit: number) {
  const key = await db.apiKey.findUnique({
    where: { secretHash },
    include: { workspace: { select: { defaultRateLimit: true } } },
  });
  if (!key || key.revokedAt) return null;
  const now = Date.now();
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(now) } });
  }
  return {
    keyId: key.id,
    workspaceId: key.workspaceId,
    environment: key.environment,
    rateLimit: key.rateLimit ?? key.workspace.defaultRateLimit ?? defaultRateLimit,
  };
}

/** A workspace dashboard token; `read_only` ones only read (analysts' GraphQL). */
export async function createDashboardToken(db: Db, workspaceId: string, scope: 'full' | 'read_only' = 'full') {
  const secret = generateDashboardToken();
  const token = await db.dashboardToken.create({
    data: { id: newId('dashboardToken'), workspaceId, secretHash: sha256Hex(secret), scope },
  });
  return { token, secret };
}

export async function authenticateDashboardToken(db: Db, secretHash: string) {
  const token = await db.dashboardToken.findUnique({ where: { secretHash } });
  if (!token || token.revokedAt) return null;
  return { tokenId: token.id, workspaceId: token.workspaceId, scope: token.scope };
}
