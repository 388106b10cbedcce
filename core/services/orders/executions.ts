import { sqlPoolOf, type Db } from '../../db/prismaClient';
import type { CommitWait } from '../../db/sql';
import type { Order, Prisma } from '../../generated/prisma/client';
import { newId } from '../../domain/ids';
import { applyFill, type FillEffect } from '../../domain/positionAccounting';
import { averagePriceOf, Decimal, formatDecimal, quantityOf } from '../../domain/decimals';
import { statusAfterReport } from '../../domain/orderLifecycle';
import { tradesCanFail } from '../../venues/venueModules';
import type { VenueFill, VenueOrderState } from '../../venues/venue';
import { lockVenueFillIds, recordedOrFailedVenueFillIds } from './failedVenueFills';
import { findOrder, setOrderStatusIfUnchanged } from './statements';
import { createReceipt, receiptOrderHeader } from './receipts';
import { addToDailyPnl } from '../risk/dailyPnl';

type Tx = Prisma.TransactionClient;

/**
 * Applies what a venue reports about one of our orders, in one transaction: new fills (each once,
 * by venue fill id), the position, the cash of a test subaccount, the order's filled quantity,
 * average price, fees and status, and a receipt for the fills. Called with the venue's answer to a
 * placement and with fills the venue pushes later; applying the same fill twice changes nothing.
 * `known`: the order as the caller just wrote or read it (the placement), so that an answer
 * without fills is one compare-and-set statement and no read; `commit`: how that statement commits
 * (the placement's, when its request writes again before answering: db/sql.ts, CommitWait). Fills
 * always commit flushed.
 */
export async function recordExecution(
  db: Db,
  orderId: string,
  report: { fills: VenueFill[]; state?: VenueOrderState },
  known?: Order,
  commit: CommitWait = 'flushed',
): Promise<Order> {
  if (report.fills.length === 0 && report.state) return recordStateOnly(db, orderId, report.state, known, commit);
  return recordUnderLock(db, orderId, report);
}

async function recordUnderLock(db: Db, orderId: string, report: { fills: VenueFill[]; state?: VenueOrderState }): Promise<Order> {
  return db.$transaction(async (tx) => {
    // Serialise everything that moves this subaccount's money and positions, and read the order
    // only once the lock is held: a concurrent recording of the same fills must see its result.
    // The order's row is locked too: a compare-and-set of its status (recordStateOnly, which takes
    // no subaccount lock) then waits, finds the order changed, and comes here instead of being
    // overwritten by what this transaction read before it.
    await tx.$queryRaw`
      SELECT s.id FROM subaccounts s JOIN orders o ON o.subaccount_id = s.id WHERE o.id = ${orderId} FOR UPDATE OF s, o`;
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId } });
    const fresh = await newFillsOnly(tx, order, report.fills);
    let filled = new Decimal(order.filledQuantity.toString());
    // The average is taken over the fills themselves (their exact Σ price × quantity, kept on the
    // order by a trigger on fills), not over the stored (rounded) average: rounded once.
    let notional = new Decimal(order.filledNotional.toString());
    let fees = new Decimal(order.feesPaid.toString());
    for (const fill of fresh) {
      const quantity = new Decimal(fill.quantity);
      const price = new Decimal(fill.price);
      const fee = new Decimal(fill.fee);
      const effect = await applyToPositionAndCash(tx, order, { price, quantity, fee });
      await tx.fill.create({
        data: {
          id: newId('fill'),
          workspaceId: order.workspaceId,
          environment: order.environment,
          subaccountId: order.subaccountId,
          orderId: order.id,
          marketId: order.marketId,
          venue: order.venue,
          venueFillId: fill.venueFillId,
          side: order.side,
          action: order.action,
          price: price.toFixed(),
          quantity: quantity.toFixed(),
          fee: fee.toFixed(),
          realizedPnl: effect.realizedPnl.toFixed(),
          isTaker: fill.isTaker,
          createdAt: new Date(fill.executedAt),
        },
      });
      await addToDailyPnl(tx, order, new Date(fill.executedAt), { realizedPnl: effect.realizedPnl, fees: fee, fills: 1, volume: effect.notional });
      filled = filled.add(quantity);
      notional = notional.add(effect.notional);
      fees = fees.add(fee);
    }
    const status = statusAfterReport(order.status, { filled, quantity: order.quantity.toString() }, report.state?.status, hasExpired(order));
    const venueOrderId = report.state?.venueOrderId ?? fresh[0]?.venueOrderId ?? order.venueOrderId;
    // Nothing new (the same fill recorded again, by another core or the sweep): the order stays as it is, updated_at too.
    if (fresh.length === 0 && status === order.status && venueOrderId === order.venueOrderId) return order;
    const updated = await tx.order.update({
      where: { id: order.id },
      data: {
        filledQuantity: filled.toFixed(),
        averageFillPrice: formatDecimal(averagePriceOf(notional, filled)),
        feesPaid: fees.toFixed(),
        status,
        venueOrderId,
        updatedAt: new Date(),
      },
    });
    if (fresh.length > 0) await writeReceipt(tx, updated, fresh);
    return updated;
  });
}

/**
 * A venue answer without fills (an order resting, or canceled) moves no money, so it needs no
 * lock: the status is decided by `statusAfterReport`, as on the locked path, and written only if the
 * order has not changed since it was read (compare-and-set); if it has, the locked path decides.
 */
async function recordStateOnly(db: Db, orderId: string, state: VenueOrderState, known: Order | undefined, commit: CommitWait): Promise<Order> {
  const sql = sqlPoolOf(db);
  const order = known ?? (await findOrder(sql, orderId));
  if (!order) throw new Error(`recordExecution: order ${orderId} does not exist`);
  const status = statusAfterReport(order.status, { filled: new Decimal(order.filledQuantity.toString()), quantity: order.quantity.toString() }, state.status, hasExpired(order));
  const written = await setOrderStatusIfUnchanged(sql, order, { status, venueOrderId: state.venueOrderId }, commit);
  return written ?? recordUnderLock(db, orderId, { fills: [], state });
}

/** Whether a gtd order's time has come: a cancel the venue reports then is its expiry. */
const hasExpired = (order: Pick<Order, 'expiresAt'>): boolean => order.expiresAt !== null && order.expiresAt.getTime() <= Date.now();

async function newFillsOnly(tx: Tx, order: Order, fills: VenueFill[]): Promise<VenueFill[]> {
  const mine = fills.filter((fill) => fill.clientOrderId === order.id);
  if (mine.length === 0) return [];
  const ids = mine.map((f) => f.venueFillId);
  // A trade the venue already reported FAILED is never recorded (core/services/orders/fillReversals.ts). The
  // lock that orders a failure report against this recording is needed only where trades can fail:
  // elsewhere it would be one more statement on every filled order's path for nothing.
  if (tradesCanFail(order.venue)) await lockVenueFillIds(tx, order.venue, ids);
  const seen = await recordedOrFailedVenueFillIds(tx, order.venue, ids);
  const fresh: VenueFill[] = [];
  for (const fill of mine) {
    if (seen.has(fill.venueFillId)) continue;
    seen.add(fill.venueFillId);
    fresh.push(fill);
  }
  return fresh;
}

async function applyToPositionAndCash(
  tx: Tx,
  order: Order,
  fill: { price: Decimal; quantity: Decimal; fee: Decimal },
): Promise<FillEffect> {
  const key = { subaccountId: order.subaccountId, marketId: order.marketId, side: order.side };
  const current = await tx.position.findUnique({ where: { subaccountId_marketId_side: key } });
  const effect = applyFill(
    {
      quantity: new Decimal(current?.quantity.toString() ?? 0),
      cost: new Decimal(current?.costBasis.toString() ?? 0),
    },
    { action: order.action, ...fill },
  );
  const realized = new Decimal(current?.realizedPnl.toString() ?? 0).add(effect.realizedPnl);
  const values = {
    quantity: effect.position.quantity.toFixed(),
    costBasis: effect.position.cost.toFixed(),
    realizedPnl: realized.toFixed(),
    updatedAt: new Date(),
  };
  await tx.position.upsert({ where: { subaccountId_marketId_side: key }, create: { ...key, ...values }, update: values });
  if (order.environment === 'test') {
    await tx.subaccount.update({
      where: { id: order.subaccountId },
      data: { cashBalance: { increment: effect.cashChange.toFixed() } },
    });
  }
  return effect;
}

async function writeReceipt(tx: Tx, order: Order, fills: VenueFill[]) {
  const quantity = quantityOf(fills);
  const notional = fills.reduce((sum, f) => sum.add(new Decimal(f.price).mul(f.quantity)), new Decimal(0));
  await createReceipt(tx, order, {
    ...(await receiptOrderHeader(tx, order)),
    request: {
      side: order.side,
      action: order.action,
      type: order.type,
      price: formatDecimal(order.price),
      quantity: formatDecimal(order.quantity),
      time_in_force: order.timeInForce,
    },
    fills: fills.map((f) => ({
      venue_fill_id: f.venueFillId,
      price: new Decimal(f.price).toFixed(),
      quantity: new Decimal(f.quantity).toFixed(),
      fee: new Decimal(f.fee).toFixed(),
      is_taker: f.isTaker,
      executed_at: new Date(f.executedAt).toISOString(),
    })),
    quantity: quantity.toFixed(),
    average_price: formatDecimal(averagePriceOf(notional, quantity)),
    fees: fills.reduce((sum, f) => sum.add(f.fee), new Decimal(0)).toFixed(),
    order_status: order.status,
    order_filled_quantity: formatDecimal(order.filledQuantity),
    recorded_at: new Date().toISOString(),
  });
}
