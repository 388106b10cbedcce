import { pnlHistory, riskStats, type PnlDay, type RiskStats } from '../../services/risk/riskAnalytics';
import { venueName } from '../../venues/venueModules';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { requestScope } from '../context';
import { pageOf } from './page';

type MarketRow = RiskStats['byMarket'][number];
type VenueRow = RiskStats['byVenue'][number];
type LimitUse = RiskStats['limits'][number];

const decimal = (t: any, name: string, description?: string, nullable = false) =>
  t.expose(name, { type: 'Decimal', nullable, ...(description ? { description } : {}) });

const MarketRisk = builder.objectRef<MarketRow>('MarketRisk').implement({
  fields: (t) => ({
    marketId: t.exposeID('marketId'),
    venue: t.string({ resolve: (m) => venueName(m.venue) }),
    yesQuantity: decimal(t, 'yesQuantity'),
    noQuantity: decimal(t, 'noQuantity'),
    netContracts: decimal(t, 'netContracts', 'YES contracts minus NO contracts.'),
    grossExposure: decimal(t, 'grossExposure', 'Positions at cost, both sides.'),
    netExposure: decimal(t, 'netExposure', 'YES value minus NO value at mark (positive: long YES).'),
    marketValue: decimal(t, 'marketValue', 'Positions marked to the venue mid (at cost without one).'),
    unrealizedPnl: decimal(t, 'unrealizedPnl'),
    realizedPnl: decimal(t, 'realizedPnl'),
    openOrderNotional: decimal(t, 'openOrderNotional', 'Open buy orders: remaining quantity x price.'),
    worstCaseLoss: decimal(t, 'worstCaseLoss', 'Cost minus the smaller payoff: the loss if the market resolves against the positions.'),
  }),
});

const VenueRisk = builder.objectRef<VenueRow>('VenueRisk').implement({
  fields: (t) => ({
    venue: t.exposeString('venue'),
    grossExposure: decimal(t, 'grossExposure'),
    netExposure: decimal(t, 'netExposure'),
    marketValue: decimal(t, 'marketValue'),
    openOrderNotional: decimal(t, 'openOrderNotional'),
    unrealizedPnl: decimal(t, 'unrealizedPnl'),
    worstCaseLoss: decimal(t, 'worstCaseLoss'),
  }),
});

const LimitUseType = builder.objectRef<LimitUse['limits'][number]>('LimitUse').implement({
  fields: (t) => ({
    limit: t.exposeString('limit'),
    value: decimal(t, 'value', 'The limit; null when there is none.', true),
    current: decimal(t, 'current', 'What the subaccount uses now, measured as the pre-trade check measures it.'),
    utilisation: decimal(t, 'utilisation', 'current / value; null without a limit.', true),
  }),
});

const SubaccountLimits = builder.objectRef<LimitUse>('SubaccountLimitUse').implement({
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    limits: t.field({ type: [LimitUseType], resolve: (s) => s.limits }),
  }),
});

const RiskStatsType = builder.objectRef<RiskStats>('RiskStats').implement({
  description: 'Portfolio risk of the caller’s environment (or one subaccount), computed from positions and working orders.',
  fields: (t) => ({
    tradingHalted: t.exposeBoolean('tradingHalted'),
    grossExposure: decimal(t, 'grossExposure'),
    netExposure: decimal(t, 'netExposure'),
    marketValue: decimal(t, 'marketValue'),
    openOrderNotional: decimal(t, 'openOrderNotional'),
    realizedPnl: decimal(t, 'realizedPnl'),
    unrealizedPnl: decimal(t, 'unrealizedPnl'),
    worstCaseLoss: decimal(t, 'worstCaseLoss', 'Every market resolving against the positions.'),
    largestMarketShare: decimal(t, 'largestMarketShare', 'Largest market’s share of gross exposure, 0..1.'),
    herfindahl: decimal(t, 'herfindahl', 'Herfindahl index of the markets’ shares of gross exposure, 0..1.'),
    byVenue: t.field({ type: [VenueRisk], resolve: (s) => s.byVenue }),
    byMarket: t.field({ type: [MarketRisk], resolve: (s) => s.byMarket }),
    limits: t.field({ type: [SubaccountLimits], resolve: (s) => s.limits }),
  }),
});

const PnlDayType = builder.objectRef<PnlDay>('PnlDay').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'A UTC day, YYYY-MM-DD.' }),
    realizedPnl: decimal(t, 'realizedPnl'),
    cumulativeRealizedPnl: decimal(t, 'cumulativeRealizedPnl', 'Since the first day of the range.'),
    fees: decimal(t, 'fees'),
    fills: t.exposeInt('fills'),
    volume: decimal(t, 'volume', 'Traded notional.'),
  }),
});
const PnlDayPage = pageOf('PnlDay', PnlDayType);

builder.queryFields((t) => ({
  riskStats: t.field({
    type: RiskStatsType,
    args: { subaccountId: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: true });
      return riskStats(ctx.db, ctx.venues, scope, args);
    },
  }),
  pnlHistory: t.field({
    type: PnlDayPage,
    args: {
      subaccountId: t.arg.string({ required: false }),
      from: t.arg.string({ required: false, description: 'First UTC day, YYYY-MM-DD; 29 days before `to` when left out.' }),
      to: t.arg.string({ required: false, description: 'Last UTC day, YYYY-MM-DD; today when left out.' }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: true });
      return { data: await pnlHistory(ctx.db, scope, args), hasMore: false, nextCursor: null };
    },
  }),
}));

builder.prismaObjectField('Subaccount', 'pnlHistory', (t) =>
  t.field({
    type: [PnlDayType],
    description: 'Daily realized P&L of this subaccount (UTC days).',
    args: {
      from: t.arg.string({ required: false, description: 'First UTC day, YYYY-MM-DD; 29 days before `to` when left out.' }),
      to: t.arg.string({ required: false, description: 'Last UTC day, YYYY-MM-DD; today when left out.' }),
    },
    resolve: (subaccount, args, ctx) => pnlHistory(ctx.db, requestScope(ctx), { ...args, subaccountId: subaccount.id }),
  }),
);
