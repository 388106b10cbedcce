/**
 * Whether an error means the database cannot be reached or used at all right now (stopped,
 * restarting, refusing connections, out of connection slots), as opposed to a statement's own
 * failure. Such a failure is the service's, not the request's: it answers 503
 * `service_unavailable` with Retry-After, and the next request after the database is back
 * succeeds (the pool makes new connections).
 *
 * Recognised along the error's cause chain: Prisma's connection codes (P1001 not reachable, P1002
 * and P1008 timeouts, P1017 connection closed, P2024 no connection from the pool in time, P2037
 * too many connections), PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P
 * (operator intervention: shutdown, crash, cannot connect now) and 53300 (too many connections),
 * Node's socket errors, and node-postgres's own messages for a lost or refused connection.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError']);
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-4]|53300)$/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = next(current)) {
    seen.add(current);
    const { code, kind, message, originalCode } = current as { code?: unknown; kind?: unknown; message?: unknown; originalCode?: unknown };
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && PG_MESSAGES.some((text) => message.startsWith(text))) return true;
  }
  return false;
}

/** The next error in the chain: `cause`, a GraphQL error's `originalError`, or an AggregateError's first. */
function next(error: object): unknown {
  const { cause, originalError, errors } = error as { cause?: unknown; originalError?: unknown; errors?: unknown };
  return cause ?? originalError ?? (Array.isArray(errors) ? errors[0] : undefined);
}
