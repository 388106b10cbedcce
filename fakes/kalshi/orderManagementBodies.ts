/**
 * Type and presence checks of the V2 order-management bodies, before any order is looked at:
 * amend, decrease, batched create and batched cancel (POST /portfolio/events/orders/{id}/amend,
 * POST .../{id}/decrease, POST and DELETE /portfolio/events/orders/batched).
 *
 * Shapes: docs.kalshi.com api-reference/orders (openapi.yaml 3.28.0, as published 2026-08-20):
 * - AmendOrderV2Request: required `ticker` (min 1), `side` (bid | ask), `price` (fixed-point
 *   dollars), `count` (fixed-point count: the order's filled count plus the wanted resting count);
 *   optional `client_order_id` (the order's current one), `updated_client_order_id` (its new one),
 *   `exchange_index`.
 * - DecreaseOrderV2Request: `reduce_by` or `reduce_to`, fixed-point count strings, exactly one
 *   (changelog 2026-05: "Exactly one of the two must be provided"); optional `exchange_index`,
 *   `market_ticker`.
 * - BatchCreateOrdersV2Request: `orders`, CreateOrderV2Request items (`validate: required,dive`).
 * - BatchCancelOrdersV2Request: `orders: [{order_id, subaccount?, exchange_index?, market_ticker?}]`
 *   (`validate: required,dive`). The V1 `ids` array is not in the V2 schema: a body with only `ids`
 *   has no `orders`.
 * As for create (createOrderBody.ts): a JSON value of the wrong type is Go's unmarshal error in the
 * flat `bad_request` body (recorded for create), a missing required field a nested
 * `missing_parameters` (assumed). `dive` validates every item before anything is done, so an item
 * that fails these checks refuses the whole batch; what the exchange refuses (a reused
 * client_order_id, a price off the ranges, an unknown order) is that item's error alone.
 */
import { errors, type KalshiError } from './errors';
import { goType, parseCreateOrderBody, unmarshalError } from './createOrderBody';
import type { BookSideV2 } from './records';

type Parsed<T> = { ok: true; body: T } | { ok: false; error: KalshiError };

export interface AmendOrderBody {
  readonly ticker: string;
  readonly side: BookSideV2;
  readonly price: string;
  readonly count: string;
  readonly clientOrderId: string | undefined;
  readonly updatedClientOrderId: string | undefined;
}

export type DecreaseOrderBody = { readonly reduceBy: string } | { readonly reduceTo: string };

const notObject = (input: unknown, struct: string): KalshiError =>
  errors.badRequest(`json: cannot unmarshal ${goType(input)} into Go value of type ${struct}`);

function asObject(input: unknown): Record<string, unknown> | null {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
}

/** The first field of `fields` holding a non-string, as Go's error; undefined when all are strings or absent. */
function wrongString(body: Record<string, unknown>, fields: readonly string[], struct: string, path = ''): KalshiError | undefined {
  for (const field of fields) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return unmarshalError(value, struct, `${path}${field}`, 'string');
  }
  const index = body.exchange_index;
  if (index !== undefined && index !== null && !Number.isInteger(index)) return unmarshalError(index, struct, `${path}exchange_index`, 'int');
  return undefined;
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function parseAmendOrderBody(input: unknown): Parsed<AmendOrderBody> {
  const body = asObject(input);
  if (body === null) return { ok: false, error: notObject(input, 'AmendOrderV2Request') };
  const wrong = wrongString(body, ['ticker', 'side', 'price', 'count', 'client_order_id', 'updated_client_order_id'], 'AmendOrderV2Request');
  if (wrong !== undefined) return { ok: false, error: wrong };
  for (const field of ['ticker', 'side', 'price', 'count']) {
    if (nonEmpty(body[field]) === undefined) return { ok: false, error: errors.missingParameters(`${field} is required`) };
  }
  const side = body.side as string;
  if (side !== 'bid' && side !== 'ask') return { ok: false, error: errors.invalidOrder(`side must be bid or ask, got ${side}`) };
  return {
    ok: true,
    body: {
      ticker: body.ticker as string,
      side,
      price: body.price as string,
      count: body.count as string,
      clientOrderId: nonEmpty(body.client_order_id),
      updatedClientOrderId: nonEmpty(body.updated_client_order_id),
    },
  };
}

export function parseDecreaseOrderBody(input: unknown): Parsed<DecreaseOrderBody> {
  const body = asObject(input);
  if (body === null) return { ok: false, error: notObject(input, 'DecreaseOrderV2Request') };
  const wrong = wrongString(body, ['reduce_by', 'reduce_to', 'market_ticker'], 'DecreaseOrderV2Request');
  if (wrong !== undefined) return { ok: false, error: wrong };
  const reduceBy = nonEmpty(body.reduce_by);
  const reduceTo = nonEmpty(body.reduce_to);
  if ((reduceBy === undefined) === (reduceTo === undefined)) {
    return { ok: false, error: errors.invalidParameters('exactly one of reduce_by or reduce_to must be provided') };
  }
  return { ok: true, body: reduceBy !== undefined ? { reduceBy } : { reduceTo: reduceTo! } };
}

/** The `orders` array of a batch body, or why the whole call is refused. */
function batchItems(input: unknown, struct: string, itemStruct: string): Parsed<readonly Record<string, unknown>[]> {
  const body = asObject(input);
  if (body === null) return { ok: false, error: notObject(input, struct) };
  const orders = body.orders;
  if (orders !== undefined && orders !== null && !Array.isArray(orders)) {
    return { ok: false, error: unmarshalError(orders, struct, 'orders', `[]${itemStruct}`) };
  }
  if (!Array.isArray(orders) || orders.length === 0) return { ok: false, error: errors.missingParameters('orders is required') };
  for (const item of orders) {
    if (asObject(item) === null) return { ok: false, error: unmarshalError(item, struct, 'orders', itemStruct) };
  }
  return { ok: true, body: orders as Record<string, unknown>[] };
}

/** The items of a batch create, each checked as a single create's body is (all before any is placed). */
export function parseBatchCreateBody(input: unknown): Parsed<readonly Record<string, unknown>[]> {
  const items = batchItems(input, 'BatchCreateOrdersV2Request', 'CreateOrderV2Request');
  if (!items.ok) return items;
  for (const item of items.body) {
    const parsed = parseCreateOrderBody(item, 'orders.');
    if (!parsed.ok) return parsed;
  }
  return items;
}

/** The order ids of a batch cancel, in request order. */
export function parseBatchCancelBody(input: unknown): Parsed<readonly string[]> {
  const items = batchItems(input, 'BatchCancelOrdersV2Request', 'BatchCancelOrdersV2RequestOrder');
  if (!items.ok) return items;
  const ids: string[] = [];
  for (const item of items.body) {
    const wrong = wrongString(item, ['order_id', 'market_ticker'], 'BatchCancelOrdersV2RequestOrder', 'orders.');
    if (wrong !== undefined) return { ok: false, error: wrong };
    const subaccount = item.subaccount;
    if (subaccount !== undefined && subaccount !== null && !Number.isInteger(subaccount)) {
      return { ok: false, error: unmarshalError(subaccount, 'BatchCancelOrdersV2RequestOrder', 'orders.subaccount', 'int') };
    }
    const orderId = nonEmpty(item.order_id);
    if (orderId === undefined) return { ok: false, error: errors.missingParameters('order_id is required') };
    ids.push(orderId);
  }
  return { ok: true, body: ids };
}
