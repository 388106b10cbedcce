import { constants, createPublicKey, generateKeyPairSync, randomUUID, verify, type KeyObject } from 'node:crypto';
import { loadConfig } from '../../core/config';
import { kalshiEndpoints } from '../../core/venues/kalshi/endpoints';
import {
  createKalshiSigner,
  KALSHI_PSS_SALT_LENGTH,
  kalshiSignaturePayload,
  kalshiSignerFromCredential,
} from '../../core/venues/kalshi/signing';

/** What Kalshi does with our headers: RSA-PSS/SHA-256 verification over `timestamp + METHOD + path`, with a given salt length. */
function verifies(publicKey: KeyObject, message: string, signatureBase64: string, saltLength: number): boolean {
  return verify('sha256', Buffer.from(message), { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, Buffer.from(signatureBase64, 'base64'));
}

describe('Kalshi request signer', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomUUID();
  const now = 1_790_000_000_123; // milliseconds: 2026-09
  const signer = createKalshiSigner(keyId, privateKey, () => now);

  it('sends the key id, the timestamp in milliseconds and a base64 signature', () => {
    const headers = signer.request('GET', '/trade-api/v2/portfolio/balance');
    expect(Object.keys(headers).sort()).toEqual(['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-SIGNATURE', 'KALSHI-ACCESS-TIMESTAMP']);
    expect(headers['KALSHI-ACCESS-KEY']).toBe(keyId);
    expect(headers['KALSHI-ACCESS-TIMESTAMP']).toBe('1790000000123');
    expect(headers['KALSHI-ACCESS-SIGNATURE']).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(headers['KALSHI-ACCESS-SIGNATURE'], 'base64')).toHaveLength(256); // one RSA-2048 block
  });

  it('signs timestamp + METHOD + path with RSA-PSS SHA-256, salt 32: verifies with salt 32, not with another salt length', () => {
    expect(KALSHI_PSS_SALT_LENGTH).toBe(32);
    const headers = signer.request('post', '/trade-api/v2/portfolio/events/orders');
    const signature = headers['KALSHI-ACCESS-SIGNATURE'];
    const message = '1790000000123POST/trade-api/v2/portfolio/events/orders';
    expect(verifies(publicKey, message, signature, 32)).toBe(true);
    expect(verifies(publicKey, message, signature, constants.RSA_PSS_SALTLEN_DIGEST)).toBe(true);
    for (const saltLength of [0, 20, 31, 33, 64, 222]) expect(verifies(publicKey, message, signature, saltLength)).toBe(false);
    // The method is upper-cased, and another message does not verify.
    expect(verifies(publicKey, message.replace('POST', 'post'), signature, 32)).toBe(false);
    expect(verifies(publicKey, message.replace('1790000000123', '1790000000'), signature, 32)).toBe(false);
    // PSS is randomized: two signatures of one message differ, both verify.
    const again = signer.request('POST', '/trade-api/v2/portfolio/events/orders')['KALSHI-ACCESS-SIGNATURE'];
    expect(again).not.toBe(signature);
    expect(verifies(publicKey, message, again, 32)).toBe(true);
  });

  it('leaves the query string (and a fragment) out of the signed path, from a path or a full URL', () => {
    expect(kalshiSignaturePayload('1', 'get', '/trade-api/v2/portfolio/orders?ticker=X&limit=5')).toBe('1GET/trade-api/v2/portfolio/orders');
    expect(kalshiSignaturePayload('1', 'GET', 'https://external-api.kalshi.com/trade-api/v2/markets?status=open#x')).toBe('1GET/trade-api/v2/markets');
    expect(kalshiSignaturePayload('1', 'GET', new URL('http://127.0.0.1:9/trade-api/v2/portfolio/fills?cursor=abc'))).toBe('1GET/trade-api/v2/portfolio/fills');
    const headers = signer.request('GET', 'https://external-api.kalshi.com/trade-api/v2/portfolio/orders?ticker=X');
    expect(verifies(publicKey, '1790000000123GET/trade-api/v2/portfolio/orders', headers['KALSHI-ACCESS-SIGNATURE'], 32)).toBe(true);
    expect(verifies(publicKey, '1790000000123GET/trade-api/v2/portfolio/orders?ticker=X', headers['KALSHI-ACCESS-SIGNATURE'], 32)).toBe(false);
  });

  it('signs the WebSocket handshake over GET /trade-api/ws/v2', () => {
    const headers = signer.webSocket();
    expect(headers['KALSHI-ACCESS-KEY']).toBe(keyId);
    expect(verifies(publicKey, '1790000000123GET/trade-api/ws/v2', headers['KALSHI-ACCESS-SIGNATURE'], 32)).toBe(true);
  });

  it('takes the time from its clock on every call', () => {
    let clock = now;
    const ticking = createKalshiSigner(keyId, privateKey, () => clock);
    expect(ticking.request('GET', '/trade-api/v2/portfolio/balance')['KALSHI-ACCESS-TIMESTAMP']).toBe(String(now));
    clock += 1500.7;
    expect(ticking.request('GET', '/trade-api/v2/portfolio/balance')['KALSHI-ACCESS-TIMESTAMP']).toBe(String(now + 1500));
    const real = createKalshiSigner(keyId, privateKey).request('GET', '/trade-api/v2/portfolio/balance');
    expect(Math.abs(Number(real['KALSHI-ACCESS-TIMESTAMP']) - Date.now())).toBeLessThan(5000);
  });

  it('refuses a clock in seconds, a relative path, a public key and a non-RSA key', () => {
    expect(() => createKalshiSigner(keyId, privateKey, () => Math.floor(now / 1000)).request('GET', '/trade-api/v2/x')).toThrow(/milliseconds/);
    expect(() => signer.request('GET', 'portfolio/balance')).toThrow(/root/);
    expect(() => createKalshiSigner(keyId, publicKey)).toThrow(/RSA private key/);
    expect(() => createKalshiSigner(keyId, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)).toThrow(/RSA private key/);
  });

  it('is built from an opened credential: the PEM becomes a KeyObject of the same key', () => {
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const fromCredential = kalshiSignerFromCredential({ key_id: keyId, private_key: pem }, () => now);
    expect(fromCredential.keyId).toBe(keyId);
    const headers = fromCredential.request('DELETE', '/trade-api/v2/portfolio/events/orders/abc');
    expect(verifies(createPublicKey(pem), '1790000000123DELETE/trade-api/v2/portfolio/events/orders/abc', headers['KALSHI-ACCESS-SIGNATURE'], 32)).toBe(true);
  });

  it("another key's signer does not produce this key's signatures", () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const theirs = createKalshiSigner(randomUUID(), other.privateKey, () => now).request('GET', '/trade-api/v2/portfolio/balance');
    expect(verifies(publicKey, '1790000000123GET/trade-api/v2/portfolio/balance', theirs['KALSHI-ACCESS-SIGNATURE'], 32)).toBe(false);
    expect(theirs['KALSHI-ACCESS-KEY']).not.toBe(keyId);
  });
});

describe('Kalshi endpoints per credential environment', () => {
  it("defaults to Kalshi's documented production and demo hosts", () => {
    const config = loadConfig({});
    expect(kalshiEndpoints(config, 'production')).toEqual({
      restUrl: 'https://external-api.kalshi.com/trade-api/v2',
      wsUrl: 'wss://external-api-ws.kalshi.com/trade-api/ws/v2',
    });
    expect(kalshiEndpoints(config, 'demo')).toEqual({
      restUrl: 'https://external-api.demo.kalshi.co/trade-api/v2',
      wsUrl: 'wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2',
    });
  });

  it('takes configured URLs, such as a fake on loopback, without a trailing slash', () => {
    const config = loadConfig({ KALSHI_DEMO_URL: 'http://127.0.0.1:8787/trade-api/v2/', KALSHI_DEMO_WS_URL: 'ws://127.0.0.1:8787/trade-api/ws/v2' });
    expect(kalshiEndpoints(config, 'demo')).toEqual({ restUrl: 'http://127.0.0.1:8787/trade-api/v2', wsUrl: 'ws://127.0.0.1:8787/trade-api/ws/v2' });
    expect(kalshiEndpoints(config, 'production').restUrl).toBe('https://external-api.kalshi.com/trade-api/v2');
  });
});
