/**
 * The core's two GraphQL endpoints, both reached only through a gateway with a signed principal
 * (contract/principal.ts): the persisted operations of the REST routes, and the analysts' GraphQL
 * (any document, depth and complexity limited), which the gateway serves at the same path.
 */
export const CORE_GRAPHQL_PATH = '/graphql';
export const ANALYST_GRAPHQL_PATH = '/analyst/graphql';
