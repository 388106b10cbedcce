/**
 * The Polymarket fake's built-in market maker: an internal account (an API key nobody is given the
 * secret of, and a wallet of its own) that holds deep pUSD and the shares its asks offer, and seeds
 * every token's book with resting bids and asks around the token's mid, so that a newcomer running
 * the fake standalone (`start.ts`) sees a two-sided `/book` and a market order fills. Not
 * Polymarket's: a stand-in for the other participants a real book has. It mirrors the Kalshi fake's
 * (fakes/kalshi/marketMaker.ts) and the simulated venues' idea (core/venues/sim/marketMaker.ts: a
 * ladder below and above a fair value, sizes growing away from the touch), quoted once, no re-quote
 * after a trade (`seedBooks` again puts a fresh ladder up).
 *
 * Its quotes are ordinary orders of the book (exchange.ts `placeAs`: the same checks, matching,
 * trades, user-channel events and settlement as `POST /order`, without a signature): a client that
 * takes one is the trade's TAKER and the market maker its MAKER. The book is one per token, as the
 * fake keeps it (no Yes/No cross matching), so each token gets its own bids and asks.
 *
 * Each token's mid is its seed's `mid` (0.5 when absent). Prices are on the token's tick (the
 * spacing rounded up to a multiple of it); levels outside [tick, 1 - tick] are skipped.
 */
import { getAddress } from 'viem';
import { randomBytes } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import type { ClobAnswer } from './errors';
import { UNITS_PER_SHARE, type CounterOrder, type FakeAccount, type PolymarketExchange } from './exchange';
import type { TokenSeed } from './markets';
import { ladderLevels, type SeedBooksOptions } from '../seedBooks';

/** The market maker's API key on the fake (UUID-shaped like the venue's keys; its secret is never handed out). */
export const MARKET_MAKER_API_KEY = 'feed0000-0000-4000-8000-00000000feed';
/** Its EOA wallet (signer and funder): no private key exists for it; its orders are placed unsigned. */
export const MARKET_MAKER_ADDRESS = getAddress('0x5eed00000000000000000000000000000000feed');
/** pUSD it starts with. */
export const MARKET_MAKER_COLLATERAL = '1000000';
export const DEFAULT_MID = '0.5';

export interface SeededQuote {
  readonly tokenId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly size: string;
  readonly answer: ClobAnswer;
}

export function marketMakerAccount(): FakeAccount {
  return {
    apiKey: MARKET_MAKER_API_KEY,
    secret: randomBytes(32).toString('base64url'),
    passphrase: randomBytes(32).toString('hex'),
    ownerAddress: MARKET_MAKER_ADDRESS,
    signatureType: 0,
    funderAddress: MARKET_MAKER_ADDRESS,
    collateral: MARKET_MAKER_COLLATERAL,
  };
}

/** One token's ladder: BUYs at mid - k x spacing (down to the tick), SELLs at mid + k x spacing (up to the tick), k = 1..levels. */
export function ladderOf(token: TokenSeed, options: SeedBooksOptions = {}): { side: 'BUY' | 'SELL'; price: string; size: string }[] {
  const { levelSpacing, levels } = ladderLevels(options);
  const tick = new Decimal(token.tickSize);
  const mid = new Decimal(token.mid ?? DEFAULT_MID);
  const spacing = Decimal.max(new Decimal(levelSpacing).div(tick).ceil(), 1).times(tick);
  const places = Math.max(tick.decimalPlaces(), 2);
  const quotes: { side: 'BUY' | 'SELL'; price: string; size: string }[] = [];
  for (const { level, size } of levels) {
    const bid = mid.minus(spacing.times(level)).div(tick).floor().times(tick);
    const ask = mid.plus(spacing.times(level)).div(tick).ceil().times(tick);
    if (bid.gte(tick)) quotes.push({ side: 'BUY', price: bid.toFixed(places), size: String(size) });
    if (ask.lte(new Decimal(1).minus(tick))) quotes.push({ side: 'SELL', price: ask.toFixed(places), size: String(size) });
  }
  return quotes;
}

/**
 * A counter-order of the market maker: its wallet is first topped up with what the order needs
 * (the shares a SELL offers, the pUSD a BUY pays), minted as a participant with deep pockets would
 * bring them, then the order goes through the book.
 */
export function placeAsMarketMaker(exchange: PolymarketExchange, order: CounterOrder): ClobAnswer {
  const account = exchange.account(MARKET_MAKER_API_KEY)!;
  backOrder(exchange, account, order);
  return exchange.placeAs(account, order);
}

/** Tops the wallet up so that it holds what its open orders and this one could take from it. */
function backOrder(exchange: PolymarketExchange, account: FakeAccount, order: CounterOrder): void {
  if (!/^\d+(\.\d+)?$/.test(order.price) || !/^\d+(\.\d+)?$/.test(order.size)) return; // placeAs refuses it
  let sharesOffered = new Decimal(0);
  let pusdBid = new Decimal(0);
  for (const open of exchange.allOrders()) {
    if (open.apiKey !== account.apiKey || open.status !== 'LIVE') continue;
    const remaining = new Decimal(open.originalUnits - open.matchedUnits).div(UNITS_PER_SHARE);
    if (open.side === 'SELL' && open.token.tokenId === order.tokenId) sharesOffered = sharesOffered.plus(remaining);
    if (open.side === 'BUY') pusdBid = pusdBid.plus(remaining.times(open.price));
  }
  const held = exchange.wallets.holdings(account.funderAddress, order.tokenId);
  const size = new Decimal(order.size);
  if (order.side === 'SELL') {
    const short = sharesOffered.plus(size).minus(held.shares);
    if (short.gt(0)) exchange.wallets.mint(account.funderAddress, { tokenId: order.tokenId, shares: short.toString() });
  } else {
    const short = pusdBid.plus(size.times(order.price)).minus(held.pusd);
    if (short.gt(0)) exchange.wallets.mint(account.funderAddress, { pusd: short.toString() });
  }
}

/**
 * Puts the market maker's ladder on every token's book: cancels what it still has open first (so
 * seeding again refreshes the books), then places each level as an ordinary GTC post-only order.
 */
export function seedBooks(exchange: PolymarketExchange, options: SeedBooksOptions = {}): SeededQuote[] {
  const account = exchange.account(MARKET_MAKER_API_KEY)!;
  for (const order of exchange.allOrders()) {
    if (order.apiKey === MARKET_MAKER_API_KEY && order.status === 'LIVE') exchange.cancelOrder(account, { orderID: order.id });
  }
  const placed: SeededQuote[] = [];
  for (const token of exchange.tokenList()) {
    for (const quote of ladderOf(token, options)) {
      const answer = placeAsMarketMaker(exchange, { tokenId: token.tokenId, ...quote, orderType: 'GTC', postOnly: true });
      placed.push({ tokenId: token.tokenId, ...quote, answer });
    }
  }
  return placed;
}
