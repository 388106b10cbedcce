import { z } from 'zod';
import { createdWindow, id, page } from './inputs';
import type { Route } from './route';

const eventTypes = z
  .string()
  .max(2000)
  .transform((value) => value.split(','))
  .describe('Comma-separated event types, each exact (order.filled) or every type of an object (order.*); docs/events.md lists them.');
const eventId = z.string().max(64).describe('An event id (evt_ and 26 digits).');
const eventFilter = {
  types: eventTypes.optional(),
  subaccount_id: id('sa').optional(),
};

/** The event log: by page, and as a stream (docs/events.md). */
export const EVENT_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/events', operation: 'ListEvents', events: true, tag: 'Events', summary: 'List events', auth: 'api_key', session: true,
    description: 'The event log of the workspace in this environment: every change of orders, fills, complex orders, switches, credentials and limits, in the order the changes were committed (docs/events.md). Newest first, paged with cursor; or, with after (an event id), oldest first from just after that event: pass the last id you got as the next after.',
    query: z.strictObject({ ...eventFilter, ...createdWindow, after: eventId.optional().describe('The events after this one, oldest first (not with cursor). 410 events_expired when events after it are no longer kept (EVENT_RETENTION_DAYS).'), ...page }),
    errors: ['invalid_request', 'events_expired'],
  },
  {
    method: 'GET', path: '/v1/events/stream', operation: 'ListEvents', stream: true, events: true, tag: 'Events', summary: 'Stream events (Server-Sent Events)',
    description: 'The event log as Server-Sent Events: each event is `id: <event id>` and `data: <the event as GET /v1/events lists it>`, in log order; a comment line (`: keep-alive`) every 15 s. Reconnect with the Last-Event-ID header (EventSource does) or after=<event id> to receive every event after it exactly once, in order; without either the stream starts now. At most EVENT_STREAMS_PER_KEY (10) streams per credential and EVENT_STREAMS_PER_WORKSPACE (100) per workspace at once, across gateways sharing Redis (429 rate_limited beyond). Streams of one workspace resuming from an event catch up taking turns (EVENT_CATCH_UP_PER_WORKSPACE reads at once per gateway). A stream ends after an hour, or when its client cannot keep up: reconnect with Last-Event-ID and nothing is lost.',
    auth: 'api_key', session: true,
    query: z.strictObject({ ...eventFilter, after: eventId.optional().describe('Start after this event (the Last-Event-ID header, when sent, takes precedence). 410 events_expired, before any stream, when events after it are no longer kept (EVENT_RETENTION_DAYS).') }),
    errors: ['invalid_request', 'events_expired', 'rate_limited'],
  },
];
