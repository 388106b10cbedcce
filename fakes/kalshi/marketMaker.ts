/**
 * The Kalshi fake's built-in market maker: an internal account with a deep balance that seeds
 * every market's book with resting liquidity around a mid, so that a newcomer running the fake
 * standalone (`start.ts`) sees a two-sided book and an order at the ask fills. Not Kalshi's: a
 * stand-in for the other participants a real book has.
 *
 * The idea is the simulated venues' (core/venues/sim/marketMaker.ts: a ladder of YES bids below
 * and YES asks above a fair value, `levelSpacing` apart, sizes growing away from the touch), kept
 * simpler: quoted once, no re-quote after a trade (`seedBooks` again puts a fresh ladder up).
 *
 * The quotes are ordinary V2 orders of that account (`good_till_canceled`, `post_only`), placed
 * through the same book as any order: they match, pay fees and report fills like any other, so a
 * client that takes them gets a taker fill and the market maker a maker fill. An ask at p is an
 * ask on the YES leg, which Kalshi's book shows as a NO bid at 1 - p (`orderbook_fp` lists bids
 * only).
 *
 * Each market's mid is its seed's `fake_mid_dollars` (not a Kalshi field; 0.50 when absent).
 * Levels whose price is off the market's `price_ranges` (or outside (0, 1)) are skipped.
 */
import type { Exchange, ExchangeAnswer } from './exchange';
import { D, TICKS_PER_DOLLAR } from './fixedPoint';
import { priceTicksOnRanges, WHOLE_CENT_RANGES, type MarketSeed } from './markets';
import { ladderLevels, type SeedBooksOptions } from '../seedBooks';

/** The market maker's user id on the fake (it has no API key: nobody can sign as it). */
export const MARKET_MAKER_USER_ID = 'fake-market-maker';
/** Its cash: deep enough for every quote and for the counter-orders a test places as it. */
export const MARKET_MAKER_BALANCE_DOLLARS = '10000000.00';
export const DEFAULT_MID_DOLLARS = '0.5000';

export interface SeededQuote {
  readonly ticker: string;
  readonly side: 'bid' | 'ask';
  readonly price: string;
  readonly count: string;
  readonly answer: ExchangeAnswer;
}

/** The ladder of one market: bids at mid - k x spacing, asks at mid + k x spacing, k = 1..levels. */
export function ladderOf(market: MarketSeed, options: SeedBooksOptions = {}): { side: 'bid' | 'ask'; price: string; count: string }[] {
  const { levelSpacing, levels } = ladderLevels(options);
  const mid = new D(market.fake_mid_dollars ?? DEFAULT_MID_DOLLARS);
  const spacing = new D(levelSpacing);
  const ranges = market.price_ranges ?? WHOLE_CENT_RANGES;
  const quotes: { side: 'bid' | 'ask'; price: string; count: string }[] = [];
  for (const { level, size } of levels) {
    const count = new D(size).toFixed(2);
    for (const side of ['bid', 'ask'] as const) {
      const price = (side === 'bid' ? mid.minus(spacing.times(level)) : mid.plus(spacing.times(level))).toFixed(4);
      const ticks = priceTicksOnRanges(price, ranges);
      if (ticks === null || ticks < 1 || ticks > TICKS_PER_DOLLAR - 1) continue;
      quotes.push({ side, price, count });
    }
  }
  return quotes;
}

/**
 * Puts the market maker's ladder on every active market of `exchange`: first cancels what it still
 * has resting (so seeding again refreshes the books), then places each level as an ordinary order.
 */
export function seedBooks(exchange: Exchange, options: SeedBooksOptions = {}): SeededQuote[] {
  exchange.ensureAccount(MARKET_MAKER_USER_ID);
  for (const orderId of exchange.restingOrderIds(MARKET_MAKER_USER_ID, undefined, undefined)) exchange.cancelOrder(MARKET_MAKER_USER_ID, orderId);
  const placed: SeededQuote[] = [];
  for (const market of exchange.marketList()) {
    if ((market.status ?? 'active') !== 'active') continue;
    for (const quote of ladderOf(market, options)) {
      const answer = exchange.createOrder(MARKET_MAKER_USER_ID, {
        ticker: market.ticker,
        side: quote.side,
        count: quote.count,
        price: quote.price,
        time_in_force: 'good_till_canceled',
        self_trade_prevention_type: 'maker',
        post_only: true,
      });
      placed.push({ ticker: market.ticker, ...quote, answer });
    }
  }
  return placed;
}
