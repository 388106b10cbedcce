/**
 * What gateway and core agree on about events: the types, the ids (which sort as the log does) and
 * the type filters of lists, streams and webhook endpoints. The core's rules about them (cursors,
 * refusing an id, the tables events snapshot) are core/domain/events.ts.
 */

/**
 * The event log's vocabulary (docs/events.md). Every type is `<object>.<change>`; the triggers of
 * migration event_log write all but risk_limit.breached, which the order path writes when it
 * refuses an order.
 */
export const EVENT_TYPES = [
  'order.accepted',
  'order.rested',
  'order.partially_filled',
  'order.filled',
  'order.canceled',
  'order.rejected',
  'order.expired',
  'order.unknown',
  'order.pending',
  'order.withdrawn',
  'order.amended',
  'fill.created',
  'fill.reversed',
  'settlement.created',
  'market.closed',
  'market.determined',
  'market.settled',
  'complex_order.created',
  'complex_order.pending',
  'complex_order.working',
  'complex_order.completed',
  'complex_order.canceled',
  'complex_order.failed',
  'complex_order.child_sent',
  'complex_order.child_rejected',
  'complex_order.child_canceled',
  'complex_order.child_settled',
  'dead_mans_switch.armed',
  'dead_mans_switch.fired',
  'dead_mans_switch.disarmed',
  'dead_mans_switch.cancellation_completed',
  'credential.attached',
  'credential.removed',
  'kill_switch.engaged',
  'kill_switch.released',
  'risk_limits.updated',
  'risk_limit.breached',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_ID = /^evt_(\d{26})$/;

/**
 * An event's id: `evt_` and its place in the log as 26 digits, so that ids sort as the log does
 * (and have the length of every other id). The log's numbers are commit order, across workspaces.
 */
export const eventId = (seq: bigint | string): string => `evt_${seq.toString().padStart(26, '0')}`;

/**
 * The last place the log can number: its `seq` is a PostgreSQL bigint. An id's 26 digits can name
 * more; such an id names no event that can exist, and is refused as input rather than sent to a
 * statement that would fail on it.
 */
export const MAX_EVENT_SEQ = 2n ** 63n - 1n;

export interface TypeFilter {
  /** Types named exactly. */
  exact: string[];
  /** `order.*`: every type of the object. */
  prefixes: string[];
}

/**
 * A list of event types, each exact or `<object>.*`, as a filter (none: undefined); an unknown one is
 * refused (the reason, as a sentence) rather than matching nothing.
 */
export function readTypeFilter(types: readonly string[] | null | undefined): { filter: TypeFilter | undefined } | { refusal: string } {
  if (!types || types.length === 0) return { filter: undefined };
  const filter: TypeFilter = { exact: [], prefixes: [] };
  for (const type of types) {
    if (type.endsWith('.*')) {
      const object = type.slice(0, -1);
      if (!EVENT_TYPES.some((known) => known.startsWith(object))) return { refusal: `No event type starts with '${object}'.` };
      filter.prefixes.push(object);
    } else if ((EVENT_TYPES as readonly string[]).includes(type)) {
      filter.exact.push(type);
    } else {
      return { refusal: `'${type}' is not an event type (docs/events.md lists them; 'order.*' takes every order event).` };
    }
  }
  return { filter };
}

/** Whether an event type passes a filter (no filter: every type). */
export const typeMatches = (filter: TypeFilter | undefined, type: string): boolean =>
  !filter || filter.exact.includes(type) || filter.prefixes.some((prefix) => type.startsWith(prefix));
