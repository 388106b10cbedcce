import { z } from 'zod';
import { DEFAULT_PREVIOUS_SECRET_SECONDS, MAX_PREVIOUS_SECRET_SECONDS } from '../../contract/inputBounds';
import { id, page } from './inputs';
import type { Route } from './route';

const tag = 'Webhooks';
const params = z.strictObject({ id: id('whe') });
const url = z.string().min(1).max(2048).describe('https (or http) URL; one that resolves to a loopback, private, link-local or other special-purpose address is refused when delivering.');
const eventTypes = z.array(z.string().min(1).max(64)).min(1).max(64).describe('Event types, each exact (order.filled) or every type of an object (order.*); docs/events.md lists them.');
const description = z.string().max(500);

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export const WEBHOOK_ROUTES: Route[] = [
  {
    method: 'POST', path: '/v1/webhook_endpoints', operation: 'CreateWebhookEndpoint', tag, summary: 'Register a webhook endpoint',
    description: 'The workspace\u2019s events of this environment whose types match event_types are POSTed to url, each signed (Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">) with the endpoint\u2019s secret, retried with exponential backoff for 3 days until a 2xx answers. Answers `{endpoint, secret}`: the secret (whsec_…) is shown this once, stored sealed. Needs CREDENTIALS_KEK on the server (else 403); at most 16 endpoints per workspace and environment (else 409 conflict). Verification recipe and delivery rules: docs/webhooks.md.',
    auth: 'api_key', session: true, bodyVariable: 'input',
    body: z.strictObject({ url, event_types: eventTypes, description: description.optional() }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'conflict'],
  },
  {
    method: 'GET', path: '/v1/webhook_endpoints', operation: 'ListWebhookEndpoints', tag, summary: 'List webhook endpoints',
    description: 'The endpoints of the workspace in this environment, newest first; never a secret.',
    auth: 'api_key', session: true, query: z.strictObject({ ...page }), errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/webhook_endpoints/{id}', operation: 'GetWebhookEndpoint', tag, summary: 'Get a webhook endpoint',
    auth: 'api_key', session: true, params, errors: ['not_found'],
  },
  {
    method: 'PUT', path: '/v1/webhook_endpoints/{id}', operation: 'UpdateWebhookEndpoint', tag, summary: 'Update a webhook endpoint',
    description: 'Changes url, event_types or description, checked as at registration; fields left out keep their value, description null removes it. The secret and the delivery history stay. Pending deliveries go to the new url from their next attempt (one under way finishes at the old one); new event_types apply to events recorded after the change, never to deliveries already made.',
    auth: 'api_key', session: true, params, bodyVariable: 'input',
    body: z.strictObject({ url: url.optional(), event_types: eventTypes.optional(), description: description.nullable().optional() }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
  },
  {
    method: 'POST', path: '/v1/webhook_endpoints/{id}/rotate_secret', operation: 'RotateWebhookSecret', tag, summary: "Rotate a webhook endpoint's signing secret",
    description: `Answers \`{endpoint, secret}\`: the new secret (whsec_…), shown this once, as at registration. Until the replaced secret expires (expire_previous_in_seconds, ${DEFAULT_PREVIOUS_SECRET_SECONDS} by default; 0 stops it at once), every delivery is signed with both: Webhook-Signature: t=<unix seconds>,v1=<new>,v1=<previous>; a receiver accepts any v1 that matches. Rotating again drops a previous secret still valid: only the one just replaced is kept. Safe to retry with the same Idempotency-Key: the retry answers the same secret (nothing is rotated twice). Needs CREDENTIALS_KEK on the server (else 403). See docs/webhooks.md.`,
    auth: 'api_key', session: true, params, bodyVariable: 'input', idempotent: true,
    body: z.strictObject({
      expire_previous_in_seconds: z.number().int().min(0).max(MAX_PREVIOUS_SECRET_SECONDS).optional()
        .describe(`How long the replaced secret keeps signing beside the new one, in whole seconds: 0 to ${MAX_PREVIOUS_SECRET_SECONDS} (7 days); ${DEFAULT_PREVIOUS_SECRET_SECONDS} when left out.`),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'forbidden', 'not_found', 'conflict', 'idempotency_key_in_use', 'idempotency_key_reused'],
  },
  {
    method: 'DELETE', path: '/v1/webhook_endpoints/{id}', operation: 'DeleteWebhookEndpoint', tag, summary: 'Delete a webhook endpoint',
    description: 'Nothing new is sent to it, and its pending deliveries are given up (status failed). Answers the endpoint as deleted; it answers 404 afterwards.',
    auth: 'api_key', session: true, params, errors: ['not_found'],
  },
  {
    method: 'GET', path: '/v1/webhook_endpoints/{id}/deliveries', operation: 'ListWebhookDeliveries', tag, summary: "List a webhook endpoint's deliveries and their attempts",
    description: 'Newest event first: each delivery\u2019s status (pending, succeeded, failed), attempts made, next attempt, and every attempt (start, duration, HTTP status or error).',
    auth: 'api_key', session: true, params, query: z.strictObject({ ...page }), errors: ['invalid_request', 'not_found'],
  },
  ];
