import { createHash, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { kalshiEnvironmentOf, SECP256K1_ORDER, validateKalshiCredential, type ShapeResult } from '../../core/domain/credentialShapes';
import { polymarketCredentialFromStored, polymarketCredentialShape } from '../../core/venues/polymarket/credentials';

const sha16 = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);
const hex64 = (n: bigint) => n.toString(16).padStart(64, '0');

function randomScalar(): string {
  for (;;) {
    const candidate = randomBytes(32).toString('hex');
    const n = BigInt(`0x${candidate}`);
    if (n > 0n && n < SECP256K1_ORDER) return candidate;
  }
}

/** The result is a failure on `param`, and its message contains none of `secrets`. */
function expectRejected<T>(result: ShapeResult<T>, param: string, ...secrets: string[]) {
  expect(result).toMatchObject({ ok: false, param });
  if (result.ok) return;
  expect(result.message.length).toBeGreaterThan(10);
  for (const secret of secrets) {
    for (const piece of secretPieces(secret)) expect(result.message).not.toContain(piece);
  }
}

/**
 * What of a secret must not be echoed: with the PEM armour (public text) removed, the lines of a
 * PEM body, or any 16-character window of a one-line secret.
 */
function secretPieces(secret: string): string[] {
  const body = secret.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '\n');
  const lines = body.split(/\r?\n|\\n/).map((l) => l.trim()).filter((l) => l.length >= 16);
  if (lines.length > 1) return lines;
  const one = lines[0] ?? '';
  const pieces: string[] = [];
  for (let i = 0; i + 16 <= one.length; i += 4) pieces.push(one.slice(i, i + 16));
  return pieces;
}

describe('Kalshi credential shape', () => {
  let rsa: KeyObject;
  let pkcs1: string;
  let pkcs8: string;
  const keyId = randomUUID();

  beforeAll(() => {
    rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    pkcs1 = rsa.export({ type: 'pkcs1', format: 'pem' }) as string;
    pkcs8 = rsa.export({ type: 'pkcs8', format: 'pem' }) as string;
  });

  it('accepts a key id, an RSA-2048 key in PKCS#8 and its environment, normalized to PKCS#8 PEM, fingerprinted by its public key', () => {
    const result = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs8 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ key_id: keyId, private_key: pkcs8, environment: 'demo' });
    const spki = createPublicKey(rsa).export({ type: 'spki', format: 'der' });
    expect(result.fingerprint).toBe(`sha256:${sha16(spki)} key_id=${keyId}`);
    expect(result.fingerprint).toMatch(/^sha256:[0-9a-f]{16} key_id=/);
    expect(result.environment).toBe('demo');
  });

  it('says which Kalshi environment issued the key: demo or production, required, nothing else', () => {
    const production = validateKalshiCredential({ key_id: keyId, private_key: pkcs8, environment: 'production' });
    expect(production).toMatchObject({ ok: true, environment: 'production', value: { environment: 'production' } });
    expect(production.ok && kalshiEnvironmentOf(production.value)).toBe('production');
    // Trimmed like every pasted value.
    expect(validateKalshiCredential({ key_id: keyId, private_key: pkcs8, environment: ' demo\n' })).toMatchObject({ ok: true, environment: 'demo' });
    expectRejected(validateKalshiCredential({ key_id: keyId, private_key: pkcs8 }), 'environment', pkcs8);
    for (const environment of ['', 'prod', 'live', 'staging', 'Demo', 'PRODUCTION', 1, true, ['demo']]) {
      const result = validateKalshiCredential({ key_id: keyId, private_key: pkcs8, environment });
      expectRejected(result, 'environment', pkcs8);
    }
    const refused = validateKalshiCredential({ key_id: keyId, private_key: pkcs8, environment: 'staging' });
    expect(!refused.ok && refused.message).toMatch(/demo or production/);
  });

  it('a credential sealed before the environment was asked has none: unknown, not usable to trade', () => {
    expect(kalshiEnvironmentOf({ key_id: keyId, private_key: pkcs8 })).toBeNull();
    expect(kalshiEnvironmentOf({ key_id: keyId, private_key: pkcs8, environment: 'staging' as never })).toBeNull();
    expect(kalshiEnvironmentOf({ key_id: keyId, private_key: pkcs8, environment: 'demo' })).toBe('demo');
  });

  it('the fingerprint is stable and independent of the PEM formatting: PKCS#1 or PKCS#8, CRLF, escaped or lost newlines', () => {
    const variants = [
      pkcs8,
      pkcs1,
      pkcs1.replace(/\n/g, '\r\n'),
      pkcs1.replace(/\n/g, '\\n'),
      pkcs8.replace(/\n/g, ' '),
      `\n  ${pkcs8.trim()}  \n`,
      pkcs8.replace(/\n(?!-----)/g, '').replace('-----END', '\n-----END'),
    ];
    const results = variants.map((private_key) => validateKalshiCredential({ environment: 'demo', key_id: ` ${keyId}\n`, private_key }));
    for (const result of results) {
      expect(result).toMatchObject({ ok: true, fingerprint: results[0].ok && results[0].fingerprint });
      expect(result.ok && result.value).toEqual({ key_id: keyId, private_key: pkcs8, environment: 'demo' });
    }
    expect(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs1 })).toEqual(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs1 }));
  });

  it('another key, or another key id, gives another fingerprint', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const a = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs8 });
    const b = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: other });
    const c = validateKalshiCredential({ environment: 'demo', key_id: randomUUID(), private_key: pkcs8 });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(b.fingerprint).not.toBe(a.fingerprint);
    expect(c.fingerprint.split(' ')[0]).toBe(a.fingerprint.split(' ')[0]);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    // Nothing of the private key is in the fingerprint.
    for (const piece of secretPieces(pkcs8)) expect(a.fingerprint).not.toContain(piece);
  });

  it('rejects a 1024-bit RSA key', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    for (const type of ['pkcs1', 'pkcs8'] as const) {
      const pem = weak.export({ type, format: 'pem' }) as string;
      const result = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pem });
      expectRejected(result, 'private_key', pem);
      expect(!result.ok && result.message).toMatch(/at least 2048 bits/);
    }
  });

  it('rejects an EC key in place of the RSA key, in any wrapping', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const asPkcs8 = ec.export({ type: 'pkcs8', format: 'pem' }) as string;
    const result = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: asPkcs8 });
    expectRejected(result, 'private_key', asPkcs8);
    expect(!result.ok && result.message).toMatch(/must be an RSA key/);
    const sec1 = ec.export({ type: 'sec1', format: 'pem' }) as string;
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: sec1 }), 'private_key', sec1);
    // PKCS#8 under the PKCS#1 label is not read as RSA either.
    const mislabelled = asPkcs8.replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY');
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: mislabelled }), 'private_key', mislabelled);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: ed }), 'private_key', ed);
  });

  it('rejects garbage, a public key, an encrypted key, a truncated key and two keys in one', () => {
    const publicPem = createPublicKey(rsa).export({ type: 'spki', format: 'pem' }) as string;
    const encrypted = rsa.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'hunter2-passphrase' }) as string;
    const lines = pkcs8.trim().split('\n');
    const truncated = [...lines.slice(0, 10), lines[lines.length - 1]].join('\n');
    const corrupted = pkcs8.replace(/\n(.)(.)/, (_m, a: string, b: string) => `\n${b}${a}`);
    const garbage = [
      'not a key at all',
      `-----BEGIN PRIVATE KEY-----\n${randomBytes(600).toString('base64')}\n-----END PRIVATE KEY-----\n`,
      `-----BEGIN PRIVATE KEY-----\n${'@'.repeat(64)}\n-----END PRIVATE KEY-----`,
      '-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----',
      pkcs8.replace('-----END PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----'),
      publicPem,
      encrypted,
      truncated,
      `${pkcs8}${pkcs8}`,
      `${pkcs8}trailing`,
      pkcs8.replace(/[A-Za-z0-9+/]{64}/, (line) => line.slice(0, 63)),
    ];
    for (const private_key of garbage) expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key }), 'private_key', private_key);
    // A swapped pair of base64 characters either fails to parse or fails the signature check; never accepted silently as the same key.
    const swapped = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: corrupted });
    if (swapped.ok) expect(swapped.value.private_key).not.toBe(pkcs8);
    else expectRejected(swapped, 'private_key', corrupted);
    const encryptedResult = validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: encrypted });
    expect(!encryptedResult.ok && encryptedResult.message).toMatch(/without a passphrase/);
  });

  it('rejects bad key ids, missing fields, wrong types and unknown fields', () => {
    for (const key_id of ['', 'not-a-uuid', `${keyId}0`, keyId.replace(/-/g, ''), keyId.slice(1), `{${keyId}}`, keyId.replace(/[0-9a-f]$/, 'g')]) {
      expectRejected(validateKalshiCredential({ environment: 'demo', key_id, private_key: pkcs8 }), 'key_id', pkcs8);
    }
    expectRejected(validateKalshiCredential({ environment: 'demo', private_key: pkcs8 }), 'key_id', pkcs8);
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: 42, private_key: pkcs8 }), 'key_id', pkcs8);
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId }), 'private_key');
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: { pem: pkcs8 } }), 'private_key', pkcs8);
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: '   ' }), 'private_key');
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs8, privateKey: pkcs8 }), 'privateKey', pkcs8);
    // A field name that looks like a pasted value is not echoed as the param.
    expectRejected(validateKalshiCredential({ environment: 'demo', key_id: keyId, private_key: pkcs8, [pkcs8]: 1 }), 'credentials', pkcs8);
    for (const input of [null, 'string', [keyId, pkcs8], 7]) expectRejected(validateKalshiCredential(input), 'credentials');
  });
});

describe('Polymarket credential shape (CLOB V2, stored form)', () => {
  const scalar = randomScalar();
  const apiKey = randomUUID();
  const apiSecret = randomBytes(32).toString('base64url');
  const passphrase = randomBytes(32).toString('hex');
  const good = () => ({ private_key: `0x${scalar}`, api_key: apiKey, api_secret: apiSecret, api_passphrase: passphrase });
  const secrets = [scalar, apiSecret, passphrase];
  const address = privateKeyToAccount(`0x${scalar}`).address;

  it('stores the normalized key, the EOA signature type and the signer as funder; the fingerprint is the signer address', () => {
    const result = polymarketCredentialShape(good());
    expect(result).toEqual({ ok: true, value: { ...good(), signature_type: 0, funder_address: address }, fingerprint: address, environment: null });
    for (const secret of secrets) for (const piece of secretPieces(secret)) expect(JSON.stringify(result.ok && result.fingerprint)).not.toContain(piece);
  });

  it('the fingerprint of scalar 1 is the address of the generator point G', () => {
    expect(polymarketCredentialShape({ private_key: `0x${hex64(1n)}` })).toMatchObject({ ok: true, fingerprint: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf' });
  });

  it('normalizes the private key (0x optional, any case, surrounding whitespace) without changing the fingerprint', () => {
    const reference = polymarketCredentialShape(good());
    for (const private_key of [scalar, scalar.toUpperCase(), `0X${scalar}`, ` 0x${scalar.toUpperCase()}\n`]) {
      expect(polymarketCredentialShape({ ...good(), private_key })).toEqual(reference);
    }
  });

  it('API credentials are optional (derived later); a proxy names its funder, checksummed; the stored form opens again', () => {
    const funder = `0x${randomBytes(20).toString('hex').toUpperCase()}`;
    const result = polymarketCredentialShape({ private_key: scalar, funder_address: funder, signature_type: 'POLY_PROXY' });
    expect(result).toMatchObject({ ok: true, value: { private_key: `0x${scalar}`, signature_type: 1, funder_address: getAddress(funder.toLowerCase()) } });
    expect(result.ok && 'api_key' in result.value).toBe(false);
    expect(result.ok && polymarketCredentialFromStored(result.value)).toMatchObject({ signatureType: 1, funderAddress: getAddress(funder.toLowerCase()) });
    expect(() => polymarketCredentialFromStored({ private_key: 'nope', signature_type: 0, funder_address: address })).toThrow(/attach it again/);
    // A row sealed before CLOB V2 (API credentials required, no funder for EOA) opens by the same rules.
    const before = { private_key: `0x${scalar}`, api_key: apiKey, api_secret: apiSecret, api_passphrase: passphrase } as unknown as Parameters<typeof polymarketCredentialFromStored>[0];
    expect(polymarketCredentialFromStored(before)).toMatchObject({ signatureType: 0, funderAddress: address, apiCreds: { key: apiKey } });
  });

  it('refuses bad keys and API credentials, naming the field and echoing nothing', () => {
    for (const private_key of [`0x${scalar.slice(1)}`, `0x${hex64(0n)}`, `0x${hex64(SECP256K1_ORDER)}`, '']) {
      expectRejected(polymarketCredentialShape({ ...good(), private_key }), 'private_key', ...secrets, ...(private_key.length >= 16 ? [private_key] : []));
    }
    expectRejected(polymarketCredentialShape({ ...good(), api_key: 'key' }), 'api_key', ...secrets);
    expectRejected(polymarketCredentialShape({ ...good(), api_secret: 'short' }), 'api_secret', scalar, passphrase);
    expectRejected(polymarketCredentialShape({ ...good(), api_passphrase: `${passphrase}\r\nX: 1` }), 'api_passphrase', scalar, apiSecret, passphrase);
    expectRejected(polymarketCredentialShape({ ...good(), signature_type: 7 }), 'signature_type', ...secrets);
    expectRejected(polymarketCredentialShape({ ...good(), secret: apiSecret }), 'secret', ...secrets);
    expectRejected(polymarketCredentialShape([good()]), 'credentials', ...secrets);
  });

  it('Kalshi fields are not Polymarket credentials, nor the reverse', () => {
    expectRejected(validateKalshiCredential(good()), 'api_key', ...secrets);
    expectRejected(polymarketCredentialShape({ key_id: apiKey, private_key: `0x${scalar}` }), 'key_id', ...secrets);
  });
});
