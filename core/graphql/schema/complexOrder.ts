import type { ExecutionStrategy } from '../../domain/planning';
import { venueName } from '../../venues/venueModules';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { previewComplexOrderWithRisk } from '../../services/complexOrders/preview';
import {
  cancelComplexOrder,
  getComplexOrder,
  listChildOrders,
  listComplexOrders,
  placeComplexOrder,
  predictionOf,
} from '../../services/complexOrders';
import { executionAnalytics } from '../../services/complexOrders/executionAnalytics';
import { executionReport } from '../../services/complexOrders/executionReport';
import { requestScope, tradingScope } from '../context';
import { ComplexOrderStatusEnum, ExecutionStrategyEnum, OrderActionEnum, OrderSideEnum, TimeInForceEnum, VenueEnum } from './enums';
import { pageArgs, pageOf } from './page';

const ChildOrderStatusEnum = builder.enumType('ChildOrderStatus', {
  description: 'scheduled → sending → sent; rejected (pre-trade risk or validation refused it; rejectCode says why); canceled (its parent was canceled before it was sent).',
  values: ['scheduled', 'sending', 'sent', 'rejected', 'canceled'] as const,
});

export const ChildOrderType = builder.prismaObject('ChildOrder', {
  description: 'One order of a complex order’s plan: a venue, a price, a quantity and the time it is sent.',
  fields: (t) => ({
    id: t.exposeID('id'),
    complexOrderId: t.exposeID('complexOrderId'),
    venue: t.string({ resolve: (c) => venueName(c.venue) }),
    marketId: t.exposeID('marketId'),
    status: t.expose('status', { type: ChildOrderStatusEnum }),
    price: t.expose('price', { type: 'Decimal', nullable: true }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    timeInForce: t.expose('timeInForce', { type: TimeInForceEnum }),
    sliceIndex: t.exposeInt('sliceIndex', { nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    midAtSend: t.expose('midAtSend', { type: 'Decimal', nullable: true, description: 'The consolidated mid (own terms) when the child was sent.' }),
    expectedFilledQuantity: t.expose('expectedFilledQuantity', { type: 'Decimal' }),
    expectedNotional: t.expose('expectedNotional', { type: 'Decimal' }),
    expectedFees: t.expose('expectedFees', { type: 'Decimal' }),
    rejectCode: t.exposeString('rejectCode', { nullable: true }),
    rejectReason: t.exposeString('rejectReason', { nullable: true }),
    order: t.relation('order', { nullable: true, description: 'The order the child was sent as, with its fills and queue position; null until sent.' }),
  }),
});

export const ComplexOrderType = builder.prismaObject('ComplexOrder', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    side: t.expose('side', { type: OrderSideEnum }),
    action: t.expose('action', { type: OrderActionEnum }),
    // Stored as text, written only from ExecutionStrategy (placement validates it); an unknown value fails to serialise.
    strategy: t.field({ type: ExecutionStrategyEnum, resolve: (c) => c.strategy as ExecutionStrategy }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    limitPrice: t.expose('limitPrice', { type: 'Decimal', nullable: true }),
    durationSeconds: t.exposeInt('durationSeconds', { nullable: true }),
    status: t.expose('status', { type: ComplexOrderStatusEnum }),
    arrivalMid: t.expose('arrivalMid', { type: 'Decimal', nullable: true, description: 'The consolidated mid (own terms) at placement: the TCA benchmark.' }),
    predictedAveragePrice: t.expose('predictedAveragePrice', { type: 'Decimal', nullable: true }),
    predictedFilledQuantity: t.expose('predictedFilledQuantity', { type: 'Decimal' }),
    predictedFees: t.expose('predictedFees', { type: 'Decimal' }),
    filledQuantity: t.field({
      type: 'Decimal',
      description: 'Σ quantity of the fills of every child.',
      resolve: async (o, _args, ctx) => (await ctx.loaders.complexOrderExecution.load(o.id)).filledQuantity,
    }),
    averageFillPrice: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'Σ price × quantity / Σ quantity over the fills of every child (8 decimals); null before the first fill.',
      resolve: async (o, _args, ctx) => (await ctx.loaders.complexOrderExecution.load(o.id)).averageFillPrice,
    }),
    feesPaid: t.field({
      type: 'Decimal',
      resolve: async (o, _args, ctx) => (await ctx.loaders.complexOrderExecution.load(o.id)).feesPaid,
    }),
    plan: t.field({
      type: 'JSON',
      description: 'The plan it was placed with: the recommended alternative, the others compared, and why.',
      resolve: (o) => predictionOf(o).plan,
    }),
    marketIdsByVenue: t.field({ type: 'JSON', resolve: (o) => predictionOf(o).marketIdsByVenue }),
    endMid: t.expose('endMid', { type: 'Decimal', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    market: t.relation('market'),
    children: t.relation('children', { query: { orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }] } }),
    orders: t.relation('orders', { query: { orderBy: { id: 'asc' } } }),
  }),
});

const ComplexOrderPage = pageOf('ComplexOrder', ComplexOrderType);
const ChildOrderPage = pageOf('ChildOrder', ChildOrderType);

const ComplexOrderPreviewInput = builder.inputType('ComplexOrderPreviewInput', {
  fields: (t) => ({
    subaccountId: t.string({ required: true }),
    marketId: t.string({ required: true }),
    side: t.field({ type: OrderSideEnum, required: true }),
    action: t.field({ type: OrderActionEnum, required: true }),
    quantity: t.field({ type: 'Decimal', required: true }),
    limitPrice: t.field({ type: 'Decimal', required: false, description: 'Worst acceptable price, in the side’s own terms.' }),
    strategy: t.field({ type: ExecutionStrategyEnum, required: true }),
    durationSeconds: t.int({ required: false, description: 'twap: the time the slices are spread over.' }),
    slices: t.int({ required: false, description: 'twap: how many slices; one a minute when left out.' }),
    venues: t.field({ type: [VenueEnum], required: false, description: 'Venues the order may use; every venue listing the question when left out.' }),
  }),
});

builder.queryFields((t) => ({
  complexOrders: t.field({
    type: ComplexOrderPage,
    args: {
      subaccountId: t.arg.string({ required: false }),
      marketId: t.arg.string({ required: false }),
      status: t.arg({ type: ComplexOrderStatusEnum, required: false }),
      strategy: t.arg({ type: ExecutionStrategyEnum, required: false }),
      since: t.arg({ type: 'DateTime', required: false }),
      until: t.arg({ type: 'DateTime', required: false }),
      ...pageArgs,
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      return listComplexOrders(ctx.db, scope, args);
    },
  }),
  complexOrder: t.prismaField({
    type: 'ComplexOrder',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => getComplexOrder(ctx.db, requestScope(ctx), args.id, query),
  }),
  complexOrderChildren: t.field({
    type: ChildOrderPage,
    description: 'Every child of the complex order in one page (a plan has at most a few hundred), in plan order.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => ({ data: await listChildOrders(ctx.db, requestScope(ctx), args.id), hasMore: false, nextCursor: null }),
  }),
  executionReport: t.field({
    type: 'JSON',
    description: 'Execution quality (TCA) of a complex order; see docs/tca.md.',
    args: { complexOrderId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => executionReport(ctx.db, ctx.venues, requestScope(ctx), args.complexOrderId),
  }),
  executionAnalytics: t.field({
    type: 'JSON',
    description: 'Predicted vs realized execution over final complex orders, by venue, strategy and market; see docs/execution-analytics.md.',
    args: {
      from: t.arg({ type: 'DateTime', required: false }),
      to: t.arg({ type: 'DateTime', required: false }),
      subaccountId: t.arg.string({ required: false }),
      strategy: t.arg({ type: ExecutionStrategyEnum, required: false }),
      venue: t.arg({ type: VenueEnum, required: false }),
      marketId: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: true });
      return executionAnalytics(ctx.db, scope, args);
    },
  }),
  complexOrderPreview: t.field({
    type: 'JSON',
    description:
      'Predicted impact and a recommended plan for a parent order across every venue listing the question, with the alternatives compared, ' +
      'and `risk`: which of the subaccount’s pre-trade checks (kill switch, limits, funds, position) would refuse which child of the ' +
      'recommended alternative and of each alternative, checked in sequence as placement sends them. `feasible` stays the books’ verdict; ' +
      '`risk.passes` is the limits’. Reads only; see docs/complex-orders.md.',
    args: { input: t.arg({ type: ComplexOrderPreviewInput, required: true }) },
    resolve: (_root, { input }, ctx) => previewComplexOrderWithRisk(ctx.db, ctx.venues, requestScope(ctx), input),
  }),
}));

builder.mutationFields((t) => ({
  placeComplexOrder: t.prismaField({
    type: 'ComplexOrder',
    description: 'Plans the order on the current books (as complexOrderPreview would) and executes the recommended plan; see docs/complex-orders.md.',
    args: { input: t.arg({ type: ComplexOrderPreviewInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) =>
      placeComplexOrder(ctx.db, ctx.venues, tradingScope(ctx), input, { idempotency: ctx.idempotency }),
  }),
  cancelComplexOrder: t.prismaField({
    type: 'ComplexOrder',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, ctx) => cancelComplexOrder(ctx.db, ctx.venues, requestScope(ctx), args.id),
  }),
}));
