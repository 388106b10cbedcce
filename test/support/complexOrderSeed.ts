import Decimal from 'decimal.js';
import type { Db } from '../../core/db/prismaClient';
import { averagePriceOf, formatDecimal } from '../../core/domain/decimals';
import { newId } from '../../core/domain/ids';
import type { ChildOrderStatus, ComplexOrderStatus, OrderStatus } from '../../core/generated/prisma/client';
import type { Scope } from '../../core/services/scope';

/**
 * A complex order as the service would have left it, written straight to the database: the parent,
 * its children, and for each child that reached a venue its order and fills. For the reports and
 * analytics over past executions, which read only what is stored.
 */
const RUN = `${Date.now().toString(36)}-${process.pid}`;
let fillSequence = 0;

export type VenueColumn = 'sim_kalshi' | 'sim_polymarket';

export interface SeedFill {
  price: string;
  quantity: string;
  fee: string;
  at: string;
}

export interface SeedChild {
  venue: VenueColumn;
  marketId: string;
  quantity: string;
  price?: string;
  status: ChildOrderStatus;
  scheduledAt: string;
  sentAt?: string | null;
  midAtSend?: string | null;
  expectedFilledQuantity?: string;
  expectedNotional?: string;
  rejectCode?: string | null;
  rejectReason?: string | null;
  /** The child's Order row, when it reached a venue. */
  order?: { status: OrderStatus; fills: SeedFill[] };
}

export interface SeedComplexOrder {
  scope: Scope;
  subaccountId: string;
  marketId: string;
  marketIdsByVenue: Record<string, string>;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  strategy: string;
  quantity: string;
  status: ComplexOrderStatus;
  createdAt: string;
  arrivalMid: string | null;
  predictedAveragePrice: string | null;
  predictedAllInAveragePrice?: string | null;
  predictedFilledQuantity: string;
  endMid?: string | null;
  completedAt?: string | null;
  children: SeedChild[];
}

/** Seeds a complex order and its children, orders and fills; returns the ids. */
export async function seedComplexOrder(db: Db, spec: SeedComplexOrder): Promise<{ id: string; childIds: string[] }> {
  const id = newId('complexOrder');
  await db.complexOrder.create({
    data: {
      id,
      workspaceId: spec.scope.workspaceId,
      environment: spec.scope.environment,
      subaccountId: spec.subaccountId,
      marketId: spec.marketId,
      side: spec.side,
      action: spec.action,
      strategy: spec.strategy,
      quantity: spec.quantity,
      status: spec.status,
      prediction: {
        marketIdsByVenue: spec.marketIdsByVenue,
        plan: { recommended: { impact: { allInAveragePrice: spec.predictedAllInAveragePrice ?? null } } },
      },
      arrivalMid: spec.arrivalMid,
      predictedAveragePrice: spec.predictedAveragePrice,
      predictedFilledQuantity: spec.predictedFilledQuantity,
      predictedFees: '0',
      endMid: spec.endMid ?? null,
      completedAt: spec.completedAt ? new Date(spec.completedAt) : null,
      createdAt: new Date(spec.createdAt),
    },
  });
  const childIds: string[] = [];
  for (const child of spec.children) {
    const childId = newId('childOrder');
    childIds.push(childId);
    let orderId: string | null = null;
    if (child.order) {
      orderId = newId('order');
      const fills = child.order.fills;
      const filled = fills.reduce((sum, f) => sum.add(f.quantity), new Decimal(0));
      const notional = fills.reduce((sum, f) => sum.add(new Decimal(f.price).mul(f.quantity)), new Decimal(0));
      const fees = fills.reduce((sum, f) => sum.add(f.fee), new Decimal(0));
      await db.order.create({
        data: {
          id: orderId,
          workspaceId: spec.scope.workspaceId,
          environment: spec.scope.environment,
          subaccountId: spec.subaccountId,
          marketId: child.marketId,
          complexOrderId: id,
          venue: child.venue,
          side: spec.side,
          action: spec.action,
          type: 'limit',
          timeInForce: 'ioc',
          price: child.price ?? '0.6',
          quantity: child.quantity,
          filledQuantity: filled.toFixed(),
          averageFillPrice: formatDecimal(averagePriceOf(notional, filled)),
          feesPaid: fees.toFixed(),
          status: child.order.status,
          clientOrderId: childId,
          createdAt: new Date(child.sentAt ?? spec.createdAt),
        },
      });
      // A buy realizes only its fee; these sells close no seeded position, so the same holds.
      await db.fill.createMany({
        data: fills.map((f) => ({
          id: newId('fill'),
          workspaceId: spec.scope.workspaceId,
          environment: spec.scope.environment,
          subaccountId: spec.subaccountId,
          orderId: orderId!,
          marketId: child.marketId,
          venue: child.venue,
          venueFillId: `seed-${RUN}-${(fillSequence += 1)}`,
          side: spec.side,
          action: spec.action,
          price: f.price,
          quantity: f.quantity,
          fee: f.fee,
          realizedPnl: new Decimal(f.fee).neg().toFixed(),
          isTaker: true,
          createdAt: new Date(f.at),
        })),
      });
    }
    await db.childOrder.create({
      data: {
        id: childId,
        complexOrderId: id,
        orderId,
        marketId: child.marketId,
        venue: child.venue,
        price: child.price ?? '0.6',
        quantity: child.quantity,
        timeInForce: 'ioc',
        status: child.status,
        rejectCode: child.rejectCode ?? null,
        rejectReason: child.rejectReason ?? null,
        expectedFilledQuantity: child.expectedFilledQuantity ?? child.quantity,
        expectedNotional: child.expectedNotional ?? '0',
        expectedFees: '0',
        scheduledAt: new Date(child.scheduledAt),
        sentAt: child.sentAt ? new Date(child.sentAt) : null,
        midAtSend: child.midAtSend ?? null,
      },
    });
  }
  return { id, childIds };
}

