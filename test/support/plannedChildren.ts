import type { PlannedChildOrder } from '../../core/domain/planning';
import type { Venue, VenuePlaceResult } from '../../core/venues/venue';

/**
 * Sends a planned child to its venue exactly as planned (the planner's fields are the venue
 * request's), and returns the venue's acceptance; a refusal fails the test that sent it.
 */
export async function sendPlannedChild(
  venue: Venue,
  child: PlannedChildOrder,
  clientOrderId: string,
): Promise<Extract<VenuePlaceResult, { outcome: 'accepted' }>> {
  const result = await venue.placeOrder({
    clientOrderId,
    venueMarketId: child.venueMarketId,
    side: child.side,
    action: child.action,
    type: child.type,
    price: child.price,
    quantity: child.quantity,
    timeInForce: child.timeInForce,
  });
  if (result.outcome !== 'accepted') throw new Error(`child ${clientOrderId} refused: ${JSON.stringify(result)}`);
  return result;
}
