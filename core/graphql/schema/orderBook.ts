import type { BookLevelView } from '../../domain/orderBookView';
import type { SideBook } from '../../domain/bookSides';
import { marketOrderBook, type MarketOrderBook } from '../../services/marketData/orderBooks';
import { builder } from '../builder';
import { requestScope } from '../context';

const BookLevelType = builder.objectRef<BookLevelView>('BookLevel').implement({
  description: 'One price level: the price in dollars per contract of this outcome, and the contracts resting there.',
  fields: (t) => ({
    price: t.expose('price', { type: 'Decimal' }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
  }),
});

const SideBookType = builder.objectRef<SideBook>('SideBook').implement({
  description: 'One outcome’s book: bids best (highest) first, asks best (lowest) first.',
  fields: (t) => ({
    bids: t.expose('bids', { type: [BookLevelType] }),
    asks: t.expose('asks', { type: [BookLevelType] }),
  }),
});

const OrderBookType = builder.objectRef<MarketOrderBook>('OrderBook').implement({
  description:
    'A market’s book read from its venue now, in the terms of each outcome: a NO bid at p is a YES ask at 1 - p, so the two views are one book and always agree (docs/market-data.md).',
  fields: (t) => ({
    marketId: t.exposeID('marketId'),
    venue: t.exposeString('venue'),
    venueMarketId: t.exposeString('venueMarketId'),
    yes: t.expose('yes', { type: SideBookType }),
    no: t.expose('no', { type: SideBookType }),
    mid: t.expose('mid', { type: 'Decimal', nullable: true, description: 'The YES mid; null without a two-sided book.' }),
    asOf: t.expose('asOf', { type: 'DateTime', description: 'The book’s last change where the venue says (a simulated venue, a live venue’s feed), else when it was read.' }),
    stale: t.exposeBoolean('stale', { description: 'True only when the venue cannot be read now and the last book its feed gave is answered (its as_of says how old).' }),
  }),
});

builder.queryField('orderBook', (t) =>
  t.field({
    type: OrderBookType,
    description: 'A market’s order book now, both outcomes’ views, `depth` levels a side.',
    args: {
      marketId: t.arg.id({ required: true }),
      depth: t.arg.int({ required: false, description: 'Levels a side, 1 to 100; 10 when left out.' }),
    },
    resolve: (_root, args, ctx) => marketOrderBook(ctx.db, ctx.venues, requestScope(ctx), String(args.marketId), args.depth),
  }),
);
