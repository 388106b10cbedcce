import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Dashboard passwords: scrypt (node:crypto), stored self-describing as
 *
 *   scrypt$N$r$p$salt$hash        salt and hash in base64url, no padding
 *
 * so that verification reads its parameters from the stored string and the cost can be raised
 * later: `needsRehash` tells which stored hashes were made with other parameters (sign-in
 * re-hashes them then, while it has the password).
 *
 * Passwords are NFC-normalised before policy checks and before hashing, so a password typed as
 * composed characters ("é", U+00E9) and the same one typed decomposed ("e" + U+0301, as some
 * keyboards and operating systems send it) are the same password. Nothing else is changed: no
 * trimming, no case folding.
 */

/** N = 2^15, r = 8: 32 MiB and roughly 100 ms per hash on a 2-core machine. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Bounds for parameters read back from a stored string: a corrupt row must not cost gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
const MAX_MEMORY = 1024 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const POSITIVE_INT = /^[1-9][0-9]{0,9}$/;

/** The password as it is checked and hashed. */
export function normalizePassword(password: string): string {
  return password.normalize('NFC');
}

/** Length in characters (code points) after NFC normalisation. */
function characterCount(normalized: string): number {
  let count = 0;
  for (const _ of normalized) count += 1;
  return count;
}

/**
 * Why this password may not be set, or null when it may: 12 to 256 characters (code points, after
 * NFC normalisation), and not one character repeated. `field` names it in the reason.
 */
export function checkPasswordPolicy(password: string, field = 'password'): string | null {
  if (typeof password !== 'string') return `${field} must be a string.`;
  const normalized = normalizePassword(password);
  const length = characterCount(normalized);
  if (length < PASSWORD_MIN_LENGTH) return `${field} must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  if (length > PASSWORD_MAX_LENGTH) return `${field} must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  if (new Set(normalized).size === 1) return `${field} must not be one character repeated.`;
  return null;
}

/** maxmem for these parameters: scrypt needs 128·N·r bytes for V and 128·r·p for B, plus slack. */
function maxmemFor({ N, r, p }: ScryptParams): number {
  return 128 * N * r + 128 * r * p + 1024 * 1024;
}

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: maxmemFor(params) };
  return new Promise((resolve, reject) => {
    scrypt(normalizePassword(password), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function format(params: ScryptParams, salt: Buffer, hash: Buffer): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** The stored string taken apart, or null when it is not one this module can verify. */
function parse(stored: string): ParsedHash | null {
  if (typeof stored !== 'string') return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, nText, rText, pText, saltText, hashText] = parts;
  if (![nText, rText, pText].every((text) => POSITIVE_INT.test(text))) return null;
  if (!B64URL.test(saltText) || !B64URL.test(hashText)) return null;
  const N = Number(nText);
  const r = Number(rText);
  const p = Number(pText);
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return null;
  if (r > MAX_R || p > MAX_P || 128 * N * r > MAX_MEMORY) return null;
  const salt = Buffer.from(saltText, 'base64url');
  const hash = Buffer.from(hashText, 'base64url');
  // Canonical base64url only (no stray trailing bits), and no key shorter than 32 bytes: a
  // truncated hash would otherwise still verify, its prefix being a valid shorter scrypt output.
  if (salt.toString('base64url') !== saltText || hash.toString('base64url') !== hashText) return null;
  if (salt.length < SALT_BYTES || hash.length < KEY_BYTES || hash.length > 64) return null;
  return { N, r, p, salt, hash };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, KEY_BYTES, SCRYPT_PARAMS);
  return format(SCRYPT_PARAMS, salt, hash);
}

/**
 * A well-formed hash of no password anyone knows (random salt and random "hash", current
 * parameters): verifying against it costs exactly what verifying a real user's password costs, and
 * never succeeds. Sign-in verifies against it when the email is unknown, so that the answer takes
 * the same time whether or not the account exists.
 */
export const DUMMY_PASSWORD_HASH = format(SCRYPT_PARAMS, randomBytes(SALT_BYTES), randomBytes(KEY_BYTES));

/**
 * True when `password` is the one `stored` was made from. Always runs one scrypt: a stored string
 * that cannot be parsed is verified against DUMMY_PASSWORD_HASH instead (and is false), so no
 * answer comes back faster than another.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  const target = parsed ?? (parse(DUMMY_PASSWORD_HASH) as ParsedHash);
  const candidate = await derive(typeof password === 'string' ? password : '', target.salt, target.hash.length, target);
  const equal = timingSafeEqual(candidate, target.hash);
  return parsed !== null && typeof password === 'string' && equal;
}

/** True when `stored` was not made with today's parameters (or cannot be read): hash it again at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return (
    parsed.N !== SCRYPT_PARAMS.N ||
    parsed.r !== SCRYPT_PARAMS.r ||
    parsed.p !== SCRYPT_PARAMS.p ||
    parsed.salt.length !== SALT_BYTES ||
    parsed.hash.length !== KEY_BYTES
  );
}
