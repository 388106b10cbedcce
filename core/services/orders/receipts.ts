import type { Order, Prisma } from '../../generated/prisma/client';
import { newId } from '../../domain/ids';
import { receiptHash } from '../../domain/receipts';
import { venueName } from '../../venues/venueModules';

type Tx = Prisma.TransactionClient;

/** What every receipt says of its order first: ours and the venue's ids of the order and its market. */
export async function receiptOrderHeader(tx: Tx, order: Order) {
  const market = await tx.market.findUniqueOrThrow({ where: { id: order.marketId }, select: { venueMarketId: true } });
  return {
    receipt_version: 1,
    order_id: order.id,
    client_order_id: order.clientOrderId,
    subaccount_id: order.subaccountId,
    venue: venueName(order.venue),
    venue_order_id: order.venueOrderId,
    market_id: order.marketId,
    venue_market_id: market.venueMarketId,
  };
}

/** Writes an immutable receipt of the order with its content hash (core/domain/receipts.ts); returns its id. */
export async function createReceipt(tx: Tx, order: Order, content: Record<string, unknown>): Promise<string> {
  const id = newId('receipt');
  await tx.receipt.create({
    data: {
      id,
      workspaceId: order.workspaceId,
      environment: order.environment,
      subaccountId: order.subaccountId,
      orderId: order.id,
      content: content as Prisma.InputJsonObject,
      contentHash: receiptHash(content),
    },
  });
  return id;
}
