/**
 * What the Polymarket fake checks, written from the V2 definitions rather than by calling the
 * client's signing code, so that a mistake in our signing layer fails here instead of being
 * mirrored. Sources: `@polymarket/clob-client-v2` 1.1.0 (github.com/Polymarket/clob-client-v2 at
 * f3e1a05):
 *
 * - Order typed data: src/order-utils/model/ctfExchangeV2TypedData.ts (domain name
 *   "Polymarket CTF Exchange", version "2"; "3" for ExchangeV3 orders) and
 *   exchangeOrderBuilderV2.ts (message fields; `side` BUY = 0, SELL = 1; `expiration` is posted
 *   but NOT signed). The verifying contract is the V2 exchange, or the V2 neg-risk exchange for a
 *   neg-risk token, or ExchangeV3 for version 3 (order-builder/helpers/createOrder.ts); addresses
 *   from the client's `getContractConfig` (src/config.ts), the only thing taken from the client.
 * - Who signs (createOrder.ts, and the exchange's Signatures contract): EOA, signer == maker and
 *   the signature recovers to it; POLY_PROXY and POLY_GNOSIS_SAFE, the signature recovers to
 *   `signer`, the EOA that owns the wallet, and `maker` is that wallet (the funder). On chain the
 *   wallet is derived from the EOA by the proxy or Safe factory; the fake instead knows each
 *   account's funder. POLY_1271, signer == maker == the smart-contract wallet, and the signature is
 *   the ERC-7739 wrapper the client builds: innerSig(65) || appDomainSeparator(32) ||
 *   contentsHash(32) || contentsType || uint16 length; the inner signature is over
 *   `TypedDataSign(Order contents, "DepositWallet", "1", chainId, wallet, 0x0)` in the exchange's
 *   domain, and the fake (standing in for the wallet's isValidSignature) wants it from the owner.
 * - L2 headers: src/headers/index.ts and src/signing/hmac.ts: POLY_ADDRESS, POLY_SIGNATURE,
 *   POLY_TIMESTAMP (unix seconds), POLY_API_KEY, POLY_PASSPHRASE; the signature is HMAC-SHA256,
 *   keyed with the base64 (or base64url) decoded secret, over
 *   `timestamp + method + requestPath + body` (body only when there is one), encoded url-safe
 *   base64 KEEPING the `=` padding. The window within which a timestamp is accepted is not
 *   published: it is a parameter here (30 s by default).
 * - L1 headers: src/signing/eip712.ts: EIP-712 `ClobAuth(address, timestamp string, nonce uint256,
 *   message string)` in domain `ClobAuthDomain` version "1" with the chain id, message
 *   "This message attests that I control the given wallet".
 *
 * Every check answers a reason instead of throwing, so the fake can turn it into the venue's
 * error without leaking anything it was sent.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getContractConfig } from '@polymarket/clob-client-v2';
import { getAddress, hashDomain, hashStruct, hashTypedData, isAddressEqual, recoverTypedDataAddress, toHex, type Address, type Hex } from 'viem';
import { z } from 'zod';

export const SIGNATURE_TYPE = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 } as const;

export const EXCHANGE_DOMAIN_NAME = 'Polymarket CTF Exchange';
const BYTES32_ZERO = `0x${'0'.repeat(64)}` as const;

export const EIP712_DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

/** The V2 signed order struct, field for field (ctfExchangeV2TypedData.ts). */
export const ORDER_V2_TYPE = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'signer', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'makerAmount', type: 'uint256' },
  { name: 'takerAmount', type: 'uint256' },
  { name: 'side', type: 'uint8' },
  { name: 'signatureType', type: 'uint8' },
  { name: 'timestamp', type: 'uint256' },
  { name: 'metadata', type: 'bytes32' },
  { name: 'builder', type: 'bytes32' },
] as const;

const ORDER_V2_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

const TYPED_DATA_SIGN_TYPE = [
  { name: 'contents', type: 'Order' },
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
] as const;

const uint = z.union([z.string().regex(/^[0-9]{1,78}$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((v) => getAddress(v.toLowerCase()));
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/).transform((v) => v.toLowerCase() as Hex);

/** The `order` object of a `POST /order` body (orderToJsonV2 in src/types/ordersV2.ts). */
export const wireOrderV2 = z.object({
  salt: uint,
  maker: address,
  signer: address,
  tokenId: uint,
  makerAmount: uint,
  takerAmount: uint,
  side: z.enum(['BUY', 'SELL']),
  signatureType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  timestamp: uint,
  expiration: uint,
  metadata: bytes32,
  builder: bytes32,
  signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/).transform((v) => v as Hex),
});
export type WireOrderV2 = z.output<typeof wireOrderV2>;

export interface MarketSigningContext {
  chainId: number;
  negRisk: boolean;
  /** 2 unless the venue answers `/version` 3. */
  orderVersion?: 2 | 3;
}

/** What the fake knows of the account behind an API key. */
export interface PolymarketAccountKey {
  /** The EOA that created the API key with L1 auth (POLY_ADDRESS). */
  ownerAddress: string;
  signatureType: 0 | 1 | 2 | 3;
  /** The wallet that holds the funds: the owner itself for EOA. */
  funderAddress: string;
}

export type Verdict<T = object> = ({ ok: true } & T) | { ok: false; reason: string };

export function exchangeDomain(context: MarketSigningContext) {
  const contracts = getContractConfig(context.chainId);
  const version = context.orderVersion ?? 2;
  const verifyingContract = version === 3 ? contracts.exchangeV3 : context.negRisk ? contracts.negRiskExchangeV2 : contracts.exchangeV2;
  return { name: EXCHANGE_DOMAIN_NAME, version: String(version), chainId: context.chainId, verifyingContract: getAddress(verifyingContract) } as const;
}

function orderMessage(order: WireOrderV2) {
  return {
    salt: order.salt,
    maker: order.maker,
    signer: order.signer,
    tokenId: order.tokenId,
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    side: order.side === 'BUY' ? 0 : 1,
    signatureType: order.signatureType,
    timestamp: order.timestamp,
    metadata: order.metadata,
    builder: order.builder,
  };
}

/** The order's EIP-712 hash: its id on the venue. */
export function orderHash(order: WireOrderV2, chainId: number, negRisk: boolean): string {
  return hashTypedData({ domain: exchangeDomain({ chainId, negRisk }), types: { Order: ORDER_V2_TYPE }, primaryType: 'Order', message: orderMessage(order) });
}

/** The address whose key produced an EOA/proxy/Safe order signature. */
export async function recoverOrderSigner(order: WireOrderV2, context: MarketSigningContext): Promise<Address> {
  return recoverTypedDataAddress({
    domain: exchangeDomain(context),
    types: { Order: ORDER_V2_TYPE },
    primaryType: 'Order',
    message: orderMessage(order),
    signature: order.signature,
  });
}

/**
 * For POLY_1271: unwraps the ERC-7739 signature, checks that it commits to this order in this
 * exchange's domain, and answers the address that signed the inner TypedDataSign.
 */
export async function recoverWalletOwner(order: WireOrderV2, context: MarketSigningContext): Promise<Verdict<{ owner: Address }>> {
  const bytes = Buffer.from(order.signature.slice(2), 'hex');
  if (bytes.length < 65 + 32 + 32 + 2) return { ok: false, reason: 'POLY_1271 signature is too short' };
  const typeLength = bytes.readUInt16BE(bytes.length - 2);
  if (bytes.length !== 65 + 32 + 32 + typeLength + 2) return { ok: false, reason: 'POLY_1271 signature has an inconsistent length' };
  const inner = toHex(bytes.subarray(0, 65));
  const appDomainSeparator = toHex(bytes.subarray(65, 97));
  const contentsHash = toHex(bytes.subarray(97, 129));
  const contentsType = bytes.subarray(129, 129 + typeLength).toString('utf8');
  const domain = exchangeDomain(context);
  if (contentsType !== ORDER_V2_TYPE_STRING) return { ok: false, reason: 'POLY_1271 signature names another contents type' };
  if (appDomainSeparator !== hashDomain({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types: { EIP712Domain: EIP712_DOMAIN_TYPE } })) {
    return { ok: false, reason: 'POLY_1271 signature is for another exchange domain' };
  }
  const message = orderMessage(order);
  if (contentsHash !== hashStruct({ data: message, primaryType: 'Order', types: { Order: ORDER_V2_TYPE } })) {
    return { ok: false, reason: 'POLY_1271 signature is for another order' };
  }
  const owner = await recoverTypedDataAddress({
    domain,
    types: { TypedDataSign: TYPED_DATA_SIGN_TYPE, Order: ORDER_V2_TYPE },
    primaryType: 'TypedDataSign',
    message: { contents: message, name: 'DepositWallet', version: '1', chainId: BigInt(context.chainId), verifyingContract: order.signer, salt: BYTES32_ZERO },
    signature: inner,
  });
  return { ok: true, owner };
}

/**
 * Checks a posted order against the account behind the API key that posted it: its shape, its
 * signature type, who signs and who pays (see the rules above), and the EIP-712 signature.
 */
export async function verifyOrder(rawOrder: unknown, account: PolymarketAccountKey, context: MarketSigningContext): Promise<Verdict<{ order: WireOrderV2; signer: Address }>> {
  const parsed = wireOrderV2.safeParse(rawOrder);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `invalid order field ${issue.path.join('.') || 'order'}` };
  }
  const order = parsed.data;
  if (order.signatureType !== account.signatureType) return { ok: false, reason: 'signature type does not match the API key\'s account' };
  const owner = getAddress(account.ownerAddress.toLowerCase());
  const funder = getAddress(account.funderAddress.toLowerCase());

  if (order.signatureType === SIGNATURE_TYPE.POLY_1271) {
    if (!isAddressEqual(order.signer, order.maker)) return { ok: false, reason: 'POLY_1271 orders are signed by their maker wallet' };
    if (!isAddressEqual(order.maker, funder)) return { ok: false, reason: 'maker is not the API key\'s wallet' };
    const unwrapped = await safely(() => recoverWalletOwner(order, context));
    if (!unwrapped.ok) return unwrapped;
    if (!unwrapped.value.ok) return unwrapped.value;
    if (!isAddressEqual(unwrapped.value.owner, owner)) return { ok: false, reason: 'invalid signature' };
    return { ok: true, order, signer: order.signer };
  }

  if (!isAddressEqual(order.signer, owner)) return { ok: false, reason: 'signer is not the owner of the API key' };
  if (order.signatureType === SIGNATURE_TYPE.EOA) {
    if (!isAddressEqual(order.maker, order.signer)) return { ok: false, reason: 'EOA orders must have maker == signer' };
  } else if (!isAddressEqual(order.maker, funder)) {
    return { ok: false, reason: 'maker is not the API key\'s proxy or Safe wallet' };
  }
  const recovered = await safely(() => recoverOrderSigner(order, context));
  if (!recovered.ok) return recovered;
  if (!isAddressEqual(recovered.value, order.signer)) return { ok: false, reason: 'invalid signature' };
  return { ok: true, order, signer: recovered.value };
}

/** A malformed signature makes viem throw: that is an invalid signature, not a fake's crash. */
async function safely<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
  try {
    return { ok: true, value: await work() };
  } catch {
    return { ok: false, reason: 'invalid signature' };
  }
}

export interface ApiKeyRecord {
  secret: string;
  passphrase: string;
  /** The address that created the key (L1). */
  ownerAddress: string;
}

/** Request headers as Node or a test hands them over: names in any case, values possibly repeated. */
export type HeaderBag = Record<string, unknown>;

function header(headers: HeaderBag, name: string): string | undefined {
  const direct = headers[name] ?? headers[name.toLowerCase()];
  const value = direct ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

const L2_HEADERS = ['POLY_ADDRESS', 'POLY_SIGNATURE', 'POLY_TIMESTAMP', 'POLY_API_KEY', 'POLY_PASSPHRASE'] as const;

/** The L2 signature as V2 defines it; written with node:crypto, not the client's code. */
export function expectedL2Signature(secret: string, timestamp: string, method: string, requestPath: string, body?: string): string {
  const key = Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  const message = `${timestamp}${method}${requestPath}${body ?? ''}`;
  return createHmac('sha256', key).update(message, 'utf8').digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * Checks a request's L2 headers: all present, a known API key with its passphrase and owner
 * address, a timestamp within `windowSeconds` of `nowSeconds`, and the HMAC over this exact
 * method, path and body. Answers the API key on success.
 */
export function verifyL2Headers(
  headers: HeaderBag,
  request: { method: string; requestPath: string; body?: string },
  lookup: (apiKey: string) => ApiKeyRecord | undefined,
  options: { nowSeconds: number; windowSeconds?: number },
): Verdict<{ apiKey: string; ownerAddress: string }> {
  const values: Partial<Record<(typeof L2_HEADERS)[number], string>> = {};
  for (const name of L2_HEADERS) {
    const value = header(headers, name);
    if (!value) return { ok: false, reason: `missing header ${name}` };
    values[name] = value;
  }
  const record = lookup(values.POLY_API_KEY!);
  if (!record) return { ok: false, reason: 'unknown API key' };
  if (!equalStrings(values.POLY_PASSPHRASE!, record.passphrase)) return { ok: false, reason: 'wrong passphrase' };
  if (!/^0x[0-9a-fA-F]{40}$/.test(values.POLY_ADDRESS!) || !isAddressEqual(values.POLY_ADDRESS! as Address, record.ownerAddress as Address)) {
    return { ok: false, reason: 'POLY_ADDRESS is not the owner of the API key' };
  }
  const timestamp = values.POLY_TIMESTAMP!;
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, reason: 'POLY_TIMESTAMP must be unix seconds' };
  if (Math.abs(Number(timestamp) - options.nowSeconds) > (options.windowSeconds ?? 30)) return { ok: false, reason: 'POLY_TIMESTAMP is outside the accepted window' };
  const expected = expectedL2Signature(record.secret, timestamp, request.method, request.requestPath, request.body);
  if (!equalStrings(values.POLY_SIGNATURE!, expected)) return { ok: false, reason: 'invalid L2 signature' };
  return { ok: true, apiKey: values.POLY_API_KEY!, ownerAddress: record.ownerAddress };
}

function equalStrings(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';

/** Checks L1 headers (ClobAuth), as `POST /auth/api-key` and `GET /auth/derive-api-key` would. */
export async function verifyL1Headers(headers: HeaderBag, options: { chainId: number; nowSeconds: number; windowSeconds?: number }): Promise<Verdict<{ address: Address; nonce: bigint }>> {
  const claimed = header(headers, 'POLY_ADDRESS');
  const signature = header(headers, 'POLY_SIGNATURE');
  const timestamp = header(headers, 'POLY_TIMESTAMP');
  const nonce = header(headers, 'POLY_NONCE') ?? '0';
  if (!claimed || !/^0x[0-9a-fA-F]{40}$/.test(claimed)) return { ok: false, reason: 'missing or malformed POLY_ADDRESS' };
  if (!signature || !/^0x([0-9a-fA-F]{2})+$/.test(signature)) return { ok: false, reason: 'missing or malformed POLY_SIGNATURE' };
  if (!timestamp || !/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, reason: 'POLY_TIMESTAMP must be unix seconds' };
  if (!/^[0-9]{1,78}$/.test(nonce)) return { ok: false, reason: 'POLY_NONCE must be a non-negative integer' };
  if (Math.abs(Number(timestamp) - options.nowSeconds) > (options.windowSeconds ?? 30)) return { ok: false, reason: 'POLY_TIMESTAMP is outside the accepted window' };
  const address = getAddress(claimed.toLowerCase());
  const recovered = await safely(() =>
    recoverTypedDataAddress({
      domain: { name: 'ClobAuthDomain', version: '1', chainId: options.chainId },
      types: {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      primaryType: 'ClobAuth',
      message: { address, timestamp, nonce: BigInt(nonce), message: CLOB_AUTH_MESSAGE },
      signature: signature as Hex,
    }),
  );
  if (!recovered.ok || !isAddressEqual(recovered.value, address)) return { ok: false, reason: 'invalid L1 signature' };
  return { ok: true, address, nonce: BigInt(nonce) };
}
