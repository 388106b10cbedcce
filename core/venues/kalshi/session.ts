import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'undici';
import { DomainError } from '../../domain/errors';
import { fullJitterMs } from '../../domain/backoff';
import { kalshiEnvironmentNamed, type KalshiCredential } from '../../domain/credentialShapes';
import { attemptRequest, parseJsonBody as parseJson, queryStringOf, venuePool, type HttpAttempt as Attempt } from '../httpAttempt';
import { kalshiEndpoints, type KalshiUrls } from './endpoints';
import { kalshiRefusalError, rateLimited, readKalshiError } from './errors';
import { kalshiSignerFromCredential, type KalshiSigner } from './signing';
import { KALSHI_DEFAULT_COST, KALSHI_RATE_TIERS, KalshiTokenBuckets, type BucketKind, type KalshiRateTier, type KalshiTierName } from './tokenBuckets';

/**
 * One Kalshi credential's HTTP session (Trade API v2, as of 2026-08; docs/VENUES.md): its own
 * keep-alive connection pool to its environment's base URL, its own signer (never a shared or
 * global interceptor: two subaccounts' sessions cannot sign each other's requests), its own read
 * and write token buckets, and a timeout on every call (connecting and the whole request).
 *
 * Every call ends in one of four explicit outcomes:
 * - `answered`: a 2xx, with the parsed JSON body;
 * - `refused`: the venue answered an error status, so it did not act; Kalshi's code is kept and
 *   mapped to our error (errors.ts). A 429 is retried first (below);
 * - `unknown`: a WRITE whose answer was lost (timeout, connection lost after sending, a 5xx, an
 *   unreadable 2xx): the venue may have acted. The session never re-sends it; the reconciler
 *   resolves it (a later increment);
 * - `unavailable`: nothing can have changed at the venue (a read whose answer was lost, a call
 *   refused before it was sent because the rate-limit wait would be too long or no connection
 *   could be made).
 *
 * 429 (Kalshi sends no Retry-After): the bucket is drained and the call retried after an
 * exponential backoff with full jitter, bounded in attempts, but only when re-sending is safe: a
 * read, a cancel, or a create carrying a `client_order_id` (a 429 is refused before the venue acts,
 * and the same id makes a duplicate impossible: Kalshi answers 409 `order_already_exists`). Other
 * writes get the 429 as a refusal. A 429 that is not retried is refused as `rate_limited`.
 *
 * A call may carry a `deadline` (epoch ms, the caller's: a client is waiting). Nothing is sent that
 * could not be answered before it: a rate-limit wait or a 429 backoff that would leave less than
 * `minSendMs` is not waited (the call ends `unavailable`, or `refused` with the last 429), and a
 * send's own timeout is cut to the deadline.
 *
 * Nothing here logs. No header, signature or key ever goes into an outcome or an error: messages
 * are written here from the status and Kalshi's code, never from a transport error's text.
 */
export interface KalshiRequestOptions {
  readonly query?: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
  readonly body?: unknown;
  /** Which bucket pays; reads are always safe to retry. */
  readonly kind: BucketKind;
  /** Tokens the call costs (Kalshi's endpoint cost); 10 by default. */
  readonly cost?: number;
  /** Whether a 429 may be retried; by default reads, DELETEs (cancels) and bodies with a `client_order_id`. */
  readonly retryOn429?: boolean;
  /** Epoch ms past which the caller no longer waits (see above). */
  readonly deadline?: number;
}

export type KalshiLostReason = 'timeout' | 'connection_lost' | 'server_error' | 'unreadable_answer';

export type KalshiOutcome<T = unknown> =
  | { readonly kind: 'answered'; readonly status: number; readonly body: T; readonly attempts: number }
  | { readonly kind: 'refused'; readonly status: number; readonly venueCode: string; readonly error: DomainError; readonly attempts: number }
  | { readonly kind: 'unknown'; readonly reason: KalshiLostReason; readonly error: DomainError; readonly attempts: number }
  | {
      readonly kind: 'unavailable';
      /** `deadline`: no time was left to send it; `rate_wait_exceeded`: its tokens are `retryAfterMs` away. */
      readonly reason: KalshiLostReason | 'not_connected' | 'rate_wait_exceeded' | 'deadline';
      readonly error: DomainError;
      readonly attempts: number;
      readonly retryAfterMs?: number;
    };

export interface KalshiBackoff {
  /** First retry waits up to this (full jitter), doubling per attempt. */
  readonly baseMs: number;
  readonly maxMs: number;
  /** Sends in all, the first one included. */
  readonly maxAttempts: number;
}

export const KALSHI_DEFAULT_BACKOFF: KalshiBackoff = { baseMs: 100, maxMs: 2000, maxAttempts: 6 };

export interface KalshiSessionOptions {
  /** The environment's REST base, ending in `/trade-api/v2`. */
  readonly restUrl: string;
  /** Absent: the session sends unsigned requests, for Kalshi's public market data (marketData.ts). */
  readonly signer?: KalshiSigner;
  readonly tier: KalshiRateTier;
  /** The limit for connecting and for the whole request, each call. */
  readonly timeoutMs: number;
  /** The longest a call waits for tokens before it is refused; the timeout by default. */
  readonly maxRateWaitMs?: number;
  readonly backoff?: KalshiBackoff;
  /** Keep-alive connections in the pool; 8 by default. */
  readonly connections?: number;
  /** The least time a send is given before a caller's deadline; 250 ms (or the timeout, if shorter) by default. */
  readonly minSendMs?: number;
  readonly clock?: () => number;
  readonly random?: () => number;
}

export class KalshiSession {
  /** The signing key's id; undefined for an unsigned (public market data) session. */
  readonly keyId: string | undefined;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly buckets: KalshiTokenBuckets;
  private readonly backoff: KalshiBackoff;
  private readonly maxRateWaitMs: number;
  private readonly minSendMs: number;
  private readonly clock: () => number;
  private readonly random: () => number;

  constructor(private readonly options: KalshiSessionOptions) {
    const base = new URL(options.restUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.keyId = options.signer?.keyId;
    this.pool = venuePool(base.origin, options.timeoutMs, options.connections);
    this.buckets = new KalshiTokenBuckets(options.tier, options.clock);
    this.backoff = options.backoff ?? KALSHI_DEFAULT_BACKOFF;
    this.maxRateWaitMs = options.maxRateWaitMs ?? options.timeoutMs;
    this.minSendMs = options.minSendMs ?? Math.min(250, options.timeoutMs);
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** `path` is relative to the base (`/portfolio/balance`); the signature covers the root path without the query. */
  async request<T = unknown>(method: string, path: string, options: KalshiRequestOptions): Promise<KalshiOutcome<T>> {
    const verb = method.toUpperCase();
    const fullPath = `${this.basePath}${path.startsWith('/') ? path : `/${path}`}`;
    const target = `${fullPath}${queryStringOf(options.query, 'comma')}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const retryOn429 = options.retryOn429 ?? defaultRetryOn429(verb, options);
    const isWrite = options.kind === 'write';

    const cost = options.cost ?? KALSHI_DEFAULT_COST;
    // Time left before the caller's deadline, less the least a send needs.
    const spare = () => (options.deadline === undefined ? Infinity : options.deadline - this.clock() - this.minSendMs);

    for (let attempt = 1; ; attempt += 1) {
      if (spare() < 0) {
        return { kind: 'unavailable', reason: 'deadline', attempts: attempt - 1, error: new DomainError('venue_unavailable', 'No time was left within the request to send it to Kalshi; it was not sent.') };
      }
      const waitMs = this.buckets.reserve(options.kind, cost, Math.min(this.maxRateWaitMs, spare()));
      if (waitMs === null) {
        const retryAfterMs = this.buckets.waitFor(options.kind, cost);
        return { kind: 'unavailable', reason: 'rate_wait_exceeded', attempts: attempt - 1, retryAfterMs, error: rateLimited('the call would wait too long for its turn under our Kalshi rate limit, so it was not sent', retryAfterMs) };
      }
      if (waitMs > 0) await sleep(waitMs);
      const result = await this.send(verb, fullPath, target, body, options.deadline);

      if (result.sent === 'not_sent') {
        return { kind: 'unavailable', reason: 'not_connected', attempts: attempt, error: new DomainError('venue_unavailable', 'Kalshi could not be reached; the request was not sent.') };
      }
      if (result.sent === 'lost') return lostOutcome(isWrite, result.reason, attempt);
      if (result.status === 429 && retryOn429 && attempt < this.backoff.maxAttempts) {
        const backoffMs = this.backoffMs(attempt);
        this.buckets.drain(options.kind);
        if (backoffMs <= spare()) {
          await sleep(backoffMs);
          continue;
        }
      }
      if (result.status >= 500) return lostOutcome(isWrite, 'server_error', attempt, result.status);
      const parsed = parseJson(result.text);
      if (result.status >= 200 && result.status < 300) {
        if (parsed.ok) return { kind: 'answered', status: result.status, body: parsed.value as T, attempts: attempt };
        return lostOutcome(isWrite, 'unreadable_answer', attempt);
      }
      const venue = readKalshiError(result.status, parsed.ok ? parsed.value : undefined);
      return { kind: 'refused', status: result.status, venueCode: venue.code, error: kalshiRefusalError(result.status, venue), attempts: attempt };
    }
  }

  /** Closes the pool; calls in flight end as lost. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private backoffMs(attempt: number): number {
    return fullJitterMs(this.backoff, attempt, this.random);
  }

  private async send(method: string, signedPath: string, target: string, body: string | undefined, deadline: number | undefined): Promise<Attempt> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.signer?.request(method, signedPath) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeoutMs = deadline === undefined ? this.options.timeoutMs : Math.max(1, Math.min(this.options.timeoutMs, deadline - this.clock()));
    return attemptRequest(this.pool, { method, path: target, headers, body, timeoutMs });
  }
}

function defaultRetryOn429(method: string, options: KalshiRequestOptions): boolean {
  if (options.kind === 'read' || method === 'DELETE') return true;
  const body = options.body as { client_order_id?: unknown } | undefined;
  return method === 'POST' && typeof body?.client_order_id === 'string' && body.client_order_id !== '';
}

function lostOutcome(isWrite: boolean, reason: KalshiLostReason, attempts: number, status?: number): KalshiOutcome<never> {
  const what = reason === 'server_error' ? `Kalshi answered ${status}` : reason === 'timeout' ? 'Kalshi did not answer in time' : reason === 'unreadable_answer' ? 'Kalshi answered something unreadable' : 'the connection to Kalshi was lost';
  if (isWrite) {
    return { kind: 'unknown', reason, attempts, error: new DomainError('venue_unavailable', `${what}; whether the venue acted is unknown until it is reconciled.`) };
  }
  return { kind: 'unavailable', reason, attempts, error: new DomainError('venue_unavailable', `${what}.`) };
}

/** The body of an answered call, or the outcome's error. */
export function answerOf<T>(outcome: KalshiOutcome<T>): T {
  if (outcome.kind === 'answered') return outcome.body;
  throw outcome.error;
}

/** The configuration a session reads (core/config.ts: `KALSHI_*_URL`, `KALSHI_TIMEOUT_MS`, `KALSHI_TIER`). */
export interface KalshiSessionSettings extends KalshiUrls {
  readonly KALSHI_TIMEOUT_MS: number;
  readonly KALSHI_TIER: KalshiTierName;
}

/**
 * The session for one opened Kalshi credential: its environment picks the base URL (endpoints.ts),
 * the configuration gives the timeout and the tier. A credential without an environment cannot
 * trade anywhere, so it gets no session.
 */
export function kalshiSessionForCredential(
  config: KalshiSessionSettings,
  credential: Pick<KalshiCredential, 'key_id' | 'private_key' | 'environment'>,
  overrides: Partial<Omit<KalshiSessionOptions, 'restUrl' | 'signer'>> = {},
): KalshiSession {
  const environment = kalshiEnvironmentNamed(credential.environment);
  if (environment === null) {
    throw new DomainError('venue_unavailable', 'This Kalshi credential does not say which Kalshi environment issued it; attach it again with its environment.');
  }
  return new KalshiSession({
    restUrl: kalshiEndpoints(config, environment).restUrl,
    signer: kalshiSignerFromCredential(credential),
    tier: KALSHI_RATE_TIERS[config.KALSHI_TIER],
    timeoutMs: config.KALSHI_TIMEOUT_MS,
    ...overrides,
  });
}
