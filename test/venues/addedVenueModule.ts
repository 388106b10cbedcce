/**
 * A fourth venue, test-only: a simulated venue of its own name (sim-fourth), trading on the house's
 * matching engine under rules of its own (ticks of 0.10, at least 3 contracts, no fee). Imported
 * first by the suite that trades on it (addedVenue.test.ts), so that it is added before anything
 * loads the venue registry: a venue the product ships is a folder and a line in the registry
 * instead (docs/house-plan.md, "A venue").
 */
import { addVenueModule } from '../../core/venues/addedVenueModules';
import type { VenueModule } from '../../core/venues/venueModule';
import { polymarketMarketRules } from '../../core/domain/venueRules';

export const FOURTH_VENUE = 'sim-fourth';

export const fourthVenueModule: VenueModule = {
  name: FOURTH_VENUE,
  environment: 'test',
  capabilities: { tradesCanFail: false, positionsNet: false, gtdMinLeadMs: 0 },
  // The power-law fee family at a rate of 0: no fee; a tick of 0.1 and a minimum of 3, whatever the row says.
  marketRules: () => polymarketMarketRules({ tickSize: '0.1', minOrderSize: '3' }),
};

addVenueModule(fourthVenueModule);
