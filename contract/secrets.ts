import { createHash, randomBytes } from 'node:crypto';

import type { Environment } from './environment';

/**
 * API key secrets: `mk_test_` or `mk_live_` and 40 base62 characters (about 238 bits). Dashboard
 * tokens use `mk_dash_`. Only the SHA-256 of a secret is stored.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;

export const API_KEY_FORMAT = /^mk_(test|live)_[0-9A-Za-z]{40}$/;
export const DASHBOARD_TOKEN_FORMAT = /^mk_dash_[0-9A-Za-z]{40}$/;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]; // 248 = 4 * 62: no modulo bias
    }
  }
  return out;
}

export function generateApiKeySecret(environment: Environment): string {
  return `mk_${environment}_${randomBase62(SECRET_LENGTH)}`;
}

export function generateDashboardToken(): string {
  return `mk_dash_${randomBase62(SECRET_LENGTH)}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** What the key list may show of a secret: its prefix with 4 characters, and its last 4. */
export function displayParts(secret: string): { prefix: string; last4: string } {
  const cut = secret.indexOf('_', 3) + 1;
  return { prefix: secret.slice(0, cut + 4), last4: secret.slice(-4) };
}
