import type { Db } from '../../db/prismaClient';
import { candleWindow, type Candle, type CandleInterval } from '../../domain/candles';
import { DomainError } from '../../domain/errors';
import type { VenueRegistry } from '../../venues/venue';
import { venueName } from '../../venues/venueModules';
import { getMarket } from '../catalog/markets';
import type { Scope } from '../scope';
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
  const market = await getMarket(db, scope, marketId);
  const data = venues.marketData(market.venue);
  if (!data) throw new DomainError('venue_unavailable', `The venue ${venueName(market.venue)} is not running here: its candles cannot be read.`);
  const candles = data.candles
    ? await data.candles(market, window.interval, window.from, window.to)
    : await ourCandles(db, market.id, window.interval, window.from, window.to);
  return { marketId: market.id, ...window, candles };
}
