import { validateKalshiCredential } from '../../domain/credentialShapes';
import { formatDecimal } from '../../domain/decimals';
import type { MarketRulesRow } from '../../domain/marketRules';
import { liveKalshiMarketRules, readPriceRanges, WHOLE_CENT_PRICE_RANGES, type MarketRules } from '../../domain/venueRules';
import type { VenueModule } from '../venueModule';
import { kalshiCatalogSchedule } from './catalogSource';
import { openKalshiLive } from './liveSetup';

/**
 * A live Kalshi market's rules: its synced price ranges, quantity step and fee schedule
 * (domain/venueRules/kalshiLive.ts); a row the sync did not write (no ranges) trades in whole cents
 * up to its tick size.
 */
function kalshiRulesOf(row: MarketRulesRow): MarketRules {
  const tickSize = formatDecimal(row.tickSize);
  return liveKalshiMarketRules({
    priceRanges: readPriceRanges(row.priceRanges) ?? WHOLE_CENT_PRICE_RANGES.map((range) => ({ ...range, step: tickSize })),
    fractionalTrading: row.fractionalTrading ?? false,
    feeType: row.feeType ?? null,
    feeMultiplier: row.feeMultiplier == null ? null : formatDecimal(row.feeMultiplier),
    minSize: formatDecimal(row.minSize),
  });
}

/**
 * Live Kalshi (Trade API v2; order writes on the V2 endpoints since June 2026, docs/kalshi.md), on
 * the exchange of the same name: an RSA API key issued by its demo or production environment
 * (docs/credentials.md).
 */
export const kalshiVenueModule = {
  name: 'kalshi',
  environment: 'live',
  exchange: { name: 'kalshi', checkCredential: validateKalshiCredential },
  capabilities: { tradesCanFail: false, positionsNet: true, gtdMinLeadMs: 1_000 },
  marketRules: kalshiRulesOf,
  catalog: kalshiCatalogSchedule,
  openLive: openKalshiLive,
} as const satisfies VenueModule<'kalshi'>;
