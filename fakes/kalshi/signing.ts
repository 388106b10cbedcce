/**
 * Kalshi request signatures, as the fake verifies them (Trade API v2, docs.kalshi.com
 * "API Keys" / quick start): KALSHI-ACCESS-SIGNATURE is base64 RSA-PSS, SHA-256,
 * MGF1-SHA256, salt length = digest length (32), over
 *   timestamp_ms + METHOD + path
 * where path starts at the root (`/trade-api/v2/...`, `/trade-api/ws/v2`) and carries
 * no query string. Signing the query string is a known client bug that Kalshi
 * answers with 401 INCORRECT_API_KEY_SIGNATURE (see auth.ts).
 *
 * The fake only verifies: it never signs. Clients, the tests' included, sign with our
 * signer (core/venues/kalshi/signing.ts); this side is written from Kalshi's docs on
 * its own, so that a mistake in our signer fails here instead of being mirrored.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } as const;

export function signedMessage(timestampMs: string, method: string, pathWithoutQuery: string): string {
  return `${timestampMs}${method.toUpperCase()}${pathWithoutQuery}`;
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
