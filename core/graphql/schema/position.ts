import { listPositions, listPositionsPage, portfolio, type MarkedPosition } from '../../services/risk/positions';
import type { PositionComparison, SettlementComparison, VenueAccountView } from '../../services/accounts/venueAccounts';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { requestScope } from '../context';
import { OrderSideEnum } from './enums';
import { pageArgs, pageOf } from './page';

const PositionType = builder.objectRef<MarkedPosition>('Position').implement({
  description: 'Contracts held on one market and side, with P&L; marked to the venue’s mid.',
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    side: t.expose('side', { type: OrderSideEnum }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    averageCost: t.expose('averageCost', { type: 'Decimal', description: 'Per contract, fees excluded: the cost basis over the quantity, rounded to 8 places, for display.' }),
    costBasis: t.expose('costBasis', { type: 'Decimal', description: 'What the contracts held cost, fees excluded, exactly: the buys’ notionals less the cost each sell released in proportion.' }),
    markPrice: t.expose('markPrice', { type: 'Decimal', nullable: true, description: 'The venue’s mid for this side; null without a two-sided book.' }),
    realizedPnl: t.expose('realizedPnl', { type: 'Decimal', description: 'Realized on this market and side, fees included.' }),
    unrealizedPnl: t.expose('unrealizedPnl', { type: 'Decimal', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

type Balance = Awaited<ReturnType<typeof portfolio>>[number];

const PositionComparisonType = builder.objectRef<PositionComparison>('VenuePositionComparison').implement({
  description: 'One market where the venue’s position and ours are compared, in net YES contracts (YES held minus NO held).',
  fields: (t) => ({
    marketId: t.exposeID('marketId', { nullable: true, description: 'Null when our catalog does not list the venue’s market.' }),
    venueMarketId: t.exposeString('venueMarketId'),
    venueNetYes: t.expose('venueNetYes', { type: 'Decimal' }),
    ourNetYes: t.expose('ourNetYes', { type: 'Decimal' }),
    drift: t.expose('drift', { type: 'Decimal', description: 'Venue minus ours; anything but 0 needs an operator.' }),
  }),
});

const SettlementComparisonType = builder.objectRef<SettlementComparison>('VenueSettlementComparison').implement({
  description:
    'One market’s settlement of the account as the venue recorded it beside ours. Quantities compare net (YES minus NO); a venue that nets positions (Kalshi) settles one side where we may hold both, and the pairs it paid when they met are taken out of our payout before comparing (docs/settlement.md, "Drift").',
  fields: (t) => ({
    marketId: t.exposeID('marketId', { nullable: true, description: 'Null when our catalog does not list the venue’s market.' }),
    venueMarketId: t.exposeString('venueMarketId'),
    settlementId: t.exposeID('settlementId', { nullable: true, description: 'Ours; null when we have not booked one.' }),
    result: t.exposeString('result'),
    venueYesQuantity: t.expose('venueYesQuantity', { type: 'Decimal', nullable: true, description: 'Null when the venue’s record does not say (a Polymarket redemption lists the shares burnt, not each outcome’s).' }),
    venueNoQuantity: t.expose('venueNoQuantity', { type: 'Decimal', nullable: true }),
    venuePayout: t.expose('venuePayout', { type: 'Decimal', description: 'Dollars the venue credited for it (Polymarket: pays, or paid, on redemption).' }),
    redemption: t.exposeString('redemption', {
      nullable: true,
      description: 'Polymarket: `redeemable` until the wallet redeems its tokens on chain (the owner’s act), then `redeemed`; null where the venue pays by itself (Kalshi).',
    }),
    ourYesQuantity: t.expose('ourYesQuantity', { type: 'Decimal' }),
    ourNoQuantity: t.expose('ourNoQuantity', { type: 'Decimal' }),
    ourPayout: t.expose('ourPayout', { type: 'Decimal' }),
    quantityDrift: t.expose('quantityDrift', { type: 'Decimal', nullable: true, description: 'Venue minus ours, in net YES contracts; anything but 0 needs an operator; null when the venue’s record has no quantities.' }),
    payoutDrift: t.expose('payoutDrift', {
      type: 'Decimal',
      nullable: true,
      description: 'Venue minus ours, in dollars; null when not comparable (a void market whose both sides we held).',
    }),
  }),
});

const VenueAccountType = builder.objectRef<VenueAccountView>('VenueAccount').implement({
  description: 'A live subaccount’s account at one venue, read from the venue now: its cash, and its positions and settlements compared with ours.',
  fields: (t) => ({
    venue: t.exposeString('venue'),
    balance: t.expose('balance', { type: 'Decimal', description: 'Cash at the venue, in dollars.' }),
    inSync: t.exposeBoolean('inSync', { description: 'True when every position and settlement matches ours (false when the settlements could not be read).' }),
    positions: t.expose('positions', { type: [PositionComparisonType] }),
    settlements: t.expose('settlements', {
      type: [SettlementComparisonType],
      nullable: true,
      description:
        'The settlements of the last 30 days, the venue’s records and ours, market by market (a venue without per-account records lists none); null when the venue’s records could not be read now (Polymarket’s Data API), and then inSync is false.',
    }),
  }),
});

const BalanceType = builder.objectRef<Balance>('SubaccountBalance').implement({
  description: 'Cash, exposure and P&L of one subaccount.',
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    cashBalance: t.expose('cashBalance', { type: 'Decimal' }),
    reservedCash: t.expose('reservedCash', { type: 'Decimal', description: 'Held for open buy orders.' }),
    availableCash: t.expose('availableCash', { type: 'Decimal' }),
    positionsCost: t.expose('positionsCost', { type: 'Decimal' }),
    positionsValue: t.expose('positionsValue', { type: 'Decimal', description: 'Positions marked to mid (at cost where there is no mid).' }),
    unrealizedPnl: t.expose('unrealizedPnl', { type: 'Decimal' }),
    realizedPnl: t.expose('realizedPnl', { type: 'Decimal' }),
    realizedPnlToday: t.expose('realizedPnlToday', { type: 'Decimal', description: 'Since 00:00 UTC.' }),
    grossExposure: t.expose('grossExposure', { type: 'Decimal', description: 'Positions at cost plus open buy orders.' }),
    equity: t.expose('equity', { type: 'Decimal', description: 'Cash plus positions marked to mid.' }),
    venueAccounts: t.expose('venueAccounts', {
      type: [VenueAccountType],
      description: 'Live subaccounts: the accounts at the venues it has credentials for (their balances make up cashBalance); empty for test subaccounts.',
    }),
  }),
});

const PositionPage = pageOf('Position', PositionType);
const BalancePage = pageOf('SubaccountBalance', BalanceType);
// Balances: one per subaccount, a whole list in the API's list shape.
const onePage = <T>(data: T[]) => ({ data, hasMore: false, nextCursor: null });

builder.queryFields((t) => ({
  positions: t.field({
    type: PositionPage,
    args: { subaccountId: t.arg.string({ required: false }), marketId: t.arg.string({ required: false }), ...pageArgs },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: true });
      return listPositionsPage(ctx.db, ctx.venues, scope, args);
    },
  }),
  portfolio: t.field({
    type: BalancePage,
    args: { subaccountId: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: true });
      return onePage(await portfolio(ctx.db, ctx.venues, scope, args));
    },
  }),
}));

// The same figures on a subaccount, for analysts composing a portfolio in one query.
builder.prismaObjectFields('Subaccount', (t) => ({
  positions: t.field({
    type: [PositionType],
    resolve: (subaccount, _args, ctx) => listPositions(ctx.db, ctx.venues, requestScope(ctx), { subaccountId: subaccount.id }),
  }),
  balance: t.field({
    type: BalanceType,
    resolve: async (subaccount, _args, ctx) => (await portfolio(ctx.db, ctx.venues, requestScope(ctx), { subaccountId: subaccount.id }))[0],
  }),
}));
