import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { statusOf, type CoreErrorCode } from '../../contract/errors';
import { DomainError, RateLimited } from '../domain/errors';
import type { Logger } from '../support/logger';
import { isDatabaseUnavailable } from '../db/unavailable';

/** When a client may retry after the database was unavailable: a restart or a failover takes seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 1;

/**
 * An error as it leaves the core: `extensions.code` from the catalogue (contract/errors.ts) with
 * the catalogue's `http.status`, and `param`, the offending input as GraphQL names it (a field such
 * as `timeInForce`, or a variable's path such as `input.timeInForce`), where there is one; and
 * for `rate_limited` and `service_unavailable`, `retryAfter` in seconds (the gateway's `Retry-After`).
 */
export function graphqlError(
  code: CoreErrorCode,
  message: string,
  details: { param?: string; limit?: string; retryAfter?: number; path?: readonly (string | number)[] } = {},
): GraphQLError {
  const { param, limit, retryAfter, path } = details;
  return createGraphQLError(message, {
    path,
    extensions: {
      code,
      ...(param ? { param } : {}),
      ...(limit ? { limit } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      http: { status: statusOf(code) },
    },
  });
}

/**
 * Every error leaves the core as a graphqlError, which the REST gateway turns into its envelope.
 * Domain errors keep their message; GraphQL's own request errors (a variable of the wrong type) are
 * the caller's mistake; anything else is logged and masked.
 */
export function maskError(logger: Logger) {
  return (error: unknown): GraphQLError => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof DomainError) {
      return graphqlError(original.code, original.message, {
        param: original.param,
        limit: 'limit' in original ? (original as { limit: string }).limit : undefined,
        retryAfter: original instanceof RateLimited ? original.retryAfterSeconds : undefined,
        path: error instanceof GraphQLError ? error.path : undefined,
      });
    }
    if (error instanceof GraphQLError && error.extensions?.code && error.extensions?.http) return error;
    if (isRequestError(error)) {
      return graphqlError('invalid_request', error.message, { param: variablePath(error.message) });
    }
    if (isDatabaseUnavailable(original)) {
      logger.warn({ err: original }, 'the database is unavailable: answered 503');
      return graphqlError('service_unavailable', 'The database is unavailable; retry after Retry-After seconds.', {
        retryAfter: DATABASE_RETRY_AFTER_SECONDS,
        path: error instanceof GraphQLError ? error.path : undefined,
      });
    }
    logger.error({ err: original }, 'unexpected error in a resolver');
    return graphqlError('internal_error', 'Internal error.');
  };
}

/**
 * GraphQL's own refusal of the request: a document that does not validate, or a variable or literal
 * a scalar refused (an Int beyond 32 bits, a DateTime out of range). Such an error has no cause, or
 * has a scalar's GraphQLError as its cause and no path (it arose before execution); an error of a
 * resolver has a path, and a failure of anything else has a cause of another kind.
 */
function isRequestError(error: unknown): error is GraphQLError {
  if (!(error instanceof GraphQLError)) return false;
  return !error.originalError || (error.path === undefined && error.originalError instanceof GraphQLError);
}

/** `Variable "$input" got invalid value … at "input.startingBalance"` names input.startingBalance. */
function variablePath(message: string): string | undefined {
  const match = /Variable "\$(\w+)"[^"]*?(?:at "([\w.[\]]+)")?/.exec(message);
  return match ? (match[2] ?? match[1]) : undefined;
}
