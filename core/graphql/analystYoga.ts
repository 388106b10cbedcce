import { createGraphQLError, createYoga, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { DASHBOARD_TOKEN_FORMAT, sha256Hex } from '../domain/secrets';
import { ENVIRONMENT_HEADER, environmentFromHeader } from '../../contract/environment';
import { sessionTokenFromCookieHeader } from '../domain/sessionTokens';
import { authenticateDashboardToken } from '../services/apiKeys';
import { findSession } from '../services/sessions';
import { contextFor, type ContextDeps, type CoreContext } from './context';
import { maskError } from './errorMasking';
import { refuseMutationsWhenReadOnly } from './readOnlyAccess';
import { schema } from './schema';

export const ANALYST_ENDPOINT = '/analyst/graphql';

export type AnalystDeps = ContextDeps;

export type AnalystYoga = YogaServerInstance<Record<string, never>, CoreContext>;

const unauthorized = (message: string) => createGraphQLError(message, { extensions: { code: 'unauthorized', http: { status: 401 } } });

/**
 * The core's GraphQL for internal dashboards and analysts, at /analyst/graphql: any document (not
 * only the gateway's persisted ones), GraphiQL in the browser (bundled, nothing fetched from a CDN),
 * authenticated with a workspace dashboard token (`Authorization: Bearer mk_dash_…`), or, where
 * the dashboard shares the origin (`npm start`), the signed-in user's session cookie, which only
 * reads (so no CSRF token is needed, and a forged request can change nothing). Scoped to the
 * workspace and to the environment of the `X-Environment` header (`test` by default). Read-only
 * credentials cannot run mutations. Depth, breadth and complexity are limited (see builder.ts).
 */
export function createAnalystYoga(deps: AnalystDeps): AnalystYoga {
  const mask = maskError(deps.logger);
  return createYoga<Record<string, never>, CoreContext>({
    schema,
    graphqlEndpoint: ANALYST_ENDPOINT,
    landingPage: false,
    // No cross-origin callers: with cookies accepted, no other site's page may read the answers.
    cors: false,
    graphiql: {
      title: 'Prediction markets — analyst GraphQL',
      // Header values must be Latin-1 for fetch: no placeholder with an ellipsis here.
      headers: JSON.stringify({ 'X-Environment': 'test' }),
      defaultQuery: [
        '# Signed in to the dashboard in this browser? Queries just work (the session reads only).',
        '# Otherwise add "Authorization": "Bearer mk_dash_..." under Headers below.',
        '# X-Environment chooses test or live.',
        '{',
        '  workspace { id name tradingHalted }',
        '  subaccounts { data { id name cashBalance } }',
        '}',
        '',
      ].join('\n'),
    },
    renderGraphiQL,
    logging: false,
    maskedErrors: { maskError: mask },
    plugins: [refuseMutationsWhenReadOnly()],
    context: async ({ request }) => {
      const environment = environmentFromHeader(request.headers.get(ENVIRONMENT_HEADER));
      if (!environment) {
        throw createGraphQLError('X-Environment is test or live.', { extensions: { code: 'invalid_request', http: { status: 400 } } });
      }
      const header = request.headers.get('authorization');
      const cookieToken = header ? undefined : sessionTokenFromCookieHeader(request.headers.get('cookie'));
      if (cookieToken !== undefined) {
        // A signed-in dashboard user in the same browser (npm start serves both on one origin): reads only.
        const session = await findSession(deps.db, cookieToken);
        if (!session) throw unauthorized('The dashboard session has ended: sign in again, or use a dashboard token.');
        // An analyst's reads, whatever the user may do in the dashboard: no mutation, no dashboard-only field.
        return contextFor(deps, { kind: 'analyst', workspaceId: session.workspaceId, credentialId: session.id, environment, access: 'read_only' });
      }
      const secret = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!DASHBOARD_TOKEN_FORMAT.test(secret)) {
        throw unauthorized('Sign in to the dashboard in this browser, or send a dashboard token: Authorization: Bearer mk_dash_…');
      }
      const token = await authenticateDashboardToken(deps.db, sha256Hex(secret));
      if (!token) throw unauthorized('The dashboard token is unknown or revoked.');
      return contextFor(deps, { kind: 'analyst', workspaceId: token.workspaceId, credentialId: token.tokenId, environment, access: token.scope });
    },
  });
}
