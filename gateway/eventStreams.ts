import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { EVENT_NOTICE_TOPIC, type EventNotices } from '../contract/eventNotices';
import type { Principal } from '../contract/principal';
import type { Logger } from '../core/support/logger';
import type { CoreClient } from './coreClient';
import { answerAsEventStream } from './eventStreamAnswer';
import { restEventPage } from '../contract/eventShape';
import { eventId, readTypeFilter, typeMatches, type TypeFilter } from '../contract/eventTypes';
import { outsideRequest } from '../core/support/requestContext';
import type { StreamAdmission } from './streamAdmission';
import { refusalsDelayed } from './refusalDelay';
import { Turns } from './turns';

/**
 * Server-Sent Events of the event log (GET /v1/events/stream, docs/events.md).
 *
 * One hub per workspace and environment with streams open on this gateway: when a notice says the
 * log moved on (EventNotices: Redis pub/sub across replicas, in-process otherwise), or every
 * `pollMs` in case a notice was lost, the hub reads the new events once (ListEvents after the last
 * one it read, the same operation and JSON as GET /v1/events) and hands each to every stream of
 * the hub whose filter takes it. A stream that starts from an event (Last-Event-ID, or `after`)
 * first reads the log from there itself, then joins its hub where the hub stands: every event
 * after its start once, in log order. A client too slow to take its events is disconnected (it
 * reconnects with Last-Event-ID and loses nothing); a stream is ended after `maxAgeMs` for the same
 * reason, so that its credential is checked again.
 */
export interface EventStreamOptions {
  /** A comment line every so often (EVENT_STREAM_HEARTBEAT_MS, 15 s), so proxies and clients see the connection is alive. */
  heartbeatMs: number;
  /** How often a hub reads the log even without a notice (EVENT_STREAM_POLL_MS). */
  pollMs: number;
  /** How long a stream lasts before it is ended for the client to reconnect (EVENT_STREAM_MAX_AGE_MS). */
  maxAgeMs: number;
  /** Catch-up reads of the log one workspace (in one environment) may have in flight at once here (EVENT_CATCH_UP_PER_WORKSPACE). */
  catchUpReads: number;
  /** Events a second one workspace's (and environment's) catching-up streams are fed here, all together (EVENT_CATCH_UP_EVENTS_PER_SECOND). */
  catchUpEventsPerSecond: number;
}

export interface StreamRequest {
  principal: Exclude<Principal, { kind: 'gateway' }> & { environment: 'test' | 'live'; workspaceId: string };
  /** Whose streams are counted together: the API key, dashboard token or session. */
  credentialId: string;
  /** Event types to send (exact or `order.*`), every type when empty; checked by the core's ListEvents first. */
  types: string[];
  subaccountId?: string;
  /** Start after this event (Last-Event-ID or `after`); from now when absent. */
  after?: string;
  /** Whether the stream's credential still authenticates (asked every heartbeat); false ends the stream. */
  recheck: () => Promise<boolean>;
}

/** What the hub reads: an event of ListEvents, as REST shows it. */
interface RestEvent {
  id: string;
  type: string;
  subaccount_id: string | null;
}

interface EventPage {
  data: RestEvent[];
  has_more: boolean;
}

/** A page of the log as catching-up streams share it: its events, each with its frame, and all its frames in one buffer. */
interface FramedPage {
  data: RestEvent[];
  frames: Buffer[];
  whole: Buffer;
  /** Where the hub stood when the read began: an empty page says nothing readable comes up to there. */
  headAtRead: string | undefined;
}

/** Bytes a stream may have waiting for a slow client before it is disconnected. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** While a stream catches up from the log, it takes its next turn once its client has less than this unread. */
const CATCH_UP_BUFFERED_BYTES = 64 * 1024;
/** The most of a page one turn writes to a stream (a page of ordinary events is far less); the stream's unread bytes stay below MAX_BUFFERED_BYTES. */
const CATCH_UP_PAGE_BYTES = 512 * 1024;
/** How long an ended stream's connection stays for its client to read what was sent last. */
const GRACE_MS = 5000;
/** Reads of the log that fail in a row before a hub ends its streams (they reconnect, to another gateway maybe): never a stream that looks alive and says nothing. */
const MAX_FAILED_READS = 3;
const PAGE = 200;
/**
 * A catching-up stream's page is smaller than a hub's: rendering a page of events in the core holds
 * the event loop (about 15 ms for 200 events), and a storm of catch-ups must not hold it for long
 * at a time (bench/README.md, "Tenant isolation").
 */
const CATCH_UP_PAGE = 50;
/** Full pages a hub keeps for the streams catching up after it (a full page of the log never changes), and for how long. */
const KEPT_PAGES = 64;
const KEPT_PAGE_MS = 5000;

class Stream {
  /** The types it takes (the core checked them before the stream began). */
  private readonly types: TypeFilter | undefined;
  /** The last event this stream has been given (or decided not to take): its id, which sorts as the log does. */
  cursor: string;
  /** Caught up with its hub: handed the events the hub reads. */
  joined = false;
  readonly body = new PassThrough();
  /** Closes the connection itself (set once the answer is a stream). */
  hangUp: () => void = () => this.body.destroy();
  private ended = false;
  constructor(
    readonly request: StreamRequest,
    start: string,
    private readonly onEnd: (stream: Stream) => void,
  ) {
    this.cursor = start;
    // The core refused an unknown type before the stream began; a type only it knows (a newer core)
    // matches nothing here rather than everything.
    const reading = readTypeFilter(request.types);
    this.types = 'filter' in reading ? reading.filter : { exact: [], prefixes: [] };
    this.body.on('close', () => this.end());
    this.body.on('error', () => this.end());
  }
  get open() {
    return !this.ended;
  }
  /** No filter: the stream takes every event of its hub. */
  get takesAll() {
    return !this.request.subaccountId && this.types === undefined;
  }
  takes(event: RestEvent) {
    const { subaccountId } = this.request;
    if (subaccountId && event.subaccount_id !== subaccountId) return false;
    return typeMatches(this.types, event.type);
  }
  /** Gives the stream the event (its `frame`) if it comes after its cursor (and its filter takes it). */
  offer(event: RestEvent, frame: Buffer) {
    if (this.ended || event.id <= this.cursor) return;
    this.cursor = event.id;
    if (this.takes(event)) this.write(frame);
  }
  /**
   * Gives the stream a page's events after its cursor that its filter takes, in one write (a
   * write per event would cost a turn of the stream's machinery each), up to about `budget` bytes
   * of frames (the rest is for its next turn).
   */
  offerPage(page: FramedPage, budget: number): void {
    const [first, last] = [page.data[0], page.data[page.data.length - 1]];
    if (first && last && first.id > this.cursor && this.takesAll && page.whole.length <= budget) {
      // The whole page, as every stream resuming from the same event takes it: its one buffer, shared.
      this.cursor = last.id;
      this.write(page.whole);
      return;
    }
    const taken: Buffer[] = [];
    let bytes = 0;
    for (const [i, event] of page.data.entries()) {
      if (this.ended) return;
      if (event.id <= this.cursor) continue;
      if (bytes >= budget) break;
      this.cursor = event.id;
      if (!this.takes(event)) continue;
      taken.push(page.frames[i]!);
      bytes += page.frames[i]!.length;
    }
    if (taken.length > 0) this.write(taken.length === 1 ? taken[0]! : Buffer.concat(taken, bytes));
  }
  write(chunk: string | Buffer) {
    if (this.ended) return;
    this.body.write(chunk);
    // A client this far behind is cut off at once (what waits for it is dropped with the
    // connection); reconnecting with Last-Event-ID loses nothing.
    if (this.body.writableLength > MAX_BUFFERED_BYTES) this.end({ now: true });
  }
  /** Resolves when what waits for the client has gone out (or the stream ended). */
  drained(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.body.off('drain', done);
        this.body.off('close', done);
        resolve();
      };
      this.body.once('drain', done);
      this.body.once('close', done);
    });
  }

  /**
   * Ends the stream: no more events; what was written is still sent, and the connection is closed
   * after GRACE_MS whether or not the client read it (`now`: closed at once).
   */
  end(options: { now?: boolean } = {}) {
    if (options.now) this.hangUp();
    if (this.ended) return;
    this.ended = true;
    this.body.end();
    if (!options.now) setTimeout(() => this.hangUp(), GRACE_MS).unref();
    this.onEnd(this);
  }
}

class Hub {
  readonly streams = new Set<Stream>();
  /** The last event read by this hub, or undefined until its start is known. */
  head?: string;
  private headRead?: Promise<void>;
  private again = false;
  private failedReads = 0;
  private readonly timer: NodeJS.Timeout;
  /** Catch-up reads take turns: a workspace's reconnect storm waits on itself, not on the others. */
  private readonly turns: Turns;
  /** Catch-up pages being read, and full ones read lately, by the event they start after. */
  private readonly reading = new Map<string, Promise<FramedPage>>();
  private readonly kept = new Map<string, { page: FramedPage; at: number }>();

  /** The least a catch-up turn lasts: `catchUpReads` turns at once feed at most the pace's events a second. */
  private readonly turnMs: number;

  constructor(
    private readonly core: CoreClient,
    private readonly logger: Logger,
    pollMs: number,
    pace: { catchUpReads: number; catchUpEventsPerSecond: number },
  ) {
    this.timer = setInterval(() => {
      this.forgetPages();
      void this.read();
    }, pollMs);
    this.timer.unref();
    this.turns = new Turns(pace.catchUpReads);
    this.turnMs = (pace.catchUpReads * CATCH_UP_PAGE * 1000) / pace.catchUpEventsPerSecond;
  }

  /**
   * One turn of a stream catching up: the page of the log after its cursor, written to it. The
   * turns of a hub's streams are taken one after another (at most `catchUpReads` at once), so that
   * a workspace's reconnect storm queues behind itself and its work is spread between the other
   * requests; the page is shared by the streams resuming from the same event (every stream of a
   * hub reads the same log: the workspace's, in one environment), read and encoded once.
   */
  catchUpTurn(stream: Stream): Promise<FramedPage> {
    return this.turns.run(async () => {
      const paced = sleep(this.turnMs);
      const page = await this.pageAfter(stream.cursor, stream.request.principal);
      // A page of ordinary events goes whole (its next page is then the one other streams resuming
      // from the same event read: shared); events so large that the page would not fit in what a
      // client may have waiting go over several turns.
      stream.offerPage(page, CATCH_UP_PAGE_BYTES);
      // The turn is held until its share of the pace has passed: a storm of one workspace is fed
      // at the pace whatever its number of streams, and waits on itself.
      await paced;
      return page;
    });
  }

  private pageAfter(after: string, principal: Principal): Promise<FramedPage> {
    const kept = this.kept.get(after);
    if (kept && Date.now() - kept.at < KEPT_PAGE_MS) return Promise.resolve(kept.page);
    let page = this.reading.get(after);
    if (!page) {
      const headAtRead = this.head;
      page = readAfter(this.core, after, principal, CATCH_UP_PAGE)
        .then(({ data }) => {
          const frames = data.map(frameOf);
          const framed = { data, frames, whole: Buffer.concat(frames), headAtRead };
          // Only a full page is kept: a shorter one ends where the log ended then, and grows.
          if (data.length === CATCH_UP_PAGE) this.keep(after, framed);
          return framed;
        })
        .finally(() => this.reading.delete(after));
      this.reading.set(after, page);
    }
    return page;
  }

  private keep(after: string, page: FramedPage) {
    this.kept.delete(after);
    this.kept.set(after, { page, at: Date.now() });
    this.forgetPages();
  }

  /** Drops the kept pages past their time, and the oldest past KEPT_PAGES (on each keep, and each poll). */
  private forgetPages() {
    const now = Date.now();
    for (const [after, { at }] of this.kept) {
      if (this.kept.size <= KEPT_PAGES && now - at < KEPT_PAGE_MS) break; // kept in insertion order: the rest are newer
      this.kept.delete(after);
    }
  }

  /** A principal to read the scope's log with: any open stream's (they all share workspace and environment). */
  private principal(): Principal | undefined {
    for (const stream of this.streams) if (stream.open) return stream.request.principal;
    return undefined;
  }

  /** Where the log of the scope stands now: its newest event (or the start of the log). */
  async start(principal: Principal): Promise<string> {
    if (this.head === undefined) {
      const newest = (await this.core.execute('ListEvents', { limit: 1 }, principal)) as EventPage;
      this.head ??= newest.data[0]?.id ?? LOG_START;
    }
    return this.head;
  }

  /** Reads the events after the head and hands them out; a read asked for while one runs runs once more after it. */
  read(): Promise<void> {
    if (this.headRead) {
      this.again = true;
      return this.headRead;
    }
    this.headRead = (async () => {
      do {
        this.again = false;
        const principal = this.principal();
        if (!principal || this.head === undefined) return;
        for (;;) {
          const page = await readAfter(this.core, this.head, principal);
          for (const event of page.data) {
            const frame = frameOf(event);
            for (const stream of this.streams) if (stream.joined) stream.offer(event, frame);
            this.head = event.id;
          }
          if (!page.has_more) break;
        }
      } while (this.again);
      this.failedReads = 0;
    })()
      .catch((error: unknown) => {
        this.failedReads += 1;
        this.logger.warn({ err: error, failedReads: this.failedReads }, 'reading the event log for streams failed; the next notice or poll reads again');
        if (this.failedReads >= MAX_FAILED_READS) {
          this.failedReads = 0;
          for (const stream of this.streams) stream.end();
        }
      })
      .finally(() => {
        this.headRead = undefined;
      });
    return this.headRead;
  }

  close() {
    clearInterval(this.timer);
    this.kept.clear();
    for (const stream of this.streams) stream.end();
  }
}

/**
 * An event as a stream sends it, encoded once for every stream of the hub: a string written to
 * each stream would be encoded to bytes once per stream (bench/events.ts: 40% of the gateway's
 * CPU with 1,000 streams of one workspace).
 */
const frameOf = (event: RestEvent) => Buffer.from(`id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`);

/** A page of the log after an event, oldest first, as REST shows it. */
const readAfter = async (core: CoreClient, after: string, principal: Principal, limit = PAGE): Promise<EventPage> =>
  restEventPage((await core.execute('ListEvents', { after, limit }, principal)) as never) as EventPage;

/** Before the first event of every log: `after` it reads a log from its beginning, oldest first. */
const LOG_START = eventId(0n);

export class EventStreams {
  private readonly hubs = new Map<string, Hub>();

  constructor(
    private readonly core: CoreClient,
    notices: EventNotices,
    private readonly logger: Logger,
    private readonly options: EventStreamOptions,
    /** The per-credential limit, shared with the analysts' subscriptions; it also ends a revoked credential's streams. */
    private readonly admission: StreamAdmission,
  ) {
    void (async () => {
      for await (const notice of notices.pubSub.subscribe(EVENT_NOTICE_TOPIC)) {
        const hub = this.hubs.get(`${notice.workspaceId}:${notice.environment}`);
        if (hub?.head !== undefined && eventId(notice.seq) > hub.head) void hub.read();
      }
    })();
  }

  /** Opens a stream as the answer of `ctx` (the response stays open until the client leaves or the stream ends). */
  async open(ctx: Context, request: StreamRequest): Promise<void> {
    let stream: Stream | undefined;
    // Admitted first (a count, in memory or Redis): a refused stream costs the core nothing, and
    // its refusal is answered REFUSAL_DELAY_MS late (refusalDelay.ts).
    const owner = { credentialId: request.credentialId, workspaceId: request.principal.workspaceId };
    const release = await refusalsDelayed(() => this.admission.admit(owner, () => stream?.end()));
    try {
      // The filter (types, subaccount) and the start are the core's to check: what it refuses is
      // answered in the error envelope before the stream begins.
      await this.core.execute('ListEvents', { ...filterOf(request), after: request.after, limit: 1 }, request.principal);
    } catch (error) {
      release();
      throw error;
    }
    if (ctx.method === 'HEAD') {
      // The head of a stream, and no stream: nothing would ever be sent on it.
      release();
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      return;
    }
    const key = `${request.principal.workspaceId}:${request.principal.environment}`;
    let hub = this.hubs.get(key);
    if (!hub) {
      // Shared by every stream of the scope: its polls serve none of them in particular.
      hub = outsideRequest(() => new Hub(this.core, this.logger, this.options.pollMs, this.options));
      this.hubs.set(key, hub);
    }
    stream = new Stream(request, request.after ?? LOG_START, (ended) => {
      hub.streams.delete(ended);
      if (hub.streams.size === 0 && this.hubs.get(key) === hub) {
        hub.close();
        this.hubs.delete(key);
      }
    });
    hub.streams.add(stream); // a member, not handed events until it has joined (below)
    try {
      if (request.after === undefined) stream.cursor = await hub.start(request.principal);
    } catch (error) {
      stream.end({ now: true });
      release();
      throw error;
    }

    // The stream's place is the connection's: freed when the connection is gone, however it ends.
    const response = ctx.res;
    stream.hangUp = () => response.destroy();
    response.once('close', () => {
      stream.end();
      release();
    });
    answerAsEventStream(ctx, stream.body);
    stream.write('retry: 1000\n\n');
    // Every heartbeat: the keep-alive line, and the credential looked up again (a dashboard session
    // signed out, a dashboard token revoked, an API key's revocation missed while Redis was away are
    // not announced: their streams end within a heartbeat; a core that is away ends nothing).
    const { recheck } = request;
    const heartbeat = setInterval(() => {
      stream.write(': keep-alive\n\n');
      recheck().then((valid) => !valid && stream.end(), () => undefined);
    }, this.options.heartbeatMs);
    const maxAge = setTimeout(() => stream.end(), this.options.maxAgeMs);
    response.once('close', () => {
      clearInterval(heartbeat);
      clearTimeout(maxAge);
    });
    void this.join(hub, stream);
  }

  /**
   * Reads the log after the stream's cursor until the stream has everything up to where its hub
   * stands, then joins the hub (the check and the join in one turn of the event loop: whatever the
   * hub reads afterwards is offered to the stream, which takes only what follows its cursor).
   */
  private async join(hub: Hub, stream: Stream): Promise<void> {
    try {
      await hub.start(stream.request.principal);
      while (stream.open) {
        if (hub.head! <= stream.cursor) {
          stream.joined = true; // what the hub reads next (on a notice or its poll) is offered to it
          return;
        }
        // Catching up goes at the client's pace (the hub's events, live, go at the log's): a turn
        // is taken only once what it was sent last has mostly gone out.
        if (stream.body.writableLength > CATCH_UP_BUFFERED_BYTES) await stream.drained();
        if (!stream.open) return;
        const page = await hub.catchUpTurn(stream);
        // Nothing readable after the cursor up to where the hub stood when this page was read (a
        // read shared with streams that asked earlier may predate the hub's later events: those
        // are read again on the next turn of the loop).
        if (page.data.length === 0 && page.headAtRead !== undefined && page.headAtRead > stream.cursor) stream.cursor = page.headAtRead;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'an event stream could not catch up; it ends, and the client reconnects');
      stream.end();
    }
  }
}

const filterOf = (request: StreamRequest) => ({
  ...(request.types.length ? { types: request.types } : {}),
  ...(request.subaccountId ? { subaccountId: request.subaccountId } : {}),
});
