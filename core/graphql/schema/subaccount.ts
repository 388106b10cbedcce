import { createSubaccount, deleteSubaccount, getSubaccount, listSubaccounts } from '../../services/accounts/subaccounts';
import { parseLimit } from '../../domain/pagination';
import { builder } from '../builder';
import { requestScope } from '../context';
import { EnvironmentEnum, SubaccountStatusEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const SubaccountType = builder.prismaObject('Subaccount', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    status: t.expose('status', { type: SubaccountStatusEnum }),
    cashBalance: t.expose('cashBalance', { type: 'Decimal' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true }),
    credentials: t.relation('credentials', { query: { orderBy: { exchange: 'asc' } } }),
    riskLimits: t.relation('riskLimits', { nullable: true }),
    // For analysts composing a portfolio in one query: newest first, loaded with the subaccount.
    orders: t.relation('orders', {
      args: { limit: t.arg.int({ required: false, description: 'From 1 to 200; 50 when left out.' }) },
      query: (args) => ({ orderBy: { id: 'desc' }, take: parseLimit(args.limit) }),
    }),
    complexOrders: t.relation('complexOrders', {
      args: { limit: t.arg.int({ required: false, description: 'From 1 to 200; 50 when left out.' }) },
      query: (args) => ({ orderBy: { id: 'desc' }, take: parseLimit(args.limit) }),
    }),
    fills: t.relation('fills', {
      args: { limit: t.arg.int({ required: false, description: 'From 1 to 200; 50 when left out.' }) },
      query: (args) => ({ orderBy: { id: 'desc' }, take: parseLimit(args.limit) }),
    }),
  }),
});

const SubaccountPage = pageOf('Subaccount', SubaccountType);

builder.queryFields((t) => ({
  subaccount: t.prismaField({
    type: 'Subaccount',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getSubaccount(ctx.db, requestScope(ctx), String(args.id), query),
  }),
  subaccounts: t.field({
    type: SubaccountPage,
    args: pageArgs,
    resolve: (_root, args, ctx) => listSubaccounts(ctx.db, requestScope(ctx), args),
  }),
}));

const CreateSubaccountInput = builder.inputType('CreateSubaccountInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    startingBalance: t.field({ type: 'Decimal', required: false, description: 'Test subaccounts only: simulated cash.' }),
  }),
});

builder.mutationFields((t) => ({
  createSubaccount: t.prismaField({
    type: 'Subaccount',
    args: { input: t.arg({ type: CreateSubaccountInput, required: true }) },
    resolve: (query, _root, { input }, ctx) =>
      createSubaccount(ctx.db, requestScope(ctx), input, ctx.config.SIM_STARTING_BALANCE, query),
  }),
  deleteSubaccount: t.prismaField({
    type: 'Subaccount',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteSubaccount(ctx.db, requestScope(ctx), String(args.id), query),
  }),
}));
