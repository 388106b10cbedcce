import type { Db } from '../../db/prismaClient';
import type { ComplexOrder, Market } from '../../generated/prisma/client';
import type { ExecutionPlan } from '../../domain/planning';
import type { VenueRegistry } from '../../venues/venue';
import { consolidatedMidNow, listingsOfPlan } from './books';

/** What a complex order keeps of its plan: the listings it planned over and the plan itself. */
export interface StoredPrediction {
  marketIdsByVenue: Record<string, string>;
  plan: ExecutionPlan;
}

export const predictionOf = (order: ComplexOrder) => order.prediction as unknown as StoredPrediction;

/**
 * The consolidated mid now, in the parent's own terms, of the listings its plan used (the parent's
 * own market when the stored prediction names none, as in rows written by hand).
 */
export async function midOfPlan(db: Db, venues: VenueRegistry, parent: ComplexOrder): Promise<string | null> {
  const planned = Object.values(predictionOf(parent).marketIdsByVenue ?? {});
  const listings: Market[] = await listingsOfPlan(db, planned.length > 0 ? planned : [parent.marketId]);
  return consolidatedMidNow(venues, listings, parent.side);
}
