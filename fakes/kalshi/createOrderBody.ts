/**
 * Type and presence checks of a V2 create-order body (POST /portfolio/events/orders),
 * before any market is looked at.
 *
 * Recorded: a JSON number where a string belongs answers Go's unmarshal error in the flat
 * `bad_request` body (orders__numeric_field_types.json, XavierBriggs/Fortuna
 * fixtures/kalshi). Assumed (not recorded): a missing required field answers a nested
 * `missing_parameters`. Required, per the docs' examples and clients that hit the V2 API:
 * ticker, side, count, price, time_in_force, self_trade_prevention_type.
 */
import { errors, nestedError, type KalshiError } from './errors';
import type { BookSideV2, SelfTradePrevention, TimeInForceV2 } from './records';

export interface CreateOrderBody {
  readonly ticker: string;
  readonly side: BookSideV2;
  readonly count: string;
  readonly price: string;
  readonly timeInForce: TimeInForceV2;
  readonly selfTradePrevention: SelfTradePrevention;
  readonly clientOrderId: string | undefined;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly expirationTime: number | null;
}

const STRING_FIELDS = ['ticker', 'side', 'count', 'price', 'time_in_force', 'self_trade_prevention_type', 'client_order_id'];
const REQUIRED_FIELDS = ['ticker', 'side', 'count', 'price', 'time_in_force', 'self_trade_prevention_type'];
const BOOL_FIELDS = ['post_only', 'reduce_only', 'cancel_order_on_pause'];
const TIME_IN_FORCE: readonly string[] = ['fill_or_kill', 'good_till_canceled', 'immediate_or_cancel'];
const STP: readonly string[] = ['taker_at_cross', 'maker'];

export function goType(value: unknown): string {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Go's json error for a value of the wrong type, in the flat `bad_request` body (recorded for create). */
export function unmarshalError(value: unknown, struct: string, field: string, into: string): KalshiError {
  return errors.badRequest(`json: cannot unmarshal ${goType(value)} into Go struct field ${struct}.${field} of type ${into}`);
}

/**
 * `fieldPath` prefixes the field in Go's message: an item of a batch create is reported as
 * `CreateOrderV2Request.orders.ticker` (Go names the innermost struct and the full field path).
 */
export function parseCreateOrderBody(input: unknown, fieldPath = ''): { ok: true; body: CreateOrderBody } | { ok: false; error: KalshiError } {
  const unmarshal = (value: unknown, field: string, into: string): KalshiError => unmarshalError(value, 'CreateOrderV2Request', `${fieldPath}${field}`, into);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: errors.badRequest(`json: cannot unmarshal ${goType(input)} into Go value of type CreateOrderV2Request`) };
  }
  const body = input as Record<string, unknown>;
  for (const field of STRING_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return { ok: false, error: unmarshal(value, field, 'string') };
  }
  for (const field of BOOL_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'boolean') return { ok: false, error: unmarshal(value, field, 'bool') };
  }
  const expiration = body.expiration_time;
  if (expiration !== undefined && expiration !== null && !Number.isInteger(expiration)) {
    return { ok: false, error: unmarshal(expiration, 'expiration_time', 'int64') };
  }
  for (const field of REQUIRED_FIELDS) {
    if (typeof body[field] !== 'string' || body[field] === '') {
      return { ok: false, error: nestedError(400, 'missing_parameters', 'missing parameters', { details: `${field} is required` }) };
    }
  }
  const side = body.side as string;
  const tif = body.time_in_force as string;
  const stp = body.self_trade_prevention_type as string;
  if (side !== 'bid' && side !== 'ask') return { ok: false, error: errors.invalidOrder(`side must be bid or ask, got ${side}`) };
  if (!TIME_IN_FORCE.includes(tif)) return { ok: false, error: errors.invalidOrder(`unknown time_in_force ${tif}`) };
  if (!STP.includes(stp)) return { ok: false, error: errors.invalidOrder(`unknown self_trade_prevention_type ${stp}`) };
  const clientOrderId = body.client_order_id;
  return {
    ok: true,
    body: {
      ticker: body.ticker as string,
      side,
      count: body.count as string,
      price: body.price as string,
      timeInForce: tif as TimeInForceV2,
      selfTradePrevention: stp as SelfTradePrevention,
      clientOrderId: typeof clientOrderId === 'string' && clientOrderId !== '' ? clientOrderId : undefined,
      postOnly: body.post_only === true,
      reduceOnly: body.reduce_only === true,
      expirationTime: typeof expiration === 'number' ? expiration : null,
    },
  };
}
