import type { Db } from '../../db/prismaClient';
import { DomainError } from '../../domain/errors';
import type { VenueRegistry } from '../../venues/venue';
import { venueName } from '../../venues/venueModules';
import { getMarket } from '../catalog/markets';
import type { Scope } from '../scope';

/**
 * A market the scope sees (another's is not_found) and its venue's market data; a venue not
 * running here is `venue_unavailable`, naming `what` could not be read (its book, its trades).
 */
export async function marketWithData(db: Db, venues: VenueRegistry, scope: Scope, marketId: string, what: string) {
  const market = await getMarket(db, scope, marketId);
  const data = venues.marketData(market.venue);
  if (!data) throw new DomainError('venue_unavailable', `The venue ${venueName(market.venue)} is not running here: ${what} cannot be read.`);
  return { market, data };
}
