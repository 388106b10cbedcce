/**
 * Clients of `POST /v1/orders` as they behave when answers get lost, and the bookkeeping of the
 * reconciliation suites (test/e2e/kalshiReconciliation.test.ts, polymarketReconciliation.test.ts):
 * one request with the client's own timeout, a client that retries with its Idempotency-Key, the
 * reconciler's per-round counts read from the core's log, and bounded polling.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { keyReference } from '../../core/services/idempotency/keyRecords';
import { createLogger, type Logger } from '../../core/support/logger';
import type { HttpFault } from '../../fakes/faults';
import { call } from './http';

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 50 ms until it gives a value, at most `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(50);
  }
}

/** Polls `problems` until it lists none, at most `timeoutMs`; answers the last list (empty when settled). */
export async function settled(timeoutMs: number, problems: () => Promise<string[]>, alsoWaitUntil = 0): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await problems();
    if ((found.length === 0 && Date.now() >= alsoWaitUntil) || Date.now() > deadline) return found;
    await pause(100);
  }
}

export const countBy = <T>(items: readonly T[], key: (item: T) => string) => items.reduce<Record<string, number>>((acc, item) => ({ ...acc, [key(item)]: (acc[key(item)] ?? 0) + 1 }), {});

export interface ReconcileRounds {
  claimed: number;
  found: number;
  resent: number;
  rejected: number;
  deferred: number;
}

/** The core's log, kept in memory: the reconciler logs each round's counts ('reconciled live orders'). */
export class CoreLog {
  private readonly records: { msg?: string; reconcile?: ReconcileRounds }[] = [];
  /** The core's own logger configuration (its redaction and error serializer), written here. */
  readonly logger: Logger = createLogger(
    'info',
    'core',
    new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        for (const line of chunk.toString().split('\n')) if (line.trim() !== '') this.records.push(JSON.parse(line));
        done();
      },
    }),
  );

  /** The lines logged so far whose message starts with `prefix`, as written. */
  linesStartingWith(prefix: string): Record<string, unknown>[] {
    return this.records.filter((record) => record.msg?.startsWith(prefix)) as Record<string, unknown>[];
  }

  reconciled(): ReconcileRounds {
    const sum: ReconcileRounds = { claimed: 0, found: 0, resent: 0, rejected: 0, deferred: 0 };
    for (const { reconcile } of this.records) {
      if (reconcile === undefined) continue;
      for (const name of Object.keys(sum) as (keyof ReconcileRounds)[]) sum[name] += reconcile[name];
    }
    return sum;
  }
}

export type AnswerKind = 'answered' | 'unknown' | 'in_use' | 'server_error' | 'client_timeout' | 'connection_lost' | 'refused';
export interface Answer {
  kind: AnswerKind;
  orderId?: string;
  replayed?: boolean;
  detail?: string;
}
const RETRIED_AFTER = new Set<AnswerKind>(['unknown', 'in_use', 'server_error', 'client_timeout', 'connection_lost']);

/** Who places: a gateway's base URL and a live API key's secret. */
export interface OrderClient {
  base: string;
  key: string;
}

/** One POST /v1/orders as a client sends it, with the client's own timeout. */
export async function postOrder(client: OrderClient, body: Record<string, unknown>, options: { idempotencyKey?: string; clientTimeoutMs: number }): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' };
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  try {
    const response = await fetch(`${client.base}/v1/orders`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(options.clientTimeoutMs) });
    const json = (await response.json().catch(() => undefined)) as { id?: string; status?: string; error?: { code?: string } } | undefined;
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    if (response.status === 200) return { kind: json?.status === 'unknown' ? 'unknown' : 'answered', orderId: json?.id, replayed };
    if (response.status === 409 && json?.error?.code === 'idempotency_key_in_use') return { kind: 'in_use' };
    if (response.status >= 500) return { kind: 'server_error', detail: `${response.status} ${json?.error?.code}` };
    return { kind: 'refused', detail: `${response.status} ${JSON.stringify(json)}` };
  } catch (error) {
    return { kind: (error as Error).name === 'TimeoutError' ? 'client_timeout' : 'connection_lost' };
  }
}

/** The n-th order of a run: whether its client retries, and what it posts. */
export interface ClientOrder {
  n: number;
  retries: boolean;
  body: Record<string, unknown>;
}

export interface Placement<T extends ClientOrder = ClientOrder> {
  spec: T;
  idempotencyKey?: string;
  answers: Answer[];
}

/**
 * A client placing one order. A retrying client sends an Idempotency-Key, gives up on its first
 * attempt after `shortTimeoutMs` on one order in four (it may retry while its request is still in
 * flight inside the core), and retries up to 3 times with its own backoff after a failure or an
 * `unknown` answer.
 * A client that never retries waits for the answer; it sends a key too, but for one order in ten
 * (sending a key costs the core a claim, which delays the order: were only the retrying clients to
 * send one, the faults, taken by the first writes to arrive, would spare them).
 */
export async function placeAsClient<T extends ClientOrder>(client: OrderClient, spec: T, shortTimeoutMs = 300): Promise<Placement<T>> {
  const idempotencyKey = spec.retries || spec.n % 10 !== 5 ? `recon-${spec.n}-${randomUUID()}` : undefined;
  const clientTimeoutMs = spec.retries && spec.n % 8 === 0 ? shortTimeoutMs : 10_000;
  const answers: Answer[] = [];
  for (let attempt = 1; ; attempt += 1) {
    // Only the first attempt gives up early: a client that gave up on every attempt, on a machine
    // busy enough that none reached the service in time, would have placed nothing, which is right
    // but not what these suites count on.
    const answer = await postOrder(client, spec.body, { idempotencyKey, clientTimeoutMs: attempt === 1 ? clientTimeoutMs : 10_000 });
    answers.push(answer);
    if (!spec.retries || attempt === 4 || !RETRIED_AFTER.has(answer.kind)) return { spec, idempotencyKey, answers };
    await pause(150 * attempt); // the client's backoff
  }
}

/**
 * The lost answers of a batch of 20 writes: the first 7 to arrive lose their answer. 2 accepted then
 * dropped; 3 delayed past a 500 ms venue timeout (one placed before the delay; one placed 800 ms
 * after arrival, before the reconciler looks; one `LONGEST_DELAY_MS` after, once the reconciler or
 * the client's retry has re-sent it, so that the late original meets the venue's duplicate refusal);
 * 2 answered 5xx without being processed. A re-send may take a fault meant for a batch's first send:
 * every fault is consumed either way, by some write.
 */
export const BATCH = 20;
export const LONGEST_DELAY_MS = 3000;
export const batchFaults = (): HttpFault[] => [
  { kind: 'accept_then_drop' },
  { kind: 'accept_then_drop' },
  { kind: 'delay', ms: 1500, placeBeforeDelay: true },
  { kind: 'delay', ms: 800, placeBeforeDelay: false },
  { kind: 'delay', ms: LONGEST_DELAY_MS, placeBeforeDelay: false },
  { kind: 'server_error', status: 500 },
  { kind: 'server_error', status: 503 },
];

/** Places `specs` by batches of `BATCH` clients at once, `inject`ing each batch's faults first (`batchFaults`). */
export async function placeInBatches<T extends ClientOrder>(client: OrderClient, specs: readonly T[], inject: (fault: HttpFault) => void): Promise<Placement<T>[]> {
  const placements: Placement<T>[] = [];
  for (let start = 0; start < specs.length; start += BATCH) {
    for (const fault of batchFaults()) inject(fault);
    placements.push(...(await Promise.all(specs.slice(start, start + BATCH).map((spec) => placeAsClient(client, spec)))));
  }
  return placements;
}

/** The orders whose first answer was not the order (lost, unknown, timed out), by the id a later answer gave. */
export const lostFirst = (placements: readonly Placement[]): string[] =>
  placements.filter((p) => p.answers[0]!.kind !== 'answered').map((p) => p.answers.find((a) => a.orderId)?.orderId).filter((id): id is string => id !== undefined);

/**
 * One of our orders per request, retried or not: a request sent with an Idempotency-Key is the
 * order of that key, one without is the order its first answer named; every answer of a request
 * names that same order.
 */
export function expectOneOrderPerPlacement(ours: readonly { id: string; clientOrderId: string }[], placements: readonly Placement[], apiKeyId: string): void {
  for (const placement of placements) {
    const clientOrderId = placement.idempotencyKey ? keyReference({ apiKeyId, key: placement.idempotencyKey }) : undefined;
    const mine = clientOrderId ? ours.filter((order) => order.clientOrderId === clientOrderId) : ours.filter((order) => order.id === placement.answers[0]!.orderId);
    expect(mine).toHaveLength(1);
    for (const answer of placement.answers) if (answer.orderId) expect(answer.orderId).toBe(mine[0]!.id);
  }
}

/** Nothing of the subaccount is left pending or unknown, as GET /v1/orders says. */
export async function expectNoneUnconfirmed(trader: { base: string; key: string; subaccountId: string }): Promise<void> {
  for (const status of ['pending', 'unknown']) {
    const left = await call(trader.base, 'GET', `/v1/orders?subaccount_id=${trader.subaccountId}&status=${status}`, { key: trader.key });
    expect([left.status, left.body.data]).toEqual([200, []]);
  }
}
