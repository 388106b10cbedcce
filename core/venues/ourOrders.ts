import { formatDecimal } from '../domain/decimals';
import type { Db } from '../db/prismaClient';
import type { VenueColumn } from './venueNames';
import type { OurOrderRecord, OurOrders } from './venue';

const SELECT = {
  id: true,
  venueOrderId: true,
  side: true,
  action: true,
  type: true,
  price: true,
  quantity: true,
  timeInForce: true,
  expiresAt: true,
  createdAt: true,
  market: { select: { venueMarketId: true } },
} as const;

type Row = {
  id: string;
  venueOrderId: string | null;
  side: OurOrderRecord['side'];
  action: OurOrderRecord['action'];
  type: OurOrderRecord['type'];
  price: { toString(): string } | null;
  quantity: { toString(): string };
  timeInForce: OurOrderRecord['timeInForce'];
  expiresAt: Date | null;
  createdAt: Date;
  market: { venueMarketId: string };
};

const record = (row: Row): OurOrderRecord => ({
  clientOrderId: row.id,
  venueOrderId: row.venueOrderId,
  venueMarketId: row.market.venueMarketId,
  side: row.side,
  action: row.action,
  type: row.type,
  price: row.price === null ? null : formatDecimal(row.price),
  quantity: formatDecimal(row.quantity),
  timeInForce: row.timeInForce,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

/**
 * Our orders of one subaccount on one venue, as a live adapter asks for them. The venue's client
 * order id is our order id. Scoped to the subaccount: a venue account's fills can only ever be
 * matched to the orders of the subaccount whose credential it is.
 */
export function ourOrdersOf(db: Db, subaccountId: string, venue: VenueColumn): OurOrders {
  return {
    async byClientOrderId(clientOrderId) {
      const row = await db.order.findFirst({ where: { id: clientOrderId, subaccountId, venue }, select: SELECT });
      return row ? record(row) : null;
    },
    async byVenueOrderIds(venueOrderIds) {
      if (venueOrderIds.length === 0) return [];
      const rows = await db.order.findMany({ where: { subaccountId, venue, venueOrderId: { in: [...venueOrderIds] } }, select: SELECT });
      return rows.map(record);
    },
  };
}
