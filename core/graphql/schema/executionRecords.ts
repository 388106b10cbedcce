import { venueName } from '../../venues/venueModules';
import { listFills, listReceipts } from '../../services/orders/fillsAndReceipts';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { requestScope } from '../context';
import { FillStatusEnum, OrderActionEnum, OrderSideEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const FillType = builder.prismaObject('Fill', {
  fields: (t) => ({
    id: t.exposeID('id'),
    orderId: t.exposeID('orderId'),
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    venue: t.string({ resolve: (f) => venueName(f.venue) }),
    venueFillId: t.exposeString('venueFillId'),
    side: t.expose('side', { type: OrderSideEnum }),
    action: t.expose('action', { type: OrderActionEnum }),
    price: t.expose('price', { type: 'Decimal' }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    fee: t.expose('fee', { type: 'Decimal' }),
    realizedPnl: t.expose('realizedPnl', { type: 'Decimal', description: 'What this fill realized: (price - average cost) x quantity on a sell, minus the fee; -fee on a buy. Recomputed when an earlier fill of the position is reversed.' }),
    isTaker: t.exposeBoolean('isTaker'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    status: t.field({ type: FillStatusEnum, resolve: (f) => (f.reversedAt ? 'reversed' : 'counted') }),
    reversedAt: t.expose('reversedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the fill was reversed: the venue reported its trade failed (Polymarket: FAILED after MATCHED). Its position, P&L and order figures were put back as if it never happened; a receipt records the reversal.',
    }),
    reversalReason: t.exposeString('reversalReason', { nullable: true, description: 'Why the fill was reversed, as the venue reported it.' }),
  }),
});

export const ReceiptType = builder.prismaObject('Receipt', {
  description: 'An immutable record of one execution; contentHash is the SHA-256 of its canonical JSON content.',
  fields: (t) => ({
    id: t.exposeID('id'),
    orderId: t.exposeID('orderId'),
    subaccountId: t.exposeID('subaccountId'),
    content: t.expose('content', { type: 'JSON' }),
    contentHash: t.exposeString('contentHash'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const FillPage = pageOf('Fill', FillType);
const ReceiptPage = pageOf('Receipt', ReceiptType);

const recordFilterArgs = builder.args((t) => ({
  subaccountId: t.string({ required: false }),
  orderId: t.string({ required: false }),
  since: t.field({ type: 'DateTime', required: false, description: 'Inclusive.' }),
  until: t.field({ type: 'DateTime', required: false, description: 'Exclusive.' }),
  ...pageArgs,
}));

builder.queryFields((t) => ({
  fills: t.field({
    type: FillPage,
    args: { ...recordFilterArgs, marketId: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      return listFills(ctx.db, scope, args);
    },
  }),
  receipts: t.field({
    type: ReceiptPage,
    args: recordFilterArgs,
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      return listReceipts(ctx.db, scope, args);
    },
  }),
}));
