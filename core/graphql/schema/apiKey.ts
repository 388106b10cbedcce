
import { authenticateApiKey, authenticateDashboardToken, createApiKey, listApiKeys, revokeApiKey } from '../../services/accounts/apiKeys';
import { builder } from '../builder';
import { dashboardScope, GATEWAY_ONLY, requireGateway } from '../context';
import { EnvironmentEnum } from './enums';
import { pageArgs, pageOf } from './page';

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

const ApiKeyPage = pageOf('ApiKey', ApiKeyType);

builder.queryField('apiKeys', (t) =>
  t.field({
    type: ApiKeyPage,
    description: 'The workspace’s API keys, both environments, revoked ones included, newest first. Dashboard only.',
    args: pageArgs,
    resolve: (_root, args, ctx) => listApiKeys(ctx.db, dashboardScope(ctx).workspaceId, args),
  }),
);

/** A key just created, with its secret: the only time the secret is ever shown. */
const CreatedApiKey = builder.objectRef<{ key: { id: string }; secret: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    key: t.prismaField({ type: 'ApiKey', resolve: (_query, created) => created.key as never }),
    secret: t.exposeString('secret', { description: 'Shown once; only its SHA-256 is kept.' }),
  }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    environment: t.field({ type: EnvironmentEnum, required: true }),
    rateLimit: t.int({ required: false, description: 'Requests per second; the workspace default when left out.' }),
  }),
});

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: CreatedApiKey,
    description: 'Creates a key of the workspace. Dashboard only; never idempotent (the secret is not stored to be replayed). At most API_KEYS_PER_WORKSPACE (50) unrevoked keys per workspace, both environments together: conflict past it.',
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createApiKey(
        ctx.db,
        { workspaceId: dashboardScope(ctx).workspaceId, environment: input.environment, name: input.name, rateLimit: input.rateLimit },
        { maxActive: ctx.config.API_KEYS_PER_WORKSPACE },
      ),
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.prismaField({
    type: 'ApiKey',
    description: 'Revokes a key of the workspace; requests with it get 401 at once. Dashboard only.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_query, _root, args, ctx) => {
      const { key, announced } = await revokeApiKey(ctx.db, ctx.revocations, dashboardScope(ctx).workspaceId, String(args.id));
      if (!announced) ctx.logger.warn({ keyId: key.id }, 'key revoked; the revocation could not be broadcast to the gateways (Redis unavailable)');
      return key;
    },
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

const DashboardPrincipal = builder
  .objectRef<{ tokenId: string; workspaceId: string; scope: 'full' | 'read_only' }>('DashboardPrincipal')
  .implement({
    fields: (t) => ({
      tokenId: t.exposeID('tokenId'),
      workspaceId: t.exposeID('workspaceId'),
      access: t.exposeString('scope', { description: 'full, or read_only (reads only: every change is refused).' }),
    }),
  });

const SHA256_HEX = /^[0-9a-f]{64}$/;

builder.queryField('authenticateApiKey', (t) =>
  t.field({
    type: KeyPrincipal,
    nullable: true,
    extensions: GATEWAY_ONLY,
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
    extensions: GATEWAY_ONLY,
    description: 'Internal (gateway only): the live dashboard token with this secret hash, or null.',
    args: { secretHash: t.arg.string({ required: true }) },
    resolve: (_root, { secretHash }, ctx) => {
      requireGateway(ctx);
      return SHA256_HEX.test(secretHash) ? authenticateDashboardToken(ctx.db, secretHash) : null;
    },
  }),
);

