import type { Db } from '../../db/prismaClient';
import type { Order } from '../../generated/prisma/client';
import { WORKING_STATUSES } from '../../domain/orderLifecycle';
import type { VenueColumn } from '../../venues/venueModules';
import { sqlList } from '../../db/sqlLists';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import type { LiveAccounts } from '../../venues/liveAccounts';
import type { VenueFill } from '../../venues/venue';
import { recordExecution } from '../orders/executions';
import { reverseFailedFills } from '../orders/fillReversals';
import { recordedOrFailedVenueFillIds } from '../orders/failedVenueFills';
import { sweepWorkingOrders } from './workingOrderSweep';
import { claimUnconfirmedOrders, reconcileUnconfirmedOrder, type ReconcileCounts } from '../orders/unconfirmedOrders';

/**
 * The live reconciler: the background work that makes a live order's record match the venue
 * without any client retry. Database-driven and safe with several cores: an order is claimed by
 * moving its `updated_at` forward in one statement (`FOR UPDATE SKIP LOCKED`, committed at once),
 * so no lock is held while the venue is called and no two cores work on one order within a lease.
 *
 * - An order left `unknown` (the venue's answer was lost) or `pending` past `pendingStaleMs` (a core
 *   stopped while sending) is looked up at the venue by our client order id. Found: its state and
 *   fills are recorded. Not found and younger than `resendMaxAgeMs`: it is sent again with the
 *   **same** client order id, so the venue can never hold two (Kalshi answers 409
 *   `order_already_exists` if the first one landed after all, and the adapter then records that
 *   one). Not found and older: recorded `rejected` ("the venue has no order with our id").
 * - The fill sweep reads each live account's fills of the last `sweepWindowMs` and records those not
 *   recorded yet (idempotent by venue fill id): the venue's REST fills are the truth behind its stream.
 * - The working-order sweep (workingOrderSweep.ts) compares each account's open orders at the venue
 *   with our working ones, and records the end of those the venue ended on its own.
 */
export interface LiveReconcilerOptions {
  pendingStaleMs: number;
  resendMaxAgeMs: number;
  sweepWindowMs: number;
  batch?: number;
}

export type LiveAccountsByVenue = ReadonlyMap<VenueColumn, LiveAccounts>;

/** How long a claim keeps other cores off an order of this venue: twice one of its calls' timeout. */
const leaseMsOf = (accounts: LiveAccountsByVenue) => (venue: VenueColumn) => 2 * accounts.get(venue)!.callTimeoutMs;

/** One round over the orders whose fate at the venue is not known. */
export async function reconcileUnconfirmedOrders(db: Db, accounts: LiveAccountsByVenue, options: LiveReconcilerOptions): Promise<ReconcileCounts> {
  const counts: ReconcileCounts = { claimed: 0, found: 0, resent: 0, rejected: 0, deferred: 0 };
  if (accounts.size === 0) return counts;
  const claimed = [];
  // Each venue's orders under its own lease (its calls' timeout).
  for (const venue of accounts.keys()) claimed.push(...(await claimUnconfirmedOrders(db, { ...options, leaseMs: leaseMsOf(accounts)(venue), environment: 'live', venues: [venue] })));
  counts.claimed = claimed.length;
  for (const order of claimed) {
    const venue = await accounts.get(order.venue)!.forSubaccount(order.subaccountId).catch(() => undefined);
    if (!venue) {
      counts.deferred += 1;
      continue;
    }
    // The venue's REST fills since just before the order was created, ours among them.
    const fillsOf = async (o: Order) => (await venue.fillsSince(new Date(o.createdAt.getTime() - 60_000))).filter((fill) => fill.clientOrderId === o.id);
    counts[await reconcileUnconfirmedOrder(db, venue, order, { ...options, fillsOf })] += 1;
  }
  return counts;
}

/**
 * One sweep: every live account with orders working or recently touched; records the fills not yet
 * recorded, and, for a venue whose trades can fail after counting (`fillsAndFailuresSince`:
 * Polymarket), reverses the recorded fills of trades that failed in the window.
 */
export async function sweepLiveFills(
  db: Db,
  accounts: LiveAccountsByVenue,
  options: Pick<LiveReconcilerOptions, 'sweepWindowMs'>,
  logger: Logger,
): Promise<{ accounts: number; recorded: number; reversed: number }> {
  let swept = 0;
  let recorded = 0;
  let reversed = 0;
  for (const [venueColumn, live] of accounts) {
    const rows = await db.$queryRaw<{ subaccount_id: string }[]>`
      SELECT DISTINCT subaccount_id FROM orders
       WHERE environment = 'live' AND venue::text = ${venueColumn}
         AND (status IN ${sqlList(WORKING_STATUSES)} OR updated_at > now() - ${options.sweepWindowMs} * interval '1 millisecond')`;
    for (const { subaccount_id: subaccountId } of rows) {
      const venue = await live.forSubaccount(subaccountId).catch(() => undefined);
      if (!venue) continue;
      const since = new Date(Date.now() - options.sweepWindowMs);
      const listed = await (venue.fillsAndFailuresSince ? venue.fillsAndFailuresSince(since) : venue.fillsSince(since).then((fills) => ({ fills, failed: [] }))).catch(() => null);
      if (listed === null) continue;
      swept += 1;
      const counts = await recordFillsAndFailures(db, venueColumn, listed, logger);
      recorded += counts.recorded;
      reversed += counts.reversed;
    }
  }
  return { accounts: swept, recorded, reversed };
}

/**
 * One listing of a venue's trades: the failed ones reversed first, then the fills recorded. So a
 * FAILED trade of the listing is never recorded (recordNewFills leaves out what was reported FAILED),
 * and a buy that failed is reversed before a later sell of the listing is recorded (recorded first,
 * the sell would block the buy's reversal; recorded after, a sell exceeding what is then held is
 * refused, logged, and tried again by the next sweep, its trade bound to fail too).
 */
export async function recordFillsAndFailures(
  db: Db,
  venue: VenueColumn,
  listed: { fills: readonly VenueFill[]; failed: readonly VenueFill[] },
  logger: Logger,
): Promise<{ recorded: number; reversed: number }> {
  const reversed = listed.failed.length > 0 ? (await reverseFailedFills(db, venue, listed.failed, failedTradeReport(venue), logger)).reversed : 0;
  return { recorded: await recordNewFills(db, venue, listed.fills, logger), reversed };
}

/** The reason a reversal records for a venue's failed trade, reported now. */
const failedTradeReport = (venue: VenueColumn) => ({ reason: `the ${venue} trade FAILED: it did not settle`, reportedAt: new Date() });

/**
 * Records the fills not recorded yet and not reported FAILED, grouped by order, each order in its
 * own transaction. An order whose fills cannot be recorded (a sell that would exceed the position,
 * once an earlier buy's trade failed and was reversed) is logged and left for the next sweep; the
 * other orders are recorded all the same. Returns how many fills were recorded.
 */
export async function recordNewFills(db: Db, venue: VenueColumn, fills: readonly VenueFill[], logger: Logger): Promise<number> {
  if (fills.length === 0) return 0;
  // A trade reported FAILED before it was recorded is never recorded (checked again under the lock by recordExecution).
  const seen = await recordedOrFailedVenueFillIds(db, venue, fills.map((f) => f.venueFillId));
  const fresh = fills.filter((f) => !seen.has(f.venueFillId));
  const byOrder = new Map<string, VenueFill[]>();
  for (const fill of fresh) {
    const ofOrder = byOrder.get(fill.clientOrderId) ?? [];
    ofOrder.push(fill);
    byOrder.set(fill.clientOrderId, ofOrder);
  }
  let recorded = 0;
  for (const [orderId, orderFills] of byOrder) {
    try {
      await recordExecution(db, orderId, { fills: orderFills });
      recorded += orderFills.length;
    } catch (error) {
      logger.warn({ err: error, venue, orderId, fills: orderFills.length }, "could not record an order's fills; the other orders' are recorded, and the next sweep tries again");
    }
  }
  return recorded;
}

/** Runs the three loops until stopped; a round's failure is logged and the next round runs. */
export function startLiveReconciler(
  db: Db,
  accounts: LiveAccountsByVenue,
  logger: Logger,
  options: LiveReconcilerOptions & { reconcileIntervalMs: number; sweepIntervalMs: number; orderSweepIntervalMs: number },
): { stop(): Promise<void> } {
  const reconcile = runPeriodically(
    options.reconcileIntervalMs,
    async () => {
      const counts = await reconcileUnconfirmedOrders(db, accounts, options);
      if (counts.claimed > 0) logger.info({ reconcile: counts }, 'reconciled live orders');
    },
    (error) => logger.error({ err: error }, 'live order reconciliation failed; retrying on the next round'),
  );
  const sweep = runPeriodically(
    options.sweepIntervalMs,
    async () => {
      const { recorded } = await sweepLiveFills(db, accounts, options, logger);
      if (recorded > 0) logger.info({ fills: recorded }, 'fill sweep recorded fills the stream had not delivered');
    },
    (error) => logger.error({ err: error }, 'live fill sweep failed; retrying on the next round'),
  );
  const orderSweep = runPeriodically(
    options.orderSweepIntervalMs,
    async () => {
      const { ended } = await sweepWorkingOrders(db, accounts, { graceMsOf: leaseMsOf(accounts) }, logger);
      if (ended > 0) logger.info({ ended }, 'working-order sweep recorded orders the venue had ended on its own');
    },
    (error) => logger.error({ err: error }, 'live working-order sweep failed; retrying on the next round'),
  );
  return { stop: async () => void (await Promise.all([reconcile.stop(), sweep.stop(), orderSweep.stop()])) };
}
