import type { Db } from '../../db/prismaClient';
import type { KalshiEnvironment } from '../../domain/credentialShapes';
import { newId } from '../../domain/ids';
import { liveKalshiMarketRules } from '../../domain/venueRules';
import type { Logger } from '../../support/logger';
import { failureStreak } from '../../support/failureStreak';
import { kalshiMarketDataFor, type KalshiEvent, type KalshiListedMarket, type KalshiMarketData, type KalshiSeries } from '../../venues/kalshi/marketData';
import { kalshiEndpoints } from '../../venues/kalshi/endpoints';
import type { KalshiSessionSettings } from '../../venues/kalshi/session';

/**
 * The live Kalshi catalog (docs/kalshi.md "Live catalog"; Kalshi Trade API v2, as of 2026-08).
 *
 * A sync pages every open market (`GET /markets?status=open`, combos left out), finds each
 * market's series through its event (`GET /events/{event_ticker}`, remembered across syncs: an
 * event never changes series) and reads the series' fee schedule and category
 * (`GET /series/{ticker}`, once per series per sync: fees change), then upserts the `live`
 * environment's rows, keyed by (venue, venue_market_id) = (`kalshi`, ticker):
 *
 * - title; description = `rules_primary`, else the market's subtitle; category = the event's,
 *   else the series', lowercased, else `other`; status `open`; close time;
 * - `price_ranges` exactly as Kalshi wrote them, tick size = their smallest step, `fee_type`,
 *   `fee_multiplier`, `fractional_trading`, and a minimum size of one quantity step (0.01 or 1);
 * - `question_key` = the Kalshi market ticker, set when the row is created and never overwritten:
 *   one ticker is one binary question (an event groups several strikes, so the event ticker is too
 *   coarse), and a later mapping of a Polymarket listing to the same question sets that listing's
 *   key to this ticker (or re-keys both), as the simulated catalog keys both venues' listings by the
 *   sim-kalshi ticker (marketCatalog.ts).
 *
 * A row is written only when something in it changed, so a sync of an unchanged venue writes
 * nothing. A market whose price ranges cannot be traded here (finer than $0.0001, or none) is left
 * out and counted as skipped.
 *
 * After a complete listing (a sync that failed half-way closes nothing), the open live Kalshi rows
 * the listing did not name are looked up by ticker (`GET /markets?tickers=`, 100 a call): Kalshi's
 * `determined`, `settled` or `finalized` mark them `settled`; any other status, or no answer for
 * the ticker (Kalshi moves old markets to its historical API), `closed`; a ticker Kalshi still
 * says is active stays open (paging by offset can skip a market that moved mid-listing).
 *
 * Safe when several cores sync at once: inserts race on the unique (venue, venue_market_id) and
 * become updates; every status change is conditional on the row still being open.
 */
export type KalshiCatalogSource = Pick<KalshiMarketData, 'markets' | 'series' | 'event'>;

export interface KalshiCatalogSyncOptions {
  /** Markets per page of the listing (1..1000); 1000 by default. */
  readonly pageLimit?: number;
  /** Events already looked up (by event ticker), kept across syncs by the caller; pruned to the events listed now. */
  readonly knownEvents?: Map<string, KalshiEvent | null>;
  readonly logger?: Logger;
}

export interface KalshiCatalogSyncCounts {
  /** Open markets Kalshi listed. */
  readonly listed: number;
  /** Rows created or changed. */
  readonly upserted: number;
  /** Rows that were open and are now closed or settled. */
  readonly closed: number;
  /** Listed markets left out: their price ranges or sizes cannot be traded here. */
  readonly skipped: number;
}

type CatalogStatus = 'open' | 'closed' | 'settled';

/** Kalshi's market status (`initialized|inactive|active|closed|determined|settled|finalized`) in our terms. */
export function catalogStatusOf(kalshiStatus: string | undefined): CatalogStatus {
  if (kalshiStatus === 'active' || kalshiStatus === 'open') return 'open';
  if (kalshiStatus === 'determined' || kalshiStatus === 'settled' || kalshiStatus === 'finalized') return 'settled';
  return 'closed';
}

interface CatalogRow {
  id: string;
  ticker: string;
  question_key: string;
  title: string;
  description: string;
  category: string;
  status: CatalogStatus;
  tick_size: string;
  min_size: string;
  close_time: string | null;
  price_ranges: unknown;
  fee_type: string | null;
  fee_multiplier: string | null;
  fractional_trading: boolean;
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

/** The row for one listed market, or the reason it cannot be traded here. */
function rowOf(market: KalshiListedMarket, event: KalshiEvent | null, series: KalshiSeries | null): CatalogRow | { skip: string } {
  if (market.priceRanges === null) return { skip: 'no price_ranges' };
  let rules;
  try {
    rules = liveKalshiMarketRules({
      priceRanges: market.priceRanges,
      fractionalTrading: market.fractionalTrading,
      feeType: series?.feeType ?? null,
      feeMultiplier: series?.feeMultiplier ?? null,
    });
  } catch (error) {
    if (error instanceof RangeError) return { skip: error.message };
    throw error;
  }
  return {
    id: newId('market'),
    ticker: market.ticker,
    question_key: market.ticker,
    title: market.title,
    description: market.rulesPrimary || market.subtitle,
    category: categoryOf(event, series),
    status: catalogStatusOf(market.status),
    tick_size: rules.tickSize,
    min_size: rules.minSize,
    close_time: market.closeTime?.toISOString() ?? null,
    price_ranges: market.priceRanges,
    fee_type: series?.feeType ?? null,
    fee_multiplier: series?.feeMultiplier ?? null,
    fractional_trading: market.fractionalTrading,
  };
}

/** Inserts new rows and updates changed ones; answers how many were written. */
async function upsertRows(db: Db, rows: readonly CatalogRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO markets AS m (id, environment, venue, venue_market_id, question_key, title, description, category, status,
                              tick_size, min_size, close_time, price_ranges, fee_type, fee_multiplier, fractional_trading)
    SELECT r.id, 'live'::"Environment", 'kalshi'::"Venue", r.ticker, r.question_key, r.title, r.description, r.category,
           r.status::"MarketStatus", r.tick_size::numeric, r.min_size::numeric, r.close_time::timestamptz, r.price_ranges,
           r.fee_type, r.fee_multiplier::numeric, r.fractional_trading
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
             id text, ticker text, question_key text, title text, description text, category text, status text,
             tick_size text, min_size text, close_time text, price_ranges jsonb, fee_type text, fee_multiplier text,
             fractional_trading boolean)
    ON CONFLICT (venue, venue_market_id) DO UPDATE SET
      title = EXCLUDED.title, description = EXCLUDED.description, category = EXCLUDED.category, status = EXCLUDED.status,
      tick_size = EXCLUDED.tick_size, min_size = EXCLUDED.min_size, close_time = EXCLUDED.close_time,
      price_ranges = EXCLUDED.price_ranges, fee_type = EXCLUDED.fee_type, fee_multiplier = EXCLUDED.fee_multiplier,
      fractional_trading = EXCLUDED.fractional_trading,
      question_key = coalesce(m.question_key, EXCLUDED.question_key),
      updated_at = now()
    WHERE m.environment = 'live'::"Environment"
      AND ((m.title, m.description, m.category, m.status, m.tick_size, m.min_size, m.close_time, m.price_ranges, m.fee_type,
            m.fee_multiplier, m.fractional_trading)
             IS DISTINCT FROM
           (EXCLUDED.title, EXCLUDED.description, EXCLUDED.category, EXCLUDED.status, EXCLUDED.tick_size, EXCLUDED.min_size,
            EXCLUDED.close_time, EXCLUDED.price_ranges, EXCLUDED.fee_type, EXCLUDED.fee_multiplier, EXCLUDED.fractional_trading)
           OR m.question_key IS NULL)
    RETURNING m.id`;
  return written.length;
}

/** Closes (or settles) the open live Kalshi rows the complete listing did not name; answers how many changed. */
async function closeUnlisted(db: Db, source: KalshiCatalogSource, listed: ReadonlySet<string>): Promise<number> {
  const open = await db.market.findMany({ where: { environment: 'live', venue: 'kalshi', status: 'open' }, select: { venueMarketId: true } });
  const missing = open.map((row) => row.venueMarketId).filter((ticker) => !listed.has(ticker));
  let changed = 0;
  for (let i = 0; i < missing.length; i += STATUS_BATCH) {
    const batch = missing.slice(i, i + STATUS_BATCH);
    const statusOf = new Map<string, string>();
    for await (const page of source.markets({ tickers: batch })) for (const market of page) statusOf.set(market.ticker, market.status);
    const byStatus: Record<'closed' | 'settled', string[]> = { closed: [], settled: [] };
    for (const ticker of batch) {
      const status = catalogStatusOf(statusOf.get(ticker));
      if (status !== 'open') byStatus[status].push(ticker);
    }
    for (const status of ['closed', 'settled'] as const) {
      if (byStatus[status].length === 0) continue;
      changed += await db.$executeRaw`
        UPDATE markets SET status = ${status}::"MarketStatus", updated_at = now()
         WHERE environment = 'live'::"Environment" AND venue = 'kalshi'::"Venue" AND status = 'open'::"MarketStatus"
           AND venue_market_id = ANY(${byStatus[status]}::text[])`;
    }
  }
  return changed;
}

/** One sync of the live Kalshi catalog (see the top of this file). Throws when Kalshi cannot be listed; nothing is closed then. */
export async function syncKalshiCatalog(db: Db, source: KalshiCatalogSource, options: KalshiCatalogSyncOptions = {}): Promise<KalshiCatalogSyncCounts> {
  const events = options.knownEvents ?? new Map<string, KalshiEvent | null>();
  const seriesOf = new Map<string, KalshiSeries | null>();
  const listed = new Set<string>();
  const eventsListed = new Set<string>();
  const skipped: { ticker: string; reason: string }[] = [];
  let upserted = 0;

  for await (const page of source.markets({ status: 'open', limit: options.pageLimit })) {
    const open = page.filter((market) => catalogStatusOf(market.status) === 'open');
    for (const market of open) eventsListed.add(market.eventTicker);
    const unknownEvents = [...new Set(open.filter((m) => m.seriesTicker === null && !events.has(m.eventTicker)).map((m) => m.eventTicker))];
    await eachLimited(unknownEvents, CONCURRENT_LOOKUPS, async (ticker) => {
      events.set(ticker, await source.event(ticker));
    });
    const seriesTickerOf = (m: KalshiListedMarket) => m.seriesTicker ?? events.get(m.eventTicker)?.seriesTicker ?? null;
    const unknownSeries = [...new Set(open.map(seriesTickerOf).filter((t): t is string => t !== null && !seriesOf.has(t)))];
    await eachLimited(unknownSeries, CONCURRENT_LOOKUPS, async (ticker) => {
      seriesOf.set(ticker, await source.series(ticker));
    });

    const rows: CatalogRow[] = [];
    for (const market of open) {
      listed.add(market.ticker);
      const seriesTicker = seriesTickerOf(market);
      const row = rowOf(market, events.get(market.eventTicker) ?? null, seriesTicker === null ? null : (seriesOf.get(seriesTicker) ?? null));
      if ('skip' in row) skipped.push({ ticker: market.ticker, reason: row.skip });
      else rows.push(row);
    }
    upserted += await upsertRows(db, rows);
  }

  for (const ticker of [...events.keys()]) if (!eventsListed.has(ticker)) events.delete(ticker);
  if (skipped.length > 0) {
    options.logger?.warn({ skipped: skipped.length, examples: skipped.slice(0, 5) }, 'Kalshi markets left out of the live catalog: their price ranges or sizes cannot be traded here');
  }
  // A skipped market is still listed open: it is not closed, only not (re)written.
  for (const { ticker } of skipped) listed.add(ticker);
  const closed = await closeUnlisted(db, source, listed);
  return { listed: listed.size, upserted, closed, skipped: skipped.length };
}

/** What the scheduled sync reads of the configuration (core/config.ts). */
export interface KalshiCatalogSettings extends KalshiSessionSettings {
  /** 0: off. */
  readonly KALSHI_CATALOG_SYNC_MS: number;
  readonly KALSHI_CATALOG_ENVIRONMENT: KalshiEnvironment;
}

/**
 * Syncs the live Kalshi catalog at start-up (in the background: the core does not wait for Kalshi)
 * and every `KALSHI_CATALOG_SYNC_MS` against `KALSHI_CATALOG_ENVIRONMENT`; one sync at a time per
 * core. A failed sync is logged (public data, unsigned: nothing secret to leak), once per streak of
 * failures (failureStreak.ts), and retried at the next interval; it never stops the core. `stop()` ends the schedule, aborts the calls in flight
 * and waits for the sync to finish.
 */
export function startKalshiCatalogSync(db: Db, config: KalshiCatalogSettings, logger: Logger): { stop(): Promise<void> } {
  if (config.KALSHI_CATALOG_SYNC_MS === 0) return { stop: async () => undefined };
  const environment = config.KALSHI_CATALOG_ENVIRONMENT;
  const marketData = kalshiMarketDataFor(config, environment);
  const knownEvents = new Map<string, KalshiEvent | null>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const streak = failureStreak(logger, {
    job: `The live Kalshi catalog sync (${kalshiEndpoints(config, environment).restUrl})`,
    consequence: 'live Kalshi markets stay as last synced (none on a fresh start); the test environment is not affected',
    howToSet: 'set KALSHI_CATALOG_SYNC_MS=0 to turn it off, or KALSHI_CATALOG_ENVIRONMENT and KALSHI_PRODUCTION_URL / KALSHI_DEMO_URL to a Kalshi this machine reaches (docs/kalshi.md)',
  });
  const run = () => {
    if (running || stopped) return;
    running = syncKalshiCatalog(db, marketData, { knownEvents, logger })
      .then((counts) => {
        streak.succeeded();
        logger.info({ environment, ...counts }, 'Kalshi catalog synced');
      })
      .catch((error: unknown) => {
        if (!stopped) streak.failed(error, { environment });
      })
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, config.KALSHI_CATALOG_SYNC_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await marketData.close();
      await running;
    },
  };
}
