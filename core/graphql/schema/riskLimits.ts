import { getRiskLimits, updateRiskLimits } from '../../services/risk/riskLimits';
import { builder } from '../builder';
import { requestScope } from '../context';

export const RiskLimitsType = builder.prismaObject('RiskLimits', {
  description: 'Pre-trade limits of a subaccount: amounts in dollars, positions in contracts; null is no limit.',
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    maxOrderNotional: t.expose('maxOrderNotional', { type: 'Decimal', nullable: true }),
    maxPositionPerMarket: t.expose('maxPositionPerMarket', { type: 'Decimal', nullable: true }),
    maxGrossExposure: t.expose('maxGrossExposure', { type: 'Decimal', nullable: true }),
    maxDailyRealizedLoss: t.expose('maxDailyRealizedLoss', { type: 'Decimal', nullable: true }),
    maxOpenOrders: t.exposeInt('maxOpenOrders', { nullable: true }),
    maxOrdersPerMinute: t.exposeInt('maxOrdersPerMinute', { nullable: true }),
    tradingHalted: t.boolean({
      description: 'The workspace kill switch: when true every order is rejected.',
      select: { subaccount: { select: { workspace: { select: { tradingHalted: true } } } } },
      resolve: (limits) => limits.subaccount.workspace.tradingHalted,
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const RiskLimitsInput = builder.inputType('RiskLimitsInput', {
  description: 'Fields left out stay as they are; null removes that limit.',
  fields: (t) => ({
    maxOrderNotional: t.field({ type: 'Decimal', required: false }),
    maxPositionPerMarket: t.field({ type: 'Decimal', required: false }),
    maxGrossExposure: t.field({ type: 'Decimal', required: false }),
    maxDailyRealizedLoss: t.field({ type: 'Decimal', required: false }),
    maxOpenOrders: t.int({ required: false }),
    maxOrdersPerMinute: t.int({ required: false }),
  }),
});

builder.queryField('riskLimits', (t) =>
  t.prismaField({
    type: 'RiskLimits',
    args: { subaccountId: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getRiskLimits(ctx.db, requestScope(ctx), String(args.subaccountId), query),
  }),
);

builder.mutationField('updateRiskLimits', (t) =>
  t.prismaField({
    type: 'RiskLimits',
    args: {
      subaccountId: t.arg.id({ required: true }),
      input: t.arg({ type: RiskLimitsInput, required: true }),
    },
    resolve: (query, _root, args, ctx) =>
      updateRiskLimits(ctx.db, requestScope(ctx), String(args.subaccountId), args.input, query),
  }),
);
