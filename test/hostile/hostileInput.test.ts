/**
 * Zero 5xx on hostile input, on both databases the service runs on: the hostile corpus
 * (corpus.ts: more than 10,000 requests over every route, generated from the route table with
 * fixed seeds) against the whole service on loopback HTTP, in a database of its own.
 *
 * - No answer is a 5xx; every error answer is in the envelope (the analysts' GraphQL: its errors
 *   carry a code and the request id).
 * - A request that changes something and was made to be refused is refused, and the refused corpus
 *   writes nothing: every table is the same, row for row, before and after it (but for the two
 *   columns reads keep up to date: a key's last use, a session's last sight). Idempotency records
 *   hold the refusals they replay, as designed, and are checked for that instead.
 * - Nothing is left in flight, and the service still serves a valid order afterwards.
 *
 * PostgreSQL takes the corpus at a few requests at a time; the embedded PGlite one at a time (its
 * behaviour under concurrency is another suite's matter).
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createLogger } from '../../core/support/logger';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';
import { addressFormCorpus, analystCorpus, escalationCorpus, routeCorpus, strayCorpus, type HostileRequest } from './corpus';
import { buildFixture, send, type Answer } from './fixture';

// A guard, not a measure: the corpus takes 40 s on a quiet machine, 200 s with both cores kept busy by another process.
jest.setTimeout(600_000);

const SEED = 13;
/** Per route of the table (38 routes), then the analysts' GraphQL and stray paths; the edge corpus per route that writes. */
const SIZES = { perRoute: 220, analyst: 900, stray: 300, edgePerRoute: 60 };

interface Backend {
  name: string;
  concurrency: number;
  config(): Promise<Record<string, string>>;
}

const BACKENDS: Backend[] = [
  { name: 'PostgreSQL', concurrency: 6, config: async () => ({ DATABASE_URL: await ownDatabase('hostile_input') }) },
  { name: 'PGlite', concurrency: 1, config: async () => ({ DATABASE_URL: '', PGLITE_DATA_DIR: 'memory' }) },
];

describe.each(BACKENDS)('the hostile corpus on $name', (backend) => {
  let stack: Stack;
  let base: string;
  const errorLog: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => void (errorLog.push(String(chunk)), done()) });
    stack = await startStack(
      testConfig({
        ...(await backend.config()),
        // The corpus tests input, not the limiters: budgets it never reaches.
        RATE_LIMIT_DEFAULT: '1000000',
        SIGN_IN_ATTEMPTS_PER_MINUTE: '10000',
        CREDENTIALS_KEK: Buffer.alloc(32, 7).toString('base64'),
      }),
      'single',
      1,
      { logger: createLogger('error', 'hostile', sink) },
    );
    base = stack.gateways[0];
  }, 120_000);
  afterAll(() => stack?.close());

  it('answers the refused corpus without a 5xx, in the envelope, refusing what it must and writing nothing', async () => {
    const fixture = await buildFixture(stack, base, 'victim');
    const corpus = [
      ...routeCorpus('refused', fixture, SIZES.perRoute, SEED),
      ...analystCorpus(fixture, SIZES.analyst, SEED + 1000),
      ...strayCorpus(fixture, SIZES.stray, SEED + 2000),
      ...escalationCorpus(fixture),
    ];
    const before = await snapshot(stack.core.databaseUrl);
    const run = await runCorpus(base, corpus, backend.concurrency);
    const after = await snapshot(stack.core.databaseUrl);
    report(backend.name, 'refused', corpus.length, run);

    expect({ failures: run.failures.slice(0, 25), count: run.failures.length, log: errorLog.slice(0, 10) }).toEqual({ failures: [], count: 0, log: [] });
    expect(run.serverErrors).toBe(0);
    expect(after).toEqual(before);
    await expectNothingInFlight(stack.core.databaseUrl);
    // What the idempotency records keep of the corpus are refusals (replayed as they were), never an outcome.
    const records = await query<{ response_body: string | null }>(stack.core.databaseUrl, 'SELECT response_body FROM idempotency_records');
    for (const { response_body } of records) {
      const stored = JSON.parse(response_body ?? '{}') as { data?: Record<string, unknown> | null; errors?: unknown[] };
      expect(stored.errors?.length).toBeGreaterThan(0);
      expect(Object.values(stored.data ?? {}).filter((value) => value !== null)).toEqual([]);
    }
  });

  it('answers values at the limits (which it may accept) without a 5xx, and still trades afterwards', async () => {
    const fixture = await buildFixture(stack, base, 'edge');
    const corpus = [...routeCorpus('edge', fixture, SIZES.edgePerRoute, SEED + 3000), ...addressFormCorpus(fixture)];
    const run = await runCorpus(base, corpus, backend.concurrency);
    report(backend.name, 'edge', corpus.length, run);
    expect({ failures: run.failures.slice(0, 25), count: run.failures.length, log: errorLog.slice(0, 10) }).toEqual({ failures: [], count: 0, log: [] });
    await expectNothingInFlight(stack.core.databaseUrl);

    // Alive, and right: a fresh workspace places a resting order and reads it back.
    const fresh = await buildFixture(stack, base, 'after');
    const placed = await call(base, 'POST', '/v1/orders', {
      key: fresh.apiKey,
      body: { subaccount_id: fresh.ids.subaccount, market_id: fresh.ids.market, side: 'no', action: 'buy', type: 'limit', price: '0.02', quantity: '3' },
    });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'open', quantity: '3', price: '0.02' });
    const read = await call(base, 'GET', `/v1/orders/${placed.body.id}`, { key: fresh.apiKey });
    expect(read.body).toMatchObject({ id: placed.body.id, status: 'open' });
  });
});

/** The corpus's figures, for the record (the suite's assertions are above). */
function report(database: string, corpus: string, requests: number, run: RunResult) {
  process.stdout.write(`hostile corpus (${corpus}) on ${database}: ${requests} requests, ${run.serverErrors} answered 5xx, ${run.byStatus}, ${(run.ms / 1000).toFixed(1)} s\n`);
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------

interface RunResult {
  failures: string[];
  serverErrors: number;
  /** Answers counted by status, e.g. "200: 812, 400: 7901, …". */
  byStatus: string;
  ms: number;
}

/** Sends the corpus over real HTTP, `concurrency` at a time, and checks every answer. */
async function runCorpus(base: string, corpus: HostileRequest[], concurrency: number): Promise<RunResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(base);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let serverErrors = 0;
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < corpus.length) {
      const request = corpus[next++];
      let answer: Answer;
      try {
        answer = await send(agent, target, request);
      } catch (error) {
        failures.push(`${request.label}: no answer (${(error as Error).message})`);
        continue;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) serverErrors += 1;
      const problem = problemWith(request, answer);
      if (problem) failures.push(`${request.label}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  failures.sort((a, b) => Number(b.includes(': answered 5')) - Number(a.includes(': answered 5'))); // 5xx first
  const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ');
  return { failures, serverErrors, byStatus, ms: Date.now() - started };
}

/** What is wrong with an answer, or undefined. */
function problemWith(request: HostileRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status} ${answer.text.slice(0, 200)}`;
  if (request.mustRefuse && answer.status < 400) return `was carried out (${answer.status}) but must be refused: ${answer.text.slice(0, 200)}`;
  if (request.method === 'HEAD' || answer.status < 400 && !request.path.startsWith('/analyst/graphql')) return undefined;
  const requestId = answer.headers['x-request-id'];
  // A subscription refused once it began streams its refusal as its only result (docs/analyst-graphql.md).
  if (String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const results = answer.text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice('data: '.length)) as { errors?: { message?: unknown; extensions?: { code?: unknown; request_id?: unknown } }[] });
    const errors = results.flatMap((result) => result.errors ?? []);
    if (answer.status >= 400 && errors.length === 0) return `answered ${answer.status} as a stream without errors: ${answer.text.slice(0, 200)}`;
    const bad = errors.find((e) => typeof e.message !== 'string' || typeof e.extensions?.code !== 'string' || e.extensions.request_id !== requestId);
    return bad ? `a streamed GraphQL error without its code or request id: ${JSON.stringify(bad).slice(0, 200)}` : undefined;
  }
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return answer.status >= 400 ? `answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 120)}` : undefined;
  }
  if (body?.error) {
    const { code, message, request_id } = body.error;
    if (typeof code !== 'string' || typeof message !== 'string' || request_id !== requestId) return `not the error envelope: ${answer.text.slice(0, 200)}`;
    return undefined;
  }
  // The analysts' GraphQL answers in GraphQL's shape: every error with its code and the request id.
  if (request.path.startsWith('/analyst/graphql')) {
    const errors = body?.errors as { message?: unknown; extensions?: { code?: unknown; request_id?: unknown } }[] | undefined;
    if (answer.status >= 400 && !errors?.length) return `answered ${answer.status} without errors: ${answer.text.slice(0, 200)}`;
    const bad = (errors ?? []).find((e) => typeof e.message !== 'string' || typeof e.extensions?.code !== 'string' || e.extensions.request_id !== requestId);
    if (bad) return `a GraphQL error without its code or request id: ${JSON.stringify(bad).slice(0, 200)}`;
    return undefined;
  }
  return `answered ${answer.status} outside the envelope: ${answer.text.slice(0, 200)}`;
}

// ---------------------------------------------------------------------------------------------

async function query<T extends Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Columns that a read keeps up to date on purpose (at most once a minute): no write of a refused request. */
const READ_TOUCHED = ['last_used_at', 'last_seen_at'];

/** Every table but the migrations' and the idempotency records': its row count and a hash of its rows. */
async function snapshot(url: string): Promise<Record<string, { rows: number; hash: string }>> {
  const tables = await query<{ table_name: string }>(
    url,
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('_prisma_migrations', 'idempotency_records')
      ORDER BY table_name`,
  );
  const strip = READ_TOUCHED.map((column) => ` - '${column}'`).join('');
  const parts = tables.map(
    ({ table_name }) => `SELECT '${table_name}' AS name, count(*)::int AS rows,
       md5(coalesce(string_agg(r, '|' ORDER BY r), '')) AS hash
       FROM (SELECT (to_jsonb(t)${strip})::text AS r FROM "${table_name}" t) s`,
  );
  const rows = await query<{ name: string; rows: number; hash: string }>(url, parts.join(' UNION ALL '));
  return Object.fromEntries(rows.map(({ name, rows: count, hash }) => [name, { rows: count, hash }]));
}

async function expectNothingInFlight(url: string) {
  const [stuck] = await query<{ records: number; orders: number }>(
    url,
    `SELECT (SELECT count(*)::int FROM idempotency_records WHERE state <> 'completed') AS records,
            (SELECT count(*)::int FROM orders WHERE status IN ('pending', 'unknown')) AS orders`,
  );
  expect(stuck).toEqual({ records: 0, orders: 0 });
}
