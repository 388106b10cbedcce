import type { Db } from '../../db/prismaClient';
import { sqlList } from '../../db/sqlLists';
import { Decimal } from '../../domain/decimals';
import { RESTING_STATUSES } from '../../domain/orderLifecycle';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { VenueColumn } from '../../venues/venueModules';
import type { VenueRegistry } from '../../venues/venue';
import { recordExecution } from './executions';

export interface ExpirySweepOptions {
  /** At most this many due orders looked up per round, the longest due first. */
  batch?: number;
  /** Each venue call's deadline. */
  callTimeoutMs?: number;
}

/**
 * The expiry sweep (docs/trading.md, "Expiring orders"): a gtd order leaves its venue's book at its
 * `expires_at` by the venue's own expiry (Kalshi `expiration_time`, Polymarket GTD, the simulated
 * venues' clock), and a venue's stream may tell us (the order's cancel, recorded `expired`). This
 * finds the rest: each round, the resting orders whose `expires_at` has passed are asked for their
 * state at their venue by our client order id; a venue that ended the order (canceled there,
 * nothing filled that we have not recorded) has it recorded, through `recordExecution`, as
 * `expired`, its reserved cash and limits released. An order the venue still has open, or that filled
 * more than we hold (the fill sweep and the working-order sweep record those, with their fills), is
 * left for a later round. No lock is held across a venue call; every call has a deadline. Safe on
 * several cores: recording is a compare-and-set, and a core whose venue does not know an order
 * (another core's simulated book) leaves it alone.
 */
export async function expireDueOrders(db: Db, venues: VenueRegistry, logger: Logger, options: ExpirySweepOptions = {}): Promise<{ due: number; expired: number }> {
  const due = await db.$queryRaw<{ id: string; subaccount_id: string; venue: VenueColumn; market_id: string; filled_quantity: string }[]>`
    SELECT id, subaccount_id, venue, market_id, filled_quantity::text AS filled_quantity FROM orders
     WHERE expires_at <= now() AND status IN ${sqlList(RESTING_STATUSES)}
     ORDER BY expires_at LIMIT ${options.batch ?? 100}`;
  let expired = 0;
  for (const order of due) {
    try {
      const venue = await venues.forSubaccount(order.venue, order.subaccount_id);
      const state = await venue?.getOrder(order.id, { deadline: Date.now() + (options.callTimeoutMs ?? 5000) });
      if (!state || state.clientOrderId !== order.id || state.status !== 'canceled') continue;
      if (new Decimal(state.filledQuantity).gt(order.filled_quantity)) continue; // fills first: the fill sweep's
      const recorded = await recordExecution(db, order.id, { fills: [], state });
      if (recorded.status === 'expired') expired += 1;
      venues.marketActivity?.(order.market_id);
    } catch (error) {
      logger.warn({ err: error, orderId: order.id }, 'could not record the expiry of an order; the next round tries again');
    }
  }
  return { due: due.length, expired };
}

/** Runs the sweep every `intervalMs` until stopped. */
export function startExpirySweep(db: Db, venues: VenueRegistry, logger: Logger, options: ExpirySweepOptions & { intervalMs: number }) {
  return runPeriodically(
    options.intervalMs,
    async () => {
      const counts = await expireDueOrders(db, venues, logger, options);
      if (counts.expired > 0) logger.info({ expiry: counts }, 'recorded expired orders');
    },
    (error) => logger.error({ err: error }, 'the expiry sweep failed; retrying on the next round'),
  );
}
