import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import {
  Chain,
  createL1Headers,
  createL2Headers,
  getContractConfig,
  OrderBuilder,
  orderToJsonV2,
  OrderType,
  Side,
  SignatureTypeV2,
  type ApiKeyCreds,
  type L1PolyHeader,
  type L2PolyHeader,
  type NewOrderV2,
  type SignedOrder,
  type TickSize,
} from '@polymarket/clob-client-v2';
import Decimal from 'decimal.js';
import { createWalletClient, custom, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PolymarketCredentialV2 } from './credentials';

/**
 * Polymarket CLOB V2 order signing and request authentication, as a thin layer over the official
 * client `@polymarket/clob-client-v2` 1.1.0 (github.com/Polymarket/clob-client-v2 at f3e1a05).
 * Nothing is hashed or signed here by hand: orders go through the client's `OrderBuilder`
 * (src/order-builder/orderBuilder.ts -> createOrder.ts -> ExchangeOrderBuilderV2), L2 headers
 * through `createL2Headers` (src/headers/index.ts, HMAC in src/signing/hmac.ts) and L1 headers
 * through `createL1Headers` (EIP-712 `ClobAuth`, src/signing/eip712.ts).
 *
 * What this layer adds is strictness the client leaves to its callers: prices and sizes arrive as
 * decimal strings and are REFUSED when off the token's tick or the 0.01-share grid, rather than
 * rounded as the client's float arithmetic would (ROUNDING_CONFIG, src/order-builder/helpers/
 * roundingConfig.ts: sizes keep 2 decimals); prices must lie in [tick, 1 - tick] as the client's
 * `priceValid` demands.
 *
 * V2 order facts (src/order-utils/exchangeOrderBuilderV2.ts, model/ctfExchangeV2TypedData.ts):
 * the EIP-712 domain is `Polymarket CTF Exchange`, version "2", the chain id and the exchange
 * contract (the neg-risk exchange for neg-risk tokens: createOrder.ts); the signed struct is
 * `Order(salt, maker, signer, tokenId, makerAmount, takerAmount, side, signatureType, timestamp,
 * metadata, builder)`. V1's `nonce`, `feeRateBps` and `taker` are gone: there is NO fee field to
 * sign, the operator sets fees at match time. `timestamp` is milliseconds. `expiration` (unix
 * seconds, "0" = none; GTD orders) travels in the posted order but is NOT part of the signed struct.
 */

export { Chain, OrderType, Side, SignatureTypeV2 };
export type { TickSize };

/** The tick sizes V2 knows (src/types/clob.ts TickSize). */
export const POLYMARKET_TICK_SIZES: readonly TickSize[] = ['0.1', '0.01', '0.005', '0.0025', '0.001', '0.0001'];
/** Order versions the client signs for V2 markets: 2 (ExchangeV2) and 3 (ExchangeV3, same struct, domain version "3"); the server's `/version` says which. */
export type PolymarketOrderVersion = 2 | 3;

/** The signer the official client accepts (an ethers v5 signer or a viem WalletClient). */
export type PolymarketSigner = ConstructorParameters<typeof OrderBuilder>[0];

export interface PolymarketLimitOrder {
  tokenId: string;
  /** Decimal string, on the token's tick, in [tick, 1 - tick]. */
  price: string;
  /** Shares, decimal string, at most 2 decimals, > 0. */
  size: string;
  side: 'BUY' | 'SELL';
  tickSize: TickSize;
  negRisk: boolean;
  /** Unix seconds for GTD; absent or 0 for GTC. */
  expiration?: number;
}

export class PolymarketOrderInputError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'PolymarketOrderInputError';
  }
}

/**
 * A viem WalletClient over a local account: it signs typed data in-process and has no RPC
 * transport to reach (a request to one would be a bug, so it throws).
 */
export function polymarketSignerFromKey(privateKey: `0x${string}`): WalletClient {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    transport: custom({
      request: async () => {
        throw new Error('the Polymarket signer signs locally and has no RPC endpoint');
      },
    }),
  });
}

export interface PolymarketSigning {
  readonly signerAddress: `0x${string}`;
  readonly makerAddress: `0x${string}`;
  readonly signatureType: SignatureTypeV2;
  /** Builds and signs a V2 (or V3) limit order through the official OrderBuilder. */
  signLimitOrder(order: PolymarketLimitOrder, version?: PolymarketOrderVersion): Promise<SignedOrder>;
  /** L2 headers for one request: `requestPath` without host (and as the client signs it, without the query string); `body` exactly as sent. */
  l2Headers(creds: ApiKeyCreds, request: { method: string; requestPath: string; body?: string }, timestampSeconds?: number): Promise<L2PolyHeader>;
  /** L1 headers (EIP-712 ClobAuth) to create or derive API credentials. */
  l1Headers(nonce?: number, timestampSeconds?: number): Promise<L1PolyHeader>;
  /**
   * Signs an order whose every field is given (amounts, salt, timestamp): the same input always
   * gives the same order and the same EIP-712 hash, which is the venue's order id. Through the
   * client's own ExchangeOrderBuilderV2 (see `exactOrderBuilder`).
   */
  signExactOrder(order: PolymarketExactOrder, version?: PolymarketOrderVersion): Promise<{ order: SignedOrder; hash: `0x${string}` }>;
}

/**
 * An order with every signed field fixed by the caller. Amounts are 6-decimal base units
 * (BUY: maker = pUSD paid, taker = shares; SELL the reverse), as the client's
 * buildOrderCreationArgs computes them; `salt` a decimal integer below 2^53 (the client posts it as
 * a JSON number, `orderToJsonV2`: parseInt); `timestamp` milliseconds.
 */
export interface PolymarketExactOrder {
  tokenId: string;
  side: 'BUY' | 'SELL';
  makerAmount: string;
  takerAmount: string;
  salt: string;
  timestamp: string;
  /** Unix seconds for GTD; "0" (default) for none. Not signed. */
  expiration?: string;
  negRisk: boolean;
}

/** A salt that is a pure function of a key (our client order id): 52 bits of its SHA-256, a safe integer. */
export function polymarketSaltFor(key: string): string {
  return BigInt(`0x${createHash('sha256').update(key).digest('hex').slice(0, 13)}`).toString();
}

/** What this layer uses of the client's ExchangeOrderBuilderV2 (src/order-utils/exchangeOrderBuilderV2.ts; its .d.ts ships empty). */
interface ExchangeOrderBuilder {
  buildSignedOrder(orderData: Record<string, unknown>): Promise<SignedOrder>;
  buildOrderTypedData(order: SignedOrder): unknown;
  buildOrderHash(typedData: unknown): `0x${string}`;
}
type ExchangeOrderBuilderClass = new (contract: string, chainId: number, signer: PolymarketSigner, generateSalt: () => string) => ExchangeOrderBuilder;

let builders: { V2: ExchangeOrderBuilderClass; V3: ExchangeOrderBuilderClass } | undefined;

/**
 * The official client's lower-level order builder. Its public `OrderBuilder` draws the salt from
 * `Math.random()` and the timestamp from `Date.now()` (src/order-utils/utils.ts generateOrderSalt,
 * src/order-builder/helpers/buildOrderCreationArgs.ts), so the same order of ours would get a new
 * hash on every send; `ExchangeOrderBuilderV2` takes both (the salt through its `generateSalt`
 * constructor argument, the timestamp in the order data) and does the same EIP-712 typing,
 * hashing and signing (POLY_1271 wrapping included). The package's `exports` map publishes only its
 * index, so the module is loaded from the installed package's own dist folder, pinned to 1.1.0.
 */
function exactOrderBuilder(version: PolymarketOrderVersion): ExchangeOrderBuilderClass {
  if (builders === undefined) {
    const dist = dirname(require.resolve('@polymarket/clob-client-v2'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(join(dist, 'order-utils', 'exchangeOrderBuilderV2.cjs')) as { ExchangeOrderBuilderV2: ExchangeOrderBuilderClass; ExchangeOrderBuilderV3: ExchangeOrderBuilderClass };
    builders = { V2: loaded.ExchangeOrderBuilderV2, V3: loaded.ExchangeOrderBuilderV3 };
  }
  return version === 3 ? builders.V3 : builders.V2;
}

/**
 * Signing for one credential on one chain. The signer is either the credential's key or any
 * signer the official client accepts (for POLY_1271 the order's signer is the wallet contract).
 */
export function polymarketSigning(
  options: { chain: Chain; signatureType: SignatureTypeV2; funderAddress: `0x${string}` } & ({ privateKey: `0x${string}` } | { signer: PolymarketSigner; signerAddress: `0x${string}` }),
): PolymarketSigning {
  const signer = 'privateKey' in options ? polymarketSignerFromKey(options.privateKey) : options.signer;
  const signerAddress = 'privateKey' in options ? privateKeyToAccount(options.privateKey).address : options.signerAddress;
  const builder = new OrderBuilder(signer, options.chain, options.signatureType, options.funderAddress);
  return {
    signerAddress,
    makerAddress: options.funderAddress,
    signatureType: options.signatureType,
    async signLimitOrder(order, version = 2) {
      const { price, size } = checkLimitOrder(order);
      return builder.buildOrder(
        {
          tokenID: order.tokenId,
          price,
          size,
          side: order.side === 'BUY' ? Side.BUY : Side.SELL,
          ...(order.expiration ? { expiration: order.expiration } : {}),
        },
        { tickSize: order.tickSize, negRisk: order.negRisk },
        version,
      );
    },
    l2Headers: (creds, request, timestampSeconds) => createL2Headers(signer, creds, request, timestampSeconds),
    l1Headers: (nonce, timestampSeconds) => createL1Headers(signer, options.chain, nonce, timestampSeconds),
    async signExactOrder(order, version = 2) {
      if (!/^[0-9]{1,78}$/.test(order.tokenId)) throw new PolymarketOrderInputError('token_id', 'token_id must be the CLOB token id, a decimal uint256.');
      if (!/^[1-9][0-9]*$/.test(order.makerAmount) || !/^[1-9][0-9]*$/.test(order.takerAmount)) throw new PolymarketOrderInputError('amount', 'amounts must be positive integers of base units.');
      if (!/^[0-9]+$/.test(order.salt) || !Number.isSafeInteger(Number(order.salt))) throw new PolymarketOrderInputError('salt', 'salt must be a safe integer.');
      const contracts = getContractConfig(options.chain);
      const contract = version === 3 ? contracts.exchangeV3 : order.negRisk ? contracts.negRiskExchangeV2 : contracts.exchangeV2;
      const Builder = exactOrderBuilder(version);
      const builder = new Builder(contract, options.chain, signer, () => order.salt);
      // As createOrder.ts: the maker is the funder; the signer is the key's address, or the wallet itself for POLY_1271.
      const signed = await builder.buildSignedOrder({
        maker: options.funderAddress,
        signer: options.signatureType === SignatureTypeV2.POLY_1271 ? options.funderAddress : signerAddress,
        tokenId: order.tokenId,
        makerAmount: order.makerAmount,
        takerAmount: order.takerAmount,
        side: order.side === 'BUY' ? Side.BUY : Side.SELL,
        signatureType: options.signatureType,
        timestamp: order.timestamp,
        expiration: order.expiration ?? '0',
      });
      return { order: signed, hash: builder.buildOrderHash(builder.buildOrderTypedData(signed)) };
    },
  };
}

/** Signing for a validated credential (credentials.ts). */
export function polymarketSigningFor(credential: PolymarketCredentialV2, chain: Chain): PolymarketSigning {
  return polymarketSigning({ chain, signatureType: credential.signatureType, funderAddress: credential.funderAddress, privateKey: credential.privateKey });
}

/** The body of `POST /order` for a signed order, as the client posts it (src/types/ordersV2.ts orderToJsonV2). */
export function polymarketOrderPayload(order: SignedOrder, apiKey: string, orderType: OrderType, postOnly = false): NewOrderV2<OrderType> {
  return orderToJsonV2(order as Parameters<typeof orderToJsonV2>[0], apiKey, orderType, postOnly);
}

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Refuses what the client would silently round; answers the numbers the client takes. */
function checkLimitOrder(order: PolymarketLimitOrder): { price: number; size: number } {
  if (!/^[0-9]{1,78}$/.test(order.tokenId)) throw new PolymarketOrderInputError('token_id', 'token_id must be the CLOB token id, a decimal uint256.');
  if (!POLYMARKET_TICK_SIZES.includes(order.tickSize)) throw new PolymarketOrderInputError('tick_size', `tick_size must be one of ${POLYMARKET_TICK_SIZES.join(', ')}.`);
  if (typeof order.price !== 'string' || !DECIMAL.test(order.price)) throw new PolymarketOrderInputError('price', 'price must be a decimal string such as "0.56".');
  if (typeof order.size !== 'string' || !DECIMAL.test(order.size)) throw new PolymarketOrderInputError('size', 'size must be a decimal string of shares such as "10.5".');
  const tick = new Decimal(order.tickSize);
  const price = new Decimal(order.price);
  if (!price.mod(tick).isZero()) throw new PolymarketOrderInputError('price', `price must be a multiple of the token's tick size ${order.tickSize}.`);
  if (price.lt(tick) || price.gt(new Decimal(1).minus(tick))) throw new PolymarketOrderInputError('price', `price must be between ${tick.toString()} and ${new Decimal(1).minus(tick).toString()}.`);
  const size = new Decimal(order.size);
  if (size.lte(0)) throw new PolymarketOrderInputError('size', 'size must be greater than 0.');
  if (size.decimalPlaces() > 2) throw new PolymarketOrderInputError('size', 'size must have at most 2 decimals (0.01 share).');
  if (order.expiration !== undefined && (!Number.isSafeInteger(order.expiration) || order.expiration < 0)) {
    throw new PolymarketOrderInputError('expiration', 'expiration must be unix seconds, or 0 for none.');
  }
  return { price: price.toNumber(), size: size.toNumber() };
}
