import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { sqlPoolOf, type Db } from '../../db/prismaClient';
import { queryRows } from '../../db/sql';
import { Prisma, type WebhookEndpoint } from '../../generated/prisma/client';
import { eventId } from '../../../contract/eventTypes';
import {
  ATTEMPT_HEADER, EVENT_ID_HEADER, isRefusedAddress, literalAddressOf, nextAttemptAt, REFUSED_LITERAL, REFUSED_RESOLVED, SIGNATURE_HEADER,
  signatureHeader, type RetrySchedule,
} from '../../domain/webhooks';
import type { CredentialKeys } from '../../domain/credentialVault';
import type { Logger } from '../../support/logger';
import { runPeriodically } from '../../support/periodic';
import { openSigningSecrets } from './webhookEndpoints';

export interface WebhookWorkerOptions extends RetrySchedule {
  /** How often the worker looks for deliveries due (WEBHOOK_WORKER_INTERVAL_MS). */
  intervalMs: number;
  /** Every attempt's limit, rendering the event to the last byte of the answer's head (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Whether endpoints may reach loopback, private and link-local addresses (WEBHOOK_ALLOW_PRIVATE_URLS). */
  allowPrivateAddresses: boolean;
  /** Told of every attempt's outcome (the core's metrics), and of each delivery given up. */
  onAttempt?: (outcome: WebhookAttemptOutcome) => void;
}

export type WebhookAttemptOutcome = 'acknowledged' | 'refused' | 'unanswered' | 'given_up';

/** Deliveries one core has under way at once; more due wait for the next rounds. */
const MAX_IN_FLIGHT = 32;
/**
 * Deliveries of one endpoint a core has under way at once: an endpoint that hangs (each attempt
 * costing the whole limit) with a backlog due holds this many of the core's calls, never all of
 * them, so the other endpoints' deliveries keep flowing.
 */
const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
/**
 * A claim's lease: twice the attempt's limit (which covers rendering and the call) and a margin for
 * the endpoint's lookup and recording the outcome, so no attempt is still under way when its lease
 * lapses and another core takes the delivery.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 10_000;

interface Claimed {
  endpointId: string;
  eventSeq: string;
  attempts: number;
  createdAt: Date;
}

/** A delivery's last_error when its event was deleted (older than EVENT_RETENTION_DAYS) before it was acknowledged. */
const EVENT_GONE = 'the event is no longer in the log (older than the retention window, EVENT_RETENTION_DAYS): given up';

type Outcome = { httpStatus: number; error: null } | { httpStatus: null; error: string };

/**
 * One event as GET /v1/events lists it (the same JSON), or null when the scope has no such event:
 * made by the GraphQL layer (core/graphql/eventRendering.ts), which the core hands to the worker.
 */
export type EventRenderer = (endpoint: { id: string; workspaceId: string; environment: 'test' | 'live' }, seq: bigint, deadline: number) => Promise<Record<string, unknown> | null>;

/**
 * The webhook delivery worker, in every core (docs/webhooks.md). Each round claims the deliveries
 * due (FOR UPDATE SKIP LOCKED: two cores never take the same one), raising their attempt count and
 * moving their next attempt past a lease, in a statement committed before any call, so no database
 * lock is held while a receiver answers and no other core sends the same attempt meanwhile. Each
 * claimed delivery is then rendered (the event as GET /v1/events lists it), signed (with the
 * endpoint's secret, and its previous one while a rotation's overlap lasts) and POSTed to the URL
 * the endpoint has at that moment, all
 * within `timeoutMs` (well inside the lease); the attempt is recorded, and the delivery succeeds on
 * a 2xx, or is scheduled again (exponential backoff with jitter) until the window after its event
 * is spent, then fails. A core has at most MAX_IN_FLIGHT_PER_ENDPOINT calls to one endpoint under
 * way, so one that hangs with a backlog does not starve the others. A core
 * that dies mid-call leaves its claim to lapse: the attempt is made again (at least once).
 * Deliveries never touch an order's path: they are made by the sequencer and sent from here.
 */
export function startWebhookWorker(db: Db, keys: CredentialKeys, render: EventRenderer, logger: Logger, options: WebhookWorkerOptions): { stop(): Promise<void> } {
  const sql = sqlPoolOf(db);
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(options.allowPrivateAddresses ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const inFlight = new Set<Promise<void>>();
  /** This core's calls under way per endpoint (MAX_IN_FLIGHT_PER_ENDPOINT). */
  const callsOf = new Map<string, number>();

  const deliver = async (claim: Claimed) => {
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: claim.endpointId } });
    if (!endpoint || endpoint.deletedAt) {
      await finish(db, claim, { status: 'failed', lastError: 'the endpoint was deleted' });
      return;
    }
    const started = new Date();
    const t0 = performance.now();
    const outcome = await attempt(endpoint, claim).catch((error: unknown): Outcome => ({ httpStatus: null, error: messageOf(error, options.timeoutMs) }));
    const durationMs = Math.round(performance.now() - t0);
    const now = new Date();
    const acknowledged = outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300;
    // An event no longer in the log can never be delivered: given up at once.
    const next = acknowledged || outcome.error === EVENT_GONE ? null : nextAttemptAt(options, claim.attempts, claim.createdAt, now);
    await db.$transaction([
      db.webhookAttempt.create({
        data: { endpointId: claim.endpointId, eventSeq: BigInt(claim.eventSeq), number: claim.attempts, startedAt: started, durationMs, httpStatus: outcome.httpStatus, error: outcome.error },
      }),
      finishStatement(db, claim, {
        status: acknowledged ? 'succeeded' : next ? 'pending' : 'failed',
        lastHttpStatus: outcome.httpStatus,
        lastError: outcome.error,
        ...(next ? { nextAttemptAt: next } : { completedAt: now }),
      }),
    ]);
    options.onAttempt?.(acknowledged ? 'acknowledged' : outcome.httpStatus !== null ? 'refused' : 'unanswered');
    if (!acknowledged && !next) {
      options.onAttempt?.('given_up');
      logger.warn({ endpointId: claim.endpointId, eventId: eventId(claim.eventSeq), attempts: claim.attempts, lastError: outcome.error }, 'webhook delivery given up: not acknowledged within the retry window, or its event is gone');
    }
  };

  const attempt = async (endpoint: WebhookEndpoint, claim: Claimed): Promise<Outcome> => {
    const url = new URL(endpoint.url);
    const literal = literalAddressOf(url);
    if (literal && !options.allowPrivateAddresses && isRefusedAddress(literal)) return { httpStatus: null, error: REFUSED_LITERAL };
    // One deadline for the whole attempt, rendering and the call: it ends within timeoutMs, well inside its lease.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const event = await beforeAbort(render(endpoint, BigInt(claim.eventSeq), Date.now() + options.timeoutMs), signal);
    if (!event) return { httpStatus: null, error: EVENT_GONE };
    const body = JSON.stringify(event);
    const sentAt = new Date();
    const secrets = openSigningSecrets(keys, endpoint, sentAt);
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'prediction-markets-webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(sentAt.getTime() / 1000), body),
        [EVENT_ID_HEADER]: eventId(claim.eventSeq),
        [ATTEMPT_HEADER]: String(claim.attempts),
      },
      body,
    });
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined); // the answer's body is not read, only released
    return { httpStatus: response.statusCode, error: null };
  };

  const round = async () => {
    const room = MAX_IN_FLIGHT - inFlight.size;
    if (room <= 0) return;
    for (const claim of await claimDue(sql, room, callsOf, leaseMs(options.timeoutMs))) {
      callsOf.set(claim.endpointId, (callsOf.get(claim.endpointId) ?? 0) + 1);
      const work: Promise<void> = deliver(claim)
        .catch((error: unknown) => logger.warn({ err: error, endpointId: claim.endpointId, eventId: eventId(claim.eventSeq) }, 'recording a webhook attempt failed; the delivery is tried again when its lease ends'))
        .finally(() => {
          inFlight.delete(work);
          const calls = callsOf.get(claim.endpointId)! - 1;
          if (calls > 0) callsOf.set(claim.endpointId, calls);
          else callsOf.delete(claim.endpointId);
        });
      inFlight.add(work);
    }
  };
  const periodic = runPeriodically(options.intervalMs, round, (error) => logger.warn({ err: error }, 'looking for webhook deliveries due failed; retrying on the next round'));
  return {
    async stop() {
      await periodic.stop();
      await Promise.all(inFlight);
      await agent.close();
    },
  };
}

/**
 * Takes up to `limit` deliveries due, oldest first, but of each endpoint only its oldest ones that
 * fit beside this core's calls to it under way (`calls`) within MAX_IN_FLIGHT_PER_ENDPOINT: their
 * next attempt counted and leased, committed at once. Each endpoint's are read from its own index
 * range, a few rows each, so a backlog of any size costs a round no more than a lookup per endpoint.
 */
function claimDue(sql: ReturnType<typeof sqlPoolOf>, limit: number, calls: ReadonlyMap<string, number>, leaseMs: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    sql,
    Prisma.sql`UPDATE webhook_deliveries d
                  SET attempts = d.attempts + 1, next_attempt_at = clock_timestamp() + ${leaseMs}::integer * interval '1 millisecond'
                 FROM (SELECT oldest.endpoint_id, oldest.event_seq
                         FROM webhook_endpoints e
                         LEFT JOIN unnest(${[...calls.keys()]}::text[], ${[...calls.values()]}::integer[]) AS busy(endpoint_id, calls) ON busy.endpoint_id = e.id
                        CROSS JOIN LATERAL (
                              SELECT w.endpoint_id, w.event_seq, w.next_attempt_at
                                FROM webhook_deliveries w
                               WHERE w.endpoint_id = e.id AND w.status = 'pending' AND w.next_attempt_at <= clock_timestamp()
                               ORDER BY w.next_attempt_at, w.event_seq
                               LIMIT greatest(0, ${MAX_IN_FLIGHT_PER_ENDPOINT}::integer - coalesce(busy.calls, 0))
                                 FOR UPDATE OF w SKIP LOCKED) oldest
                        ORDER BY oldest.next_attempt_at LIMIT ${limit}::integer) due
                WHERE d.endpoint_id = due.endpoint_id AND d.event_seq = due.event_seq
            RETURNING d.endpoint_id, d.event_seq::text AS event_seq, d.attempts, d.created_at`,
  );
}

/** The work's result, or the signal's reason once it aborts first (the work is left to finish unheeded). */
function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

type Finish = Prisma.WebhookDeliveryUpdateManyMutationInput;

/** The delivery's new state, if it is still this claim's (a claim whose lease lapsed and was taken again changes nothing). */
const finishStatement = (db: Db, claim: Claimed, data: Finish) =>
  db.webhookDelivery.updateMany({ where: { endpointId: claim.endpointId, eventSeq: BigInt(claim.eventSeq), attempts: claim.attempts, status: 'pending' }, data });

const finish = (db: Db, claim: Claimed, data: Finish) => finishStatement(db, claim, { ...data, completedAt: new Date() });

/** What went wrong with a call, for the attempt's record: never more than the error's kind and message. */
function messageOf(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.code === PRIVATE_ADDRESS_CODE) return REFUSED_RESOLVED;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'UND_ERR_HEADERS_TIMEOUT' || err?.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timed out after ${timeoutMs} ms`;
  }
  const text = [err?.code, err?.message ?? String(error)].filter(Boolean).join(': ');
  return text.slice(0, 500);
}

const PRIVATE_ADDRESS_CODE = 'EWEBHOOKPRIVATE';

/**
 * DNS as usual, but an answer with a loopback, private, link-local or other special-purpose address fails the connection
 * (checked after resolution, so a public name pointing inside is refused too). The error names
 * neither the host nor the address (messageOf records REFUSED_RESOLVED).
 */
const publicOnlyLookup: LookupFunction = (hostname, lookupOptions, callback) => {
  dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.some((a) => isRefusedAddress(a.address))) return callback(Object.assign(new Error(REFUSED_RESOLVED), { code: PRIVATE_ADDRESS_CODE }), '', 0);
    if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
