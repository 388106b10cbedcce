/**
 * Polymarket CLOB V2 signing (core/venues/polymarket/signing.ts, over the official
 * @polymarket/clob-client-v2 1.1.0) against the fake's verifier (fakes/polymarket/verify.ts,
 * written from the V2 definitions), and credential validation (core/venues/polymarket/credentials.ts).
 *
 * The fixed vectors are the official client's own (github.com/Polymarket/clob-client-v2 at f3e1a05,
 * tests/signing/hmac.test.ts and tests/signing/eip712.test.ts), with the same publicly known key
 * (the first Hardhat/Anvil development account). That repository pins no V2 ORDER signature (its
 * order tests only check that one is present; its pinned order signatures are V1's), so orders are
 * proven by recovery: signed by the client through our layer, recovered by viem from typed data
 * the verifier builds on its own, and refused once any signed field is changed.
 */
import { polymarketCredentialView, validatePolymarketCredentialV2 } from '../../core/venues/polymarket/credentials';
import {
  Chain,
  OrderType,
  polymarketOrderPayload,
  polymarketSigning,
  polymarketSigningFor,
  PolymarketOrderInputError,
  polymarketSaltFor,
  SignatureTypeV2,
  type PolymarketLimitOrder,
  type PolymarketOrderVersion,
} from '../../core/venues/polymarket/signing';
import { expectedL2Signature, orderHash, verifyL1Headers, verifyL2Headers, verifyOrder, wireOrderV2, type ApiKeyRecord, type HeaderBag, type PolymarketAccountKey } from '../../fakes/polymarket/verify';

// Publicly known development keys (Hardhat/Anvil accounts 0 and 1): never funded on a real chain.
const ALICE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const BOB_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const WALLET = '0x1111111111111111111111111111111111111111' as const;

// The official client's test credentials (tests/headers/index.test.ts).
const CREDS = { key: '000000000-0000-0000-0000-000000000000', passphrase: 'a'.repeat(64), secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const ORDER: PolymarketLimitOrder = { tokenId: TOKEN, price: '0.56', size: '10', side: 'BUY', tickSize: '0.01', negRisk: false };

/** The order as the fake receives it: the posted JSON body's `order`. */
function posted(signed: Awaited<ReturnType<ReturnType<typeof polymarketSigning>['signLimitOrder']>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(polymarketOrderPayload(signed, CREDS.key, OrderType.GTC))).order;
}

const account = (signatureType: PolymarketAccountKey['signatureType'], ownerAddress: string = ALICE, funderAddress: string = WALLET): PolymarketAccountKey => ({
  ownerAddress,
  signatureType,
  funderAddress: signatureType === 0 ? ownerAddress : funderAddress,
});

describe('the official client signing vectors, through our layer and our verifier', () => {
  const alice = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY });

  test('L2 HMAC vector (tests/signing/hmac.test.ts): our headers carry it and the verifier accepts them', async () => {
    const request = { method: 'test-sign', requestPath: '/orders', body: '{"hash": "0x123"}' };
    const headers = await alice.l2Headers(CREDS, request, 1000000);
    expect(headers.POLY_SIGNATURE).toBe('ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=');
    expect(expectedL2Signature(CREDS.secret, '1000000', request.method, request.requestPath, request.body)).toBe('ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=');
    expect(headers).toMatchObject({ POLY_ADDRESS: ALICE, POLY_TIMESTAMP: '1000000', POLY_API_KEY: CREDS.key, POLY_PASSPHRASE: CREDS.passphrase });
    const lookup = (key: string): ApiKeyRecord | undefined => (key === CREDS.key ? { ...CREDS, ownerAddress: ALICE } : undefined);
    expect(verifyL2Headers({ ...headers }, request, lookup, { nowSeconds: 1000000 })).toEqual({ ok: true, apiKey: CREDS.key, ownerAddress: ALICE });
  });

  test('L1 ClobAuth vector (tests/signing/eip712.test.ts, Amoy, nonce 23, timestamp 10000000): reproduced and recovered to the key\'s address', async () => {
    const headers = await alice.l1Headers(23, 10000000);
    expect(headers.POLY_SIGNATURE).toBe(
      '0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1682518e0af677d5260366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b',
    );
    expect(headers).toMatchObject({ POLY_ADDRESS: ALICE, POLY_TIMESTAMP: '10000000', POLY_NONCE: '23' });
    expect(await verifyL1Headers({ ...headers }, { chainId: Chain.AMOY, nowSeconds: 10000000 })).toEqual({ ok: true, address: ALICE, nonce: 23n });
    // The same signature claimed for another address, on another chain, or too late is refused.
    expect(await verifyL1Headers({ ...headers, POLY_ADDRESS: BOB }, { chainId: Chain.AMOY, nowSeconds: 10000000 })).toEqual({ ok: false, reason: 'invalid L1 signature' });
    expect(await verifyL1Headers({ ...headers }, { chainId: Chain.POLYGON, nowSeconds: 10000000 })).toEqual({ ok: false, reason: 'invalid L1 signature' });
    expect(await verifyL1Headers({ ...headers, POLY_NONCE: '24' }, { chainId: Chain.AMOY, nowSeconds: 10000000 })).toEqual({ ok: false, reason: 'invalid L1 signature' });
    expect(await verifyL1Headers({ ...headers }, { chainId: Chain.AMOY, nowSeconds: 10000000 + 31 })).toEqual({ ok: false, reason: 'POLY_TIMESTAMP is outside the accepted window' });
  });
});

describe('V2 limit orders signed through the official OrderBuilder are verified by the fake', () => {
  const cases: Array<{ name: string; type: SignatureTypeV2; funder: `0x${string}`; negRisk: boolean; version: PolymarketOrderVersion; chain: Chain }> = [
    { name: 'EOA, V2 exchange', type: SignatureTypeV2.EOA, funder: ALICE, negRisk: false, version: 2, chain: Chain.AMOY },
    { name: 'EOA, V2 neg-risk exchange, Polygon', type: SignatureTypeV2.EOA, funder: ALICE, negRisk: true, version: 2, chain: Chain.POLYGON },
    { name: 'POLY_PROXY', type: SignatureTypeV2.POLY_PROXY, funder: WALLET, negRisk: false, version: 2, chain: Chain.POLYGON },
    { name: 'POLY_GNOSIS_SAFE, neg risk', type: SignatureTypeV2.POLY_GNOSIS_SAFE, funder: WALLET, negRisk: true, version: 2, chain: Chain.POLYGON },
    { name: 'POLY_1271 (ERC-7739 wrapped)', type: SignatureTypeV2.POLY_1271, funder: WALLET, negRisk: false, version: 2, chain: Chain.POLYGON },
    { name: 'EOA, ExchangeV3 (domain version 3)', type: SignatureTypeV2.EOA, funder: ALICE, negRisk: false, version: 3, chain: Chain.POLYGON },
  ];

  test.each(cases)('$name: verified, with maker and signer as V2 defines them', async ({ type, funder, negRisk, version, chain }) => {
    const signing = polymarketSigning({ chain, signatureType: type, funderAddress: funder, privateKey: ALICE_KEY });
    const order = posted(await signing.signLimitOrder({ ...ORDER, negRisk }, version));
    expect(order).toMatchObject({
      maker: funder,
      signer: type === SignatureTypeV2.POLY_1271 ? funder : ALICE,
      tokenId: TOKEN,
      makerAmount: '5600000', // 10 shares x 0.56 pUSD, 6 decimals
      takerAmount: '10000000',
      side: 'BUY',
      signatureType: type,
      expiration: '0',
    });
    const verdict = await verifyOrder(order, account(type as 0 | 1 | 2 | 3), { chainId: chain, negRisk, orderVersion: version });
    expect(verdict).toMatchObject({ ok: true, signer: type === SignatureTypeV2.POLY_1271 ? funder : ALICE });
    // The same order checked against another exchange's domain (neg risk confused; V2 for a V3 order) is refused.
    const otherDomain = version === 3 ? { orderVersion: 2 as const, negRisk } : { orderVersion: version, negRisk: !negRisk };
    expect(await verifyOrder(order, account(type as 0 | 1 | 2 | 3), { chainId: chain, ...otherDomain })).toMatchObject({ ok: false });
  });

  test('a SELL at a sub-cent tick with a GTD expiration: amounts and expiration as posted', async () => {
    const signing = polymarketSigningFor(
      validatedOrThrow({ private_key: ALICE_KEY, signature_type: 'POLY_GNOSIS_SAFE', funder_address: WALLET }),
      Chain.POLYGON,
    );
    const expiration = 1_900_000_000;
    const order = posted(await signing.signLimitOrder({ ...ORDER, side: 'SELL', price: '0.4825', size: '12.34', tickSize: '0.0025', expiration }));
    expect(order).toMatchObject({ side: 'SELL', makerAmount: '12340000', takerAmount: '5954050', expiration: String(expiration), signatureType: 2 });
    expect(await verifyOrder(order, account(2), { chainId: Chain.POLYGON, negRisk: false })).toMatchObject({ ok: true, signer: ALICE });
  });

  describe('tampering and wrong keys are refused', () => {
    let order: Record<string, unknown>;
    const context = { chainId: Chain.POLYGON, negRisk: false };
    beforeAll(async () => {
      order = posted(await polymarketSigning({ chain: Chain.POLYGON, signatureType: SignatureTypeV2.POLY_PROXY, funderAddress: WALLET, privateKey: ALICE_KEY }).signLimitOrder(ORDER));
      expect(await verifyOrder(order, account(1), context)).toMatchObject({ ok: true });
    });

    test.each([
      ['price (maker amount)', { makerAmount: '5500000' }],
      ['size (taker amount)', { takerAmount: '20000000' }],
      ['token', { tokenId: '123456789' }],
      ['side', { side: 'SELL' }],
      ['salt', { salt: 1 }],
      ['timestamp', { timestamp: '1' }],
    ])('a changed %s no longer verifies', async (_field, change) => {
      expect(await verifyOrder({ ...order, ...change }, account(1), context)).toEqual({ ok: false, reason: 'invalid signature' });
    });

    test('a changed maker is refused: not the API key\'s wallet, and not what was signed', async () => {
      expect(await verifyOrder({ ...order, maker: BOB }, account(1), context)).toMatchObject({ ok: false, reason: "maker is not the API key's proxy or Safe wallet" });
      expect(await verifyOrder({ ...order, maker: BOB }, account(1, ALICE, BOB), context)).toEqual({ ok: false, reason: 'invalid signature' });
    });

    test('an order signed by another key is refused, whatever its signer field says', async () => {
      const bobs = posted(await polymarketSigning({ chain: Chain.POLYGON, signatureType: SignatureTypeV2.POLY_PROXY, funderAddress: WALLET, privateKey: BOB_KEY }).signLimitOrder(ORDER));
      expect(await verifyOrder(bobs, account(1), context)).toMatchObject({ ok: false, reason: 'signer is not the owner of the API key' });
      expect(await verifyOrder({ ...bobs, signer: ALICE }, account(1), context)).toEqual({ ok: false, reason: 'invalid signature' });
    });

    test('a signature type other than the account\'s, a malformed signature and a malformed field are refused', async () => {
      expect(await verifyOrder(order, account(2), context)).toMatchObject({ ok: false, reason: "signature type does not match the API key's account" });
      expect(await verifyOrder({ ...order, signature: '0x1234' }, account(1), context)).toEqual({ ok: false, reason: 'invalid signature' });
      expect(await verifyOrder({ ...order, makerAmount: '-1' }, account(1), context)).toEqual({ ok: false, reason: 'invalid order field makerAmount' });
    });

    test('expiration is posted but not signed in V2: changing it leaves the signature valid (the fake must check it on its own)', async () => {
      expect(await verifyOrder({ ...order, expiration: '1900000000' }, account(1), context)).toMatchObject({ ok: true });
    });

    test('a POLY_1271 order signed by a key that does not own the wallet is refused', async () => {
      const wrapped = posted(await polymarketSigning({ chain: Chain.POLYGON, signatureType: SignatureTypeV2.POLY_1271, funderAddress: WALLET, privateKey: BOB_KEY }).signLimitOrder(ORDER));
      expect(await verifyOrder(wrapped, account(3), context)).toEqual({ ok: false, reason: 'invalid signature' });
      expect(await verifyOrder(wrapped, account(3, BOB), context)).toMatchObject({ ok: true });
      expect(await verifyOrder({ ...wrapped, takerAmount: '1' }, account(3, BOB), context)).toEqual({ ok: false, reason: 'POLY_1271 signature is for another order' });
    });
  });

  test('prices off the tick or out of range, and sizes finer than 0.01, are refused rather than rounded', async () => {
    const signing = polymarketSigning({ chain: Chain.POLYGON, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY });
    const refusal = (order: PolymarketLimitOrder) => signing.signLimitOrder(order).then(() => null, (e: PolymarketOrderInputError) => [e.name, e.param, e.message]);
    expect(await refusal({ ...ORDER, price: '0.565' })).toEqual(['PolymarketOrderInputError', 'price', "price must be a multiple of the token's tick size 0.01."]);
    expect(await refusal({ ...ORDER, price: '0', tickSize: '0.005' })).toEqual(['PolymarketOrderInputError', 'price', 'price must be between 0.005 and 0.995.']);
    expect(await refusal({ ...ORDER, price: '1', tickSize: '0.01' })).toEqual(['PolymarketOrderInputError', 'price', 'price must be between 0.01 and 0.99.']);
    expect(await refusal({ ...ORDER, size: '1.005' })).toEqual(['PolymarketOrderInputError', 'size', 'size must have at most 2 decimals (0.01 share).']);
    expect(await refusal({ ...ORDER, size: '0' })).toEqual(['PolymarketOrderInputError', 'size', 'size must be greater than 0.']);
    expect(await refusal({ ...ORDER, tokenId: 'abc' })).toEqual(['PolymarketOrderInputError', 'token_id', 'token_id must be the CLOB token id, a decimal uint256.']);
  });
});

describe('exact orders (the adapter\'s identity): the same input, the same order and hash', () => {
  const exact = { tokenId: TOKEN, side: 'BUY' as const, makerAmount: '5600000', takerAmount: '10000000', salt: polymarketSaltFor('order_01'), timestamp: '1764030000000', negRisk: false };

  test('signed twice, or by another signing of the same key: identical; the hash is the fake\'s; the amounts are the OrderBuilder\'s for 10 at 0.56', async () => {
    const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY });
    const first = await signing.signExactOrder(exact);
    const again = await polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY }).signExactOrder(exact);
    expect(again).toEqual(first);
    expect(first.order).toMatchObject({ salt: exact.salt, timestamp: exact.timestamp, maker: ALICE, signer: ALICE, makerAmount: '5600000', takerAmount: '10000000', expiration: '0' });
    const wire = wireOrderV2.parse(posted(first.order));
    expect(orderHash(wire, Chain.AMOY, false)).toBe(first.hash);
    expect(await verifyOrder(posted(first.order), account(0, ALICE, ALICE), { chainId: Chain.AMOY, negRisk: false })).toMatchObject({ ok: true });
    const built = await signing.signLimitOrder({ ...ORDER });
    expect([built.makerAmount, built.takerAmount]).toEqual([exact.makerAmount, exact.takerAmount]);
  });

  test('another salt, timestamp or exchange: another hash; the salt is a safe integer, the same for the same key', async () => {
    const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY });
    const { hash } = await signing.signExactOrder(exact);
    const others = await Promise.all([
      signing.signExactOrder({ ...exact, salt: polymarketSaltFor('order_02') }),
      signing.signExactOrder({ ...exact, timestamp: '1764030000001' }),
      signing.signExactOrder({ ...exact, negRisk: true }),
    ]);
    expect(new Set([hash, ...others.map((o) => o.hash)]).size).toBe(4);
    expect(polymarketSaltFor('order_01')).toBe(exact.salt);
    expect(Number.isSafeInteger(Number(exact.salt))).toBe(true);
    await expect(signing.signExactOrder({ ...exact, salt: String(2 ** 53) })).rejects.toBeInstanceOf(PolymarketOrderInputError);
    await expect(signing.signExactOrder({ ...exact, makerAmount: '0' })).rejects.toBeInstanceOf(PolymarketOrderInputError);
  });
});

describe('L2 headers of a real request', () => {
  const signing = polymarketSigning({ chain: Chain.POLYGON, signatureType: SignatureTypeV2.EOA, funderAddress: ALICE, privateKey: ALICE_KEY });
  const creds = { key: '6b1f0c1e-4a8e-4b1e-9a55-2f0d2a9b7c11', secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTMyYg==', passphrase: 'correct horse battery staple' };
  const lookup = (key: string): ApiKeyRecord | undefined => (key === creds.key ? { ...creds, ownerAddress: ALICE } : undefined);
  const now = 1_780_000_000;
  const request = { method: 'POST', requestPath: '/order', body: '{"order":{"salt":1},"owner":"6b1f0c1e-4a8e-4b1e-9a55-2f0d2a9b7c11","orderType":"GTC"}' };

  test('verified as sent, with lower-case header names as Node receives them, within the window', async () => {
    const headers = await signing.l2Headers(creds, request, now);
    const lowerCased = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyL2Headers(lowerCased, request, lookup, { nowSeconds: now + 30 })).toEqual({ ok: true, apiKey: creds.key, ownerAddress: ALICE });
    expect(verifyL2Headers({ ...headers }, { method: 'GET', requestPath: '/data/orders' }, lookup, { nowSeconds: now })).toEqual({ ok: false, reason: 'invalid L2 signature' });
    const get = await signing.l2Headers(creds, { method: 'GET', requestPath: '/data/orders' }, now);
    expect(verifyL2Headers({ ...get }, { method: 'GET', requestPath: '/data/orders' }, lookup, { nowSeconds: now - 30 })).toMatchObject({ ok: true });
  });

  test('refused when stale or from the future, or when the body, path, method, key, passphrase or address is altered', async () => {
    const headers = { ...(await signing.l2Headers(creds, request, now)) };
    const check = (h: HeaderBag, r = request, nowSeconds = now) => verifyL2Headers(h, r, lookup, { nowSeconds });
    expect(check(headers, request, now + 31)).toEqual({ ok: false, reason: 'POLY_TIMESTAMP is outside the accepted window' });
    expect(check(headers, request, now - 31)).toEqual({ ok: false, reason: 'POLY_TIMESTAMP is outside the accepted window' });
    expect(check({ ...headers, POLY_TIMESTAMP: String(now + 1) })).toEqual({ ok: false, reason: 'invalid L2 signature' });
    expect(check(headers, { ...request, body: request.body.replace('GTC', 'FOK') })).toEqual({ ok: false, reason: 'invalid L2 signature' });
    expect(check(headers, { ...request, requestPath: '/orders' })).toEqual({ ok: false, reason: 'invalid L2 signature' });
    expect(check(headers, { ...request, method: 'DELETE' })).toEqual({ ok: false, reason: 'invalid L2 signature' });
    expect(check({ ...headers, POLY_PASSPHRASE: 'wrong' })).toEqual({ ok: false, reason: 'wrong passphrase' });
    expect(check({ ...headers, POLY_API_KEY: '00000000-0000-0000-0000-000000000000' })).toEqual({ ok: false, reason: 'unknown API key' });
    expect(check({ ...headers, POLY_ADDRESS: BOB })).toEqual({ ok: false, reason: 'POLY_ADDRESS is not the owner of the API key' });
    const { POLY_SIGNATURE: _dropped, ...unsigned } = headers;
    expect(check(unsigned)).toEqual({ ok: false, reason: 'missing header POLY_SIGNATURE' });
  });
});

function validatedOrThrow(input: Record<string, unknown>) {
  const result = validatePolymarketCredentialV2(input);
  if (!result.ok) throw new Error(`${result.param}: ${result.message}`);
  return result.value;
}

describe('Polymarket credentials', () => {
  const API = { api_key: '6b1f0c1e-4a8e-4b1e-9a55-2f0d2a9b7c11', api_secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTMyYg==', api_passphrase: 'correct horse battery staple' };

  test('a valid key: the signer address is derived and shown, the key never is', () => {
    const result = validatePolymarketCredentialV2({ private_key: `  ${ALICE_KEY.slice(2).toUpperCase()}\n`, ...API });
    expect(result).toMatchObject({ ok: true, signerAddress: ALICE });
    if (!result.ok) return;
    expect(result.value).toEqual({
      privateKey: ALICE_KEY,
      signatureType: SignatureTypeV2.EOA,
      funderAddress: ALICE,
      apiCreds: { key: API.api_key, secret: API.api_secret, passphrase: API.api_passphrase },
    });
    expect(result.view).toEqual({ signer_address: ALICE, maker_address: ALICE, signature_type: 'EOA', api_key: API.api_key });
    expect(polymarketCredentialView(result.value)).toEqual(result.view);
    const shown = JSON.stringify({ view: result.view, fingerprint: result.fingerprint }).toLowerCase();
    for (const secret of [ALICE_KEY.slice(2), API.api_secret.toLowerCase(), API.api_passphrase]) expect(shown).not.toContain(secret);
  });

  test('signature types by number or name; proxies, Safes and 1271 wallets name their funder; API creds may be derived later', () => {
    expect(validatePolymarketCredentialV2({ private_key: ALICE_KEY, signature_type: 1, funder_address: WALLET })).toMatchObject({
      ok: true,
      view: { signer_address: ALICE, maker_address: WALLET, signature_type: 'POLY_PROXY', api_key: null },
      fingerprint: ALICE,
    });
    expect(validatePolymarketCredentialV2({ private_key: ALICE_KEY, signature_type: 'poly_gnosis_safe', funder_address: WALLET })).toMatchObject({ ok: true, view: { signature_type: 'POLY_GNOSIS_SAFE' } });
    expect(validatePolymarketCredentialV2({ private_key: ALICE_KEY, signature_type: '3', funder_address: WALLET })).toMatchObject({ ok: true, view: { signature_type: 'POLY_1271', maker_address: WALLET } });
    expect(validatePolymarketCredentialV2({ private_key: ALICE_KEY, funder_address: ALICE.toLowerCase() })).toMatchObject({ ok: true, view: { maker_address: ALICE } });
  });

  const refusals: Array<[string, Record<string, unknown> | unknown, string, string]> = [
    ['a missing key', { ...API }, 'private_key', 'private_key is required: the wallet private key, 0x and 64 hex digits.'],
    ['a short key', { private_key: ALICE_KEY.slice(0, 60) }, 'private_key', 'private_key must be the wallet private key: 0x and 64 hex digits.'],
    ['a non-hex key', { private_key: `0x${'z'.repeat(64)}` }, 'private_key', 'private_key must be the wallet private key: 0x and 64 hex digits.'],
    ['the zero key', { private_key: `0x${'0'.repeat(64)}` }, 'private_key', 'private_key is not a valid secp256k1 private key (it must be non-zero and below the curve order).'],
    ['a key above the curve order', { private_key: `0x${'f'.repeat(64)}` }, 'private_key', 'private_key is not a valid secp256k1 private key (it must be non-zero and below the curve order).'],
    ['a numeric key', { private_key: 12345 }, 'private_key', 'private_key must be a string: the wallet private key, 0x and 64 hex digits.'],
    ['an unknown signature type', { private_key: ALICE_KEY, signature_type: 7 }, 'signature_type', 'signature_type must be 0 (EOA), 1 (POLY_PROXY), 2 (POLY_GNOSIS_SAFE) or 3 (POLY_1271).'],
    ['a proxy without funder', { private_key: ALICE_KEY, signature_type: 'POLY_PROXY' }, 'funder_address', 'funder_address is required with signature_type POLY_PROXY: the Polymarket proxy wallet that holds the funds.'],
    ['a Safe funded by the signer itself', { private_key: ALICE_KEY, signature_type: 2, funder_address: ALICE }, 'funder_address', "funder_address must be the POLY_GNOSIS_SAFE wallet, not the signer's own address; use signature_type EOA to trade from the key's own address."],
    ['an EOA with another funder', { private_key: ALICE_KEY, funder_address: WALLET }, 'funder_address', "funder_address must be the signer's own address, or be left out, with signature_type EOA: an EOA order's maker is its signer. A proxy or Safe wallet needs signature_type POLY_PROXY or POLY_GNOSIS_SAFE."],
    ['the key pasted as funder', { private_key: ALICE_KEY, signature_type: 1, funder_address: ALICE_KEY }, 'funder_address', 'funder_address must be an address: 0x and 40 hex digits.'],
    ['the key pasted as API key', { ...API, private_key: ALICE_KEY, api_key: ALICE_KEY }, 'api_key', 'api_key must be the CLOB API key, a UUID (8-4-4-4-12 hex digits).'],
    ['half the API credentials', { private_key: ALICE_KEY, api_key: API.api_key, api_secret: API.api_secret }, 'api_passphrase', 'api_passphrase is required when api_key, api_secret or api_passphrase is given: give all three, or none to derive them from the private key.'],
    ['a secret that is not base64', { ...API, private_key: ALICE_KEY, api_secret: 'not base64!' }, 'api_secret', 'api_secret must be the CLOB API secret: base64 or base64url, at least 16 bytes.'],
    ['a misspelt field', { privateKey: ALICE_KEY }, 'privateKey', 'Unknown field in Polymarket credentials; the fields are private_key, signature_type, funder_address, api_key, api_secret, api_passphrase.'],
    ['the key pasted as a field name', { [ALICE_KEY]: true, private_key: ALICE_KEY }, 'credentials', 'Unknown field in Polymarket credentials; the fields are private_key, signature_type, funder_address, api_key, api_secret, api_passphrase.'],
    ['not an object', ALICE_KEY, 'credentials', 'Polymarket credentials must be an object with private_key, signature_type, funder_address, api_key, api_secret, api_passphrase.'],
  ];

  test.each(refusals)('refuses %s, naming the field, without echoing the key', (_case, input, param, message) => {
    const result = validatePolymarketCredentialV2(input);
    expect(result).toEqual({ ok: false, param, message });
    expect(JSON.stringify(result).toLowerCase()).not.toContain(ALICE_KEY.slice(2, 40));
  });
});
