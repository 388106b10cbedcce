import { Pool } from 'undici';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from '../contract/principal';
import type { PersistedOperation } from '../contract/operations';
import { isCoreErrorCode } from '../contract/errors';
import { ApiError, upstreamUnavailable } from './errors';

/**
 * Calls the core with a persisted operation: only the operation's hash, its variables and the
 * signed principal cross the wire. A core that does not answer within the timeout is a 502.
 */
export interface CoreTransport {
  post(body: string, headers: Record<string, string>, signal: AbortSignal): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: unknown; param?: unknown; limit?: unknown } }[];
  extensions?: { idempotentReplayed?: boolean };
}

export interface CoreResult {
  value: unknown;
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
    const headers = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      [PRINCIPAL_HEADER]: signPrincipal(principal, this.internalSecret),
    };
    let response: { status: number; text: string };
    // A plain timer rather than AbortSignal.timeout, which builds a DOMException on every call.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      response = await this.transport.post(body, headers, controller.signal);
    } catch {
      throw upstreamUnavailable();
    } finally {
      clearTimeout(timer);
    }
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
    return { value: Object.values(data)[0], replayed };
  }

  close() {
    return this.transport.close();
  }
}

function toApiError(error: NonNullable<GraphQLResponse['errors']>[number], replayed: boolean): ApiError {
  const code = error.extensions?.code;
  const param = typeof error.extensions?.param === 'string' ? error.extensions.param : undefined;
  const limit = typeof error.extensions?.limit === 'string' ? error.extensions.limit : undefined;
  const headers = replayed ? { 'Idempotent-Replayed': 'true' } : undefined;
  if (isCoreErrorCode(code)) return new ApiError(code, error.message, { param, limit, headers });
  return new ApiError('internal_error', 'An internal error occurred.');
}

/** Over HTTP to CORE_URL, on a keep-alive connection pool. */
export function httpTransport(coreUrl: string): CoreTransport {
  const url = new URL('/graphql', coreUrl);
  const pool = new Pool(url.origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  return {
    async post(body, headers, signal) {
      const response = await pool.request({ method: 'POST', path: url.pathname, body, headers, signal });
      return { status: response.statusCode, text: await response.body.text() };
    },
    close: () => pool.close(),
  };
}

/** In the same process as the core (`npm start`): the same request, without a socket. */
export function inProcessTransport(core: { fetch(url: string, init: RequestInit): Promise<Response> | Response }): CoreTransport {
  return {
    async post(body, headers, signal) {
      const response = await core.fetch('http://core/graphql', { method: 'POST', body, headers, signal });
      return { status: response.status, text: await response.text() };
    },
    close: async () => undefined,
  };
}
