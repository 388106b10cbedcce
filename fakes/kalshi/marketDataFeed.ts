/**
 * Kalshi's public market-data channels on the fake's WebSocket (`/trade-api/ws/v2`, the signed
 * connection of userStreams.ts): `orderbook_delta`, `ticker`, `trade` (asyncapi.yaml 2.0.0, 2026;
 * docs.kalshi.com websockets pages mirrored 2026-08-22; frames recorded on demo 2026-06-11 in
 * XavierBriggs/Fortuna ws__orderbook_trade_noleg.jsonl). Message bodies: marketDataMessages.ts;
 * command parameters: marketDataParams.ts; injected faults: marketDataFaults.ts.
 *
 * Protocol as modelled:
 * - Every connection is signed: "Authentication is required to establish the connection ... Some
 *   channels carry only public market data, but the connection itself still requires
 *   authentication" (websocket-connection, 2026). An older quick-start page listed `ticker`,
 *   `trade`, ... as usable without auth; the fake follows the newer spec.
 * - `subscribe` with several channels answers one `subscribed` per channel, each its own `sid`,
 *   then (orderbook_delta) one `orderbook_snapshot` per market, `seq` 1, 2, ... on that sid, then
 *   `orderbook_delta` frames continuing the same `seq` (recorded: acks for sid 1 and 2, then the
 *   snapshot with seq 1, then deltas seq 2..5). `trade` frames count their own `seq` per sid;
 *   `ticker` frames have none (not in the schema's required fields nor the example).
 * - A channel may be subscribed more than once (code 6 "Already subscribed" is retired in the 2026
 *   spec); each subscription is independent.
 * - `use_yes_price` (orderbook only) reports NO-side levels at YES prices.
 * - `ticker` is sent "whenever any ticker field changes" (prices, sizes, volume, open interest:
 *   changelog 2026-02-12 "Size changes (even without price changes) now trigger ticker updates"),
 *   at most once per market per exchange operation (a sweep across levels is one update);
 *   `send_initial_snapshot: true` sends the current ticker of each named market at once.
 * - `update_subscription` (`sid` or `sids: [one]`): `add_markets` / `delete_markets` answer
 *   `{"type":"ok","id","sid","seq","msg":{"market_tickers":[... the full list after the update]}}`
 *   (okResponsePayload; `seq` assumed to be the subscription's current one, not consuming a
 *   number), added orderbook markets then get their snapshot; `get_snapshot` (orderbook only)
 *   answers an `orderbook_snapshot` carrying the command's `id` for each named market, without
 *   changing the subscription (assumed: no `ok` besides). On a subscription to every market, or
 *   on a channel the fake gives no market filter (private, lifecycle), the action is code 13
 *   "Unsupported action" (assumed).
 * - `client_order_id` rides on a delta only to the connections of the account whose order
 *   triggered it (the resting order itself when it rests or is canceled, the incoming order when a
 *   fill consumes a resting one); others get the same delta without it.
 * Not modelled: `skip_ticker_ack`, `market_id`-only filters on `trade`, per-subscription market
 * limits (code 26), command rate limits (code 27), buffer overflow (code 25), `subaccount`.
 */
import type { BookDelta, MarketDataEvent, MarketDataSource } from './marketDataEvents';
import { MarketDataFaults } from './marketDataFaults';
import { orderbookDeltaMsg, orderbookSnapshotMsg, tickerFields, tickerMsg, tradeMsg } from './marketDataMessages';
import {
  ACTION_REQUIRED,
  isCommandError,
  MARKET_TICKER_REQUIRED,
  namedMarkets,
  optionalBoolean,
  singleSid,
  UNSUPPORTED_ACTION,
  type CommandError,
} from './marketDataParams';

export const ORDERBOOK = 'orderbook_delta';
export const TICKER = 'ticker';
export const TRADE = 'trade';
export const MARKET_DATA_CHANNELS: ReadonlySet<string> = new Set([ORDERBOOK, TICKER, TRADE]);

/** One subscription of a connection, any channel. */
export interface Subscription {
  readonly sid: number;
  readonly channel: string;
  seq: number;
  /** Market-data channels: the markets carried, null for every market. Undefined elsewhere. */
  markets?: Set<string> | null;
  readonly useYesPrice?: boolean;
}

/** A WebSocket connection as the feed needs it (userStreams.ts owns them). */
export interface FeedConnection {
  readonly userId: string;
  readonly subscriptions: Map<number, Subscription>;
  nextSid: number;
  send(frame: object): void;
  error(id: unknown, code: number, msg: string): void;
}

const carries = (sub: Subscription, channel: string, ticker: string): boolean =>
  sub.channel === channel && sub.markets !== undefined && (sub.markets === null || sub.markets.has(ticker));

export class MarketDataFeed {
  readonly faults = new MarketDataFaults();
  /** The ticker fields last sent per market, to send only on change. */
  private readonly lastTicker = new Map<string, string>();
  private readonly pendingTickers = new Set<string>();
  private flushScheduled = false;

  constructor(
    private readonly source: MarketDataSource,
    private readonly connections: () => Iterable<FeedConnection>,
    private readonly now: () => number,
  ) {}

  // ---- commands -------------------------------------------------------------------

  /**
   * The market filter and options a subscribe gives these market-data channels, or the error that
   * refuses the whole command. Checked before anything is subscribed.
   */
  checkSubscribe(channels: readonly string[], params: Record<string, unknown>): CommandError | undefined {
    for (const channel of channels) {
      const named = namedMarkets(params, channel === TICKER ? (id) => this.source.tickerOfMarketId(id) : null);
      if (isCommandError(named)) return named;
      if (channel === ORDERBOOK && (named === undefined || named.length === 0)) return MARKET_TICKER_REQUIRED;
    }
    for (const flag of ['use_yes_price', 'send_initial_snapshot']) {
      const value = optionalBoolean(params[flag]);
      if (isCommandError(value)) return value;
    }
    return undefined;
  }

  /** Subscribes `channels` (already checked), answers `subscribed` for each, then the initial data. */
  subscribe(c: FeedConnection, id: unknown, channels: readonly string[], params: Record<string, unknown>): void {
    const created: Subscription[] = [];
    for (const channel of channels) {
      const named = namedMarkets(params, channel === TICKER ? (mid) => this.source.tickerOfMarketId(mid) : null) as string[] | undefined;
      const sub: Subscription = {
        sid: c.nextSid++,
        channel,
        seq: 0,
        markets: named === undefined ? null : new Set(named),
        useYesPrice: channel === ORDERBOOK && params.use_yes_price === true,
      };
      c.subscriptions.set(sub.sid, sub);
      created.push(sub);
      c.send({ type: 'subscribed', id, msg: { channel, sid: sub.sid } });
    }
    for (const sub of created) {
      const markets = [...(sub.markets ?? [])];
      if (sub.channel === ORDERBOOK) for (const ticker of markets) this.sendSnapshot(c, sub, ticker);
      if (sub.channel === TICKER && params.send_initial_snapshot === true) for (const ticker of markets) this.sendTicker(c, sub, ticker);
    }
  }

  /** `update_subscription` on one of the connection's subscriptions. */
  update(c: FeedConnection, id: unknown, params: Record<string, unknown>): void {
    const sid = singleSid(params);
    if (isCommandError(sid)) return c.error(id, sid.code, sid.msg);
    const action = params.action;
    if (action === undefined || action === '') return c.error(id, ACTION_REQUIRED.code, ACTION_REQUIRED.msg);
    const sub = c.subscriptions.get(sid);
    if (sub === undefined) return c.error(id, 7, 'Unknown subscription ID');
    if (sub.markets === undefined) return c.error(id, UNSUPPORTED_ACTION.code, UNSUPPORTED_ACTION.msg);
    const named = namedMarkets(params, sub.channel === TICKER ? (mid) => this.source.tickerOfMarketId(mid) : null);
    if (isCommandError(named)) return c.error(id, named.code, named.msg);

    if (action === 'get_snapshot') {
      if (sub.channel !== ORDERBOOK) return c.error(id, UNSUPPORTED_ACTION.code, UNSUPPORTED_ACTION.msg);
      if (named === undefined) return c.error(id, MARKET_TICKER_REQUIRED.code, MARKET_TICKER_REQUIRED.msg);
      for (const ticker of named) this.sendSnapshot(c, sub, ticker, id);
      return;
    }
    if (action !== 'add_markets' && action !== 'delete_markets') return c.error(id, UNSUPPORTED_ACTION.code, UNSUPPORTED_ACTION.msg);
    if (sub.markets === null) return c.error(id, UNSUPPORTED_ACTION.code, UNSUPPORTED_ACTION.msg);
    if (named === undefined) return c.error(id, MARKET_TICKER_REQUIRED.code, MARKET_TICKER_REQUIRED.msg);
    const markets = sub.markets;
    const added = action === 'add_markets' ? named.filter((t) => !markets.has(t)) : [];
    for (const ticker of named) {
      if (action === 'add_markets') markets.add(ticker);
      else markets.delete(ticker);
    }
    c.send({ type: 'ok', id, sid: sub.sid, seq: sub.seq, msg: { market_tickers: [...markets] } });
    if (sub.channel === ORDERBOOK) for (const ticker of added) this.sendSnapshot(c, sub, ticker);
    if (sub.channel === TICKER && params.send_initial_snapshot === true) for (const ticker of added) this.sendTicker(c, sub, ticker);
  }

  // ---- publishing -----------------------------------------------------------------

  /** An exchange event, to every subscription that carries its market (unless frozen). */
  publish(event: MarketDataEvent): void {
    const ticker = event.kind === 'trade' ? event.trade.ticker : event.ticker;
    if (event.kind === 'book_delta') this.publishDelta(event);
    if (event.kind === 'trade' && !this.faults.isFrozen(ticker)) {
      const msg = tradeMsg(event.trade);
      this.forEachCarrying(TRADE, ticker, (c, sub) => {
        sub.seq += 1;
        c.send({ type: 'trade', sid: sub.sid, seq: sub.seq, msg });
      });
    }
    this.scheduleTicker(ticker);
  }

  private publishDelta(delta: BookDelta): void {
    if (this.faults.isFrozen(delta.ticker)) return;
    const marketId = this.source.marketIdOf(delta.ticker);
    if (marketId === undefined) return;
    const gap = this.faults.takeGap(delta.ticker);
    this.forEachCarrying(ORDERBOOK, delta.ticker, (c, sub) => {
      sub.seq += 1;
      if (gap?.dropDelta === true) return;
      if (gap !== undefined) sub.seq += 1;
      const own = c.userId === delta.causedBy.userId ? delta.causedBy.clientOrderId : undefined;
      c.send({ type: 'orderbook_delta', sid: sub.sid, seq: sub.seq, msg: orderbookDeltaMsg(delta, marketId, sub.useYesPrice === true, own) });
    });
  }

  private sendSnapshot(c: FeedConnection, sub: Subscription, ticker: string, commandId?: unknown): void {
    const marketId = this.source.marketIdOf(ticker);
    const ladders = this.source.bidLadders(ticker);
    if (marketId === undefined || ladders === undefined || this.faults.isFrozen(ticker)) return;
    sub.seq += 1;
    c.send({
      type: 'orderbook_snapshot',
      ...(typeof commandId === 'number' ? { id: commandId } : {}),
      sid: sub.sid,
      seq: sub.seq,
      msg: orderbookSnapshotMsg(ticker, marketId, ladders, sub.useYesPrice === true),
    });
  }

  private sendTicker(c: FeedConnection, sub: Subscription, ticker: string): void {
    const state = this.source.tickerState(ticker);
    if (state === undefined || this.faults.isFrozen(ticker)) return;
    c.send({ type: 'ticker', sid: sub.sid, msg: tickerMsg(tickerFields(state), this.now()) });
  }

  /** Ticker updates are computed once the exchange operation that caused them is over. */
  private scheduleTicker(ticker: string): void {
    this.pendingTickers.add(ticker);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flushTickers());
  }

  private flushTickers(): void {
    this.flushScheduled = false;
    const tickers = [...this.pendingTickers];
    this.pendingTickers.clear();
    for (const ticker of tickers) {
      const state = this.source.tickerState(ticker);
      if (state === undefined || this.faults.isFrozen(ticker)) continue;
      const fields = tickerFields(state);
      const key = JSON.stringify(fields);
      if (this.lastTicker.get(ticker) === key) continue;
      this.lastTicker.set(ticker, key);
      const msg = tickerMsg(fields, this.now());
      this.forEachCarrying(TICKER, ticker, (c, sub) => c.send({ type: 'ticker', sid: sub.sid, msg }));
    }
  }

  private forEachCarrying(channel: string, ticker: string, visit: (c: FeedConnection, sub: Subscription) => void): void {
    for (const c of this.connections()) for (const sub of c.subscriptions.values()) if (carries(sub, channel, ticker)) visit(c, sub);
  }
}
