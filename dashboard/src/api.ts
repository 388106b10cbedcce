import type { Environment, Page } from './types';

/**
 * The one way the page talks to the gateway: JSON over fetch, authenticated by the session cookie
 * (sent by the browser, never readable here), with the chosen environment in X-Environment and the
 * CSRF token on every request that is not a GET. The token lives only in this module's memory.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

/** The gateway's error envelope, `{ error: { code, message, param?, request_id } }`, as a thrown error. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

let environment: Environment = 'test';
let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export const setEnvironment = (value: Environment) => {
  environment = value;
};
/** The environment requests are sent in now. */
export const currentEnvironment = (): Environment => environment;
export const setCsrfToken = (value: string | null) => {
  csrfToken = value;
};
/** Called when a request other than sign-in answers 401: the session is gone. */
export const setUnauthorizedHandler = (handler: (() => void) | null) => {
  onUnauthorized = handler;
};

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

const isSignIn = (method: Method, path: string) => method === 'POST' && path === '/v1/session';

export async function request<T>(
  method: Method,
  path: string,
  options: { query?: Query; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json', 'X-Environment': environment };
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(withQuery(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    cache: 'no-store',
    signal: options.signal,
  });

  if (response.ok) return (await response.json().catch(() => undefined)) as T;
  throw await refusalOf(response, isSignIn(method, path));
}

/**
 * GET /v1/events/stream as this page's other requests are sent (the session cookie, X-Environment,
 * which EventSource cannot send), from just after `lastEventId` when given: the open response, whose
 * body the caller reads as Server-Sent Events, or the refusal as an ApiRequestError.
 */
export function openEventStream(query: Query, lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  return openStream('/v1/events/stream', query, lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }, signal);
}

/**
 * GET /v1/markets/stream (`market_ids`, `depth`) the same way: the open response's body, or the
 * refusal (an unknown market: 404) as an ApiRequestError. Nothing to resume from: a new connection
 * starts with snapshots.
 */
export function openMarketStream(query: Query, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  return openStream('/v1/markets/stream', query, {}, signal);
}

async function openStream(path: string, query: Query, extraHeaders: Record<string, string>, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'X-Environment': environment, ...extraHeaders };
  const response = await fetch(withQuery(path, query), { headers, credentials: 'same-origin', cache: 'no-store', signal });
  if (response.ok && response.body) return response.body;
  throw await refusalOf(response, false);
}

/** A refused answer as an error; a 401 also tells the page its session is gone (not when signing in). */
async function refusalOf(response: Response, signingIn: boolean): Promise<ApiRequestError> {
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.status === 401 && !signingIn) onUnauthorized?.();
  return toError(response.status, payload);
}

function toError(status: number, payload: unknown): ApiRequestError {
  const error = (payload as { error?: Record<string, unknown> } | undefined)?.error;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return new ApiRequestError(
    status,
    text(error?.code) ?? 'http_error',
    text(error?.message) ?? `The request failed (HTTP ${status}).`,
    text(error?.param),
    text(error?.request_id),
  );
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, { body }),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, { body }),
  /** PATCH with an Idempotency-Key: a retry with the same key is answered as the first request was. */
  patch: <T>(path: string, body: unknown, idempotencyKey: string) => request<T>('PATCH', path, { body, headers: { 'Idempotency-Key': idempotencyKey } }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
};

/**
 * A random UUID (version 4) for an Idempotency-Key, from crypto.getRandomValues: crypto.randomUUID
 * exists only in secure contexts, and the page may be served over plain HTTP inside a network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every item of a paged list, following next_cursor (bounded, for selects and small lists). */
export async function listAll<T>(path: string, signal?: AbortSignal, maxPages = 20): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await api.get<Page<T>>(path, { limit: 200, cursor }, signal);
    items.push(...result.data);
    if (!result.has_more || !result.next_cursor) break;
    cursor = result.next_cursor;
  }
  return items;
}

/** A path segment from an id, so that an id can never change the route. */
export const segment = (value: string) => encodeURIComponent(value);

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
