/**
 * The simulated venues' network protocol (docs/simulated-venues.md "As a service"): one JSON call
 * per `Venue` method, `POST /venue/<venue>/<method>` with the method's arguments as the body and the
 * shared secret in `Authorization: Bearer …`. Prices and quantities are decimal strings, as in the
 * `Venue` contract itself. Shared by the service (server.ts) and the cores' adapter (client.ts).
 */
import { z } from 'zod';
import type { VenueErrorCode } from '../../venue';
import type { SimVenueName } from '../simMarketRules';


export const SIM_VENUE_METHODS = [
  'placeOrder',
  'cancelOrder',
  'amendOrder',
  'getOrder',
  'listFills',
  'orderBook',
  'queuePosition',
  'restoreRestingOrders',
] as const;
export type SimVenueMethod = (typeof SIM_VENUE_METHODS)[number];

/** Every answer carries the service's start-up id: a new one tells a core that the books were rebuilt empty and need its resting orders. */
export const INSTANCE_HEADER = 'sim-venue-instance';

/** The most fills one `listFills` call answers; a caller pages with `afterVenueFillId`. */
export const MAX_FILLS_PER_CALL = 1000;

/** Bodies larger than this are refused (413); a restore of every resting order of a busy database fits. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

const text = (max: number) => z.string().min(1).max(max);
const decimal = z.string().regex(/^\d{1,18}(\.\d{1,18})?$/, 'must be a decimal string');
const clientOrderId = text(255);
const venueMarketId = text(255);
const side = z.enum(['yes', 'no']);
const action = z.enum(['buy', 'sell']);

/** The body of each method. Field values the venue's own rules judge (ticks, sizes) pass through to it, so it refuses them in its own words. */
export const REQUEST_BODIES = {
  placeOrder: z.strictObject({
    request: z.strictObject({
      clientOrderId: z.string().max(1000),
      venueMarketId: z.string().max(1000),
      side: z.string().max(20),
      action: z.string().max(20),
      type: z.string().max(20),
      price: z.string().max(64).optional(),
      quantity: z.string().max(64),
      timeInForce: z.string().max(20),
      expiresAt: z.string().max(40).optional(),
      postOnly: z.boolean().optional(),
      reduceOnly: z.boolean().optional(),
    }),
  }),
  cancelOrder: z.strictObject({ clientOrderId }),
  amendOrder: z.strictObject({ clientOrderId, amend: z.strictObject({ price: z.string().max(64), quantity: z.string().max(64) }) }),
  getOrder: z.strictObject({ clientOrderId }),
  listFills: z.strictObject({
    afterVenueFillId: text(1000).optional(),
    limit: z.number().int().min(1).max(MAX_FILLS_PER_CALL).optional(),
  }),
  orderBook: z.strictObject({ venueMarketId, depth: z.number().int().min(1).max(1000).optional() }),
  queuePosition: z.strictObject({ clientOrderId }),
  restoreRestingOrders: z.strictObject({
    orders: z
      .array(
        z.strictObject({
          clientOrderId,
          venueMarketId,
          side,
          action,
          price: decimal,
          remainingQuantity: decimal,
          filledQuantity: decimal.optional(),
          expiresAt: z.iso.datetime({ offset: true }).optional(),
        }),
      )
      .max(1_000_000),
  }),
} satisfies Record<SimVenueMethod, z.ZodType>;

export type RequestBody<M extends SimVenueMethod> = z.infer<(typeof REQUEST_BODIES)[M]>;

/** `{ result }` on 200; `{ error: { code, message } }` otherwise (the venue's own refusal of a read: 422 with its `VenueErrorCode`). */
export interface SimVenueAnswer<T> {
  result?: T;
  error?: { code: string; message: string };
}

export const callPath = (venue: SimVenueName, method: SimVenueMethod) => `/venue/${venue}/${method}`;

// --- answers, as the cores' adapter checks them: an answer of another shape is a protocol error ---

const ERROR_CODES = ['invalid_request', 'market_not_tradable', 'insufficient_funds', 'order_not_found', 'venue_error', 'rate_limited', 'venue_unavailable'] as const satisfies readonly VenueErrorCode[];
const answerDecimal = z.string().regex(/^-?\d+(\.\d+)?$/);

const orderState = z.object({
  venueOrderId: z.string().nullable(),
  clientOrderId: z.string(),
  status: z.enum(['open', 'filled', 'canceled']),
  filledQuantity: answerDecimal,
  remainingQuantity: answerDecimal,
  price: answerDecimal.optional(),
});

const fill = z.object({
  venueFillId: z.string().min(1),
  venueOrderId: z.string(),
  clientOrderId: z.string(),
  venueMarketId: z.string(),
  side,
  action,
  price: answerDecimal,
  quantity: answerDecimal,
  fee: answerDecimal,
  isTaker: z.boolean(),
  executedAt: z.string(),
});

const rejection = z.object({
  outcome: z.literal('rejected'),
  code: z.enum(ERROR_CODES),
  venueCode: z.string(),
  message: z.string(),
  retryAfterMs: z.number().optional(),
  param: z.string().max(64).optional(),
});

const level = z.object({ price: answerDecimal, quantity: answerDecimal });

export const ANSWERS = {
  placeOrder: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('accepted'), order: orderState, fills: z.array(fill) }),
    rejection,
    z.object({ outcome: z.literal('unknown'), message: z.string() }),
  ]),
  cancelOrder: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('canceled'), order: orderState }),
    rejection,
    z.object({ outcome: z.literal('unknown'), message: z.string() }),
  ]),
  amendOrder: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('amended'), order: orderState, fills: z.array(fill) }),
    rejection,
    z.object({ outcome: z.literal('unknown'), message: z.string() }),
  ]),
  getOrder: orderState.nullable(),
  listFills: z.array(fill).max(MAX_FILLS_PER_CALL),
  orderBook: z.object({
    venueMarketId: z.string(),
    bids: z.array(level),
    asks: z.array(level),
    mid: answerDecimal.nullable(),
    asOf: z.iso.datetime().transform((at) => new Date(at)).optional(),
  }),
  queuePosition: z.object({ venueOrderId: z.string(), ordersAhead: z.number().int().nullable(), quantityAhead: answerDecimal }).nullable(),
  restoreRestingOrders: z.array(orderState),
} satisfies Record<SimVenueMethod, z.ZodType>;

export type Answer<M extends SimVenueMethod> = z.infer<(typeof ANSWERS)[M]>;

/** A refusal the venue itself made of a read (SimVenueError): 422 with one of these codes. */
export const isVenueErrorCode = (code: unknown): code is VenueErrorCode => (ERROR_CODES as readonly unknown[]).includes(code);
