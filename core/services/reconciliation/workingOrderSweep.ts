import { Decimal, quantityOf } from '../../domain/decimals';
import type { Db } from '../../db/prismaClient';
import { sqlList } from '../../db/sqlLists';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueColumn } from '../../venues/venueModules';
import type { Logger } from '../../support/logger';
import type { LiveAccounts } from '../../venues/liveAccounts';
import { recordExecution } from '../orders/executions';

/**
 * The working-order sweep: an order the venue ended on its own (Polymarket's heartbeat lapse, a
 * resolved market's cancel) reaches us only on the venue's stream; this finds it without. Each
 * round, for each live account with working orders older than the grace (so an order being placed
 * is not judged): the venue's open orders are read once (`openOrderIds`, a venue that has none is
 * left out), and each of our `open` / `partially_filled` orders missing from them is asked
 * for its state by its client order id (`getOrder`), at most `cap` per round (picked at random, so
 * orders the venue cannot answer for do not starve the others). A state still open
 * changes nothing. A state that filled more than we hold is recorded with its fills (the REST
 * fills since just before the order's creation), and only once those fills cover what the venue
 * says filled; else the order is left for the fill sweep and the next round: a filled order is
 * never recorded canceled. Every venue call has a deadline; no lock is held across one (records go
 * through `recordExecution`, the path the stream's states take). Only our orders are looked up,
 * by our own ids.
 */
export interface WorkingOrderSweepOptions {
  /** How old a working order must be to be judged; also each venue call's deadline. */
  graceMsOf(venue: VenueColumn): number;
  /** At most this many orders looked up per round. */
  cap?: number;
}

export async function sweepWorkingOrders(
  db: Db,
  accounts: ReadonlyMap<VenueColumn, LiveAccounts>,
  options: WorkingOrderSweepOptions,
  logger: Logger,
): Promise<{ accounts: number; lookedUp: number; ended: number }> {
  const counts = { accounts: 0, lookedUp: 0, ended: 0 };
  let budget = options.cap ?? 50;
  for (const [venueColumn, live] of accounts) {
    const graceMs = options.graceMsOf(venueColumn);
    const working = await db.$queryRaw<{ id: string; subaccount_id: string; venue_order_id: string | null; filled_quantity: string; created_at: Date }[]>`
      SELECT id, subaccount_id, venue_order_id, filled_quantity::text AS filled_quantity, created_at FROM orders
       WHERE environment = 'live' AND venue = ${venueColumn}::text AND status IN ${sqlList(RESTING_STATUSES)}
         AND created_at < now() - ${graceMs} * interval '1 millisecond'
       ORDER BY random()`; // orders the venue cannot answer for now do not keep the cap from the others
    const bySubaccount = new Map<string, typeof working>();
    for (const row of working) {
      const ofSubaccount = bySubaccount.get(row.subaccount_id) ?? [];
      ofSubaccount.push(row);
      bySubaccount.set(row.subaccount_id, ofSubaccount);
    }
    for (const [subaccountId, orders] of bySubaccount) {
      if (budget <= 0) return counts;
      const venue = await live.forSubaccount(subaccountId).catch(() => undefined);
      if (!venue?.openOrderIds) continue;
      const open = await venue.openOrderIds({ deadline: Date.now() + graceMs }).catch(() => null);
      if (open === null) continue;
      counts.accounts += 1;
      for (const order of orders) {
        if (order.venue_order_id !== null && open.has(order.venue_order_id.toLowerCase())) continue;
        if (budget <= 0) return counts;
        budget -= 1;
        counts.lookedUp += 1;
        const state = await venue.getOrder(order.id, { deadline: Date.now() + graceMs }).catch(() => null);
        if (state === null || state.clientOrderId !== order.id || state.status === 'open') continue;
        try {
          if (new Decimal(state.filledQuantity).gt(order.filled_quantity)) {
            const fills = (await venue.fillsSince(new Date(order.created_at.getTime() - 60_000)).catch(() => null))?.filter((fill) => fill.clientOrderId === order.id);
            const seen = quantityOf(fills ?? []);
            if (fills === undefined || seen.lt(state.filledQuantity)) continue; // the fill sweep first
            await recordExecution(db, order.id, { fills, state });
          } else {
            await recordExecution(db, order.id, { fills: [], state });
          }
          counts.ended += 1;
        } catch (error) {
          logger.warn({ err: error, venue: venueColumn, orderId: order.id }, 'could not record the venue state of a working order; the next round tries again');
        }
      }
    }
  }
  return counts;
}
