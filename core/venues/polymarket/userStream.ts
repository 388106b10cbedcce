import type { ApiKeyCreds } from '@polymarket/clob-client-v2';
import WebSocket from 'ws';

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
 * Liveness: every frame (a `PONG` included) is a sign of life. After `staleAfterMs` of silence
 * (default 25 s: two and a half of our pings unanswered) the socket is terminated (a frozen peer
 * never finishes a close handshake) and the stream reconnects: a feed that stays open but silent
 * is taken for dead.
 *
 * Reconnects: exponential backoff with full jitter, `random() x min(maxMs, baseMs x 2^(n-1))` for
 * the n-th failure in a row; the streak restarts only after a connection stayed subscribed for
 * `staleAfterMs`. A handshake answered with a 4xx other than 429, or a subscription refused, waits
 * `maxMs`. A handshake or a subscription not done within `handshakeTimeoutMs` ends the attempt.
 *
 * Nothing here logs; the status and the callbacks carry only statuses and kinds written here. All
 * timers are unref'd: the stream never keeps a process alive by itself.
 */

export interface PolymarketStreamBackoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

export const POLYMARKET_STREAM_DEFAULT_BACKOFF: PolymarketStreamBackoff = { baseMs: 500, maxMs: 30_000 };
/** The docs: "send PING every 10 seconds". */
export const POLYMARKET_STREAM_DEFAULT_PING_MS = 10_000;
export const POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS = 25_000;
export const POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

export type PolymarketStreamProblemKind =
  | { readonly kind: 'handshake_refused'; readonly status: number }
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'no_credentials' }
  | { readonly kind: 'subscription_refused' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  /** One of the owner's callbacks threw or rejected; the owner's sweeps catch up. */
  | { readonly kind: 'callback_failed'; readonly callback: 'onEvents' | 'onConnected' };

export type PolymarketStreamProblem = PolymarketStreamProblemKind & { readonly atMs: number };

export type PolymarketStreamState = 'connecting' | 'connected' | 'backing_off' | 'closed';

export interface PolymarketUserStreamStatus {
  readonly state: PolymarketStreamState;
  readonly lastMessageAtMs: number | null;
  readonly connectedSinceMs: number | null;
  /** Connection attempts (handshakes started). */
  readonly attempts: number;
  /** Subscribed connections after the first one. */
  readonly reconnects: number;
  readonly backoffMs: number | null;
  readonly lastProblem: PolymarketStreamProblem | null;
}

type Settled = void | Promise<unknown>;

export interface PolymarketUserStreamOptions {
  /** The user channel's URL (production wss://ws-subscriptions-clob.polymarket.com/ws/user). */
  readonly wsUrl: string;
  /** The account's API credentials as they are now (the session's); undefined: not derived yet. */
  readonly creds: () => ApiKeyCreds | undefined;
  /** `order` and `trade` events, as the venue sent them. */
  readonly onEvents: (events: unknown[]) => Settled;
  /** Subscribed (the venue answered behind the subscription); `reconnect` on every connection after the first. */
  readonly onConnected?: (info: { reconnect: boolean }) => Settled;
  readonly pingIntervalMs?: number;
  readonly staleAfterMs?: number;
  readonly backoff?: PolymarketStreamBackoff;
  readonly handshakeTimeoutMs?: number;
  readonly clock?: () => number;
  readonly random?: () => number;
}

const MAX_FRAME_BYTES = 1_000_000;
const CLOSE_GRACE_MS = 1000;

interface Connection {
  readonly socket: WebSocket;
  opened: boolean;
  subscribedAtMs: number | null;
  lastHeardAtMs: number;
  endedBecause: PolymarketStreamProblemKind | null;
  deadline: NodeJS.Timeout | null;
  pinger: NodeJS.Timeout | null;
  watchdog: NodeJS.Timeout | null;
  onGone: (() => void) | null;
}

export class PolymarketUserStream {
  private readonly pingIntervalMs: number;
  private readonly staleAfterMs: number;
  private readonly backoff: PolymarketStreamBackoff;
  private readonly handshakeTimeoutMs: number;
  private readonly clock: () => number;
  private readonly random: () => number;

  private state: PolymarketStreamState = 'closed';
  private started = false;
  private stopped = false;
  private current: Connection | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failuresInRow = 0;
  private connects = 0;
  private attempts = 0;
  private lastMessageAtMs: number | null = null;
  private backoffMs: number | null = null;
  private lastProblem: PolymarketStreamProblem | null = null;

  constructor(private readonly options: PolymarketUserStreamOptions) {
    const url = new URL(options.wsUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error('a Polymarket WebSocket URL must be ws: or wss:');
    this.pingIntervalMs = options.pingIntervalMs ?? POLYMARKET_STREAM_DEFAULT_PING_MS;
    this.staleAfterMs = options.staleAfterMs ?? POLYMARKET_STREAM_DEFAULT_STALE_AFTER_MS;
    this.backoff = options.backoff ?? POLYMARKET_STREAM_DEFAULT_BACKOFF;
    this.handshakeTimeoutMs = options.handshakeTimeoutMs ?? POLYMARKET_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS;
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    if (!(this.pingIntervalMs > 0 && this.staleAfterMs > this.pingIntervalMs && this.handshakeTimeoutMs > 0 && this.backoff.baseMs > 0 && this.backoff.maxMs >= this.backoff.baseMs)) {
      throw new Error('PolymarketUserStream: timings must be positive, staleAfterMs > pingIntervalMs, maxMs >= baseMs');
    }
  }

  /** Connects and keeps connecting until `close()`. Calling it again is a no-op; after `close()` it throws. */
  start(): void {
    if (this.stopped) throw new Error('this Polymarket stream was closed; make a new one');
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  status(): PolymarketUserStreamStatus {
    return {
      state: this.state,
      lastMessageAtMs: this.lastMessageAtMs,
      connectedSinceMs: this.state === 'connected' ? (this.current?.subscribedAtMs ?? null) : null,
      attempts: this.attempts,
      reconnects: Math.max(0, this.connects - 1),
      backoffMs: this.state === 'backing_off' ? this.backoffMs : null,
      lastProblem: this.lastProblem,
    };
  }

  /** Stops for good: a close frame, up to a second for the close handshake, then terminated. */
  close(): Promise<void> {
    this.stopped = true;
    this.state = 'closed';
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const conn = this.current;
    if (conn === null) return Promise.resolve();
    this.clearTimers(conn);
    return new Promise<void>((resolve) => {
      conn.onGone = resolve;
      if (conn.socket.readyState === WebSocket.OPEN) {
        conn.socket.close(1000);
        setTimeout(() => conn.socket.terminate(), CLOSE_GRACE_MS).unref();
      } else {
        conn.socket.terminate();
      }
    });
  }

  private connect(): void {
    this.retryTimer = null;
    if (this.stopped) return;
    this.state = 'connecting';
    this.attempts += 1;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.wsUrl, { followRedirects: false, maxPayload: MAX_FRAME_BYTES });
    } catch {
      this.note({ kind: 'handshake_failed' });
      this.scheduleRetry(false, null);
      return;
    }
    const conn: Connection = { socket, opened: false, subscribedAtMs: null, lastHeardAtMs: this.clock(), endedBecause: null, deadline: null, pinger: null, watchdog: null, onGone: null };
    this.current = conn;
    conn.deadline = setTimeout(() => this.end(conn, { kind: conn.opened ? 'subscribe_timeout' : 'handshake_timeout' }), this.handshakeTimeoutMs);
    conn.deadline.unref();
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      this.end(conn, { kind: 'handshake_refused', status: res.statusCode ?? 0 });
    });
    socket.on('open', () => this.onOpen(conn));
    socket.on('message', (data, isBinary) => {
      this.heard(conn);
      if (this.current === conn && !this.stopped && !isBinary) this.onFrame(conn, data.toString());
    });
    socket.on('pong', () => this.heard(conn));
    // The error's text is never kept: 'close' follows and says what ended.
    socket.on('error', () => undefined);
    socket.on('close', (code) => this.onGone(conn, code));
  }

  private onOpen(conn: Connection): void {
    if (this.current !== conn || this.stopped) return;
    conn.opened = true;
    const creds = this.options.creds();
    if (creds === undefined) return this.end(conn, { kind: 'no_credentials' });
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = setTimeout(() => this.end(conn, { kind: 'subscribe_timeout' }), this.handshakeTimeoutMs);
    conn.deadline.unref();
    conn.socket.send(JSON.stringify({ auth: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase }, markets: [], type: 'user' }));
    conn.socket.send('PING');
    conn.lastHeardAtMs = this.clock();
    conn.pinger = setInterval(() => {
      if (conn.socket.readyState === WebSocket.OPEN) conn.socket.send('PING');
    }, this.pingIntervalMs);
    conn.pinger.unref();
    conn.watchdog = setInterval(() => this.checkAlive(conn), Math.max(5, Math.floor(this.staleAfterMs / 5)));
    conn.watchdog.unref();
  }

  private heard(conn: Connection): void {
    const now = this.clock();
    conn.lastHeardAtMs = now;
    if (this.current !== conn) return;
    this.lastMessageAtMs = now;
    if (conn.opened && conn.subscribedAtMs === null && !this.stopped) this.onSubscribed(conn);
  }

  /** The first answer behind the subscription: it was accepted. */
  private onSubscribed(conn: Connection): void {
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = null;
    conn.subscribedAtMs = this.clock();
    this.state = 'connected';
    this.backoffMs = null;
    this.connects += 1;
    const reconnect = this.connects > 1;
    this.call('onConnected', () => this.options.onConnected?.({ reconnect }));
  }

  private checkAlive(conn: Connection): void {
    if (this.current !== conn || conn.socket.readyState !== WebSocket.OPEN) return;
    if (this.clock() - conn.lastHeardAtMs >= this.staleAfterMs) this.end(conn, { kind: 'stale' });
  }

  private end(conn: Connection, reason: PolymarketStreamProblemKind): void {
    if (conn.endedBecause === null) conn.endedBecause = reason;
    this.clearTimers(conn);
    conn.socket.terminate();
  }

  private onGone(conn: Connection, closeCode: number): void {
    this.clearTimers(conn);
    conn.onGone?.();
    if (this.current !== conn) return;
    this.current = null;
    if (this.stopped) return;
    const reason: PolymarketStreamProblemKind =
      conn.endedBecause ?? (!conn.opened ? { kind: 'handshake_failed' } : conn.subscribedAtMs === null ? { kind: 'subscription_refused' } : { kind: 'connection_lost', closeCode });
    this.note(reason);
    const refused = (reason.kind === 'handshake_refused' && reason.status >= 400 && reason.status < 500 && reason.status !== 429) || reason.kind === 'subscription_refused' || reason.kind === 'no_credentials';
    this.scheduleRetry(refused, conn.subscribedAtMs);
  }

  private scheduleRetry(refused: boolean, subscribedAtMs: number | null): void {
    const now = this.clock();
    if (subscribedAtMs !== null && now - subscribedAtMs >= this.staleAfterMs) this.failuresInRow = 0;
    this.failuresInRow += 1;
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** Math.min(this.failuresInRow - 1, 30));
    const delay = refused ? this.backoff.maxMs : Math.floor(this.random() * ceiling);
    this.state = 'backing_off';
    this.backoffMs = delay;
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref();
  }

  private clearTimers(conn: Connection): void {
    for (const timer of [conn.deadline, conn.pinger, conn.watchdog]) if (timer !== null) clearTimeout(timer);
    conn.deadline = null;
    conn.pinger = null;
    conn.watchdog = null;
  }

  private note(problem: PolymarketStreamProblemKind): void {
    this.lastProblem = { ...problem, atMs: this.clock() };
  }

  private onFrame(_conn: Connection, text: string): void {
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

  /** Runs an owner's callback; a throw or a rejection becomes a problem, never a crash of the stream. */
  private call(callback: 'onEvents' | 'onConnected', run: () => Settled | undefined): void {
    const failed = () => this.note({ kind: 'callback_failed', callback });
    try {
      const result = run();
      if (result !== undefined && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, failed);
    } catch {
      failed();
    }
  }
}
