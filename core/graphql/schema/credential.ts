import { deleteCredential } from '../../services/credentials';
import { builder } from '../builder';
import { requestScope } from '../context';
import { ExchangeEnum } from './enums';

/** What is shown of stored venue credentials: never the secret, only a fingerprint and when. */
export const ExchangeCredentialType = builder.prismaObject('ExchangeCredential', {
  fields: (t) => ({
    exchange: t.expose('exchange', { type: ExchangeEnum }),
    fingerprint: t.exposeString('fingerprint'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CredentialDeletion = builder
  .objectRef<{ subaccountId: string; exchange: 'kalshi' | 'polymarket'; deleted: boolean }>('CredentialDeletion')
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
