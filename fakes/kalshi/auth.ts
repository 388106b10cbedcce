/**
 * Checks a request's Kalshi API-key signature against the keys registered with this
 * fake instance (one instance = one Kalshi environment: a demo key is unknown to a
 * production fake and the other way round).
 *
 * Order of checks and answers (all 401, bodies in errors.ts, captured on demo
 * 2026-06-11, XavierBriggs/Fortuna fixtures/kalshi auth__*.json):
 * signature header missing -> signature_is_missing_from_headers; timestamp outside
 * the window -> header_timestamp_expired; unknown key id -> authentication_error /
 * NOT_FOUND; bad signature (including one computed over the query string) ->
 * authentication_error / INCORRECT_API_KEY_SIGNATURE.
 *
 * Timestamp window: Kalshi documents none. Recorded on the wire: -5 s and +5 s
 * accepted, -30 s rejected, +30 s accepted (margin surface), +/-5 min rejected. The
 * fake's defaults, 10 s in the past and 60 s in the future, sit inside those bounds
 * and are configurable. A timestamp in seconds instead of milliseconds lands ~56
 * years in the past and is refused as expired.
 */
import type { KeyObject } from 'node:crypto';
import { errors, type KalshiError } from './errors';
import { parsePublicKey, signedMessage, verifyKalshiSignature } from './signing';

export interface RegisteredKey {
  readonly keyId: string;
  /** The account the key belongs to (Kalshi's user_id). */
  readonly userId: string;
  readonly publicKey: KeyObject;
}

export interface TimestampWindow {
  readonly maxPastMs: number;
  readonly maxFutureMs: number;
}

export const DEFAULT_TIMESTAMP_WINDOW: TimestampWindow = { maxPastMs: 10_000, maxFutureMs: 60_000 };

export type AuthResult = { readonly ok: true; readonly key: RegisteredKey } | { readonly ok: false; readonly error: KalshiError };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function hasAuthHeaders(headers: Headers): boolean {
  return ['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-SIGNATURE', 'KALSHI-ACCESS-TIMESTAMP'].some((h) => header(headers, h) !== undefined);
}

export class KeyRegistry {
  private readonly keys = new Map<string, RegisteredKey>();

  register(keyId: string, userId: string, publicKeyPem: string): void {
    this.keys.set(keyId, { keyId, userId, publicKey: parsePublicKey(publicKeyPem) });
  }

  revoke(keyId: string): void {
    this.keys.delete(keyId);
  }

  get(keyId: string): RegisteredKey | undefined {
    return this.keys.get(keyId);
  }
}

export function authenticate(
  registry: KeyRegistry,
  headers: Headers,
  method: string,
  pathWithoutQuery: string,
  window: TimestampWindow,
  nowMs: number,
): AuthResult {
  const signature = header(headers, 'KALSHI-ACCESS-SIGNATURE');
  if (signature === undefined || signature === '') return { ok: false, error: errors.signatureMissing() };
  const keyId = header(headers, 'KALSHI-ACCESS-KEY');
  if (keyId === undefined || keyId === '') return { ok: false, error: errors.headerMissing('KALSHI-ACCESS-KEY') };
  const timestamp = header(headers, 'KALSHI-ACCESS-TIMESTAMP');
  if (timestamp === undefined || timestamp === '') return { ok: false, error: errors.headerMissing('KALSHI-ACCESS-TIMESTAMP') };
  if (!/^\d{1,16}$/.test(timestamp)) return { ok: false, error: errors.timestampExpired() };
  const skew = Number(timestamp) - nowMs;
  if (skew < -window.maxPastMs || skew > window.maxFutureMs) return { ok: false, error: errors.timestampExpired() };
  const key = registry.get(keyId);
  if (key === undefined) return { ok: false, error: errors.unknownKeyId() };
  if (!verifyKalshiSignature(key.publicKey, signedMessage(timestamp, method, pathWithoutQuery), signature)) {
    return { ok: false, error: errors.badSignature() };
  }
  return { ok: true, key };
}
