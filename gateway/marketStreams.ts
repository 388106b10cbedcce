import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { MARKET_NOTICE_TOPIC, type EventNotices } from '../contract/eventNotices';
import type { Principal } from '../contract/principal';
import type { Logger } from '../core/support/logger';
import { outsideRequest } from '../core/support/requestContext';
import type { CoreClient } from './coreClient';
import { openEventStream } from './eventStreamAnswer';
import { refusalsDelayed } from './refusalDelay';
import type { StreamAdmission } from './streamAdmission';

/**
 * Server-Sent Events of markets' books, trades and quotes (GET /v1/markets/stream, docs/market-data.md,
 * "The market-data stream").
 *
 * One hub per market, depth, workspace and environment with streams open on this gateway: when a
 * notice says a market may have moved (MARKET_NOTICE_TOPIC: Redis pub/sub across replicas,
 * in-process otherwise), or every `pollMs` in case a notice was lost or the venue moved on its own,
 * the hub reads the market once (GetMarketDataState: book, quote, newest trades) and hands every
 * stream of the hub what changed: the book's changed levels (`delta`), each new trade (`trade`),
 * a changed quote (`ticker`). Every message of a market carries the hub's `seq`, one more each
 * message; a stream starts each market with a `snapshot` at the current seq. A stream whose client
 * cannot keep up skips messages and, once it has caught up, is sent a fresh snapshot (its seq
 * jumps: the snapshot replaces the book); a reconnected stream starts with snapshots too.
 */
export interface MarketStreamOptions {
  heartbeatMs: number;
  /** How often a hub reads its market even without a notice (MARKET_STREAM_POLL_MS). */
  pollMs: number;
  maxAgeMs: number;
}

export interface MarketStreamRequest {
  principal: Exclude<Principal, { kind: 'gateway' }> & { environment: 'test' | 'live'; workspaceId: string };
  credentialId: string;
  marketIds: string[];
  depth: number;
  recheck: () => Promise<boolean>;
}

interface Level {
  price: string;
  quantity: string;
}
interface SideBook {
  bids: Level[];
  asks: Level[];
}
interface Trade {
  id: string;
  price: string;
  quantity: string;
  taker_side: string;
  executed_at: string;
}
/** GetMarketDataState's answer. */
interface MarketState {
  orderBook: { market_id: string; venue: string; venue_market_id: string; yes: SideBook; no: SideBook; mid: string | null; as_of: string };
  market: Record<string, unknown> & { as_of: string | null; stale: boolean };
  marketTrades: { data: Trade[] };
}

/** One change of a level: its new quantity ("0": gone). */
interface LevelChange {
  outcome: 'yes' | 'no';
  side: 'bid' | 'ask';
  price: string;
  quantity: string;
}

/** Bytes a stream may have waiting for its client before it skips messages (and is sent snapshots once it has caught up). */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** How long an ended stream's connection stays for its client to read what was sent last. */
const GRACE_MS = 5000;

const frame = (type: string, payload: object): Buffer => Buffer.from(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);

/** The levels whose quantity changed from `before` to `after` (a level gone is quantity "0"). */
function levelChanges(outcome: 'yes' | 'no', side: 'bid' | 'ask', before: Level[], after: Level[]): LevelChange[] {
  const was = new Map(before.map((l) => [Number(l.price), l]));
  const now = new Map(after.map((l) => [Number(l.price), l]));
  const changes: LevelChange[] = [];
  for (const [price, level] of now) {
    if (was.get(price)?.quantity !== level.quantity) changes.push({ outcome, side, price: level.price, quantity: level.quantity });
  }
  for (const [price, level] of was) if (!now.has(price)) changes.push({ outcome, side, price: level.price, quantity: '0' });
  return changes;
}

function bookChanges(before: MarketState['orderBook'], after: MarketState['orderBook']): LevelChange[] {
  return [
    ...levelChanges('yes', 'bid', before.yes.bids, after.yes.bids),
    ...levelChanges('yes', 'ask', before.yes.asks, after.yes.asks),
    ...levelChanges('no', 'bid', before.no.bids, after.no.bids),
    ...levelChanges('no', 'ask', before.no.asks, after.no.asks),
  ];
}

/** The quote without its read time: what a `ticker` message says changed. */
function quoteOf(market: MarketState['market']): Record<string, unknown> {
  const { as_of: _asOf, ...quote } = market;
  return quote;
}

class MarketStream {
  /** The answer, once its head is sent; what is written before waits here. */
  private response?: ServerResponse;
  private waiting: (Buffer | string)[] = [];
  hangUp: () => void = () => this.response?.destroy();
  /** Skipping messages until the client has read what waits: then sent fresh snapshots. */
  private behind = false;
  private ended = false;
  constructor(
    readonly request: MarketStreamRequest,
    private readonly hubs: MarketHub[],
    private readonly onEnd: (stream: MarketStream) => void,
  ) {}
  get open() {
    return !this.ended;
  }
  /** Writes to the answer from now on (what waited first). */
  attach(response: ServerResponse) {
    this.response = response;
    this.hangUp = () => response.destroy();
    response.once('close', () => this.end());
    response.once('error', () => this.end());
    response.on('drain', () => {
      if (!this.behind || this.ended) return;
      this.behind = false;
      for (const hub of this.hubs) this.write(hub.snapshotFrame());
    });
    for (const chunk of this.waiting.splice(0)) this.write(chunk);
  }
  write(chunk: Buffer | string) {
    if (this.ended || this.behind) return;
    if (!this.response) {
      this.waiting.push(chunk);
      return;
    }
    this.response.write(chunk);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) this.behind = true;
  }
  end(options: { now?: boolean } = {}) {
    if (options.now) this.hangUp();
    if (this.ended) return;
    this.ended = true;
    this.response?.end();
    if (!options.now) setTimeout(() => this.hangUp(), GRACE_MS).unref();
    this.onEnd(this);
  }
}

class MarketHub {
  readonly streams = new Set<MarketStream>();
  /** Streams reading their first snapshot, not members yet: the hub is kept for them. */
  joining = 0;
  seq = 0;
  private state?: MarketState;
  private seenTrades = new Set<string>();
  private stale = false;
  private reading?: Promise<void>;
  private again = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly core: CoreClient,
    private readonly logger: Logger,
    readonly marketId: string,
    private readonly depth: number,
    pollMs: number,
  ) {
    this.timer = setInterval(() => void this.refresh(), pollMs);
    this.timer.unref();
  }

  /** A principal to read with: any open stream's (they share workspace and environment). */
  private principal(): Principal | undefined {
    for (const stream of this.streams) if (stream.open) return stream.request.principal;
    return undefined;
  }

  /** The market read with `principal` (the core refuses a market it does not see: not_found). */
  private read(principal: Principal): Promise<MarketState> {
    return this.core.executeRoots('GetMarketDataState', { id: this.marketId, depth: this.depth }, principal) as Promise<unknown> as Promise<MarketState>;
  }

  /**
   * Reads the market first with the principal of a stream about to join (its refusal is that
   * stream's answer); a hub that has read it already is the workspace's, which sees it.
   */
  async start(principal: Principal): Promise<void> {
    if (this.state) return;
    const state = await this.read(principal);
    if (!this.state) {
      this.state = state;
      this.seenTrades = new Set(state.marketTrades.data.map((t) => t.id));
      this.seq += 1;
    }
  }

  snapshotFrame(): Buffer {
    const { orderBook, market } = this.state!;
    return frame('snapshot', { market_id: this.marketId, seq: this.seq, yes: orderBook.yes, no: orderBook.no, mid: orderBook.mid, quote: quoteOf(market), as_of: orderBook.as_of });
  }

  private broadcast(type: string, payload: object): void {
    this.seq += 1;
    const message = frame(type, { market_id: this.marketId, seq: this.seq, ...payload });
    for (const stream of this.streams) stream.write(message);
  }

  /** Reads the market and hands out what changed; a refresh asked for while one runs runs once more after it. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        const principal = this.principal();
        if (!principal || !this.state) return;
        let next: MarketState;
        try {
          next = await this.read(principal);
        } catch (error) {
          if (!this.stale) {
            this.stale = true;
            this.logger.warn({ err: error, marketId: this.marketId }, 'reading a market for its streams failed; its streams are told it is stale');
            this.broadcast('status', { stale: true, message: 'The market cannot be read now; what was sent last may be out of date. A snapshot follows when it can be read again.' });
          }
          return;
        }
        this.apply(next);
      } while (this.again);
    })().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private apply(next: MarketState): void {
    const previous = this.state!;
    this.state = next;
    if (this.stale) {
      // Back after a failed read: what changed meanwhile is not known message by message.
      this.stale = false;
      this.seq += 1;
      const snapshot = this.snapshotFrame();
      for (const stream of this.streams) stream.write(snapshot);
      this.seenTrades = new Set(next.marketTrades.data.map((t) => t.id));
      return;
    }
    const changes = bookChanges(previous.orderBook, next.orderBook);
    if (changes.length > 0) this.broadcast('delta', { changes, mid: next.orderBook.mid, as_of: next.orderBook.as_of });
    const fresh = next.marketTrades.data.filter((t) => !this.seenTrades.has(t.id)).reverse(); // oldest first
    for (const trade of fresh) this.broadcast('trade', { trade });
    this.seenTrades = new Set(next.marketTrades.data.map((t) => t.id));
    if (JSON.stringify(quoteOf(previous.market)) !== JSON.stringify(quoteOf(next.market))) this.broadcast('ticker', { quote: quoteOf(next.market) });
  }

  close() {
    clearInterval(this.timer);
  }
}

export class MarketStreams {
  private readonly hubs = new Map<string, MarketHub>();
  private readonly byMarket = new Map<string, Set<MarketHub>>();

  constructor(
    private readonly core: CoreClient,
    notices: EventNotices,
    private readonly logger: Logger,
    private readonly options: MarketStreamOptions,
    private readonly admission: StreamAdmission,
  ) {
    void (async () => {
      for await (const notice of notices.pubSub.subscribe(MARKET_NOTICE_TOPIC)) {
        for (const hub of this.byMarket.get(notice.marketId) ?? []) void hub.refresh();
      }
    })();
  }

  /** Opens a stream of `request.marketIds` as the answer of `ctx`; an unknown or unseen market is refused (not_found) before it starts. */
  async open(ctx: Context, request: MarketStreamRequest): Promise<void> {
    let stream: MarketStream | undefined;
    const owner = { credentialId: request.credentialId, workspaceId: request.principal.workspaceId };
    const release = await refusalsDelayed(() => this.admission.admit(owner, () => stream?.end()));
    const hubs = request.marketIds.map((marketId) => this.hubOf(request, marketId));
    const leave = (ended: MarketStream) => {
      for (const hub of hubs) {
        hub.streams.delete(ended);
        this.forgetIfIdle(hub);
      }
    };
    stream = new MarketStream(request, hubs, leave);
    for (const hub of hubs) hub.joining += 1;
    try {
      for (const hub of hubs) await hub.start(request.principal);
    } catch (error) {
      for (const hub of hubs) hub.joining -= 1;
      stream.end({ now: true });
      release();
      throw error;
    }
    for (const hub of hubs) hub.joining -= 1;
    if (ctx.method === 'HEAD') {
      stream.end({ now: true });
      release();
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      return;
    }
    // Each market's snapshot, then (in the same turn: nothing in between) the stream joins its hubs.
    stream.write('retry: 1000\n\n');
    for (const hub of hubs) {
      stream.write(hub.snapshotFrame());
      hub.streams.add(stream);
    }
    const response = openEventStream(ctx);
    response.once('close', release);
    stream.attach(response);
    const heartbeat = setInterval(() => {
      stream.write(': keep-alive\n\n');
      request.recheck().then((valid) => !valid && stream.end(), () => undefined);
    }, this.options.heartbeatMs);
    const maxAge = setTimeout(() => stream.end(), this.options.maxAgeMs);
    response.once('close', () => {
      clearInterval(heartbeat);
      clearTimeout(maxAge);
    });
  }

  private hubOf(request: MarketStreamRequest, marketId: string): MarketHub {
    const key = `${request.principal.workspaceId}:${request.principal.environment}:${marketId}:${request.depth}`;
    let hub = this.hubs.get(key);
    if (!hub) {
      hub = outsideRequest(() => new MarketHub(this.core, this.logger, marketId, request.depth, this.options.pollMs));
      this.hubs.set(key, hub);
      const forMarket = this.byMarket.get(marketId) ?? new Set();
      forMarket.add(hub);
      this.byMarket.set(marketId, forMarket);
    }
    return hub;
  }

  private forgetIfIdle(hub: MarketHub): void {
    if (hub.streams.size > 0 || hub.joining > 0) return;
    hub.close();
    for (const [key, kept] of this.hubs) if (kept === hub) this.hubs.delete(key);
    const forMarket = this.byMarket.get(hub.marketId);
    forMarket?.delete(hub);
    if (forMarket?.size === 0) this.byMarket.delete(hub.marketId);
  }
}
