import { notImplemented } from '../../domain/errors';
import { venueName } from '../../domain/venues';
import { builder } from '../builder';
import { apiKeyScope } from '../context';
import { OrderActionEnum, OrderSideEnum, OrderStatusEnum, OrderTypeEnum, TimeInForceEnum } from './enums';

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
    price: t.expose('price', { type: 'Decimal', nullable: true }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    filledQuantity: t.expose('filledQuantity', { type: 'Decimal' }),
    averageFillPrice: t.expose('averageFillPrice', { type: 'Decimal', nullable: true }),
    status: t.expose('status', { type: OrderStatusEnum }),
    clientOrderId: t.exposeString('clientOrderId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PlaceOrderInput = builder.inputType('PlaceOrderInput', {
  fields: (t) => ({
    subaccountId: t.id({ required: true }),
    marketId: t.id({ required: true }),
    side: t.field({ type: OrderSideEnum, required: true }),
    action: t.field({ type: OrderActionEnum, required: true }),
    type: t.field({ type: OrderTypeEnum, required: true }),
    price: t.field({ type: 'Decimal', required: false }),
    quantity: t.field({ type: 'Decimal', required: true }),
    timeInForce: t.field({ type: TimeInForceEnum, required: false }),
    clientOrderId: t.string({ required: false }),
  }),
});

builder.mutationField('placeOrder', (t) =>
  t.prismaField({
    type: 'Order',
    args: { input: t.arg({ type: PlaceOrderInput, required: true }) },
    resolve: (_query, _root, _args, ctx) => {
      apiKeyScope(ctx);
      throw notImplemented('Placing orders');
    },
  }),
);
