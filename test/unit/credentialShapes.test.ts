import { createECDH, createHash, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import {
  kalshiEnvironmentOf,
  SECP256K1_ORDER,
  validateCredentialShape,
  validateKalshiCredential,
  validatePolymarketCredential,
  type ShapeResult,
} from '../../core/domain/credentialShapes';

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

describe('Polymarket credential shape', () => {
  const scalar = randomScalar();
  const apiKey = randomUUID();
  const apiSecret = randomBytes(32).toString('base64url');
  const passphrase = randomBytes(32).toString('hex');
  const good = () => ({ private_key: `0x${scalar}`, api_key: apiKey, api_secret: apiSecret, api_passphrase: passphrase });
  const secrets = [scalar, apiSecret, passphrase];

  it('accepts a valid scalar and L2 credentials, fingerprinted by the compressed public key and the API key', () => {
    const result = validatePolymarketCredential(good());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual(good());
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(Buffer.from(scalar, 'hex'));
    expect(result.fingerprint).toBe(`sha256:${sha16(ecdh.getPublicKey(null, 'compressed'))} api_key=${apiKey}`);
    for (const secret of secrets) for (const piece of secretPieces(secret)) expect(result.fingerprint).not.toContain(piece);
  });

  it('the fingerprint of scalar 1 is that of the generator point G', () => {
    const G = Buffer.from('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
    const result = validatePolymarketCredential({ ...good(), private_key: `0x${hex64(1n)}` });
    expect(result).toMatchObject({ ok: true, fingerprint: `sha256:${sha16(G)} api_key=${apiKey}` });
  });

  it('normalizes the private key (0x optional, any case, surrounding whitespace) without changing the fingerprint', () => {
    const reference = validatePolymarketCredential(good());
    for (const private_key of [scalar, scalar.toUpperCase(), `0X${scalar}`, ` 0x${scalar.toUpperCase()}\n`]) {
      const result = validatePolymarketCredential({ ...good(), private_key });
      expect(result).toEqual(reference);
    }
  });

  it('accepts the optional funder address and signature type', () => {
    const funder = `0x${randomBytes(20).toString('hex').toUpperCase()}`;
    const result = validateCredentialShape('polymarket', { ...good(), funder_address: funder, signature_type: '2' });
    expect(result.ok && result.value).toEqual({ ...good(), funder_address: funder.toLowerCase(), signature_type: 2 });
    expect(validatePolymarketCredential({ ...good(), funder_address: null, signature_type: 0 })).toMatchObject({ ok: true, value: { ...good(), signature_type: 0 } });
    expectRejected(validatePolymarketCredential({ ...good(), funder_address: funder.slice(0, 41) }), 'funder_address', ...secrets);
    expectRejected(validatePolymarketCredential({ ...good(), signature_type: 3 }), 'signature_type', ...secrets);
  });

  it('accepts the curve order minus one and refuses a 63-digit key, zero, the curve order and anything above', () => {
    expect(validatePolymarketCredential({ ...good(), private_key: `0x${hex64(SECP256K1_ORDER - 1n)}` }).ok).toBe(true);
    const bad = [
      `0x${scalar.slice(1)}`,
      scalar.slice(1),
      `0x${scalar}0`,
      `0x${hex64(0n)}`,
      hex64(0n),
      `0x${hex64(SECP256K1_ORDER)}`,
      `0x${hex64(SECP256K1_ORDER + 1n)}`,
      `0x${'f'.repeat(64)}`,
      `0x${scalar.slice(0, 63)}g`,
      `0x ${scalar}`,
      '',
    ];
    for (const private_key of bad) {
      expectRejected(validatePolymarketCredential({ ...good(), private_key }), 'private_key', ...secrets, ...(private_key.length >= 16 ? [private_key] : []));
    }
    const zero = validatePolymarketCredential({ ...good(), private_key: `0x${hex64(0n)}` });
    expect(!zero.ok && zero.message).toMatch(/curve order/);
  });

  it('refuses bad API keys, secrets and passphrases, naming the field and echoing nothing', () => {
    for (const api_key of ['', 'key', apiKey.replace(/-/g, ''), `${apiKey}-1`, apiKey.slice(0, 35), `0x${apiKey}`]) {
      expectRejected(validatePolymarketCredential({ ...good(), api_key }), 'api_key', ...secrets);
    }
    for (const api_secret of ['', 'short', `${apiSecret}!`, `${apiSecret.slice(0, 20)} ${apiSecret.slice(20)}`, `${apiSecret.slice(0, 41)}`, 'YWJj=', 12345]) {
      expectRejected(validatePolymarketCredential({ ...good(), api_secret }), 'api_secret', scalar, passphrase, ...(typeof api_secret === 'string' && api_secret.length >= 16 ? [api_secret] : []));
    }
    // Standard base64 with padding is fine too.
    expect(validatePolymarketCredential({ ...good(), api_secret: randomBytes(32).toString('base64') }).ok).toBe(true);
    for (const api_passphrase of ['', '   ', `${passphrase}\r\nX-Injected: 1`, 7]) {
      expectRejected(validatePolymarketCredential({ ...good(), api_passphrase }), 'api_passphrase', scalar, apiSecret, passphrase);
    }
    const missing = good() as Record<string, unknown>;
    delete missing.api_secret;
    expectRejected(validatePolymarketCredential(missing), 'api_secret', ...secrets);
    expectRejected(validatePolymarketCredential({ ...good(), secret: apiSecret }), 'secret', ...secrets);
    expectRejected(validatePolymarketCredential([good()]), 'credentials', ...secrets);
  });

  it('validateCredentialShape picks the venue: Kalshi fields are not Polymarket credentials', () => {
    expectRejected(validateCredentialShape('kalshi', good()), 'api_key', ...secrets);
    expect(validateCredentialShape('polymarket', good()).ok).toBe(true);
  });
});
