import { createHash } from 'node:crypto';
import type { Db } from '../../db/prismaClient';
import { openCredential, rewrapCredential, sealCredential, type CredentialKeys, type Kek } from '../../domain/credentialVault';
import { DomainError, invalidRequest, notFound } from '../../domain/errors';
import { eventId } from '../../../contract/eventTypes';
import { isSeqCursor } from '../../domain/events';
import { isIdOf, newId } from '../../domain/ids';
import { decodeCursor, isIdCursor, parseLimit, toPage, type Page } from '../../domain/pagination';
import { checkEndpointTypes, checkEndpointUrl, checkPreviousSecretSeconds, generateWebhookSecret } from '../../domain/webhooks';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { scopedRows, type Scope } from '../scope';
import { RETENTION_HOURS } from '../idempotency/keyRecords';
import type { IdempotencyPort } from '../idempotency/requestClaim';

/** What is ever shown of an endpoint: never a secret (the current one only once, at creation or rotation). */
export type WebhookEndpointView = Omit<WebhookEndpoint, 'kekId' | 'secretCiphertext' | 'previousSecretCiphertext' | 'secretRotationKey' | 'workspaceId'>;

const VIEW = { id: true, environment: true, url: true, description: true, eventTypes: true, previousSecretExpiresAt: true, createdAt: true, deletedAt: true } as const;

/** The AES-GCM additional data of an endpoint's secret: a blob copied to another endpoint does not open. */
const secretAad = (endpointId: string) => `webhook_endpoint:${endpointId}`;

export const MAX_DESCRIPTION_LENGTH = 500;
/** Endpoints a workspace may have per environment: each event is sent to every one that takes it. */
export const MAX_ENDPOINTS = 16;

/**
 * Registers an endpoint of the scope: checks the URL and the types, makes its signing secret and
 * seals it under the current key-encryption key (as venue credentials are: docs/credentials.md).
 * The secret is answered this once; without CREDENTIALS_KEK nothing can be sealed (403). At most
 * MAX_ENDPOINTS live ones per scope (409; two creations at once may pass it by one).
 */
export async function createWebhookEndpoint(
  db: Db,
  keys: CredentialKeys,
  scope: Scope,
  input: { url: string; eventTypes: readonly string[]; description?: string | null },
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const url = checkEndpointUrl(input.url);
  const eventTypes = checkEndpointTypes(input.eventTypes);
  const description = checkDescription(input.description);
  const current = sealingKey(keys);
  if ((await db.webhookEndpoint.count({ where: { ...scopedRows(scope), deletedAt: null } })) >= MAX_ENDPOINTS) {
    throw new DomainError('conflict', `A workspace has at most ${MAX_ENDPOINTS} webhook endpoints per environment: delete one first.`);
  }
  const id = newId('webhookEndpoint');
  const secret = generateWebhookSecret();
  const sealed = sealCredential(secret, current, secretAad(id));
  const endpoint = await db.webhookEndpoint.create({
    data: {
      id, ...scopedRows(scope), url, eventTypes, description: description ?? null,
      kekId: sealed.kekId, secretCiphertext: new Uint8Array(sealed.ciphertext),
    },
    select: VIEW,
  });
  return { endpoint, secret };
}

/** An endpoint's description as stored: at most MAX_DESCRIPTION_LENGTH characters (null or undefined as given). */
function checkDescription<T extends string | null | undefined>(description: T): T {
  if (description != null && description.length > MAX_DESCRIPTION_LENGTH) {
    throw invalidRequest('description', `description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`);
  }
  return description;
}

/** The key-encryption key secrets are sealed under: without CREDENTIALS_KEK nothing can be (403). */
function sealingKey(keys: CredentialKeys): Kek {
  if (!keys.current) {
    throw new DomainError('forbidden', 'Webhook endpoints are disabled on this server: the operator must set CREDENTIALS_KEK (32 bytes, base64) to seal their secrets.');
  }
  return keys.current;
}

/**
 * Changes an endpoint's url, event types or description, each checked as at creation; a field left
 * out (undefined) keeps its value, a description of null removes it. Its secret and deliveries stay:
 * pending deliveries go to the new url from their next attempt (the worker reads the endpoint on
 * each), and new event types apply to the events numbered after the change. Answers it as changed.
 */
export async function updateWebhookEndpoint(
  db: Db,
  scope: Scope,
  id: string,
  input: { url?: string | null; eventTypes?: readonly string[] | null; description?: string | null },
): Promise<WebhookEndpointView> {
  const url = input.url != null ? checkEndpointUrl(input.url) : undefined;
  const eventTypes = input.eventTypes != null ? checkEndpointTypes(input.eventTypes) : undefined;
  const description = checkDescription(input.description);
  const { count } = await db.webhookEndpoint.updateMany({ where: { id, ...scopedRows(scope), deletedAt: null }, data: { url, eventTypes, description } });
  if (count === 0) throw notFound('webhook endpoint', id);
  return getWebhookEndpoint(db, scope, id);
}

/**
 * Gives an endpoint a new signing secret, answered this once as at creation. The one it replaces
 * becomes the previous secret, re-sealed under the current KEK, and keeps signing every delivery
 * beside the new one for `expirePreviousInSeconds` (0: it stops at once and is not kept); a
 * previous secret still valid from an earlier rotation is dropped (only one is ever kept). With an
 * Idempotency-Key (`retryOf`), a retry of the rotation that made the current secret, with the same
 * request, within the time keys are kept (RETENTION_HOURS), answers
 * that secret again instead of rotating twice: its answer is never stored elsewhere. The same key
 * with another request is 422 idempotency_key_reused; an older key is a new request. Two rotations
 * at once: one wins, the other is 409 conflict.
 */
export async function rotateWebhookSecret(
  db: Db,
  keys: CredentialKeys,
  scope: Scope,
  id: string,
  input: { expirePreviousInSeconds?: number | null },
  retryOf?: IdempotencyPort,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  // Whatever the answer, it is not stored for replay: it may hold the secret. A retry with the key is
  // answered by the endpoint's record of the rotation, below.
  retryOf?.leaveAnswerUnstored();
  const seconds = checkPreviousSecretSeconds(input.expirePreviousInSeconds);
  const current = sealingKey(keys);
  await getWebhookEndpoint(db, scope, id);
  const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { id: true, kekId: true, secretCiphertext: true, secretRotationKey: true } });
  const rotation = retryOf ? rotationRecordOf(retryOf, id, seconds) : null;
  const made = rotationRecordParsed(row.secretRotationKey);
  if (rotation && made && made.key === rotation.key && Date.now() - made.at < RETENTION_HOURS * 3_600_000) {
    if (made.request !== rotation.request) throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
    return { endpoint: await getWebhookEndpoint(db, scope, id), secret: openWebhookSecret(keys, row) };
  }
  const previous = seconds > 0 ? rewrapCredential(row.secretCiphertext, keys.keyring, row.kekId, current, secretAad(id)) : null;
  const secret = generateWebhookSecret();
  const sealed = sealCredential(secret, current, secretAad(id));
  const { count } = await db.webhookEndpoint.updateMany({
    where: { id, deletedAt: null, kekId: row.kekId, secretCiphertext: { equals: row.secretCiphertext } },
    data: {
      kekId: sealed.kekId,
      secretCiphertext: new Uint8Array(sealed.ciphertext),
      previousSecretCiphertext: previous ? new Uint8Array(previous.ciphertext) : null,
      previousSecretExpiresAt: previous ? new Date(Date.now() + seconds * 1000) : null,
      secretRotationKey: rotation ? `${rotation.key}:${rotation.request}:${Date.now()}` : null,
    },
  });
  if (count === 0) throw new DomainError('conflict', 'The endpoint changed while its secret was rotated (another rotation, or its deletion): read it and retry.');
  return { endpoint: await getWebhookEndpoint(db, scope, id), secret };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What identifies a rotation's Idempotency-Key (its API key id and key) and its request (the endpoint and the expiry asked for), as hashes. */
function rotationRecordOf(retryOf: { apiKeyId: string; key: string }, id: string, seconds: number) {
  return { key: sha256(`${retryOf.apiKeyId}\n${retryOf.key}`), request: sha256(`${id}\n${seconds}`) };
}

/** The rotation that made the current secret, as stored (`key:request:epoch ms`); null when it had no Idempotency-Key. */
function rotationRecordParsed(stored: string | null): { key: string; request: string; at: number } | null {
  const [key, request, at] = stored?.split(':') ?? [];
  return key && request && at ? { key, request, at: Number(at) } : null;
}

/** The scope's endpoints (deleted ones left out), newest first. */
export async function listWebhookEndpoints(db: Db, scope: Scope, args: { limit?: number | null; cursor?: string | null }): Promise<Page<WebhookEndpointView>> {
  const limit = parseLimit(args.limit);
  const after = decodeCursor(args.cursor, isIdCursor);
  const rows = await db.webhookEndpoint.findMany({
    where: { ...scopedRows(scope), deletedAt: null, ...(after ? { id: { lt: after.id } } : {}) },
    orderBy: { id: 'desc' },
    take: limit + 1,
    select: VIEW,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}

/** An endpoint of the scope, not deleted; not_found for anything else (another workspace's included). */
export async function getWebhookEndpoint(db: Db, scope: Scope, id: string): Promise<WebhookEndpointView> {
  const row = isIdOf('webhookEndpoint', id) ? await db.webhookEndpoint.findFirst({ where: { id, ...scopedRows(scope), deletedAt: null }, select: VIEW }) : null;
  if (!row) throw notFound('webhook endpoint', id);
  return row;
}

/**
 * Deletes an endpoint: it gets no new deliveries (the sequencer skips it) and its pending ones are
 * given up, in one transaction. Its deliveries stay on record. Answers it as it was deleted.
 */
export async function deleteWebhookEndpoint(db: Db, scope: Scope, id: string): Promise<WebhookEndpointView> {
  await getWebhookEndpoint(db, scope, id);
  const now = new Date();
  const [endpoint] = await db.$transaction([
    db.webhookEndpoint.update({ where: { id }, data: { deletedAt: now }, select: VIEW }),
    db.webhookDelivery.updateMany({ where: { endpointId: id, status: 'pending' }, data: { status: 'failed', lastError: 'the endpoint was deleted', completedAt: now } }),
  ]);
  return endpoint;
}

/** An endpoint's signing secret, opened with the keyring (for signing a delivery only). */
export function openWebhookSecret(keys: CredentialKeys, endpoint: { id: string; kekId: string; secretCiphertext: Uint8Array }): string {
  return openCredential(endpoint.secretCiphertext, keys.keyring, endpoint.kekId, secretAad(endpoint.id)).toString('utf8');
}

type SealedSecrets = Pick<WebhookEndpoint, 'id' | 'kekId' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>;

/** Whether an endpoint's previous secret still signs at `now` (never once it expired). */
const previousValid = (endpoint: SealedSecrets, now: Date): endpoint is SealedSecrets & { previousSecretCiphertext: Uint8Array } =>
  endpoint.previousSecretCiphertext !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;

/** The secrets a delivery sent at `now` is signed with: the current one, then the previous one until it expires. */
export function openSigningSecrets(keys: CredentialKeys, endpoint: SealedSecrets, now: Date): string[] {
  const secrets = [openWebhookSecret(keys, endpoint)];
  if (previousValid(endpoint, now)) secrets.push(openWebhookSecret(keys, { ...endpoint, secretCiphertext: endpoint.previousSecretCiphertext }));
  return secrets;
}

/**
 * Key rotation, as rewrapStoredCredentials does for venue credentials: re-seals under the current
 * KEK every endpoint secret sealed under another one (deleted endpoints' too), with its previous
 * secret while that still signs. Returns how many endpoints.
 */
export async function rewrapWebhookSecrets(db: Db, keys: CredentialKeys): Promise<{ rewrapped: number }> {
  const current = keys.current;
  if (!current) throw new Error('rewrapping webhook secrets needs CREDENTIALS_KEK');
  let rewrapped = 0;
  const now = new Date();
  const rows = await db.webhookEndpoint.findMany({
    where: { kekId: { not: current.id } },
    select: { id: true, kekId: true, secretCiphertext: true, previousSecretCiphertext: true, previousSecretExpiresAt: true },
  });
  for (const row of rows) {
    const rewrap = (blob: Uint8Array) => new Uint8Array(rewrapCredential(blob, keys.keyring, row.kekId, current, secretAad(row.id)).ciphertext);
    // A previous secret (one kek_id covers both) is re-sealed while it still signs, and cleared once expired.
    const previous = previousValid(row, now) ? rewrap(row.previousSecretCiphertext) : null;
    const { count } = await db.webhookEndpoint.updateMany({
      where: { id: row.id, kekId: row.kekId },
      data: { kekId: current.id, secretCiphertext: rewrap(row.secretCiphertext), previousSecretCiphertext: previous, previousSecretExpiresAt: previous ? row.previousSecretExpiresAt : null },
    });
    rewrapped += count;
  }
  return { rewrapped };
}

export interface DeliveryView {
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
  attemptList: { number: number; startedAt: Date; durationMs: number; httpStatus: number | null; error: string | null }[];
}

/** An endpoint's deliveries, newest event first, each with its attempts in order. */
export async function listWebhookDeliveries(db: Db, scope: Scope, endpointId: string, args: { limit?: number | null; cursor?: string | null }): Promise<Page<DeliveryView>> {
  const limit = parseLimit(args.limit);
  const after = decodeCursor(args.cursor, isSeqCursor);
  await getWebhookEndpoint(db, scope, endpointId);
  // Prisma reads the deliveries and their attempts in two statements: one snapshot for both, so that
  // an attempt recorded in between never shows beside its delivery as it was before it (no last_error).
  // An interactive transaction: Prisma sends a batch of one query without BEGIN, isolation level or not.
  const rows = await db.$transaction(
    (tx) =>
      tx.webhookDelivery.findMany({
        where: { endpointId, ...(after ? { eventSeq: { lt: BigInt(after.seq) } } : {}) },
        orderBy: { eventSeq: 'desc' },
        take: limit + 1,
        include: { attemptsMade: { orderBy: { number: 'asc' } } },
      }),
    { isolationLevel: 'RepeatableRead' },
  );
  const page = toPage(rows, limit, (row) => ({ seq: row.eventSeq.toString() }));
  return {
    ...page,
    data: page.data.map(({ attemptsMade, eventSeq, nextAttemptAt, ...row }) => ({
      ...row,
      eventId: eventId(eventSeq),
      nextAttemptAt: row.status === 'pending' ? nextAttemptAt : null,
      attemptList: attemptsMade.map(({ number, startedAt, durationMs, httpStatus, error }) => ({ number, startedAt, durationMs, httpStatus, error })),
    })),
  };
}
