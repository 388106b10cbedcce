import { cancelOrder, getOrder, listOrders, placeOrder } from '../../services/orders/orders';
import { cancelOrders, MAX_CANCELED_PER_REQUEST, type CancelManyResult } from '../../services/orders/cancelMany';
import { amendOrder } from '../../services/orders/amendOrder';
import { MAX_ORDERS_PER_BATCH, placeOrders, type BatchOutcome } from '../../services/orders/placeOrders';
import { isResting, isWorking } from '../../domain/orderLifecycle';
import { CLAIMS_IN_WRITE } from '../idempotency';
import { venueName } from '../../venues/venueModules';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { requestScope, tradingScope } from '../context';
import { OrderActionEnum, OrderSideEnum, OrderStatusEnum, OrderStatusFilterEnum, OrderTypeEnum, TimeInForceEnum, VenueEnum } from './enums';
import { pageArgs, pageOf } from './page';

const QueuePosition = builder
  .objectRef<{ ordersAhead: number | null; quantityAhead: string }>('QueuePosition')
  .implement({
    description: 'Where a resting order stands at its price level on the venue.',
    fields: (t) => ({
      ordersAhead: t.exposeInt('ordersAhead', {
        nullable: true,
        description: 'Orders ahead at the same price; null where the venue reports only the quantity ahead (Kalshi).',
      }),
      quantityAhead: t.field({ type: 'Decimal', resolve: (q) => q.quantityAhead }),
    }),
  });

export const OrderType = builder.prismaObject('Order', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    venue: t.string({ resolve: (o) => venueName(o.venue) }),
    side: t.expose('side', { type: OrderSideEnum }),
    action: t.expose('action', { type: OrderActionEnum }),
    type: t.expose('type', { type: OrderTypeEnum }),
    timeInForce: t.expose('timeInForce', { type: TimeInForceEnum }),
    postOnly: t.exposeBoolean('postOnly', { description: 'Never takes: refused by the venue, placing nothing, if it would cross when it arrives.' }),
    reduceOnly: t.exposeBoolean('reduceOnly', { description: 'Only shrinks the position: a sell of what is held.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'A gtd order: when it leaves the book (then `expired`, its remainder canceled by the venue). Null otherwise.' }),
    price: t.expose('price', { type: 'Decimal', nullable: true }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    filledQuantity: t.expose('filledQuantity', { type: 'Decimal' }),
    remainingQuantity: t.field({
      type: 'Decimal',
      description: 'What is still working: 0 once the order is final.',
      resolve: (o) => (isWorking(o.status) ? o.quantity.sub(o.filledQuantity) : '0'),
    }),
    averageFillPrice: t.expose('averageFillPrice', { type: 'Decimal', nullable: true }),
    feesPaid: t.expose('feesPaid', { type: 'Decimal' }),
    status: t.expose('status', { type: OrderStatusEnum }),
    rejectReason: t.exposeString('rejectReason', { nullable: true }),
    clientOrderId: t.exposeString('clientOrderId'),
    venueOrderId: t.exposeString('venueOrderId', { nullable: true }),
    queuePosition: t.field({
      type: QueuePosition,
      nullable: true,
      description: 'For a resting order: its place in the queue at the venue now; null otherwise, and in events (they show the past), a child order’s included.',
      resolve: (o, _args, ctx) =>
        isResting(o.status) && !ctx.readsEvents
          ? ctx.loaders.queuePosition.load({ orderId: o.id, venue: o.venue, subaccountId: o.subaccountId })
          : null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    market: t.relation('market'),
    fills: t.relation('fills', { query: { orderBy: { id: 'asc' } } }),
    receipts: t.relation('receipts', { query: { orderBy: { id: 'asc' } } }),
    complexOrder: t.relation('complexOrder', { nullable: true, description: 'The complex order this order is a child of.' }),
  }),
});

const OrderPage = pageOf('Order', OrderType);

const PlaceOrderInput = builder.inputType('PlaceOrderInput', {
  fields: (t) => ({
    subaccountId: t.string({ required: true }),
    marketId: t.string({ required: true }),
    side: t.field({ type: OrderSideEnum, required: true }),
    action: t.field({ type: OrderActionEnum, required: true }),
    type: t.field({ type: OrderTypeEnum, required: true }),
    price: t.field({ type: 'Decimal', required: false, description: 'Dollars per contract in the side’s own terms; required for limit orders.' }),
    quantity: t.field({ type: 'Decimal', required: true }),
    timeInForce: t.field({ type: TimeInForceEnum, required: false, description: 'gtc for limit orders (gtd with expiresAt), ioc for market orders when left out.' }),
    expiresAt: t.field({ type: 'DateTime', required: false, description: 'A limit order resting until this time (time in force gtd), sent as the venue’s own expiry.' }),
    clientOrderId: t.string({ required: false }),
    postOnly: t.boolean({ required: false, description: 'A resting limit order (gtc or gtd) that never takes: the venue refuses it, placing nothing, if it would cross on arrival.' }),
    reduceOnly: t.boolean({ required: false, description: 'A sell that may only shrink the position (never more than is held and not already offered).' }),
  }),
});

const PlaceOrdersInput = builder.inputType('PlaceOrdersInput', {
  fields: (t) => ({ orders: t.field({ type: [PlaceOrderInput], required: true, description: `1 to ${MAX_ORDERS_PER_BATCH} orders, placed in this order.` }) }),
});

const OrderErrorType = builder.objectRef<NonNullable<BatchOutcome['error']>>('OrderError').implement({
  description: 'Why one order of a batch was not placed: the error it would have had alone (code, message, param, limit).',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    param: t.exposeString('param', { nullable: true }),
    limit: t.exposeString('limit', { nullable: true }),
  }),
});

const BatchOrderOutcomeType = builder.objectRef<BatchOutcome>('BatchOrderOutcome').implement({
  description: 'One order of a batch: the order placed, or its error.',
  fields: (t) => ({
    order: t.field({ type: OrderType, nullable: true, resolve: (outcome) => outcome.order }),
    error: t.field({ type: OrderErrorType, nullable: true, resolve: (outcome) => outcome.error }),
  }),
});

const PlaceOrdersResultType = builder.objectRef<{ data: BatchOutcome[] }>('PlaceOrdersResult').implement({
  fields: (t) => ({
    data: t.field({ type: [BatchOrderOutcomeType], complexity: { field: 1, multiplier: MAX_ORDERS_PER_BATCH }, resolve: (result) => result.data }),
  }),
});

const AmendOrderInput = builder.inputType('AmendOrderInput', {
  fields: (t) => ({
    price: t.field({ type: 'Decimal', required: false, description: 'The new limit price, in the side’s own terms.' }),
    quantity: t.field({ type: 'Decimal', required: false, description: 'The new total quantity, what filled included; above the filled quantity.' }),
  }),
});

builder.queryFields((t) => ({
  order: t.prismaField({
    type: 'Order',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => getOrder(ctx.db, requestScope(ctx), args.id, query),
  }),
  orders: t.field({
    type: OrderPage,
    args: {
      subaccountId: t.arg.string({ required: false }),
      marketId: t.arg.string({ required: false }),
      status: t.arg({ type: OrderStatusFilterEnum, required: false }),
      since: t.arg({ type: 'DateTime', required: false }),
      until: t.arg({ type: 'DateTime', required: false }),
      ...pageArgs,
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      return listOrders(ctx.db, scope, args);
    },
  }),
}));

builder.mutationFields((t) => ({
  // t.field, not t.prismaField: the order comes from the order path's own statements, so the Prisma
  // plugin's selection (computed from the document on every call) would go unused.
  placeOrder: t.field({
    type: OrderType,
    args: { input: t.arg({ type: PlaceOrderInput, required: true }) },
    // The order path sends the Idempotency-Key's claim in its transaction's first write (services/idempotency/).
    extensions: { [CLAIMS_IN_WRITE]: true },
    resolve: (_root, { input }, ctx) => {
      return placeOrder(ctx.db, ctx.venues, tradingScope(ctx), input, { idempotency: ctx.idempotency }, { deadline: ctx.deadline });
    },
  }),
  placeOrders: t.field({
    type: PlaceOrdersResultType,
    description: `Places up to ${MAX_ORDERS_PER_BATCH} orders in turn, each as placeOrder would; each answered on its own (docs/trading.md, "Placing a batch").`,
    args: { input: t.arg({ type: PlaceOrdersInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      data: await placeOrders(ctx.db, ctx.venues, tradingScope(ctx), input.orders, ctx.logger, ctx.idempotency, { deadline: ctx.deadline }),
    }),
  }),
  amendOrder: t.field({
    type: OrderType,
    description: 'Changes a resting limit order’s price and/or total quantity where it rests, with the venue’s queue rules (docs/trading.md, "Amending an order").',
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: AmendOrderInput, required: true }) },
    // A dashboard session may only shrink an order (it cannot trade: a new price or a larger size can): services/orders/amendOrder.ts.
    resolve: (_root, { id, input }, ctx) =>
      amendOrder(ctx.db, ctx.venues, requestScope(ctx), id, input, { idempotency: ctx.idempotency, mayTrade: ctx.principal.kind === 'api_key' }, { deadline: ctx.deadline }),
  }),
  cancelOrder: t.prismaField({
    type: 'Order',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, ctx) => cancelOrder(ctx.db, ctx.venues, requestScope(ctx), args.id, { deadline: ctx.deadline }),
  }),
  cancelOrders: t.field({
    type: CancelOrdersResultType,
    description: `Cancels the resting orders matching every filter given (at least one), oldest first, at most ${MAX_CANCELED_PER_REQUEST}; hasMore when more match.`,
    args: {
      subaccountId: t.arg.string({ required: false }),
      marketId: t.arg.string({ required: false }),
      venue: t.arg({ type: VenueEnum, required: false }),
      side: t.arg({ type: OrderSideEnum, required: false }),
    },
    resolve: (_root, args, ctx) => cancelOrders(ctx.db, ctx.venues, requestScope(ctx), args, { deadline: ctx.deadline }),
  }),
}));

const CancelFailureType = builder.objectRef<CancelManyResult['failed'][number]>('CancelFailure').implement({
  description: 'An order that could not be canceled, and why (the error code and message it would have had alone).',
  fields: (t) => ({
    orderId: t.exposeID('orderId'),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
  }),
});

const CancelOrdersResultType = builder.objectRef<CancelManyResult>('CancelOrdersResult').implement({
  fields: (t) => ({
    canceled: t.field({ type: [OrderType], complexity: { field: 1, multiplier: MAX_CANCELED_PER_REQUEST }, resolve: (result) => result.canceled }),
    failed: t.field({ type: [CancelFailureType], complexity: { field: 1, multiplier: MAX_CANCELED_PER_REQUEST }, resolve: (result) => result.failed }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More orders matched than one request cancels: ask again.' }),
  }),
});
