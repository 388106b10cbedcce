import {
  Chain,
  createL1Headers,
  createL2Headers,
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
