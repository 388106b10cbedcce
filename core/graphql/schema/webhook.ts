import {
  createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, type DeliveryView, type WebhookEndpointView,
} from '../../services/webhookEndpoints';
import { builder } from '../builder';
import { requestScope } from '../context';
import { EnvironmentEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const WebhookEndpointType = builder.objectRef<WebhookEndpointView>('WebhookEndpoint').implement({
  description: 'A URL the workspace’s events of one environment are POSTed to, signed with its secret (docs/webhooks.md). The secret is shown once, when it is created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Exact types or <object>.* (order.*), as the events query takes them.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true }),
  }),
});

const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'pending: not acknowledged yet, retried at nextAttemptAt; succeeded: a 2xx answered; failed: given up (the retry window passed, or the endpoint was deleted).',
  values: ['pending', 'succeeded', 'failed'] as const,
});

const WebhookAttemptType = builder.objectRef<DeliveryView['attemptList'][number]>('WebhookAttempt').implement({
  description: 'One try of a delivery.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: '1 for the first try; the Webhook-Attempt header sent.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    httpStatus: t.exposeInt('httpStatus', { nullable: true, description: 'The receiver’s HTTP status; null when it gave none (see error).' }),
    error: t.exposeString('error', { nullable: true, description: 'Why there was no answer: a timeout, a refused connection, a refused address.' }),
  }),
});

const WebhookDeliveryType = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description: 'One event sent to one endpoint, with every attempt.',
  fields: (t) => ({
    endpointId: t.exposeID('endpointId'),
    eventId: t.exposeID('eventId', { description: 'The event sent: the Webhook-Id header, the same on every attempt (deduplicate on it).' }),
    eventType: t.exposeString('eventType'),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attemptCount: t.exposeInt('attempts', { description: 'Attempts begun.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'Pending: when it is tried next (or, while an attempt is under way, when its lease ends).' }),
    lastHttpStatus: t.exposeInt('lastHttpStatus', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    attempts: t.field({ type: [WebhookAttemptType], resolve: (delivery) => delivery.attemptList }),
  }),
});

const WebhookEndpointPage = pageOf('WebhookEndpoint', WebhookEndpointType);
const WebhookDeliveryPage = pageOf('WebhookDelivery', WebhookDeliveryType);

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: WebhookEndpointPage,
    description: 'The webhook endpoints of the scope, newest first (deleted ones left out).',
    args: pageArgs,
    resolve: (_root, args, ctx) => listWebhookEndpoints(ctx.db, requestScope(ctx), args),
  }),
);

builder.queryField('webhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getWebhookEndpoint(ctx.db, requestScope(ctx), String(args.id)),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: WebhookDeliveryPage,
    description: 'An endpoint’s deliveries, newest event first, each with its attempts.',
    args: { endpointId: t.arg.id({ required: true }), ...pageArgs },
    resolve: (_root, args, ctx) => listWebhookDeliveries(ctx.db, requestScope(ctx), String(args.endpointId), args),
  }),
);

/** An endpoint just created, with its secret: the only time the secret is ever shown. */
const CreatedWebhookEndpoint = builder.objectRef<{ endpoint: WebhookEndpointView; secret: string }>('CreatedWebhookEndpoint').implement({
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointType, resolve: (created) => created.endpoint }),
    secret: t.exposeString('secret', { description: 'whsec_…: the key of the signatures. Shown once; stored sealed, never shown again.' }),
  }),
});

const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    eventTypes: t.stringList({ required: true }),
    description: t.string({ required: false }),
  }),
});

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedWebhookEndpoint,
    description: 'Registers an endpoint in the scope; answers its signing secret this once. Never idempotent (the secret is not stored to be replayed).',
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, ctx) => createWebhookEndpoint(ctx.db, ctx.credentialKeys, requestScope(ctx), input),
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointType,
    description: 'Deletes an endpoint: nothing new is sent to it and its pending deliveries are given up.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteWebhookEndpoint(ctx.db, requestScope(ctx), String(args.id)),
  }),
);
