import { EVENT_ID, eventId, MAX_EVENT_SEQ, readTypeFilter, type TypeFilter } from '../../contract/eventTypes';
import { invalidRequest } from './errors';

/** What an event's `data` is a snapshot of: the table of its row (or, for a breach, the refusal itself). */
export const EVENT_OBJECT_TABLES = {
  order: 'orders',
  fill: 'fills',
  settlement: 'settlements',
  market: 'markets',
  complex_order: 'complex_orders',
  child_order: 'child_orders',
  dead_mans_switch: 'dead_mans_switches',
  credential: 'exchange_credentials',
  workspace: 'workspaces',
  risk_limits: 'risk_limits',
} as const;

export type EventObjectType = keyof typeof EVENT_OBJECT_TABLES | 'risk_limit_breach';

const isStorableSeq = (digits: string): boolean => BigInt(digits) <= MAX_EVENT_SEQ;

/** A cursor of a list ordered by place in the log (events, webhook deliveries). */
export const isSeqCursor = (value: unknown): value is { seq: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { seq?: unknown }).seq === 'string' &&
  /^\d{1,26}$/.test((value as { seq: string }).seq) &&
  isStorableSeq((value as { seq: string }).seq);

/** The place in the log an event id names; invalid_request (naming `param`) for anything else. */
export function seqOfEventId(id: string, param: string): bigint {
  const match = EVENT_ID.exec(id);
  if (!match) throw invalidRequest(param, `'${id}' is not an event id (evt_ and 26 digits).`);
  if (!isStorableSeq(match[1]!)) throw invalidRequest(param, `'${id}' is past the last event id the log can hold (${eventId(MAX_EVENT_SEQ)}).`);
  return BigInt(match[1]!);
}

/** A list of event types as a filter (contract/eventTypes.ts); an unknown one is invalid_request naming `param`. */
export function parseTypeFilter(types: readonly string[] | null | undefined, param = 'types'): TypeFilter | undefined {
  const reading = readTypeFilter(types);
  if ('refusal' in reading) throw invalidRequest(param, reading.refusal);
  return reading.filter;
}
