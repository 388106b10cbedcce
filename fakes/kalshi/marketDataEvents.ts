/**
 * What the fake exchange tells its public market-data feed (marketDataFeed.ts), and what the feed
 * may ask of it. Not Kalshi shapes: the wire messages are built in marketDataMessages.ts.
 *
 * Book changes are reported per resting order that changed, in the order they happened on the
 * book: an order coming to rest (+ its remaining count), a resting order canceled by anyone or
 * anything (its owner, expiry, self-trade prevention, the market closing: - its remaining count),
 * a resting order filled (- the filled count). Summed, they are exactly the change of the book.
 */
import type { BookLevel } from '../../core/domain/matching';
import type { Dec } from './fixedPoint';
import type { BookSideV2, PublicTradeRecord } from './records';

/** One resting order's change on a book level, in YES-leg terms (an ask at p is a NO bid at 1 - p). */
export interface BookDelta {
  readonly kind: 'book_delta';
  readonly ticker: string;
  readonly bookSide: BookSideV2;
  readonly yesPriceTicks: number;
  /** Signed hundredths of a contract. */
  readonly deltaUnits: number;
  /**
   * The order that triggered the change and its owner: the resting order itself when it rests or
   * is canceled, the incoming (taker) order when a fill consumed the resting one.
   */
  readonly causedBy: { readonly userId: string; readonly clientOrderId: string };
  readonly ms: number;
}

export interface TradeEvent {
  readonly kind: 'trade';
  readonly trade: PublicTradeRecord;
}

/** Something on the ticker changed without a book or trade event (open interest at settlement). */
export interface StatsEvent {
  readonly kind: 'stats';
  readonly ticker: string;
}

export type MarketDataEvent = BookDelta | TradeEvent | StatsEvent;

/** What the `ticker` channel shows of a market at one moment. */
export interface TickerState {
  readonly ticker: string;
  readonly marketId: string;
  readonly lastPriceTicks: number | null;
  readonly bestBid: BookLevel | undefined;
  readonly bestAsk: BookLevel | undefined;
  readonly volumeUnits: number;
  readonly openInterestUnits: number;
  /** Contracts (hundredths) of the market's last trade; 0 before any. */
  readonly lastTradeUnits: number;
  /** Dollars traded so far: the sum of count x YES price over the market's trades. */
  readonly dollarVolume: Dec;
}

/** Both bid ladders of a book, best first: YES bids at YES prices, NO bids at NO prices. */
export interface BidLadders {
  readonly yesBids: readonly BookLevel[];
  readonly noBids: readonly BookLevel[];
}

/** The exchange as the market-data feed reads it (exchange.ts implements it). */
export interface MarketDataSource {
  /** The market's UUID (`market_id` on the WebSocket), undefined for an unknown ticker. */
  marketIdOf(ticker: string): string | undefined;
  tickerOfMarketId(marketId: string): string | undefined;
  bidLadders(ticker: string): BidLadders | undefined;
  tickerState(ticker: string): TickerState | undefined;
}
