import type { Access } from '../../../contract/principal';
import { DomainError } from '../../domain/errors';
import { createSession, findSessionByHash, revokeSessionByHash, revokeUserSessions, type SessionWithUser } from '../../services/accounts/sessions';
import { authenticateUser, changePassword } from '../../services/accounts/users';
import { builder } from '../builder';
import { GATEWAY_ONLY, requireGateway, type CoreContext } from '../context';

/**
 * Internal (gateway only): the dashboard's sign-in, sign-out and cookie check. The gateway holds
 * the cookie; the core keeps only the SHA-256 of its value (services/accounts/sessions.ts).
 */
interface SessionView {
  sessionId: string;
  userId: string;
  email: string;
  access: Access;
  workspaceId: string;
  csrfToken: string;
  expiresAt: Date;
}

const AccessEnum = builder.enumType('Access', { values: ['full', 'read_only'] as const });

const DashboardUser = builder.objectRef<Pick<SessionView, 'userId' | 'email' | 'access'>>('DashboardUser').implement({
  fields: (t) => ({
    id: t.exposeID('userId'),
    email: t.exposeString('email'),
    access: t.expose('access', { type: AccessEnum }),
  }),
});

const DashboardWorkspace = builder.objectRef<{ id: string; name: string }>('DashboardWorkspace').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

const DashboardSession = builder.objectRef<SessionView>('DashboardSession').implement({
  fields: (t) => ({
    sessionId: t.exposeID('sessionId'),
    userId: t.exposeID('userId'),
    access: t.expose('access', { type: AccessEnum }),
    workspaceId: t.exposeID('workspaceId'),
    user: t.field({ type: DashboardUser, resolve: (session) => session }),
    workspace: t.field({
      type: DashboardWorkspace,
      resolve: (session, _args, ctx) => ctx.db.workspace.findUniqueOrThrow({ where: { id: session.workspaceId }, select: { id: true, name: true } }),
    }),
    csrfToken: t.exposeString('csrfToken', { description: 'Sent back by the page in X-CSRF-Token with every change.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: '12 hours after sign-in, however busy the session.' }),
  }),
});

const SignedIn = builder.objectRef<{ token: string; session: SessionView }>('SignedIn').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The cookie value, given to the gateway once; only its SHA-256 is stored.' }),
    session: t.field({ type: DashboardSession, resolve: (signedIn) => signedIn.session }),
  }),
});

builder.queryField('authenticateSession', (t) =>
  t.field({
    type: DashboardSession,
    nullable: true,
    extensions: GATEWAY_ONLY,
    description: 'Internal (gateway only): the live session of the cookie value with this SHA-256 (hex), or null.',
    args: { tokenHash: t.arg.string({ required: true }) },
    resolve: async (_root, { tokenHash }, ctx) => {
      requireGateway(ctx);
      const session = await findSessionByHash(ctx.db, tokenHash);
      if (!session) return null;
      const { id, userId, csrfToken, expiresAt, user, workspaceId } = session;
      return { sessionId: id, userId, email: user.email, access: user.scope, workspaceId, csrfToken, expiresAt };
    },
  }),
);

builder.mutationField('signIn', (t) =>
  t.field({
    type: SignedIn,
    nullable: true,
    extensions: GATEWAY_ONLY,
    description: 'Internal (gateway only): a new session for this email and password, or null (unknown email, wrong password and disabled user alike).',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, { email, password }, ctx) => {
      requireGateway(ctx);
      const user = await authenticateUser(ctx.db, email, password);
      if (!user) return null;
      const { session, token, csrfToken } = await createSession(ctx.db, user.id);
      return {
        token,
        session: { sessionId: session.id, userId: user.id, email: user.email, access: user.scope, workspaceId: user.workspaceId, csrfToken, expiresAt: session.expiresAt },
      };
    },
  }),
);

builder.mutationField('signOut', (t) =>
  t.boolean({
    extensions: GATEWAY_ONLY,
    description: 'Internal (gateway only): ends the session of the cookie value with this SHA-256 (hex); true when it was live.',
    args: { tokenHash: t.arg.string({ required: true }) },
    resolve: (_root, { tokenHash }, ctx) => {
      requireGateway(ctx);
      return revokeSessionByHash(ctx.db, tokenHash);
    },
  }),
);

/** The live session of a cookie hash, for the signed-in user's own changes; else 401. */
async function liveSession(ctx: CoreContext, tokenHash: string): Promise<SessionWithUser> {
  requireGateway(ctx);
  const session = await findSessionByHash(ctx.db, tokenHash);
  if (!session) throw new DomainError('unauthorized', 'Sign in first: the session is missing, has ended or has expired.');
  return session;
}

builder.mutationField('changePassword', (t) =>
  t.int({
    extensions: GATEWAY_ONLY,
    description:
      "Internal (gateway only): changes the password of the cookie's user, who proves the current one; every other session of the user ends. Returns how many did.",
    args: {
      tokenHash: t.arg.string({ required: true }),
      currentPassword: t.arg.string({ required: true }),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: async (_root, { tokenHash, currentPassword, newPassword }, ctx) => {
      const session = await liveSession(ctx, tokenHash);
      return changePassword(ctx.db, { userId: session.userId, currentPassword, newPassword, keepSessionId: session.id });
    },
  }),
);

builder.mutationField('signOutEverywhere', (t) =>
  t.int({
    extensions: GATEWAY_ONLY,
    description: "Internal (gateway only): ends every session of the cookie's user, this one included. Returns how many were live.",
    args: { tokenHash: t.arg.string({ required: true }) },
    resolve: async (_root, { tokenHash }, ctx) => revokeUserSessions(ctx.db, (await liveSession(ctx, tokenHash)).userId),
  }),
);
