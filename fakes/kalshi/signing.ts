/**
 * Kalshi request signing, as the fake checks it (Trade API v2, docs.kalshi.com
 * "API Keys" / quick start): KALSHI-ACCESS-SIGNATURE is base64 RSA-PSS, SHA-256,
 * MGF1-SHA256, salt length = digest length (32), over
 *   timestamp_ms + METHOD + path
 * where path starts at the root (`/trade-api/v2/...`, `/trade-api/ws/v2`) and carries
 * no query string. Signing the query string is a known client bug that Kalshi
 * answers with 401 INCORRECT_API_KEY_SIGNATURE (see auth.ts).
 *
 * `signKalshiMessage` exists so tests can play a Kalshi client; the fake itself only
 * verifies.
 */
import { constants, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } as const;

export function signedMessage(timestampMs: string, method: string, pathWithoutQuery: string): string {
  return `${timestampMs}${method.toUpperCase()}${pathWithoutQuery}`;
}

export function signKalshiMessage(privateKeyPem: string | KeyObject, message: string): string {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  return sign('sha256', Buffer.from(message, 'utf8'), { key, ...PSS }).toString('base64');
}

export function verifyKalshiSignature(publicKey: KeyObject, message: string, signatureBase64: string): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  if (signature.length === 0) return false;
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), { key: publicKey, ...PSS }, signature);
  } catch {
    return false;
  }
}

/** Parses a registered public key once; throws on anything that is not an RSA public key PEM. */
export function parsePublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('Kalshi API keys are RSA keys');
  return key;
}

/** The three headers a Kalshi client sends, for tests and the participant helpers. */
export function kalshiAuthHeaders(
  keyId: string,
  privateKeyPem: string | KeyObject,
  method: string,
  pathWithoutQuery: string,
  nowMs: number = Date.now(),
): Record<string, string> {
  const timestamp = String(nowMs);
  return {
    'KALSHI-ACCESS-KEY': keyId,
    'KALSHI-ACCESS-TIMESTAMP': timestamp,
    'KALSHI-ACCESS-SIGNATURE': signKalshiMessage(privateKeyPem, signedMessage(timestamp, method, pathWithoutQuery)),
  };
}
