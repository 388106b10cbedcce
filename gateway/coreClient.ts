import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from '../contract/principal';
import { CORE_BUDGET_HEADER, CORE_GRAPHQL_PATH, CORE_REQUEST_ID_HEADER } from '../contract/endpoints';
import { currentRequestId } from '../core/support/requestContext';
import type { PersistedOperation } from '../contract/operations';
import { isCoreErrorCode } from '../contract/errors';
import { ApiError, upstreamUnavailable } from './errors';

/**
 * Calls the core with a persisted operation: only the operation's hash, its variables and the
 * signed principal cross the wire. A core that does not answer within the timeout is a 502.
 */
export interface CoreTransport {
  send(request: CoreRequest): Promise<CoreResponse>;
  /** The same request, its answer's body read as it arrives (a subscription's Server-Sent Events); `signal` ends it. */
  stream(request: CoreRequest): Promise<CoreStream>;
  close(): Promise<void>;
}

/** One request to the core: a path of its (CORE_GRAPHQL_PATH or ANALYST_GRAPHQL_PATH, with a query string for GET). */
export interface CoreRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface CoreResponse {
  status: number;
  contentType: string;
  text: string;
}

export interface CoreStream {
  status: number;
  contentType: string;
  body: Readable;
}

interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: unknown; param?: unknown; limit?: unknown; retryAfter?: unknown } }[];
  extensions?: { idempotentReplayed?: boolean };
}

export interface CoreResult {
  /** The value of the operation's first root field (REST operations have one). */
  value: unknown;
  /** Every root field's value, by its name or alias. */
  roots: Record<string, unknown>;
  /** The core replayed the stored result of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export class CoreClient {
  constructor(
    private readonly transport: CoreTransport,
    private readonly operations: Map<string, PersistedOperation>,
    private readonly internalSecret: string,
    private readonly timeoutMs: number,
  ) {}

  /** The value of the operation's single root field, or the core's error as an ApiError. */
  async execute(operationName: string, variables: Record<string, unknown>, principal: Principal): Promise<unknown> {
    return (await this.call(operationName, variables, principal)).value;
  }

  /** Every root field's value of an operation with several (GetMarketDataState), or the core's error as an ApiError. */
  async executeRoots(operationName: string, variables: Record<string, unknown>, principal: Principal): Promise<Record<string, unknown>> {
    return (await this.call(operationName, variables, principal)).roots;
  }

  async call(
    operationName: string,
    variables: Record<string, unknown>,
    principal: Principal,
    extensions: { idempotencyKey?: string } = {},
  ): Promise<CoreResult> {
    const operation = this.operations.get(operationName);
    if (!operation) throw new Error(`unknown operation ${operationName}`);
    const body = JSON.stringify({
      operationName,
      variables,
      extensions: { ...extensions, persistedQuery: { version: 1, sha256Hash: operation.hash } },
    });
    const response = await this.send({ method: 'POST', path: CORE_GRAPHQL_PATH, body, headers: { 'content-type': 'application/json' } }, principal);
    let parsed: GraphQLResponse;
    try {
      parsed = JSON.parse(response.text) as GraphQLResponse;
    } catch {
      throw upstreamUnavailable();
    }
    const replayed = parsed.extensions?.idempotentReplayed === true;
    const error = parsed.errors?.[0];
    if (error) throw toApiError(error, replayed);
    const data = parsed.data;
    if (!data) throw upstreamUnavailable();
    return { value: Object.values(data)[0], roots: data, replayed };
  }

  /**
   * One request to the core as the given principal, signed exactly like the persisted operations'
   * (the analysts' GraphQL goes this way): the core's answer as it is, or 502 when it gives none in time.
   */
  async send(request: Omit<CoreRequest, 'signal'>, principal: Principal): Promise<CoreResponse> {
    // A plain timer rather than AbortSignal.timeout, which builds a DOMException on every call.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      return await this.transport.send({ ...request, headers: this.signed(request.headers, principal), signal: controller.signal });
    } catch {
      throw upstreamUnavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The same, for an answer that streams (a subscription): the core must begin its answer within
   * the timeout (502 otherwise); its body then flows for as long as the core sends it, until
   * `signal` (the client left, or the stream's time is up) ends it.
   */
  async stream(request: Omit<CoreRequest, 'signal'>, principal: Principal, signal: AbortSignal): Promise<CoreStream> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(abort, this.timeoutMs);
    try {
      const answer = await this.transport.stream({ ...request, headers: this.signed(request.headers, principal), signal: controller.signal });
      answer.body.once('close', () => signal.removeEventListener('abort', abort));
      return answer;
    } catch {
      signal.removeEventListener('abort', abort);
      controller.abort();
      throw upstreamUnavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  private signed(headers: Record<string, string>, principal: Principal): Record<string, string> {
    const requestId = currentRequestId();
    return {
      accept: 'application/graphql-response+json, application/json',
      ...headers,
      [PRINCIPAL_HEADER]: signPrincipal(principal, this.internalSecret),
      [CORE_BUDGET_HEADER]: String(this.timeoutMs),
      ...(requestId ? { [CORE_REQUEST_ID_HEADER]: requestId } : {}),
    };
  }

  close() {
    return this.transport.close();
  }
}

function toApiError(error: NonNullable<GraphQLResponse['errors']>[number], replayed: boolean): ApiError {
  const code = error.extensions?.code;
  const param = typeof error.extensions?.param === 'string' ? error.extensions.param : undefined;
  const limit = typeof error.extensions?.limit === 'string' ? error.extensions.limit : undefined;
  const retryAfter = error.extensions?.retryAfter;
  const headers = {
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    // A venue's rate limit (the core's rate_limited) is retried like the gateway's own, and an unavailable database: after Retry-After seconds.
    ...((code === 'rate_limited' || code === 'service_unavailable') && Number.isSafeInteger(retryAfter) && (retryAfter as number) >= 0 ? { 'Retry-After': String(retryAfter) } : {}),
  };
  if (isCoreErrorCode(code)) return new ApiError(code, error.message, { param, limit, headers: Object.keys(headers).length ? headers : undefined });
  return new ApiError('internal_error', 'An internal error occurred.');
}

/** Over HTTP to CORE_URL, on a keep-alive connection pool. */
export function httpTransport(coreUrl: string): CoreTransport {
  const origin = new URL(coreUrl).origin;
  const pool = new Pool(origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  // Streams hold their connection for as long as they last (up to EVENT_STREAM_MAX_AGE_MS): a pool
  // of their own, so that open subscriptions never take the connections ordinary calls wait for.
  // Their number is bounded per credential (StreamAdmission), not here.
  const streams = new Pool(origin, { connections: null, pipelining: 1 });
  return {
    async send({ method, path, body, headers, signal }) {
      const response = await pool.request({ method, path, body, headers, signal });
      const contentType = response.headers['content-type'];
      return { status: response.statusCode, contentType: String(contentType ?? ''), text: await response.body.text() };
    },
    async stream({ method, path, body, headers, signal }) {
      const response = await streams.request({ method, path, body, headers, signal });
      return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), body: response.body };
    },
    // Open streams are cut (their clients reconnect elsewhere); ordinary calls finish first.
    close: async () => {
      await streams.destroy();
      await pool.close();
    },
  };
}

/** In the same process as the core (`npm start`): the same request, without a socket. */
export function inProcessTransport(core: { fetch(url: string, init: RequestInit): Promise<Response> | Response }): CoreTransport {
  return {
    async send({ method, path, body, headers, signal }) {
      const response = await core.fetch(`http://core${path}`, { method, body, headers, signal });
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
    },
    async stream({ method, path, body, headers, signal }) {
      const response = await core.fetch(`http://core${path}`, { method, body, headers, signal });
      // Yoga's Response body is a web stream of its fetch ponyfill, iterable but no instance of Node's
      // ReadableStream (Readable.fromWeb refuses it). Aborting ends the body too: destroying it
      // returns the iterator, which cancels the core's stream and so ends the subscription.
      const stream = Readable.from((response.body ?? []) as unknown as AsyncIterable<Uint8Array>);
      signal.addEventListener('abort', () => stream.destroy(), { once: true });
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: stream };
    },
    close: async () => undefined,
  };
}
