import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { CoreErrorCode } from '../../contract/errors';
import type { Config } from '../config';
import { sqlPoolOf, type Db } from '../db/prismaClient';
import { NO_FLUSH_WAIT, pipelines, statementFor, type SqlClient } from '../db/sql';
import type { ClaimInWrite } from '../services/claimInWrite';
import type { CoreContext, IdempotencyClaim } from './context';
import { graphqlError } from './errorMasking';

/**
 * Idempotency-Key, with Stripe's semantics, kept in PostgreSQL so that it holds across gateway and
 * core replicas. A request claims (API key, key) with one INSERT ... ON CONFLICT DO NOTHING: exactly
 * one request wins; the others see the claim. The winner's result is stored as the masked GraphQL
 * result and replayed to every later request with the same key and the same operation and
 * variables. Not stored: validation failures (`invalid_request`), failures whose outcome is not
 * known (`internal_error`, `venue_unavailable`), a venue's rate limit (`rate_limited`: nothing was
 * sent, the retry after Retry-After must be carried out), and answers a resolver marks not final
 * (`outcomeNotFinal`: an order left `unknown`, whose retry must ask the venue again); a retry of those executes again, and operations
 * that place orders reconcile through the client order id they derive from the key, so that a
 * retry never places a second order. A claim whose request died is taken over by a retry, and
 * released by the core's sweep, once older than the in-flight window.
 */

/**
 * How long a claim is held before it counts as its request's that died: twice CORE_TIMEOUT_MS, the
 * most a request's venue calls may take (the gateway gives up after CORE_TIMEOUT_MS). A request
 * that is only slow and outlives it cannot place a second order: a second run reconciles through
 * the client order id it derives from the key.
 */
export const inFlightWindowMs = (config: Pick<Config, 'CORE_TIMEOUT_MS'>) => 2 * config.CORE_TIMEOUT_MS;
/**
 * Operations whose resolver sends the claim itself, in its transaction's first write (ClaimInWrite):
 * the order path, where it saves a round trip. Nothing is written before that claim, so a request
 * that fails before sending it is claimed afterwards, here, and answered exactly as if it had
 * claimed first (a replay, a refusal, or its own answer stored).
 */
const CLAIMED_IN_WRITE = new Set(['PlaceOrder']);
export const RETENTION_HOURS = 24;
const NOT_STORED = new Set<unknown>(['invalid_request', 'internal_error', 'venue_unavailable', 'rate_limited'] satisfies CoreErrorCode[]);

type StoredError = { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> };
type Stored = { data?: unknown; errors?: StoredError[] };

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

export function useIdempotency(db: Db, maskError: (error: unknown) => Error, inFlightMs: number): Plugin<CoreContext> {
  const sql = sqlPoolOf(db);
  const store: ClaimStore = { db, sql, inFlightMs };
  return {
    async onExecute({ args, setResultAndStopExecution, extendContext }) {
      const context = args.contextValue as CoreContext & { params?: { extensions?: Record<string, unknown> } };
      const key = context.params?.extensions?.idempotencyKey;
      if (typeof key !== 'string' || context.principal.kind !== 'api_key') return;
      const operation = args.operationName ?? '';
      const claim: IdempotencyClaim = { apiKeyId: context.principal.keyId, key };
      const requestHash = hashOf(operation, args.variableValues ?? {});
      // Without pipelining (the embedded PGlite) the claim saves no round trip in the order's write,
      // and a request whose key is taken would run its transaction's reads for nothing: it claims first.
      if (CLAIMED_IN_WRITE.has(operation) && pipelines(sql)) {
        claim.inWrite = claimInWrite(store, { claim, operation, requestHash });
      } else {
        const outcome = await claimKey(store, { claim, operation, requestHash });
        if (outcome.kind !== 'claimed') {
          setResultAndStopExecution(answerOf(outcome));
          return;
        }
      }
      extendContext({ idempotency: claim } as Partial<CoreContext>);
      return {
        async onExecuteDone({ result, setResult }) {
          const single = result as ExecutionResult;
          if (claim.inWrite && !claim.inWrite.held) {
            const answered = single.errors?.map((e) => e.originalError).find((e) => e instanceof IdempotencyAnswered);
            if (answered) {
              setResult(answerOf(answered.outcome));
              return;
            }
            // Failed before its claim was sent, so nothing was written: claimed now, as if first.
            const outcome = await claimKey(store, { claim, operation, requestHash });
            if (outcome.kind !== 'claimed') {
              setResult(answerOf(outcome));
              return;
            }
          }
          const errors = (single.errors ?? []).map((e) => maskError(e) as GraphQLError);
          const code = errors[0]?.extensions?.code;
          if (NOT_STORED.has(code) || claim.outcomeNotFinal) {
            await sql.query(statementFor(sql, 'idempotency_release', RELEASE, [claim.apiKeyId, claim.key]));
            return;
          }
          const stored: Stored = {
            ...(single.data !== undefined ? { data: single.data } : {}),
            ...(errors.length ? { errors: errors.map((e) => e.toJSON() as StoredError) } : {}),
          };
          await sql.query(statementFor(sql, 'idempotency_complete', COMPLETE, [claim.apiKeyId, claim.key, JSON.stringify(stored)]));
        },
      };
    },
  };
}

function hashOf(operation: string, variables: unknown): string {
  return createHash('sha256').update(canonicalize({ operation, variables }) ?? '').digest('hex');
}

type ClaimOutcome = { kind: 'claimed' } | { kind: 'replay'; stored: Stored } | { kind: 'refused'; error: GraphQLError };

/** What a request whose key another request holds (or held) answers: the stored answer, or a refusal. */
class IdempotencyAnswered extends Error {
  constructor(readonly outcome: Exclude<ClaimOutcome, { kind: 'claimed' }>) {
    super('answered by the Idempotency-Key');
  }
}

const answerOf = (outcome: Exclude<ClaimOutcome, { kind: 'claimed' }>): ExecutionResult =>
  outcome.kind === 'replay' ? replayOf(outcome.stored) : { errors: [outcome.error] };

/** Where claims are kept, and how long one is held before it counts as a dead request's. */
interface ClaimStore {
  db: Db;
  sql: SqlClient;
  inFlightMs: number;
}

/** One request's claim: its key, and what the key's record must match (the operation and the hash of its variables). */
interface ClaimRequest {
  claim: IdempotencyClaim;
  operation: string;
  requestHash: string;
}

const sendClaim = (client: SqlClient, { claim, operation, requestHash }: ClaimRequest) =>
  client.query(statementFor(client, 'idempotency_claim', CLAIM, [claim.apiKeyId, claim.key, operation, requestHash])).then((inserted) => inserted.rowCount === 1);

/** The claim the order path sends in its own first write (services/claimInWrite.ts). */
function claimInWrite(store: ClaimStore, request: ClaimRequest): ClaimInWrite {
  let held = false;
  return {
    get held() {
      return held;
    },
    async send(client) {
      held = await sendClaim(client, request);
      return held;
    },
    async settle() {
      const outcome = await settleTaken(store, request);
      if (outcome.kind !== 'claimed') throw new IdempotencyAnswered(outcome);
      held = true;
    },
  };
}

async function claimKey(store: ClaimStore, request: ClaimRequest): Promise<ClaimOutcome> {
  if (await sendClaim(store.sql, request)) return { kind: 'claimed' };
  return settleTaken(store, request);
}

/** The key is claimed by another request, or was: a refusal, the stored answer, or a dead claim taken over. */
async function settleTaken(store: ClaimStore, request: ClaimRequest): Promise<ClaimOutcome> {
  const { claim, operation, requestHash } = request;
  const record = await store.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId: claim.apiKeyId, key: claim.key } } });
  if (!record) return claimKey(store, request); // removed in between: try again
  if (record.requestHash !== requestHash || record.operation !== operation) {
    return refuse('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  if (record.state === 'completed') return { kind: 'replay', stored: JSON.parse(record.responseBody ?? '{}') as Stored };
  const takenOver = await store.db.$executeRaw`
    UPDATE idempotency_records SET created_at = now()
    WHERE api_key_id = ${claim.apiKeyId} AND key = ${claim.key} AND state = 'in_flight'
      AND created_at < now() - ${store.inFlightMs} * interval '1 millisecond'`;
  if (takenOver === 1) return { kind: 'claimed' };
  return refuse('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry later.');
}

const refuse = (code: CoreErrorCode, message: string): ClaimOutcome => ({ kind: 'refused', error: graphqlError(code, message) });

function replayOf(stored: Stored): ExecutionResult {
  return {
    ...(stored.data !== undefined ? { data: stored.data as ExecutionResult['data'] } : {}),
    ...(stored.errors
      ? { errors: stored.errors.map((e) => createGraphQLError(e.message, { path: e.path, extensions: e.extensions })) }
      : {}),
    extensions: { idempotentReplayed: true },
  };
}

/**
 * Releases the claims of requests that died (a core stopped mid-request): in flight longer than the
 * window. The key is free again at once for a retry, which reconciles through its client order id.
 */
export async function releaseDeadClaims(db: Db, inFlightMs: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_records WHERE state = 'in_flight' AND created_at < now() - ${inFlightMs} * interval '1 millisecond'`;
}

/** Keys are kept at least RETENTION_HOURS; older ones are deleted. */
export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_records WHERE created_at < now() - make_interval(hours => ${RETENTION_HOURS})`;
}
