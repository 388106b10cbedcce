import { venueName } from '../../venues/venueModules';
import { getMarket, searchMarkets } from '../../services/catalog/markets';
import { builder } from '../builder';
import { requestScope } from '../context';
import { MarketResultEnum, MarketStatusEnum, VenueEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const MarketType = builder.prismaObject('Market', {
  fields: (t) => ({
    id: t.exposeID('id'),
    venue: t.string({ description: 'sim-kalshi, sim-polymarket, kalshi or polymarket.', resolve: (m) => venueName(m.venue) }),
    venueMarketId: t.exposeString('venueMarketId', { description: "The venue's own id (Kalshi ticker, Polymarket token)." }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    category: t.exposeString('category'),
    status: t.expose('status', { type: MarketStatusEnum }),
    tickSize: t.expose('tickSize', { type: 'Decimal' }),
    minSize: t.expose('minSize', { type: 'Decimal' }),
    closeTime: t.expose('closeTime', { type: 'DateTime', nullable: true, description: 'When trading is scheduled to close, when the venue says.' }),
    result: t.expose('result', { type: MarketResultEnum, nullable: true, description: 'How it resolved (yes, no, scalar, void); null until determined.' }),
    settlementValue: t.expose('settlementValue', { type: 'Decimal', nullable: true, description: 'Dollars a YES contract pays (a NO contract pays 1 minus it); null until determined, and when void (the cost is returned).' }),
    settledAt: t.expose('settledAt', { type: 'DateTime', nullable: true, description: 'When its positions were settled.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const MarketPage = pageOf('Market', MarketType);

builder.queryFields((t) => ({
  markets: t.field({
    type: MarketPage,
    description: 'Full-text search over title, ticker, category and description, with exact filters.',
    args: {
      q: t.arg.string({ required: false }),
      venue: t.arg({ type: VenueEnum, required: false }),
      status: t.arg({ type: MarketStatusEnum, required: false }),
      category: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: (_root, args, ctx) => searchMarkets(ctx.db, requestScope(ctx), args),
  }),
  // t.field, not t.prismaField: a market has no relations to select, and its row is read over pg directly.
  market: t.field({
    type: MarketType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getMarket(ctx.db, requestScope(ctx), String(args.id)),
  }),
}));
