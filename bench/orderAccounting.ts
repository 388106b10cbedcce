/**
 * Duplicates and lost orders of a POST /v1/orders benchmark: the orders in the database counted
 * against what the clients sent and what they were answered, in one SQL statement.
 *
 * Every request the load generator sends is recorded (its Idempotency-Key, the client_order_id it
 * sent if any, and the answer: status and order id). The requests go into a table of the bench
 * database, `bench_order_requests`, next to the service's own tables. An order belongs to a
 * request (is "linked" to its key) when
 *  - its client_order_id is the one the request sent, or, when it sent none, the one the core
 *    derives from the key (`keyReference(api key id, key)`, core/services/orders/orders.ts);
 *  - or the request's 200 answer names it;
 *  - or the key's idempotency record (`idempotency_records`) stores an answer that names it.
 * Then:
 *  - keysWithTwoOrMoreOrders: Idempotency-Keys linked to two or more orders (a request placed
 *    twice, whatever client order id the second one got);
 *  - clientOrderIdsWithTwoOrMoreOrders: client order ids held by two or more of the target's orders;
 *  - ordersOfTwoOrMoreKeys: orders linked to two or more keys (an answer naming another request's order);
 *  - strays: orders of the target's subaccounts that no request accounts for;
 *  - lost: 200 answers whose order id is not in the database (or that name none).
 * Each of them must be 0. `selfCheckOrderCount` runs the same statement over planted rows first.
 */
import type { Client } from 'pg';
import { keyReference } from '../core/services/idempotency/keyRecords';

export interface SentOrder {
  idempotencyKey: string;
  /** The client_order_id sent, or null: the core then derives it from the Idempotency-Key. */
  clientOrderId: string | null;
  /** The answer, once it came. */
  status?: number;
  orderId?: string | null;
  /** The order's status in a 200 answer (open, expired, ...). */
  orderStatus?: string;
}

export interface OrderCount {
  sent: number;
  answered: number;
  ok: number;
  ordersInDatabase: number;
  keysWithTwoOrMoreOrders: number;
  clientOrderIdsWithTwoOrMoreOrders: number;
  ordersOfTwoOrMoreKeys: number;
  strays: number;
  lost: number;
  /** Idempotency records of these keys whose stored answer names an order (informative). */
  recordsNamingAnOrder: number;
}

/** Where the orders are: `schema` holds `orders`, `idempotency_records` and `bench_order_requests`. */
export interface OrderScope {
  schema: string;
  workspaceId: string;
  apiKeyId: string;
  subaccountIds: string[];
}

export function orderCountHolds(count: OrderCount): boolean {
  return (
    count.keysWithTwoOrMoreOrders === 0 &&
    count.clientOrderIdsWithTwoOrMoreOrders === 0 &&
    count.ordersOfTwoOrMoreKeys === 0 &&
    count.strays === 0 &&
    count.lost === 0
  );
}

export function formatOrderCount(count: OrderCount): string {
  return (
    `sent ${count.sent}, answered ${count.answered} (200: ${count.ok}), orders in the database ${count.ordersInDatabase}; ` +
    `keys with 2+ orders ${count.keysWithTwoOrMoreOrders}, client_order_ids with 2+ orders ${count.clientOrderIdsWithTwoOrMoreOrders}, ` +
    `orders of 2+ keys ${count.ordersOfTwoOrMoreKeys}, strays ${count.strays}, lost ${count.lost}`
  );
}

/** The client order id the order of `sent` must carry. */
function expectedClientOrderId(apiKeyId: string, sent: SentOrder): string {
  return sent.clientOrderId ?? keyReference({ apiKeyId, key: sent.idempotencyKey });
}

const BATCH = 5000;
/** The first order id in a stored answer (OrderFields starts with the order's own id). */
const ORDER_ID_IN_BODY = `'"id":"(ord_[0-9a-z]+)"'`;

export async function countOrders(client: Client, scope: OrderScope, sent: SentOrder[]): Promise<OrderCount> {
  const s = scope.schema;
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${s}.bench_order_requests (
      idempotency_key text PRIMARY KEY, expected_client_order_id text NOT NULL, status int, answered_order_id text);
    TRUNCATE ${s}.bench_order_requests`);
  for (let i = 0; i < sent.length; i += BATCH) {
    const batch = sent.slice(i, i + BATCH);
    await client.query(
      `INSERT INTO ${s}.bench_order_requests SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[])`,
      [
        batch.map((r) => r.idempotencyKey),
        batch.map((r) => expectedClientOrderId(scope.apiKeyId, r)),
        batch.map((r) => r.status ?? null),
        batch.map((r) => r.orderId ?? null),
      ],
    );
  }
  const { rows } = await client.query<Omit<OrderCount, 'sent' | 'answered' | 'ok'>>(
    `WITH req AS (SELECT * FROM ${s}.bench_order_requests),
     ours AS (SELECT id, client_order_id FROM ${s}.orders WHERE workspace_id = $1 AND subaccount_id = ANY($2::text[])),
     linked AS (
       SELECT r.idempotency_key, o.id AS order_id
         FROM req r JOIN ${s}.orders o ON o.workspace_id = $1 AND o.client_order_id = r.expected_client_order_id
       UNION
       SELECT idempotency_key, answered_order_id FROM req WHERE answered_order_id IS NOT NULL
       UNION
       SELECT r.idempotency_key, substring(i.response_body FROM ${ORDER_ID_IN_BODY})
         FROM req r JOIN ${s}.idempotency_records i ON i.api_key_id = $3 AND i.key = r.idempotency_key
        WHERE substring(i.response_body FROM ${ORDER_ID_IN_BODY}) IS NOT NULL)
     SELECT
       (SELECT count(*) FROM ours)::int AS "ordersInDatabase",
       (SELECT count(*) FROM (SELECT 1 FROM linked GROUP BY idempotency_key HAVING count(*) > 1) k)::int AS "keysWithTwoOrMoreOrders",
       (SELECT count(*) FROM (SELECT 1 FROM ours GROUP BY client_order_id HAVING count(*) > 1) c)::int AS "clientOrderIdsWithTwoOrMoreOrders",
       (SELECT count(*) FROM (SELECT 1 FROM linked GROUP BY order_id HAVING count(*) > 1) o)::int AS "ordersOfTwoOrMoreKeys",
       (SELECT count(*) FROM ours WHERE NOT EXISTS (SELECT 1 FROM linked l WHERE l.order_id = ours.id))::int AS strays,
       (SELECT count(*) FROM req r
         WHERE r.status = 200 AND NOT EXISTS (SELECT 1 FROM ${s}.orders o WHERE o.id = r.answered_order_id))::int AS lost,
       (SELECT count(*) FROM req r JOIN ${s}.idempotency_records i ON i.api_key_id = $3 AND i.key = r.idempotency_key
         WHERE substring(i.response_body FROM ${ORDER_ID_IN_BODY}) IS NOT NULL)::int AS "recordsNamingAnOrder"`,
    [scope.workspaceId, scope.subaccountIds, scope.apiKeyId],
  );
  return {
    sent: sent.length,
    answered: sent.filter((r) => r.status !== undefined).length,
    ok: sent.filter((r) => r.status === 200).length,
    ...rows[0]!,
  };
}

/**
 * Waits until no idempotency claim of `apiKeyId` is in flight: requests the load generator stopped
 * waiting for when its window closed may still be placing their orders. Returns how many were
 * still in flight after `timeoutMs` (then the count may see an order without its record's answer).
 */
export async function waitForSettledClaims(client: Client, apiKeyId: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM idempotency_records WHERE api_key_id = $1 AND state = 'in_flight'`,
      [apiKeyId],
    );
    if (rows[0]!.n === 0 || Date.now() > deadline) return rows[0]!.n;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Proves that `countOrders` finds what it counts: copies of `orders` and `idempotency_records`
 * without their unique indexes (CREATE TABLE ... LIKE, in a scratch schema of the bench
 * database) get one clean order of each kind (a derived and an explicit client order id, an
 * unanswered request) and one planted case of each failure: a key placed twice under two client
 * order ids, two orders with one client order id, an answer naming an order that is not there,
 * an order no request accounts for, and an answer naming another request's order. The statement
 * must count exactly those; otherwise this throws and the benchmark fails.
 */
export async function selfCheckOrderCount(client: Client): Promise<void> {
  const s = 'bench_order_count_check';
  const apiKeyId = 'key_check';
  const workspaceId = 'ws_check';
  const derived = (key: string) => keyReference({ apiKeyId, key });
  await client.query(`
    DROP SCHEMA IF EXISTS ${s} CASCADE;
    CREATE SCHEMA ${s};
    CREATE TABLE ${s}.orders (LIKE public.orders INCLUDING DEFAULTS);
    CREATE TABLE ${s}.idempotency_records (LIKE public.idempotency_records INCLUDING DEFAULTS)`);
  try {
    const order = (id: string, clientOrderId: string) =>
      client.query(
        `INSERT INTO ${s}.orders (id, workspace_id, environment, subaccount_id, market_id, venue, side, action, type, time_in_force, price, quantity, client_order_id)
         VALUES ($1, $2, 'test', 'sa_check', 'mkt_check', 'sim_kalshi', 'yes', 'buy', 'limit', 'gtc', 0.05, 1, $3)`,
        [id, workspaceId, clientOrderId],
      );
    await order('ord_clean1', derived('k1')); // k1: clean, derived client order id, its record names it
    await client.query(
      `INSERT INTO ${s}.idempotency_records (api_key_id, key, operation, request_hash, state, response_body)
       VALUES ($1, 'k1', 'PlaceOrder', 'h', 'completed', '{"data":{"placeOrder":{"id":"ord_clean1"}}}')`,
      [apiKeyId],
    );
    await order('ord_twice2a', 'c2'); // k2: placed twice, the second under another client order id, which its answer names
    await order('ord_twice2b', 'other2');
    await order('ord_cid3a', 'c3'); // k3: two orders with one client order id
    await order('ord_cid3b', 'c3');
    await order('ord_stray5', 'c5'); // no request sent c5
    await order('ord_unanswered7', 'c7'); // k7: sent, never answered: clean
    const sent: SentOrder[] = [
      { idempotencyKey: 'k1', clientOrderId: null, status: 200, orderId: 'ord_clean1' },
      { idempotencyKey: 'k2', clientOrderId: 'c2', status: 200, orderId: 'ord_twice2b' },
      { idempotencyKey: 'k3', clientOrderId: 'c3', status: 200, orderId: 'ord_cid3a' },
      { idempotencyKey: 'k4', clientOrderId: 'c4', status: 200, orderId: 'ord_missing4' }, // lost
      { idempotencyKey: 'k6', clientOrderId: 'c6', status: 200, orderId: 'ord_clean1' }, // answered with k1's order
      { idempotencyKey: 'k7', clientOrderId: 'c7' },
    ];
    const count = await countOrders(client, { schema: s, workspaceId, apiKeyId, subaccountIds: ['sa_check'] }, sent);
    const expected: OrderCount = {
      sent: 6, answered: 5, ok: 5, ordersInDatabase: 7,
      keysWithTwoOrMoreOrders: 2, // k2 and k3
      clientOrderIdsWithTwoOrMoreOrders: 1, // c3
      ordersOfTwoOrMoreKeys: 1, // ord_clean1 (k1 and k6)
      strays: 1, // ord_stray5
      lost: 1, // k4
      recordsNamingAnOrder: 1,
    };
    const wrong = (Object.keys(expected) as (keyof OrderCount)[]).filter((field) => count[field] !== expected[field]);
    if (wrong.length) {
      throw new Error(
        `the duplicate/lost count does not find the planted cases: ${wrong.map((f) => `${f} ${count[f]} (planted ${expected[f]})`).join(', ')}`,
      );
    }
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  }
}
