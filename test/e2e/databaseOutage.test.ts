/**
 * PostgreSQL stopped under a running service: for the ten seconds it is down, every request is
 * answered `503 service_unavailable` with `Retry-After`, fast (well within CORE_TIMEOUT_MS), and
 * none is a 500; nothing a refused request sent is written. Once the server is back, the same
 * process answers 200 again without a restart, and a refused order retried with its
 * Idempotency-Key is placed once. A PostgreSQL server of the suite's own (privatePostgres.ts), so
 * that stopping it stops no other suite's database.
 */
import { applyMigrations } from '../../core/db/migrate';
import { keyReference } from '../../core/services/idempotency/keyRecords';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import { startPrivatePostgres, type PrivatePostgres } from '../support/privatePostgres';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, marketOf, placeOrder, waitFor, type OrderBody, type Trader } from '../trading/helpers';

const CORE_TIMEOUT_MS = 5000;
const OUTAGE_MS = 10_000;

let pg: PrivatePostgres;
let stack: Stack;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  await applyMigrations(pg.url);
  stack = await startStack(testConfig({ DATABASE_URL: pg.url, CORE_TIMEOUT_MS: String(CORE_TIMEOUT_MS) }));
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await pg?.destroy();
});

it('answers only 503 with Retry-After while PostgreSQL is stopped, writes nothing, and recovers without a restart', async () => {
  const { workspace, key, secret } = await buildWorkspace(stack.core.db, { rateLimit: 100_000, name: 'Database outage' });
  const trader: Trader = { base: stack.gateways[0], secret, keyId: key.id, workspaceId: workspace.id };
  const subaccountId = await createSubaccount(trader, 'outage');
  const market = await marketOf(stack.core.db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  const body: OrderBody = { subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' };
  expect((await placeOrder(trader, body, { 'Idempotency-Key': 'before' })).status).toBe(200);

  await pg.stop();
  const answers: { status: number; ms: number; retryAfter: string | null; code?: string }[] = [];
  const outageKeys: string[] = [];
  const requests: (() => Promise<ApiResponse>)[] = [
    () => {
      const idempotencyKey = `outage-${outageKeys.length}`;
      outageKeys.push(idempotencyKey);
      return placeOrder(trader, body, { 'Idempotency-Key': idempotencyKey });
    },
    () => call(trader.base, 'GET', '/v1/subaccounts', { key: secret }),
    () => call(trader.base, 'GET', `/v1/orders?subaccount_id=${subaccountId}`, { key: secret }),
    () => call(trader.base, 'GET', '/v1/risk/stats', { key: secret }),
    () => call(trader.base, 'POST', '/v1/subaccounts', { key: secret, body: { name: 'during the outage' } }),
  ];
  const until = Date.now() + OUTAGE_MS;
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      for (let i = worker; Date.now() < until; i += 1) {
        const started = Date.now();
        const response = await requests[i % requests.length]!();
        answers.push({
          status: response.status,
          ms: Date.now() - started,
          retryAfter: response.headers.get('retry-after'),
          code: response.status >= 400 ? envelopeOf(response).code : undefined,
        });
      }
    }),
  );
  await pg.start();

  const statuses = new Set(answers.map((a) => a.status));
  expect([...statuses]).toEqual([503]);
  expect(answers.every((a) => a.code === 'service_unavailable' && a.retryAfter === '1')).toBe(true);
  const slowest = Math.max(...answers.map((a) => a.ms));
  expect(slowest).toBeLessThan(CORE_TIMEOUT_MS);

  // The same process, no restart: answers again once the server is back.
  const firstOk = Date.now();
  await waitFor(() => call(trader.base, 'GET', '/v1/subaccounts', { key: secret }).then((r) => r.status), (status) => status === 200, 10_000);
  const recoveredMs = Date.now() - firstOk;
  const ordersOf = (k: string) => stack.core.db.order.count({ where: { workspaceId: workspace.id, clientOrderId: keyReference({ apiKeyId: key.id, key: k }) } });
  expect(await Promise.all(outageKeys.map(ordersOf))).toEqual(outageKeys.map(() => 0));
  expect(await stack.core.db.subaccount.count({ where: { workspaceId: workspace.id, name: 'during the outage' } })).toBe(0);
  const retried = await placeOrder(trader, body, { 'Idempotency-Key': outageKeys[0]! });
  expect(retried.status).toBe(200);
  expect(await ordersOf(outageKeys[0]!)).toBe(1);

  const p99 = answers.map((a) => a.ms).sort((x, y) => x - y)[Math.floor(answers.length * 0.99)];
  console.log(
    `PostgreSQL stopped ${OUTAGE_MS / 1000} s under a running service: ${answers.length} requests, all 503 service_unavailable with Retry-After: 1 ` +
      `(p99 ${p99} ms, slowest ${slowest} ms; CORE_TIMEOUT_MS ${CORE_TIMEOUT_MS}); 0 written; 200 again ${recoveredMs} ms after the server was back, no restart`,
  );
}, 60_000);
