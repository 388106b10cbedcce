import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { KalshiCredential } from '../../domain/credentialShapes';

/**
 * Kalshi request signing, Trade API v2 (docs.kalshi.com "API Keys" and "Quick Start:
 * Authenticated Requests", as of 2026-08; see docs/VENUES.md). Every authenticated request, and
 * the WebSocket handshake, carries three headers:
 *
 * - `KALSHI-ACCESS-KEY`: the API key id;
 * - `KALSHI-ACCESS-TIMESTAMP`: the time in MILLISECONDS since the epoch (seconds are a common
 *   client bug, refused as an expired timestamp);
 * - `KALSHI-ACCESS-SIGNATURE`: base64 of RSA-PSS, SHA-256, MGF1-SHA256, salt length = digest
 *   length (32 bytes), over `timestamp + METHOD + path`, where path starts at the root
 *   (`/trade-api/v2/portfolio/orders`) and carries NO query string (signing it is the other common
 *   bug, refused with INCORRECT_API_KEY_SIGNATURE). The handshake signs
 *   `timestamp + "GET" + "/trade-api/ws/v2"`.
 *
 * A signer holds a private KeyObject, never a PEM string, and its own key id: nothing here is
 * global, so two subaccounts' signers cannot sign each other's requests. The clock is a parameter
 * for tests. Pure node:crypto; no I/O.
 */

/** Kalshi's PSS salt: the length of a SHA-256 digest. Spelt out, not RSA_PSS_SALTLEN_DIGEST, so a test can compare. */
export const KALSHI_PSS_SALT_LENGTH = 32;
/** The WebSocket path Kalshi signs for the handshake, whatever host serves it. */
export const KALSHI_WS_SIGNED_PATH = '/trade-api/ws/v2';

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: KALSHI_PSS_SALT_LENGTH } as const;
/** 10^11 ms is March 1973; 10^11 s is the year 5138: a clock below it answers seconds. */
const MIN_PLAUSIBLE_MS = 1e11;

export type Clock = () => number;

export interface KalshiAuthHeaders {
  'KALSHI-ACCESS-KEY': string;
  'KALSHI-ACCESS-TIMESTAMP': string;
  'KALSHI-ACCESS-SIGNATURE': string;
}

export interface KalshiSigner {
  readonly keyId: string;
  /** Headers for `method` on `target`: a root path (`/trade-api/v2/...`, a query is dropped) or an absolute URL. */
  request(method: string, target: string | URL): KalshiAuthHeaders;
  /** Headers for the WebSocket upgrade (`GET /trade-api/ws/v2`). */
  webSocket(): KalshiAuthHeaders;
}

/** The path Kalshi signs: from the root, without query string or fragment. */
export function kalshiSignedPath(target: string | URL): string {
  const path = target instanceof URL ? target.pathname : /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? new URL(target).pathname : target.split(/[?#]/, 1)[0]!;
  if (!path.startsWith('/')) throw new Error('a Kalshi request path must start at the root (/trade-api/v2/...)');
  return path;
}

/** The signed message: `timestamp + METHOD + path` (path without query). */
export function kalshiSignaturePayload(timestampMs: string, method: string, target: string | URL): string {
  return `${timestampMs}${method.toUpperCase()}${kalshiSignedPath(target)}`;
}

function timestampOf(clock: Clock): string {
  const now = Math.trunc(clock());
  if (!Number.isSafeInteger(now) || now < MIN_PLAUSIBLE_MS) throw new Error('the Kalshi signing clock must answer milliseconds since the epoch');
  return String(now);
}

function checkPrivateKey(key: KeyObject) {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') throw new Error('a Kalshi signer needs an RSA private key');
}

/** A signer for one API key. */
export function createKalshiSigner(keyId: string, privateKey: KeyObject, clock: Clock = Date.now): KalshiSigner {
  checkPrivateKey(privateKey);
  const headers = (method: string, target: string | URL): KalshiAuthHeaders => {
    const timestamp = timestampOf(clock);
    const payload = Buffer.from(kalshiSignaturePayload(timestamp, method, target), 'utf8');
    return {
      'KALSHI-ACCESS-KEY': keyId,
      'KALSHI-ACCESS-TIMESTAMP': timestamp,
      'KALSHI-ACCESS-SIGNATURE': sign('sha256', payload, { key: privateKey, ...PSS }).toString('base64'),
    };
  };
  return {
    keyId,
    request: headers,
    webSocket: () => headers('GET', KALSHI_WS_SIGNED_PATH),
  };
}

/** A signer from an opened credential: the PEM is parsed once here and not kept. */
export function kalshiSignerFromCredential(credential: Pick<KalshiCredential, 'key_id' | 'private_key'>, clock: Clock = Date.now): KalshiSigner {
  return createKalshiSigner(credential.key_id, createPrivateKey(credential.private_key), clock);
}
