import { listSettlements } from '../../services/settlement/settlements';
import { closeTestMarket, createTestMarket, settleTestMarket } from '../../services/settlement/testMarkets';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { requestScope } from '../context';
import { MarketResultEnum, VenueEnum } from './enums';
import { MarketType } from './market';
import { pageArgs, pageOf } from './page';

export const SettlementType = builder.prismaObject('Settlement', {
  description: 'A market’s settlement of one subaccount’s positions in it: both sides closed at the outcome, the payout credited, realized P&L booked on its UTC day (docs/settlement.md).',
  fields: (t) => ({
    id: t.exposeID('id'),
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    result: t.expose('result', { type: MarketResultEnum }),
    settlementValue: t.expose('settlementValue', { type: 'Decimal', nullable: true, description: 'Dollars per YES contract (NO pays 1 minus it); null when void.' }),
    yesQuantity: t.expose('yesQuantity', { type: 'Decimal' }),
    noQuantity: t.expose('noQuantity', { type: 'Decimal' }),
    costBasis: t.expose('costBasis', { type: 'Decimal', description: 'What the settled contracts cost, fees excluded (exact).' }),
    payout: t.expose('payout', { type: 'Decimal', description: 'Cash paid: each contract’s value at the outcome, or the cost basis when void.' }),
    fee: t.expose('fee', { type: 'Decimal' }),
    realizedPnl: t.expose('realizedPnl', { type: 'Decimal', description: 'payout - cost basis - fee.' }),
    venueReference: t.exposeString('venueReference', { nullable: true, description: 'The venue’s own record of it, when it has one.' }),
    settledAt: t.expose('settledAt', { type: 'DateTime' }),
    receipt: t.expose('receipt', { type: 'JSON', description: 'The settlement as an immutable record; receiptHash is the SHA-256 of its RFC 8785 form.' }),
    receiptHash: t.exposeString('receiptHash'),
  }),
});

const SettlementPage = pageOf('Settlement', SettlementType);

const SettledMarket = builder.objectRef<Awaited<ReturnType<typeof settleTestMarket>>>('SettledMarket').implement({
  description: 'A test helper’s market once settled, and the settlements written by this request (none when it was settled already).',
  fields: (t) => ({
    market: t.field({ type: MarketType, resolve: (settled) => settled.market }),
    settlements: t.field({ type: [SettlementType], resolve: (settled) => settled.settlements }),
  }),
});

const CreateTestMarketInput = builder.inputType('CreateTestMarketInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    venue: t.field({ type: VenueEnum, required: true, description: 'A simulated venue.' }),
    fairValue: t.field({ type: 'Decimal', required: false, description: 'Where the market maker quotes around at first; 0.5 by default.' }),
    closesAt: t.field({ type: 'DateTime', required: false, description: 'Shown as the market’s close_time; closing is the close helper’s.' }),
    category: t.string({ required: false }),
  }),
});

const SettleTestMarketInput = builder.inputType('SettleTestMarketInput', {
  fields: (t) => ({
    result: t.field({ type: MarketResultEnum, required: false, description: 'yes, no or void; scalar with its settlementValue (which alone also says it).' }),
    settlementValue: t.field({ type: 'Decimal', required: false, description: 'Dollars per YES contract, 0 to 1.' }),
  }),
});

builder.queryFields((t) => ({
  settlements: t.field({
    type: SettlementPage,
    description: 'Settlements of the scope, newest first; since/until bound the settlement time.',
    args: {
      subaccountId: t.arg.string({ required: false }),
      marketId: t.arg.string({ required: false }),
      since: t.arg({ type: 'DateTime', required: false, description: 'Inclusive.' }),
      until: t.arg({ type: 'DateTime', required: false, description: 'Exclusive.' }),
      ...pageArgs,
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      return listSettlements(ctx.db, scope, args);
    },
  }),
}));

builder.mutationFields((t) => ({
  createTestMarket: t.field({
    type: MarketType,
    description: 'Test keys only: a market of this workspace’s own on a simulated venue, listed at once with the market maker’s liquidity.',
    args: { input: t.arg({ type: CreateTestMarketInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createTestMarket(ctx.db, ctx.venues, requestScope(ctx), {
        title: input.title, venue: input.venue, fairValue: input.fairValue == null ? null : String(input.fairValue), closesAt: input.closesAt ?? null, category: input.category ?? null,
      }),
  }),
  closeTestMarket: t.field({
    type: MarketType,
    description: 'Test keys only: closes a test helper’s market (no new orders; its resting orders canceled).',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => closeTestMarket(ctx.db, ctx.venues, requestScope(ctx), args.id),
  }),
  settleTestMarket: t.field({
    type: SettledMarket,
    description: 'Test keys only: settles a test helper’s market at a result or a settlement value (closing it first).',
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: SettleTestMarketInput, required: true }) },
    resolve: (_root, { id, input }, ctx) =>
      settleTestMarket(ctx.db, ctx.venues, requestScope(ctx), id, { result: input.result ?? null, settlementValue: input.settlementValue == null ? null : String(input.settlementValue) }),
  }),
}));
