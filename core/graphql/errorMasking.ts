import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { DomainError } from '../domain/errors';
import type { Logger } from '../support/logger';

/**
 * Every error leaves the core with `extensions.code` and `extensions.http.status`, which the REST
 * gateway turns into its envelope. Domain errors keep their message; GraphQL's own request errors
 * (a variable of the wrong type) are the caller's mistake; anything else is logged and masked.
 */
export function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof DomainError) {
      return createGraphQLError(original.message, {
        path: error instanceof GraphQLError ? error.path : undefined,
        extensions: {
          code: original.code,
          ...(original.param ? { param: original.param } : {}),
          ...('limit' in original ? { limit: (original as { limit: string }).limit } : {}),
          http: { status: original.status },
        },
      });
    }
    if (error instanceof GraphQLError && error.extensions?.code && error.extensions?.http) return error;
    if (error instanceof GraphQLError && !error.originalError) {
      return createGraphQLError(error.message, {
        extensions: { code: 'invalid_request', ...variableParam(error.message), http: { status: 400 } },
      });
    }
    logger.error({ err: original }, 'unexpected error in a resolver');
    return createGraphQLError('Internal error.', { extensions: { code: 'internal_error', http: { status: 500 } } });
  };
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `Variable "$input" got invalid value … at "input.startingBalance"` names starting_balance. */
function variableParam(message: string): { param?: string } {
  const match = /Variable "\$(\w+)"[^"]*?(?:at "([\w.[\]]+)")?/.exec(message);
  if (!match) return {};
  const path = (match[2] ?? match[1]).split('.').filter((part) => part !== 'input');
  return path.length ? { param: snake(path[path.length - 1]) } : {};
}
