import type { Pool } from 'undici';
import { DomainError } from '../../domain/errors';
import { attemptRequest, parseJsonBody, queryStringOf, venuePool, type QueryValues } from '../httpAttempt';

/**
 * Unauthenticated GETs to Polymarket's public Gamma API (its markets listing): a
 * keep-alive pool of its own to the base URL, a timeout on every call (connecting and the whole
 * answer; the live sessions' one HTTP attempt, core/venues/httpAttempt.ts), JSON answers. Public data, no credential: nothing here is secret, and nothing logs.
 *
 * Every failure is a `venue_unavailable` DomainError naming what was read: not reachable, no answer
 * in time, a 5xx or 429 (Cloudflare throttles Polymarket's APIs by delaying, rarely by refusing),
 * a body that is not JSON. Any other non-2xx answer is returned to the caller, which knows what a
 * 404 or 400 means for its read.
 */
export interface PublicReadOptions {
  /** The API's base URL, e.g. `https://gamma-api.polymarket.com`; a path prefix is kept. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly connections?: number;
  /** Starts its messages: "Polymarket Gamma", "The Polymarket CLOB". */
  readonly name: string;
}

export type PublicQuery = QueryValues;

export interface PublicAnswer {
  readonly status: number;
  readonly body: unknown;
}

export class PolymarketPublicReads {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(private readonly options: PublicReadOptions) {
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.pool = venuePool(base.origin, options.timeoutMs, options.connections ?? 2);
  }

  /** `GET path?query`: the status and the parsed JSON body of a 2xx or 4xx answer (but 429); throws `venue_unavailable` otherwise. */
  async get(path: string, query?: PublicQuery): Promise<PublicAnswer> {
    const what = `${this.options.name} (GET ${path})`;
    const attempt = await attemptRequest(this.pool, {
      method: 'GET',
      path: `${this.basePath}${path}${queryStringOf(query)}`,
      headers: { accept: 'application/json' },
      timeoutMs: this.options.timeoutMs,
    });
    if (attempt.sent !== 'answer') {
      const timedOut = attempt.sent === 'lost' && attempt.reason === 'timeout';
      throw new DomainError('venue_unavailable', timedOut ? `${what} did not answer within ${this.options.timeoutMs} ms.` : `${what} could not be reached.`);
    }
    const { status, text } = attempt;
    if (status >= 500 || status === 429) throw new DomainError('venue_unavailable', `${what} answered ${status}.`);
    const body = parseJsonBody(text);
    if (!body.ok || body.value === undefined) throw new DomainError('venue_unavailable', `${what} answered ${status} with a body that is not JSON.`);
    return { status, body: body.value };
  }

  /** Closes the pool; calls in flight fail as unavailable. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
