import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { getOperationAST, Kind, type DocumentNode } from 'graphql';
import { DASHBOARD_TOKEN_FORMAT, sha256Hex } from '../domain/secrets';
import { authenticateDashboardToken } from '../services/apiKeys';
import { contextFor, type ContextDeps, type CoreContext } from './context';
import { maskError } from './errorMasking';
import { schema } from './schema';

export const ANALYST_ENDPOINT = '/analyst/graphql';
export const ENVIRONMENT_HEADER = 'x-environment';

export type AnalystDeps = ContextDeps;

export type AnalystYoga = YogaServerInstance<Record<string, never>, CoreContext>;

const unauthorized = (message: string) => createGraphQLError(message, { extensions: { code: 'unauthorized', http: { status: 401 } } });

/**
 * The core's GraphQL for internal dashboards and analysts, at /analyst/graphql: any document (not
 * only the gateway's persisted ones), GraphiQL in the browser (bundled, nothing fetched from a CDN),
 * authenticated with a workspace dashboard token (`Authorization: Bearer mk_dash_…`) and scoped to
 * its workspace and to the environment of the `X-Environment` header (`test` by default). Read-only
 * tokens cannot run mutations. Depth, breadth and complexity are limited (see builder.ts).
 */
export function createAnalystYoga(deps: AnalystDeps): AnalystYoga {
  const mask = maskError(deps.logger);
  return createYoga<Record<string, never>, CoreContext>({
    schema,
    graphqlEndpoint: ANALYST_ENDPOINT,
    landingPage: false,
    graphiql: { title: 'Prediction markets — analyst GraphQL', headers: JSON.stringify({ Authorization: 'Bearer mk_dash_…', 'X-Environment': 'test' }) },
    renderGraphiQL,
    logging: false,
    maskedErrors: { maskError: mask },
    plugins: [refuseMutationsWhenReadOnly()],
    context: async ({ request }) => {
      const header = request.headers.get('authorization') ?? '';
      const secret = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!DASHBOARD_TOKEN_FORMAT.test(secret)) throw unauthorized('A dashboard token is required: Authorization: Bearer mk_dash_…');
      const token = await authenticateDashboardToken(deps.db, sha256Hex(secret));
      if (!token) throw unauthorized('The dashboard token is unknown or revoked.');
      const environment = request.headers.get(ENVIRONMENT_HEADER) ?? 'test';
      if (environment !== 'test' && environment !== 'live') {
        throw createGraphQLError('X-Environment is test or live.', { extensions: { code: 'invalid_request', http: { status: 400 } } });
      }
      return contextFor(deps, { kind: 'analyst', workspaceId: token.workspaceId, credentialId: token.tokenId, environment, access: token.scope });
    },
  });
}

/** A read-only caller's mutation is refused before anything runs (403). */
function refuseMutationsWhenReadOnly(): Plugin<CoreContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = (args.contextValue as CoreContext).principal;
      if (principal.kind !== 'analyst' || principal.access !== 'read_only') return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName ?? undefined);
      if (operation?.operation === 'query' && operation.kind === Kind.OPERATION_DEFINITION) return;
      setResultAndStopExecution({
        errors: [createGraphQLError('This credential is read-only: mutations are refused.', { extensions: { code: 'forbidden', http: { status: 403 } } })],
      });
    },
  };
}
