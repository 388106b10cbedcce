import type { StreamBackoff, StreamConnection, StreamOptions, StreamState } from '../reconnectingStream';
import { KalshiSignedStream, type KalshiConnection, type KalshiHandshakeRefused } from './signedStream';
import type { KalshiSigner } from './signing';

/**
 * One Kalshi credential's private WebSocket stream: channels `fill` and `user_orders` (and the public `market_lifecycle_v2` when asked)
 * (Trade API v2 WebSocket `/trade-api/ws/v2`, docs.kalshi.com websockets "Connection", "Subscribe",
 * "User Fills", "User Orders", "Connection Keep-Alive", "Errors", as of 2026-08; the fake:
 * docs/kalshi-fake.md).
 *
 * Protocol spoken here:
 * - handshake `GET /trade-api/ws/v2` with the three signed headers, a fresh signature (timestamp in
 *   milliseconds) for every connection attempt (signing.ts `webSocket()`);
 * - one command `{"id", "cmd": "subscribe", "params": {"channels": ["fill", "user_orders"]}}`,
 *   answered by one `{"type": "subscribed", "id", "msg": {"channel", "sid"}}` per channel;
 * - data frames `{"type": "fill" | "user_order", "sid", "seq", "msg"}`: each `msg` goes, as Kalshi
 *   sent it, to `onFills` / `onUserOrders` (one frame, one call with a one-element array; the
 *   owner maps and applies it idempotently by the venue's fill id);
 * - error frames `{"type": "error", "id"?, "msg": {"code", "msg"}}` become `status().lastProblem`;
 *   other frame types are ignored;
 * - keep-alive: Kalshi pings every 10 s with body `heartbeat`; `ws` answers with a pong itself.
 *
 * Liveness: every frame, ping or pong counts as a sign of life. After `staleAfterMs / 2` of silence
 * the stream sends one ping of its own (Kalshi documents client pings: "Client sends Ping frame to
 * elicit Pong"), so a quiet connection whose server pings stopped or slowed is not taken for dead;
 * after `staleAfterMs` of silence (default 25 s, 2.5 x Kalshi's ping interval) the socket is
 * terminated (a frozen peer would never finish a close handshake) and the stream reconnects.
 *
 * "Connected" means subscribed to every channel asked for: `onConnected` is called only then, so a REST sweep
 * the owner starts from it overlaps the live stream and leaves no hole. `reconnect: true` on every
 * connection after the first: Kalshi does not replay what a dropped socket missed, so the owner
 * sweeps `GET /portfolio/fills` for the gap. A `seq` that skips within one subscription is a gap
 * too (`onGap`, `status().gaps`). A handshake, or a subscription, not done within
 * `handshakeTimeoutMs` ends the attempt.
 *
 * Reconnects, backoff and the stale check are those of every venue's stream
 * (core/venues/reconnectingStream.ts). A handshake refused with a 4xx other than 429 (401: a bad
 * key, a key of the other environment, a clock off by more than Kalshi's window) waits `maxMs`
 * every time and shows as `lastProblem: handshake_refused`.
 *
 * Nothing here logs, and nothing exposes a header, a signature or a key: the status and the
 * callbacks carry only Kalshi's codes, statuses and messages written here.
 */

export type KalshiStreamChannel = 'fill' | 'user_orders' | 'market_lifecycle_v2';

export type KalshiStreamBackoff = StreamBackoff;

export interface KalshiStreamGap {
  readonly channel: KalshiStreamChannel;
  readonly sid: number;
  readonly expectedSeq: number;
  readonly receivedSeq: number;
}

/** Why the last connection or attempt ended, or what the venue complained about. */
export type KalshiStreamProblemKind =
  | KalshiHandshakeRefused
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  /** An error frame: Kalshi's numeric code and message (e.g. 8 "Unknown channel name"). */
  | { readonly kind: 'venue_error'; readonly code: number; readonly message: string }
  /** One of the owner's callbacks threw or rejected; the owner should sweep. */
  | { readonly kind: 'callback_failed'; readonly callback: 'onFills' | 'onUserOrders' | 'onConnected' | 'onGap' | 'onMarketLifecycle' };

export type KalshiStreamProblem = KalshiStreamProblemKind & { readonly atMs: number };

export type KalshiStreamState = StreamState;

export interface KalshiUserStreamStatus {
  /** `closed` before `start()` and after `close()`. */
  readonly state: KalshiStreamState;
  /** The last frame, ping or pong heard on any connection. */
  readonly lastMessageAtMs: number | null;
  /** Since when the current connection is subscribed; null when not connected. */
  readonly connectedSinceMs: number | null;
  /** Connection attempts (handshakes started). */
  readonly attempts: number;
  /** Subscribed connections after the first one. */
  readonly reconnects: number;
  /** `seq` gaps seen. */
  readonly gaps: number;
  /** While backing off: the wait chosen and when the next attempt starts. */
  readonly backoffMs: number | null;
  readonly retryAtMs: number | null;
  readonly lastProblem: KalshiStreamProblem | null;
}

type Settled = void | Promise<void>;

/** `wsUrl`: the credential's environment's WebSocket URL (endpoints.ts `wsUrl`); `handshakeTimeoutMs` limits the handshake, and again the subscription answers. */
export interface KalshiUserStreamOptions extends StreamOptions {
  readonly signer: KalshiSigner;
  readonly onFills: (messages: unknown[]) => Settled;
  readonly onUserOrders?: (messages: unknown[]) => Settled;
  /** Subscribed to every channel asked for; `reconnect` on every connection after the first (sweep the gap). */
  readonly onConnected?: (info: { reconnect: boolean }) => Settled;
  /** A `seq` skipped within one subscription of `fill` or `user_orders`: messages were lost (sweep). */
  readonly onGap?: (gap: KalshiStreamGap) => Settled;
  /**
   * Given: the public `market_lifecycle_v2` channel is subscribed too (docs.kalshi.com websockets
   * "Market & Event Lifecycle": `{"type": "market_lifecycle_v2", "sid", "msg": {"market_ticker",
   * "event_type": created | activated | deactivated | close_date_updated | determined | settled, ...}}`)
   * and each `msg` comes here. Its notices are hints (the owner reads the venue's records), so a gap
   * in them is not reported: the owner's periodic reads make up for what was lost.
   */
  readonly onMarketLifecycle?: (message: unknown) => Settled;
}

/** Data frame type -> channel: the `user_orders` channel's frames are typed `user_order`. */
const DATA_TYPES: Readonly<Record<string, KalshiStreamChannel>> = { fill: 'fill', user_order: 'user_orders', market_lifecycle_v2: 'market_lifecycle_v2' };

interface Connection extends KalshiConnection<KalshiStreamProblemKind> {
  readonly subscribeId: number;
  readonly sids: Map<number, KalshiStreamChannel>;
  readonly lastSeq: Map<number, number>;
}

export class KalshiUserStream extends KalshiSignedStream<KalshiStreamProblemKind, Connection> {
  private nextCommandId = 1;
  private gaps = 0;
  /** `fill` and `user_orders`, and `market_lifecycle_v2` when its notices are wanted. */
  private readonly channels: readonly KalshiStreamChannel[];

  constructor(private readonly options: KalshiUserStreamOptions) {
    super(options.signer, options);
    this.channels = options.onMarketLifecycle ? ['fill', 'user_orders', 'market_lifecycle_v2'] : ['fill', 'user_orders'];
  }

  status(): KalshiUserStreamStatus {
    return { ...this.commonStatus(), gaps: this.gaps };
  }

  // ---- Kalshi's protocol --------------------------------------------------------

  protected newConnection(common: StreamConnection<KalshiStreamProblemKind>): Connection {
    return Object.assign(common, { subscribeId: this.nextCommandId++, sids: new Map(), lastSeq: new Map(), probed: false });
  }

  protected opened(conn: Connection): void {
    conn.socket.send(JSON.stringify({ id: conn.subscribeId, cmd: 'subscribe', params: { channels: this.channels } }));
  }

  protected isRefusal(problem: KalshiStreamProblemKind): boolean {
    return this.isHandshakeRefusal(problem);
  }

  protected connected(info: { reconnect: boolean }): Settled | undefined {
    return this.options.onConnected?.(info);
  }

  protected frame(conn: Connection, text: string): void {
    let frame: { type?: unknown; id?: unknown; sid?: unknown; seq?: unknown; msg?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null || typeof frame.type !== 'string') return;
    const channel = DATA_TYPES[frame.type];
    if (channel !== undefined) return this.onData(conn, channel, frame.sid, frame.seq, frame.msg);
    if (frame.type === 'subscribed') return this.onSubscribed(conn, frame.id, frame.msg);
    if (frame.type === 'error') {
      const msg = (typeof frame.msg === 'object' && frame.msg !== null ? frame.msg : {}) as { code?: unknown; msg?: unknown };
      this.note({ kind: 'venue_error', code: typeof msg.code === 'number' ? msg.code : 0, message: typeof msg.msg === 'string' ? msg.msg.slice(0, 200) : '' });
    }
    // Anything else (`unsubscribed`, `ok`, types Kalshi adds later) is not ours to act on.
  }

  private onSubscribed(conn: Connection, id: unknown, msg: unknown): void {
    if (id !== conn.subscribeId || typeof msg !== 'object' || msg === null) return;
    const { channel, sid } = msg as { channel?: unknown; sid?: unknown };
    if (typeof sid !== 'number' || !this.channels.includes(channel as KalshiStreamChannel)) return;
    conn.sids.set(sid, channel as KalshiStreamChannel);
    if (this.channels.every((c) => [...conn.sids.values()].includes(c))) this.subscribed(conn);
  }

  private onData(conn: Connection, channel: KalshiStreamChannel, sid: unknown, seq: unknown, msg: unknown): void {
    if (channel === 'market_lifecycle_v2') {
      if (msg !== undefined) this.call('onMarketLifecycle', () => this.options.onMarketLifecycle?.(msg));
      return;
    }
    if (typeof sid === 'number' && typeof seq === 'number') {
      const last = conn.lastSeq.get(sid) ?? 0;
      if (seq > last + 1) {
        this.gaps += 1;
        const gap: KalshiStreamGap = { channel, sid, expectedSeq: last + 1, receivedSeq: seq };
        this.call('onGap', () => this.options.onGap?.(gap));
      }
      if (seq > last) conn.lastSeq.set(sid, seq);
    }
    if (msg === undefined) return;
    if (channel === 'fill') this.call('onFills', () => this.options.onFills([msg]));
    else this.call('onUserOrders', () => this.options.onUserOrders?.([msg]));
  }
}
