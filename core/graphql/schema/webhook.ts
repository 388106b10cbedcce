import {
  createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint,
  type DeliveryView, type WebhookEndpointView,
} from '../../services/events/webhookEndpoints';
import { builder } from '../builder';
import { requestScope } from '../context';
import { EnvironmentEnum } from './enums';
import { pageArgs, pageOf } from './page';

export const WebhookEndpointType = builder.objectRef<WebhookEndpointView>('WebhookEndpoint').implement({
  description: 'A URL the workspace’s events of one environment are POSTed to, signed with its secret (docs/webhooks.md). The secret is shown once, when it is created or rotated.',
  fields: (t) => ({
    id: t.exposeID('id'),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Exact types or <object>.* (order.*), as the events query takes them.' }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation, until when the previous secret signs deliveries beside the current one; null when no previous secret signs.',
      resolve: (endpoint) => (endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date() ? endpoint.previousSecretExpiresAt : null),
    }),
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

/** An endpoint with the secret just made for it (created, or rotated): the only time the secret is ever shown. */
const CreatedWebhookEndpoint = builder.objectRef<{ endpoint: WebhookEndpointView; secret: string }>('CreatedWebhookEndpoint').implement({
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointType, resolve: (created) => created.endpoint }),
    secret: t.exposeString('secret', { description: 'whsec_…: the key of the signatures. Shown once (creation or rotation); stored sealed, never shown again.' }),
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

const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'What to change; a field left out keeps its value.',
  fields: (t) => ({
    url: t.string({ required: false }),
    eventTypes: t.stringList({ required: false, description: 'Applies to the events numbered after the change.' }),
    description: t.string({ required: false, description: 'null removes it.' }),
  }),
});

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointType,
    description: 'Changes an endpoint’s url, event types or description, checked as at creation; its secret and deliveries stay (pending ones go to the new url from their next attempt).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookEndpointInput, required: true }) },
    resolve: (_root, args, ctx) => updateWebhookEndpoint(ctx.db, requestScope(ctx), String(args.id), args.input),
  }),
);

const RotateWebhookSecretInput = builder.inputType('RotateWebhookSecretInput', {
  fields: (t) => ({
    expirePreviousInSeconds: t.int({ required: false, description: 'How long the replaced secret keeps signing beside the new one: 0 to 604800 (7 days), 86400 when left out; 0 stops it at once.' }),
  }),
});

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: CreatedWebhookEndpoint,
    description: 'Gives an endpoint a new signing secret, answered this once; the replaced one keeps signing every delivery beside it until it expires. With an Idempotency-Key, a retry answers the same secret (re-opened from the endpoint, never stored with the answer).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: RotateWebhookSecretInput, required: false }) },
    resolve: async (_root, args, ctx) => {
      return rotateWebhookSecret(ctx.db, ctx.credentialKeys, requestScope(ctx), String(args.id), args.input ?? {}, ctx.idempotency);
    },
  }),
);
