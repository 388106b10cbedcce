import { SimVenue, type SimMarketConfig, type SimVenueName } from '../../../core/venues/sim';
import type { VenueOrderRequest, VenuePlaceResult } from '../../../core/venues/venue';

export const FIXED_TIME = '2025-03-04T05:06:07.000Z';
export const fixedClock = () => new Date(FIXED_TIME);

/** sim-kalshi markets: FED charges makers, COIN sits at 0.50 (the fee doc's figures). */
export const KALSHI_MARKETS: SimMarketConfig[] = [
  { venueMarketId: 'FED-CUT-DEC', tickSize: '0.01', minSize: '1', fairValue: '0.62', makerFees: true },
  { venueMarketId: 'COIN-FLIP', tickSize: '0.01', minSize: '1', fairValue: '0.50' },
];

export const POLYMARKET_MARKETS: SimMarketConfig[] = [
  { venueMarketId: 'pm-fed-cut-dec', tickSize: '0.01', minSize: '5', fairValue: '0.62' },
  { venueMarketId: 'pm-gdp-q-neg', tickSize: '0.001', minSize: '5', fairValue: '0.12', takerFeeRateBps: 100 },
  { venueMarketId: 'pm-mars-launch', tickSize: '0.0001', minSize: '5', fairValue: '0.06' },
];

export function kalshiVenue(seed = 7): SimVenue {
  return new SimVenue({ name: 'sim-kalshi', markets: KALSHI_MARKETS, seed, clock: fixedClock });
}

export function polymarketVenue(seed = 7): SimVenue {
  return new SimVenue({ name: 'sim-polymarket', markets: POLYMARKET_MARKETS, seed, clock: fixedClock });
}

export function venueNamed(name: SimVenueName, seed = 7): SimVenue {
  return name === 'sim-kalshi' ? kalshiVenue(seed) : polymarketVenue(seed);
}

let sequence = 0;

/** A GTC limit order with a fresh client order id unless one is given. */
export function order(overrides: Partial<VenueOrderRequest> & Pick<VenueOrderRequest, 'venueMarketId'>): VenueOrderRequest {
  return {
    clientOrderId: `cid-${++sequence}`,
    side: 'yes',
    action: 'buy',
    type: 'limit',
    quantity: '1',
    timeInForce: 'gtc',
    ...overrides,
  };
}

export function accepted(result: VenuePlaceResult): Extract<VenuePlaceResult, { outcome: 'accepted' }> {
  if (result.outcome !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(result)}`);
  return result;
}
