import type { Pool } from 'undici';
import { DomainError } from '../../domain/errors';
import type { ApiKeyCreds } from '@polymarket/clob-client-v2';
import { attemptRequest, parseJsonBody, queryStringOf, venuePool, type HttpAttempt } from '../httpAttempt';
import { describeRefusal, readPolymarketRefusal, type PolymarketRefusal } from './errors';
import type { PolymarketSigning } from './signing';

/**
 * One Polymarket credential's HTTP session to the CLOB V2 REST API: its own keep-alive pool, its
 * own signing (the official client's header functions, signing.ts), a timeout on every call.
 *
 * Why not the official `ClobClient` for the calls themselves (we use its signing, order building
 * and header code): its requests have no timeout (axios without one), `retryOnError` re-POSTs, a
 * `postOrder` without `deferExec` then polls `/data/trades` for up to 30 s, and an error comes back
 * without telling a refusal from a lost answer. Here every call ends in one explicit outcome, as the
 * Kalshi session's (core/venues/kalshi/session.ts):
 * - `answered`: a 2xx with its parsed JSON body (an empty body is `null`);
 * - `refused`: a 4xx from the venue: it did not act; its string is read (errors.ts);
 * - `unknown`: a WRITE whose answer was lost (timeout, connection lost after sending, a 5xx, an
 *   unreadable 2xx, a 408 or 499 or an HTML 4xx page from something in between): the venue may
 *   have acted. Never re-sent here;
 * - `unavailable`: nothing can have changed (a read whose answer was lost; a call not sent:
 *   no connection, no time left before the caller's deadline, no API credentials).
 *
 * Clock drift: L1 and L2 headers carry our timestamp, which the venue checks against its own. The
 * session reads `/time` (unix seconds) when it opens and every `timeSyncMs` after, and stamps
 * headers with the venue's clock (what the client's `useServerTime` does, without a round trip per
 * call).
 *
 * Nothing here logs; no header, secret or key goes into an outcome or an error message.
 */
export type PolymarketLostReason = 'timeout' | 'connection_lost' | 'server_error' | 'unreadable_answer';

export type PolymarketOutcome<T = unknown> =
  | { readonly kind: 'answered'; readonly status: number; readonly body: T }
  /** `body`: the venue's parsed answer (or its text), for the few refusals that carry more than a string (a stale heartbeat id). */
  | { readonly kind: 'refused'; readonly status: number; readonly refusal: PolymarketRefusal; readonly error: DomainError; readonly body: unknown }
  | { readonly kind: 'unknown'; readonly reason: PolymarketLostReason; readonly error: DomainError }
  | { readonly kind: 'unavailable'; readonly reason: PolymarketLostReason | 'not_connected' | 'deadline' | 'no_credentials'; readonly error: DomainError };

export interface PolymarketRequestOptions {
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  /** `l2` (API key HMAC, the default), `l1` (EIP-712 ClobAuth: creating or deriving API keys), `public`. */
  readonly auth?: 'public' | 'l1' | 'l2';
  /** A write may have acted when its answer is lost; a read cannot. */
  readonly write?: boolean;
  /** Epoch ms past which the caller no longer waits: nothing is sent with less than `minSendMs` left. */
  readonly deadline?: number;
}

export interface PolymarketSessionOptions {
  /** The CLOB's REST base, e.g. https://clob.polymarket.com. */
  readonly baseUrl: string;
  /** Absent: a public session (books, the clock), which refuses L1 and L2 calls. */
  readonly signing?: PolymarketSigning;
  /** Absent until derived with L1 auth (`useCreds`). */
  readonly creds?: ApiKeyCreds;
  /** The limit for connecting and for the whole request, each call. */
  readonly timeoutMs: number;
  readonly connections?: number;
  /** How often the venue's clock is read again; 10 minutes by default. */
  readonly timeSyncMs?: number;
  readonly minSendMs?: number;
  readonly clock?: () => number;
}

export class PolymarketSession {
  private readonly pool: Pool;
  private creds_: ApiKeyCreds | undefined;
  private readonly clock: () => number;
  private readonly minSendMs: number;
  private readonly timeSyncMs: number;
  /** The venue's clock minus ours, in ms; null until read. */
  private offsetMs: number | null = null;
  private syncedAtMs = 0;

  constructor(private readonly options: PolymarketSessionOptions) {
    const base = new URL(options.baseUrl);
    this.pool = venuePool(base.origin, options.timeoutMs, options.connections);
    this.creds_ = options.creds;
    this.clock = options.clock ?? Date.now;
    this.minSendMs = options.minSendMs ?? Math.min(250, options.timeoutMs);
    this.timeSyncMs = options.timeSyncMs ?? 600_000;
  }

  /** The API key (the `owner` of posted orders); undefined until credentials are set. */
  get apiKey(): string | undefined {
    return this.creds_?.key;
  }

  /** The API credentials (in memory only): the user channel subscribes with them. Never logged. */
  get creds(): ApiKeyCreds | undefined {
    return this.creds_;
  }

  get signing(): PolymarketSigning {
    if (this.options.signing === undefined) throw new DomainError('venue_unavailable', 'This Polymarket session is public: it signs nothing.');
    return this.options.signing;
  }

  useCreds(creds: ApiKeyCreds): void {
    this.creds_ = creds;
  }

  /** Reads the venue's clock (`GET /time`); the headers are stamped with it from then on. */
  async syncTime(): Promise<void> {
    const before = this.clock();
    const outcome = await this.send('GET', '/time', undefined, undefined, undefined);
    if (outcome.sent !== 'answer' || outcome.status !== 200) return;
    const seconds = Number(outcome.text.trim());
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    const midpoint = (before + this.clock()) / 2;
    this.offsetMs = seconds * 1000 + 500 - midpoint; // the venue's second covers [s, s+1): take its middle
    this.syncedAtMs = this.clock();
  }

  /**
   * Unix seconds on the venue's clock: read first if never read (ours if it cannot be); an old
   * reading is refreshed in the background, so no call waits for `/time` past its deadline.
   */
  private async venueSeconds(): Promise<number> {
    if (this.offsetMs === null) await this.syncTime();
    else if (this.clock() - this.syncedAtMs > this.timeSyncMs) {
      this.syncedAtMs = this.clock(); // one refresh at a time
      void this.syncTime().catch(() => undefined);
    }
    return Math.floor((this.clock() + (this.offsetMs ?? 0)) / 1000);
  }

  async request<T = unknown>(method: string, path: string, options: PolymarketRequestOptions = {}): Promise<PolymarketOutcome<T>> {
    const verb = method.toUpperCase();
    const auth = options.auth ?? 'l2';
    const write = options.write ?? false;
    if (options.deadline !== undefined && options.deadline - this.clock() < this.minSendMs) {
      return { kind: 'unavailable', reason: 'deadline', error: new DomainError('venue_unavailable', 'No time was left within the request to send it to Polymarket; it was not sent.') };
    }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let headers: Record<string, string> = {};
    if (auth !== 'public' && this.options.signing === undefined) {
      return { kind: 'unavailable', reason: 'no_credentials', error: new DomainError('venue_unavailable', 'This Polymarket session is public; nothing was sent.') };
    }
    if (auth === 'l2') {
      if (this.creds_ === undefined) {
        return { kind: 'unavailable', reason: 'no_credentials', error: new DomainError('venue_unavailable', 'This Polymarket account has no API credentials yet; nothing was sent.') };
      }
      // The client signs the path without its query string (src/client.ts), and the exact body sent.
      headers = stringHeaders(await this.signing.l2Headers(this.creds_, { method: verb, requestPath: path, ...(body === undefined ? {} : { body }) }, await this.venueSeconds()));
    } else if (auth === 'l1') {
      headers = stringHeaders(await this.signing.l1Headers(0, await this.venueSeconds()));
    }
    const result = await this.send(verb, `${path}${queryStringOf(options.query)}`, body, headers, options.deadline);
    if (result.sent === 'not_sent') {
      return { kind: 'unavailable', reason: 'not_connected', error: new DomainError('venue_unavailable', 'Polymarket could not be reached; the request was not sent.') };
    }
    if (result.sent === 'lost') return lost(write, result.reason);
    if (result.status >= 500) return lost(write, 'server_error', result.status);
    const parsed = parseJson(result.text);
    if (notTheVenuesWord(result.status, result.text)) return lost(write, 'server_error', result.status);
    if (result.status >= 200 && result.status < 300) {
      if (parsed.ok) return { kind: 'answered', status: result.status, body: parsed.value as T };
      return lost(write, 'unreadable_answer');
    }
    const answer = parsed.ok ? parsed.value : result.text;
    const refusal = readPolymarketRefusal(result.status, answer);
    return { kind: 'refused', status: result.status, refusal, body: answer, error: new DomainError(refusal.code === 'order_not_found' ? 'not_found' : refusal.code === 'venue_unavailable' ? 'venue_unavailable' : 'venue_error', describeRefusal(refusal)) };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async send(method: string, target: string, body: string | undefined, signed: Record<string, string> | undefined, deadline: number | undefined): Promise<HttpAttempt> {
    const headers: Record<string, string> = { accept: 'application/json', ...signed };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeoutMs = deadline === undefined ? this.options.timeoutMs : Math.max(1, Math.min(this.options.timeoutMs, deadline - this.clock()));
    return attemptRequest(this.pool, { method, path: target, headers, body, timeoutMs });
  }
}

function lost(write: boolean, reason: PolymarketLostReason, status?: number): PolymarketOutcome<never> {
  const what = reason === 'server_error' ? `Polymarket answered ${status}` : reason === 'timeout' ? 'Polymarket did not answer in time' : reason === 'unreadable_answer' ? 'Polymarket answered something unreadable' : 'the connection to Polymarket was lost';
  if (write) return { kind: 'unknown', reason, error: new DomainError('venue_unavailable', `${what}; whether the venue acted is unknown until it is reconciled.`) };
  return { kind: 'unavailable', reason, error: new DomainError('venue_unavailable', `${what}.`) };
}

/**
 * A 4xx that does not say the venue did not act: 408 (a request timeout) and 499 (the client's
 * connection closed, nginx's code) come from whatever stood between us and the matching engine,
 * which may have received the request; so does an HTML page (a proxy's or a CDN's error page, the
 * venue answering JSON). On a write that is `unknown`, never a refusal. A 429 or 425 stays what
 * it is, whatever its body (Cloudflare's 429 is an HTML page): nothing was processed.
 */
function notTheVenuesWord(status: number, text: string): boolean {
  if (status < 400 || status >= 500 || status === 429 || status === 425) return false;
  return status === 408 || status === 499 || /^\s*</.test(text);
}

function stringHeaders(headers: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}

/** An empty body (the venue's answer for an order it does not hold) reads as `null`. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  return text.trim() === '' ? { ok: true, value: null } : parseJsonBody(text);
}

/** The body of an answered call, or the outcome's error. */
export function answerOf<T>(outcome: PolymarketOutcome<T>): T {
  if (outcome.kind === 'answered') return outcome.body;
  throw outcome.error;
}
