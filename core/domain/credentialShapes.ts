import { constants, createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * The shape of venue credentials as a user pastes them (see docs/VENUES.md), checked before they
 * are sealed: a typo is caught at attach time rather than at the first order. Validation answers
 * the normalized value and a fingerprint of the PUBLIC part only, or the field at fault; messages
 * never contain what was pasted.
 *
 * Kalshi: `{ key_id, private_key, environment }`: the API key id (a UUID), its RSA private key in
 * PEM, PKCS#1 (`BEGIN RSA PRIVATE KEY`) or PKCS#8 (`BEGIN PRIVATE KEY`), unencrypted, at least 2048
 * bits, and the Kalshi environment that issued the key, `production` or `demo` (demo is the real
 * exchange with play money; a key works only where it was issued). Normalized to PKCS#8 PEM.
 * Fingerprint: SHA-256 of the SPKI DER public key, plus the key id. The environment is not secret.
 *
 * Polymarket (CLOB V2): validated and normalized by core/venues/polymarket/credentials.ts, which
 * needs the official client's definitions and Keccak-256 (the signer address is its fingerprint);
 * its stored form is `PolymarketCredential` below.
 *
 * Strings are trimmed (a pasted value often ends in a newline); unknown fields are refused, so a
 * misspelt field is not silently dropped.
 */

/** Where a Kalshi key was issued, in Kalshi's own words. Demo first: the safer choice to offer. */
export const KALSHI_ENVIRONMENTS = ['demo', 'production'] as const;
export type KalshiEnvironment = (typeof KALSHI_ENVIRONMENTS)[number];

export interface KalshiCredential {
  key_id: string;
  /** PKCS#8 PEM. */
  private_key: string;
  /**
   * Required at attach. Absent only in blobs sealed before the field existed: their environment is
   * unknown, and such a credential must not be used to trade until it is attached again
   * (`kalshiEnvironmentOf` answers null for it).
   */
  environment?: KalshiEnvironment;
}

/** `value` when it names a Kalshi environment, else null (unknown: not usable to trade). */
export function kalshiEnvironmentNamed(value: unknown): KalshiEnvironment | null {
  return (KALSHI_ENVIRONMENTS as readonly unknown[]).includes(value) ? (value as KalshiEnvironment) : null;
}

/** The environment of an opened Kalshi credential, or null when it was attached without one. */
export function kalshiEnvironmentOf(credential: KalshiCredential): KalshiEnvironment | null {
  return kalshiEnvironmentNamed(credential.environment);
}

/**
 * Polymarket CLOB V2 credentials as sealed: normalized by core/venues/polymarket/credentials.ts
 * (`polymarketCredentialShape`), which validates what users paste and derives the signer address.
 */
export interface PolymarketCredential {
  /** `0x` + 64 lower-case hex digits. */
  private_key: string;
  /** 0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 POLY_1271. */
  signature_type: 0 | 1 | 2 | 3;
  /** Checksummed: the wallet that holds the funds (the signer's own address for EOA). */
  funder_address: string;
  /** All three or none: absent, they are derived with L1 auth when the account opens. */
  api_key?: string;
  api_secret?: string;
  api_passphrase?: string;
}

export interface CredentialsByExchange {
  kalshi: KalshiCredential;
  polymarket: PolymarketCredential;
}

/** `environment` is the venue environment a credential trades in, shown beside the fingerprint (Kalshi only). */
export type ShapeResult<T> = { ok: true; value: T; fingerprint: string; environment: KalshiEnvironment | null } | { ok: false; param: string; message: string };

/** The order n of secp256k1's base point: a private key is a scalar in [1, n - 1]. */
export const SECP256K1_ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const MIN_RSA_BITS = 2048;
const MAX_PEM_CHARS = 16_384;
const MAX_FIELD_CHARS = 1024;

const fail = (param: string, message: string) => ({ ok: false as const, param, message });

const shortSha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex').slice(0, 16)}`;

type Fields = Record<string, unknown>;

function asFields(input: unknown, allowed: readonly string[], venue: string): { ok: true; fields: Fields } | ReturnType<typeof fail> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('credentials', `${venue} credentials must be an object with ${allowed.join(', ')}.`);
  }
  for (const name of Object.keys(input)) {
    if (!allowed.includes(name)) {
      // The name is echoed only when it looks like a field name, never a pasted value.
      const param = /^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(name) ? name : 'credentials';
      return fail(param, `Unknown field in ${venue} credentials; the fields are ${allowed.join(', ')}.`);
    }
  }
  return { ok: true, fields: input as Fields };
}

/** A trimmed, non-empty string without control characters (they would end up in HTTP headers). */
function text(fields: Fields, name: string, what: string, max = MAX_FIELD_CHARS): { ok: true; value: string } | ReturnType<typeof fail> {
  const raw = fields[name];
  if (raw === undefined || raw === null) return fail(name, `${name} is required: ${what}.`);
  if (typeof raw !== 'string') return fail(name, `${name} must be a string: ${what}.`);
  const value = raw.trim();
  if (value.length === 0) return fail(name, `${name} must not be empty: ${what}.`);
  if (value.length > max) return fail(name, `${name} is too long: ${what}.`);
  return { ok: true, value };
}

const PEM = /^-----BEGIN (RSA PRIVATE KEY|PRIVATE KEY)-----([A-Za-z0-9+/=\s]+)-----END \1-----$/;

/** An RSA private key from PEM, whatever its line breaks (pasted PEMs lose or escape them). */
function rsaPrivateKey(value: string): { ok: true; key: KeyObject } | ReturnType<typeof fail> {
  const what = 'an RSA private key in PEM (-----BEGIN RSA PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----)';
  const pem = value.replace(/\\r/g, '').replace(/\\n/g, '\n').trim();
  if (pem.length > MAX_PEM_CHARS) return fail('private_key', `private_key is too long for ${what}.`);
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,\s*ENCRYPTED/.test(pem)) return fail('private_key', 'private_key is encrypted; paste the key exported without a passphrase.');
  const match = PEM.exec(pem);
  if (!match) return fail('private_key', `private_key must be ${what}.`);
  const body = match[2].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) return fail('private_key', `private_key must be ${what}; its body is not base64.`);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: Buffer.from(body, 'base64'), format: 'der', type: match[1] === 'RSA PRIVATE KEY' ? 'pkcs1' : 'pkcs8' });
  } catch {
    return fail('private_key', `private_key could not be read as ${what}.`);
  }
  if (key.asymmetricKeyType !== 'rsa') return fail('private_key', `private_key must be an RSA key, not ${key.asymmetricKeyType ?? 'another kind'}.`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) return fail('private_key', `private_key must be at least ${MIN_RSA_BITS} bits; this one is ${bits}.`);
  // Kalshi signs with RSA-PSS/SHA-256: prove the key does, so a damaged key fails here, not at the first order.
  try {
    const probe = Buffer.from('kalshi-credential-check');
    const options = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST };
    const signature = sign('sha256', probe, { key, ...options });
    if (!verify('sha256', probe, { key: createPublicKey(key), ...options }, signature)) throw new Error('mismatch');
  } catch {
    return fail('private_key', 'private_key is not a usable RSA key.');
  }
  return { ok: true, key };
}

/** SHA-256 of the SPKI DER of the key's public half, shortened, with the key id. */
export function kalshiFingerprint(keyId: string, key: KeyObject): string {
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return `${shortSha256(spki)} key_id=${keyId}`;
}

export function validateKalshiCredential(input: unknown): ShapeResult<KalshiCredential> {
  const fields = asFields(input, ['key_id', 'private_key', 'environment'], 'Kalshi');
  if (!fields.ok) return fields;
  const keyId = text(fields.fields, 'key_id', 'the Kalshi API key id, a UUID');
  if (!keyId.ok) return keyId;
  if (!UUID.test(keyId.value)) return fail('key_id', 'key_id must be the Kalshi API key id, a UUID (8-4-4-4-12 hex digits).');
  const pem = text(fields.fields, 'private_key', 'the RSA private key (PEM) of the Kalshi API key', MAX_PEM_CHARS * 2);
  if (!pem.ok) return pem;
  const key = rsaPrivateKey(pem.value);
  if (!key.ok) return key;
  const environmentText = text(fields.fields, 'environment', 'the Kalshi environment that issued the key, demo or production');
  if (!environmentText.ok) return environmentText;
  const environment = environmentText.value;
  if (environment !== 'demo' && environment !== 'production') {
    return fail('environment', 'environment must be demo or production: the Kalshi environment that issued the key (a key works only there).');
  }
  return {
    ok: true,
    value: { key_id: keyId.value, private_key: key.key.export({ type: 'pkcs8', format: 'pem' }) as string, environment },
    fingerprint: kalshiFingerprint(keyId.value, key.key),
    environment,
  };
}


