import { createHash } from 'node:crypto';
import type { Candle } from '../../domain/candles';
import { Decimal, formatDecimal } from '../../domain/decimals';
import { takerSideOf, yesPriceOf, type PublicTrade } from '../../domain/publicTrades';
import { recordOf } from '../wireRecords';

/**
 * Polymarket's public trades (Data API `GET /trades`, data-openapi.yaml as of 2026-10) and price
 * history (CLOB V2 `GET /prices-history`, clob-openapi.yaml getPricesHistory) read into our terms.
 * Pure: an entry we cannot read is null, never guessed.
 */

/** A JSON number (the Data API and the price history send numbers) or a decimal string, as a decimal string. */
function decimalOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return formatDecimal(new Decimal(String(value)));
  if (typeof value === 'string' && /^\d{1,12}(\.\d{1,12})?$/.test(value)) return formatDecimal(new Decimal(value));
  return null;
}

/**
 * One row of `GET /trades?market=<condition id>&takerOnly=true`: the taker's side (`BUY`/`SELL`)
 * of the outcome token it traded (`outcome` "Yes"/"No", `outcomeIndex` 0/1), its average `price`
 * and `size` (numbers), `timestamp` (unix s), `transactionHash`. The id is a digest of the row's
 * identity (the Data API gives none). Null when unreadable.
 */
export function tradeFromDataApi(value: unknown): PublicTrade | null {
  const t = recordOf(value);
  const price = decimalOf(t?.price);
  const size = decimalOf(t?.size);
  const side = t?.side === 'BUY' ? 'buy' : t?.side === 'SELL' ? 'sell' : null;
  const outcome = t?.outcomeIndex === 0 || t?.outcome === 'Yes' ? 'yes' : t?.outcomeIndex === 1 || t?.outcome === 'No' ? 'no' : null;
  const seconds = typeof t?.timestamp === 'number' && Number.isInteger(t.timestamp) ? t.timestamp : null;
  if (t === null || price === null || size === null || side === null || outcome === null || seconds === null || new Decimal(price).gt(1)) return null;
  const identity = [t.transactionHash, t.asset, t.side, t.price, t.size, t.timestamp, t.proxyWallet].map(String).join('|');
  return {
    id: `pm_${createHash('sha256').update(identity).digest('hex').slice(0, 24)}`,
    yesPrice: yesPriceOf(outcome, price),
    quantity: size,
    takerSide: takerSideOf(outcome, side),
    executedAt: new Date(seconds * 1000),
  };
}

/**
 * Candles of [from, to) in periods of `periodMs` from a price history's points (`{history: [{t, p}]}`,
 * `t` unix s, `p` the token's displayed price: its midpoint, or its last trade when the spread is
 * wider than 0.10): open, high, low and close of the points in each period; no sizes (volume null)
 * and no open interest. A period without a point is left out. Null when the body cannot be read.
 */
export function candlesFromHistory(body: unknown, periodMs: number, from: Date, to: Date): Candle[] | null {
  const history = recordOf(body)?.history;
  if (!Array.isArray(history)) return null;
  const byPeriod = new Map<number, string[]>();
  for (const point of history) {
    const p = recordOf(point);
    const price = decimalOf(p?.p);
    if (typeof p?.t !== 'number' || !Number.isFinite(p.t) || price === null) return null;
    const at = p.t * 1000;
    if (at < from.getTime() || at >= to.getTime()) continue;
    const start = Math.floor(at / periodMs) * periodMs;
    byPeriod.set(start, [...(byPeriod.get(start) ?? []), price]);
  }
  return [...byPeriod.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, prices]) => {
      const sorted = [...prices].sort((a, b) => new Decimal(a).comparedTo(b));
      return { start: new Date(start), end: new Date(start + periodMs), open: prices[0]!, high: sorted[sorted.length - 1]!, low: sorted[0]!, close: prices[prices.length - 1]!, volume: null, openInterest: null };
    });
}
