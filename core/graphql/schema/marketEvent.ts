import { getMarketEvent, marketsOfEvent, MAX_EVENT_MARKETS, searchMarketEvents } from '../../services/catalog/marketEvents';
import { venueName } from '../../venues/venueModules';
import { builder } from '../builder';
import { requestScope } from '../context';
import { VenueEnum } from './enums';
import { MarketType } from './market';
import { pageArgs, pageOf } from './page';

export const MarketEventType = builder.prismaObject('MarketEvent', {
  description: 'Markets grouped as their venue groups them: a Kalshi event (of a series), a Polymarket event, a simulated venue’s group (docs/market-data.md, "Events").',
  fields: (t) => ({
    id: t.exposeID('id'),
    venue: t.string({ description: 'sim-kalshi, sim-polymarket, kalshi or polymarket.', resolve: (e) => venueName(e.venue) }),
    venueEventId: t.exposeString('venueEventId', { description: 'The venue’s own id: Kalshi event ticker, Polymarket (Gamma) event id.' }),
    seriesKey: t.exposeString('seriesKey', { nullable: true, description: 'Kalshi’s series ticker; null elsewhere.' }),
    title: t.exposeString('title'),
    category: t.exposeString('category'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    markets: t.field({
      type: [MarketType],
      // At most MAX_EVENT_MARKETS: counted as such by the analysts' cost limit.
      complexity: { field: 1, multiplier: MAX_EVENT_MARKETS },
      description: `Its markets the caller sees, in id order, at most ${MAX_EVENT_MARKETS}.`,
      resolve: (event, _args, ctx) => marketsOfEvent(ctx.db, requestScope(ctx), event.id),
    }),
  }),
});

const MarketEventPage = pageOf('MarketEvent', MarketEventType);

builder.queryFields((t) => ({
  marketEvents: t.field({
    type: MarketEventPage,
    description: 'The venues’ events of the environment: every word of q as a prefix over title, event id and category; exact filters.',
    args: {
      q: t.arg.string({ required: false }),
      venue: t.arg({ type: VenueEnum, required: false }),
      category: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: (_root, args, ctx) => searchMarketEvents(ctx.db, requestScope(ctx), args),
  }),
  marketEvent: t.field({
    type: MarketEventType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getMarketEvent(ctx.db, requestScope(ctx), String(args.id)),
  }),
}));
