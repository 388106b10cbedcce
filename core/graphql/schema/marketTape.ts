import { candleIntervalOfName, MAX_CANDLE_PERIODS } from '../../../contract/inputBounds';
import { CandleIntervalEnum } from './enums';
import type { Candle } from '../../domain/candles';
import type { PublicTrade } from '../../domain/publicTrades';
import { marketCandles, type MarketCandles } from '../../services/marketData/candles';
import { marketTrades } from '../../services/marketData/trades';
import { builder } from '../builder';
import { requestScope } from '../context';
import { pageArgs, pageOf } from './page';

const TradeType = builder.objectRef<PublicTrade>('Trade').implement({
  description: 'One trade on a market’s public tape: price in YES terms (the NO price is 1 minus it), contracts, the outcome its taker bought, when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    price: t.expose('yesPrice', { type: 'Decimal', description: 'The YES price, dollars.' }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    takerSide: t.exposeString('takerSide', { description: 'yes or no: the outcome the taker bought (a taker selling YES bought NO).' }),
    executedAt: t.expose('executedAt', { type: 'DateTime' }),
  }),
});

const CandleType = builder.objectRef<Candle>('Candle').implement({
  description: 'One period of a market’s YES price: first, highest, lowest and last trade, contracts traded, open interest at its end where the venue gives it.',
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime' }),
    end: t.expose('end', { type: 'DateTime' }),
    open: t.expose('open', { type: 'Decimal' }),
    high: t.expose('high', { type: 'Decimal' }),
    low: t.expose('low', { type: 'Decimal' }),
    close: t.expose('close', { type: 'Decimal' }),
    volume: t.expose('volume', { type: 'Decimal', nullable: true, description: 'Contracts traded; null where the venue gives prices without sizes.' }),
    openInterest: t.expose('openInterest', { type: 'Decimal', nullable: true, description: 'Null where the venue does not give it (the simulated venues).' }),
  }),
});

const CandlesType = builder.objectRef<MarketCandles>('MarketCandles').implement({
  fields: (t) => ({
    marketId: t.exposeID('marketId'),
    interval: t.exposeString('interval', { description: '1m, 1h or 1d (the argument’s minute, hour or day).' }),
    from: t.expose('from', { type: 'DateTime', description: 'The first period’s start.' }),
    to: t.expose('to', { type: 'DateTime', description: 'The last period’s end.' }),
    // At most 1,000 periods (domain/candles.ts): counted as such by the analysts' cost limit.
    candles: t.expose('candles', { type: [CandleType], complexity: { field: 1, multiplier: MAX_CANDLE_PERIODS }, description: 'Oldest first; a period without a trade is left out.' }),
  }),
});

const TradePage = pageOf('Trade', TradeType);

builder.queryFields((t) => ({
  marketTrades: t.field({
    type: TradePage,
    description: 'A market’s public trades, newest first: the venue’s own tape, or our fills’ on a simulated venue (docs/market-data.md).',
    args: {
      marketId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: false, description: 'At or after (inclusive).' }),
      until: t.arg({ type: 'DateTime', required: false, description: 'Before (exclusive).' }),
      ...pageArgs,
    },
    resolve: (_root, args, ctx) => marketTrades(ctx.db, ctx.venues, requestScope(ctx), String(args.marketId), args),
  }),
  marketCandles: t.field({
    type: CandlesType,
    description: 'A market’s OHLCV candles of 1m, 1h or 1d in YES prices, oldest first (docs/market-data.md).',
    args: {
      marketId: t.arg.id({ required: true }),
      interval: t.arg({ type: CandleIntervalEnum, required: true }),
      from: t.arg({ type: 'DateTime', required: false, description: 'From this period on; 100 periods before `to` when left out.' }),
      to: t.arg({ type: 'DateTime', required: false, description: 'Up to the end of this period; now when left out. At most 1,000 periods.' }),
    },
    resolve: (_root, args, ctx) => marketCandles(ctx.db, ctx.venues, requestScope(ctx), String(args.marketId), { ...args, interval: candleIntervalOfName(args.interval) }),
  }),
}));
