import WebSocket from 'ws';
import { ReconnectingStream, type StreamConnection, type StreamOptions, type StreamStatus } from '../reconnectingStream';
import { POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS, POLYMARKET_STREAM_DEFAULT_PING_MS, POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS } from './userStream';

/**
 * Polymarket's market channel: the public WebSocket of CLOB V2 market data (docs.polymarket.com
 * "Market Channel", market-data/websocket/market-channel, and "WebSocket overview"; the official
 * Rust client github.com/Polymarket/rs-clob-client at d84e8e1, src/clob/ws/types/request.rs; the
 * fake: fakes/polymarket/marketChannel.ts, docs/polymarket-fake.md "Public market data"). One
 * connection carries every token asked for; the owner (bookFeed.ts) keeps the books.
 *
 * Protocol spoken here:
 * - nothing in the handshake; the first message subscribes: `{"assets_ids": [...], "type": "market"}`
 *   with every token the owner follows when the connection opens (`assets()`); the venue answers
 *   with one array frame of a `book` per token;
 * - later, `{"operation": "subscribe" | "unsubscribe", "assets_ids": [...]}` adds or drops tokens on
 *   the open connection (a subscribe is answered with the added tokens' books); `resubscribe` drops
 *   a token and adds it again, for a fresh `book` of it;
 * - keep-alive: the text `PING` every `pingIntervalMs` (10 s, as the docs ask), answered `PONG`;
 * - data: frames go to `onFrame` as text (`PONG` excepted).
 *
 * "Connected": anything heard behind the subscription (its answer or the `PONG` of the `PING` sent
 * right behind it). Liveness, reconnects and backoff are those of every venue's stream
 * (core/venues/reconnectingStream.ts): after `staleAfterMs` (25 s) of silence, the socket is taken
 * for dead and replaced. A feed that stays open, answers `PONG` and says nothing (a frozen feed) is
 * not seen here: the owner's quiet check sees it. Each connection that ends is told (`onLost`),
 * once: whatever it would have said meanwhile is lost.
 *
 * Nothing here logs; the status carries only kinds written here. All timers are unref'd.
 */

export type PolymarketMarketStreamProblem =
  | { readonly kind: 'handshake_refused'; readonly status: number }
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  | { readonly kind: 'callback_failed'; readonly callback: 'onFrame' | 'onConnected' | 'onLost' };

export type PolymarketMarketStreamStatus = StreamStatus<PolymarketMarketStreamProblem>;

/** `wsUrl`: the market channel (production wss://ws-subscriptions-clob.polymarket.com/ws/market). */
export interface PolymarketMarketStreamOptions extends StreamOptions {
  /** The tokens to subscribe when a connection opens. */
  readonly assets: () => readonly string[];
  /** A text frame of the channel (a JSON object or array), in order. */
  readonly onFrame: (text: string) => void;
  /** The subscription of a connection is live. */
  readonly onConnected?: () => void;
  /** A connection that had been opened ended (whatever it would have said since is lost). */
  readonly onLost?: () => void;
  readonly pingIntervalMs?: number;
}

interface Connection extends StreamConnection<PolymarketMarketStreamProblem> {
  /** The tokens this connection is subscribed to (null until its subscription is sent). */
  assets: Set<string> | null;
  pinger: NodeJS.Timeout | null;
  lostTold: boolean;
}

export class PolymarketMarketStream extends ReconnectingStream<PolymarketMarketStreamProblem, Connection> {
  private readonly pingIntervalMs: number;

  constructor(private readonly options: PolymarketMarketStreamOptions) {
    super('Polymarket', options, { staleAfterMs: POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS, handshakeTimeoutMs: POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS });
    this.pingIntervalMs = options.pingIntervalMs ?? POLYMARKET_STREAM_DEFAULT_PING_MS;
    if (!(this.pingIntervalMs > 0 && this.settings.staleAfterMs > this.pingIntervalMs)) throw new Error('PolymarketMarketStream: pingIntervalMs must be positive and below staleAfterMs');
  }

  status(): PolymarketMarketStreamStatus {
    return this.commonStatus();
  }

  /** Adds tokens to the open connection's subscription (a connection still to open subscribes `assets()`). */
  subscribe(assetIds: readonly string[]): void {
    const conn = this.live();
    if (conn === null) return;
    const added = assetIds.filter((id) => !conn.assets!.has(id));
    if (added.length === 0) return;
    for (const id of added) conn.assets!.add(id);
    conn.socket.send(JSON.stringify({ operation: 'subscribe', assets_ids: added }));
  }

  unsubscribe(assetIds: readonly string[]): void {
    const conn = this.live();
    if (conn === null) return;
    const dropped = assetIds.filter((id) => conn.assets!.has(id));
    if (dropped.length === 0) return;
    for (const id of dropped) conn.assets!.delete(id);
    conn.socket.send(JSON.stringify({ operation: 'unsubscribe', assets_ids: dropped }));
  }

  /** Drops the token and subscribes it again: the venue answers with its `book`. */
  resubscribe(assetId: string): void {
    const conn = this.live();
    if (conn === null) return;
    if (conn.assets!.has(assetId)) conn.socket.send(JSON.stringify({ operation: 'unsubscribe', assets_ids: [assetId] }));
    conn.assets!.add(assetId);
    conn.socket.send(JSON.stringify({ operation: 'subscribe', assets_ids: [assetId] }));
  }

  /** The current connection, once its subscription is sent and while it is open. */
  private live(): Connection | null {
    const conn = this.current;
    return conn !== null && conn.assets !== null && conn.socket.readyState === WebSocket.OPEN && !this.isStopped ? conn : null;
  }

  // ---- Polymarket's protocol -----------------------------------------------------

  protected handshakeHeaders(): Record<string, string> {
    return {};
  }

  protected newConnection(common: StreamConnection<PolymarketMarketStreamProblem>): Connection {
    return Object.assign(common, { assets: null, pinger: null, lostTold: false });
  }

  protected opened(conn: Connection): void {
    const assets = [...new Set(this.options.assets())];
    conn.socket.send(JSON.stringify({ assets_ids: assets, type: 'market' }));
    conn.socket.send('PING');
    conn.assets = new Set(assets);
    conn.pinger = setInterval(() => {
      if (conn.socket.readyState === WebSocket.OPEN) conn.socket.send('PING');
    }, this.pingIntervalMs);
    conn.pinger.unref();
  }

  protected override onHeard(conn: Connection): void {
    if (conn.assets !== null) this.subscribed(conn);
  }

  protected override ending(conn: Connection): void {
    if (conn.pinger !== null) clearInterval(conn.pinger);
    conn.pinger = null;
    if (conn.opened && !conn.lostTold) {
      conn.lostTold = true;
      if (!this.isStopped) this.call('onLost', () => this.options.onLost?.());
    }
  }

  /** A refused handshake (4xx but 429) waits the longest backoff; the channel takes no credentials to refuse. */
  protected isRefusal(problem: PolymarketMarketStreamProblem): boolean {
    return problem.kind === 'handshake_refused' && problem.status >= 400 && problem.status < 500 && problem.status !== 429;
  }

  protected connected(): undefined {
    this.options.onConnected?.();
    return undefined;
  }

  protected frame(_conn: Connection, text: string): void {
    if (text === 'PONG') return;
    this.call('onFrame', () => this.options.onFrame(text));
  }
}
