/**
 * Stopping a process under load loses no order: `npm start` (compiled, on PostgreSQL) receives
 * SIGTERM while 40 clients keep placing orders, each with its own Idempotency-Key. Every request
 * the process accepted is carried to its end and answered (no 5xx); the rest are refused at the
 * connection, before anything is written. The process exits 0. Nothing is left pending, unknown or
 * in flight, and a retry of every key on the next process ends with exactly one order per key.
 */
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { keyReference } from '../../core/services/idempotency/keyRecords';
import { buildWorkspace } from '../support/factories';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';
import { createSubaccount, marketOf, placeOrder, setRiskLimits, waitFor, type OrderBody, type Trader } from '../trading/helpers';

let url: string;
let db: Db;
let service: ServiceProcess | undefined;

const env = () => ({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_DEFAULT: '1000000', SIM_RECONCILER_ENABLED: 'true' });

beforeAll(async () => {
  url = await ownDatabase('graceful_shutdown');
  db = createPrismaClient(url, 2);
}, 60_000);

afterAll(async () => {
  await service?.stop('SIGKILL');
  await db?.$disconnect();
});

it('SIGTERM under load: every accepted request answered, exit 0, nothing stuck, one order per key after retries', async () => {
  service = await startProcess('bin/start.ts', env());
  const { workspace, key, secret } = await buildWorkspace(db, { rateLimit: 100_000, name: 'Graceful shutdown' });
  let trader: Trader = { base: service.url, secret, keyId: key.id, workspaceId: workspace.id };
  const subaccountId = await createSubaccount(trader, 'shutdown');
  await setRiskLimits(trader, subaccountId, { max_open_orders: null, max_orders_per_minute: null }); // every order rests: a thousand or more
  const market = await marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS');
  const body: OrderBody = { subaccount_id: subaccountId, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.02', quantity: '1' };

  const keys: string[] = [];
  const outcomes: (number | 'refused')[] = [];
  let stopping = false;
  const client = async (worker: number) => {
    for (let i = 0; !stopping || i === 0; i += 1) {
      const idempotencyKey = `shutdown-${worker}-${i}`;
      keys.push(idempotencyKey);
      const outcome = await placeOrder(trader, body, { 'Idempotency-Key': idempotencyKey }).then((r) => r.status, () => 'refused' as const);
      outcomes.push(outcome);
      if (outcome === 'refused') return;
    }
  };
  const clients = Array.from({ length: 40 }, (_, worker) => client(worker));
  await waitFor(async () => outcomes.length, (n) => n >= 200, 30_000);
  // The clients keep sending until the process refuses them.
  const sentAt = Date.now();
  const code = await service.stop('SIGTERM');
  const exitMs = Date.now() - sentAt;
  stopping = true;
  await Promise.all(clients);
  expect(outcomes.filter((o) => o === 'refused').length).toBe(40); // every client was turned away in the end, none hung

  expect(code).toBe(0);
  const answered = outcomes.filter((o) => o !== 'refused');
  expect(answered.every((status) => status === 200)).toBe(true);
  expect(await db.order.count({ where: { subaccountId, status: { in: ['pending', 'unknown'] } } })).toBe(0);
  expect(await db.idempotencyRecord.count({ where: { apiKeyId: key.id, state: 'in_flight' } })).toBe(0);
  const ordersOf = (k: string) => db.order.count({ where: { workspaceId: workspace.id, clientOrderId: keyReference({ apiKeyId: key.id, key: k }) } });
  const before = await Promise.all(keys.map(ordersOf));
  expect(before.every((n) => n <= 1)).toBe(true);

  service = await startProcess('bin/start.ts', env());
  trader = { ...trader, base: service.url };
  // A retry the busy new process could not take now (429, or a 5xx that says try again) is sent
  // again with the same key, as a client would: the key keeps it to one order however often.
  let againLater = 0;
  const retryUntilAnswered = async (k: string) => {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await placeOrder(trader, body, { 'Idempotency-Key': k });
      if (![429, 502, 503, 504].includes(answer.status) || attempt === 5) return answer;
      againLater += 1;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  };
  const retries = await Promise.all(keys.map(retryUntilAnswered));
  expect(retries.filter((r) => r.status !== 200).map((r) => ({ status: r.status, body: r.body }))).toEqual([]);
  const after = await Promise.all(keys.map(ordersOf));
  expect(after.every((n) => n === 1)).toBe(true);
  console.log(
    `Graceful shutdown under load: ${keys.length} requests from 40 clients, SIGTERM after ${outcomes.length >= 200 ? 200 : outcomes.length}+ answers; ` +
      `${answered.length} answered (all 200), ${outcomes.length - answered.length} refused at the connection; exit 0 after ${exitMs} ms; ` +
      `0 pending, 0 in flight; after one retry per key on the next process (${againLater} sent again after a 429 or 5xx): ${keys.length} orders for ${keys.length} keys`,
  );
}, 90_000);
