import { constants, createECDH, createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

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
 * Polymarket: `{ private_key, api_key, api_secret, api_passphrase, funder_address?, signature_type? }`:
 * the wallet's secp256k1 private key (64 hex digits, `0x` optional, normalized to `0x` + lower
 * case), the L2 API credentials (key: a UUID; secret: base64 or base64url; passphrase: any
 * non-empty printable string), and optionally the funder (proxy/Safe) address and the
 * clob-client signature type (0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE). Fingerprint: SHA-256 of the
 * compressed secp256k1 public key, plus the API key. (The wallet's Ethereum address would be the
 * natural fingerprint, but it needs Keccak-256, which node:crypto does not have: its `sha3-256` is
 * NIST SHA-3, whose padding differs.)
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

export interface PolymarketCredential {
  /** `0x` + 64 lower-case hex digits. */
  private_key: string;
  api_key: string;
  api_secret: string;
  api_passphrase: string;
  /** `0x` + 40 lower-case hex digits. */
  funder_address?: string;
  signature_type?: 0 | 1 | 2;
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
const CONTROL = /[\u0000-\u001f\u007f]/;

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

/** The compressed (33-byte) secp256k1 public key of a valid private scalar. */
export function secp256k1PublicKey(privateKey: Buffer): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey(null, 'compressed');
}

export function polymarketFingerprint(apiKey: string, privateKey: Buffer): string {
  return `${shortSha256(secp256k1PublicKey(privateKey))} api_key=${apiKey}`;
}

function base64Secret(value: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
  if (value.includes('=') && value.length % 4 !== 0) return false;
  const unpadded = value.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return false;
  return Buffer.from(unpadded, 'base64').length >= 16; // Node decodes both alphabets
}

export function validatePolymarketCredential(input: unknown): ShapeResult<PolymarketCredential> {
  const fields = asFields(
    input,
    ['private_key', 'api_key', 'api_secret', 'api_passphrase', 'funder_address', 'signature_type'],
    'Polymarket',
  );
  if (!fields.ok) return fields;
  const f = fields.fields;

  const scalarText = text(f, 'private_key', 'the wallet private key, 0x and 64 hex digits');
  if (!scalarText.ok) return scalarText;
  const hex = scalarText.value.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return fail('private_key', 'private_key must be the wallet private key: 0x and 64 hex digits.');
  const scalar = BigInt(`0x${hex}`);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) {
    return fail('private_key', 'private_key is not a valid secp256k1 private key (it must be non-zero and below the curve order).');
  }
  const privateKey = Buffer.from(hex, 'hex');

  const apiKey = text(f, 'api_key', 'the CLOB API key, a UUID');
  if (!apiKey.ok) return apiKey;
  if (!UUID.test(apiKey.value)) return fail('api_key', 'api_key must be the CLOB API key, a UUID (8-4-4-4-12 hex digits).');

  const secret = text(f, 'api_secret', 'the CLOB API secret, base64');
  if (!secret.ok) return secret;
  if (!base64Secret(secret.value)) return fail('api_secret', 'api_secret must be the CLOB API secret: base64 or base64url, at least 16 bytes.');

  const passphrase = text(f, 'api_passphrase', 'the CLOB API passphrase');
  if (!passphrase.ok) return passphrase;
  if (CONTROL.test(passphrase.value)) return fail('api_passphrase', 'api_passphrase must not contain control characters.');

  const value: PolymarketCredential = {
    private_key: `0x${hex.toLowerCase()}`,
    api_key: apiKey.value,
    api_secret: secret.value,
    api_passphrase: passphrase.value,
  };

  if (f.funder_address !== undefined && f.funder_address !== null) {
    const funder = typeof f.funder_address === 'string' ? f.funder_address.trim() : '';
    if (!/^0x[0-9a-fA-F]{40}$/.test(funder)) return fail('funder_address', 'funder_address must be an address: 0x and 40 hex digits.');
    value.funder_address = funder.toLowerCase();
  }
  if (f.signature_type !== undefined && f.signature_type !== null) {
    const type = typeof f.signature_type === 'string' ? f.signature_type.trim() : f.signature_type;
    if (type !== 0 && type !== 1 && type !== 2 && type !== '0' && type !== '1' && type !== '2') {
      return fail('signature_type', 'signature_type must be 0 (EOA), 1 (POLY_PROXY) or 2 (POLY_GNOSIS_SAFE).');
    }
    value.signature_type = Number(type) as 0 | 1 | 2;
  }

  const fingerprint = polymarketFingerprint(apiKey.value, privateKey);
  privateKey.fill(0);
  return { ok: true, value, fingerprint, environment: null };
}

export function validateCredentialShape<E extends keyof CredentialsByExchange>(exchange: E, input: unknown): ShapeResult<CredentialsByExchange[E]>;
export function validateCredentialShape(exchange: keyof CredentialsByExchange, input: unknown): ShapeResult<KalshiCredential | PolymarketCredential> {
  return exchange === 'kalshi' ? validateKalshiCredential(input) : validatePolymarketCredential(input);
}
