import type { Db } from '../../db/prismaClient';
import { normalizeEmail, validEmail } from '../../../contract/emails';
import { DomainError, invalidRequest, notFound } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { checkPasswordPolicy, DUMMY_PASSWORD_HASH, hashPassword, needsRehash, normalizePassword, verifyPassword } from '../../domain/passwords';
import { Prisma, type AccessScope, type User } from '../../generated/prisma/client';

/**
 * Dashboard users: an email and a password, in one workspace. Emails are unique across workspaces
 * (sign-in asks only for the email) and stored trimmed and lower-cased. Nothing here returns the
 * password hash: every user these functions give back is a PublicUser.
 */
export type PublicUser = Omit<User, 'passwordHash'>;

const ACCESS_SCOPES: readonly AccessScope[] = ['full', 'read_only'];

function withoutHash(user: User): PublicUser {
  const { passwordHash: _omitted, ...rest } = user;
  return rest;
}

export async function createUser(
  db: Db,
  input: { workspaceId: string; email: string; password: string; scope?: AccessScope },
): Promise<PublicUser> {
  const email = typeof input.email === 'string' ? normalizeEmail(input.email) : '';
  if (!validEmail(email)) throw invalidRequest('email', 'email must be an email address (name@domain), at most 254 characters.');
  const reason = checkPasswordPolicy(input.password);
  if (reason) throw invalidRequest('password', reason);
  const scope = input.scope ?? 'full';
  if (!ACCESS_SCOPES.includes(scope)) throw invalidRequest('scope', `scope must be one of ${ACCESS_SCOPES.join(', ')}.`);
  const workspace = await db.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } });
  if (!workspace) throw notFound('workspace', input.workspaceId);

  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.user.create({
      data: { id: newId('user'), workspaceId: input.workspaceId, email, passwordHash, scope },
    });
    return withoutHash(user);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainError('conflict', `A user with email '${email}' already exists.`, 'email');
    }
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') {
      throw notFound('workspace', input.workspaceId); // deleted between the check and the insert
    }
    throw error;
  }
}

/**
 * The user with this email and password, or null: for an unknown email, a wrong password, or a
 * disabled user alike, and in the same time (one scrypt verification every time, against a dummy
 * hash when there is no such user). A hash made with older parameters is replaced on success.
 */
export async function authenticateUser(db: Db, email: string, password: string): Promise<PublicUser | null> {
  const normalized = typeof email === 'string' ? normalizeEmail(email) : '';
  const user = validEmail(normalized) ? await db.user.findUnique({ where: { email: normalized } }) : null;
  const matches = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !matches || user.disabledAt) return null;
  if (needsRehash(user.passwordHash)) {
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return withoutHash(user);
}

/**
 * Changes a signed-in user's password: the current one must match (else 403 naming
 * `currentPassword`), the new one must meet the policy and differ from it. Every other session of
 * the user ends (a cookie stolen before the change stops working); `keepSessionId`, the session
 * that asked, goes on. Returns how many other sessions were ended.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; currentPassword: string; newPassword: string; keepSessionId: string },
): Promise<number> {
  const user = await db.user.findUnique({ where: { id: input.userId } });
  if (!user || user.disabledAt) throw notFound('user', input.userId);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new DomainError('forbidden', 'The current password is incorrect.', 'currentPassword');
  }
  const reason = checkPasswordPolicy(input.newPassword, 'newPassword');
  if (reason) throw invalidRequest('newPassword', reason);
  // The current password has just been proved, so comparing the two (as hashing sees them) suffices.
  if (normalizePassword(input.newPassword) === normalizePassword(input.currentPassword)) {
    throw invalidRequest('newPassword', 'newPassword must differ from the current password.');
  }
  const passwordHash = await hashPassword(input.newPassword);
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const { count } = await tx.session.updateMany({
      where: { userId: user.id, id: { not: input.keepSessionId }, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { revokedAt: new Date() },
    });
    return count;
  });
}

/**
 * Disables a user (idempotent) and revokes their sessions; a disabled user can no longer sign in
 * and their existing cookies stop working. With `workspaceId`, only a user of that workspace.
 */
export async function disableUser(db: Db, userId: string, workspaceId?: string): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user || (workspaceId !== undefined && user.workspaceId !== workspaceId)) throw notFound('user', userId);
    const now = new Date();
    const disabled = user.disabledAt ? user : await tx.user.update({ where: { id: userId }, data: { disabledAt: now } });
    await tx.session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    return withoutHash(disabled);
  });
}
