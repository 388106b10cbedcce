import { monotonicFactory } from 'ulid';

/**
 * Ids are opaque strings with a type prefix and a ULID: unique without coordination, and sorted
 * by creation time, which is what cursor pagination orders by.
 */
export const ID_PREFIX = {
  workspace: 'ws',
  apiKey: 'key',
  dashboardToken: 'dtok',
  user: 'usr',
  session: 'ses',
  subaccount: 'sa',
  credential: 'cred',
  order: 'ord',
  complexOrder: 'cxo',
  childOrder: 'chd',
  fill: 'fill',
  receipt: 'rcpt',
  market: 'mkt',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ulid = monotonicFactory();

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${ulid().toLowerCase()}`;
}

/** True when `id` has the shape of an id of this kind; anything else cannot exist. */
export function isIdOf(kind: IdKind, id: string): boolean {
  return new RegExp(`^${ID_PREFIX[kind]}_[0-9a-z]{26}$`).test(id);
}
