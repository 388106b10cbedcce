import type { ApiKeyCreds } from '@polymarket/clob-client-v2';
import WebSocket from 'ws';
import { ReconnectingStream, type StreamConnection, type StreamOptions, type StreamStatus } from '../reconnectingStream';

/**
 * One Polymarket account's user channel: the authenticated WebSocket that pushes its `order` and
 * `trade` events (CLOB V2; docs.polymarket.com "User Channel", market-data/websocket/user-channel,
 * and "WebSocket overview"; the official client's examples/account/userSocket.ts,
 * github.com/Polymarket/clob-client-v2 at f3e1a05; the fake: docs/polymarket-fake.md).
 *
 * Protocol spoken here:
 * - the handshake carries nothing secret; the first message subscribes with the account's API
 *   credentials: `{"auth": {"apiKey", "secret", "passphrase"}, "markets": [], "type": "user"}`
 *   (no markets: every market of the account). The credentials are read from the session when each
 *   connection opens, sent in that frame only, and never kept, logged or put in a status;
 * - keep-alive: the text `PING` every `pingIntervalMs` (10 s, as the docs ask), answered `PONG`;
 * - data: one JSON object per frame (or an array of them), `event_type` `order` or `trade`; each
 *   goes to `onEvents` as the venue sent it (the owner maps it, idempotently by fill id).
 *
 * "Connected": the venue acknowledges no subscription, and drops one with wrong credentials without
 * a word (users report "Connection to remote host was lost" right after subscribing:
 * Polymarket/py-clob-client#204, #206). So a `PING` is sent right behind the subscription, and the
 * connection counts as subscribed when anything comes back; `onConnected` is called only then, so
 * a REST sweep the owner starts from it overlaps the live stream and leaves no hole. The venue
 * replays nothing a dropped socket missed: `reconnect` tells the owner it sweeps a gap. A socket
 * closed after the subscription and before that answer is `subscription_refused` (bad credentials,
 * most likely), retried after the longest backoff, like a refused handshake.
 *
 * Liveness, reconnects and backoff are those of every venue's stream (core/venues/
 * reconnectingStream.ts): after `staleAfterMs` of silence (default 25 s: two and a half of our
 * pings unanswered) the socket is terminated and replaced, so a feed that stays open but silent is
 * taken for dead. A handshake answered with a 4xx other than 429, or a subscription refused, waits
 * the longest backoff.
 *
 * Nothing here logs; the status and the callbacks carry only statuses and kinds written here.
 */

/** The docs: "send PING every 10 seconds". */
export const POLYMARKET_STREAM_DEFAULT_PING_MS = 10_000;
export const POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS = 25_000;
export const POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

export type PolymarketStreamProblemKind =
  | { readonly kind: 'handshake_refused'; readonly status: number }
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'no_credentials' }
  /** Closed after the subscription and before any answer: the venue's way of refusing credentials. */
  | { readonly kind: 'subscription_refused' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  /** One of the owner's callbacks threw or rejected; the owner's sweeps catch up. */
  | { readonly kind: 'callback_failed'; readonly callback: 'onEvents' | 'onConnected' };

export type PolymarketUserStreamStatus = StreamStatus<PolymarketStreamProblemKind>;

type Settled = void | Promise<unknown>;

/** `wsUrl`: the user channel (production wss://ws-subscriptions-clob.polymarket.com/ws/user). */
export interface PolymarketUserStreamOptions extends StreamOptions {
  /** The account's API credentials as they are now (the session's); undefined: not derived yet. */
  readonly creds: () => ApiKeyCreds | undefined;
  /** `order` and `trade` events, as the venue sent them. */
  readonly onEvents: (events: unknown[]) => Settled;
  /** Subscribed (the venue answered behind the subscription); `reconnect` on every connection after the first. */
  readonly onConnected?: (info: { reconnect: boolean }) => Settled;
  readonly pingIntervalMs?: number;
}

interface Connection extends StreamConnection<PolymarketStreamProblemKind> {
  subscriptionSent: boolean;
  pinger: NodeJS.Timeout | null;
}

export class PolymarketUserStream extends ReconnectingStream<PolymarketStreamProblemKind, Connection> {
  private readonly pingIntervalMs: number;

  constructor(private readonly options: PolymarketUserStreamOptions) {
    super('Polymarket', options, { staleAfterMs: POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS, handshakeTimeoutMs: POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS });
    this.pingIntervalMs = options.pingIntervalMs ?? POLYMARKET_STREAM_DEFAULT_PING_MS;
    if (!(this.pingIntervalMs > 0 && this.settings.staleAfterMs > this.pingIntervalMs)) throw new Error('PolymarketUserStream: pingIntervalMs must be positive and below staleAfterMs');
  }

  status(): PolymarketUserStreamStatus {
    return this.commonStatus();
  }

  // ---- Polymarket's protocol -----------------------------------------------------

  /** Nothing secret in the handshake: the credentials go in the subscription. */
  protected handshakeHeaders(): Record<string, string> {
    return {};
  }

  protected newConnection(common: StreamConnection<PolymarketStreamProblemKind>): Connection {
    return Object.assign(common, { subscriptionSent: false, pinger: null });
  }

  protected opened(conn: Connection): void {
    const creds = this.options.creds();
    if (creds === undefined) return this.end(conn, { kind: 'no_credentials' });
    conn.socket.send(JSON.stringify({ auth: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase }, markets: [], type: 'user' }));
    conn.socket.send('PING');
    conn.subscriptionSent = true;
    conn.pinger = setInterval(() => {
      if (conn.socket.readyState === WebSocket.OPEN) conn.socket.send('PING');
    }, this.pingIntervalMs);
    conn.pinger.unref();
  }

  /** The first answer behind the subscription: it was accepted. */
  protected override onHeard(conn: Connection): void {
    if (conn.subscriptionSent) this.subscribed(conn);
  }

  protected override endedBeforeSubscribed(): PolymarketStreamProblemKind {
    return { kind: 'subscription_refused' };
  }

  protected override ending(conn: Connection): void {
    if (conn.pinger !== null) clearInterval(conn.pinger);
    conn.pinger = null;
  }

  protected isRefusal(problem: PolymarketStreamProblemKind): boolean {
    return (problem.kind === 'handshake_refused' && problem.status >= 400 && problem.status < 500 && problem.status !== 429) || problem.kind === 'subscription_refused' || problem.kind === 'no_credentials';
  }

  protected connected(info: { reconnect: boolean }): Settled | undefined {
    return this.options.onConnected?.(info);
  }

  protected frame(_conn: Connection, text: string): void {
    if (text === 'PONG') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    const events = (Array.isArray(parsed) ? parsed : [parsed]).filter((event) => {
      const kind = typeof event === 'object' && event !== null ? (event as { event_type?: unknown }).event_type : undefined;
      return kind === 'order' || kind === 'trade';
    });
    if (events.length > 0) this.call('onEvents', () => this.options.onEvents(events));
  }
}
