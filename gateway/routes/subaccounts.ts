import { z } from 'zod';
import { balance, exchange, id, page } from './inputs';
import type { Route } from './route';

/** Subaccounts and the exchange credentials attached to them (docs/credentials.md). */
export const SUBACCOUNT_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/subaccounts', operation: 'ListSubaccounts', tag: 'Subaccounts', summary: 'List subaccounts',
    auth: 'api_key', session: true, query: z.strictObject({ ...page }), errors: ['invalid_request'],
  },
  {
    method: 'POST', path: '/v1/subaccounts', operation: 'CreateSubaccount', tag: 'Subaccounts', summary: 'Create subaccount',
    description: 'Test subaccounts start with simulated cash (starting_balance, or the configured default).',
    auth: 'api_key', session: true, bodyVariable: 'input',
    body: z.strictObject({
      name: z.string().min(1).max(100),
      starting_balance: balance.optional().describe('Test keys only: simulated cash in dollars, below 1,000,000,000,000.'),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type'],
  },
  {
    method: 'GET', path: '/v1/subaccounts/{id}', operation: 'GetSubaccount', tag: 'Subaccounts', summary: 'Get subaccount',
    auth: 'api_key', session: true, params: z.strictObject({ id: id('sa') }), errors: ['not_found'],
  },
  {
    method: 'DELETE', path: '/v1/subaccounts/{id}', operation: 'DeleteSubaccount', tag: 'Subaccounts', summary: 'Delete subaccount',
    description: 'Refused (409) while the subaccount has working orders. Its venue credentials are destroyed; its history is kept.',
    auth: 'api_key', params: z.strictObject({ id: id('sa') }), errors: ['not_found', 'conflict'],
  },
  {
    method: 'DELETE', path: '/v1/subaccounts/{id}/credentials/{exchange}', operation: 'DeleteExchangeCredential',
    tag: 'Subaccounts', summary: 'Delete exchange credentials of a subaccount for one exchange', auth: 'api_key', session: true,
    params: z.strictObject({ id: id('sa'), exchange }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'PUT', path: '/v1/subaccounts/{id}/credentials/{exchange}', operation: 'AttachExchangeCredential',
    tag: 'Subaccounts', summary: 'Attach exchange credentials to a subaccount',
    description: 'Kalshi: key_id (a UUID), private_key (RSA PEM, at least 2048 bits) and environment (`demo` or `production`: the Kalshi environment that issued the key, where alone it works). Polymarket (CLOB V2): private_key (secp256k1, hex); signature_type (0 EOA, the default; 1 POLY_PROXY; 2 POLY_GNOSIS_SAFE; 3 POLY_1271); funder_address (required for 1 to 3); api_key, api_secret, api_passphrase (all three, or none: derived from the key with Polymarket\'s L1 auth when the account opens). The signer address derived from the key is the fingerprint. Shape-checked, sealed with AES-256-GCM under the configured key-encryption key, replacing what was attached before; answers only a fingerprint (and a Kalshi key\'s environment), never the secret again. Authenticated through the dashboard. See docs/credentials.md.',
    auth: 'dashboard', params: z.strictObject({ id: id('sa'), exchange }), bodyVariable: 'credentials', bodyVerbatim: true,
    body: z.strictObject({
      key_id: z.string().max(256).optional(),
      private_key: z.string().max(16_384).optional(),
      environment: z.string().max(32).optional(),
      api_key: z.string().max(256).optional(),
      api_secret: z.string().max(1024).optional(),
      api_passphrase: z.string().max(1024).optional(),
      funder_address: z.string().max(256).optional(),
      signature_type: z.number().int().optional(),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found', 'forbidden'],
  },
];
