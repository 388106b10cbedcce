import { notImplemented } from '../../domain/errors';
import { builder } from '../builder';
import { previewComplexOrder } from '../../services/complexOrderPreview';
import { apiKeyScope } from '../context';
import { ComplexOrderStatusEnum, OrderActionEnum, OrderSideEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const ComplexOrderType = builder.prismaObject('ComplexOrder', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    side: t.expose('side', { type: OrderSideEnum }),
    action: t.expose('action', { type: OrderActionEnum }),
    strategy: t.exposeString('strategy'),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    limitPrice: t.expose('limitPrice', { type: 'Decimal', nullable: true }),
    status: t.expose('status', { type: ComplexOrderStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ComplexOrderPage = pageOf('ComplexOrder', ComplexOrderType);

// Complex orders, TCA and analytics arrive with their own issue; until then
// these fields exist so that the gateway's operations validate, and answer not_implemented.
const pending = (what: string) => (_root: unknown, _args: unknown, ctx: Parameters<typeof apiKeyScope>[0]): never => {
  apiKeyScope(ctx);
  throw notImplemented(what);
};

builder.queryFields((t) => ({
  complexOrders: t.field({ type: ComplexOrderPage, args: pageArgs, resolve: pending('Complex orders') }),
  complexOrderChildren: t.field({
    type: 'JSON',
    args: { id: t.arg.id({ required: true }) },
    resolve: pending('Child orders of complex orders'),
  }),
  executionReport: t.field({
    type: 'JSON',
    args: { complexOrderId: t.arg.id({ required: true }) },
    resolve: pending('Execution reports'),
  }),
  executionAnalytics: t.field({ type: 'JSON', resolve: pending('Execution analytics') }),
}));

const StrategyEnum = builder.enumType('ExecutionStrategy', { values: ['sweep', 'passive', 'twap'] as const });

const ComplexOrderPreviewInput = builder.inputType('ComplexOrderPreviewInput', {
  fields: (t) => ({
    subaccountId: t.string({ required: true }),
    marketId: t.string({ required: true }),
    side: t.field({ type: OrderSideEnum, required: true }),
    action: t.field({ type: OrderActionEnum, required: true }),
    quantity: t.field({ type: 'Decimal', required: true }),
    limitPrice: t.field({ type: 'Decimal', required: false, description: 'Worst acceptable price, in the side’s own terms.' }),
    strategy: t.field({ type: StrategyEnum, required: true }),
    durationSeconds: t.int({ required: false, description: 'twap: the time the slices are spread over.' }),
    venues: t.stringList({ required: false, description: 'Venues the order may use; every venue listing the question when left out.' }),
  }),
});

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The plan as the REST API spells it: every key in snake_case, values unchanged. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeCase(k), snakeKeys(v)]));
}

builder.queryField('complexOrderPreview', (t) =>
  t.field({
    type: 'JSON',
    description:
      'Predicted impact and a recommended plan for a parent order across every venue listing the question, with the alternatives compared. Reads only.',
    args: { input: t.arg({ type: ComplexOrderPreviewInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      snakeKeys(await previewComplexOrder(ctx.db, ctx.venues, apiKeyScope(ctx), input)),
  }),
);
