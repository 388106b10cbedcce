import { formatDecimal } from '../../domain/decimals';
import { kalshiMarketRules, polymarketMarketRules, type PolymarketTickSize } from '../../domain/venueRules';
import type { VenueModule } from '../venueModule';

/**
 * The test environment's two simulated venues (docs/simulated-venues.md): each trades under the
 * rules of the real venue it models, in this core's memory or in the simulated venues' service.
 */
export const simKalshiVenueModule = {
  name: 'sim-kalshi',
  environment: 'test',
  capabilities: { tradesCanFail: false, positionsNet: false, gtdMinLeadMs: 0 },
  /** Kalshi's simulated rules: cent ticks, whole contracts, the taker fee. */
  marketRules: () => kalshiMarketRules(),
  testMarkets: { tickSize: '0.01', minSize: '1' },
} as const satisfies VenueModule<'sim-kalshi'>;

export const simPolymarketVenueModule = {
  name: 'sim-polymarket',
  environment: 'test',
  capabilities: { tradesCanFail: false, positionsNet: false, gtdMinLeadMs: 0 },
  /** Polymarket's rules from the market's tick size and minimum size. */
  marketRules: (row) =>
    polymarketMarketRules({ tickSize: formatDecimal(row.tickSize) as PolymarketTickSize, minOrderSize: formatDecimal(row.minSize) }),
  /** Most Polymarket markets: cent ticks, at least 5 shares. */
  testMarkets: { tickSize: '0.01', minSize: '5' },
} as const satisfies VenueModule<'sim-polymarket'>;

export const SIM_VENUE_MODULES = [simKalshiVenueModule, simPolymarketVenueModule] as const;
/** The simulated venues' names: every list of them (the in-process venues, the service's calls) is this one. */
export const SIM_VENUE_NAMES = SIM_VENUE_MODULES.map((module) => module.name);
