import type { Db } from '../../db/prismaClient';
import { newId } from '../../domain/ids';
import type { Logger } from '../../support/logger';
import { failureStreak } from '../../support/failureStreak';
import { runPeriodically } from '../../support/periodic';
import { GAMMA_MAX_CONDITION_IDS, GammaMarkets, type GammaListedMarket } from '../../venues/polymarket/gammaMarkets';
import { marketRulesOf } from '../../venues/venueModules';

/**
 * The live Polymarket catalog (docs/polymarket.md "Live catalog"; Gamma markets API, keyset
 * listing, as of 2026-11).
 *
 * A sync pages Gamma's open markets (`GET /markets/keyset?closed=false`, 100 a page) and upserts
 * the `live` environment's rows, keyed by (venue, venue_market_id) = (`polymarket`, condition id):
 * one condition is one binary question with two outcome tokens.
 *
 * - Kept: markets with an order book (`enableOrderBook`) whose `outcomes` are exactly Yes and No
 *   (either order, any case); their `clobTokenIds` are mapped by the position of "Yes" and "No" in
 *   `outcomes` to `yes_token_id` / `no_token_id`. Anything else (multi-outcome or named outcomes,
 *   no book, token ids that are not two distinct decimal ids, a tick or minimum size we cannot
 *   trade) is left out and counted as skipped; a market whose JSON-encoded string fields do not
 *   parse is left out and counted as malformed. Both are logged with a few examples.
 * - Written: title = `question`; description; category = `category` (else its event's),
 *   lowercased, else `other`; close time = `endDate`; tick size = `orderPriceMinTickSize`; minimum
 *   size = `orderMinSize`; `neg_risk` = `negRisk`.
 * - Status: `open` when Gamma says active and accepting orders; a listed market that does not
 *   accept orders (`acceptingOrders: false`, or not `active`) is written `closed`: nothing can be
 *   traded there now, and it reopens when Gamma says it accepts orders again.
 * - `question_key`: the Kalshi ticker the operator linked this condition to (`question_links`,
 *   services/catalog/questionLinks.ts), else null. Listings are never joined by their text: a wrong join
 *   would trade the wrong question with real money.
 *
 * A row is written only when something in it changed, so a sync of an unchanged venue writes
 * nothing. After a complete listing (a sync that failed half-way closes nothing), the open live
 * Polymarket rows the listing did not name are looked up by condition id (`condition_ids=`, 100 a
 * call, `closed=true`): those Gamma says the oracle resolved (`umaResolutionStatus: resolved`) are
 * marked `settled`, every other one `closed` (closed, or no longer served by Gamma). A listed market
 * we left out (skipped or malformed) counts as listed: its row, if any, is not closed on that account.
 *
 * Safe when several cores sync at once: inserts race on the unique (venue, venue_market_id) and
 * become updates; every status change of an unlisted row is conditional on the row still being open.
 */
export type PolymarketCatalogSource = Pick<GammaMarkets, 'markets'>;

export interface PolymarketCatalogSyncOptions {
  /** Markets per page of the listing (1..100); 100 by default. */
  readonly pageLimit?: number;
  readonly logger?: Logger;
}

export interface PolymarketCatalogSyncCounts {
  /** Open markets Gamma listed (kept, skipped and malformed). */
  readonly listed: number;
  /** Rows created or changed. */
  readonly upserted: number;
  /** Rows that were open and are now closed or settled. */
  readonly closed: number;
  /** Listed markets left out: not binary Yes/No, no order book, or rules we cannot trade. */
  readonly skipped: number;
  /** Listed markets left out because Gamma's fields could not be read (JSON-encoded strings that do not parse). */
  readonly malformed: number;
}

interface CatalogRow {
  id: string;
  condition_id: string;
  title: string;
  description: string;
  category: string;
  status: 'open' | 'closed';
  tick_size: string;
  min_size: string;
  close_time: string | null;
  yes_token_id: string;
  no_token_id: string;
  neg_risk: boolean;
}

const TOKEN_ID = /^[0-9]{1,78}$/;

/** The row for one listed market, or the reason it is left out. */
export function polymarketRowOf(market: GammaListedMarket): CatalogRow | { skip: string } {
  if (!market.enableOrderBook) return { skip: 'no order book (enableOrderBook false)' };
  const outcomes = market.outcomes.map((o) => o.trim().toLowerCase());
  const yes = outcomes.indexOf('yes');
  const no = outcomes.indexOf('no');
  if (outcomes.length !== 2 || yes < 0 || no < 0) return { skip: `not a Yes/No market (outcomes ${JSON.stringify(market.outcomes)})` };
  const [yesToken, noToken] = [market.clobTokenIds[yes], market.clobTokenIds[no]];
  if (market.clobTokenIds.length !== 2 || !TOKEN_ID.test(yesToken ?? '') || !TOKEN_ID.test(noToken ?? '') || yesToken === noToken) {
    return { skip: 'clobTokenIds are not two distinct token ids' };
  }
  if (market.tickSize === null || market.minSize === null) return { skip: 'no orderPriceMinTickSize or orderMinSize' };
  try {
    // The rules an order on the row will be checked by: a market they refuse is not listed.
    marketRulesOf({ venue: 'polymarket', tickSize: market.tickSize, minSize: market.minSize });
  } catch (error) {
    if (error instanceof RangeError) return { skip: error.message };
    throw error;
  }
  const category = market.category.trim().toLowerCase();
  return {
    id: newId('market'),
    condition_id: market.conditionId,
    title: market.question,
    description: market.description,
    category: category === '' ? 'other' : category,
    status: market.active && market.acceptingOrders && !market.closed ? 'open' : 'closed',
    tick_size: market.tickSize,
    min_size: market.minSize,
    close_time: market.endDate?.toISOString() ?? null,
    yes_token_id: yesToken!,
    no_token_id: noToken!,
    neg_risk: market.negRisk,
  };
}

/** Inserts new rows and updates changed ones (the question key from `question_links`); answers how many were written. */
async function upsertRows(db: Db, rows: readonly CatalogRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO markets AS m (id, environment, venue, venue_market_id, question_key, title, description, category, status,
                              tick_size, min_size, close_time, yes_token_id, no_token_id, neg_risk)
    SELECT r.id, 'live'::"Environment", 'polymarket'::"Venue", r.condition_id, l.kalshi_ticker, r.title, r.description, r.category,
           r.status::"MarketStatus", r.tick_size::numeric, r.min_size::numeric, r.close_time::timestamptz, r.yes_token_id,
           r.no_token_id, r.neg_risk
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
             id text, condition_id text, title text, description text, category text, status text, tick_size text,
             min_size text, close_time text, yes_token_id text, no_token_id text, neg_risk boolean)
      LEFT JOIN question_links l ON l.polymarket_condition_id = r.condition_id
    ON CONFLICT (venue, venue_market_id) DO UPDATE SET
      question_key = EXCLUDED.question_key, title = EXCLUDED.title, description = EXCLUDED.description,
      category = EXCLUDED.category, status = EXCLUDED.status, tick_size = EXCLUDED.tick_size, min_size = EXCLUDED.min_size,
      close_time = EXCLUDED.close_time, yes_token_id = EXCLUDED.yes_token_id, no_token_id = EXCLUDED.no_token_id,
      neg_risk = EXCLUDED.neg_risk, updated_at = now()
    WHERE m.environment = 'live'::"Environment"
      AND (m.question_key, m.title, m.description, m.category, m.status, m.tick_size, m.min_size, m.close_time, m.yes_token_id,
           m.no_token_id, m.neg_risk)
          IS DISTINCT FROM
          (EXCLUDED.question_key, EXCLUDED.title, EXCLUDED.description, EXCLUDED.category, EXCLUDED.status, EXCLUDED.tick_size,
           EXCLUDED.min_size, EXCLUDED.close_time, EXCLUDED.yes_token_id, EXCLUDED.no_token_id, EXCLUDED.neg_risk)
    RETURNING m.id`;
  return written.length;
}

/** Closes (or settles) the open live Polymarket rows the complete listing did not name; answers how many changed. */
async function closeUnlisted(db: Db, source: PolymarketCatalogSource, listed: ReadonlySet<string>): Promise<number> {
  const open = await db.market.findMany({ where: { environment: 'live', venue: 'polymarket', status: 'open' }, select: { venueMarketId: true } });
  const missing = open.map((row) => row.venueMarketId).filter((conditionId) => !listed.has(conditionId));
  let changed = 0;
  for (let i = 0; i < missing.length; i += GAMMA_MAX_CONDITION_IDS) {
    const batch = missing.slice(i, i + GAMMA_MAX_CONDITION_IDS);
    const resolved = new Set<string>();
    for await (const page of source.markets({ closed: true, conditionIds: batch })) {
      for (const entry of page) if ('market' in entry && entry.market.resolved) resolved.add(entry.market.conditionId);
    }
    const byStatus = { settled: batch.filter((id) => resolved.has(id)), closed: batch.filter((id) => !resolved.has(id)) };
    for (const status of ['closed', 'settled'] as const) {
      if (byStatus[status].length === 0) continue;
      changed += await db.$executeRaw`
        UPDATE markets SET status = ${status}::"MarketStatus", updated_at = now()
         WHERE environment = 'live'::"Environment" AND venue = 'polymarket'::"Venue" AND status = 'open'::"MarketStatus"
           AND venue_market_id = ANY(${byStatus[status]}::text[])`;
    }
  }
  return changed;
}

/** One sync of the live Polymarket catalog (see the top of this file). Throws when Gamma cannot be listed; nothing is closed then. */
export async function syncPolymarketCatalog(db: Db, source: PolymarketCatalogSource, options: PolymarketCatalogSyncOptions = {}): Promise<PolymarketCatalogSyncCounts> {
  const listed = new Set<string>();
  const skipped: { conditionId: string; reason: string }[] = [];
  const malformed: { conditionId: string | null; reason: string }[] = [];
  let upserted = 0;
  for await (const page of source.markets({ closed: false, limit: options.pageLimit })) {
    const rows: CatalogRow[] = [];
    for (const entry of page) {
      if ('malformed' in entry) {
        malformed.push({ conditionId: entry.conditionId, reason: entry.malformed });
        if (entry.conditionId !== null) listed.add(entry.conditionId.toLowerCase());
        continue;
      }
      const { market } = entry;
      if (market.closed) continue; // not open, whatever the filter said
      listed.add(market.conditionId);
      const row = polymarketRowOf(market);
      if ('skip' in row) skipped.push({ conditionId: market.conditionId, reason: row.skip });
      else rows.push(row);
    }
    upserted += await upsertRows(db, rows);
  }
  if (skipped.length > 0) {
    options.logger?.info({ skipped: skipped.length, examples: skipped.slice(0, 5) }, 'Polymarket markets left out of the live catalog: not binary Yes/No with an order book we can trade');
  }
  if (malformed.length > 0) {
    options.logger?.warn({ malformed: malformed.length, examples: malformed.slice(0, 5) }, 'Polymarket markets left out of the live catalog: Gamma sent fields we cannot read');
  }
  const closed = await closeUnlisted(db, source, listed);
  return { listed: listed.size + malformed.filter((m) => m.conditionId === null).length, upserted, closed, skipped: skipped.length, malformed: malformed.length };
}

/** What the scheduled sync reads of the configuration (core/config.ts). */
export interface PolymarketCatalogSettings {
  /** Unset: the sync is off. */
  readonly POLYMARKET_GAMMA_URL?: string;
  readonly POLYMARKET_CATALOG_SYNC_MS: number;
  readonly POLYMARKET_TIMEOUT_MS: number;
}

/**
 * Syncs the live Polymarket catalog at start-up (in the background: the core does not wait for
 * Gamma) and every `POLYMARKET_CATALOG_SYNC_MS` from `POLYMARKET_GAMMA_URL`; off when that is unset
 * or the interval is 0. One sync at a time per core. A failed sync is logged (public data: nothing
 * secret to leak), once per streak of failures (failureStreak.ts), and retried at the next interval;
 * it never stops the core. `stop()` ends the
 * schedule, aborts the calls in flight and waits for the sync to finish.
 */
export function startPolymarketCatalogSync(db: Db, config: PolymarketCatalogSettings, logger: Logger): { stop(): Promise<void> } {
  if (config.POLYMARKET_GAMMA_URL === undefined || config.POLYMARKET_CATALOG_SYNC_MS === 0) return { stop: async () => undefined };
  const gamma = new GammaMarkets({ baseUrl: config.POLYMARKET_GAMMA_URL, timeoutMs: config.POLYMARKET_TIMEOUT_MS });
  let stopped = false;
  const streak = failureStreak(logger, {
    job: `The live Polymarket catalog sync (${config.POLYMARKET_GAMMA_URL})`,
    consequence: 'live Polymarket markets stay as last synced (none on a fresh start); the test environment is not affected',
    howToSet: 'unset POLYMARKET_GAMMA_URL or set POLYMARKET_CATALOG_SYNC_MS=0 to turn it off, or point POLYMARKET_GAMMA_URL at a Gamma this machine reaches (docs/polymarket.md)',
  });
  const round = async () => {
    const counts = await syncPolymarketCatalog(db, gamma, { logger });
    streak.succeeded();
    logger.info(counts, 'Polymarket catalog synced');
  };
  const failed = (error: unknown) => {
    if (!stopped) streak.failed(error);
  };
  const first = round().catch(failed);
  const periodic = runPeriodically(config.POLYMARKET_CATALOG_SYNC_MS, async () => {
    await first;
    await round();
  }, failed);
  return {
    async stop() {
      stopped = true;
      await gamma.close();
      await periodic.stop();
      await first;
    },
  };
}
