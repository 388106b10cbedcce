import { DomainError } from '../../domain/errors';
import { getWorkspace } from '../../services/accounts/workspaces';
import { builder } from '../builder';
import { requestScope } from '../context';

export const WorkspaceType = builder.prismaObject('Workspace', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    tradingHalted: t.exposeBoolean('tradingHalted'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.mutationField('setKillSwitch', (t) =>
  t.prismaField({
    type: 'Workspace',
    description: 'The workspace kill switch: while on, every new order of the workspace is rejected before any venue.',
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.workspace.update({ ...query, where: { id: requestScope(ctx).workspaceId }, data: { tradingHalted: args.enabled } }),
  }),
);

builder.queryField('workspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    description: 'The workspace of the caller.',
    resolve: (_query, _root, _args, ctx) => {
      if (ctx.principal.kind === 'gateway') throw new DomainError('forbidden', 'The gateway principal has no workspace.');
      return getWorkspace(ctx.db, ctx.principal.workspaceId);
    },
  }),
);
