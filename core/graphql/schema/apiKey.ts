
import { authenticateApiKey, authenticateDashboardToken, revokeApiKey } from '../../services/apiKeys';
import { builder } from '../builder';
import { dashboardWorkspace, requireGateway } from '../context';
import { EnvironmentEnum } from './enums';

/** An API key as the dashboard lists it: never its secret, only a prefix and the last 4. */
export const ApiKeyType = builder.prismaObject('ApiKey', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    prefix: t.exposeString('prefix'),
    last4: t.exposeString('last4'),
    rateLimit: t.exposeInt('rateLimit', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.mutationField('revokeApiKey', (t) =>
  t.prismaField({
    type: 'ApiKey',
    description: 'Revokes a key of the workspace; requests with it get 401 at once. Dashboard only.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => revokeApiKey(ctx.db, ctx.revocations, dashboardWorkspace(ctx), String(args.id)),
  }),
);

// Internal: the gateway authenticates callers by the SHA-256 of their secret.

const KeyPrincipal = builder
  .objectRef<{ keyId: string; workspaceId: string; environment: 'test' | 'live'; rateLimit: number }>('KeyPrincipal')
  .implement({
    fields: (t) => ({
      keyId: t.exposeID('keyId'),
      workspaceId: t.exposeID('workspaceId'),
      environment: t.expose('environment', { type: EnvironmentEnum }),
      rateLimit: t.exposeInt('rateLimit', { description: 'Requests per second.' }),
    }),
  });

const DashboardPrincipal = builder.objectRef<{ tokenId: string; workspaceId: string }>('DashboardPrincipal').implement({
  fields: (t) => ({ tokenId: t.exposeID('tokenId'), workspaceId: t.exposeID('workspaceId') }),
});

const SHA256_HEX = /^[0-9a-f]{64}$/;

builder.queryField('authenticateApiKey', (t) =>
  t.field({
    type: KeyPrincipal,
    nullable: true,
    description: 'Internal (gateway only): the live key with this secret hash, or null.',
    args: { secretHash: t.arg.string({ required: true }) },
    resolve: (_root, { secretHash }, ctx) => {
      requireGateway(ctx);
      if (!SHA256_HEX.test(secretHash)) return null;
      return authenticateApiKey(ctx.db, secretHash, ctx.config.RATE_LIMIT_DEFAULT);
    },
  }),
);

builder.queryField('authenticateDashboardToken', (t) =>
  t.field({
    type: DashboardPrincipal,
    nullable: true,
    description: 'Internal (gateway only): the full-access dashboard token with this secret hash, or null (read-only tokens only read, on the analyst endpoint).',
    args: { secretHash: t.arg.string({ required: true }) },
    resolve: async (_root, { secretHash }, ctx) => {
      requireGateway(ctx);
      const token = SHA256_HEX.test(secretHash) ? await authenticateDashboardToken(ctx.db, secretHash) : null;
      return token?.scope === 'full' ? token : null;
    },
  }),
);

