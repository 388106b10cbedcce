import { BookChangeListeners, type BookFeed, type FedBook } from '../bookFeed';
import type { OrderBookView } from '../../domain/orderBookView';
import type { StreamOptions } from '../reconnectingStream';
import { KeptBook, readBook, readFrame, sameLevels, type BookMessage, type BookStatics, type PriceChangeEntry } from './bookMessages';
import { PolymarketMarketStream, type PolymarketMarketStreamStatus } from './marketStream';
import type { PolymarketMarkets, PolymarketMarketTerms } from './orderWire';
import type { PolymarketSession } from './session';

/**
 * Polymarket's live books (core/venues/bookFeed.ts), kept from the public market channel
 * (marketStream.ts) and checked with the venue's book hash (bookMessages.ts). Our markets are
 * condition ids; each is followed through its YES token's book (the catalog's `yesTokenId`), as
 * `PolymarketBooks.orderBook` reads it (marketData.ts): a fed book is deep-equal to that REST book
 * for the same state.
 *
 * - One connection for every followed market, opened with the first and closed with the last: a
 *   market followed later is added with a `subscribe` operation, an idle one (not followed for
 *   `idleMs`) dropped with `unsubscribe`.
 * - Before its token is subscribed, a market's `GET /book` is read once for what the hash needs and
 *   the channel does not say (`min_order_size`, `neg_risk`); its first book is the channel's.
 * - `book` replaces the book, `price_change` sets levels (the level's new total), in the order
 *   received; after each, the hash the venue sent (a `price_change`'s last entry for the token) is
 *   checked against the kept book: a match makes the book fresh, a mismatch (a lost message) stale
 *   at once, and `GET /book` is read for a fresh snapshot, which replaces the book if it is still
 *   stale then (fresh if its own hash checks the same way and the channel is connected; repairs
 *   of one market at least `resyncMs` apart). `last_trade_price` and `tick_size_change` update
 *   what the next hashes are over.
 * - A connection lost makes every book stale at once, until the next connection's `book` messages
 *   (the subscription's answer) are checked.
 * - The quiet check: a market with no message for `quietMs` is compared with `GET /book` (unless
 *   a message arrived meanwhile): the same levels, it is fresh (a quiet market; stale while the
 *   channel is not connected); different, or no book yet, it is stale, takes the REST book and
 *   its token is subscribed again (a fresh `book`). A book is fresh again when a hash checks
 *   or a later quiet check finds it equal.
 * - `asOf`: the venue's timestamp of the last `book` or `price_change` applied, or of the REST
 *   snapshot taken or found equal.
 * - Listeners hear each book change, snapshot and change of staleness (not an idle market's
 *   removal); a listener that throws is ignored.
 *
 * Nothing here logs; a REST or catalog read that fails is tried again after `retryMs`. All timers
 * are unref'd.
 */

export const POLYMARKET_BOOK_FEED_DEFAULT_QUIET_MS = 10_000;
export const POLYMARKET_BOOK_FEED_DEFAULT_IDLE_MS = 300_000;
export const POLYMARKET_BOOK_FEED_DEFAULT_RETRY_MS = 5_000;
export const POLYMARKET_BOOK_FEED_DEFAULT_RESYNC_MS = 1_000;

export interface PolymarketBookFeedOptions {
  /** The market channel (production wss://ws-subscriptions-clob.polymarket.com/ws/market). */
  readonly wsUrl: string;
  /** Condition id -> the market's tokens (the catalog). */
  readonly markets: Pick<PolymarketMarkets, 'byVenueMarketId'>;
  /** A (public) CLOB session: `GET /book` of a token, for the statics, the snapshots and the quiet check. */
  readonly session: Pick<PolymarketSession, 'request'>;
  /** Silence after which a market's book is compared with REST (10 s). */
  readonly quietMs?: number;
  /** A market not followed for this long is unsubscribed (5 min). */
  readonly idleMs?: number;
  /** The wait before a failed catalog or REST read is tried again (5 s). */
  readonly retryMs?: number;
  /** The least time between two repair snapshots of one market (1 s). */
  readonly resyncMs?: number;
  /** How often idleness and silence are looked at; min(1 s, quietMs / 4) by default. */
  readonly sweepMs?: number;
  /** The connection's settings: liveness, backoff, handshake timeout, PING interval, random. */
  readonly stream?: Partial<Omit<StreamOptions, 'wsUrl' | 'clock'>> & { readonly pingIntervalMs?: number };
  readonly clock?: () => number;
}

export interface PolymarketBookFeedStatus {
  readonly stream: PolymarketMarketStreamStatus | null;
  /** Markets followed (subscribed or not yet). */
  readonly markets: number;
  readonly stale: number;
  /** Hashes that did not match the kept book (a lost message, or a book we could not follow). */
  readonly hashMismatches: number;
  /** Repair snapshots read after a mismatch. */
  readonly snapshots: number;
  /** Quiet checks that found the book different from REST (a frozen feed). */
  readonly quietDifferences: number;
  /** `book`/`price_change`/... messages we could not read. */
  readonly malformed: number;
}

type Summary = { readonly kind: 'book'; readonly book: BookMessage } | { readonly kind: 'failed' };

interface Followed {
  readonly venueMarketId: string;
  askedAtMs: number;
  /** Removed (idle or closed): late answers are dropped. */
  gone: boolean;
  /** Catalog lookup and statics read running. */
  settingUp: boolean;
  /** When a failed setup may run again. */
  setupRetryAtMs: number;
  /** The YES token, once known. */
  token: string | null;
  statics: BookStatics | null;
  /** Subscribed (its token in `assets()`). */
  subscribed: boolean;
  book: KeptBook | null;
  /** What `current()` answers, built when asked after a change (null: to build). */
  fed: FedBook | null;
  asOfMs: number;
  stale: boolean;
  /** Our clock: the last message about it, or its subscription. */
  heardAtMs: number;
  /** Bumped by each message applied. */
  version: number;
  /** A repair snapshot: running, and whether another is owed after it. */
  repairing: boolean;
  repairAgain: boolean;
  /** When an owed repair may run (null: none owed). */
  repairAtMs: number | null;
  lastRepairAtMs: number;
  checking: boolean;
}

export class PolymarketBookFeed implements BookFeed {
  private readonly followed = new Map<string, Followed>();
  private readonly byToken = new Map<string, Followed>();
  private readonly listeners = new BookChangeListeners();
  private readonly clock: () => number;
  private readonly quietMs: number;
  private readonly idleMs: number;
  private readonly retryMs: number;
  private readonly resyncMs: number;
  private readonly sweepMs: number;
  private stream: PolymarketMarketStream | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly closing = new Set<Promise<void>>();
  private counts = { hashMismatches: 0, snapshots: 0, quietDifferences: 0, malformed: 0 };

  constructor(private readonly options: PolymarketBookFeedOptions) {
    const url = new URL(options.wsUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error('a Polymarket WebSocket URL must be ws: or wss:');
    this.clock = options.clock ?? Date.now;
    this.quietMs = options.quietMs ?? POLYMARKET_BOOK_FEED_DEFAULT_QUIET_MS;
    this.idleMs = options.idleMs ?? POLYMARKET_BOOK_FEED_DEFAULT_IDLE_MS;
    this.retryMs = options.retryMs ?? POLYMARKET_BOOK_FEED_DEFAULT_RETRY_MS;
    this.resyncMs = options.resyncMs ?? POLYMARKET_BOOK_FEED_DEFAULT_RESYNC_MS;
    this.sweepMs = options.sweepMs ?? Math.max(5, Math.min(1000, Math.floor(this.quietMs / 4)));
    if (!(this.quietMs > 0 && this.idleMs > 0 && this.retryMs > 0 && this.resyncMs >= 0 && this.sweepMs > 0)) {
      throw new Error('PolymarketBookFeed: quietMs, idleMs, retryMs and sweepMs must be positive, resyncMs not negative');
    }
  }

  // ---- BookFeed ------------------------------------------------------------------

  follow(venueMarketId: string): void {
    if (this.closed) return;
    const now = this.clock();
    const known = this.followed.get(venueMarketId);
    if (known !== undefined) {
      known.askedAtMs = now;
      if (!known.subscribed && !known.settingUp && now >= known.setupRetryAtMs) void this.setUp(known);
      return;
    }
    const market: Followed = {
      venueMarketId,
      askedAtMs: now,
      gone: false,
      settingUp: false,
      setupRetryAtMs: 0,
      token: null,
      statics: null,
      subscribed: false,
      book: null,
      fed: null,
      asOfMs: 0,
      stale: false,
      heardAtMs: now,
      version: 0,
      repairing: false,
      repairAgain: false,
      repairAtMs: null,
      lastRepairAtMs: -Infinity,
      checking: false,
    };
    this.followed.set(venueMarketId, market);
    this.startSweeping();
    void this.setUp(market);
  }

  current(venueMarketId: string): FedBook | undefined {
    const market = this.followed.get(venueMarketId);
    if (market === undefined || market.book === null) return undefined;
    // Built when asked after a change: many messages may come between two reads.
    market.fed ??= Object.freeze({ book: freezeView(market.book.view(market.venueMarketId)), asOf: new Date(market.asOfMs), stale: market.stale });
    return market.fed;
  }

  onChange(listener: (venueMarketId: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const market of this.followed.values()) market.gone = true;
    this.followed.clear();
    this.byToken.clear();
    this.listeners.clear();
    const stream = this.stream;
    this.stream = null;
    if (stream !== null) this.closing.add(stream.close());
    await Promise.all([...this.closing]);
  }

  status(): PolymarketBookFeedStatus {
    return {
      stream: this.stream?.status() ?? null,
      markets: this.followed.size,
      stale: [...this.followed.values()].filter((m) => m.book !== null && m.stale).length,
      ...this.counts,
    };
  }

  // ---- following and leaving -------------------------------------------------------

  /** The market's YES token (catalog) and statics (`GET /book`), then its subscription. */
  private async setUp(market: Followed): Promise<void> {
    market.settingUp = true;
    try {
      if (market.token === null) {
        let terms: PolymarketMarketTerms | null;
        try {
          terms = await this.options.markets.byVenueMarketId(market.venueMarketId);
        } catch {
          terms = null;
        }
        if (market.gone) return;
        if (terms === null) {
          market.setupRetryAtMs = this.clock() + this.retryMs;
          return;
        }
        const other = this.byToken.get(terms.yesTokenId);
        if (other !== undefined && other !== market) {
          market.setupRetryAtMs = this.clock() + this.retryMs;
          return;
        }
        market.token = terms.yesTokenId;
      }
      const summary = await this.summary(market.token);
      if (market.gone) return;
      if (summary.kind === 'failed') {
        market.setupRetryAtMs = this.clock() + this.retryMs;
        return;
      }
      this.takeStatics(market, summary.book);
      market.subscribed = true;
      market.heardAtMs = this.clock();
      this.byToken.set(market.token, market);
      if (this.stream === null) this.openStream();
      else this.stream.subscribe([market.token]);
    } finally {
      market.settingUp = false;
    }
  }

  private openStream(): void {
    const { pingIntervalMs, ...stream } = this.options.stream ?? {};
    this.stream = new PolymarketMarketStream({
      ...stream,
      ...(pingIntervalMs === undefined ? {} : { pingIntervalMs }),
      wsUrl: this.options.wsUrl,
      clock: this.clock,
      assets: () => [...this.byToken.keys()],
      onFrame: (text) => this.onFrame(text),
      onLost: () => this.onLost(),
    });
    this.stream.start();
  }

  private leave(market: Followed): void {
    market.gone = true;
    this.followed.delete(market.venueMarketId);
    if (market.token !== null && this.byToken.get(market.token) === market) {
      this.byToken.delete(market.token);
      this.stream?.unsubscribe([market.token]);
    }
    if (this.byToken.size === 0 && this.stream !== null) {
      const closing = this.stream.close();
      this.stream = null;
      this.closing.add(closing);
      void closing.finally(() => this.closing.delete(closing));
    }
    if (this.followed.size === 0 && this.sweeper !== null) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  // ---- the channel ----------------------------------------------------------------

  private onFrame(text: string): void {
    for (const message of readFrame(text)) {
      if (this.closed) return;
      if (message === 'malformed') {
        this.counts.malformed += 1;
        continue;
      }
      switch (message.kind) {
        case 'book':
          this.onBook(message);
          break;
        case 'price_change':
          this.onPriceChange(message.timestamp, message.changes);
          break;
        case 'last_trade_price': {
          const market = this.byToken.get(message.assetId);
          if (market === undefined) break;
          market.heardAtMs = this.clock();
          market.version += 1;
          market.book?.lastTrade(message.price);
          break;
        }
        case 'tick_size_change': {
          const market = this.byToken.get(message.assetId);
          if (market === undefined) break;
          market.heardAtMs = this.clock();
          market.version += 1;
          market.book?.tickSize(message.newTickSize);
          break;
        }
      }
    }
  }

  private onBook(message: BookMessage): void {
    const market = this.byToken.get(message.assetId);
    if (market === undefined || market.statics === null) return;
    market.heardAtMs = this.clock();
    market.version += 1;
    if (market.book === null) market.book = new KeptBook(message.assetId, message);
    else market.book.replace(message);
    this.verdict(market, market.book.hash(message.timestamp, market.statics) === message.hash);
    this.publish(market, Number(message.timestamp));
  }

  private onPriceChange(timestamp: string, changes: readonly PriceChangeEntry[]): void {
    const byAsset = new Map<string, PriceChangeEntry[]>();
    for (const change of changes) {
      const entries = byAsset.get(change.assetId);
      if (entries === undefined) byAsset.set(change.assetId, [change]);
      else entries.push(change);
    }
    for (const [assetId, entries] of byAsset) {
      const market = this.byToken.get(assetId);
      if (market === undefined) continue;
      market.heardAtMs = this.clock();
      market.version += 1;
      // No book yet (its `book` did not come): nothing to apply to; the quiet check brings one.
      if (market.book === null || market.statics === null) continue;
      for (const entry of entries) market.book.setLevel(entry.side, entry.price, entry.size);
      // Each entry's hash is of the book after it: the last one for the token is of the book after the message.
      const hash = [...entries].reverse().find((e) => e.hash !== undefined)?.hash;
      if (hash !== undefined) this.verdict(market, market.book.hash(timestamp, market.statics) === hash);
      this.publish(market, Number(timestamp));
    }
  }

  /** A hash checked: a match makes the book fresh; a mismatch stale, and a snapshot is asked for. */
  private verdict(market: Followed, matched: boolean): void {
    if (matched) {
      market.stale = false;
      market.repairAtMs = null;
      market.repairAgain = false;
      return;
    }
    this.counts.hashMismatches += 1;
    market.stale = true;
    this.askRepair(market);
  }

  /** The connection ended: every book is stale until the next connection's books. */
  private onLost(): void {
    for (const market of this.byToken.values()) {
      if (market.book === null || market.stale) continue;
      market.stale = true;
      this.publish(market, market.asOfMs);
    }
  }

  // ---- snapshots and the quiet check ------------------------------------------------

  private askRepair(market: Followed): void {
    if (market.repairing) {
      market.repairAgain = true;
      return;
    }
    const due = market.lastRepairAtMs + this.resyncMs;
    if (this.clock() >= due) void this.repair(market);
    else market.repairAtMs = Math.min(market.repairAtMs ?? due, due);
  }

  /** A stale book replaced by `GET /book` (if still stale when it answers). */
  private async repair(market: Followed): Promise<void> {
    market.repairing = true;
    market.repairAgain = false;
    market.repairAtMs = null;
    market.lastRepairAtMs = this.clock();
    this.counts.snapshots += 1;
    const summary = await this.summary(market.token!);
    market.repairing = false;
    if (market.gone || this.closed) return;
    if (summary.kind === 'failed') {
      if (market.stale) market.repairAtMs = this.clock() + this.retryMs;
      return;
    }
    this.takeStatics(market, summary.book);
    if (!market.stale) return; // a hash checked meanwhile
    this.takeSnapshot(market, summary.book);
    // Fresh when we can follow it (its hash is ours) and the channel is there to tell what follows.
    market.stale = market.book!.hash(summary.book.timestamp, market.statics!) !== summary.book.hash || !this.channelUp();
    this.publish(market, Number(summary.book.timestamp));
    if (market.stale && market.repairAgain) this.askRepair(market);
  }

  private async quietCheck(market: Followed): Promise<void> {
    market.checking = true;
    const version = market.version;
    const summary = await this.summary(market.token!);
    market.checking = false;
    if (market.gone || this.closed) return;
    market.heardAtMs = Math.max(market.heardAtMs, this.clock());
    if (summary.kind === 'failed' || market.version !== version || market.repairing) return; // messages came meanwhile: not quiet
    this.takeStatics(market, summary.book);
    const rest = new KeptBook(summary.book.assetId, summary.book).view(market.venueMarketId);
    const equal = market.book !== null && sameLevels(market.book.view(market.venueMarketId), rest);
    if (!equal) this.counts.quietDifferences += 1;
    const wasStale = market.stale;
    this.takeSnapshot(market, summary.book);
    market.stale = !equal || !this.channelUp();
    // Equal and as stale as before: nothing a reader would see changed but `asOf`.
    this.publish(market, Number(summary.book.timestamp), !equal || market.stale !== wasStale);
    if (!equal) this.stream?.resubscribe(market.token!);
  }

  private channelUp(): boolean {
    return this.stream?.status().state === 'connected';
  }

  private takeSnapshot(market: Followed, book: BookMessage): void {
    market.version += 1;
    if (market.book === null) market.book = new KeptBook(book.assetId, book);
    else market.book.replace(book);
  }

  private takeStatics(market: Followed, book: BookMessage): void {
    if (book.minOrderSize !== undefined && book.negRisk !== undefined) market.statics = { minOrderSize: book.minOrderSize, negRisk: book.negRisk };
  }

  /** `GET /book` of a token, as the venue wrote it. */
  private async summary(token: string): Promise<Summary> {
    try {
      const outcome = await this.options.session.request('GET', '/book', { auth: 'public', query: { token_id: token } });
      if (outcome.kind !== 'answered') return { kind: 'failed' };
      const book = readBook(outcome.body);
      return book === null || book.assetId !== token || book.minOrderSize === undefined || book.negRisk === undefined ? { kind: 'failed' } : { kind: 'book', book };
    } catch {
      return { kind: 'failed' };
    }
  }

  // ---- timers and listeners ---------------------------------------------------------

  private startSweeping(): void {
    if (this.sweeper !== null || this.closed) return;
    this.sweeper = setInterval(() => this.sweep(), this.sweepMs);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = this.clock();
    for (const market of [...this.followed.values()]) {
      if (now - market.askedAtMs >= this.idleMs) {
        this.leave(market);
        continue;
      }
      if (!market.subscribed) {
        if (!market.settingUp && now >= market.setupRetryAtMs) void this.setUp(market);
        continue;
      }
      if (market.repairAtMs !== null && now >= market.repairAtMs && !market.repairing) void this.repair(market);
      else if (!market.checking && !market.repairing && now - market.heardAtMs >= this.quietMs) void this.quietCheck(market);
    }
  }

  /** The book changed (its levels, `asOf` or staleness); listeners told (unless nothing but `asOf` changed). */
  private publish(market: Followed, asOfMs: number, notify = true): void {
    if (market.book === null || market.gone) return;
    if (Number.isFinite(asOfMs)) market.asOfMs = asOfMs;
    market.fed = null;
    if (!notify) return;
    this.listeners.tell(market.venueMarketId);
  }
}

function freezeView(view: OrderBookView): OrderBookView {
  for (const level of view.bids) Object.freeze(level);
  for (const level of view.asks) Object.freeze(level);
  Object.freeze(view.bids);
  Object.freeze(view.asks);
  return Object.freeze(view);
}
