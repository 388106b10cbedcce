import type { Db } from '../../db/prismaClient';
import type { Fill, Order, Prisma } from '../../generated/prisma/client';
import { averagePriceOf, Decimal, formatDecimal, roundMoney } from '../../domain/decimals';
import { statusAfterReversal } from '../../domain/orderLifecycle';
import { cashChangeOf, replayFills, type PositionFill } from '../../domain/positionAccounting';
import type { VenueColumn } from '../../venues/venueModules';
import type { Logger } from '../../support/logger';
import { lockVenueFillIds } from './failedVenueFills';
import { createReceipt, receiptOrderHeader } from './receipts';
import { addToDailyPnl } from '../risk/dailyPnl';

type Tx = Prisma.TransactionClient;

/**
 * Reversing a recorded fill whose venue trade FAILED (Polymarket CLOB V2: a trade counts as a fill
 * when MATCHED; it is then mined and CONFIRMED, or ends FAILED after RETRYING). The fill row stays,
 * marked `reversed_at`; everything it moved is put back as if it never happened, in one transaction
 * under the same locks as the recording of fills (the subaccount's and the order's rows, then the
 * venue fill id's advisory lock), never across a venue call:
 *
 * - the position of (subaccount, market, side) is replayed from its remaining fills in recording
 *   order (`recorded_seq`, one database sequence: fill ids are ULIDs, monotonic only within one
 *   process, so two cores' fills could sort apart from their recording), with the pure accounting: quantity, average cost, and the realized P&L of every
 *   later sell, which depends on the average cost (each changed fill's `realized_pnl` is rewritten);
 * - `daily_pnl` loses the fill's realized P&L, fee, count and volume, and takes the changes of the
 *   later fills on their own days;
 * - the order's filled quantity, Σ price × quantity, average price, fees and status
 *   (`statusAfterReversal`); a test subaccount's simulated cash (live cash is the venue's);
 * - a new receipt records the reversal and names the receipt that recorded the fill, which stays
 *   as it was.
 *
 * Reads follow without further work: positions, the P&L history and limit usage read the rows
 * above; complex orders' executions, execution reports and analytics leave reversed fills out.
 */
export interface FailureReport {
  /** Why, as the venue said it (e.g. "trade FAILED"). */
  reason: string;
  /** When the venue reported it (or when the adapter saw it). */
  reportedAt: Date;
}

export type ReversalResult =
  | { outcome: 'reversed'; fillId: string; orderId: string; receiptId: string }
  /** Reported before: nothing changed. */
  | { outcome: 'already_reversed'; fillId: string; orderId: string }
  /** No fill with this id is recorded: the failure is remembered, and the fill will never be recorded. */
  | { outcome: 'not_recorded'; alreadyReported: boolean }
  /**
   * Without the fill a later sell of the same position would sell more than was held (the sell's own
   * trade is bound to fail too): nothing changed; reported again after that sell's reversal, it goes through.
   */
  | { outcome: 'blocked'; fillId: string; orderId: string; reason: string };

export async function reverseFill(db: Db, venue: VenueColumn, venueFillId: string, report: FailureReport): Promise<ReversalResult> {
  // Twice at most: a fill recorded between the first look and the advisory lock is reversed on the second pass.
  for (;;) {
    const fill = await db.fill.findUnique({ where: { venue_venueFillId: { venue, venueFillId } }, select: { orderId: true } });
    if (fill) return reverseRecorded(db, fill.orderId, venue, venueFillId, report);
    const remembered = await rememberFailure(db, venue, venueFillId, report);
    if (remembered) return remembered;
  }
}

export type ReversalCounts = Record<ReversalResult['outcome'], number>;

/**
 * Fills a venue reports as failed (its stream, or a sweep of its trades), each through
 * `reverseFill`, one at a time (each its own transaction, never across a venue call). A blocked one
 * is tried again after the others, as long as a pass reverses something: a buy blocked only by a
 * later sell that failed in the same report goes through once that sell is reversed. Logged: a
 * reversal and a failure remembered before its fill was recorded at info, one still blocked at warn
 * (it is reported again by every later sweep whose window still holds the trade, and goes through
 * once the sell that blocks it is reversed); a repeated report changes nothing and is not logged.
 */
export async function reverseFailedFills(db: Db, venue: VenueColumn, fills: readonly { venueFillId: string }[], report: FailureReport, logger: Logger): Promise<ReversalCounts> {
  const counts: ReversalCounts = { reversed: 0, already_reversed: 0, not_recorded: 0, blocked: 0 };
  let pending = fills.map((fill) => fill.venueFillId);
  for (;;) {
    const blocked: { venueFillId: string; result: Extract<ReversalResult, { outcome: 'blocked' }> }[] = [];
    const reversedBefore = counts.reversed;
    for (const venueFillId of pending) {
      const result = await reverseFill(db, venue, venueFillId, report);
      if (result.outcome === 'blocked') {
        blocked.push({ venueFillId, result });
        continue;
      }
      counts[result.outcome] += 1;
      if (result.outcome === 'reversed') logger.info({ venue, venueFillId, fillId: result.fillId, orderId: result.orderId, receiptId: result.receiptId, reason: report.reason }, 'reversed a fill whose venue trade failed');
      else if (result.outcome === 'not_recorded' && !result.alreadyReported) logger.info({ venue, venueFillId, reason: report.reason }, 'a venue trade failed before its fill was recorded; it will never be recorded');
    }
    if (blocked.length > 0 && counts.reversed > reversedBefore) {
      pending = blocked.map((entry) => entry.venueFillId);
      continue;
    }
    for (const { venueFillId, result } of blocked) {
      counts.blocked += 1;
      logger.warn({ venue, venueFillId, fillId: result.fillId, orderId: result.orderId, blockedBy: result.reason }, 'a fill whose venue trade failed cannot be reversed yet; reported again on later sweeps');
    }
    return counts;
  }
}

/** Null when the fill was recorded meanwhile (it is then reversed instead). */
async function rememberFailure(db: Db, venue: VenueColumn, venueFillId: string, report: FailureReport): Promise<ReversalResult | null> {
  return db.$transaction(async (tx) => {
    await lockVenueFillIds(tx, venue, [venueFillId]);
    if (await tx.fill.findUnique({ where: { venue_venueFillId: { venue, venueFillId } }, select: { id: true } })) return null;
    const inserted = await tx.failedVenueFill.createMany({
      data: [{ venue, venueFillId, reason: report.reason, reportedAt: report.reportedAt }],
      skipDuplicates: true,
    });
    return { outcome: 'not_recorded', alreadyReported: inserted.count === 0 };
  });
}

async function reverseRecorded(db: Db, orderId: string, venue: VenueColumn, venueFillId: string, report: FailureReport): Promise<ReversalResult> {
  return db.$transaction(async (tx) => {
    // The lock order of recordExecution: the subaccount's and the order's rows, then the fill id.
    await tx.$queryRaw`
      SELECT s.id FROM subaccounts s JOIN orders o ON o.subaccount_id = s.id WHERE o.id = ${orderId} FOR UPDATE OF s, o`;
    await lockVenueFillIds(tx, venue, [venueFillId]);
    const fill = await tx.fill.findUniqueOrThrow({ where: { venue_venueFillId: { venue, venueFillId } } });
    if (fill.reversedAt) return { outcome: 'already_reversed', fillId: fill.id, orderId };
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId } });

    const standing = await tx.fill.findMany({
      where: { subaccountId: fill.subaccountId, marketId: fill.marketId, side: fill.side, reversedAt: null, id: { not: fill.id } },
      orderBy: { recordedSeq: 'asc' },
    });
    const replay = replayFills(standing.map(positionFillOf));
    if (!replay.ok) {
      const sell = standing[replay.index]!;
      return {
        outcome: 'blocked',
        fillId: fill.id,
        orderId,
        reason: `without fill ${fill.id}, sell fill ${sell.id} of ${sell.quantity.toFixed()} exceeds the ${replay.held.toFixed()} held`,
      };
    }

    const now = new Date();
    await tx.fill.update({ where: { id: fill.id }, data: { reversedAt: now, reversalReason: report.reason } });
    const reversed = positionFillOf(fill);
    await addToDailyPnl(tx, fill, fill.createdAt, {
      realizedPnl: new Decimal(fill.realizedPnl.toString()).neg(),
      fees: reversed.fee.neg(),
      fills: -1,
      volume: roundMoney(reversed.price.mul(reversed.quantity)).neg(),
    });
    let realizedChange = new Decimal(fill.realizedPnl.toString()).neg();
    for (const [index, later] of standing.entries()) {
      const realized = replay.effects[index]!.realizedPnl;
      const change = realized.sub(later.realizedPnl.toString());
      if (change.isZero()) continue;
      await tx.fill.update({ where: { id: later.id }, data: { realizedPnl: realized.toFixed() } });
      await addToDailyPnl(tx, later, later.createdAt, { realizedPnl: change, fees: new Decimal(0), fills: 0, volume: new Decimal(0) });
      realizedChange = realizedChange.add(change);
    }

    const key = { subaccountId: fill.subaccountId, marketId: fill.marketId, side: fill.side };
    const position = await tx.position.findUniqueOrThrow({ where: { subaccountId_marketId_side: key } });
    await tx.position.update({
      where: { subaccountId_marketId_side: key },
      data: {
        quantity: replay.position.quantity.toFixed(),
        costBasis: replay.position.cost.toFixed(),
        realizedPnl: realizedChange.add(position.realizedPnl.toString()).toFixed(),
        updatedAt: now,
      },
    });
    if (order.environment === 'test') {
      await tx.subaccount.update({ where: { id: order.subaccountId }, data: { cashBalance: { decrement: cashChangeOf(reversed).toFixed() } } });
    }

    const filled = new Decimal(order.filledQuantity.toString()).sub(reversed.quantity);
    const notional = new Decimal(order.filledNotional.toString()).sub(reversed.price.mul(reversed.quantity));
    const updated = await tx.order.update({
      where: { id: order.id },
      data: {
        filledQuantity: filled.toFixed(),
        filledNotional: notional.toFixed(),
        averageFillPrice: formatDecimal(averagePriceOf(notional, filled)),
        feesPaid: new Decimal(order.feesPaid.toString()).sub(reversed.fee).toFixed(),
        status: statusAfterReversal(order.status, filled),
        updatedAt: now,
      },
    });
    const receiptId = await writeReversalReceipt(tx, updated, fill, report, now);
    return { outcome: 'reversed', fillId: fill.id, orderId, receiptId };
  });
}

const positionFillOf = (fill: Fill): PositionFill => ({
  action: fill.action,
  price: new Decimal(fill.price.toString()),
  quantity: new Decimal(fill.quantity.toString()),
  fee: new Decimal(fill.fee.toString()),
});

/**
 * The reversal's receipt: the order as it now stands and the fill taken back, naming the receipt
 * that recorded the fill (found by the fill's venue id in its content). Hashed like every receipt.
 */
async function writeReversalReceipt(tx: Tx, order: Order, fill: Fill, report: FailureReport, recordedAt: Date): Promise<string> {
  const [original] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM receipts
     WHERE order_id = ${order.id} AND content->'fills' @> jsonb_build_array(jsonb_build_object('venue_fill_id', ${fill.venueFillId}::text))
     ORDER BY id LIMIT 1`;
  return createReceipt(tx, order, {
    ...(await receiptOrderHeader(tx, order)),
    kind: 'fill_reversal',
    reverses_receipt_id: original?.id ?? null,
    reversed_fill: {
      fill_id: fill.id,
      venue_fill_id: fill.venueFillId,
      side: fill.side,
      action: fill.action,
      price: fill.price.toFixed(),
      quantity: fill.quantity.toFixed(),
      fee: fill.fee.toFixed(),
      is_taker: fill.isTaker,
      executed_at: fill.createdAt.toISOString(),
    },
    reason: report.reason,
    reported_at: report.reportedAt.toISOString(),
    order_status: order.status,
    order_filled_quantity: formatDecimal(order.filledQuantity),
    recorded_at: recordedAt.toISOString(),
  });
}
