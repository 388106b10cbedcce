// Types only: this module has no run-time import, so the dashboard's bundle can take its status lists.
import type { Decimal } from './decimals';

/**
 * The life of an order and of a complex order: their states, the moves between them, and the
 * decisions that make those moves. Services, GraphQL and SQL (through core/db/sqlLists.ts) read the
 * status lists from here and nowhere else.
 */

export const ORDER_STATUSES = ['pending', 'open', 'partially_filled', 'filled', 'canceled', 'rejected', 'expired', 'unknown'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Orders that may still trade: they count against limits and reserve cash. */
export const WORKING_STATUSES = ['pending', 'open', 'partially_filled', 'unknown'] as const satisfies readonly OrderStatus[];
/** Orders resting on the venue's book: they can be canceled there and have a queue position. */
export const RESTING_STATUSES = ['open', 'partially_filled'] as const satisfies readonly OrderStatus[];
/**
 * Orders whose fate at the venue we do not know yet (never answered, or the answer was lost): a
 * placement with the same client order id sends them again, and the venue reconciles by that id.
 */
export const UNCONFIRMED_STATUSES = ['pending', 'unknown'] as const satisfies readonly OrderStatus[];
/** Orders that will not trade again on our side; only a venue's later report can still revise them. */
export const FINAL_STATUSES = ['filled', 'canceled', 'rejected', 'expired'] as const satisfies readonly OrderStatus[];

const member = (list: readonly string[]) => (status: string) => list.includes(status);
export const isWorking: (status: OrderStatus) => boolean = member(WORKING_STATUSES);
export const isResting: (status: OrderStatus) => boolean = member(RESTING_STATUSES);
export const isUnconfirmed: (status: OrderStatus) => boolean = member(UNCONFIRMED_STATUSES);
export const isFinal: (status: OrderStatus) => boolean = member(FINAL_STATUSES);

/**
 * Every move an order's status can make (staying where it is is always allowed). An order is
 * created `pending`; the venue's answer makes it `open`, `partially_filled`, `filled`, `canceled`
 * or `rejected`, or `unknown` when the answer was lost. The venue's report is the truth: a fill
 * that raced our cancel, or that the venue reports for an order we recorded as refused, still
 * counts, so a final status can still become `filled` or `canceled`.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['open', 'partially_filled', 'filled', 'canceled', 'rejected', 'unknown', 'expired'],
  unknown: ['open', 'partially_filled', 'filled', 'canceled', 'rejected', 'expired'],
  open: ['partially_filled', 'filled', 'canceled', 'expired'],
  partially_filled: ['filled', 'canceled', 'expired'],
  filled: [],
  canceled: ['filled'],
  rejected: ['filled', 'canceled'],
  expired: ['filled', 'canceled'],
};

export const canMove = (from: OrderStatus, to: OrderStatus): boolean => from === to || ORDER_TRANSITIONS[from].includes(to);

/** What a venue says of one of our orders (its own, coarser, states). */
export type VenueReportedStatus = 'open' | 'filled' | 'canceled';

/**
 * The status of an order after a venue's report: `filled` once the recorded fills reach the
 * quantity or the venue says filled; `canceled` when the venue says so; a final status of ours
 * (canceled, expired, rejected) otherwise stays; then `partially_filled` once anything filled, and
 * `open` when the venue answered at all. Fills pushed without a venue state change nothing else.
 * A gtd order the venue ended once its time had come (`expired`: its `expiresAt` has passed) is
 * `expired` rather than canceled: the venue's own expiry ended it (Kalshi and Polymarket report it
 * as a cancel).
 */
export function statusAfterReport(
  current: OrderStatus,
  quantities: { filled: Decimal; quantity: Decimal.Value },
  venueStatus: VenueReportedStatus | undefined,
  expired = false,
): OrderStatus {
  if (quantities.filled.gte(quantities.quantity)) return 'filled';
  // Once the venue said filled, the order stays filled while its fills are still arriving: it
  // never counts as working again (it would reserve cash, count against limits, be cancelable).
  if (current === 'filled') return 'filled';
  if (venueStatus === 'canceled') return expired || current === 'expired' ? 'expired' : 'canceled';
  if (venueStatus === 'filled') return 'filled';
  if (current === 'canceled' || current === 'expired' || current === 'rejected') return current;
  if (quantities.filled.gt(0)) return 'partially_filled';
  return venueStatus ? 'open' : current;
}

/**
 * The status of an order once one of its fills is reversed (the venue's trade behind it FAILED),
 * `filled` its total left after the reversal. The one move backwards, apart from
 * `ORDER_TRANSITIONS` (which are what a venue's report may do):
 * - `filled` becomes `canceled`: the venue matched the order and is done with it (a failed trade
 *   does not put the order back on the book), so what is left unfilled will not trade; a `canceled`
 *   order keeps the fills that stand.
 * - `partially_filled` stays so while something filled, else becomes `open`: it still rests.
 * - every other status stays (a canceled, expired or rejected order keeps its status; an open,
 *   pending or unknown one holds no fill to speak of).
 */
export function statusAfterReversal(current: OrderStatus, filled: Decimal): OrderStatus {
  if (current === 'filled') return 'canceled';
  if (current === 'partially_filled') return filled.gt(0) ? 'partially_filled' : 'open';
  return current;
}

export const COMPLEX_ORDER_STATUSES = ['pending', 'working', 'completed', 'canceled', 'failed'] as const;
export type ComplexOrderStatus = (typeof COMPLEX_ORDER_STATUSES)[number];
/** Complex orders that are done: nothing of them will be sent again. */
export const FINAL_COMPLEX_ORDER_STATUSES = ['completed', 'canceled', 'failed'] as const satisfies readonly ComplexOrderStatus[];
/** Complex orders a client may still cancel. */
export const CANCELABLE_COMPLEX_ORDER_STATUSES = ['pending', 'working'] as const satisfies readonly ComplexOrderStatus[];

/** scheduled -> sending -> sent; or rejected (risk or the venue refused it), canceled (the parent was canceled first). */
export const CHILD_ORDER_STATUSES = ['scheduled', 'sending', 'sent', 'rejected', 'canceled'] as const;
export type ChildOrderStatus = (typeof CHILD_ORDER_STATUSES)[number];
/** Children not yet at the venue: the scheduler still has to send them. */
export const UNSENT_CHILD_STATUSES = ['scheduled', 'sending'] as const satisfies readonly ChildOrderStatus[];

/** A child as the settle decision sees it: its own status, and its order's (once it has one). */
export interface SettlingChild {
  status: ChildOrderStatus;
  /** The order's filled quantity: a decimal (ours, or Prisma's). */
  order: { status: OrderStatus; filledQuantity: { gt(value: number): boolean } } | null;
}

/**
 * Whether a working complex order is done, and how: null while a child is not final (not yet sent,
 * or its order still working); otherwise `failed` when every child was refused (by us or by the
 * venue) and nothing traded, else `completed`.
 */
export function settleDecision(children: readonly SettlingChild[]): 'completed' | 'failed' | null {
  const final = (child: SettlingChild) =>
    child.status === 'rejected' || child.status === 'canceled' || (child.status === 'sent' && child.order !== null && !isWorking(child.order.status));
  if (!children.every(final)) return null;
  const traded = children.some((child) => child.order !== null && child.order.filledQuantity.gt(0));
  const refused = children.every((child) => child.status === 'rejected' || child.order?.status === 'rejected');
  return !traded && refused ? 'failed' : 'completed';
}
