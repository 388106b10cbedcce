/**
 * What the Polymarket fake's books say on the market channel: after every change on the exchange
 * (an order resting, a cancel or expiry, a trade, the market maker's quotes, a tick size change)
 * this module compares the token's aggregated levels with what it last published and builds the
 * venue's messages for exactly that difference. marketChannel.ts delivers them (and may lose or hold
 * them: the faults); priceHistory.ts's displayed prices are recorded here too.
 *
 * Shapes (CLOB V2 market channel as of 2026-11; key order as captured from the live venue):
 * - `book`: `{market, asset_id, timestamp, hash, bids, asks, tick_size, event_type: "book",
 *   last_trade_price}` (NautilusTrader test_data/ws_book_snapshot_captured.json and the first frame
 *   of ws_market_price_change_crossing_burst.json, both 2026, their hashes reproduced by
 *   bookSummary.ts). Bids ascending, asks descending (best LAST), as on `GET /book`. `hash` is the
 *   hash of the token's full `OrderBookSummary` at the message's timestamp (so over
 *   `min_order_size`, `neg_risk` and `last_trade_price` too, which this message does not all carry).
 *   Sent as the initial dump (marketChannel.ts) and after every trade on the token ("Emitted when
 *   first subscribed to a market and when there is a trade that affects the book", docs.polymarket.com
 *   "Market Channel"). A book sent after a trade has no `last_trade_price` key: clients report it
 *   only on the snapshot after connecting (Polymarket/py-clob-client#232, comment of 2026-02-05);
 *   its hash is still over the new last trade price, which the `last_trade_price` message sent
 *   just before it carries.
 * - `price_change`: `{market, price_changes: [{asset_id, price, size, side, hash, best_bid,
 *   best_ask}], timestamp, event_type: "price_change"}` ("Emitted when a new order is placed or an
 *   order is cancelled"; the docs' example and the 2026 capture above). `size` is the level's NEW
 *   total ("0": the level is gone), `side` BUY for a bid level and SELL for an ask level, `hash` the
 *   token's summary hash after the change with the message's timestamp (verified on the capture),
 *   `best_bid`/`best_ask` after the change, "0" and "1" for an empty side (the docs' example).
 * - `last_trade_price`: `{asset_id, event_type, fee_rate_bps, market, price, side, size,
 *   timestamp}` (keys alphabetical, as in the docs' example; rs-clob-client at d84e8e1,
 *   src/clob/ws/types/response.rs `LastTradePrice`): one per price level a taker order filled at, in
 *   fill order, `side` the taker's, `size` the shares at that price, `fee_rate_bps` "0" (the fake
 *   charges no fees), `price` in its shortest form like REST `/last-trade-price`.
 * - `tick_size_change`: `{event_type, asset_id, market, old_tick_size, new_tick_size, timestamp}`
 *   (the docs' example).
 * - `best_bid_ask` (only to subscriptions with `custom_feature_enabled`): `{event_type, market,
 *   asset_id, best_bid, best_ask, spread, timestamp}` when a token's best bid or best ask price
 *   changes (docs' example; NautilusTrader test_data/ws_market_best_bid_ask_msg.json). An empty
 *   side is "0" / "1" as in `price_change` (an assumption: the venue's value is not documented).
 * Every timestamp is unix milliseconds as a string.
 *
 * Not modelled: the venue keeps a binary market's two books as mirrors of one order book (a BUY of
 * YES at p rests as a SELL of NO at 1 - p), so each of its `price_change` messages carries one
 * entry per token of the market; the fake's books are independent (markets.ts), so an entry is
 * only ever about the token whose book changed. A market that ended (its books gone) publishes
 * nothing more. No `new_market` message.
 */
import type { PolymarketEvent, PolymarketExchange, TradeRecord } from './exchange';
import type { TokenSeed } from './markets';
import { priceText, sizeText, type OrderBookSummary } from './bookSummary';
import { DisplayPrices, displayPrice } from './priceHistory';
import { PRICE_TICKS_PER_DOLLAR } from './units';

export type MarketEventType = 'book' | 'price_change' | 'last_trade_price' | 'tick_size_change' | 'best_bid_ask';
export const MARKET_EVENT_TYPES: readonly MarketEventType[] = ['book', 'price_change', 'last_trade_price', 'tick_size_change', 'best_bid_ask'];

/** One message of the feed, for the token it is about. */
export interface MarketMessage {
  readonly eventType: MarketEventType;
  readonly assetId: string;
  /** Only for subscriptions with `custom_feature_enabled` (`best_bid_ask`). */
  readonly custom: boolean;
  readonly frame: Record<string, unknown>;
}

export interface MarketFeedSink {
  publish(message: MarketMessage): void;
}

interface Levels {
  /** price ticks -> units */
  readonly bids: ReadonlyMap<number, number>;
  readonly asks: ReadonlyMap<number, number>;
  readonly bestBid: number | null;
  readonly bestAsk: number | null;
}

const EMPTY: Levels = { bids: new Map(), asks: new Map(), bestBid: null, bestAsk: null };

/** A `book` message of a summary; `withLastTrade` for the initial dump only. */
export function bookFrame(summary: OrderBookSummary, withLastTrade: boolean): Record<string, unknown> {
  return {
    market: summary.market,
    asset_id: summary.asset_id,
    timestamp: summary.timestamp,
    hash: summary.hash,
    bids: summary.bids,
    asks: summary.asks,
    tick_size: summary.tick_size,
    event_type: 'book',
    ...(withLastTrade ? { last_trade_price: summary.last_trade_price } : {}),
  };
}

export class MarketFeed {
  /** Each token's displayed price over time (`GET /prices-history`). */
  readonly prices = new DisplayPrices();
  private readonly published = new Map<string, Levels>();
  private readonly tradesSeen = new Set<string>();
  private sink: MarketFeedSink | null = null;

  constructor(
    private readonly exchange: PolymarketExchange,
    private readonly clock: () => number,
  ) {
    for (const token of exchange.tokenList()) this.published.set(token.tokenId, this.read(token.tokenId));
    exchange.events.on((event) => this.onEvent(event));
  }

  /** Where messages go (the market channel); null: nowhere (the state and prices are still kept). */
  setSink(sink: MarketFeedSink | null): void {
    this.sink = sink;
  }

  /** The initial dump's `book` messages for these tokens: one per token that has a book, now. */
  snapshot(assetIds: readonly string[]): Record<string, unknown>[] {
    const now = this.clock();
    return assetIds.flatMap((assetId) => {
      const summary = this.exchange.summaryOf(assetId, now);
      return summary === undefined ? [] : [bookFrame(summary, true)];
    });
  }

  /** The token's tick size changed: a `tick_size_change` (the book's next hashes are over the new tick). */
  tickSizeChanged(token: TokenSeed, oldTickSize: string): void {
    if (this.exchange.isClosed(token.conditionId)) return;
    this.publish('tick_size_change', token.tokenId, false, {
      event_type: 'tick_size_change',
      asset_id: token.tokenId,
      market: token.conditionId,
      old_tick_size: oldTickSize,
      new_tick_size: token.tickSize,
      timestamp: String(this.clock()),
    });
  }

  private onEvent(event: PolymarketEvent): void {
    if (event.kind === 'trade') {
      const { trade } = event;
      if (trade.status !== 'MATCHED' || this.tradesSeen.has(trade.id)) return;
      this.tradesSeen.add(trade.id);
      this.traded(trade);
      return;
    }
    // A resting order's partial fill (UPDATE), or an order that traded on arrival (the trade
    // follows at once): the trade's messages show the book after all of it.
    if (event.type === 'UPDATE' || (event.type === 'PLACEMENT' && event.order.matchedUnits > 0)) return;
    this.levelsChanged(event.order.token);
  }

  /** An order rested or left the book: a `price_change` for each level whose size changed. */
  private levelsChanged(token: TokenSeed): void {
    const now = this.clock();
    const before = this.published.get(token.tokenId) ?? EMPTY;
    const after = this.update(token, now);
    const summary = this.exchange.summaryOf(token.tokenId, now);
    if (summary === undefined) return; // the market ended: its book is gone, nothing more is said
    const changes = [...diff(before.bids, after.bids, 'BUY'), ...diff(before.asks, after.asks, 'SELL')];
    if (changes.length === 0) return;
    const [bestBid, bestAsk] = bestPrices(after);
    this.publish('price_change', token.tokenId, false, {
      market: token.conditionId,
      price_changes: changes.map((c) => ({
        asset_id: token.tokenId,
        price: priceText(c.priceTicks),
        size: sizeText(c.units),
        side: c.side,
        hash: summary.hash,
        best_bid: bestBid,
        best_ask: bestAsk,
      })),
      timestamp: String(now),
      event_type: 'price_change',
    });
    this.bestBidAsk(token, before, after, now);
  }

  /** A taker order traded: its `last_trade_price` messages, then the token's `book`. */
  private traded(trade: TradeRecord): void {
    const token = trade.taker.token;
    const now = this.clock();
    const before = this.published.get(token.tokenId) ?? EMPTY;
    const after = this.update(token, now);
    const byPrice: { priceTicks: number; units: number }[] = [];
    for (const maker of trade.makers) {
      const last = byPrice[byPrice.length - 1];
      if (last !== undefined && last.priceTicks === maker.priceTicks) last.units += maker.units;
      else byPrice.push({ priceTicks: maker.priceTicks, units: maker.units });
    }
    for (const fill of byPrice) {
      this.publish('last_trade_price', token.tokenId, false, {
        asset_id: token.tokenId,
        event_type: 'last_trade_price',
        fee_rate_bps: '0',
        market: token.conditionId,
        price: priceText(fill.priceTicks),
        side: trade.taker.side,
        size: sizeText(fill.units),
        timestamp: String(now),
      });
    }
    const summary = this.exchange.summaryOf(token.tokenId, now);
    if (summary !== undefined) this.publish('book', token.tokenId, false, bookFrame(summary, false));
    this.bestBidAsk(token, before, after, now);
  }

  private bestBidAsk(token: TokenSeed, before: Levels, after: Levels, now: number): void {
    if (before.bestBid === after.bestBid && before.bestAsk === after.bestAsk) return;
    const [bestBid, bestAsk] = bestPrices(after);
    const spread = (after.bestAsk ?? PRICE_TICKS_PER_DOLLAR) - (after.bestBid ?? 0);
    this.publish('best_bid_ask', token.tokenId, true, {
      event_type: 'best_bid_ask',
      market: token.conditionId,
      asset_id: token.tokenId,
      best_bid: bestBid,
      best_ask: bestAsk,
      spread: priceText(spread),
      timestamp: String(now),
    });
  }

  /** Reads the token's levels now, remembers them as published, and records its displayed price. */
  private update(token: TokenSeed, now: number): Levels {
    const levels = this.read(token.tokenId);
    this.published.set(token.tokenId, levels);
    this.prices.record(token.tokenId, now, displayPrice(levels.bestBid, levels.bestAsk, this.exchange.lastTradePriceOf(token.tokenId), PRICE_TICKS_PER_DOLLAR));
    return levels;
  }

  private read(tokenId: string): Levels {
    const depth = this.exchange.depthOf(tokenId);
    if (depth === undefined) return EMPTY;
    return {
      bids: new Map(depth.bids.map((l) => [l.priceTicks, l.quantity])),
      asks: new Map(depth.asks.map((l) => [l.priceTicks, l.quantity])),
      bestBid: depth.bids[0]?.priceTicks ?? null,
      bestAsk: depth.asks[0]?.priceTicks ?? null,
    };
  }

  private publish(eventType: MarketEventType, assetId: string, custom: boolean, frame: Record<string, unknown>): void {
    this.sink?.publish({ eventType, assetId, custom, frame });
  }
}

function diff(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, side: 'BUY' | 'SELL') {
  const prices = new Set([...before.keys(), ...after.keys()]);
  return [...prices]
    .sort((a, b) => a - b)
    .filter((priceTicks) => (before.get(priceTicks) ?? 0) !== (after.get(priceTicks) ?? 0))
    .map((priceTicks) => ({ priceTicks, units: after.get(priceTicks) ?? 0, side }));
}

/** `best_bid` and `best_ask` as the channel writes them: "0" and "1" for an empty side. */
function bestPrices(levels: Levels): [string, string] {
  return [levels.bestBid === null ? '0' : priceText(levels.bestBid), levels.bestAsk === null ? '1' : priceText(levels.bestAsk)];
}
