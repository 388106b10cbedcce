import { z } from 'zod';
import { graphqlEnum } from '../graphqlEnums';
import { id, page } from './inputs';
import type { Route } from './route';

/** The workspace and its API keys. */
export const WORKSPACE_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/workspace', operation: 'GetWorkspace', tag: 'Workspaces', summary: 'Get the current workspace',
    auth: 'api_key', session: true, errors: [],
  },
  {
    method: 'GET', path: '/v1/api_keys', operation: 'ListApiKeys', tag: 'API keys', summary: 'List API keys',
    description: 'Both environments, revoked keys included, newest first: name, prefix and last 4, rate limit, created, last used, revoked. Never a secret. Authenticated through the dashboard (session or dashboard token).',
    auth: 'dashboard', query: z.strictObject({ ...page }), errors: ['invalid_request', 'forbidden'],
  },
  {
    method: 'POST', path: '/v1/api_keys', operation: 'CreateApiKey', tag: 'API keys', summary: 'Create an API key',
    description: 'Answers the key and its `secret`, shown this once: only its SHA-256 is kept. Not idempotent (a replay would need the secret stored). Authenticated through the dashboard. A workspace holds at most API_KEYS_PER_WORKSPACE (50) unrevoked keys, both environments together: 409 conflict past it (revoke one first).',
    auth: 'dashboard', bodyVariable: 'input',
    body: z.strictObject({
      name: z.string().min(1).max(100),
      environment: graphqlEnum('Environment'),
      rate_limit: z.number().int().min(1).max(100_000).optional().describe('Requests per second; the workspace default when left out.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'conflict'],
  },
  {
    method: 'DELETE', path: '/v1/api_keys/{key_id}', operation: 'RevokeApiKey', tag: 'API keys', summary: 'Revoke an API key',
    description: 'Authenticated through the dashboard: its session cookie (with X-CSRF-Token), or `Authorization: Bearer mk_dash_...` (a full-access workspace dashboard token; a read-only one gets 403). Requests with the revoked key get 401 at once.',
    auth: 'dashboard', params: z.strictObject({ key_id: id('key') }), errors: ['not_found', 'forbidden'],
  },
];
