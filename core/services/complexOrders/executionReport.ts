/**
 * The execution report (TCA) of one complex order: the stored order, its child orders and their
 * fills turned into a TcaInput for computeExecutionQuality (core/domain/tca), plus a per-child
 * summary. How each input field comes from the stored rows: docs/tca.md, "Execution report of a
 * complex order".
 *
 * Reads a constant number of queries whatever the number of children: the complex order, its
 * children (with their Order rows), the fills of those orders, and — only while the order has no
 * stored end mid — its listings, whose books give the live consolidated mid.
 */
import type { Db } from '../../db/prismaClient';
import type { ChildOrder, ComplexOrder, Fill } from '../../generated/prisma/client';
import { DomainError } from '../../domain/errors';
import { Decimal, formatDecimal } from '../../domain/decimals';
import { averagePrice } from '../../domain/planning/executionFigures';
import { computeExecutionQuality, type ExecutionQualityReport, type TcaChildOrder, type TcaInput, type TcaPrediction } from '../../domain/tca';
import { venueName, type VenueName } from '../../venues/venueModules';
import { getComplexOrder, midOfPlan, predictionOf } from '.';
import type { VenueRegistry } from '../../venues/venue';
import type { Scope } from '../scope';

/** Where the benchmark P0 came from (see docs/tca.md). */
export type ArrivalSource = 'arrival_mid' | 'predicted_average_price' | 'first_mid_at_send' | 'first_fill_price';
/** Where P_end came from: the stored end mid, the books now, or a fallback when no mid exists. */
export type EndMidSource = 'end_mid' | 'live_mid' | 'last_fill_price' | 'arrival';

/** One child order of the complex order, sent or not, with what its fills add up to. */
export interface ChildOrderSummary {
  id: string;
  orderId: string | null;
  venue: VenueName;
  marketId: string;
  status: ChildOrder['status'];
  /** The status of the child's Order row; null until the child is sent. */
  orderStatus: string | null;
  sliceIndex: number | null;
  price: string | null;
  quantity: string;
  filledQuantity: string;
  /** Σ price × quantity / filled of its fills, 8 decimals; null when nothing filled. */
  averageFillPrice: string | null;
  fees: string;
  expectedFilledQuantity: string;
  scheduledAt: string;
  sentAt: string | null;
  midAtSend: string | null;
  rejectCode: string | null;
  rejectReason: string | null;
  /** Whether the child is one of the TCA's children (it was sent). */
  measured: boolean;
}

export type ExecutionReport = {
  complexOrderId: string;
  status: ComplexOrder['status'];
  strategy: string;
  marketId: string;
  subaccountId: string;
  arrivalSource: ArrivalSource;
  endMidSource: EndMidSource;
  children: ChildOrderSummary[];
} & ExecutionQualityReport;

const text = (value: { toFixed(): string } | null | undefined): string | null => (value == null ? null : value.toFixed());
const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/**
 * The execution report of a complex order of the scope (another workspace's or environment's id
 * answers not_found). While the order works, the end is now and the unfilled rest is valued at the
 * live consolidated mid.
 */
export async function executionReport(db: Db, venues: VenueRegistry, scope: Scope, complexOrderId: string): Promise<ExecutionReport> {
  const order = await getComplexOrder(db, scope, complexOrderId);
  const children = await db.childOrder.findMany({
    where: { complexOrderId: order.id },
    include: { order: { select: { status: true, createdAt: true } } },
    orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }],
  });
  const orderIds = children.flatMap((child) => (child.orderId === null ? [] : [child.orderId]));
  const fills = orderIds.length === 0
    ? []
    : await db.fill.findMany({ where: { orderId: { in: orderIds }, reversedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const fillsByOrder = new Map<string, Fill[]>();
  for (const fill of fills) fillsByOrder.set(fill.orderId, [...(fillsByOrder.get(fill.orderId) ?? []), fill]);
  const fillsOf = (child: ChildOrder) => (child.orderId === null ? [] : fillsByOrder.get(child.orderId) ?? []);

  // A child is measured once sent (sent_at, set when the scheduler claims it), unless it was refused
  // before reaching a venue (rejected with no Order row: a pre-trade check said no). A child whose
  // Order row has fills but no sent_at (should not happen) is measured from its Order's creation.
  const sentAtOf = (child: (typeof children)[number]): Date | null => {
    if (child.status === 'rejected' && child.orderId === null) return null;
    return child.sentAt ?? (fillsOf(child).length > 0 && child.order ? child.order.createdAt : null);
  };
  const sent = children
    .map((child) => ({ child, sentAt: sentAtOf(child) }))
    .filter((entry): entry is { child: (typeof children)[number]; sentAt: Date } => entry.sentAt !== null)
    .sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime());

  const { arrival, arrivalSource } = benchmarkOf(order, sent.map((entry) => entry.child), fills);
  const { endMid, endMidSource } = await endMidOf(db, venues, order, fills, arrival);

  const tcaChildren: TcaChildOrder[] = sent.map(({ child, sentAt }) => ({
    childId: child.id,
    venue: venueName(child.venue),
    sentAt: sentAt.toISOString(),
    midAtSend: text(child.midAtSend) ?? arrival,
    quantity: child.quantity.toFixed(),
    fills: fillsOf(child).map((fill) => ({
      price: fill.price.toFixed(),
      quantity: fill.quantity.toFixed(),
      fee: fill.fee.toFixed(),
      executedAt: fill.createdAt.toISOString(),
    })),
  }));
  const tcaPrediction: TcaPrediction = {
    expectedAveragePrice: text(order.predictedAveragePrice),
    allInAveragePrice: predictionOf(order).plan?.recommended?.impact?.allInAveragePrice ?? null,
    expectedFilledQuantity: order.predictedFilledQuantity.toFixed(),
  };
  const input: TcaInput = {
    side: order.side,
    action: order.action,
    intendedQuantity: order.quantity.toFixed(),
    arrivalMid: arrival,
    endMid,
    startedAt: order.createdAt.toISOString(),
    endedAt: (order.completedAt ?? new Date()).toISOString(),
    children: tcaChildren,
    prediction: tcaPrediction,
  };

  const measured = new Set(sent.map((entry) => entry.child.id));
  return {
    complexOrderId: order.id,
    status: order.status,
    strategy: order.strategy,
    marketId: order.marketId,
    subaccountId: order.subaccountId,
    arrivalSource,
    endMidSource,
    ...computeExecutionQuality(input),
    children: children.map((child) => childSummary(child, fillsOf(child), measured.has(child.id))),
  };
}

/**
 * P0: the consolidated mid stored at placement; when a book side was empty everywhere then, the
 * predicted average price (what the plan expected to pay). Should neither exist, the mid when the
 * first child was sent, then the first fill's price.
 */
function benchmarkOf(order: ComplexOrder, sentChildren: readonly ChildOrder[], fills: readonly Fill[]): { arrival: string; arrivalSource: ArrivalSource } {
  if (order.arrivalMid !== null) return { arrival: order.arrivalMid.toFixed(), arrivalSource: 'arrival_mid' };
  if (order.predictedAveragePrice !== null) return { arrival: order.predictedAveragePrice.toFixed(), arrivalSource: 'predicted_average_price' };
  const firstMid = sentChildren.find((child) => child.midAtSend !== null)?.midAtSend;
  if (firstMid) return { arrival: firstMid.toFixed(), arrivalSource: 'first_mid_at_send' };
  if (fills.length > 0) return { arrival: firstByTime(fills).price.toFixed(), arrivalSource: 'first_fill_price' };
  throw new DomainError('conflict', `Complex order '${order.id}' has no arrival price to measure against: no mid, prediction or fill.`);
}

/** P_end: end_mid once final; else the live consolidated mid; else the last fill's price; else P0. */
async function endMidOf(
  db: Db,
  venues: VenueRegistry,
  order: ComplexOrder,
  fills: readonly Fill[],
  arrival: string,
): Promise<{ endMid: string; endMidSource: EndMidSource }> {
  if (order.endMid !== null) return { endMid: order.endMid.toFixed(), endMidSource: 'end_mid' };
  const live = await midOfPlan(db, venues, order);
  if (live !== null) return { endMid: live, endMidSource: 'live_mid' };
  if (fills.length > 0) return { endMid: lastByTime(fills).price.toFixed(), endMidSource: 'last_fill_price' };
  return { endMid: arrival, endMidSource: 'arrival' };
}

const firstByTime = (fills: readonly Fill[]) => fills.reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
const lastByTime = (fills: readonly Fill[]) => fills.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a));

function childSummary(child: ChildOrder & { order: { status: string } | null }, fills: readonly Fill[], measured: boolean): ChildOrderSummary {
  let filled = new Decimal(0);
  let notional = new Decimal(0);
  let fees = new Decimal(0);
  for (const fill of fills) {
    filled = filled.plus(fill.quantity.toFixed());
    notional = notional.plus(new Decimal(fill.price.toFixed()).times(fill.quantity.toFixed()));
    fees = fees.plus(fill.fee.toFixed());
  }
  return {
    id: child.id,
    orderId: child.orderId,
    venue: venueName(child.venue),
    marketId: child.marketId,
    status: child.status,
    orderStatus: child.order?.status ?? null,
    sliceIndex: child.sliceIndex,
    price: text(child.price),
    quantity: child.quantity.toFixed(),
    filledQuantity: formatDecimal(filled),
    averageFillPrice: averagePrice(notional, filled),
    fees: formatDecimal(fees),
    expectedFilledQuantity: child.expectedFilledQuantity.toFixed(),
    scheduledAt: child.scheduledAt.toISOString(),
    sentAt: iso(child.sentAt),
    midAtSend: text(child.midAtSend),
    rejectCode: child.rejectCode,
    rejectReason: child.rejectReason,
    measured,
  };
}
