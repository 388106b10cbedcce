import type { Db } from '../../db/prismaClient';
import type { Order } from '../../generated/prisma/client';
import { isSimulated, VENUE_NAMES, venueColumn } from '../../venues/venueModules';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { VenueRegistry } from '../../venues/venue';
import { claimUnconfirmedOrders, reconcileUnconfirmedOrder, type ReconcileCounts } from '../orders/unconfirmedOrders';

/** The simulated venues, as stored. */
const SIMULATED = VENUE_NAMES.filter(isSimulated).map(venueColumn);

export interface SimulatedReconcilerOptions {
  /** A `pending` or `unknown` test order untouched this long belongs to a request that died. */
  staleMs: number;
  /** An order its venue does not know is sent again (same client order id) while younger than this; older, it is recorded rejected. */
  resendMaxAgeMs: number;
  batch?: number;
}

/**
 * The simulated venues' reconciler: test orders left `pending` or `unknown` by a request that died
 * (a core stopped between its transaction and the venue's answer) are resolved without any client
 * retry, by the rules of live orders (unconfirmedOrders.ts): looked up by our client order id, sent
 * again with the same id while young, recorded rejected when older. A simulated book lives in a
 * core's memory: after a core stopped, the next one's venue does not know its orders, and sends them
 * again. Safe with several cores (the claim of unconfirmedOrders.ts).
 */
export async function reconcileSimulatedOrders(db: Db, venues: VenueRegistry, options: SimulatedReconcilerOptions): Promise<ReconcileCounts> {
  const claimed = await claimUnconfirmedOrders(db, {
    environment: 'test',
    venues: SIMULATED,
    leaseMs: options.staleMs,
    pendingStaleMs: options.staleMs,
    batch: options.batch,
  });
  const counts: ReconcileCounts = { claimed: claimed.length, found: 0, resent: 0, rejected: 0, deferred: 0 };
  for (const order of claimed) {
    const venue = await venues.forSubaccount(order.venue, order.subaccountId);
    if (!venue) {
      counts.deferred += 1;
      continue;
    }
    const fillsOf = async (o: Order) => (await venue.listFills()).filter((fill) => fill.clientOrderId === o.id);
    counts[await reconcileUnconfirmedOrder(db, venue, order, { ...options, fillsOf })] += 1;
  }
  return counts;
}

/** Runs rounds every `intervalMs` until stopped; a round's failure is logged and the next one runs. */
export function startSimulatedReconciler(db: Db, venues: VenueRegistry, logger: Logger, options: SimulatedReconcilerOptions & { intervalMs: number }) {
  return runPeriodically(
    options.intervalMs,
    async () => {
      const counts = await reconcileSimulatedOrders(db, venues, options);
      if (counts.claimed > 0) logger.info({ reconcile: counts }, 'reconciled simulated orders');
    },
    (error) => logger.error({ err: error }, 'simulated order reconciliation failed; retrying on the next round'),
  );
}
