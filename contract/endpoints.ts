/**
 * The core's two GraphQL endpoints, both reached only through a gateway with a signed principal
 * (contract/principal.ts): the persisted operations of the REST routes, and the analysts' GraphQL
 * (any document, depth and complexity limited), which the gateway serves at the same path.
 */
export const CORE_GRAPHQL_PATH = '/graphql';
export const ANALYST_GRAPHQL_PATH = '/analyst/graphql';

/**
 * The time in milliseconds the gateway waits for the core's answer to this request (its
 * CORE_TIMEOUT_MS). The core keeps its venue calls within it (core/graphql/requestDeadline.ts), so
 * that it answers with the order's real state rather than the gateway answering 502.
 */
export const CORE_BUDGET_HEADER = 'x-core-budget-ms';
/** The request id the gateway answers the client with, for the core's log lines of the same request. */
export const CORE_REQUEST_ID_HEADER = 'x-request-id';

/**
 * The operator's endpoints, on the gateway's port and on the core's (docs/operations.md): liveness,
 * readiness and Prometheus metrics. No principal, no API key: probes and scrapers carry none
 * (/metrics takes METRICS_TOKEN when one is set).
 */
export const OPS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;
