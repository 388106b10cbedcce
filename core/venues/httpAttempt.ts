import { Pool } from 'undici';

/**
 * One HTTP attempt to a live venue, as the live sessions (Kalshi's, Polymarket's) send them: a
 * keep-alive pool per credential, a timeout on connecting and on the whole request, and the three
 * things an attempt can have been: answered, never sent (the request cannot have reached the venue),
 * or lost after sending (the venue may have acted). Never logs; no transport error text escapes.
 */
export type HttpAttempt =
  | { readonly sent: 'answer'; readonly status: number; readonly text: string }
  | { readonly sent: 'not_sent' }
  | { readonly sent: 'lost'; readonly reason: 'timeout' | 'connection_lost' };

/** Transport errors raised before any byte of the request can have reached the venue. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** A credential's own keep-alive pool to a venue's origin, every phase bounded by `timeoutMs`. */
export function venuePool(origin: string, timeoutMs: number, connections = 8): Pool {
  return new Pool(origin, {
    connections,
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 30_000,
  });
}

/** One request through `pool`, given up after `timeoutMs`. */
export async function attemptRequest(
  pool: Pool,
  request: { method: string; path: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<HttpAttempt> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const res = await pool.request({ method: request.method as 'GET', path: request.path, headers: request.headers, body: request.body, signal });
    return { sent: 'answer', status: res.statusCode, text: await res.body.text() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return { sent: 'not_sent' };
    const timedOut = signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    return { sent: 'lost', reason: timedOut ? 'timeout' : 'connection_lost' };
  }
}

/** A body as JSON; an empty body is `undefined`. */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export type QueryValues = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

/**
 * `?a=1&b=x&b=y`, or '' for nothing: undefined values left out, a list as the venue reads it,
 * repeated (`b=x&b=y`, Polymarket) or joined with commas (`b=x,y`, Kalshi).
 */
export function queryStringOf(query: QueryValues | undefined, lists: 'repeat' | 'comma' = 'repeat'): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (lists === 'comma') params.append(name, value.join(','));
      else for (const item of value as readonly string[]) params.append(name, item);
    } else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
