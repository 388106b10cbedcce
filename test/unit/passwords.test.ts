import { scryptSync } from 'node:crypto';
import {
  checkPasswordPolicy,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  needsRehash,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SCRYPT_PARAMS,
  verifyPassword,
} from '../../core/domain/passwords';

/** Each hash costs ~100 ms of scrypt; on a busy machine several times that. */
const SLOW = 60_000;
const PASSWORD = 'correct horse battery staple';
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** A stored string built by hand with other parameters, as an older (or newer) version would have. */
function handMade(password: string, N: number, r: number, p: number, saltBytes = 16, keyBytes = 32): string {
  const salt = Buffer.alloc(saltBytes, 7);
  const key = scryptSync(password.normalize('NFC'), salt, keyBytes, { N, r, p, maxmem: 256 * N * r });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Flips one bit of a base64url string's decoded bytes. */
function flipBit(text: string, byteIndex = 0): string {
  const bytes = Buffer.from(text, 'base64url');
  bytes[byteIndex] ^= 0x01;
  return bytes.toString('base64url');
}

describe('hashPassword / verifyPassword', () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword(PASSWORD);
  }, SLOW);

  it('stores scrypt$N$r$p$salt$hash with the current parameters, a 16-byte salt and a 32-byte key', () => {
    const match = FORMAT.exec(stored);
    expect(match).not.toBeNull();
    const [, N, r, p, salt, hash] = match!;
    expect(Number(N)).toBe(SCRYPT_PARAMS.N);
    expect(Number(N)).toBeGreaterThanOrEqual(2 ** 15);
    expect(Number(r)).toBe(8);
    expect(Number(p)).toBe(1);
    expect(Buffer.from(salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64url')).toHaveLength(32);
    expect(stored).not.toContain(PASSWORD);
  });

  it('round trip: the right password verifies', async () => {
    await expect(verifyPassword(PASSWORD, stored)).resolves.toBe(true);
  }, SLOW);

  it('a wrong password does not, nor one differing in case, whitespace or length', async () => {
    for (const wrong of ['correct horse battery stapler', 'Correct horse battery staple', ` ${PASSWORD}`, `${PASSWORD} `, PASSWORD.slice(0, -1), '']) {
      await expect(verifyPassword(wrong, stored)).resolves.toBe(false);
    }
  }, SLOW);

  it('each hash has its own salt: the same password twice gives two different strings, both verifying', async () => {
    const again = await hashPassword(PASSWORD);
    expect(again).not.toBe(stored);
    expect(FORMAT.exec(again)![4]).not.toBe(FORMAT.exec(stored)![4]);
    await expect(verifyPassword(PASSWORD, again)).resolves.toBe(true);
  }, SLOW);

  it('a tampered hash, salt or parameter does not verify', async () => {
    const [, N, r, p, salt, hash] = FORMAT.exec(stored)!;
    const tampered = [
      `scrypt$${N}$${r}$${p}$${salt}$${flipBit(hash)}`,
      `scrypt$${N}$${r}$${p}$${salt}$${flipBit(hash, 31)}`,
      `scrypt$${N}$${r}$${p}$${flipBit(salt)}$${hash}`,
      `scrypt$${Number(N) * 2}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${Number(r) + 1}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}$${hash.slice(0, -3)}`, // the key cut short: its prefix would match
      `scrypt$${N}$${r}$${p}$${salt}$${hash.slice(0, -1)}${hash.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const bad of tampered) await expect(verifyPassword(PASSWORD, bad)).resolves.toBe(false);
  }, SLOW);

  it('a malformed stored string is false, not an error', async () => {
    const [, N, r, p, salt, hash] = FORMAT.exec(stored)!;
    for (const bad of [
      '',
      PASSWORD,
      `bcrypt$${N}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}`,
      `scrypt$${N}$${r}$${p}$${salt}$${hash}$extra`,
      `scrypt$1000$${r}$${p}$${salt}$${hash}`, // N not a power of two
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${hash}`, // N beyond the bound: would need 128 GiB
      `scrypt$${N}$0$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}$${hash}!`,
    ]) {
      await expect(verifyPassword(PASSWORD, bad)).resolves.toBe(false);
    }
  }, SLOW);

  it('reads N, r, p, salt and key length from the stored string (so the parameters can be raised later)', async () => {
    const older = handMade(PASSWORD, 2 ** 14, 8, 1);
    const different = handMade(PASSWORD, 2 ** 12, 4, 2, 24, 48);
    for (const made of [older, different]) {
      await expect(verifyPassword(PASSWORD, made)).resolves.toBe(true);
      await expect(verifyPassword('not the password at all', made)).resolves.toBe(false);
    }
  }, SLOW);

  it('needsRehash: false for a hash made now, true for other parameters or an unreadable string', () => {
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(handMade(PASSWORD, 2 ** 14, 8, 1))).toBe(true);
    expect(needsRehash(handMade(PASSWORD, SCRYPT_PARAMS.N, 4, 1))).toBe(true);
    expect(needsRehash(handMade(PASSWORD, SCRYPT_PARAMS.N, 8, 2))).toBe(true);
    expect(needsRehash(handMade(PASSWORD, SCRYPT_PARAMS.N, 8, 1, 8))).toBe(true); // short salt
    expect(needsRehash(handMade(PASSWORD, SCRYPT_PARAMS.N, 8, 1, 16))).toBe(false);
    expect(needsRehash('')).toBe(true);
    expect(needsRehash('plain text')).toBe(true);
  });

  it('NFC: a password typed composed verifies typed decomposed, and the other way round', async () => {
    const composed = 'Crème brûlée à Zürich'; // precomposed è, û, é, à, ü
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect(decomposed.length).toBeGreaterThan(composed.length);
    const fromComposed = await hashPassword(composed);
    const fromDecomposed = await hashPassword(decomposed);
    await expect(verifyPassword(decomposed, fromComposed)).resolves.toBe(true);
    await expect(verifyPassword(composed, fromDecomposed)).resolves.toBe(true);
    await expect(verifyPassword(composed.replace('è', 'e'), fromComposed)).resolves.toBe(false);
  }, SLOW);

  it('the dummy hash has the current parameters, so verifying against it costs the same, and matches nothing', async () => {
    expect(DUMMY_PASSWORD_HASH).toMatch(FORMAT);
    expect(needsRehash(DUMMY_PASSWORD_HASH)).toBe(false);
    await expect(verifyPassword('', DUMMY_PASSWORD_HASH)).resolves.toBe(false);
    await expect(verifyPassword(PASSWORD, DUMMY_PASSWORD_HASH)).resolves.toBe(false);
  }, SLOW);
});

describe('checkPasswordPolicy', () => {
  it('accepts 12 to 256 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    expect(checkPasswordPolicy('abcdefghijkl')).toBeNull();
    expect(checkPasswordPolicy(PASSWORD)).toBeNull();
    expect(checkPasswordPolicy('ab'.repeat(128))).toBeNull();
    expect(checkPasswordPolicy('           x')).toBeNull(); // spaces count; nothing is trimmed
  });

  it('refuses shorter and longer ones, with the reason', () => {
    expect(checkPasswordPolicy('')).toMatch(/at least 12/);
    expect(checkPasswordPolicy('abcdefghijk')).toMatch(/at least 12/);
    expect(checkPasswordPolicy(`${'ab'.repeat(128)}c`)).toMatch(/at most 256/);
  });

  it('refuses one character repeated, however long', () => {
    expect(checkPasswordPolicy('aaaaaaaaaaaa')).toMatch(/one character repeated/);
    expect(checkPasswordPolicy('1'.repeat(200))).toMatch(/one character repeated/);
    expect(checkPasswordPolicy('🔑'.repeat(12))).toMatch(/one character repeated/);
    expect(checkPasswordPolicy('aaaaaaaaaaab')).toBeNull();
  });

  it('counts characters (code points) after NFC normalisation, not UTF-16 units', () => {
    // 12 emoji: 24 UTF-16 units, 12 characters.
    expect(checkPasswordPolicy('🔑🔒'.repeat(6))).toBeNull();
    expect(checkPasswordPolicy('🔑🔒'.repeat(5) + '🔑')).toMatch(/at least 12/);
    // 11 precomposed letters typed decomposed: 22 code points before NFC, 11 after.
    const eleven = 'éèêëàâäîïôö'.normalize('NFD');
    expect([...eleven]).toHaveLength(22);
    expect(checkPasswordPolicy(eleven)).toMatch(/at least 12/);
    // 256 characters that are 512 code points decomposed are still 256.
    expect(checkPasswordPolicy('éè'.repeat(128).normalize('NFD'))).toBeNull();
    // "é" typed decomposed 12 times is one character repeated.
    expect(checkPasswordPolicy('é'.repeat(12).normalize('NFD'))).toMatch(/one character repeated/);
  });
});
