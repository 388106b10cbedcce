/**
 * A venue's catalog, as its module lists it for the one catalog sync (core/services/catalog/
 * catalogSync.ts): the open markets in the catalog's columns, and where the markets it no longer
 * lists stand. A source reads the venue; the sync writes the `markets` rows.
 */

/** Where a listed market stands, in the lifecycle's terms (core/domain/marketLifecycle.ts). */
export type CatalogStatus = 'open' | 'closed' | 'determined' | 'settled';

/** One open market as a venue lists it, in the `markets` table's terms. */
export interface CatalogListing {
  readonly venueMarketId: string;
  /**
   * The question it lists, when the venue names one itself (a Kalshi ticker is one binary
   * question); null when only an operator's question link can say (core/services/catalog/questionLinks.ts).
   */
  readonly questionKey: string | null;
  readonly title: string;
  readonly description: string;
  /** Lower case; `other` when the venue gives none. */
  readonly category: string;
  /** Listed open but not accepting orders now: `closed`. */
  readonly status: CatalogStatus;
  readonly tickSize: string;
  readonly minSize: string;
  readonly closeTime: Date | null;
  /** The columns only some venues' rules or wire need; left out, they are null (false). */
  readonly priceRanges?: unknown;
  readonly feeType?: string | null;
  readonly feeMultiplier?: string | null;
  readonly fractionalTrading?: boolean;
  readonly yesTokenId?: string;
  readonly noTokenId?: string;
  readonly negRisk?: boolean;
  /** The venue's grouping it belongs to (a Kalshi event, a Polymarket event); left out when the venue names none. */
  readonly event?: CatalogEvent;
  /** Contracts traded as the venue reports (a decimal string); left out when it does not. */
  readonly volume?: string | null;
}

/** A venue's event, as a listing names it (the `market_events` row). */
export interface CatalogEvent {
  readonly venueEventId: string;
  readonly title: string;
  /** Lower case; `other` when the venue gives none. */
  readonly category: string;
  /** Kalshi's series ticker. */
  readonly seriesKey?: string | null;
}

/**
 * One entry of a listing: a market, or one left out. `skipped`: it cannot be traded here (its rules,
 * its outcomes); `malformed`: the venue's fields could not be read. Either way it counts as listed:
 * its row, if any, is not closed on that account.
 */
export type CatalogEntry =
  | { readonly listing: CatalogListing }
  | { readonly venueMarketId: string; readonly skipped: string }
  | { readonly venueMarketId: string | null; readonly malformed: string };

export interface CatalogSource {
  /** The venue's open markets, a page at a time (`pageLimit` markets); throws when the venue cannot be listed. */
  listOpen(options?: { pageLimit?: number }): AsyncIterable<CatalogEntry[]>;
  /**
   * Where markets the listing did not name stand now, by venue market id: `settled` once decided,
   * `closed` otherwise; `open` for one the venue still trades (a listing paged by offset can miss a
   * market that moved meanwhile). An id the venue does not answer for is left out (it is closed).
   */
  statusesOf(venueMarketIds: readonly string[]): Promise<ReadonlyMap<string, CatalogStatus>>;
  /** Aborts the calls in flight and closes the connections. */
  close(): Promise<void>;
}

/** A module's scheduled catalog: its source, how often it is synced, and what a failing sync tells the operator. */
export interface CatalogSchedule {
  readonly source: CatalogSource;
  readonly intervalMs: number;
  /** Where it reads from, for the logs (a URL, an environment). */
  readonly origin: string;
  /** What the operator can set when it keeps failing (failureStreak's `howToSet`). */
  readonly howToSet: string;
}
