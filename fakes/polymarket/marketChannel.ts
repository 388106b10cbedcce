/**
 * The Polymarket fake's market channel, reduced to the one message the fake has a use for: a
 * market's resolution (`market_resolved`). Production: wss://ws-subscriptions-clob.polymarket.com/ws/market;
 * the fake serves it at `/ws/market` on its own port (`fake.marketChannelUrl`).
 *
 * Protocol (docs.polymarket.com "Market Channel", api-reference/wss/market, its AsyncAPI `market`;
 * the official Rust client github.com/Polymarket/rs-clob-client at d84e8e1, src/clob/ws/types/
 * request.rs and response.rs):
 * - no credentials; the first message subscribes: `{"assets_ids": [token ids], "type": "market",
 *   "initial_dump"?, "level"?, "custom_feature_enabled"?}`. Afterwards `{"operation": "subscribe" |
 *   "unsubscribe", "assets_ids": [...], "custom_feature_enabled"?}` changes the assets.
 * - `market_resolved` (like `best_bid_ask` and `new_market`) is sent only to a subscription with
 *   `custom_feature_enabled: true` ("Enable custom features (`best_bid_ask`, `new_market`,
 *   `market_resolved`)", rs-clob-client request.rs), and only if it subscribed one of the market's
 *   assets.
 * - the frame (rs-clob-client response.rs `MarketResolved`; NautilusTrader's captured
 *   test_data/ws_market_resolved_msg.json): `event_type: "market_resolved"`, `id` (Gamma's market
 *   id), `question`, `market` (condition id), `slug`, `description`, `assets_ids`, `outcomes`,
 *   `winning_asset_id`, `winning_outcome`, `timestamp` (unix MILLISECONDS as a string), `tags`.
 * - text `PING` is answered `PONG` (docs "WebSocket overview").
 *
 * Choices where the sources are silent (docs/polymarket-fake.md): a first message that is not a
 * market subscription drops the socket without an answer (as the user channel does with bad
 * credentials); no `book`, `price_change`, `last_trade_price`, `tick_size_change`, `best_bid_ask` or
 * `new_market` message is sent, and no initial dump: a client that needs books reads `GET /book`.
 * A 50/50 split is announced with `winning_asset_id: ""` and `winning_outcome: ""` (no token won).
 *
 * A notice is a message like any other and can be lost, repeated or late (`announce`'s delivery,
 * the control API's `notice`); `dropAll` and `setFrozen` are the user channel's socket faults.
 */
import type { WebSocket } from 'ws';

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

interface Connection {
  readonly socket: WebSocket;
  subscribed: boolean;
  readonly assets: Set<string>;
  custom: boolean;
}

export class MarketChannel {
  private readonly connections = new Set<Connection>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private frozen = false;

  /** Sockets whose subscription was read. */
  get subscribedCount(): number {
    return [...this.connections].filter((c) => c.subscribed).length;
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

  /** Terminates every socket (no close frame). */
  dropAll(): void {
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
  }

  /** While frozen, sockets stay open and nothing is sent (no notices, no PONG); what arrives is ignored. */
  setFrozen(frozen: boolean): void {
    this.frozen = frozen;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.dropAll();
  }

  private sendTo(assets: readonly string[], text: string): number {
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
      for (const asset of assetsOf(message.assets_ids)) c.assets.add(asset);
      c.custom = message.custom_feature_enabled === true;
      return;
    }
    if (message === null) return;
    if (typeof message.custom_feature_enabled === 'boolean') c.custom = message.custom_feature_enabled;
    const assets = assetsOf(message.assets_ids);
    if (message.operation === 'subscribe') for (const a of assets) c.assets.add(a);
    else if (message.operation === 'unsubscribe') for (const a of assets) c.assets.delete(a);
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
