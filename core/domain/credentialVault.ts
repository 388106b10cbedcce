import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Envelope encryption of venue credentials at rest: AES-256-GCM under a key-encryption key (KEK)
 * that lives in the configuration, never in the database.
 *
 * Blob layout (the `ciphertext` column): `version (1 byte) = 1 || iv (12) || ciphertext || tag (16)`.
 * A fresh random 96-bit IV per seal. The GCM additional data binds the blob to its version, to
 * the KEK id it was sealed under and to the caller's `aad` (for credentials
 * `${subaccountId}:${exchange}`), so a blob copied to another row, or relabelled with another
 * KEK id, fails authentication instead of decrypting.
 *
 * Errors say what went wrong (unknown KEK id, malformed blob, authentication failure) and never
 * carry key material, plaintext or the blob.
 */

export const VAULT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HEADER_BYTES = 1 + IV_BYTES;

/** A key-encryption key: its id is stored next to every blob it seals. */
export interface Kek {
  id: string;
  key: Buffer;
}

export interface SealedCredential {
  kekId: string;
  ciphertext: Buffer;
}

/** The current KEK (null when CREDENTIALS_KEK is not configured: nothing can be sealed) and every KEK that can open. */
export interface CredentialKeys {
  current: Kek | null;
  keyring: ReadonlyMap<string, Buffer>;
}

export type CredentialVaultErrorCode = 'invalid_key' | 'unknown_kek' | 'malformed' | 'unsupported_version' | 'authentication_failed';

export class CredentialVaultError extends Error {
  constructor(
    readonly code: CredentialVaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CredentialVaultError';
  }
}

/** KEK ids are stored in rows and written in CREDENTIALS_OLD_KEKS, whose separators they must not contain. */
export const KEK_ID_FORMAT = /^[A-Za-z0-9._-]{1,64}$/;

function additionalData(version: number, kekId: string, aad: string): Buffer {
  return Buffer.concat([Buffer.from([version]), Buffer.from(kekId, 'utf8'), Buffer.from([0]), Buffer.from(aad, 'utf8')]);
}

function checkKek(kek: Kek) {
  if (!KEK_ID_FORMAT.test(kek.id)) throw new CredentialVaultError('invalid_key', 'KEK id must be 1 to 64 characters of A-Z a-z 0-9 . _ -');
  if (!Buffer.isBuffer(kek.key) || kek.key.length !== KEY_BYTES) {
    throw new CredentialVaultError('invalid_key', `KEK '${kek.id}' must be ${KEY_BYTES} bytes`);
  }
}

/** Encrypts `plaintext` under `kek`, bound to `aad`. */
export function sealCredential(plaintext: Buffer | string, kek: Kek, aad: string): SealedCredential {
  checkKek(kek);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(VAULT_VERSION, kek.id, aad));
  const body = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
  return { kekId: kek.id, ciphertext: Buffer.concat([Buffer.from([VAULT_VERSION]), iv, body, cipher.getAuthTag()]) };
}

/** Decrypts a blob sealed by sealCredential with the keyring's key `kekId` and the same `aad`. */
export function openCredential(blob: Uint8Array, keyring: ReadonlyMap<string, Buffer>, kekId: string, aad: string): Buffer {
  const key = keyring.get(kekId);
  if (!key) {
    throw new CredentialVaultError(
      'unknown_kek',
      `credential was sealed with key-encryption key '${kekId}', which is not configured (CREDENTIALS_KEK or CREDENTIALS_OLD_KEKS)`,
    );
  }
  if (key.length !== KEY_BYTES) throw new CredentialVaultError('invalid_key', `KEK '${kekId}' must be ${KEY_BYTES} bytes`);
  const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (bytes.length < HEADER_BYTES + TAG_BYTES) throw new CredentialVaultError('malformed', 'credential blob is truncated');
  const version = bytes[0];
  if (version !== VAULT_VERSION) throw new CredentialVaultError('unsupported_version', `credential blob version ${version} is not supported`);
  const iv = bytes.subarray(1, HEADER_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(version, kekId, aad));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    // Node's own message ("Unsupported state or unable to authenticate data") carries nothing secret,
    // but it says nothing useful either; no cause is attached so nothing of the inputs can leak.
    throw new CredentialVaultError(
      'authentication_failed',
      `credential blob failed authentication under key-encryption key '${kekId}': wrong key, moved to another row, or tampered with`,
    );
  }
}

/**
 * Rotation: opens a blob with whichever keyring key sealed it and seals the plaintext again under
 * `current`. The plaintext only lives in this function, and its buffer is zeroed before returning.
 */
export function rewrapCredential(
  blob: Uint8Array,
  keyring: ReadonlyMap<string, Buffer>,
  kekId: string,
  current: Kek,
  aad: string,
): SealedCredential {
  const plaintext = openCredential(blob, keyring, kekId, aad);
  try {
    return sealCredential(plaintext, current, aad);
  } finally {
    plaintext.fill(0);
  }
}

export class KeyringConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringConfigError';
  }
}

/** Standard or url-safe base64 that decodes to exactly 32 bytes; null otherwise. */
function decodeKey(value: string): Buffer | null {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

/**
 * Builds the keys from the configuration:
 *
 * - `CREDENTIALS_KEK` (32 bytes, base64): the current KEK, under id `CREDENTIALS_KEK_ID`. It seals
 *   everything new and opens what it sealed. Absent: `current` is null and nothing can be stored.
 * - `CREDENTIALS_OLD_KEKS` (optional): retired KEKs that still open blobs sealed before a
 *   rotation, as a comma-separated list of `id:base64key` entries, e.g.
 *   `kek0:q5Xv…=,kek-2024:Zm9v…=`. Ids follow KEK_ID_FORMAT (`[A-Za-z0-9._-]{1,64}`), keys are
 *   32 bytes in standard or url-safe base64; whitespace around entries is ignored. An id may
 *   appear once, and not as the current id.
 *
 * Rotation: move the current `id:key` into CREDENTIALS_OLD_KEKS, set a new CREDENTIALS_KEK and
 * CREDENTIALS_KEK_ID, restart, rewrap the stored blobs (`npm run cli -- credentials rewrap`), then drop the
 * old entry.
 *
 * Errors name the variable and the entry (by position and id), never the key.
 */
export function parseKeyring(config: { CREDENTIALS_KEK?: string; CREDENTIALS_KEK_ID: string; CREDENTIALS_OLD_KEKS?: string }): CredentialKeys {
  const keyring = new Map<string, Buffer>();
  let current: Kek | null = null;
  if (config.CREDENTIALS_KEK !== undefined && config.CREDENTIALS_KEK !== '') {
    const id = config.CREDENTIALS_KEK_ID;
    if (!KEK_ID_FORMAT.test(id)) throw new KeyringConfigError('CREDENTIALS_KEK_ID must be 1 to 64 characters of A-Z a-z 0-9 . _ -');
    const key = decodeKey(config.CREDENTIALS_KEK);
    if (!key) throw new KeyringConfigError('CREDENTIALS_KEK must be 32 bytes, base64-encoded');
    current = { id, key };
    keyring.set(id, key);
  }
  const old = config.CREDENTIALS_OLD_KEKS?.trim();
  if (old) {
    old.split(',').forEach((raw, index) => {
      const entry = raw.trim();
      const position = `CREDENTIALS_OLD_KEKS entry ${index + 1}`;
      const colon = entry.indexOf(':');
      if (colon < 0) throw new KeyringConfigError(`${position} must be id:base64key`);
      const id = entry.slice(0, colon).trim();
      if (!KEK_ID_FORMAT.test(id)) throw new KeyringConfigError(`${position} has an id that is not 1 to 64 characters of A-Z a-z 0-9 . _ -`);
      if (keyring.has(id)) {
        throw new KeyringConfigError(
          current?.id === id ? `${position} reuses the current CREDENTIALS_KEK_ID '${id}'` : `${position} repeats the id '${id}'`,
        );
      }
      const key = decodeKey(entry.slice(colon + 1));
      if (!key) throw new KeyringConfigError(`${position} ('${id}') must have a key of 32 bytes, base64-encoded`);
      keyring.set(id, key);
    });
  }
  return { current, keyring };
}
