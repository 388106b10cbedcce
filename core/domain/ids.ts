import { randomFillSync } from 'node:crypto';
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
  settlement: 'stl',
  market: 'mkt',
  deadMansSwitch: 'dms',
  webhookEndpoint: 'whe',
  marketEvent: 'mev',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/**
 * ulid's own generator draws one crypto.randomBytes(1) per character (16 calls per id, 3% of an
 * order's CPU); this one reads the same CSPRNG from a buffer filled 4 KiB at a time.
 */
const entropy = new Uint8Array(4096);
let used = entropy.length;
function cryptoRandom(): number {
  if (used === entropy.length) {
    randomFillSync(entropy);
    used = 0;
  }
  return entropy[used++]! / 256;
}

const ulid = monotonicFactory(cryptoRandom);

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${ulid().toLowerCase()}`;
}

/** True when `id` has the shape of an id of this kind; anything else cannot exist. */
export function isIdOf(kind: IdKind, id: string): boolean {
  return new RegExp(`^${ID_PREFIX[kind]}_[0-9a-z]{26}$`).test(id);
}
