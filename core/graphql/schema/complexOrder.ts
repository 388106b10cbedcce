import { notImplemented } from '../../domain/errors';
import { builder } from '../builder';
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

builder.mutationField('previewComplexOrder', (t) =>
  t.field({ type: 'JSON', args: { input: t.arg({ type: 'JSON', required: true }) }, resolve: pending('Complex order previews') }),
);
