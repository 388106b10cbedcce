import type { MarketQuote } from '../../domain/quotes';
import type { Market } from '../../generated/prisma/client';
import type { Loaders } from '../loaders';
import { venueName } from '../../venues/venueModules';
import { getMarket, searchMarkets } from '../../services/catalog/markets';
import { builder } from '../builder';
import { requestScope } from '../context';
import { MarketResultEnum, MarketSortEnum, MarketStatusEnum, VenueEnum } from './enums';
import { pageArgs, pageOf } from './page';

type QuoteDecimal = Exclude<keyof MarketQuote, 'asOf' | 'stale'>;

/** One decimal field of a market's quote, from the page's quote loader. */
function quote(t: any, field: QuoteDecimal, description: string) {
  return t.field({ type: 'Decimal', nullable: true, description, resolve: async (m: Market, _args: unknown, ctx: { loaders: Loaders }) => (await ctx.loaders.marketQuote.load(m))[field] });
}

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
    eventId: t.exposeID('eventId', { nullable: true, description: 'The venue’s event it belongs to (marketEvent(id)); null when the venue names none.' }),
    // The quote (docs/market-data.md, "Quotes"): read together for a page of markets (loaders.ts), only when selected.
    yesBid: quote(t, 'yesBid', 'The best YES bid, dollars; null when no one bids.'),
    yesAsk: quote(t, 'yesAsk', 'The best YES ask; null when no one offers.'),
    noBid: quote(t, 'noBid', 'The best NO bid: 1 - yesAsk (a NO bid at p is a YES ask at 1 - p).'),
    noAsk: quote(t, 'noAsk', 'The best NO ask: 1 - yesBid.'),
    yesBidSize: quote(t, 'yesBidSize', 'Contracts at the best YES bid.'),
    yesAskSize: quote(t, 'yesAskSize', 'Contracts at the best YES ask.'),
    noBidSize: quote(t, 'noBidSize', 'Contracts at the best NO bid (those of the best YES ask).'),
    noAskSize: quote(t, 'noAskSize', 'Contracts at the best NO ask (those of the best YES bid).'),
    lastPrice: quote(t, 'lastPrice', 'The YES price of the last trade; null before the first.'),
    volume24h: quote(t, 'volume24h', 'Contracts traded in the last 24 hours.'),
    volume: quote(t, 'volume', 'Contracts traded since the market opened.'),
    openInterest: quote(t, 'openInterest', 'Contracts outstanding, where the venue gives it; null on the simulated venues.'),
    asOf: t.field({
      type: 'DateTime', nullable: true, description: 'When the book behind the quote was read from the venue; null when it could not be.',
      resolve: async (m, _args, ctx) => (await ctx.loaders.marketQuote.load(m)).asOf,
    }),
    stale: t.boolean({
      description: 'True when the quote could not be read fresh from the venue: its book fields are then null, never made up.',
      resolve: async (m, _args, ctx) => (await ctx.loaders.marketQuote.load(m)).stale,
    }),
  }),
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
