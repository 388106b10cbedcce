import DataLoader from 'dataloader';
import type { VenueRegistry } from '../services/orders';
import type { QueuePositionView } from '../venues/venue';
import type { VenueColumn } from '../domain/venues';

/**
 * Per-request loaders: a list of 200 orders asks each venue for queue positions in one pass
 * instead of one resolver call at a time.
 */
export interface Loaders {
  queuePosition: DataLoader<{ orderId: string; venue: VenueColumn }, QueuePositionView | null, string>;
}

export function createLoaders(venues: VenueRegistry): Loaders {
  return {
    queuePosition: new DataLoader(
      async (keys) =>
        Promise.all(keys.map(async ({ orderId, venue }) => (await venues.get(venue)?.queuePosition(orderId)) ?? null)),
      { cacheKeyFn: (key) => key.orderId },
    ),
  };
}
