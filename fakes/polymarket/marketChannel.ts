/**
 * The Polymarket fake's market channel: the public WebSocket of CLOB V2 market data. Production:
 * wss://ws-subscriptions-clob.polymarket.com/ws/market; the fake serves it at `/ws/market` on its own
 * port (`fake.marketChannelUrl`).
 *
 * Protocol (docs.polymarket.com "Market Channel", market-data/websocket/market-channel, and its
 * AsyncAPI `market`; "WebSocket overview"; the official Rust client github.com/Polymarket/
 * rs-clob-client at d84e8e1, src/clob/ws/types/request.rs and response.rs):
 * - no credentials; the first message subscribes: `{"assets_ids": [token ids], "type": "market",
 *   "initial_dump"?, "level"?, "custom_feature_enabled"?}`. Afterwards `{"operation": "subscribe" |
 *   "unsubscribe", "assets_ids": [...], "custom_feature_enabled"?, "initial_dump"?}` changes the
 *   assets (rs-clob-client sends `initial_dump: true` with its subscribe operations).
 * - with market data on (the server's `marketData` option), a subscription is answered with ONE
 *   frame, a JSON ARRAY holding a `book` per subscribed token that has a book (with
 *   `last_trade_price`; a bare `[]` when none has: an unknown or closed token), unless
 *   `initial_dump: false`; a subscribe operation is answered the same way for the tokens it adds.
 *   Then every change of a subscribed token's book arrives as `price_change`, `last_trade_price`,
 *   `book` (after a trade) and `tick_size_change` messages, single JSON objects (marketFeed.ts has
 *   their shapes and sources). The array answer and the worst-first level order are what polyoxide
 *   pinned against the live venue on 2026-10-02 (docs/spec-deviations "Market channel").
 * - `best_bid_ask`, `new_market` and `market_resolved` are sent only to a subscription with
 *   `custom_feature_enabled: true` ("Enable custom features (`best_bid_ask`, `new_market`,
 *   `market_resolved`)", rs-clob-client request.rs), and only if it subscribed one of the assets.
 * - the `market_resolved` frame (rs-clob-client response.rs `MarketResolved`; NautilusTrader's
 *   captured test_data/ws_market_resolved_msg.json): `event_type: "market_resolved"`, `id` (Gamma's
 *   market id), `question`, `market` (condition id), `slug`, `description`, `assets_ids`, `outcomes`,
 *   `winning_asset_id`, `winning_outcome`, `timestamp` (unix MILLISECONDS as a string), `tags`.
 * - text `PING` is answered `PONG` (docs "WebSocket overview": the client pings every 10 s).
 *
 * Choices where the sources are silent (docs/polymarket-fake.md): a first message that is not a
 * market subscription drops the socket without an answer (as the user channel does with bad
 * credentials); `level` is accepted and ignored; no `new_market` message. A 50/50 split is announced
 * with `winning_asset_id: ""` and `winning_outcome: ""` (no token won). Without the `marketData`
 * option the channel carries `market_resolved` only, with no initial dump (the fake as it was
 * before its market data).
 *
 * Faults, as Polymarket has them:
 * - a frozen FEED (`freezeFeed`): the socket stays open and PING is still answered PONG, but no
 *   data message goes out (the changes of that time, a `market_resolved` too, are lost, not
 *   queued; a subscription gets no initial dump) until thawed: a consumer sees it only by the
 *   silence, or by the hash of the next message after the thaw.
 * - lost messages (`loseNext`): the next n messages of a type (default `price_change`), for one
 *   token or any, reach no subscriber; the message after it carries a hash its book no longer
 *   matches.
 * - `dropAll`: every socket terminated (no close frame); a client reconnects and subscribes again,
 *   and the initial dump brings it fresh books.
 * - `setFrozen`: the socket freeze of fakes/faults.ts (nothing at all is sent, not even PONG), and
 *   a notice's delivery (`announce`: lost, repeated or late).
 */
import type { WebSocket } from 'ws';
import type { MarketEventType, MarketFeed, MarketFeedSink, MarketMessage } from './marketFeed';

export const MARKET_CHANNEL_PATH = '/ws/market';

/** How one notice reaches the sockets that should hear it. */
export type NoticeDelivery =
  | { readonly kind: 'sent' }
  | { readonly kind: 'lost' }
  /** Sent `times` times in a row (at least 2). */
  | { readonly kind: 'repeated'; readonly times: number }
  /** Sent once, `ms` later (to the sockets that hear it then). */
  | { readonly kind: 'late'; readonly ms: number };

/** The `market_resolved` message (rs-clob-client `MarketResolved`). */
export interface MarketResolvedFrame {
  readonly event_type: 'market_resolved';
  readonly id: string;
  readonly question: string;
  readonly market: string;
  readonly slug: string;
  readonly description: string;
  readonly assets_ids: readonly string[];
  readonly outcomes: readonly string[];
  readonly winning_asset_id: string;
  readonly winning_outcome: string;
  readonly timestamp: string;
  readonly tags: readonly string[];
}

/** Messages to lose: the next `remaining` of `eventType` (for `assetId`, or any token). */
export interface MessageLoss {
  readonly eventType: MarketEventType;
  readonly assetId?: string;
  remaining: number;
}

interface Connection {
  readonly socket: WebSocket;
  subscribed: boolean;
  readonly assets: Set<string>;
  custom: boolean;
}

export class MarketChannel implements MarketFeedSink {
  private readonly connections = new Set<Connection>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private frozen = false;
  private feedFrozen = false;
  private losses: MessageLoss[] = [];
  /** The market data messages' source; null: the channel carries `market_resolved` only. */
  private feed: MarketFeed | null = null;

  /** Sockets whose subscription was read. */
  get subscribedCount(): number {
    return [...this.connections].filter((c) => c.subscribed).length;
  }

  /** Whether the feed is frozen (`freezeFeed`). */
  get isFeedFrozen(): boolean {
    return this.feedFrozen;
  }

  /** Losses still to happen. */
  get pendingLosses(): readonly Readonly<MessageLoss>[] {
    return this.losses.map((l) => ({ ...l }));
  }

  /** Market data on: the feed's messages and the initial dump (the server's `marketData` option). */
  carry(feed: MarketFeed): void {
    this.feed = feed;
    feed.setSink(this);
  }

  attach(socket: WebSocket): void {
    const connection: Connection = { socket, subscribed: false, assets: new Set(), custom: false };
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => {
      if (!this.frozen) this.onMessage(connection, isBinary ? '' : data.toString());
    });
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => this.connections.delete(connection));
  }

  /** A feed message to the sockets subscribed to its token (custom ones only for a custom message), unless frozen or lost. */
  publish(message: MarketMessage): void {
    if (this.feed === null || this.feedFrozen) return;
    const loss = this.losses.find((l) => l.eventType === message.eventType && (l.assetId === undefined || l.assetId === message.assetId));
    if (loss !== undefined) {
      loss.remaining -= 1;
      if (loss.remaining <= 0) this.losses = this.losses.filter((l) => l !== loss);
      return;
    }
    const text = JSON.stringify(message.frame);
    for (const c of this.connections) {
      if (c.subscribed && c.assets.has(message.assetId) && (!message.custom || c.custom)) this.send(c, text);
    }
  }

  /** While frozen, no data message goes out (lost, not queued); sockets stay open and PING is answered. */
  freezeFeed(frozen: boolean): void {
    this.feedFrozen = frozen;
  }

  /** The next `count` messages of `eventType` (for `assetId`, or any token) reach nobody. */
  loseNext(count: number, eventType: MarketEventType = 'price_change', assetId?: string): void {
    if (count > 0) this.losses.push({ eventType, ...(assetId === undefined ? {} : { assetId }), remaining: count });
  }

  /** No more losses pending. */
  clearLosses(): void {
    this.losses = [];
  }

  /**
   * Announces a resolution to the sockets that hear it (custom features on, one of its assets
   * subscribed), as `delivery` says. Answers how many sockets hear it now (0 when lost or late).
   */
  announce(frame: MarketResolvedFrame, delivery: NoticeDelivery): number {
    const text = JSON.stringify(frame);
    if (delivery.kind === 'lost') return 0;
    if (delivery.kind === 'late') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.sendTo(frame.assets_ids, text);
      }, delivery.ms);
      timer.unref();
      this.timers.add(timer);
      return 0;
    }
    const times = delivery.kind === 'repeated' ? delivery.times : 1;
    let hearing = 0;
    for (let i = 0; i < times; i += 1) hearing = this.sendTo(frame.assets_ids, text);
    return hearing;
  }

  /** Terminates every socket (no close frame); answers how many there were. */
  dropAll(): number {
    const count = this.connections.size;
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
    return count;
  }

  /** While frozen, sockets stay open and nothing is sent (no notices, no data, no PONG); what arrives is ignored. */
  setFrozen(frozen: boolean): void {
    this.frozen = frozen;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.feed?.setSink(null);
    this.dropAll();
  }

  private sendTo(assets: readonly string[], text: string): number {
    if (this.feedFrozen) return 0; // a frozen feed says nothing, a resolution neither
    let sent = 0;
    for (const c of this.connections) {
      if (c.subscribed && c.custom && assets.some((a) => c.assets.has(a)) && this.send(c, text)) sent += 1;
    }
    return sent;
  }

  private onMessage(c: Connection, text: string): void {
    if (text === 'PING') {
      this.send(c, 'PONG');
      return;
    }
    let message: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) message = parsed as Record<string, unknown>;
    } catch {
      message = null;
    }
    if (!c.subscribed) {
      const typeOk = typeof message?.type === 'string' && message.type.toLowerCase() === 'market';
      if (message === null || !typeOk || !Array.isArray(message.assets_ids)) {
        c.socket.terminate();
        this.connections.delete(c);
        return;
      }
      c.subscribed = true;
      const assets = assetsOf(message.assets_ids);
      for (const asset of assets) c.assets.add(asset);
      c.custom = message.custom_feature_enabled === true;
      if (message.initial_dump !== false) this.dump(c, assets);
      return;
    }
    if (message === null) return;
    if (typeof message.custom_feature_enabled === 'boolean') c.custom = message.custom_feature_enabled;
    const assets = assetsOf(message.assets_ids);
    if (message.operation === 'subscribe') {
      const added = assets.filter((a) => !c.assets.has(a));
      for (const a of added) c.assets.add(a);
      if (added.length > 0 && message.initial_dump !== false) this.dump(c, added);
    } else if (message.operation === 'unsubscribe') {
      for (const a of assets) c.assets.delete(a);
    }
  }

  /** The initial dump: one array frame of the tokens' books (`[]` when none has one). */
  private dump(c: Connection, assets: readonly string[]): void {
    if (this.feed === null || this.feedFrozen) return;
    this.send(c, JSON.stringify(this.feed.snapshot([...new Set(assets)])));
  }

  private send(c: Connection, text: string): boolean {
    if (this.frozen || c.socket.readyState !== c.socket.OPEN) return false;
    c.socket.send(text);
    return true;
  }
}

function assetsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
}
