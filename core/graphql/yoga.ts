import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useGraphQlJit } from '@envelop/graphql-jit';
import type { Config } from '../config';
import type { Db } from '../db/prismaClient';
import { CORE_GRAPHQL_PATH } from '../../contract/endpoints';
import { loadOperations } from '../../contract/operations';
import type { RevocationBus } from '../../contract/revocationBus';
import type { VenueRegistry } from '../venues/venue';
import type { Logger } from '../support/logger';
import { requestDeadline } from './requestDeadline';
import { contextFor, type ContextDeps, type CoreContext } from './context';
import { graphqlError, maskError } from './errorMasking';
import { refuseMutationsWhenReadOnly } from './readOnlyAccess';
import { refuseUnsafeRequests } from './requestLimits';
import { useIdempotency } from './idempotency';
import type { KeyRecords } from '../services/idempotency/keyRecords';
import { schema } from './schema';
import { signedPrincipalOf } from './signedPrincipal';

export interface CoreDeps extends ContextDeps {
  internalSecret: string;
  /** The Idempotency-Key records the endpoint's requests claim (services/idempotency/). */
  keyRecords: KeyRecords;
  /**
   * True when the only caller is a gateway in the same process, which has already bounded every
   * body: Yoga's own size limit (a stream pipeline per request) is then skipped.
   */
  inProcessOnly?: boolean;
}

export type CoreYoga = YogaServerInstance<Record<string, never>, CoreContext>;

/**
 * The core's GraphQL endpoint. Gateway traffic carries a principal signed with the internal
 * secret and names a persisted operation by its SHA-256; nothing else is executed.
 */
export function createCoreYoga(deps: CoreDeps): CoreYoga {
  const operations = loadOperations();
  const documents = new Map([...operations.values()].map((op) => [op.hash, op.document]));
  const mask = maskError(deps.logger);
  return createYoga<Record<string, never>, CoreContext>({
    schema,
    graphqlEndpoint: CORE_GRAPHQL_PATH,
    landingPage: false,
    ...(deps.inProcessOnly ? { maxRequestBodySize: false as const } : {}),
    graphiql: false,
    logging: false,
    maskedErrors: { maskError: mask },
    plugins: [
      refuseUnsafeRequests(),
      usePersistedOperations({
        getPersistedOperation: (hash) => documents.get(hash) ?? null,
        allowArbitraryOperations: false,
        customErrors: {
          notFound: () => graphqlError('not_found', 'Unknown persisted operation.'),
          keyNotFound: () => graphqlError('invalid_request', 'A persisted operation hash is required.'),
          persistedQueryOnly: () => graphqlError('forbidden', 'Only persisted operations are accepted.'),
        },
      }),
      refuseMutationsWhenReadOnly(),
      useIdempotency(deps.keyRecords, mask),
      // The gateway's documents are fixed (persisted): each is compiled once into JavaScript
      // (graphql-jit) instead of walked by the generic executor on every request (bench/README.md).
      useGraphQlJit(),
    ],
    context: ({ request }) => contextFor(deps, signedPrincipalOf(request, deps.internalSecret), requestDeadline(request, deps.config.CORE_TIMEOUT_MS)),
  });
}
