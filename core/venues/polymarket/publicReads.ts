import { Pool } from 'undici';
import { DomainError } from '../../domain/errors';

/**
 * Unauthenticated GETs to one of Polymarket's public APIs (Gamma's markets, the CLOB's books): a
 * keep-alive pool of its own to the base URL, a timeout on every call (connecting and the whole
 * answer), JSON answers. Public data, no credential: nothing here is secret, and nothing logs.
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

export type PublicQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface PublicAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** `?a=1&b=x&b=y` with arrays repeated (as Gamma reads `condition_ids`), undefined left out. */
function publicQueryString(query: PublicQuery = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) params.append(name, item);
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export class PolymarketPublicReads {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(private readonly options: PublicReadOptions) {
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.pool = new Pool(base.origin, {
      connections: options.connections ?? 2,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  /** `GET path?query`: the status and the parsed JSON body of a 2xx or 4xx answer (but 429); throws `venue_unavailable` otherwise. */
  async get(path: string, query?: PublicQuery): Promise<PublicAnswer> {
    const what = `${this.options.name} (GET ${path})`;
    let status: number;
    let text: string;
    try {
      const res = await this.pool.request({
        method: 'GET',
        path: `${this.basePath}${path}${publicQueryString(query)}`,
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      const timedOut = (error as { name?: unknown }).name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
      throw new DomainError('venue_unavailable', timedOut ? `${what} did not answer within ${this.options.timeoutMs} ms.` : `${what} could not be reached.`);
    }
    if (status >= 500 || status === 429) throw new DomainError('venue_unavailable', `${what} answered ${status}.`);
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      throw new DomainError('venue_unavailable', `${what} answered ${status} with a body that is not JSON.`);
    }
  }

  /** Closes the pool; calls in flight fail as unavailable. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
