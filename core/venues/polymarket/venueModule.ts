import type { VenueModule } from '../venueModule';
import { polymarketCatalogSchedule } from './catalogSource';
import { catalogConditionId } from './gammaMarkets';
import { openPolymarketLive } from './liveSetup';
import { polymarketCredentialShape } from './credentials';
import { polymarketRulesOf } from './marketRules';

/**
 * Live Polymarket (CLOB V2, docs/polymarket.md), on the exchange of the same name: a wallet (its
 * key, signature type and funder; API credentials optional). A market's rules: marketRules.ts.
 * Its trades can fail after they matched (FAILED on chain): such a fill is reversed.
 */
export const polymarketVenueModule = {
  name: 'polymarket',
  environment: 'live',
  exchange: { name: 'polymarket', checkCredential: polymarketCredentialShape },
  capabilities: { tradesCanFail: true, positionsNet: false, gtdMinLeadMs: 130_000 },
  marketRules: polymarketRulesOf,
  catalog: polymarketCatalogSchedule,
  /** A market is a condition: its id in lower case. */
  marketIdOf: (input) => {
    const id = catalogConditionId(input);
    return id === null ? { ok: false, expected: 'a Polymarket condition id (0x and 64 hex digits)' } : { ok: true, id };
  },
  openLive: openPolymarketLive,
} as const satisfies VenueModule<'polymarket'>;
