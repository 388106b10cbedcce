import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { ANALYST_GRAPHQL_PATH } from '../../contract/endpoints';
import { requestDeadline } from './requestDeadline';
import { contextFor, type CoreContext } from './context';
import { analystSchemaOf } from './analystSchema';
import { graphqlError, maskError } from './errorMasking';
import { introspectionPolicy, introspectionRefusal, type IntrospectionPolicy } from './introspectionLimits';
import { refuseMutationsWhenReadOnly } from './readOnlyAccess';
import { refuseUnsafeRequests } from './requestLimits';
import { schema } from './schema';
import { signedPrincipalOf } from './signedPrincipal';
import type { CoreDeps } from './yoga';
import type { EventNotices } from '../../contract/eventNotices';

export type AnalystYoga = YogaServerInstance<Record<string, never>, CoreContext>;

/**
 * The core's GraphQL for internal dashboards and analysts: any document (not only the persisted
 * ones), its nesting limited before parsing (requestLimits.ts) and its depth, breadth and
 * complexity after (see builder.ts), its introspection by a budget of its own or not at all
 * (introspectionLimits.ts), over a schema without the gateway's internal fields (analystSchema.ts). The gateway authenticates the analyst (a dashboard token, or
 * the dashboard's session cookie as a read-only analyst), limits the rate, serves GraphiQL and
 * forwards the request here with an `analyst` principal signed like every other; the core trusts
 * nothing else. Read-only credentials cannot run mutations. Subscriptions (the event log as it
 * grows) are served here only, over Server-Sent Events (`Accept: text/event-stream`, graphql-yoga's
 * default), following the core's event notices.
 */
export function createAnalystYoga(deps: Omit<CoreDeps, 'keyRecords'> & { eventNotices: EventNotices }): AnalystYoga {
  const mask = maskError(deps.logger);
  const analystSchema = analystSchemaOf(schema);
  const introspection = introspectionPolicy(analystSchema, deps.config.ANALYST_INTROSPECTION);
  return createYoga<Record<string, never>, CoreContext>({
    schema: analystSchema,
    graphqlEndpoint: ANALYST_GRAPHQL_PATH,
    landingPage: false,
    graphiql: false,
    cors: false,
    logging: false,
    maskedErrors: { maskError: mask },
    plugins: [refuseUnsafeRequests(), limitIntrospection(introspection), refuseMutationsWhenReadOnly()],
    context: ({ request }) => {
      const principal = signedPrincipalOf(request, deps.internalSecret);
      if (principal.kind !== 'analyst') {
        throw graphqlError('forbidden', 'The analysts’ GraphQL takes an analyst principal.');
      }
      return contextFor(deps, principal, requestDeadline(request, deps.config.CORE_TIMEOUT_MS));
    },
  });
}

/** Every document is held to the introspection policy first: a refusal is its validation's only result. */
function limitIntrospection(policy: IntrospectionPolicy): Plugin<CoreContext> {
  return {
    onValidate({ params, setResult }) {
      const refusal = introspectionRefusal(policy, params.schema, params.documentAST);
      if (refusal) setResult([refusal]);
    },
  };
}
