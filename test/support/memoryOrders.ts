import type { OurOrderRecord, OurOrders } from '../../core/venues/venue';

/**
 * Our records of our orders for a venue adapter under test, as the database keeps them (the core's
 * port, core/venues/ourOrders.ts): written before the send, the venue order id once known.
 */
export class MemoryOrders implements OurOrders {
  readonly records = new Map<string, OurOrderRecord>();
  async byClientOrderId(clientOrderId: string) {
    return this.records.get(clientOrderId) ?? null;
  }
  async byVenueOrderIds(ids: readonly string[]) {
    return [...this.records.values()].filter((record) => record.venueOrderId !== null && ids.includes(record.venueOrderId));
  }
}
