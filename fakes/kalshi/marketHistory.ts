/**
 * What one market of the fake remembers of its past, for the market-data shapes that look back:
 * its public trades, every change of its top of book, and its open interest over time. The
 * candlesticks (candlesticks.ts) and the market's `volume_24h_fp` / `previous_*` fields
 * (markets.ts) are computed from it; nothing here is a Kalshi shape.
 *
 * The exchange records a quote point after every change of a book level and an open-interest
 * point after every match and settlement, stamped with its clock, so the history is exactly the
 * fake's own book and fills.
 */
import type { BookLevel } from '../../core/domain/matching';
import type { PublicTradeRecord } from './records';

/** The top of the YES book at one moment; null price = that side empty. */
export interface TopOfBook {
  readonly bidTicks: number | null;
  readonly bidUnits: number;
  readonly askTicks: number | null;
  readonly askUnits: number;
}

export interface QuotePoint extends TopOfBook {
  readonly ms: number;
}

const EMPTY_TOP: TopOfBook = { bidTicks: null, bidUnits: 0, askTicks: null, askUnits: 0 };

export function topOfBook(bestBid: BookLevel | undefined, bestAsk: BookLevel | undefined): TopOfBook {
  return {
    bidTicks: bestBid?.priceTicks ?? null,
    bidUnits: bestBid?.quantity ?? 0,
    askTicks: bestAsk?.priceTicks ?? null,
    askUnits: bestAsk?.quantity ?? 0,
  };
}

const sameTop = (a: TopOfBook, b: TopOfBook): boolean =>
  a.bidTicks === b.bidTicks && a.bidUnits === b.bidUnits && a.askTicks === b.askTicks && a.askUnits === b.askUnits;

/** Last element with `ms <= atMs` of a list in time order. */
function lastAtOrBefore<T>(items: readonly T[], atMs: number, msOf: (item: T) => number): T | undefined {
  for (let i = items.length - 1; i >= 0; i -= 1) if (msOf(items[i]!) <= atMs) return items[i];
  return undefined;
}

export class MarketHistory {
  readonly trades: PublicTradeRecord[] = [];
  private readonly quotes: QuotePoint[] = [];
  private readonly openInterest: { readonly ms: number; readonly units: number }[] = [];

  /** The market starts with an empty book and no open interest. */
  constructor(readonly createdMs: number) {
    this.quotes.push({ ms: createdMs, ...EMPTY_TOP });
    this.openInterest.push({ ms: createdMs, units: 0 });
  }

  /** Appends the top of book when it differs from the last one recorded. */
  recordQuote(ms: number, top: TopOfBook): void {
    if (!sameTop(this.quotes[this.quotes.length - 1]!, top)) this.quotes.push({ ms, ...top });
  }

  recordOpenInterest(ms: number, units: number): void {
    if (this.openInterest[this.openInterest.length - 1]!.units !== units) this.openInterest.push({ ms, units });
  }

  recordTrade(trade: PublicTradeRecord): void {
    this.trades.push(trade);
  }

  /** The top of book in force at `atMs` (empty before the market existed). */
  quoteAt(atMs: number): TopOfBook {
    return lastAtOrBefore(this.quotes, atMs, (q) => q.ms) ?? EMPTY_TOP;
  }

  /** Quote changes with `fromMs < ms <= toMs`, in time order. */
  quotesWithin(fromMs: number, toMs: number): QuotePoint[] {
    return this.quotes.filter((q) => q.ms > fromMs && q.ms <= toMs);
  }

  openInterestAt(atMs: number): number {
    return lastAtOrBefore(this.openInterest, atMs, (p) => p.ms)?.units ?? 0;
  }

  /** Trades with `fromMs < createdMs <= toMs`, oldest first. */
  tradesWithin(fromMs: number, toMs: number): PublicTradeRecord[] {
    return this.trades.filter((t) => t.createdMs > fromMs && t.createdMs <= toMs);
  }

  lastTradeAtOrBefore(atMs: number): PublicTradeRecord | undefined {
    return lastAtOrBefore(this.trades, atMs, (t) => t.createdMs);
  }

  /** Contracts (in hundredths) traded after `sinceMs`. */
  unitsTradedAfter(sinceMs: number): number {
    return this.trades.reduce((sum, t) => (t.createdMs > sinceMs ? sum + t.units : sum), 0);
  }
}
