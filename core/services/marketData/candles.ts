import type { Db } from '../../db/prismaClient';
import { candleWindow, type Candle, type CandleInterval } from '../../domain/candles';
import type { VenueRegistry } from '../../venues/venue';
import type { Scope } from '../scope';
import { marketWithData } from './marketSource';
import { ourCandles } from './ourTape';

export interface MarketCandles {
  marketId: string;
  interval: CandleInterval;
  from: Date;
  to: Date;
  candles: Candle[];
}

/**
 * A market's OHLCV candles in YES prices (docs/market-data.md, "Candles"): the venue's own, read
 * now, or built from our tape of a simulated venue. Periods with no trade are left out.
 */
export async function marketCandles(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  marketId: string,
  query: { interval: string; from?: Date | null; to?: Date | null },
  now: Date = new Date(),
): Promise<MarketCandles> {
  const window = candleWindow(query.interval, query.from, query.to, now);
  const { market, data } = await marketWithData(db, venues, scope, marketId, 'its candles');
  const candles = data.candles
    ? await data.candles(market, window.interval, window.from, window.to)
    : await ourCandles(db, market.id, window.interval, window.from, window.to);
  return { marketId: market.id, ...window, candles };
}
