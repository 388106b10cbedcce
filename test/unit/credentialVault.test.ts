import { randomBytes } from 'node:crypto';
import {
  CredentialVaultError,
  KeyringConfigError,
  openCredential,
  parseKeyring,
  rewrapCredential,
  sealCredential,
  VAULT_VERSION,
  type Kek,
} from '../../core/domain/credentialVault';

const kek = (id: string): Kek => ({ id, key: randomBytes(32) });
const ring = (...keks: Kek[]) => new Map(keks.map((k) => [k.id, k.key]));
const AAD = 'sa_01hzzzzzzzzzzzzzzzzzzzzzzz:kalshi';
const SECRET = `{"private_key":"0x${randomBytes(32).toString('hex')}","marker":"PLAINTEXT-MARKER-${randomBytes(8).toString('hex')}"}`;

/** Runs `fn`, expecting a CredentialVaultError with `code`; answers it. */
function vaultError(fn: () => unknown, code: string): CredentialVaultError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialVaultError);
    expect((error as CredentialVaultError).code).toBe(code);
    return error as CredentialVaultError;
  }
  throw new Error(`expected a ${code} error`);
}

/** Neither the key (in any usual encoding) nor the plaintext is in an error's message, stack or fields. */
function expectNothingSecret(error: Error, keys: Buffer[], plaintext: string) {
  const everything = [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(Object.entries(error))].join('\n');
  for (const key of keys) {
    for (const encoded of [key.toString('hex'), key.toString('base64'), key.toString('base64url'), key.toString('latin1')]) {
      expect(everything).not.toContain(encoded);
    }
  }
  expect(everything).not.toContain(plaintext);
  expect(everything).not.toContain(JSON.parse(plaintext).marker);
  expect((error as { cause?: unknown }).cause).toBeUndefined();
}

describe('credential vault: AES-256-GCM envelope', () => {
  it('round-trips a string and a Buffer', () => {
    const k = kek('kek1');
    const sealed = sealCredential(SECRET, k, AAD);
    expect(sealed.kekId).toBe('kek1');
    expect(openCredential(sealed.ciphertext, ring(k), 'kek1', AAD).toString('utf8')).toBe(SECRET);
    const binary = randomBytes(300);
    expect(openCredential(sealCredential(binary, k, AAD).ciphertext, ring(k), 'kek1', AAD).equals(binary)).toBe(true);
    expect(openCredential(sealCredential('', k, AAD).ciphertext, ring(k), 'kek1', AAD).length).toBe(0);
  });

  it('lays the blob out as version || iv(12) || ciphertext || tag(16), and the plaintext is not in it', () => {
    const sealed = sealCredential(SECRET, kek('kek1'), AAD);
    expect(sealed.ciphertext[0]).toBe(VAULT_VERSION);
    expect(VAULT_VERSION).toBe(1);
    expect(sealed.ciphertext.length).toBe(1 + 12 + Buffer.byteLength(SECRET) + 16);
    expect(sealed.ciphertext.toString('latin1')).not.toContain('PLAINTEXT-MARKER');
    expect(sealed.ciphertext.toString('hex')).not.toContain(Buffer.from('PLAINTEXT-MARKER').toString('hex'));
  });

  it('uses a fresh random IV for every seal: the same plaintext never gives the same blob', () => {
    const k = kek('kek1');
    const blobs = Array.from({ length: 500 }, () => sealCredential(SECRET, k, AAD).ciphertext);
    expect(new Set(blobs.map((b) => b.subarray(1, 13).toString('hex'))).size).toBe(blobs.length);
    expect(new Set(blobs.map((b) => b.toString('hex'))).size).toBe(blobs.length);
  });

  it('binds the blob to its row: another AAD does not open it', () => {
    const k = kek('kek1');
    const sealed = sealCredential(SECRET, k, AAD);
    for (const other of ['sa_01hzzzzzzzzzzzzzzzzzzzzzzz:polymarket', 'sa_01hyyyyyyyyyyyyyyyyyyyyyyy:kalshi', '', `${AAD} `]) {
      const error = vaultError(() => openCredential(sealed.ciphertext, ring(k), 'kek1', other), 'authentication_failed');
      expectNothingSecret(error, [k.key], SECRET);
    }
  });

  it('detects a flipped bit in every byte of the blob: version, iv, ciphertext and tag', () => {
    const k = kek('kek1');
    const sealed = sealCredential(SECRET, k, AAD);
    for (let i = 0; i < sealed.ciphertext.length; i += 1) {
      const tampered = Buffer.from(sealed.ciphertext);
      tampered[i] ^= 1 << (i % 8);
      const error = vaultError(
        () => openCredential(tampered, ring(k), 'kek1', AAD),
        i === 0 ? 'unsupported_version' : 'authentication_failed',
      );
      expectNothingSecret(error, [k.key], SECRET);
    }
  });

  it('refuses truncated and extended blobs', () => {
    const k = kek('kek1');
    const { ciphertext } = sealCredential(SECRET, k, AAD);
    vaultError(() => openCredential(ciphertext.subarray(0, 28), ring(k), 'kek1', AAD), 'malformed');
    vaultError(() => openCredential(Buffer.alloc(0), ring(k), 'kek1', AAD), 'malformed');
    vaultError(() => openCredential(ciphertext.subarray(0, ciphertext.length - 1), ring(k), 'kek1', AAD), 'authentication_failed');
    vaultError(() => openCredential(Buffer.concat([ciphertext, Buffer.from([0])]), ring(k), 'kek1', AAD), 'authentication_failed');
  });

  it('an unknown KEK id is a clear error naming the id, and a wrong key or a relabelled id fails authentication', () => {
    const k1 = kek('kek1');
    const k2 = kek('kek2');
    const sealed = sealCredential(SECRET, k1, AAD);
    const unknown = vaultError(() => openCredential(sealed.ciphertext, ring(k2), 'kek1', AAD), 'unknown_kek');
    expect(unknown.message).toContain("'kek1'");
    expectNothingSecret(unknown, [k1.key, k2.key], SECRET);
    // The right key under another id: the id is part of the authenticated data.
    const relabelled = vaultError(() => openCredential(sealed.ciphertext, new Map([['kek2', k1.key]]), 'kek2', AAD), 'authentication_failed');
    expectNothingSecret(relabelled, [k1.key], SECRET);
    const wrongKey = vaultError(() => openCredential(sealed.ciphertext, new Map([['kek1', k2.key]]), 'kek1', AAD), 'authentication_failed');
    expectNothingSecret(wrongKey, [k1.key, k2.key], SECRET);
  });

  it('refuses KEKs of the wrong size or with an unusable id', () => {
    vaultError(() => sealCredential(SECRET, { id: 'kek1', key: randomBytes(16) }, AAD), 'invalid_key');
    vaultError(() => sealCredential(SECRET, { id: 'kek 1', key: randomBytes(32) }, AAD), 'invalid_key');
    vaultError(() => sealCredential(SECRET, { id: '', key: randomBytes(32) }, AAD), 'invalid_key');
    const k = kek('kek1');
    const { ciphertext } = sealCredential(SECRET, k, AAD);
    vaultError(() => openCredential(ciphertext, new Map([['kek1', k.key.subarray(0, 31)]]), 'kek1', AAD), 'invalid_key');
  });

  it('rotation: rewrap opens with the old KEK and seals with the new; afterwards the old key is not needed', () => {
    const old = kek('kek1');
    const next = kek('kek2');
    const sealed = sealCredential(SECRET, old, AAD);
    const rewrapped = rewrapCredential(sealed.ciphertext, ring(old, next), sealed.kekId, next, AAD);
    expect(rewrapped.kekId).toBe('kek2');
    expect(rewrapped.ciphertext.equals(sealed.ciphertext)).toBe(false);
    expect(openCredential(rewrapped.ciphertext, ring(next), 'kek2', AAD).toString('utf8')).toBe(SECRET);
    vaultError(() => openCredential(rewrapped.ciphertext, ring(old), 'kek2', AAD), 'unknown_kek');
    // Rewrapping keeps the binding: the AAD must still match.
    vaultError(() => rewrapCredential(sealed.ciphertext, ring(old, next), 'kek1', next, 'sa_other:kalshi'), 'authentication_failed');
    // Without the old key there is nothing to rewrap.
    vaultError(() => rewrapCredential(sealed.ciphertext, ring(next), 'kek1', next, AAD), 'unknown_kek');
  });
});

describe('parseKeyring', () => {
  const b64 = () => randomBytes(32).toString('base64');

  it('no CREDENTIALS_KEK: nothing to seal with, an empty keyring', () => {
    const keys = parseKeyring({ CREDENTIALS_KEK_ID: 'kek1' });
    expect(keys.current).toBeNull();
    expect(keys.keyring.size).toBe(0);
    expect(parseKeyring({ CREDENTIALS_KEK: '', CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: ' ' }).keyring.size).toBe(0);
  });

  it('the current KEK under its id, and old KEKs from `id:base64key` entries, standard or url-safe base64', () => {
    const current = randomBytes(32);
    const old1 = randomBytes(32);
    const old2 = randomBytes(32);
    const keys = parseKeyring({
      CREDENTIALS_KEK: current.toString('base64'),
      CREDENTIALS_KEK_ID: 'kek-2025.1',
      CREDENTIALS_OLD_KEKS: ` kek0:${old1.toString('base64')} ,kek_2024:${old2.toString('base64url')}`,
    });
    expect(keys.current?.id).toBe('kek-2025.1');
    expect(keys.current?.key.equals(current)).toBe(true);
    expect([...keys.keyring.keys()]).toEqual(['kek-2025.1', 'kek0', 'kek_2024']);
    expect(keys.keyring.get('kek0')?.equals(old1)).toBe(true);
    expect(keys.keyring.get('kek_2024')?.equals(old2)).toBe(true);
  });

  it('a blob sealed before a rotation opens with the new configuration', () => {
    const before = parseKeyring({ CREDENTIALS_KEK: b64(), CREDENTIALS_KEK_ID: 'kek1' });
    const sealed = sealCredential(SECRET, before.current!, AAD);
    const after = parseKeyring({
      CREDENTIALS_KEK: b64(),
      CREDENTIALS_KEK_ID: 'kek2',
      CREDENTIALS_OLD_KEKS: `kek1:${before.current!.key.toString('base64')}`,
    });
    expect(openCredential(sealed.ciphertext, after.keyring, 'kek1', AAD).toString('utf8')).toBe(SECRET);
    const rewrapped = rewrapCredential(sealed.ciphertext, after.keyring, 'kek1', after.current!, AAD);
    expect(rewrapped.kekId).toBe('kek2');
  });

  it.each([
    ['a short current key', { CREDENTIALS_KEK: randomBytes(16).toString('base64'), CREDENTIALS_KEK_ID: 'kek1' }, /^CREDENTIALS_KEK must be 32 bytes/],
    ['a current key that is not base64', { CREDENTIALS_KEK: `${b64().slice(0, 40)}!@#$`, CREDENTIALS_KEK_ID: 'kek1' }, /^CREDENTIALS_KEK must/],
    ['a bad current id', { CREDENTIALS_KEK: b64(), CREDENTIALS_KEK_ID: 'kek:1' }, /^CREDENTIALS_KEK_ID/],
    ['an entry without a colon', { CREDENTIALS_KEK: b64(), CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: b64() }, /entry 1 must be id:base64key/],
    ['an entry with a short key', { CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: `a:${b64()},b:${randomBytes(31).toString('base64')}` }, /entry 2 \('b'\) must have a key of 32 bytes/],
    ['an entry reusing the current id', { CREDENTIALS_KEK: b64(), CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: `kek1:${b64()}` }, /reuses the current/],
    ['a repeated id', { CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: `a:${b64()},a:${b64()}` }, /repeats the id 'a'/],
    ['an empty id', { CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: `:${b64()}` }, /entry 1 has an id/],
    ['an empty entry', { CREDENTIALS_KEK_ID: 'kek1', CREDENTIALS_OLD_KEKS: `a:${b64()},,b:${b64()}` }, /entry 2 must be id:base64key/],
  ] as [string, { CREDENTIALS_KEK?: string; CREDENTIALS_KEK_ID: string; CREDENTIALS_OLD_KEKS?: string }, RegExp][])(
    'refuses %s, without the key in the message',
    (_name, config, message) => {
      let error: unknown;
      try {
        parseKeyring(config);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KeyringConfigError);
      expect((error as Error).message).toMatch(message);
      const values = [config.CREDENTIALS_KEK, ...(config.CREDENTIALS_OLD_KEKS?.split(/[,:]/) ?? [])];
      for (const value of values) {
        if (value && value.length >= 20) expect((error as Error).message).not.toContain(value.slice(0, 20));
      }
    },
  );
});
