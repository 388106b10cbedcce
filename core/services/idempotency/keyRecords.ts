import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { NO_FLUSH_WAIT, pipelines, statementFor, type SqlClient } from '../../db/sql';

/**
 * Idempotency-Key records, with Stripe's semantics, kept in PostgreSQL so that they hold across
 * gateway and core replicas. A request claims (API key, key) with one INSERT ... ON CONFLICT DO
 * NOTHING: exactly one request wins; the others see the claim. The winner's answer is stored and
 * replayed to every later request with the same key and the same operation and variables
 * (requestClaim.ts decides what is stored). A claim whose request died is taken over by a retry,
 * and released by the core's sweep, once older than the in-flight window.
 */

/** Keys are kept at least this long; older ones are deleted (and a retry with one is a new request). */
export const RETENTION_HOURS = 24;

/**
 * How long a claim is held before it counts as its request's that died: twice the core's request
 * timeout, the most a request's venue calls may take (the gateway gives up after it). A request that
 * is only slow and outlives it cannot place a second order: a second run reconciles through the
 * client order id it derives from the key (keyReference).
 */
export const inFlightWindowMs = (coreTimeoutMs: number) => 2 * coreTimeoutMs;

/** A reference that a retry with the same Idempotency-Key (of the same API key) derives again: an order's client order id, a complex order's idempotency ref. */
export function keyReference(key: { apiKeyId: string; key: string }): string {
  return `idem_${createHash('sha256').update(`${key.apiKeyId}\n${key.key}`).digest('hex').slice(0, 40)}`;
}

/** One request's claim: its key, and what the key's record must match (the operation and the hash of its variables). */
export interface KeyRequest {
  apiKeyId: string;
  key: string;
  operation: string;
  requestHash: string;
}

export const requestHashOf = (operation: string, variables: unknown): string =>
  createHash('sha256').update(canonicalize({ operation, variables }) ?? '').digest('hex');

/** An answer as stored for replay: the masked GraphQL result, as JSON. */
export type StoredAnswer = { data?: unknown; errors?: { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> }[] };

/** What a request whose key another request holds (or held) answers instead of running. */
export type KeyAnswer =
  | { kind: 'replay'; stored: StoredAnswer }
  | { kind: 'refused'; code: 'idempotency_key_reused' | 'idempotency_key_in_use'; message: string };

export type ClaimOutcome = { kind: 'claimed' } | KeyAnswer;

// The claim, its release and its completion: the statements of every order, over `pg` directly (core/db/sql.ts).
// The claim commits without waiting for the disk (CommitWait `by_next_write`): every request that
// claims writes again, flushed, before it answers (its order's transaction, the completion or the
// release), and that flush carries the claim. Other requests see the claim as soon as it commits. A
// crash before that flush can lose it only together with everything the request did after it, so
// the key is then as unclaimed as the request was unanswered: its retry claims it and (orders
// reconcile through the client order id derived from the key) never places a second order.
const CLAIM = `${NO_FLUSH_WAIT.with}
  INSERT INTO idempotency_records (api_key_id, key, operation, request_hash, state, created_at)
  SELECT $1, $2, $3, $4, 'in_flight'::"IdempotencyState", now() FROM ${NO_FLUSH_WAIT.from} ON CONFLICT (api_key_id, key) DO NOTHING`;
const RELEASE = 'DELETE FROM idempotency_records WHERE api_key_id = $1 AND key = $2';
const COMPLETE = `UPDATE idempotency_records SET state = 'completed', response_body = $3, completed_at = now()
  WHERE api_key_id = $1 AND key = $2`;

/** Where claims are kept, and how long one is held before it counts as a dead request's. */
export class KeyRecords {
  readonly sql: SqlClient;
  constructor(
    private readonly db: Db,
    private readonly inFlightMs: number,
  ) {
    this.sql = sqlPoolOf(db);
  }

  /** Whether a claim can ride in a request's own first write (a pipelining connection; not the embedded PGlite). */
  get claimsInWrite(): boolean {
    return pipelines(this.sql);
  }

  /** Sends the claim on `client`: true when this request now holds the key. */
  send(client: SqlClient, request: KeyRequest): Promise<boolean> {
    return client
      .query(statementFor(client, 'idempotency_claim', CLAIM, [request.apiKeyId, request.key, request.operation, request.requestHash]))
      .then((inserted) => inserted.rowCount === 1);
  }

  async claim(request: KeyRequest): Promise<ClaimOutcome> {
    if (await this.send(this.sql, request)) return { kind: 'claimed' };
    return this.settleTaken(request);
  }

  /** The key is claimed by another request, or was: a refusal, the stored answer, or a dead claim taken over. */
  async settleTaken(request: KeyRequest): Promise<ClaimOutcome> {
    const { apiKeyId, key } = request;
    const record = await this.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId, key } } });
    if (!record) return this.claim(request); // removed in between: try again
    if (record.requestHash !== request.requestHash || record.operation !== request.operation) {
      return { kind: 'refused', code: 'idempotency_key_reused', message: 'This Idempotency-Key was already used with a different request.' };
    }
    if (record.state === 'completed') return { kind: 'replay', stored: JSON.parse(record.responseBody ?? '{}') as StoredAnswer };
    const takenOver = await this.db.$executeRaw`
      UPDATE idempotency_records SET created_at = now()
      WHERE api_key_id = ${apiKeyId} AND key = ${key} AND state = 'in_flight'
        AND created_at < now() - ${this.inFlightMs} * interval '1 millisecond'`;
    if (takenOver === 1) return { kind: 'claimed' };
    return { kind: 'refused', code: 'idempotency_key_in_use', message: 'A request with this Idempotency-Key is still in progress; retry later.' };
  }

  async complete(request: KeyRequest, stored: StoredAnswer): Promise<void> {
    await this.sql.query(statementFor(this.sql, 'idempotency_complete', COMPLETE, [request.apiKeyId, request.key, JSON.stringify(stored)]));
  }

  async release(request: KeyRequest): Promise<void> {
    await this.sql.query(statementFor(this.sql, 'idempotency_release', RELEASE, [request.apiKeyId, request.key]));
  }

  /**
   * Releases the claims of requests that died (a core stopped mid-request): in flight longer than the
   * window. The key is free again at once for a retry, which reconciles through its client order id.
   */
  releaseDeadClaims(): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM idempotency_records WHERE state = 'in_flight' AND created_at < now() - ${this.inFlightMs} * interval '1 millisecond'`;
  }

  /** Deletes the keys older than RETENTION_HOURS. */
  deleteExpired(): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM idempotency_records WHERE created_at < now() - make_interval(hours => ${RETENTION_HOURS})`;
  }
}
