import { CANDLE_INTERVALS, MAX_CANDLE_PERIODS } from '../../contract/inputBounds';
import { invalidRequest } from './errors';

/** 1m, 1h or 1d (docs/market-data.md, "Candles"). */
export type CandleInterval = keyof typeof CANDLE_INTERVALS;
/** The periods a read spans when `from` is left out. */
export const DEFAULT_CANDLE_PERIODS = 100;

/**
 * One period of a market's price (docs/market-data.md): YES prices of the trades in it, first,
 * highest, lowest, last; the contracts traded; the venue's open interest at its end where the
 * venue gives it (null otherwise). `volume` is null where the venue gives prices without sizes.
 */
export interface Candle {
  readonly start: Date;
  readonly end: Date;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string | null;
  readonly openInterest: string | null;
}

export function isCandleInterval(value: unknown): value is CandleInterval {
  return typeof value === 'string' && Object.hasOwn(CANDLE_INTERVALS, value);
}

/**
 * The periods a candle read covers: from the period holding `from` to the one holding `to` (now
 * when left out), both whole, `from` 100 periods before `to` when left out; periods start at whole UTC
 * minutes, hours and days. Refuses an unknown interval, `from` not before `to`, and a window of
 * more than 1,000 periods. Pure.
 */
export function candleWindow(interval: string, from: Date | null | undefined, to: Date | null | undefined, now: Date): { interval: CandleInterval; from: Date; to: Date } {
  if (!isCandleInterval(interval)) throw invalidRequest('interval', `interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}.`);
  const step = CANDLE_INTERVALS[interval];
  const end = (Math.floor((to ?? now).getTime() / step) + 1) * step;
  const start = from ? Math.floor(from.getTime() / step) * step : end - DEFAULT_CANDLE_PERIODS * step;
  if (start >= end) throw invalidRequest('from', 'from must be earlier than to.');
  if ((end - start) / step > MAX_CANDLE_PERIODS) throw invalidRequest('from', `A candle read spans at most ${MAX_CANDLE_PERIODS} periods of its interval; narrow from and to.`);
  return { interval, from: new Date(start), to: new Date(end) };
}
