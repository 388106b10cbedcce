import { NO_FLUSH_WAIT, queryRow, statementFor, type CommitWait, type SqlClient } from '../../db/sql';
import { Prisma, type Order, type OrderStatus } from '../../generated/prisma/client';

/**
 * The statements of the order path (placement and the venue's answer), over `pg` directly
 * (core/db/sql.ts): one round trip each, no re-read of what a statement just returned.
 */

/** Every column of orders, named: a prepared `*` is refused once a migration adds a column (sql.ts). */
const ORDER_COLUMNS = Prisma.raw(
  'id, workspace_id, environment, subaccount_id, market_id, complex_order_id, venue, side, action, type, time_in_force, price, quantity, ' +
    'filled_quantity, average_fill_price, filled_notional, working_notional, fees_paid, status, client_order_id, venue_order_id, reject_reason, created_at, updated_at, ' +
    'post_only, reduce_only, expires_at, pending_amendment',
);

/** Locks the subaccount's row for the transaction (every order of one subaccount passes its checks in turn); undefined if it is not the scope's or not active. */
export function lockActiveSubaccount(sql: SqlClient, scope: { workspaceId: string; environment: string }, subaccountId: string) {
  return queryRow<{ id: string }>(
    sql,
    Prisma.sql`
      SELECT id FROM subaccounts
       WHERE id = ${subaccountId} AND workspace_id = ${scope.workspaceId}
         AND environment = ${scope.environment}::"Environment" AND status = 'active'
       FOR UPDATE`,
  );
}

export interface NewOrder {
  id: string;
  workspaceId: string;
  environment: 'test' | 'live';
  subaccountId: string;
  marketId: string;
  venue: Order['venue'];
  side: Order['side'];
  action: Order['action'];
  type: Order['type'];
  timeInForce: Order['timeInForce'];
  price: string | null;
  quantity: string;
  clientOrderId: string;
  complexOrderId: string | null;
  postOnly: boolean;
  reduceOnly: boolean;
  expiresAt: Date | null;
}

/** The pending order row, as stored. */
export async function insertPendingOrder(sql: SqlClient, o: NewOrder): Promise<Order> {
  const row = await queryRow<Order>(
    sql,
    Prisma.sql`
      INSERT INTO orders (id, workspace_id, environment, subaccount_id, market_id, venue, side, action, type, time_in_force,
                          price, quantity, client_order_id, complex_order_id, post_only, reduce_only, expires_at, status)
      VALUES (${o.id}, ${o.workspaceId}, ${o.environment}::"Environment", ${o.subaccountId}, ${o.marketId}, ${o.venue}::text,
              ${o.side}::"OrderSide", ${o.action}::"OrderAction", ${o.type}::"OrderType", ${o.timeInForce}::"TimeInForce",
              ${o.price}::numeric, ${o.quantity}::numeric, ${o.clientOrderId}, ${o.complexOrderId}, ${o.postOnly}, ${o.reduceOnly}, ${o.expiresAt}::timestamptz, 'pending')
      RETURNING ${ORDER_COLUMNS}`,
  );
  return row!;
}

export function findOrder(sql: SqlClient, id: string): Promise<Order | undefined> {
  return queryRow<Order>(sql, Prisma.sql`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ${id}`);
}

/** Links a complex order's child to the order that carries it, in the transaction that creates the order. */
export async function linkChildOrder(sql: SqlClient, childOrderId: string, orderId: string): Promise<void> {
  const linked = await sql.query(statementFor(sql, 'link_child_order', `UPDATE child_orders SET order_id = $1, status = 'sent' WHERE id = $2`, [orderId, childOrderId]));
  if (linked.rowCount !== 1) throw new Error(`child order ${childOrderId} does not exist`);
}

/**
 * The order's new status (and the venue's order id, when given), written only if the order is
 * still as it was read (`expected`: status and filled quantity): a compare-and-set. Undefined when
 * it changed meanwhile. `commit`, always said by the caller: `by_next_write` only when the request
 * writes again, flushed, before it answers (its Idempotency-Key's completion): see sql.ts, CommitWait.
 */
export function setOrderStatusIfUnchanged(
  sql: SqlClient,
  expected: Pick<Order, 'id' | 'status' | 'filledQuantity'>,
  change: { status: OrderStatus; venueOrderId?: string | null; rejectReason?: string },
  commit: CommitWait,
): Promise<Order | undefined> {
  const set = Prisma.sql`
      UPDATE orders SET status = ${change.status}::"OrderStatus",
             venue_order_id = coalesce(${change.venueOrderId ?? null}, venue_order_id),
             reject_reason = coalesce(${change.rejectReason ?? null}, reject_reason),
             updated_at = now()`;
  const where = Prisma.sql`
       WHERE id = ${expected.id} AND status = ${expected.status}::"OrderStatus" AND filled_quantity = ${expected.filledQuantity.toString()}::numeric
      RETURNING ${ORDER_COLUMNS}`;
  return queryRow<Order>(
    sql,
    commit === 'flushed' ? Prisma.sql`${set}${where}` : Prisma.sql`${Prisma.raw(NO_FLUSH_WAIT.with)}${set} FROM ${Prisma.raw(NO_FLUSH_WAIT.from)}${where}`,
  );
}

/**
 * Takes the reconcilers' lease on an order whose fate at the venue is not known, before sending it
 * again (unconfirmedOrders.ts): moves `updated_at` forward if the order is still as read. Undefined
 * when another request or a reconciler changed or claimed it meanwhile.
 */
export function leaseUnconfirmedOrder(sql: SqlClient, seen: Pick<Order, 'id' | 'status' | 'updatedAt'>): Promise<Order | undefined> {
  return queryRow<Order>(
    sql,
    Prisma.sql`
      UPDATE orders SET updated_at = now()
       WHERE id = ${seen.id} AND status = ${seen.status}::"OrderStatus" AND updated_at = ${seen.updatedAt}
      RETURNING ${ORDER_COLUMNS}`,
  );
}

/** The order's row locked for the transaction (an amend's checks and its start), as it now is. */
export function lockOrder(sql: SqlClient, id: string): Promise<Order | undefined> {
  return queryRow<Order>(sql, Prisma.sql`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ${id} FOR UPDATE`);
}

/**
 * Records the outcome of the pending amendment sent at `sentAt`: the order's terms, the amendment
 * cleared. Undefined when that amendment is no longer pending (another request recorded it).
 */
export function settleOrderTerms(sql: SqlClient, id: string, sentAt: string, terms: { price: string; quantity: string }): Promise<Order | undefined> {
  return queryRow<Order>(
    sql,
    Prisma.sql`
      UPDATE orders SET price = ${terms.price}::numeric, quantity = ${terms.quantity}::numeric, pending_amendment = NULL, updated_at = now()
       WHERE id = ${id} AND pending_amendment->>'sentAt' = ${sentAt}
      RETURNING ${ORDER_COLUMNS}`,
  );
}

/** Marks the pending amendment sent at `sentAt` lost: its outcome may be read at once, by the next amend or a retry. */
export async function markAmendmentLost(sql: SqlClient, id: string, sentAt: string): Promise<void> {
  await sql.query(
    statementFor(sql, 'mark_amendment_lost', `UPDATE orders SET pending_amendment = pending_amendment || '{"lost": true}'::jsonb WHERE id = $1 AND pending_amendment->>'sentAt' = $2`, [id, sentAt]),
  );
}

/**
 * Sets an order's terms and its pending amendment (services/orders/amendOrder.ts), only while the
 * order is as `expected` (its terms, filled quantity and pending amendment): undefined when it changed.
 */
export function setOrderTerms(
  sql: SqlClient,
  expected: Pick<Order, 'id' | 'price' | 'quantity'>,
  terms: { price: string; quantity: string; pendingAmendment: object | null },
): Promise<Order | undefined> {
  return queryRow<Order>(
    sql,
    Prisma.sql`
      UPDATE orders SET price = ${terms.price}::numeric, quantity = ${terms.quantity}::numeric,
             pending_amendment = ${terms.pendingAmendment === null ? null : JSON.stringify(terms.pendingAmendment)}::jsonb, updated_at = now()
       WHERE id = ${expected.id} AND price = ${expected.price?.toString() ?? null}::numeric AND quantity = ${expected.quantity.toString()}::numeric
      RETURNING ${ORDER_COLUMNS}`,
  );
}
