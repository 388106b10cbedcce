import { attachCredential, deleteCredential, type CredentialMetadata } from '../../services/accounts/credentials';
import { invalidRequest } from '../../domain/errors';
import { builder } from '../builder';
import { dashboardScope, requestScope } from '../context';
import { ExchangeEnum, VenueEnvironmentEnum } from './enums';
import type { ExchangeName } from '../../venues/venueModules';

const environmentDescription =
  'Kalshi: the environment that issued the key, demo or production. Null for Polymarket, and for a Kalshi key attached before the environment was asked: such a key is not used to trade until attached again.';

/** What is shown of stored venue credentials: never the secret, only a fingerprint, the environment and when. */
export const ExchangeCredentialType = builder.prismaObject('ExchangeCredential', {
  fields: (t) => ({
    exchange: t.expose('exchange', { type: ExchangeEnum }),
    fingerprint: t.exposeString('fingerprint'),
    environment: t.expose('environment', { type: VenueEnvironmentEnum, nullable: true, description: environmentDescription }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CredentialDeletion = builder
  .objectRef<{ subaccountId: string; exchange: ExchangeName; deleted: boolean }>('CredentialDeletion')
  .implement({
    fields: (t) => ({
      subaccountId: t.exposeID('subaccountId'),
      exchange: t.expose('exchange', { type: ExchangeEnum }),
      deleted: t.exposeBoolean('deleted'),
    }),
  });

builder.mutationField('deleteExchangeCredential', (t) =>
  t.field({
    type: CredentialDeletion,
    args: {
      subaccountId: t.arg.id({ required: true }),
      exchange: t.arg({ type: ExchangeEnum, required: true }),
    },
    resolve: (_root, args, ctx) => deleteCredential(ctx.db, requestScope(ctx), String(args.subaccountId), args.exchange),
  }),
);

const AttachedCredential = builder.objectRef<CredentialMetadata>('AttachedCredential').implement({
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    exchange: t.expose('exchange', { type: ExchangeEnum }),
    fingerprint: t.exposeString('fingerprint'),
    environment: t.expose('environment', { type: VenueEnvironmentEnum, nullable: true, description: environmentDescription }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.mutationField('attachExchangeCredential', (t) =>
  t.field({
    type: AttachedCredential,
    description:
      'Stores a subaccount’s credentials for one exchange (replacing any before), sealed with AES-256-GCM; answers only the fingerprint. Dashboard only. See docs/credentials.md for the fields.',
    args: {
      subaccountId: t.arg.id({ required: true }),
      exchange: t.arg({ type: ExchangeEnum, required: true }),
      credentials: t.arg({ type: 'JSON', required: true }),
    },
    resolve: (_root, args, ctx) => {
      const scope = dashboardScope(ctx);
      const input = args.credentials;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw invalidRequest('credentials', 'The body must be a JSON object of the exchange’s credential fields.');
      }
      return attachCredential(ctx.db, ctx.credentialKeys, scope, String(args.subaccountId), args.exchange, input as Record<string, unknown>);
    },
  }),
);
