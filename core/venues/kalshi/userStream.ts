import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { readKalshiError } from './errors';
import type { KalshiSigner } from './signing';

/**
 * One Kalshi credential's private WebSocket stream: channels `fill` and `user_orders`
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
 * "Connected" means subscribed to both channels: `onConnected` is called only then, so a REST sweep
 * the owner starts from it overlaps the live stream and leaves no hole. `reconnect: true` on every
 * connection after the first: Kalshi does not replay what a dropped socket missed, so the owner
 * sweeps `GET /portfolio/fills` for the gap. A `seq` that skips within one subscription is a gap
 * too (`onGap`, `status().gaps`). A handshake, or a subscription, not done within
 * `handshakeTimeoutMs` ends the attempt.
 *
 * Reconnects use exponential backoff with full jitter, `random() x min(maxMs, baseMs x 2^(n-1))`
 * for the n-th failure in a row; the streak restarts only after a connection stayed subscribed for
 * `staleAfterMs`, so a venue that accepts and drops at once is not hammered. A handshake refused
 * with a 4xx other than 429 (401: a bad key, a key of the other environment, a clock off by more
 * than Kalshi's window) waits `maxMs` every time and shows as `lastProblem: handshake_refused`.
 *
 * Nothing here logs, and nothing exposes a header, a signature or a key: the status and the
 * callbacks carry only Kalshi's codes, statuses and messages written here.
 * All timers are unref'd: the stream never keeps a process alive by itself.
 */

export type KalshiStreamChannel = 'fill' | 'user_orders';

export interface KalshiStreamBackoff {
  /** The first reconnect waits up to this (full jitter), doubling per failure in a row. */
  readonly baseMs: number;
  /** The ceiling, and the wait after a refused handshake (4xx other than 429). */
  readonly maxMs: number;
}

export const KALSHI_STREAM_DEFAULT_BACKOFF: KalshiStreamBackoff = { baseMs: 500, maxMs: 30_000 };
/** 2.5 x Kalshi's 10 s ping interval. */
export const KALSHI_STREAM_DEFAULT_STALE_AFTER_MS = 25_000;
export const KALSHI_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

export interface KalshiStreamGap {
  readonly channel: KalshiStreamChannel;
  readonly sid: number;
  readonly expectedSeq: number;
  readonly receivedSeq: number;
}

/** Why the last connection or attempt ended, or what the venue complained about. */
export type KalshiStreamProblemKind =
  | { readonly kind: 'handshake_refused'; readonly status: number; readonly venueCode: string }
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  /** An error frame: Kalshi's numeric code and message (e.g. 8 "Unknown channel name"). */
  | { readonly kind: 'venue_error'; readonly code: number; readonly message: string }
  /** One of the owner's callbacks threw or rejected; the owner should sweep. */
  | { readonly kind: 'callback_failed'; readonly callback: 'onFills' | 'onUserOrders' | 'onConnected' | 'onGap' };

export type KalshiStreamProblem = KalshiStreamProblemKind & { readonly atMs: number };

export type KalshiStreamState = 'connecting' | 'connected' | 'backing_off' | 'closed';

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

export interface KalshiUserStreamOptions {
  /** The credential's environment's WebSocket URL (endpoints.ts `wsUrl`). */
  readonly wsUrl: string;
  readonly signer: KalshiSigner;
  readonly onFills: (messages: unknown[]) => Settled;
  readonly onUserOrders?: (messages: unknown[]) => Settled;
  /** Subscribed to both channels; `reconnect` on every connection after the first (sweep the gap). */
  readonly onConnected?: (info: { reconnect: boolean }) => Settled;
  /** A `seq` skipped within one subscription: messages were lost (sweep). */
  readonly onGap?: (gap: KalshiStreamGap) => Settled;
  readonly staleAfterMs?: number;
  readonly backoff?: KalshiStreamBackoff;
  /** Limit for the handshake, and again for the subscription answers. */
  readonly handshakeTimeoutMs?: number;
  readonly clock?: () => number;
  readonly random?: () => number;
}

const CHANNELS: readonly KalshiStreamChannel[] = ['fill', 'user_orders'];
/** Data frame type -> channel: the `user_orders` channel's frames are typed `user_order`. */
const DATA_TYPES: Readonly<Record<string, KalshiStreamChannel>> = { fill: 'fill', user_order: 'user_orders' };
const MAX_REFUSAL_BODY = 4096;
const MAX_FRAME_BYTES = 1_000_000;
const CLOSE_GRACE_MS = 1000;

interface Connection {
  readonly socket: WebSocket;
  readonly subscribeId: number;
  readonly sids: Map<number, KalshiStreamChannel>;
  readonly lastSeq: Map<number, number>;
  opened: boolean;
  subscribedAtMs: number | null;
  lastHeardAtMs: number;
  probed: boolean;
  /** Why we ended it (set before terminating), or why the venue refused it. */
  endedBecause: KalshiStreamProblemKind | null;
  deadline: NodeJS.Timeout | null;
  watchdog: NodeJS.Timeout | null;
  /** Set by close(): resolves once the socket is gone. */
  onGone: (() => void) | null;
}

export class KalshiUserStream {
  private readonly staleAfterMs: number;
  private readonly backoff: KalshiStreamBackoff;
  private readonly handshakeTimeoutMs: number;
  private readonly clock: () => number;
  private readonly random: () => number;

  private state: KalshiStreamState = 'closed';
  private started = false;
  private stopped = false;
  private current: Connection | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private nextCommandId = 1;
  private failuresInRow = 0;
  private connects = 0;
  private counts = { attempts: 0, gaps: 0 };
  private lastMessageAtMs: number | null = null;
  private backoffMs: number | null = null;
  private retryAtMs: number | null = null;
  private lastProblem: KalshiStreamProblem | null = null;

  constructor(private readonly options: KalshiUserStreamOptions) {
    const url = new URL(options.wsUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error('a Kalshi WebSocket URL must be ws: or wss:');
    this.staleAfterMs = options.staleAfterMs ?? KALSHI_STREAM_DEFAULT_STALE_AFTER_MS;
    this.backoff = options.backoff ?? KALSHI_STREAM_DEFAULT_BACKOFF;
    this.handshakeTimeoutMs = options.handshakeTimeoutMs ?? KALSHI_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS;
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    if (!(this.staleAfterMs > 0 && this.handshakeTimeoutMs > 0 && this.backoff.baseMs > 0 && this.backoff.maxMs >= this.backoff.baseMs)) {
      throw new Error('KalshiUserStream: staleAfterMs, handshakeTimeoutMs and backoff must be positive, maxMs >= baseMs');
    }
  }

  /** Connects and keeps connecting until `close()`. Calling it again is a no-op; after `close()` it throws. */
  start(): void {
    if (this.stopped) throw new Error('this Kalshi stream was closed; make a new one');
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  status(): KalshiUserStreamStatus {
    return {
      state: this.state,
      lastMessageAtMs: this.lastMessageAtMs,
      connectedSinceMs: this.state === 'connected' ? (this.current?.subscribedAtMs ?? null) : null,
      attempts: this.counts.attempts,
      reconnects: Math.max(0, this.connects - 1),
      gaps: this.counts.gaps,
      backoffMs: this.state === 'backing_off' ? this.backoffMs : null,
      retryAtMs: this.state === 'backing_off' ? this.retryAtMs : null,
      lastProblem: this.lastProblem,
    };
  }

  /**
   * Stops for good: no reconnect, no timer left. An open socket gets a close frame and up to a
   * second to finish the close handshake, then is terminated; the promise resolves when it is gone.
   */
  close(): Promise<void> {
    this.stopped = true;
    this.state = 'closed';
    this.clearRetry();
    const conn = this.current;
    if (conn === null) return Promise.resolve();
    this.clearConnectionTimers(conn);
    return new Promise<void>((resolve) => {
      conn.onGone = resolve;
      if (conn.socket.readyState === WebSocket.OPEN) {
        conn.socket.close(1000);
        setTimeout(() => conn.socket.terminate(), Math.min(CLOSE_GRACE_MS, this.handshakeTimeoutMs)).unref();
      } else {
        conn.socket.terminate();
      }
    });
  }

  // ---- connecting ---------------------------------------------------------------

  private connect(): void {
    this.retryTimer = null;
    if (this.stopped) return;
    this.state = 'connecting';
    this.counts.attempts += 1;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.wsUrl, {
        headers: { ...this.options.signer.webSocket() },
        followRedirects: false,
        maxPayload: MAX_FRAME_BYTES,
      });
    } catch {
      // A signer or URL failure: nothing was sent. Written here, never the error's own text.
      this.note({ kind: 'handshake_failed' });
      this.scheduleRetry(false, null);
      return;
    }
    const conn: Connection = {
      socket,
      subscribeId: this.nextCommandId++,
      sids: new Map(),
      lastSeq: new Map(),
      opened: false,
      subscribedAtMs: null,
      lastHeardAtMs: this.clock(),
      probed: false,
      endedBecause: null,
      deadline: null,
      watchdog: null,
      onGone: null,
    };
    this.current = conn;
    conn.deadline = setTimeout(() => this.end(conn, { kind: conn.opened ? 'subscribe_timeout' : 'handshake_timeout' }), this.handshakeTimeoutMs);
    conn.deadline.unref();

    socket.on('unexpected-response', (_req, res) => this.onRefused(conn, res));
    socket.on('open', () => this.onOpen(conn));
    socket.on('message', (data) => {
      this.heard(conn);
      if (this.current === conn && !this.stopped) this.onFrame(conn, data.toString());
    });
    socket.on('ping', () => this.heard(conn));
    socket.on('pong', () => this.heard(conn));
    // The error's text is never kept: 'close' follows and says what ended.
    socket.on('error', () => undefined);
    socket.on('close', (code) => this.onGone(conn, code));
  }

  /** The handshake was answered with something other than 101: read Kalshi's code, then end the attempt. */
  private onRefused(conn: Connection, res: IncomingMessage): void {
    let body = '';
    const finish = () => {
      if (conn.endedBecause !== null) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const status = res.statusCode ?? 0;
      this.end(conn, { kind: 'handshake_refused', status, venueCode: readKalshiError(status, parsed).code });
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (body.length < MAX_REFUSAL_BODY) body += chunk.slice(0, MAX_REFUSAL_BODY - body.length);
    });
    res.on('end', finish);
    res.on('error', finish);
    res.on('close', finish);
  }

  private onOpen(conn: Connection): void {
    if (this.current !== conn || this.stopped) return;
    conn.opened = true;
    this.heard(conn);
    // The deadline, restarted: the subscription answers get their own handshakeTimeoutMs.
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = setTimeout(() => this.end(conn, { kind: 'subscribe_timeout' }), this.handshakeTimeoutMs);
    conn.deadline.unref();
    conn.watchdog = setInterval(() => this.checkAlive(conn), Math.max(5, Math.floor(this.staleAfterMs / 5)));
    conn.watchdog.unref();
    conn.socket.send(JSON.stringify({ id: conn.subscribeId, cmd: 'subscribe', params: { channels: CHANNELS } }));
  }

  private heard(conn: Connection): void {
    const now = this.clock();
    conn.lastHeardAtMs = now;
    conn.probed = false;
    if (this.current === conn) this.lastMessageAtMs = now;
  }

  private checkAlive(conn: Connection): void {
    if (this.current !== conn || conn.socket.readyState !== WebSocket.OPEN) return;
    const silentMs = this.clock() - conn.lastHeardAtMs;
    if (silentMs >= this.staleAfterMs) {
      this.end(conn, { kind: 'stale' });
    } else if (silentMs >= this.staleAfterMs / 2 && !conn.probed) {
      conn.probed = true;
      conn.socket.ping();
    }
  }

  /** Ends a connection on our side; 'close' follows and schedules the retry. */
  private end(conn: Connection, reason: KalshiStreamProblemKind): void {
    if (conn.endedBecause === null) conn.endedBecause = reason;
    this.clearConnectionTimers(conn);
    conn.socket.terminate();
  }

  private onGone(conn: Connection, closeCode: number): void {
    this.clearConnectionTimers(conn);
    conn.onGone?.();
    if (this.current !== conn) return;
    this.current = null;
    if (this.stopped) return;
    const reason: KalshiStreamProblemKind = conn.endedBecause ?? (conn.opened ? { kind: 'connection_lost', closeCode } : { kind: 'handshake_failed' });
    this.note(reason);
    const refused = reason.kind === 'handshake_refused' && reason.status >= 400 && reason.status < 500 && reason.status !== 429;
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
    this.retryAtMs = now + delay;
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref();
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private clearConnectionTimers(conn: Connection): void {
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    if (conn.watchdog !== null) clearInterval(conn.watchdog);
    conn.deadline = null;
    conn.watchdog = null;
  }

  private note(problem: KalshiStreamProblemKind): void {
    this.lastProblem = { ...problem, atMs: this.clock() };
  }

  // ---- frames -------------------------------------------------------------------

  private onFrame(conn: Connection, text: string): void {
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
    if (typeof sid !== 'number' || !CHANNELS.includes(channel as KalshiStreamChannel)) return;
    conn.sids.set(sid, channel as KalshiStreamChannel);
    if (conn.subscribedAtMs !== null || !CHANNELS.every((c) => [...conn.sids.values()].includes(c))) return;
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = null;
    conn.subscribedAtMs = this.clock();
    this.state = 'connected';
    this.backoffMs = null;
    this.retryAtMs = null;
    this.connects += 1;
    const reconnect = this.connects > 1;
    this.call('onConnected', () => this.options.onConnected?.({ reconnect }));
  }

  private onData(conn: Connection, channel: KalshiStreamChannel, sid: unknown, seq: unknown, msg: unknown): void {
    if (typeof sid === 'number' && typeof seq === 'number') {
      const last = conn.lastSeq.get(sid) ?? 0;
      if (seq > last + 1) {
        this.counts.gaps += 1;
        const gap: KalshiStreamGap = { channel, sid, expectedSeq: last + 1, receivedSeq: seq };
        this.call('onGap', () => this.options.onGap?.(gap));
      }
      if (seq > last) conn.lastSeq.set(sid, seq);
    }
    if (msg === undefined) return;
    if (channel === 'fill') this.call('onFills', () => this.options.onFills([msg]));
    else this.call('onUserOrders', () => this.options.onUserOrders?.([msg]));
  }

  /** Runs an owner's callback; a throw or a rejection becomes a problem, never a crash of the stream. */
  private call(callback: 'onFills' | 'onUserOrders' | 'onConnected' | 'onGap', run: () => Settled | undefined): void {
    const failed = () => this.note({ kind: 'callback_failed', callback });
    try {
      const result = run();
      if (result !== undefined && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, failed);
    } catch {
      failed();
    }
  }
}
