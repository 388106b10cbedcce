import WebSocket from 'ws';
import { BookChangeListeners, type BookFeed, type FedBook } from '../bookFeed';
import type { OrderBookView } from '../venue';
import type { CommonStreamProblem, StreamConnection, StreamOptions, StreamStatus } from '../reconnectingStream';
import { recordOf } from '../wireRecords';
import { applyDelta, emptyLadders, laddersFromSnapshot, laddersFromView, messageTimeMs, sameBook, viewOfLadders, type KalshiLadders } from './bookDeltas';
import { KalshiSignedStream, type KalshiConnection, type KalshiHandshakeRefused } from './signedStream';
import type { KalshiMarketData } from './marketData';
import type { KalshiSigner } from './signing';

/**
 * Kalshi's live books (core/venues/bookFeed.ts), kept from the `orderbook_delta` channel of one
 * signed WebSocket connection (Trade API v2 `/trade-api/ws/v2`, asyncapi.yaml 2.0.0 of 2026,
 * docs.kalshi.com websockets "Orderbook Updates", "Update Subscription", "Connection Keep-Alive";
 * the fake: docs/kalshi-fake.md "Public market data", fakes/kalshi/marketDataFeed.ts).
 *
 * Protocol spoken here:
 * - the handshake is signed like the private stream's (`KalshiSigner.webSocket()`, a fresh
 *   signature per attempt): Kalshi requires an authenticated connection for `orderbook_delta`;
 * - one subscription for every followed market: the first market (and every market after a
 *   reconnect) by `{"id", "cmd": "subscribe", "params": {"channels": ["orderbook_delta"],
 *   "market_tickers": [...]}}`, answered by `subscribed` with its `sid`; later markets by
 *   `update_subscription` `{"sids": [sid], "action": "add_markets", "market_tickers": [...]}`, a
 *   market not asked about for `idleMs` by `delete_markets` (by `unsubscribe` when it was the
 *   last), each answered by `ok` listing the subscription's markets;
 * - per market an `orderbook_snapshot` (after subscribe and add_markets, and when asked with
 *   `get_snapshot`), then `orderbook_delta` frames, applied in order (bookDeltas.ts);
 * - `seq` counts the subscription's data frames (snapshots and deltas) from 1: one that is not the
 *   last + 1 is a gap: every book of the subscription is stale at once (a lost frame may have been
 *   any market's) and a fresh snapshot of each is asked with `get_snapshot`, as Kalshi says to do
 *   on a gap. The `ok` answers carry the subscription's current `seq` without using a number (as
 *   the fake assumes); they are not counted, so a frame lost just before one shows at the next frame;
 * - an error frame answering our `subscribe` ends the connection as a refusal (the longest
 *   backoff); one answering an `update_subscription` ends it (a reconnect subscribes afresh);
 * - keep-alive and liveness as the private stream (userStream.ts): our own ping after
 *   `staleAfterMs / 2` of silence, the socket terminated after `staleAfterMs`.
 *
 * What a book promises (bookFeed.ts):
 * - a snapshot makes the book fresh; `asOf` is the message's venue time (`ts_ms`, else `ts`), the
 *   snapshot's arrival time when it carries none (Kalshi's snapshots carry none);
 * - a gap, a delta that cannot be applied (unreadable, or a level below zero), or a lost connection
 *   makes the book stale at once, until a fresh snapshot replaces it; until then its deltas are not
 *   applied. A snapshot asked for and not come while the market's deltas flow is asked again after
 *   `handshakeTimeoutMs`;
 * - the quiet check: a market without a message for `quietMs` (on a live subscription) is compared
 *   with `rest.orderBook(ticker, every level)`: equal, it is fresh and `asOf` stays; different, it
 *   is stale, its book becomes the REST book (`asOf` the time of the read) and a snapshot is asked
 *   again. A read that fails leaves the book stale and asks for a snapshot. The result of a read is
 *   dropped when the market had a message (or a gap, or a reconnect) meanwhile: it is not quiet.
 *   At most four reads run at once; the rest wait for the next round;
 * - a market not followed (`follow()`) for `idleMs` is unsubscribed and forgotten.
 *
 * One connection is made at the first `follow()` and kept until `close()`, also while nothing is
 * followed (Kalshi's pings keep it alive). Reconnects, backoff and the stale check are those of
 * every venue's stream (core/venues/reconnectingStream.ts).
 *
 * Nothing here logs, and nothing exposes a header, a signature or a key: the status carries only
 * Kalshi's codes and messages and counts. Every timer is unref'd. The books handed out are frozen:
 * a reader copies what it wants to change.
 */

/** Why the last connection or attempt ended, or what the venue complained about. */
export type KalshiBookFeedProblemKind =
  | CommonStreamProblem
  | KalshiHandshakeRefused
  /** An error frame answering our `subscribe`: Kalshi's code and message. */
  | { readonly kind: 'subscribe_refused'; readonly code: number; readonly message: string }
  /** Any other error frame (e.g. 7 "Unknown subscription ID" answering an update). */
  | { readonly kind: 'venue_error'; readonly code: number; readonly message: string };

export interface KalshiBookFeedStatus {
  /** The connection: `closed` before the first `follow()` and after `close()`. */
  readonly stream: StreamStatus<KalshiBookFeedProblemKind>;
  /** Markets followed now. */
  readonly followed: readonly string[];
  /**
   * The markets of the live subscription as Kalshi confirmed them: those the acknowledged
   * `subscribe` named, then the list of each update's `ok`; [] after `unsubscribe`, null while no
   * subscription is confirmed on the current connection.
   */
  readonly subscribedMarkets: readonly string[] | null;
  /** `seq` gaps seen. */
  readonly gaps: number;
  /** Snapshots applied. */
  readonly snapshots: number;
  /** Quiet checks done: the REST book was equal, different, or could not be read. */
  readonly quietChecks: { readonly equal: number; readonly different: number; readonly failed: number };
}

export interface KalshiBookFeedOptions extends StreamOptions {
  /** An operator credential's signer: Kalshi needs a signed connection for `orderbook_delta`. */
  readonly signer: KalshiSigner;
  /** The REST book the quiet check compares with. */
  readonly rest: Pick<KalshiMarketData, 'orderBook'>;
  /** Silence of a market after which its book is compared with the REST book; default 10 s. */
  readonly quietMs?: number;
  /** A market not followed for this long is unsubscribed; default 5 min. */
  readonly idleMs?: number;
}

export const KALSHI_BOOK_FEED_DEFAULT_QUIET_MS = 10_000;
export const KALSHI_BOOK_FEED_DEFAULT_IDLE_MS = 300_000;

const CHANNEL = 'orderbook_delta';
/** More than Kalshi's 100: `KalshiMarketData.orderBook` then asks for every level (`depth=0`). */
const EVERY_LEVEL = 1_000_000;
const MAX_CHECKS_IN_FLIGHT = 4;
const MAX_VENUE_MESSAGE = 200;
/** Command ids remembered per connection (to tell what an error frame answers); the oldest go first. */
const MAX_COMMANDS_KEPT = 256;

// ---- the connection --------------------------------------------------------------

interface BookConnection extends KalshiConnection<KalshiBookFeedProblemKind> {
  /** The `orderbook_delta` subscription; null before its `subscribed` (or after `unsubscribe`). */
  sid: number | null;
  /** The id of a `subscribe` sent and not yet answered. */
  subscribing: number | null;
  /** The last data frame's `seq` on `sid`. */
  lastSeq: number;
  /** The markets asked for on this connection's subscription (subscribe, add_markets), less those deleted. */
  readonly markets: Set<string>;
  /** Commands sent and not answered by an error: id -> what they were. */
  readonly commands: Map<number, 'subscribe' | 'update' | 'unsubscribe'>;
  subscribedMarkets: readonly string[] | null;
  lost: boolean;
}

/** What the stream tells the feed. */
interface BookStreamOwner {
  /** The markets followed now. */
  wanted(): readonly string[];
  /** A snapshot of these markets was asked for now (subscribe, add_markets, get_snapshot). */
  asked(tickers: readonly string[]): void;
  snapshot(ticker: string, msg: unknown): void;
  delta(ticker: string, msg: unknown): void;
  /** A `seq` skipped on the subscription carrying these markets. */
  gap(tickers: readonly string[]): void;
  /** The connection ended: every book is stale until its next snapshot. */
  lost(): void;
}

const DATA_TYPES = new Set(['orderbook_snapshot', 'orderbook_delta']);

class KalshiBookStream extends KalshiSignedStream<KalshiBookFeedProblemKind, BookConnection> {
  private nextCommandId = 1;

  constructor(
    signer: KalshiSigner,
    options: StreamOptions,
    private readonly owner: BookStreamOwner,
  ) {
    super(signer, options);
  }

  get handshakeTimeoutMs(): number {
    return this.settings.handshakeTimeoutMs;
  }

  status(): StreamStatus<KalshiBookFeedProblemKind> {
    return this.commonStatus();
  }

  get subscribedMarkets(): readonly string[] | null {
    return this.current?.subscribedMarkets ?? null;
  }

  /** Whether the market is on the confirmed subscription of the current connection. */
  isLive(ticker: string): boolean {
    const conn = this.current;
    return conn !== null && conn.sid !== null && conn.markets.has(ticker) && conn.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Brings the subscription to the followed markets: `subscribe` when there is none, else
   * `add_markets` for the new ones, then `delete_markets` for the others (`unsubscribe` when none
   * is left). Nothing before the connection is open or while a subscribe is unanswered.
   */
  sync(): void {
    const conn = this.current;
    if (!this.ready(conn) || conn.subscribing !== null) return;
    const wanted = this.owner.wanted();
    if (conn.sid === null) {
      if (wanted.length === 0) return;
      const id = this.send(conn, 'subscribe', { channels: [CHANNEL], market_tickers: wanted }, 'subscribe');
      conn.subscribing = id;
      conn.markets.clear();
      for (const ticker of wanted) conn.markets.add(ticker);
      this.owner.asked(wanted);
      return;
    }
    const wantedSet = new Set(wanted);
    const adds = wanted.filter((t) => !conn.markets.has(t));
    const deletes = [...conn.markets].filter((t) => !wantedSet.has(t));
    if (adds.length > 0) {
      this.send(conn, 'update_subscription', { sids: [conn.sid], action: 'add_markets', market_tickers: adds }, 'update');
      for (const ticker of adds) conn.markets.add(ticker);
      this.owner.asked(adds);
    }
    if (deletes.length === 0) return;
    if (deletes.length === conn.markets.size) {
      this.send(conn, 'unsubscribe', { sids: [conn.sid] }, 'unsubscribe');
      conn.sid = null;
      conn.lastSeq = 0;
      conn.markets.clear();
      return;
    }
    this.send(conn, 'update_subscription', { sids: [conn.sid], action: 'delete_markets', market_tickers: deletes }, 'update');
    for (const ticker of deletes) conn.markets.delete(ticker);
  }

  /** Asks a fresh snapshot of those of these markets the live subscription carries; answers the ones asked. */
  askSnapshot(tickers: readonly string[]): string[] {
    const conn = this.current;
    if (!this.ready(conn) || conn.sid === null) return [];
    const carried = tickers.filter((t) => conn.markets.has(t));
    if (carried.length === 0) return [];
    this.send(conn, 'update_subscription', { sids: [conn.sid], action: 'get_snapshot', market_tickers: carried }, 'update');
    this.owner.asked(carried);
    return carried;
  }

  private ready(conn: BookConnection | null): conn is BookConnection {
    return conn !== null && !this.isStopped && conn.opened && conn.endedBecause === null && conn.socket.readyState === WebSocket.OPEN;
  }

  private send(conn: BookConnection, cmd: string, params: Record<string, unknown>, kind: 'subscribe' | 'update' | 'unsubscribe'): number {
    const id = this.nextCommandId++;
    conn.commands.set(id, kind);
    if (conn.commands.size > MAX_COMMANDS_KEPT) conn.commands.delete(conn.commands.keys().next().value!);
    conn.socket.send(JSON.stringify({ id, cmd, params }));
    return id;
  }

  // ---- the venue's protocol ------------------------------------------------------

  protected newConnection(common: StreamConnection<KalshiBookFeedProblemKind>): BookConnection {
    return Object.assign(common, {
      sid: null,
      subscribing: null,
      lastSeq: 0,
      markets: new Set<string>(),
      commands: new Map<number, 'subscribe' | 'update' | 'unsubscribe'>(),
      subscribedMarkets: null,
      probed: false,
      lost: false,
    });
  }

  /** Subscribes the followed markets; with none followed, the open connection is all there is to wait for. */
  protected opened(conn: BookConnection): void {
    this.sync();
    if (conn.subscribing === null) this.subscribed(conn);
  }

  protected isRefusal(problem: KalshiBookFeedProblemKind): boolean {
    return problem.kind === 'subscribe_refused' || this.isHandshakeRefusal(problem);
  }

  protected connected(): undefined {
    return undefined;
  }

  protected override ending(conn: BookConnection): void {
    if (conn.lost || this.isStopped) return;
    conn.lost = true;
    this.owner.lost();
  }

  protected frame(conn: BookConnection, text: string): void {
    let frame: { type?: unknown; id?: unknown; sid?: unknown; seq?: unknown; msg?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null || typeof frame.type !== 'string') return;
    const { type, id, sid, seq, msg } = frame;
    if (DATA_TYPES.has(type)) return this.onData(conn, type, sid, seq, msg);
    if (type === 'subscribed') return this.onSubscribed(conn, id, msg);
    if (type === 'ok') {
      const tickers = recordOf(msg)?.market_tickers;
      if (sid === conn.sid && conn.sid !== null && Array.isArray(tickers)) conn.subscribedMarkets = tickers.filter((t): t is string => typeof t === 'string');
      return;
    }
    if (type === 'unsubscribed') {
      if (conn.sid === null && conn.subscribing === null) conn.subscribedMarkets = [];
      return;
    }
    if (type === 'error') return this.onError(conn, id, msg);
    // Anything else (`ticker`, `trade`, types Kalshi adds later) is not ours to act on.
  }

  private onSubscribed(conn: BookConnection, id: unknown, msg: unknown): void {
    const m = recordOf(msg);
    if (id !== conn.subscribing || m === null || m.channel !== CHANNEL || typeof m.sid !== 'number') return;
    conn.subscribing = null;
    conn.sid = m.sid;
    conn.lastSeq = 0;
    conn.subscribedMarkets = [...conn.markets];
    this.subscribed(conn);
    // Markets followed or left while the subscribe was on its way.
    this.sync();
  }

  private onData(conn: BookConnection, type: string, sid: unknown, seq: unknown, msg: unknown): void {
    if (conn.sid === null || sid !== conn.sid) return; // an old subscription's frame still on its way
    const expected = conn.lastSeq + 1;
    if (typeof seq === 'number') conn.lastSeq = Math.max(conn.lastSeq, seq);
    if (seq !== expected) this.owner.gap([...conn.markets]);
    const ticker = recordOf(msg)?.market_ticker;
    if (typeof ticker !== 'string') return;
    try {
      if (type === 'orderbook_snapshot') this.owner.snapshot(ticker, msg);
      else this.owner.delta(ticker, msg);
    } catch {
      // Never a crash of the socket's handler: shown as a problem.
      this.note({ kind: 'callback_failed', callback: type });
    }
  }

  private onError(conn: BookConnection, id: unknown, msg: unknown): void {
    const m = recordOf(msg);
    const code = typeof m?.code === 'number' ? m.code : 0;
    const message = typeof m?.msg === 'string' ? m.msg.slice(0, MAX_VENUE_MESSAGE) : '';
    const command = typeof id === 'number' ? conn.commands.get(id) : undefined;
    if (command === 'subscribe') return this.end(conn, { kind: 'subscribe_refused', code, message });
    // Our view of the subscription is not Kalshi's: a new connection subscribes afresh.
    if (command === 'update' || command === 'unsubscribe') return this.end(conn, { kind: 'venue_error', code, message });
    this.note({ kind: 'venue_error', code, message });
  }
}

// ---- the books -------------------------------------------------------------------

interface Market {
  readonly ticker: string;
  /** Our clock: the last `follow()`. */
  followedAtMs: number;
  ladders: KalshiLadders;
  /** A snapshot (or a REST book) has been taken: `current()` answers. */
  hasBook: boolean;
  stale: boolean;
  asOfMs: number;
  /** A fresh snapshot is wanted: deltas are not applied until it comes. */
  awaiting: boolean;
  /** Our clock: when a snapshot was last asked for and has not come; null when none is outstanding. */
  askedAtMs: number | null;
  /** Our clock: the market's last message (or when it was followed). */
  heardAtMs: number;
  /** Our clock: the last quiet check (or snapshot re-ask) finished. */
  checkedAtMs: number;
  checking: boolean;
  /** Bumped by every event of the market: a quiet check's read is dropped when it moved meanwhile. */
  version: number;
  /** What `current()` answers, built when asked after a change. */
  fed: FedBook | null;
}

function frozenView(view: OrderBookView): OrderBookView {
  for (const level of view.bids) Object.freeze(level);
  for (const level of view.asks) Object.freeze(level);
  Object.freeze(view.bids);
  Object.freeze(view.asks);
  return Object.freeze(view);
}

export class KalshiBookFeed implements BookFeed {
  private readonly stream: KalshiBookStream;
  private readonly markets = new Map<string, Market>();
  private readonly listeners = new BookChangeListeners();
  private readonly checks = new Set<Promise<void>>();
  private readonly clock: () => number;
  private readonly quietMs: number;
  private readonly idleMs: number;
  private readonly rest: Pick<KalshiMarketData, 'orderBook'>;
  private tickTimer: NodeJS.Timeout | null = null;
  private syncScheduled = false;
  private started = false;
  private closed = false;
  private gaps = 0;
  private snapshots = 0;
  private readonly quietChecks = { equal: 0, different: 0, failed: 0 };

  constructor(options: KalshiBookFeedOptions) {
    const { signer, rest, quietMs, idleMs, ...streamOptions } = options;
    this.quietMs = quietMs ?? KALSHI_BOOK_FEED_DEFAULT_QUIET_MS;
    this.idleMs = idleMs ?? KALSHI_BOOK_FEED_DEFAULT_IDLE_MS;
    if (!(this.quietMs > 0 && this.idleMs > 0)) throw new Error('Kalshi book feed: quietMs and idleMs must be positive');
    this.rest = rest;
    this.clock = options.clock ?? Date.now;
    this.stream = new KalshiBookStream(signer, streamOptions, {
      wanted: () => [...this.markets.keys()],
      asked: (tickers) => this.asked(tickers),
      snapshot: (ticker, msg) => this.onSnapshot(ticker, msg),
      delta: (ticker, msg) => this.onDelta(ticker, msg),
      gap: (tickers) => this.onGap(tickers),
      lost: () => this.onLost(),
    });
  }

  // ---- BookFeed ------------------------------------------------------------------

  follow(venueMarketId: string): void {
    if (this.closed) return;
    const now = this.clock();
    const known = this.markets.get(venueMarketId);
    if (known !== undefined) {
      known.followedAtMs = now;
      return;
    }
    this.markets.set(venueMarketId, {
      ticker: venueMarketId,
      followedAtMs: now,
      ladders: emptyLadders(),
      hasBook: false,
      stale: true,
      asOfMs: now,
      awaiting: true,
      askedAtMs: null,
      heardAtMs: now,
      checkedAtMs: now,
      checking: false,
      version: 0,
      fed: null,
    });
    this.start();
    this.scheduleSync();
  }

  current(venueMarketId: string): FedBook | undefined {
    const m = this.markets.get(venueMarketId);
    if (m === undefined || !m.hasBook) return undefined;
    m.fed ??= Object.freeze({ book: frozenView(viewOfLadders(m.ticker, m.ladders)), asOf: new Date(m.asOfMs), stale: m.stale });
    return m.fed;
  }

  onChange(listener: (venueMarketId: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
    this.markets.clear();
    this.listeners.clear();
    await this.stream.close();
    await Promise.all([...this.checks]);
  }

  status(): KalshiBookFeedStatus {
    return {
      stream: this.stream.status(),
      followed: [...this.markets.keys()],
      subscribedMarkets: this.stream.subscribedMarkets,
      gaps: this.gaps,
      snapshots: this.snapshots,
      quietChecks: { ...this.quietChecks },
    };
  }

  // ---- lifecycle -----------------------------------------------------------------

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.stream.start();
    const every = Math.max(5, Math.min(1000, Math.floor(Math.min(this.quietMs, this.idleMs) / 4)));
    this.tickTimer = setInterval(() => this.tick(), every);
    this.tickTimer.unref();
  }

  /** Follows and idles of one turn go out as one command. */
  private scheduleSync(): void {
    if (this.syncScheduled) return;
    this.syncScheduled = true;
    queueMicrotask(() => {
      this.syncScheduled = false;
      if (!this.closed) this.stream.sync();
    });
  }

  private tick(): void {
    if (this.closed) return;
    const now = this.clock();
    for (const m of [...this.markets.values()]) {
      if (now - m.followedAtMs >= this.idleMs) this.unfollow(m);
    }
    for (const m of this.markets.values()) {
      if (this.checks.size >= MAX_CHECKS_IN_FLIGHT) break;
      if (m.checking || !this.stream.isLive(m.ticker) || now - Math.max(m.heardAtMs, m.checkedAtMs) < this.quietMs) continue;
      if (!m.hasBook) {
        // Its first snapshot never came: ask again (there is nothing to compare yet).
        m.checkedAtMs = now;
        this.stream.askSnapshot([m.ticker]);
        continue;
      }
      this.startCheck(m);
    }
  }

  private unfollow(m: Market): void {
    this.markets.delete(m.ticker);
    this.scheduleSync();
    this.listeners.tell(m.ticker);
  }

  // ---- what the stream says --------------------------------------------------------

  private asked(tickers: readonly string[]): void {
    const now = this.clock();
    for (const ticker of tickers) {
      const m = this.markets.get(ticker);
      if (m !== undefined) m.askedAtMs = now;
    }
  }

  private onSnapshot(ticker: string, msg: unknown): void {
    const m = this.markets.get(ticker);
    if (m === undefined) return;
    const now = this.clock();
    m.version += 1;
    m.heardAtMs = now;
    const ladders = laddersFromSnapshot(msg);
    if (ladders === null) {
      // Unreadable: the book cannot be vouched for, nor its deltas applied; the quiet check asks again.
      m.awaiting = true;
      m.askedAtMs = null;
      return this.markStale(m);
    }
    this.snapshots += 1;
    m.ladders = ladders;
    m.hasBook = true;
    m.stale = false;
    m.awaiting = false;
    m.askedAtMs = null;
    m.asOfMs = messageTimeMs(msg) ?? now;
    this.changed(m);
  }

  private onDelta(ticker: string, msg: unknown): void {
    const m = this.markets.get(ticker);
    if (m === undefined) return;
    const now = this.clock();
    m.version += 1;
    m.heardAtMs = now;
    if (m.awaiting) {
      // Its snapshot is on its way, or was lost (a frozen feed thawing): ask again after a while.
      if (m.askedAtMs === null || now - m.askedAtMs >= this.stream.handshakeTimeoutMs) this.stream.askSnapshot([ticker]);
      return this.markStale(m);
    }
    if (applyDelta(m.ladders, msg) !== 'applied') {
      m.awaiting = true;
      this.stream.askSnapshot([ticker]);
      return this.markStale(m);
    }
    m.asOfMs = messageTimeMs(msg) ?? now;
    this.changed(m);
  }

  private onGap(tickers: readonly string[]): void {
    this.gaps += 1;
    const now = this.clock();
    const ask: string[] = [];
    const flipped: Market[] = [];
    for (const ticker of tickers) {
      const m = this.markets.get(ticker);
      if (m === undefined) continue;
      m.version += 1;
      m.awaiting = true;
      // A snapshot already on its way arrives after the gap: it repairs the book as well.
      if (m.askedAtMs === null || now - m.askedAtMs >= this.stream.handshakeTimeoutMs) ask.push(ticker);
      if (m.hasBook && !m.stale) {
        m.stale = true;
        m.fed = null;
        flipped.push(m);
      }
    }
    if (ask.length > 0) this.stream.askSnapshot(ask);
    for (const m of flipped) this.listeners.tell(m.ticker);
  }

  private onLost(): void {
    if (this.closed) return;
    const flipped: Market[] = [];
    for (const m of this.markets.values()) {
      m.version += 1;
      m.awaiting = true;
      m.askedAtMs = null;
      if (m.hasBook && !m.stale) {
        m.stale = true;
        m.fed = null;
        flipped.push(m);
      }
    }
    for (const m of flipped) this.listeners.tell(m.ticker);
  }

  // ---- the quiet check ---------------------------------------------------------------

  private startCheck(m: Market): void {
    m.checking = true;
    const check = this.check(m)
      .catch(() => undefined)
      .finally(() => {
        m.checking = false;
        this.checks.delete(check);
      });
    this.checks.add(check);
  }

  private async check(m: Market): Promise<void> {
    const startedAtMs = this.clock();
    const version = m.version;
    let rest: OrderBookView | null = null;
    try {
      rest = await this.rest.orderBook(m.ticker, EVERY_LEVEL);
    } catch {
      rest = null;
    }
    m.checkedAtMs = this.clock();
    // Closed, unfollowed, or the market spoke (or lost its feed) meanwhile: it was not quiet.
    if (this.closed || this.markets.get(m.ticker) !== m || m.version !== version) return;
    let taken: KalshiLadders | null = null;
    if (rest !== null && !sameBook(viewOfLadders(m.ticker, m.ladders), rest)) {
      try {
        taken = laddersFromView(rest);
      } catch {
        rest = null;
      }
    }
    if (rest === null) {
      // The venue could not be asked: the book cannot be vouched for; a snapshot may repair it.
      this.quietChecks.failed += 1;
      m.awaiting = true;
      this.stream.askSnapshot([m.ticker]);
      return this.markStale(m);
    }
    if (taken === null) {
      this.quietChecks.equal += 1;
      // A quiet market: fresh, asOf as it was. A snapshot still outstanding (asked while frozen) is asked again.
      if (m.awaiting) this.stream.askSnapshot([m.ticker]);
      if (m.stale) {
        m.stale = false;
        this.changed(m);
      }
      return;
    }
    // A frozen feed: the REST book, stale until a fresh snapshot replaces it.
    this.quietChecks.different += 1;
    m.ladders = taken;
    m.asOfMs = startedAtMs;
    m.stale = true;
    m.awaiting = true;
    this.stream.askSnapshot([m.ticker]);
    this.changed(m);
  }

  // ---- telling the readers -----------------------------------------------------------

  private markStale(m: Market): void {
    if (!m.hasBook || m.stale) return;
    m.stale = true;
    this.changed(m);
  }

  private changed(m: Market): void {
    m.fed = null;
    this.listeners.tell(m.ticker);
  }
}
