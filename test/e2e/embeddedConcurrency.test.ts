/**
 * The embedded default under concurrency, as `npm start` runs it on a fresh machine (compiled, PGlite):
 * one Idempotency-Key sent 10 times at once for each of 40 keys, 50 distinct orders at once twice,
 * and 20 cancels at once. No 5xx and no wrong answer (a 404 for a market that exists, two orders
 * for one key); nothing left pending, unknown or in flight; SIGTERM ends the process. And the
 * embedded database is its user's only: no TCP port, a socket in a 0700 directory, data 0700.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { findRunningEmbeddedPostgres } from '../../core/db/embeddedPostgres';
import { call } from '../support/http';
import { startProcess, type ServiceProcess } from '../support/processes';

const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mkapi-')), 'pglite');
// CORE_TIMEOUT_MS is raised so that a slow CI machine's queue on PGlite's one session is not read as a 502:
// this suite is about wrong answers under concurrency, not about capacity.
const env = { PGLITE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '', RATE_LIMIT_DEFAULT: '100000', CORE_TIMEOUT_MS: '20000' };
let service: ServiceProcess | undefined;
let sql: Client | undefined;

afterAll(async () => {
  await sql?.end().catch(() => undefined);
  await service?.stop('SIGKILL');
});

const countBy = (values: (string | number)[]) => values.reduce<Record<string, number>>((c, v) => ({ ...c, [v]: (c[v] ?? 0) + 1 }), {});

it('answers concurrent orders, retries and cancels with no 5xx and no wrong answer, leaves nothing stuck, and stops on SIGTERM', async () => {
  service = await startProcess('bin/start.ts', env);
  const key = /mk_test_[0-9A-Za-z]{40}/.exec(service.output())?.[0] ?? (await waitForKey(service));
  const base = service.url;
  const market = (await call(base, 'GET', '/v1/markets?limit=1', { key })).body.data[0].id as string;
  const subaccount = (await call(base, 'POST', '/v1/subaccounts', { key, body: { name: 'concurrency' } })).body.id as string;
  await call(base, 'PUT', `/v1/risk_limits/${subaccount}`, { key, body: { max_open_orders: null, max_orders_per_minute: null } });
  const order = (price: string) => ({ subaccount_id: subaccount, market_id: market, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' });

  // 40 keys, each sent 10 times at once.
  const sameKey = await Promise.all(
    Array.from({ length: 40 }, (_, k) =>
      Promise.all(Array.from({ length: 10 }, () => call(base, 'POST', '/v1/orders', { key, body: order('0.05'), headers: { 'Idempotency-Key': `k-${k}` } }))),
    ),
  );
  const sameKeyStatuses = countBy(sameKey.flat().map((r) => r.status));
  for (const answers of sameKey) {
    for (const r of answers) expect([200, 409]).toContain(r.status);
    expect(answers.some((a) => a.status === 200)).toBe(true); // the request that claimed the key
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error.code).toBe('idempotency_key_in_use');
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.id)).size).toBeLessThanOrEqual(1);
  }

  // 50 distinct orders at once, twice: every one placed, none refused for a market that exists.
  const distinct: { status: number; id?: string }[] = [];
  for (let round = 0; round < 2; round += 1) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(base, 'POST', '/v1/orders', { key, body: order('0.04') })));
    distinct.push(...answers.map((r) => ({ status: r.status, id: r.body.id as string | undefined })));
  }
  expect(countBy(distinct.map((a) => a.status))).toEqual({ 200: 100 });

  // 20 cancels at once.
  const cancels = await Promise.all(distinct.slice(0, 20).map((a) => call(base, 'DELETE', `/v1/orders/${a.id}`, { key })));
  expect(countBy(cancels.map((r) => r.status))).toEqual({ 200: 20 });
  expect(cancels.every((r) => r.body.status === 'canceled')).toBe(true);

  // What the database holds, read through the running server's socket.
  const running = await findRunningEmbeddedPostgres(dataDir);
  expect(running).toBeDefined();
  expect(running!.url).toContain('host=%2F'); // a Unix socket's directory, not a TCP address
  sql = new Client({ connectionString: running!.url });
  await sql.connect();
  const one = async (text: string, values: unknown[] = []) => (await sql!.query<{ n: number }>(text, values)).rows[0]!.n;
  expect(await one(`SELECT count(*)::int AS n FROM orders WHERE subaccount_id = $1`, [subaccount])).toBe(140);
  expect(await one(`SELECT count(*)::int AS n FROM orders WHERE subaccount_id = $1 AND status IN ('pending', 'unknown')`, [subaccount])).toBe(0);
  expect(await one(`SELECT count(*)::int AS n FROM idempotency_records WHERE state = 'in_flight'`)).toBe(0);
  await sql.end();
  sql = undefined;

  // The embedded database is this user's only.
  const mode = (file: string) => fs.statSync(file).mode & 0o777;
  expect(mode(dataDir)).toBe(0o700);
  expect(mode(`${dataDir}.server.json`)).toBe(0o600);
  const socketDir = (JSON.parse(fs.readFileSync(`${dataDir}.server.json`, 'utf8')) as { socketDir: string }).socketDir;
  expect(mode(socketDir)).toBe(0o700);

  const stopped = Date.now();
  expect(await service.stop('SIGTERM')).toBe(0);
  expect(Date.now() - stopped).toBeLessThan(10_000);
  expect(fs.existsSync(socketDir)).toBe(false);
  console.log(
    `Embedded PGlite under concurrency: 400 requests over 40 keys (${JSON.stringify(sameKeyStatuses)}), one order per key; ` +
      `100 distinct orders at once (all 200); 20 cancels at once (all 200); 0 5xx, 0 pending, 0 in flight; SIGTERM exit 0 in ${Date.now() - stopped} ms`,
  );
}, 120_000);

async function waitForKey(service: ServiceProcess): Promise<string> {
  for (let i = 0; i < 200; i += 1) {
    const match = /mk_test_[0-9A-Za-z]{40}/.exec(service.output());
    if (match) return match[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no demo key printed');
}
