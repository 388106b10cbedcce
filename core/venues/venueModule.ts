import type { Environment } from '../../contract/environment';
import type { ShapeResult } from '../domain/credentialShapes';
import type { MarketRulesRow } from '../domain/marketRules';
import type { MarketRules } from '../domain/venueRules';
import type { CatalogSchedule } from './catalogSource';
import type { Db } from '../db/prismaClient';
import type { Logger } from '../support/logger';
import type { LiveAccounts } from './liveAccounts';
import type { VenueCallObserver } from './observedVenue';
import type { MarketData, VenueFill, VenueOrderState } from './venue';
import type { VenueColumn } from './venueNames';

/**
 * What a venue's module says of it: everything the rest of the core needs to know of a venue
 * beyond the calls of `Venue` (venue.ts). Each venue's folder exports one (`kalshi/venueModule.ts`,
 * `polymarket/venueModule.ts`, `sim/venueModules.ts` for the two simulated venues), and
 * `venueModules.ts` lists them: every other list of venues or exchanges in the core, the schema and
 * the gateway is derived from that one (docs/house-plan.md, "A venue").
 */
export interface VenueModule<Name extends string = string> {
  /** Its name as the REST API spells it (sim-kalshi); GraphQL and the database spell it with an underscore (contract/venueSpelling.ts). */
  readonly name: Name;
  /** Where it trades: test keys trade only on test venues, live keys only on live ones. */
  readonly environment: Environment;
  /** The exchange whose credentials a subaccount attaches to trade on it; none on a simulated venue. */
  readonly exchange?: ExchangeModule;
  readonly capabilities: VenueCapabilities;
  /** The trading rules (ticks, sizes, fees) of one of its markets, from the market's catalog row. */
  marketRules(row: MarketRulesRow): MarketRules;
  /**
   * Its catalog, as the one catalog sync runs it (core/services/catalog/catalogSync.ts): the source
   * and its schedule under the core's configuration (the settings it reads), or null when turned
   * off. A venue without one lists its markets another way (the simulated venues' seeded catalog).
   */
  catalog?(config: object): CatalogSchedule | null;
  /**
   * One of its market ids as a person writes it (an operator's question link), in its catalog
   * rows' spelling; or what such an id looks like, when `input` cannot be one. Without it an id
   * is taken as written (trimmed).
   */
  marketIdOf?(input: string): { ok: true; id: string } | { ok: false; expected: string };
  /**
   * A simulated venue that lists test helpers' markets (POST /v1/test_helpers/markets): their tick
   * and minimum size on it.
   */
  readonly testMarkets?: { readonly tickSize: string; readonly minSize: string };
  /**
   * A live venue: opens its accounts (one per subaccount credential, opened when first used) and its
   * public market data, under the core's configuration; what the accounts report is recorded through
   * the core's `sinks`. A simulated venue is opened by the registry (registry.ts).
   */
  openLive?(deps: LiveVenueDeps): LiveVenueSetup;
}

/** What a live venue is opened with: the core's parts, its configuration (the settings the venue reads) and where its accounts' reports go. */
export interface LiveVenueDeps<Settings extends object = object> {
  readonly db: Db;
  readonly config: Settings;
  /** The key-encryption keys that open the subaccounts' stored credentials. */
  readonly keyring: ReadonlyMap<string, Buffer>;
  readonly logger: Logger;
  /** Hears of every call an account makes (the core's metrics). */
  readonly observer: VenueCallObserver;
  readonly sinks: LiveVenueSinks;
}

/** Where a live venue's accounts report what happens (the core's services own the bookkeeping); each is idempotent. */
export interface LiveVenueSinks {
  /** Fills of our orders at `venue`, by venue fill id. */
  recordFills(venue: VenueColumn, fills: VenueFill[]): Promise<unknown>;
  /** For a venue whose trades can fail (capabilities.tradesCanFail): a listing's fills, and the failed ones reversed. */
  recordFillsAndFailures(venue: VenueColumn, listed: { fills: VenueFill[]; failed: VenueFill[] }): Promise<unknown>;
  /** The venue's word on one of our orders. */
  recordState(orderId: string, state: VenueOrderState): Promise<unknown>;
  /**
   * A venue's notice that one of its markets settled (Kalshi's `market_lifecycle_v2` `settled`): the
   * settlement sweep looks now rather than at its interval when we hold the market. A hint only: the
   * venue's records are read for the truth, so a notice lost, repeated or late changes nothing.
   */
  marketSettled(venue: VenueColumn, venueMarketId: string): void;
  /** A live book kept from the venue's feed changed (core/venues/bookFeed.ts): the market-data streams read it again. Never throws. */
  marketMoved(venue: VenueColumn, venueMarketId: string): void;
}

/**
 * A live venue as the registry holds it: its accounts (one per subaccount credential) and its public
 * market data. Without accounts the venue only answers market data (planning, marks); its orders
 * answer as for a venue that is not running.
 */
export interface LiveVenueSetup {
  venue: VenueColumn;
  accounts?: LiveAccounts;
  marketData: MarketData;
  /** Closes what the setup holds beyond its accounts (market data connections). */
  close?: () => Promise<void>;
}


/**
 * What a venue does that others do not, where the core decides by venue rather than by asking an
 * adapter. Calls only some venues answer are optional methods of `Venue`/`LiveVenue` instead
 * (`marketOrderPrice`, `heartbeat`, `fillsAndFailuresSince`, `openOrderIds`).
 */
export interface VenueCapabilities {
  /**
   * Its matched trades can still fail to settle, so a recorded fill may be reversed later (CLOB V2:
   * a trade is MATCHED off chain, then MINED and CONFIRMED, or FAILED). Fills of other venues are final.
   */
  readonly tradesCanFail: boolean;
  /**
   * A YES and a NO held together are closed at once, paying 1 a pair, so the account holds one side
   * (Kalshi's signed `position_fp`); elsewhere both outcome tokens are held (Polymarket). Its
   * settlement records compare with ours after the pairs (core/domain/settlement.ts settlementDrift).
   */
  readonly positionsNet: boolean;
  /**
   * How far ahead a gtd order's `expiresAt` must be, at the least, when it is placed: the venue
   * refuses a nearer expiry (Polymarket: a signed expiration at least 3 minutes ahead, of which its
   * 1-minute security threshold is spent before the order leaves the book, plus 10 s for the trip
   * and the clocks), so the core refuses it first, with a 400 that says so.
   */
  readonly gtdMinLeadMs: number;
}

/** An exchange: where live venues' accounts are, and the credentials a subaccount attaches for it. */
export interface ExchangeModule<Name extends string = string> {
  /** Its name in the API (the path's `{exchange}`) and in the database. */
  readonly name: Name;
  /**
   * Checks a credential as a client attaches it: the normalized value to seal, its fingerprint and
   * (Kalshi) the venue environment that issued it; or the offending field and why (never the secret).
   */
  checkCredential(input: unknown): ShapeResult<unknown>;
}
