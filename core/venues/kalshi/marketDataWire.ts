import { Decimal, formatDecimal } from '../../domain/decimals';
import type { Candle } from '../../domain/candles';
import type { PublicTrade, TakerSide } from '../../domain/publicTrades';
import type { MarketActivity } from '../../domain/quotes';
import type { OrderBookView } from '../venue';
import { recordOf } from '../wireRecords';

/**
 * Kalshi's public trades, candlesticks and market quotes (Trade API v2, openapi.yaml 3.28.0 as on
 * docs.kalshi.com 2026-08; a public GET /markets/trades recorded on demo 2026-06-15) read into our
 * terms. Pure: a field we cannot read makes the entry unreadable (null), never guessed.
 */

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;
const decimal = (value: unknown): string | null => {
  const text = str(value);
  return text !== null && DECIMAL.test(text) ? formatDecimal(new Decimal(text)) : null;
};

/**
 * One trade of `GET /markets/trades`: `{trade_id, ticker, count_fp, yes_price_dollars,
 * no_price_dollars, taker_side ('yes'|'no', deprecated; `taker_outcome_side` its successor),
 * created_time}`; null when unreadable.
 */
export function tradeFromKalshi(value: unknown): PublicTrade | null {
  const t = recordOf(value);
  const id = str(t?.trade_id);
  const price = decimal(t?.yes_price_dollars);
  const quantity = decimal(t?.count_fp);
  const side = str(t?.taker_outcome_side) ?? str(t?.taker_side);
  const created = str(t?.created_time);
  const executedAt = created === null ? null : new Date(created);
  if (id === null || price === null || quantity === null || (side !== 'yes' && side !== 'no') || executedAt === null || Number.isNaN(executedAt.getTime())) return null;
  return { id, yesPrice: price, quantity, takerSide: side as TakerSide, executedAt };
}

/**
 * One candlestick of `GET /series/{series}/markets/{ticker}/candlesticks`: `end_period_ts` (unix
 * s; the candle covers the period ending then), `price.{open,high,low,close}_dollars` (null when
 * nothing traded in the period: such a candle is left out, as ours are), `volume_fp`,
 * `open_interest_fp`. Null when left out or unreadable.
 */
export function candleFromKalshi(value: unknown, periodMs: number): Candle | null {
  const c = recordOf(value);
  const price = recordOf(c?.price);
  const end = typeof c?.end_period_ts === 'number' && Number.isInteger(c.end_period_ts) ? c.end_period_ts * 1000 : null;
  const [open, high, low, close] = ['open_dollars', 'high_dollars', 'low_dollars', 'close_dollars'].map((field) => decimal(price?.[field]));
  if (end === null || open == null || high == null || low == null || close == null) return null;
  return { start: new Date(end - periodMs), end: new Date(end), open, high, low, close, volume: decimal(c?.volume_fp), openInterest: decimal(c?.open_interest_fp) };
}

/**
 * The quote fields of a market of `GET /markets` (`yes_bid_dollars` with `yes_bid_size_fp`,
 * `yes_ask_dollars` with `yes_ask_size_fp`; a side nobody quotes reads "0.0000" / "1.0000" with
 * size "0.00"), `last_price_dollars` ("0.0000" before the first trade, then read with
 * `volume_fp` "0.00"), `volume_fp`, `volume_24h_fp`, `open_interest_fp`.
 */
export function quoteFromKalshiMarket(value: unknown): { book: Pick<OrderBookView, 'bids' | 'asks'>; activity: MarketActivity } | null {
  const m = recordOf(value);
  if (m === null) return null;
  const level = (price: unknown, size: unknown) => {
    const p = decimal(price);
    const q = decimal(size);
    return p !== null && q !== null && new Decimal(q).gt(0) ? [{ price: p, quantity: q }] : [];
  };
  const volume = decimal(m.volume_fp);
  const traded = volume !== null && new Decimal(volume).gt(0);
  return {
    book: { bids: level(m.yes_bid_dollars, m.yes_bid_size_fp), asks: level(m.yes_ask_dollars, m.yes_ask_size_fp) },
    activity: { lastPrice: traded ? decimal(m.last_price_dollars) : null, volume, volume24h: decimal(m.volume_24h_fp), openInterest: decimal(m.open_interest_fp) },
  };
}
