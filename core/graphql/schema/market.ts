import type { MarketQuote } from '../../domain/quotes';
import { venueName } from '../../venues/venueModules';
import { getMarket, searchMarkets } from '../../services/catalog/markets';
import { builder } from '../builder';
import { requestScope } from '../context';
import { MarketResultEnum, MarketSortEnum, MarketStatusEnum, VenueEnum } from './enums';
import { pageArgs, pageOf } from './page';

type QuoteDecimal = Exclude<keyof MarketQuote, 'asOf' | 'stale'>;

export const MarketType = builder.prismaObject('Market', {
  fields: (t) => {
    /** One decimal field of the market's quote, from the page's quote loader. */
    const quote = (field: QuoteDecimal, description: string) =>
      t.field({ type: 'Decimal', nullable: true, description, resolve: async (m, _args, ctx) => (await ctx.loaders.marketQuote.load(m))[field] });
    return {
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
      eventId: t.exposeID('eventId', { nullable: true, description: 'The venue’s event it belongs to (marketEvent(id)); null when the venue names none.' }),
      // The quote (docs/market-data.md, "Quotes"): read together for a page of markets (loaders.ts), only when selected.
      yesBid: quote('yesBid', 'The best YES bid, dollars; null when no one bids.'),
      yesAsk: quote('yesAsk', 'The best YES ask; null when no one offers.'),
      noBid: quote('noBid', 'The best NO bid: 1 - yesAsk (a NO bid at p is a YES ask at 1 - p).'),
      noAsk: quote('noAsk', 'The best NO ask: 1 - yesBid.'),
      yesBidSize: quote('yesBidSize', 'Contracts at the best YES bid.'),
      yesAskSize: quote('yesAskSize', 'Contracts at the best YES ask.'),
      noBidSize: quote('noBidSize', 'Contracts at the best NO bid (those of the best YES ask).'),
      noAskSize: quote('noAskSize', 'Contracts at the best NO ask (those of the best YES bid).'),
      lastPrice: quote('lastPrice', 'The YES price of the last trade; null before the first.'),
      volume24h: quote('volume24h', 'Contracts traded in the last 24 hours.'),
      volume: quote('volume', 'Contracts traded since the market opened.'),
      openInterest: quote('openInterest', 'Contracts outstanding, where the venue gives it; null on the simulated venues.'),
      asOf: t.field({
        type: 'DateTime', nullable: true, description: 'The time of the book behind the quote (its last change where the venue says, else when it was read); null when it could not be read.',
        resolve: async (m, _args, ctx) => (await ctx.loaders.marketQuote.load(m)).asOf,
      }),
      stale: t.boolean({
        description: 'True when the quote could not be read fresh from the venue: its book fields are then null, never made up.',
        resolve: async (m, _args, ctx) => (await ctx.loaders.marketQuote.load(m)).stale,
      }),
    };
  },
});

const MarketPage = pageOf('Market', MarketType);

builder.queryFields((t) => ({
  markets: t.field({
    type: MarketPage,
    description: 'Full-text search over title, ticker, category and description, with exact filters; or the most traded first (sort: volume).',
    args: {
      q: t.arg.string({ required: false }),
      venue: t.arg({ type: VenueEnum, required: false }),
      status: t.arg({ type: MarketStatusEnum, required: false }),
      category: t.arg.string({ required: false }),
      sort: t.arg({ type: MarketSortEnum, required: false, description: 'volume: most contracts traded first; left out: by rank with q, catalog order without.' }),
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
