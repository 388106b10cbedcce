import type { Environment } from '../../contract/environment';
import type { ShapeResult } from '../domain/credentialShapes';
import type { MarketRulesRow } from '../domain/marketRules';
import type { MarketRules } from '../domain/venueRules';

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
