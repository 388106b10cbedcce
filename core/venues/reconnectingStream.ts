import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { fullJitterMs } from '../domain/backoff';

/**
 * What every venue's private WebSocket stream does the same way (Kalshi's `user_orders`/`fill`
 * stream, Polymarket's user channel): connect, keep connecting until closed, tell a live socket
 * from a dead one, and back off. The venue's protocol (handshake headers, subscription, frames,
 * what counts as subscribed) is the subclass's.
 *
 * - A handshake, and then the subscription, not done within `handshakeTimeoutMs` ends the attempt.
 * - Liveness: every frame, ping or pong is a sign of life; `idle` is asked about a quiet socket
 *   (a venue may probe it); after `staleAfterMs` of silence the socket is terminated (a frozen peer
 *   never finishes a close handshake) and the stream reconnects.
 * - Reconnects: exponential backoff with full jitter, `random() x min(maxMs, baseMs x 2^(n-1))` for
 *   the n-th failure in a row; the streak restarts only after a connection stayed subscribed for
 *   `staleAfterMs`, so a venue that accepts and drops at once is not hammered. What the subclass
 *   calls a refusal (a 4xx handshake, a refused subscription) waits `maxMs` every time.
 * - The owner's callbacks run through `call`: a throw or a rejection becomes a problem, never a
 *   crash of the stream.
 *
 * Nothing here logs or keeps an error's text. All timers are unref'd: a stream never keeps a
 * process alive by itself.
 */

export interface StreamBackoff {
  /** The first reconnect waits up to this (full jitter), doubling per failure in a row. */
  readonly baseMs: number;
  /** The ceiling, and the wait after a refusal. */
  readonly maxMs: number;
}

export const DEFAULT_STREAM_BACKOFF: StreamBackoff = { baseMs: 500, maxMs: 30_000 };

/** The ways a connection or an attempt ends that every stream shares. */
export type CommonStreamProblem =
  | { readonly kind: 'handshake_failed' }
  | { readonly kind: 'handshake_timeout' }
  | { readonly kind: 'subscribe_timeout' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'connection_lost'; readonly closeCode: number }
  /** One of the owner's callbacks threw or rejected; the owner should sweep. */
  | { readonly kind: 'callback_failed'; readonly callback: string };

export type StreamState = 'connecting' | 'connected' | 'backing_off' | 'closed';

export interface StreamSettings {
  readonly wsUrl: string;
  readonly staleAfterMs: number;
  readonly backoff: StreamBackoff;
  readonly handshakeTimeoutMs: number;
  readonly clock: () => number;
  readonly random: () => number;
}

/** What an owner may set; the rest defaults (the venue's stale and handshake limits, `DEFAULT_STREAM_BACKOFF`, the real clock). */
export type StreamOptions = Pick<StreamSettings, 'wsUrl'> & Partial<Omit<StreamSettings, 'wsUrl'>>;

export interface StreamConnection<P> {
  readonly socket: WebSocket;
  opened: boolean;
  subscribedAtMs: number | null;
  lastHeardAtMs: number;
  /** Why we ended it (set before terminating), or why the venue refused it. */
  endedBecause: P | null;
  deadline: NodeJS.Timeout | null;
  watchdog: NodeJS.Timeout | null;
  /** Set by close(): resolves once the socket is gone. */
  onGone: (() => void) | null;
}

/** The status every stream reports; a venue's adds its own counts. */
export interface StreamStatus<P> {
  /** `closed` before `start()` and after `close()`. */
  readonly state: StreamState;
  /** The last frame, ping or pong heard on any connection. */
  readonly lastMessageAtMs: number | null;
  /** Since when the current connection is subscribed; null when not connected. */
  readonly connectedSinceMs: number | null;
  /** Connection attempts (handshakes started). */
  readonly attempts: number;
  /** Subscribed connections after the first one. */
  readonly reconnects: number;
  /** While backing off: the wait chosen and when the next attempt starts. */
  readonly backoffMs: number | null;
  readonly retryAtMs: number | null;
  readonly lastProblem: (P & { readonly atMs: number }) | null;
}

type Settled = void | Promise<unknown>;

const MAX_FRAME_BYTES = 1_000_000;
const CLOSE_GRACE_MS = 1000;

export abstract class ReconnectingStream<P extends { readonly kind: string }, C extends StreamConnection<P> = StreamConnection<P>> {
  protected state: StreamState = 'closed';
  protected current: C | null = null;
  protected readonly clock: () => number;
  private started = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failuresInRow = 0;
  private connects = 0;
  private attempts = 0;
  private lastMessageAtMs: number | null = null;
  private backoffMs: number | null = null;
  private retryAtMs: number | null = null;
  private lastProblem: (P & { atMs: number }) | null = null;

  protected readonly settings: StreamSettings;

  protected constructor(
    private readonly venue: string,
    options: StreamOptions,
    defaults: Pick<StreamSettings, 'staleAfterMs' | 'handshakeTimeoutMs'>,
  ) {
    const settings: StreamSettings = {
      wsUrl: options.wsUrl,
      staleAfterMs: options.staleAfterMs ?? defaults.staleAfterMs,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? defaults.handshakeTimeoutMs,
      backoff: options.backoff ?? DEFAULT_STREAM_BACKOFF,
      clock: options.clock ?? Date.now,
      random: options.random ?? Math.random,
    };
    this.settings = settings;
    const url = new URL(settings.wsUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`a ${venue} WebSocket URL must be ws: or wss:`);
    const { staleAfterMs, handshakeTimeoutMs, backoff } = settings;
    if (!(staleAfterMs > 0 && handshakeTimeoutMs > 0 && backoff.baseMs > 0 && backoff.maxMs >= backoff.baseMs)) {
      throw new Error(`${venue} stream: staleAfterMs, handshakeTimeoutMs and backoff must be positive, maxMs >= baseMs`);
    }
    this.clock = settings.clock;
  }

  // ---- the venue's protocol ------------------------------------------------------

  /** The handshake's headers (a signature made now); a throw ends the attempt as `handshake_failed`. */
  protected abstract handshakeHeaders(): Record<string, string>;
  /** A new connection's own fields beyond the common ones. */
  protected abstract newConnection(common: StreamConnection<P>): C;
  /** The socket is open (the subscription deadline runs): subscribe. */
  protected abstract opened(conn: C): void;
  /** A text frame of the current connection. */
  protected abstract frame(conn: C, text: string): void;
  /** Whether a connection that ended so waits `maxMs` before the next attempt. */
  protected abstract isRefusal(problem: P): boolean;
  /** The subscription is live: the owner is told (`reconnect` after the first). */
  protected abstract connected(info: { reconnect: boolean }): Settled | undefined;
  /** Why a connection that opened but never became subscribed ended, when nobody said. */
  protected endedBeforeSubscribed(closeCode: number): P {
    return { kind: 'connection_lost', closeCode } as unknown as P;
  }
  /** The handshake was answered with something other than 101. */
  protected refused(conn: C, res: IncomingMessage): void {
    res.resume();
    this.end(conn, { kind: 'handshake_refused', status: res.statusCode ?? 0 } as unknown as P);
  }
  /** Something was heard on the current connection. */
  protected onHeard(_conn: C): void {}
  /** The current connection has been silent for `silentMs` (less than `staleAfterMs`). */
  protected idle(_conn: C, _silentMs: number): void {}
  /** The connection is ending: clear the subclass's own timers. */
  protected ending(_conn: C): void {}

  // ---- the lifecycle -------------------------------------------------------------

  /** Connects and keeps connecting until `close()`. Calling it again is a no-op; after `close()` it throws. */
  start(): void {
    if (this.stopped) throw new Error(`this ${this.venue} stream was closed; make a new one`);
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  /**
   * Stops for good: no reconnect, no timer left. An open socket gets a close frame and up to a
   * second to finish the close handshake, then is terminated; the promise resolves when it is gone.
   */
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
        setTimeout(() => conn.socket.terminate(), Math.min(CLOSE_GRACE_MS, this.settings.handshakeTimeoutMs)).unref();
      } else {
        conn.socket.terminate();
      }
    });
  }

  protected commonStatus(): StreamStatus<P> {
    return {
      state: this.state,
      lastMessageAtMs: this.lastMessageAtMs,
      connectedSinceMs: this.state === 'connected' ? (this.current?.subscribedAtMs ?? null) : null,
      attempts: this.attempts,
      reconnects: Math.max(0, this.connects - 1),
      backoffMs: this.state === 'backing_off' ? this.backoffMs : null,
      retryAtMs: this.state === 'backing_off' ? this.retryAtMs : null,
      lastProblem: this.lastProblem,
    };
  }

  protected get isStopped(): boolean {
    return this.stopped;
  }

  private connect(): void {
    this.retryTimer = null;
    if (this.stopped) return;
    this.state = 'connecting';
    this.attempts += 1;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.settings.wsUrl, { headers: this.handshakeHeaders(), followRedirects: false, maxPayload: MAX_FRAME_BYTES });
    } catch {
      // A signer or URL failure: nothing was sent. Written here, never the error's own text.
      this.note({ kind: 'handshake_failed' } as P);
      this.scheduleRetry(false, null);
      return;
    }
    const conn = this.newConnection({ socket, opened: false, subscribedAtMs: null, lastHeardAtMs: this.clock(), endedBecause: null, deadline: null, watchdog: null, onGone: null });
    this.current = conn;
    conn.deadline = setTimeout(() => this.end(conn, { kind: conn.opened ? 'subscribe_timeout' : 'handshake_timeout' } as P), this.settings.handshakeTimeoutMs);
    conn.deadline.unref();

    socket.on('unexpected-response', (_req, res) => this.refused(conn, res));
    socket.on('open', () => this.onOpen(conn));
    socket.on('message', (data, isBinary) => {
      this.heard(conn);
      if (this.current === conn && !this.stopped && !isBinary) this.frame(conn, data.toString());
    });
    socket.on('ping', () => this.heard(conn));
    socket.on('pong', () => this.heard(conn));
    // The error's text is never kept: 'close' follows and says what ended.
    socket.on('error', () => undefined);
    socket.on('close', (code) => this.onGone(conn, code));
  }

  private onOpen(conn: C): void {
    if (this.current !== conn || this.stopped) return;
    conn.opened = true;
    this.heard(conn);
    // The deadline, restarted: the subscription gets its own handshakeTimeoutMs.
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = setTimeout(() => this.end(conn, { kind: 'subscribe_timeout' } as P), this.settings.handshakeTimeoutMs);
    conn.deadline.unref();
    conn.watchdog = setInterval(() => this.checkAlive(conn), Math.max(5, Math.floor(this.settings.staleAfterMs / 5)));
    conn.watchdog.unref();
    this.opened(conn);
  }

  private heard(conn: C): void {
    const now = this.clock();
    conn.lastHeardAtMs = now;
    if (this.current !== conn) return;
    this.lastMessageAtMs = now;
    if (!this.stopped) this.onHeard(conn);
  }

  /** The subclass says the current connection is subscribed: the owner is told, the backoff reset. */
  protected subscribed(conn: C): void {
    if (conn.subscribedAtMs !== null || this.current !== conn) return;
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    conn.deadline = null;
    conn.subscribedAtMs = this.clock();
    this.state = 'connected';
    this.backoffMs = null;
    this.retryAtMs = null;
    this.connects += 1;
    const reconnect = this.connects > 1;
    this.call('onConnected', () => this.connected({ reconnect }));
  }

  private checkAlive(conn: C): void {
    if (this.current !== conn || conn.socket.readyState !== WebSocket.OPEN) return;
    const silentMs = this.clock() - conn.lastHeardAtMs;
    if (silentMs >= this.settings.staleAfterMs) this.end(conn, { kind: 'stale' } as P);
    else this.idle(conn, silentMs);
  }

  /** Ends a connection on our side; 'close' follows and schedules the retry. */
  protected end(conn: C, reason: P): void {
    if (conn.endedBecause === null) conn.endedBecause = reason;
    this.clearTimers(conn);
    conn.socket.terminate();
  }

  private onGone(conn: C, closeCode: number): void {
    this.clearTimers(conn);
    conn.onGone?.();
    if (this.current !== conn) return;
    this.current = null;
    if (this.stopped) return;
    const reason: P =
      conn.endedBecause ??
      (!conn.opened ? ({ kind: 'handshake_failed' } as P) : conn.subscribedAtMs === null ? this.endedBeforeSubscribed(closeCode) : ({ kind: 'connection_lost', closeCode } as unknown as P));
    this.note(reason);
    this.scheduleRetry(this.isRefusal(reason), conn.subscribedAtMs);
  }

  private scheduleRetry(refused: boolean, subscribedAtMs: number | null): void {
    const now = this.clock();
    const { backoff, staleAfterMs } = this.settings;
    if (subscribedAtMs !== null && now - subscribedAtMs >= staleAfterMs) this.failuresInRow = 0;
    this.failuresInRow += 1;
    const delay = refused ? backoff.maxMs : fullJitterMs(backoff, this.failuresInRow, this.settings.random);
    this.state = 'backing_off';
    this.backoffMs = delay;
    this.retryAtMs = now + delay;
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref();
  }

  private clearTimers(conn: C): void {
    if (conn.deadline !== null) clearTimeout(conn.deadline);
    if (conn.watchdog !== null) clearInterval(conn.watchdog);
    conn.deadline = null;
    conn.watchdog = null;
    this.ending(conn);
  }

  protected note(problem: P): void {
    this.lastProblem = { ...problem, atMs: this.clock() };
  }

  /** Runs an owner's callback; a throw or a rejection becomes a problem, never a crash of the stream. */
  protected call(callback: string, run: () => Settled | undefined): void {
    const failed = () => this.note({ kind: 'callback_failed', callback } as unknown as P);
    try {
      const result = run();
      if (result !== undefined && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, failed);
    } catch {
      failed();
    }
  }
}
