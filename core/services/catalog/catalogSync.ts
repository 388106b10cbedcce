import type { Db } from '../../db/prismaClient';
import { newId } from '../../domain/ids';
import { failureStreak } from '../../support/failureStreak';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { CatalogEntry, CatalogListing, CatalogSchedule, CatalogSource } from '../../venues/catalogSource';
import type { VenueModule } from '../../venues/venueModule';
import { venueColumn, type VenueColumn } from '../../venues/venueModules';
import { linkedQuestionKeys } from './questionLinks';

/**
 * The one catalog sync: every venue module's catalog source (VenueModule.catalog), written into the
 * `markets` rows of the venue's environment, keyed by (venue, venue_market_id). The sources say what
 * the venues list (docs/kalshi.md and docs/polymarket.md, "Live catalog"); this writes it:
 *
 * - every listed market is upserted; a row is written only when something in it changed, so a sync
 *   of an unchanged venue writes nothing. Its question key is the one the venue gives (a Kalshi
 *   ticker), else the one an operator's question link gives (questionLinks.ts), else none;
 * - after a complete listing (a sync that failed half-way closes nothing), the open rows of the
 *   venue the listing did not name are looked up (CatalogSource.statusesOf) and marked `closed`,
 *   `determined` or `settled`; one the venue still trades stays open. A market the venue settled
 *   that one of our subaccounts holds is marked `determined` only: it becomes `settled` when the
 *   settlement sweep books its payouts (a `settled` market is never settled again). A market left out of the listing (skipped
 *   or malformed) counts as listed: its row, if any, is not closed on that account.
 *
 * Safe when several cores sync at once: inserts race on the unique (venue, venue_market_id) and
 * become updates; every status change of an unlisted row is conditional on the row still being open.
 * A question link made while a page is written may be overwritten by it; the next sync reads it again.
 */
export interface CatalogSyncCounts {
  /** Open markets the venue listed (written, skipped and malformed). */
  readonly listed: number;
  /** Rows created or changed. */
  readonly upserted: number;
  /** Rows that were open and are now closed or settled. */
  readonly closed: number;
  /** Listed markets left out: rules or outcomes we cannot trade. */
  readonly skipped: number;
  /** Listed markets left out because the venue's fields could not be read. */
  readonly malformed: number;
}

type Venue = Pick<VenueModule, 'name' | 'environment'>;

/** One sync of one venue's catalog (see the top of this file). Throws when the venue cannot be listed; nothing is closed then. */
export async function syncCatalog(db: Db, venue: Venue, source: CatalogSource, options: { pageLimit?: number; logger?: Logger } = {}): Promise<CatalogSyncCounts> {
  const column = venueColumn(venue.name);
  const listed = new Set<string>();
  const skipped: Extract<CatalogEntry, { skipped: string }>[] = [];
  const malformed: Extract<CatalogEntry, { malformed: string }>[] = [];
  let upserted = 0;
  for await (const page of source.listOpen({ pageLimit: options.pageLimit })) {
    const listings: CatalogListing[] = [];
    for (const entry of page) {
      if ('listing' in entry) listings.push(entry.listing);
      else if ('skipped' in entry) skipped.push(entry);
      else malformed.push(entry);
      const id = 'listing' in entry ? entry.listing.venueMarketId : entry.venueMarketId;
      if (id !== null) listed.add(id);
    }
    upserted += await upsertListings(db, venue.environment, column, listings);
  }
  if (skipped.length > 0) {
    options.logger?.info({ venue: venue.name, skipped: skipped.length, examples: skipped.slice(0, 5) }, 'markets left out of the catalog: rules or outcomes we cannot trade');
  }
  if (malformed.length > 0) {
    options.logger?.warn({ venue: venue.name, malformed: malformed.length, examples: malformed.slice(0, 5) }, 'markets left out of the catalog: the venue sent fields we cannot read');
  }
  const closed = await closeUnlisted(db, venue.environment, column, source, listed);
  return { listed: listed.size + malformed.filter((entry) => entry.venueMarketId === null).length, upserted, closed, skipped: skipped.length, malformed: malformed.length };
}

/** Inserts new rows and updates changed ones; answers how many were written. */
async function upsertListings(db: Db, environment: Venue['environment'], venue: VenueColumn, listings: readonly CatalogListing[]): Promise<number> {
  if (listings.length === 0) return 0;
  const linked = await linkedQuestionKeys(db, venue, listings.filter((l) => l.questionKey === null).map((l) => l.venueMarketId));
  const events = await upsertEvents(db, environment, venue, listings);
  const rows = listings.map((l) => ({
    id: newId('market'),
    venue_market_id: l.venueMarketId,
    question_key: l.questionKey ?? linked.get(l.venueMarketId) ?? null,
    title: l.title,
    description: l.description,
    category: l.category,
    status: l.status,
    tick_size: l.tickSize,
    min_size: l.minSize,
    close_time: l.closeTime?.toISOString() ?? null,
    price_ranges: l.priceRanges ?? null,
    fee_type: l.feeType ?? null,
    fee_multiplier: l.feeMultiplier ?? null,
    fractional_trading: l.fractionalTrading ?? false,
    yes_token_id: l.yesTokenId ?? null,
    no_token_id: l.noTokenId ?? null,
    neg_risk: l.negRisk ?? false,
    event_id: l.event ? (events.get(l.event.venueEventId) ?? null) : null,
    venue_volume: l.volume ?? null,
  }));
  const written = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO markets AS m (id, environment, venue, venue_market_id, question_key, title, description, category, status,
                              tick_size, min_size, close_time, price_ranges, fee_type, fee_multiplier, fractional_trading,
                              yes_token_id, no_token_id, neg_risk, event_id, venue_volume)
    SELECT r.id, ${environment}::"Environment", ${venue}::text, r.venue_market_id, r.question_key, r.title, r.description, r.category,
           r.status::"MarketStatus", r.tick_size::numeric, r.min_size::numeric, r.close_time::timestamptz, r.price_ranges,
           r.fee_type, r.fee_multiplier::numeric, r.fractional_trading, r.yes_token_id, r.no_token_id, r.neg_risk, r.event_id, r.venue_volume::numeric
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
             id text, venue_market_id text, question_key text, title text, description text, category text, status text,
             tick_size text, min_size text, close_time text, price_ranges jsonb, fee_type text, fee_multiplier text,
             fractional_trading boolean, yes_token_id text, no_token_id text, neg_risk boolean, event_id text, venue_volume text)
    ON CONFLICT (venue, venue_market_id) DO UPDATE SET
      question_key = EXCLUDED.question_key, title = EXCLUDED.title, description = EXCLUDED.description,
      category = EXCLUDED.category, status = EXCLUDED.status, tick_size = EXCLUDED.tick_size, min_size = EXCLUDED.min_size,
      close_time = EXCLUDED.close_time, price_ranges = EXCLUDED.price_ranges, fee_type = EXCLUDED.fee_type,
      fee_multiplier = EXCLUDED.fee_multiplier, fractional_trading = EXCLUDED.fractional_trading,
      yes_token_id = EXCLUDED.yes_token_id, no_token_id = EXCLUDED.no_token_id, neg_risk = EXCLUDED.neg_risk,
      event_id = EXCLUDED.event_id, venue_volume = EXCLUDED.venue_volume, updated_at = now()
    WHERE m.environment = ${environment}::"Environment"
      AND (m.question_key, m.title, m.description, m.category, m.status, m.tick_size, m.min_size, m.close_time, m.price_ranges,
           m.fee_type, m.fee_multiplier, m.fractional_trading, m.yes_token_id, m.no_token_id, m.neg_risk, m.event_id, m.venue_volume)
          IS DISTINCT FROM
          (EXCLUDED.question_key, EXCLUDED.title, EXCLUDED.description, EXCLUDED.category, EXCLUDED.status, EXCLUDED.tick_size,
           EXCLUDED.min_size, EXCLUDED.close_time, EXCLUDED.price_ranges, EXCLUDED.fee_type, EXCLUDED.fee_multiplier,
           EXCLUDED.fractional_trading, EXCLUDED.yes_token_id, EXCLUDED.no_token_id, EXCLUDED.neg_risk, EXCLUDED.event_id, EXCLUDED.venue_volume)
    RETURNING m.id`;
  return written.length;
}

/**
 * The events the page's listings name, inserted or brought up to date (title, category, series),
 * by (venue, venue event id): answers each one's id by its venue event id.
 */
async function upsertEvents(db: Db, environment: Venue['environment'], venue: VenueColumn, listings: readonly CatalogListing[]): Promise<Map<string, string>> {
  const byKey = new Map(listings.flatMap((l) => (l.event ? [[l.event.venueEventId, l.event] as const] : [])));
  if (byKey.size === 0) return new Map();
  const rows = [...byKey.values()].map((e) => ({ id: newId('marketEvent'), venue_event_id: e.venueEventId, title: e.title, category: e.category, series_key: e.seriesKey ?? null }));
  // A row is written only when something in it changed, as for markets.
  await db.$executeRaw`
    INSERT INTO market_events AS e (id, environment, venue, venue_event_id, title, category, series_key)
    SELECT r.id, ${environment}::"Environment", ${venue}::text, r.venue_event_id, r.title, r.category, r.series_key
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id text, venue_event_id text, title text, category text, series_key text)
    ON CONFLICT (venue, venue_event_id) DO UPDATE SET
      title = EXCLUDED.title, category = EXCLUDED.category, series_key = EXCLUDED.series_key, updated_at = now()
    WHERE (e.title, e.category, e.series_key) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.category, EXCLUDED.series_key)`;
  const ids = await db.marketEvent.findMany({ where: { venue, venueEventId: { in: [...byKey.keys()] } }, select: { id: true, venueEventId: true } });
  return new Map(ids.map((row) => [row.venueEventId, row.id]));
}

/** Closes (or settles) the venue's open rows the complete listing did not name; answers how many changed. */
async function closeUnlisted(db: Db, environment: Venue['environment'], venue: VenueColumn, source: CatalogSource, listed: ReadonlySet<string>): Promise<number> {
  const open = await db.market.findMany({ where: { environment, venue, status: 'open' }, select: { venueMarketId: true } });
  const missing = open.map((row) => row.venueMarketId).filter((id) => !listed.has(id));
  if (missing.length === 0) return 0;
  const statuses = await source.statusesOf(missing);
  let changed = 0;
  for (const status of ['closed', 'determined', 'settled'] as const) {
    const ids = missing.filter((id) => (statuses.get(id) ?? 'closed') === status);
    if (ids.length === 0) continue;
    // A market someone holds is settled by the settlement sweep, at the venue's record, which pays
    // its positions (core/services/settlement/venueSettlements.ts): until then it is determined.
    changed += await db.$executeRaw`
      UPDATE markets SET updated_at = now(),
             status = (CASE WHEN ${status} = 'settled' AND EXISTS (SELECT 1 FROM positions p WHERE p.market_id = markets.id AND p.quantity > 0)
                            THEN 'determined' ELSE ${status} END)::"MarketStatus"
       WHERE environment = ${environment}::"Environment" AND venue = ${venue}::text AND status = 'open'::"MarketStatus"
         AND venue_market_id = ANY(${ids}::text[])`;
  }
  return changed;
}

/**
 * Syncs every module's catalog that its configuration turns on: at start-up (in the background: the
 * core does not wait for a venue) and at the module's interval; one sync at a time per venue and
 * core. A failed sync is logged (public data, unsigned: nothing secret to leak), once per streak of
 * failures (failureStreak.ts), and retried at the next interval; it never stops the core. `stop()`
 * ends the schedules, aborts the calls in flight and waits for the syncs to finish.
 */
export function startCatalogSyncs(db: Db, modules: readonly VenueModule[], config: object, logger: Logger): { stop(): Promise<void> } {
  const running = modules.flatMap((module) => {
    const schedule = module.catalog?.(config);
    return schedule ? [startOne(db, module, schedule, logger)] : [];
  });
  return {
    async stop() {
      await Promise.all(running.map((sync) => sync.stop()));
    },
  };
}

function startOne(db: Db, venue: Venue, schedule: CatalogSchedule, logger: Logger) {
  const { source } = schedule;
  let stopped = false;
  const streak = failureStreak(logger, {
    job: `The ${venue.name} catalog sync (${schedule.origin})`,
    consequence: `${venue.name} markets stay as last synced (none on a fresh start); the other venues are not affected`,
    howToSet: schedule.howToSet,
  });
  const round = async () => {
    const counts = await syncCatalog(db, venue, source, { logger });
    streak.succeeded();
    logger.info({ venue: venue.name, origin: schedule.origin, ...counts }, 'catalog synced');
  };
  const failed = (error: unknown) => {
    if (!stopped) streak.failed(error);
  };
  const first = round().catch(failed);
  const periodic = runPeriodically(schedule.intervalMs, async () => {
    await first;
    await round();
  }, failed);
  return {
    async stop() {
      stopped = true;
      await source.close();
      await periodic.stop();
      await first;
    },
  };
}
