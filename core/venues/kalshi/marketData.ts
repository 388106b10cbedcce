import { DomainError, invalidRequest } from '../../domain/errors';
import type { KalshiEnvironment } from '../../domain/credentialShapes';
import { Decimal, formatDecimal, parseDecimalString } from '../../domain/decimals';
import { PRICE_TICKS_PER_DOLLAR, priceToTicks, quantityToUnits, ticksToPrice, unitsToQuantity } from '../../domain/matching/units';
import { readPriceRanges, type KalshiPriceRange } from '../../domain/venueRules';
import { CANDLE_INTERVALS, DEFAULT_BOOK_DEPTH } from '../../../contract/inputBounds';
import type { Candle, CandleInterval } from '../../domain/candles';
import { type BookLevelView, type MarketData, type OrderBookView, type VenueMarketRef, type VenueQuote, type VenueTradesPage } from '../venue';
import { candleFromKalshi, quoteFromKalshiMarket, tradeFromKalshi } from './marketDataWire';
import { kalshiEndpoints } from './endpoints';
import { KalshiSession, type KalshiBackoff, type KalshiOutcome, type KalshiSessionSettings } from './session';
import { KALSHI_RATE_TIERS, type KalshiRateTier } from './tokenBuckets';
import { recordOf, type WireRecord } from '../wireRecords';

/**
 * Kalshi's public market data for one environment (Trade API v2, as of 2026-08; docs/VENUES.md,
 * docs/kalshi.md "Live catalog"): unsigned reads of `GET /markets`, `GET /markets/{ticker}/orderbook`,
 * `GET /series/{ticker}` and `GET /events/{event_ticker}`. It is a `KalshiSession` without a signer:
 * its own keep-alive pool to the environment's base URL, a timeout on every call, its own read
 * token bucket and the session's 429 backoff. Nothing here logs.
 *
 * Errors are DomainErrors: `venue_unavailable` when Kalshi cannot be reached, does not answer in
 * time, answers 5xx or 429 after the backoff, refuses a read (Kalshi's code kept in the message,
 * errors.ts) or answers a body we cannot read; `market_not_tradable` for an order book of a market
 * Kalshi does not know (404).
 */

/** Order book levels as Kalshi sends them (`orderbook_fp`): `[price_dollars, count_fp]` string pairs, bids only, best bid LAST. */
type WireLevels = readonly (readonly [string, string])[];

/** A market of `GET /markets`, read into our terms. */
export interface KalshiListedMarket {
  readonly ticker: string;
  readonly eventTicker: string;
  /** When the market carries `series_ticker`; otherwise its event says (`event()`). */
  readonly seriesTicker: string | null;
  readonly title: string;
  /** `yes_sub_title`, else `subtitle`; "" when neither is sent. */
  readonly subtitle: string;
  readonly rulesPrimary: string;
  /** Kalshi's market status as sent: `initialized`, `inactive`, `active`, `closed`, `determined`, `settled`, `finalized`. */
  readonly status: string;
  readonly closeTime: Date | null;
  /** `price_ranges` exactly as Kalshi wrote them (YES prices); null when absent or not `[{start, end, step}]` strings. */
  readonly priceRanges: KalshiPriceRange[] | null;
  /** `fractional_trading_enabled`: counts in steps of 0.01 contract. */
  readonly fractionalTrading: boolean;
  /** `volume_fp` as a decimal string; null when not sent. */
  readonly volume: string | null;
}

/** A series (`GET /series/{ticker}`): its fee schedule and category. */
export interface KalshiSeries {
  readonly ticker: string;
  readonly category: string;
  /** `quadratic`, `quadratic_with_maker_fees`, `flat`, ...; null when not sent. */
  readonly feeType: string | null;
  /** `fee_multiplier` as a decimal string (Kalshi sends a JSON number; read once, here); null when not sent. */
  readonly feeMultiplier: string | null;
}

/** An event (`GET /events/{event_ticker}`, `GET /events`): its title, the series it belongs to and, where Kalshi sends it, its category. */
export interface KalshiEvent {
  readonly eventTicker: string;
  readonly seriesTicker: string | null;
  readonly category: string;
  /** `title`; the event ticker when Kalshi sends none. */
  readonly title: string;
}

const readEvent = (event: WireRecord, eventTicker: string): KalshiEvent => ({
  eventTicker,
  seriesTicker: str(event.series_ticker) || null,
  category: str(event.category) ?? '',
  title: str(event.title) || eventTicker,
});

export interface KalshiMarketsQuery {
  /** The `status` filter of GET /markets (`unopened`, `open`, `paused`, `closed`, `settled`); none: every status. */
  readonly status?: string;
  /** Only these tickers (`tickers=`, comma-separated). */
  readonly tickers?: readonly string[];
  /** Markets per page, 1..1000 (Kalshi's bound); 1000 by default. */
  readonly limit?: number;
}

export interface KalshiMarketDataOptions {
  /** The environment's REST base, ending in `/trade-api/v2`. */
  readonly restUrl: string;
  /** The limit for connecting and for the whole request, each call; also the longest wait for read tokens. */
  readonly timeoutMs: number;
  /** Kalshi's read rate for our calls (unsigned reads are paced like a key's reads). */
  readonly tier: KalshiRateTier;
  readonly backoff?: KalshiBackoff;
  readonly connections?: number;
}

export const KALSHI_MAX_PAGE = 1000;
/** Kalshi's orderbook `depth` accepts 1..100; 0 asks for every level. */
const KALSHI_MAX_DEPTH = 100;
const CONTRACT_UNITS = 100;
/** Markets a quote read asks for at once (`tickers=`). */
const QUOTE_BATCH = 100;
/** Events a page of `GET /events` asks for (Kalshi's most). */
const EVENTS_PAGE = 200;
/** Markets whose series is kept. */
const SERIES_CACHE_SIZE = 10_000;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function unreadable(what: string): DomainError {
  return new DomainError('venue_unavailable', `Kalshi answered ${what} with a body we cannot read.`);
}

/** A refusal of a public read is not the caller's fault: the venue is unavailable to us; Kalshi's code stays in the message. */
function readFailure(outcome: Exclude<KalshiOutcome, { kind: 'answered' }>): DomainError {
  if (outcome.kind === 'refused' && outcome.error.code !== 'venue_unavailable') {
    return new DomainError('venue_unavailable', `Kalshi market data unavailable: ${outcome.error.message}`);
  }
  return outcome.error;
}

function readLevels(value: unknown): WireLevels | null {
  if (value === null || value === undefined) return []; // an empty side may come as null
  if (!Array.isArray(value)) return null;
  const levels: (readonly [string, string])[] = [];
  for (const level of value) {
    if (!Array.isArray(level) || typeof level[0] !== 'string' || typeof level[1] !== 'string') return null;
    levels.push([level[0], level[1]]);
  }
  return levels;
}

/**
 * Kalshi's book (bids only, both legs, best bid last) as our YES book: YES bids become our bids,
 * best (highest) first; a NO bid at p is a YES ask at 1 − p, best (lowest) first. Prices as the
 * simulated venues print them (`ticksToPrice`: "0.4300"), counts with Kalshi's two decimals
 * ("10.00"), the mid as the simulated book computes it: (best bid + best ask) / 2, null when a side
 * is empty. Throws a RangeError on a price or count we cannot represent.
 */
export function bookFromKalshi(venueMarketId: string, yesBids: WireLevels, noBids: WireLevels, depth: number): OrderBookView {
  const level = (priceTicks: number, count: string): { priceTicks: number; view: BookLevelView } => ({
    priceTicks,
    view: { price: ticksToPrice(priceTicks), quantity: unitsToQuantity(quantityToUnits(count, CONTRACT_UNITS), CONTRACT_UNITS) },
  });
  const bids = [...yesBids].reverse().slice(0, depth).map(([price, count]) => level(priceToTicks(price), count));
  const asks = [...noBids].reverse().slice(0, depth).map(([price, count]) => level(PRICE_TICKS_PER_DOLLAR - priceToTicks(price), count));
  const mid = bids.length > 0 && asks.length > 0 ? ticksToPrice((bids[0]!.priceTicks + asks[0]!.priceTicks) / 2) : null;
  return { venueMarketId, bids: bids.map((l) => l.view), asks: asks.map((l) => l.view), mid };
}

function readMarket(value: unknown): KalshiListedMarket | null {
  const m = recordOf(value);
  const ticker = str(m?.ticker);
  const eventTicker = str(m?.event_ticker);
  if (m === null || ticker === null || ticker === '' || eventTicker === null) return null;
  const close = str(m.close_time);
  const closeTime = close === null ? null : new Date(close);
  return {
    ticker,
    eventTicker,
    seriesTicker: str(m.series_ticker) || null,
    title: str(m.title) || ticker,
    subtitle: str(m.yes_sub_title) || str(m.subtitle) || '',
    rulesPrimary: str(m.rules_primary) ?? '',
    status: str(m.status) ?? '',
    closeTime: closeTime !== null && Number.isNaN(closeTime.getTime()) ? null : closeTime,
    priceRanges: readPriceRanges(m.price_ranges),
    fractionalTrading: m.fractional_trading_enabled === true,
    volume: formatDecimal(parseDecimalString(m.volume_fp)),
  };
}

/** `fee_multiplier` arrives as a JSON number (a decimal string is accepted too): read once into a decimal string. */
function readMultiplier(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return formatDecimal(new Decimal(value));
  return formatDecimal(parseDecimalString(value));
}

export class KalshiMarketData implements MarketData {
  private readonly session: KalshiSession;
  /** Market ticker to series ticker: a market never changes series. */
  private readonly seriesByMarket = new Map<string, string>();

  constructor(options: KalshiMarketDataOptions) {
    this.session = new KalshiSession({
      restUrl: options.restUrl,
      tier: options.tier,
      timeoutMs: options.timeoutMs,
      backoff: options.backoff,
      connections: options.connections ?? 4,
    });
  }

  private async read(path: string, query?: Record<string, string | number | readonly string[] | undefined>): Promise<KalshiOutcome> {
    return this.session.request('GET', path, { kind: 'read', query });
  }

  /** `GET /markets/{ticker}/orderbook` as our YES book, `depth` levels per side (10 by default, as the simulated venues). */
  async orderBook(venueMarketId: string, depth: number = DEFAULT_BOOK_DEPTH): Promise<OrderBookView> {
    if (!Number.isInteger(depth) || depth < 1) throw invalidRequest('depth', `depth ${depth} must be a whole number >= 1`);
    const what = `the order book of '${venueMarketId}'`;
    const outcome = await this.read(`/markets/${encodeURIComponent(venueMarketId)}/orderbook`, { depth: depth <= KALSHI_MAX_DEPTH ? depth : 0 });
    if (outcome.kind !== 'answered') {
      if (outcome.kind === 'refused' && outcome.status === 404) {
        throw new DomainError('market_not_tradable', `Kalshi has no market '${venueMarketId}' (code '${outcome.venueCode}').`);
      }
      throw readFailure(outcome);
    }
    const book = recordOf(recordOf(outcome.body)?.orderbook_fp);
    const yes = readLevels(book?.yes_dollars);
    const no = readLevels(book?.no_dollars);
    if (book === null || yes === null || no === null) throw unreadable(what);
    try {
      return bookFromKalshi(venueMarketId, yes, no, depth);
    } catch (error) {
      if (error instanceof RangeError) throw unreadable(what);
      throw error;
    }
  }

  /**
   * `GET /markets`, page by page (Kalshi's opaque `cursor`, "" on the last page), leaving out
   * multivariate (combo) markets (`mve_filter=exclude`). An entry without a ticker is left out.
   */
  async *markets(query: KalshiMarketsQuery = {}): AsyncGenerator<KalshiListedMarket[]> {
    const limit = query.limit ?? KALSHI_MAX_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > KALSHI_MAX_PAGE) throw new RangeError(`limit ${limit} must be 1..${KALSHI_MAX_PAGE}`);
    const seen = new Set<string>();
    let cursor = '';
    for (;;) {
      const outcome = await this.read('/markets', {
        status: query.status,
        tickers: query.tickers,
        mve_filter: 'exclude',
        limit,
        cursor: cursor === '' ? undefined : cursor,
      });
      if (outcome.kind !== 'answered') throw readFailure(outcome);
      const body = recordOf(outcome.body);
      const next = str(body?.cursor) ?? '';
      if (body === null || !Array.isArray(body.markets)) throw unreadable('GET /markets');
      yield body.markets.map(readMarket).filter((m): m is KalshiListedMarket => m !== null);
      if (next === '') return;
      if (seen.has(next)) throw new DomainError('venue_unavailable', 'Kalshi answered GET /markets with a cursor it had already given; paging stopped.');
      seen.add(next);
      cursor = next;
    }
  }

  /** `GET /series/{ticker}`; null when Kalshi does not know it. */
  async series(ticker: string): Promise<KalshiSeries | null> {
    const series = await this.readOne(`/series/${encodeURIComponent(ticker)}`, 'series');
    if (series === null) return null;
    return {
      ticker: str(series.ticker) ?? ticker,
      category: str(series.category) ?? '',
      feeType: str(series.fee_type) || null,
      feeMultiplier: readMultiplier(series.fee_multiplier),
    };
  }

  /** `GET /events/{event_ticker}`; null when Kalshi does not know it. */
  async event(eventTicker: string): Promise<KalshiEvent | null> {
    const event = await this.readOne(`/events/${encodeURIComponent(eventTicker)}`, 'event');
    if (event === null) return null;
    return readEvent(event, eventTicker);
  }

  /** `GET /events?status=open`, page by page (200 a page, Kalshi's cursor): every open event, read. An entry without a ticker is left out. */
  async *openEvents(): AsyncGenerator<KalshiEvent[]> {
    const seen = new Set<string>();
    let cursor = '';
    for (;;) {
      const outcome = await this.read('/events', { status: 'open', limit: EVENTS_PAGE, cursor: cursor === '' ? undefined : cursor });
      if (outcome.kind !== 'answered') throw readFailure(outcome);
      const body = recordOf(outcome.body);
      if (body === null || !Array.isArray(body.events)) throw unreadable('GET /events');
      yield body.events.flatMap((value) => {
        const event = recordOf(value);
        const ticker = str(event?.event_ticker);
        return event === null || !ticker ? [] : [readEvent(event, ticker)];
      });
      const next = str(body.cursor) ?? '';
      if (next === '') return;
      if (seen.has(next)) throw new DomainError('venue_unavailable', 'Kalshi answered GET /events with a cursor it had already given; paging stopped.');
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * `GET /markets/trades?ticker=` (public), newest first: `min_ts`/`max_ts` are whole seconds, so
   * the window is applied again to each trade's time; Kalshi's opaque cursor carried as ours.
   */
  async publicTrades(market: VenueMarketRef, query: { since?: Date; until?: Date; limit: number; cursor?: string }): Promise<VenueTradesPage> {
    const outcome = await this.read('/markets/trades', {
      ticker: market.venueMarketId,
      min_ts: query.since ? Math.floor(query.since.getTime() / 1000) : undefined,
      max_ts: query.until ? Math.ceil(query.until.getTime() / 1000) : undefined,
      limit: query.limit,
      cursor: query.cursor,
    });
    if (outcome.kind !== 'answered') throw readFailure(outcome);
    const body = recordOf(outcome.body);
    if (body === null || !Array.isArray(body.trades)) throw unreadable('GET /markets/trades');
    const trades = body.trades.map(tradeFromKalshi);
    if (trades.some((t) => t === null)) throw unreadable('GET /markets/trades');
    const inWindow = (trades as NonNullable<(typeof trades)[number]>[]).filter((t) => (!query.since || t.executedAt >= query.since) && (!query.until || t.executedAt < query.until));
    const next = str(body.cursor) ?? '';
    return { trades: inWindow, nextCursor: next === '' || body.trades.length < query.limit ? null : next };
  }

  /**
   * `GET /series/{series}/markets/{ticker}/candlesticks` (public) over [from, to): candles whose
   * period ends in (from, to]; a period without a trade (null prices) is left out. The series is
   * the market's event's (read once per market, then kept).
   */
  async candles(market: VenueMarketRef, interval: CandleInterval, from: Date, to: Date): Promise<Candle[]> {
    const series = await this.seriesOfMarket(market.venueMarketId);
    const periodMs = CANDLE_INTERVALS[interval];
    const path = `/series/${encodeURIComponent(series)}/markets/${encodeURIComponent(market.venueMarketId)}/candlesticks`;
    const outcome = await this.read(path, { start_ts: (from.getTime() + periodMs) / 1000, end_ts: to.getTime() / 1000, period_interval: periodMs / 60_000 });
    if (outcome.kind !== 'answered') {
      if (outcome.kind === 'refused' && outcome.status === 404) throw new DomainError('market_not_tradable', `Kalshi has no candlesticks of '${market.venueMarketId}'.`);
      throw readFailure(outcome);
    }
    const body = recordOf(outcome.body);
    if (body === null || !Array.isArray(body.candlesticks)) throw unreadable(`GET ${path}`);
    return body.candlesticks.map((c) => candleFromKalshi(c, periodMs)).filter((c): c is Candle => c !== null && c.start >= from && c.end <= to);
  }

  /** `GET /markets?tickers=` (100 a read): each market's top of book and activity as Kalshi reports them. */
  async quotes(markets: readonly VenueMarketRef[]): Promise<Map<string, VenueQuote>> {
    const quotes = new Map<string, VenueQuote>();
    const tickers = markets.map((m) => m.venueMarketId);
    for (let i = 0; i < tickers.length; i += QUOTE_BATCH) {
      const outcome = await this.read('/markets', { tickers: tickers.slice(i, i + QUOTE_BATCH), limit: QUOTE_BATCH });
      if (outcome.kind !== 'answered') throw readFailure(outcome);
      const body = recordOf(outcome.body);
      if (body === null || !Array.isArray(body.markets)) throw unreadable('GET /markets');
      for (const market of body.markets) {
        const ticker = str(recordOf(market)?.ticker);
        const quote = quoteFromKalshiMarket(market);
        if (ticker !== null && quote !== null) quotes.set(ticker, quote);
      }
    }
    return quotes;
  }

  /** The series a market belongs to: `series_ticker` of its event (GET /markets/{ticker}, then GET /events/{event_ticker}). */
  private async seriesOfMarket(ticker: string): Promise<string> {
    const known = this.seriesByMarket.get(ticker);
    if (known) return known;
    const market = await this.readOne(`/markets/${encodeURIComponent(ticker)}`, 'market');
    const eventTicker = str(market?.event_ticker);
    const series = str(market?.series_ticker) || (eventTicker ? (await this.event(eventTicker))?.seriesTicker : null);
    if (!series) throw new DomainError('market_not_tradable', `Kalshi names no series for '${ticker}': its candlesticks cannot be read.`);
    if (this.seriesByMarket.size >= SERIES_CACHE_SIZE) this.seriesByMarket.delete(this.seriesByMarket.keys().next().value!);
    this.seriesByMarket.set(ticker, series);
    return series;
  }

  /** One object Kalshi answers under `field` at `path`; null on a 404 (Kalshi does not know it). */
  private async readOne(path: string, field: string): Promise<WireRecord | null> {
    const outcome = await this.read(path);
    if (outcome.kind !== 'answered') {
      if (outcome.kind === 'refused' && outcome.status === 404) return null;
      throw readFailure(outcome);
    }
    const found = recordOf(recordOf(outcome.body)?.[field]);
    if (found === null) throw unreadable(`GET ${path}`);
    return found;
  }

  /** Closes the pool; calls in flight end as unavailable. */
  async close(): Promise<void> {
    await this.session.close();
  }
}

/** Public market data of one Kalshi environment, from the configuration (`KALSHI_*_URL`, `KALSHI_TIMEOUT_MS`, `KALSHI_TIER`). */
export function kalshiMarketDataFor(
  config: KalshiSessionSettings,
  environment: KalshiEnvironment,
  overrides: Partial<Omit<KalshiMarketDataOptions, 'restUrl'>> = {},
): KalshiMarketData {
  return new KalshiMarketData({
    restUrl: kalshiEndpoints(config, environment).restUrl,
    timeoutMs: config.KALSHI_TIMEOUT_MS,
    tier: KALSHI_RATE_TIERS[config.KALSHI_TIER],
    ...overrides,
  });
}
