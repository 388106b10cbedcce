import type { KalshiEnvironment } from '../../domain/credentialShapes';
import { liveKalshiMarketRules } from '../../domain/venueRules';
import type { CatalogEntry, CatalogSchedule, CatalogSource, CatalogStatus } from '../catalogSource';
import { kalshiEndpoints } from './endpoints';
import { kalshiMarketDataFor, type KalshiEvent, type KalshiListedMarket, type KalshiMarketData, type KalshiSeries } from './marketData';
import type { KalshiSessionSettings } from './session';

/**
 * The live Kalshi catalog (docs/kalshi.md "Live catalog"; Kalshi Trade API v2, as of 2026-08), as
 * the catalog sync reads it (core/services/catalog/catalogSync.ts writes the rows).
 *
 * A listing reads every open event (`GET /events?status=open`, 200 a page: title, series,
 * category), pages every open market (`GET /markets?status=open`, combos left out), finds each
 * market's series through its event (an event opened since the events were listed is read by its
 * ticker, `GET /events/{event_ticker}`) and reads the series' fee schedule and category
 * (`GET /series/{ticker}`, once per series per sync: fees change):
 *
 * - title; description = `rules_primary`, else the market's subtitle; category = the event's,
 *   else the series', lowercased, else `other`; status `open`; close time;
 * - `price_ranges` exactly as Kalshi wrote them, tick size = their smallest step, `fee_type`,
 *   `fee_multiplier`, `fractional_trading`, and a minimum size of one quantity step (0.01 or 1);
 * - its event (GET /v1/market_events): the event ticker, its title, category and series;
 * - the question key is the Kalshi market ticker: one ticker is one binary question (an event
 *   groups several strikes, so the event ticker is too coarse), and a Polymarket listing linked to
 *   the same question takes this ticker as its key (question links), as the simulated catalog keys
 *   both venues' listings by the sim-kalshi ticker.
 *
 * A market whose price ranges cannot be traded here (finer than $0.0001, or none) is skipped.
 * Markets the listing no longer names are looked up by ticker (`GET /markets?tickers=`, 100 a
 * call): Kalshi's `determined` is `determined`, `settled` or `finalized` are `settled`; any other status, or no
 * answer for the ticker (Kalshi moves old markets to its historical API), `closed`; a ticker Kalshi
 * still says is active stays open.
 */
export type KalshiCatalogReads = Pick<KalshiMarketData, 'markets' | 'series' | 'event' | 'openEvents' | 'close'>;

/**
 * Kalshi's market status (`initialized|inactive|active|closed|determined|settled|finalized`) in our
 * terms: `determined` (the result is known; a dispute may still amend it) is ours; `settled` and
 * `finalized` are settled.
 */
export function catalogStatusOf(kalshiStatus: string | undefined): CatalogStatus {
  if (kalshiStatus === 'active' || kalshiStatus === 'open') return 'open';
  if (kalshiStatus === 'determined') return 'determined';
  if (kalshiStatus === 'settled' || kalshiStatus === 'finalized') return 'settled';
  return 'closed';
}

const CONCURRENT_LOOKUPS = 4;
const STATUS_BATCH = 100;

/** `fn` over `items`, at most `limit` at a time: the read bucket paces calls, this keeps their waits short. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function categoryOf(event: KalshiEvent | null, series: KalshiSeries | null): string {
  const category = (event?.category || series?.category || '').trim().toLowerCase();
  return category === '' ? 'other' : category;
}

/** The catalog's entry for one listed market: its listing, or why it cannot be traded here. */
function entryOf(market: KalshiListedMarket, event: KalshiEvent | null, series: KalshiSeries | null): CatalogEntry {
  if (market.priceRanges === null) return { venueMarketId: market.ticker, skipped: 'no price_ranges' };
  let rules;
  try {
    rules = liveKalshiMarketRules({
      priceRanges: market.priceRanges,
      fractionalTrading: market.fractionalTrading,
      feeType: series?.feeType ?? null,
      feeMultiplier: series?.feeMultiplier ?? null,
    });
  } catch (error) {
    if (error instanceof RangeError) return { venueMarketId: market.ticker, skipped: error.message };
    throw error;
  }
  return {
    listing: {
      venueMarketId: market.ticker,
      questionKey: market.ticker,
      title: market.title,
      description: market.rulesPrimary || market.subtitle,
      category: categoryOf(event, series),
      status: catalogStatusOf(market.status),
      tickSize: rules.tickSize,
      minSize: rules.minSize,
      closeTime: market.closeTime,
      priceRanges: market.priceRanges,
      feeType: series?.feeType ?? null,
      feeMultiplier: series?.feeMultiplier ?? null,
      fractionalTrading: market.fractionalTrading,
      volume: market.volume,
      event: {
        venueEventId: market.eventTicker,
        title: event?.title ?? market.eventTicker,
        category: categoryOf(event, series),
        seriesKey: market.seriesTicker ?? event?.seriesTicker ?? null,
      },
    },
  };
}

/**
 * Kalshi's catalog over its public market data. `knownEvents` (event ticker to event) is kept
 * across listings, pruned to the events listed now.
 */
export function kalshiCatalogSource(reads: KalshiCatalogReads, knownEvents = new Map<string, KalshiEvent | null>()): CatalogSource {
  return {
    async *listOpen(options = {}) {
      const seriesOf = new Map<string, KalshiSeries | null>();
      const eventsListed = new Set<string>();
      // Every open event once a sync (GET /events, 200 a page): titles and categories can change.
      for await (const events of reads.openEvents()) for (const event of events) knownEvents.set(event.eventTicker, event);
      for await (const page of reads.markets({ status: 'open', limit: options.pageLimit })) {
        const open = page.filter((market) => catalogStatusOf(market.status) === 'open');
        for (const market of open) eventsListed.add(market.eventTicker);
        // An event the listing of events did not give (opened since): read by its ticker.
        const unknownEvents = [...new Set(open.filter((m) => !knownEvents.has(m.eventTicker)).map((m) => m.eventTicker))];
        await eachLimited(unknownEvents, CONCURRENT_LOOKUPS, async (ticker) => {
          knownEvents.set(ticker, await reads.event(ticker));
        });
        const seriesTickerOf = (m: KalshiListedMarket) => m.seriesTicker ?? knownEvents.get(m.eventTicker)?.seriesTicker ?? null;
        const unknownSeries = [...new Set(open.map(seriesTickerOf).filter((t): t is string => t !== null && !seriesOf.has(t)))];
        await eachLimited(unknownSeries, CONCURRENT_LOOKUPS, async (ticker) => {
          seriesOf.set(ticker, await reads.series(ticker));
        });
        yield open.map((market) => {
          const seriesTicker = seriesTickerOf(market);
          return entryOf(market, knownEvents.get(market.eventTicker) ?? null, seriesTicker === null ? null : (seriesOf.get(seriesTicker) ?? null));
        });
      }
      for (const ticker of [...knownEvents.keys()]) if (!eventsListed.has(ticker)) knownEvents.delete(ticker);
    },
    async statusesOf(tickers) {
      const statuses = new Map<string, CatalogStatus>();
      for (let i = 0; i < tickers.length; i += STATUS_BATCH) {
        for await (const page of reads.markets({ tickers: tickers.slice(i, i + STATUS_BATCH) })) {
          for (const market of page) statuses.set(market.ticker, catalogStatusOf(market.status));
        }
      }
      return statuses;
    },
    close: () => reads.close(),
  };
}

/** What the scheduled sync reads of the configuration (core/config.ts). */
export interface KalshiCatalogSettings extends KalshiSessionSettings {
  /** 0: off. */
  readonly KALSHI_CATALOG_SYNC_MS: number;
  readonly KALSHI_CATALOG_ENVIRONMENT: KalshiEnvironment;
}

/** The live Kalshi catalog, synced every `KALSHI_CATALOG_SYNC_MS` from `KALSHI_CATALOG_ENVIRONMENT`; null when off. */
export function kalshiCatalogSchedule(config: KalshiCatalogSettings): CatalogSchedule | null {
  if (config.KALSHI_CATALOG_SYNC_MS === 0) return null;
  const environment = config.KALSHI_CATALOG_ENVIRONMENT;
  return {
    source: kalshiCatalogSource(kalshiMarketDataFor(config, environment)),
    intervalMs: config.KALSHI_CATALOG_SYNC_MS,
    origin: `${environment}, ${kalshiEndpoints(config, environment).restUrl}`,
    howToSet: 'set KALSHI_CATALOG_SYNC_MS=0 to turn it off, or KALSHI_CATALOG_ENVIRONMENT and KALSHI_PRODUCTION_URL / KALSHI_DEMO_URL to a Kalshi this machine reaches (docs/kalshi.md)',
  };
}
