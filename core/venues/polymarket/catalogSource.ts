import type { CatalogEntry, CatalogSchedule, CatalogSource, CatalogStatus } from '../catalogSource';
import { GAMMA_MAX_CONDITION_IDS, GammaMarkets, type GammaListedMarket } from './gammaMarkets';
import { polymarketRulesOf } from './marketRules';

/**
 * The live Polymarket catalog (docs/polymarket.md "Live catalog"; Gamma markets API, keyset
 * listing, as of 2026-11), as the catalog sync reads it (core/services/catalog/catalogSync.ts
 * writes the rows). A listing pages Gamma's open markets (`GET /markets/keyset?closed=false`, 100
 * a page); the venue market id is the condition id: one condition is one binary question with two
 * outcome tokens.
 *
 * - Listed: markets with an order book (`enableOrderBook`) whose `outcomes` are exactly Yes and No
 *   (either order, any case); their `clobTokenIds` are mapped by the position of "Yes" and "No" in
 *   `outcomes` to the YES and NO token ids. Anything else (multi-outcome or named outcomes, no
 *   book, token ids that are not two distinct decimal ids, a tick or minimum size we cannot trade)
 *   is skipped; a market whose JSON-encoded string fields do not parse is malformed.
 * - Written: title = `question`; description; category = `category` (else its event's),
 *   lowercased, else `other`; close time = `endDate`; tick size = `orderPriceMinTickSize`; minimum
 *   size = `orderMinSize`; neg risk = `negRisk`.
 * - Status: `open` when Gamma says active and accepting orders; a listed market that does not
 *   accept orders (`acceptingOrders: false`, or not `active`) is `closed`: nothing can be traded
 *   there now, and it reopens when Gamma says it accepts orders again.
 * - Question key: none of its own; the Kalshi ticker an operator linked the condition to (question
 *   links). Listings are never joined by their text: a wrong join would trade the wrong question
 *   with real money.
 *
 * Markets the listing no longer names are looked up by condition id (`condition_ids=`, 100 a call,
 * `closed=true`): those Gamma says the oracle resolved (`umaResolutionStatus: resolved`) are
 * `settled`, every other one `closed` (closed, or no longer served by Gamma).
 */
export type PolymarketCatalogReads = Pick<GammaMarkets, 'markets' | 'close'>;

const TOKEN_ID = /^[0-9]{1,78}$/;

/** The catalog's entry for one listed market: its listing, or why it is left out. */
export function polymarketEntryOf(market: GammaListedMarket): CatalogEntry {
  const skipped = (reason: string) => ({ venueMarketId: market.conditionId, skipped: reason });
  if (!market.enableOrderBook) return skipped('no order book (enableOrderBook false)');
  const outcomes = market.outcomes.map((o) => o.trim().toLowerCase());
  const yes = outcomes.indexOf('yes');
  const no = outcomes.indexOf('no');
  if (outcomes.length !== 2 || yes < 0 || no < 0) return skipped(`not a Yes/No market (outcomes ${JSON.stringify(market.outcomes)})`);
  const [yesToken, noToken] = [market.clobTokenIds[yes], market.clobTokenIds[no]];
  if (market.clobTokenIds.length !== 2 || !TOKEN_ID.test(yesToken ?? '') || !TOKEN_ID.test(noToken ?? '') || yesToken === noToken) {
    return skipped('clobTokenIds are not two distinct token ids');
  }
  if (market.tickSize === null || market.minSize === null) return skipped('no orderPriceMinTickSize or orderMinSize');
  try {
    // The rules an order on the row will be checked by: a market they refuse is not listed.
    polymarketRulesOf({ tickSize: market.tickSize, minSize: market.minSize });
  } catch (error) {
    if (error instanceof RangeError) return skipped(error.message);
    throw error;
  }
  const category = market.category.trim().toLowerCase();
  return {
    listing: {
      venueMarketId: market.conditionId,
      questionKey: null,
      title: market.question,
      description: market.description,
      category: category === '' ? 'other' : category,
      status: market.active && market.acceptingOrders && !market.closed ? 'open' : 'closed',
      tickSize: market.tickSize,
      minSize: market.minSize,
      closeTime: market.endDate,
      yesTokenId: yesToken!,
      noTokenId: noToken!,
      negRisk: market.negRisk,
      volume: market.volume,
      ...(market.event
        ? { event: { venueEventId: market.event.id, title: market.event.title, category: market.event.category.trim().toLowerCase() || (category === '' ? 'other' : category) } }
        : {}),
    },
  };
}

/** Polymarket's catalog over Gamma. */
export function polymarketCatalogSource(gamma: PolymarketCatalogReads): CatalogSource {
  return {
    async *listOpen(options = {}) {
      for await (const page of gamma.markets({ closed: false, limit: options.pageLimit })) {
        const entries: CatalogEntry[] = [];
        for (const entry of page) {
          if ('malformed' in entry) entries.push({ venueMarketId: entry.conditionId?.toLowerCase() ?? null, malformed: entry.malformed });
          else if (!entry.market.closed) entries.push(polymarketEntryOf(entry.market)); // a closed one is not open, whatever the filter said
        }
        yield entries;
      }
    },
    async statusesOf(conditionIds) {
      const statuses = new Map<string, CatalogStatus>();
      for (let i = 0; i < conditionIds.length; i += GAMMA_MAX_CONDITION_IDS) {
        for await (const page of gamma.markets({ closed: true, conditionIds: conditionIds.slice(i, i + GAMMA_MAX_CONDITION_IDS) })) {
          for (const entry of page) if ('market' in entry) statuses.set(entry.market.conditionId, entry.market.resolved ? 'settled' : 'closed');
        }
      }
      return statuses;
    },
    close: () => gamma.close(),
  };
}

/** What the scheduled sync reads of the configuration (core/config.ts). */
export interface PolymarketCatalogSettings {
  /** Unset: the sync is off. */
  readonly POLYMARKET_GAMMA_URL?: string;
  readonly POLYMARKET_CATALOG_SYNC_MS: number;
  readonly POLYMARKET_TIMEOUT_MS: number;
}

/** The live Polymarket catalog, synced every `POLYMARKET_CATALOG_SYNC_MS` from `POLYMARKET_GAMMA_URL`; null when either is off. */
export function polymarketCatalogSchedule(config: PolymarketCatalogSettings): CatalogSchedule | null {
  if (config.POLYMARKET_GAMMA_URL === undefined || config.POLYMARKET_CATALOG_SYNC_MS === 0) return null;
  return {
    source: polymarketCatalogSource(new GammaMarkets({ baseUrl: config.POLYMARKET_GAMMA_URL, timeoutMs: config.POLYMARKET_TIMEOUT_MS })),
    intervalMs: config.POLYMARKET_CATALOG_SYNC_MS,
    origin: config.POLYMARKET_GAMMA_URL,
    howToSet: 'unset POLYMARKET_GAMMA_URL or set POLYMARKET_CATALOG_SYNC_MS=0 to turn it off, or point POLYMARKET_GAMMA_URL at a Gamma this machine reaches (docs/polymarket.md)',
  };
}
