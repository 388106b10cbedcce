import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createPrismaClient, sqlPoolOf, type Db } from '../../core/db/prismaClient';
import { inTransaction, queryPlain } from '../../core/db/sql';
import { Prisma } from '../../core/generated/prisma/client';
import { newId } from '../../core/domain/ids';
import { ORDER_STATUSES, WORKING_STATUSES } from '../../core/domain/orderLifecycle';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { loadLimitUsage } from '../../core/services/risk/limitUsage';
import { seedSimulatedMarkets } from '../../core/services/catalog/simulatedCatalog';
import { ownDatabase } from '../support/ownDatabase';
import { buildWorkspace } from '../support/factories';

/**
 * working_order_totals, which the pre-trade check and the risk statistics read instead of scanning
 * working orders, is kept by a trigger on orders (migration working_order_totals). Against real
 * PostgreSQL: after any sequence of inserts, status changes, fills, price changes and deletes, the
 * totals are exactly what the working orders add up to.
 */

let db: Db;
let url: string;
let subaccounts: string[];
let markets: string[];
let inserted = 0;

beforeAll(async () => {
  // A database of its own: its orders are of any status and shape, and a core starting on the
  // shared database restores every resting order it finds into its simulated books.
  url = await ownDatabase('working_order_totals');
  db = createPrismaClient(url, 4);
  await seedSimulatedMarkets(db);
  const { workspace } = await buildWorkspace(db, { name: 'working order totals' });
  subaccounts = [];
  for (const name of ['a', 'b']) subaccounts.push((await createSubaccount(db, { workspaceId: workspace.id, environment: 'test' }, { name, startingBalance: '1000' }, '1000')).id);
  markets = (await db.market.findMany({ where: { environment: 'test' }, take: 2, orderBy: { id: 'asc' } })).map((m) => m.id);
});
afterAll(async () => {
  await db.$disconnect();
});

type Step =
  | { kind: 'insert'; sub: number; market: number; side: 'yes' | 'no'; action: 'buy' | 'sell'; price: string | null; quantity: string; status: (typeof ORDER_STATUSES)[number] }
  | { kind: 'status'; pick: number; status: (typeof ORDER_STATUSES)[number] }
  | { kind: 'fill'; pick: number; quantity: string }
  | { kind: 'price'; pick: number; price: string }
  | { kind: 'delete'; pick: number };

const decimal = (max: number) => fc.integer({ min: 1, max }).map((n) => (n / 100).toFixed(2));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const), sub: fc.nat(1), market: fc.nat(1), side: fc.constantFrom('yes' as const, 'no' as const),
    action: fc.constantFrom('buy' as const, 'sell' as const), price: fc.option(decimal(99), { nil: null }), quantity: decimal(5000),
    status: fc.constantFrom(...ORDER_STATUSES),
  }),
  fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: fc.constantFrom(...ORDER_STATUSES) }),
  fc.record({ kind: fc.constant('fill' as const), pick: fc.nat(), quantity: decimal(300) }),
  fc.record({ kind: fc.constant('price' as const), pick: fc.nat(), price: decimal(99) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

async function apply(ids: string[], s: Step) {
  if (s.kind === 'insert') {
    const id = newId('order');
    const sub = await db.subaccount.findUniqueOrThrow({ where: { id: subaccounts[s.sub]! } });
    const market = await db.market.findUniqueOrThrow({ where: { id: markets[s.market]! } });
    await db.order.create({
      data: {
        id, workspaceId: sub.workspaceId, environment: 'test', subaccountId: sub.id, marketId: market.id, venue: market.venue,
        side: s.side, action: s.action, type: s.price === null ? 'market' : 'limit', timeInForce: 'gtc', price: s.price,
        quantity: s.quantity, clientOrderId: id, status: s.status,
      },
    });
    ids.push(id);
    inserted += 1;
    return;
  }
  if (ids.length === 0) return;
  const id = ids[s.pick % ids.length]!;
  if (s.kind === 'status') await db.order.update({ where: { id }, data: { status: s.status } });
  if (s.kind === 'price') await db.order.update({ where: { id }, data: { price: s.price } });
  if (s.kind === 'fill') await db.$executeRaw`UPDATE orders SET filled_quantity = least(quantity, filled_quantity + ${s.quantity}::numeric) WHERE id = ${id}`;
  if (s.kind === 'delete') {
    await db.order.delete({ where: { id } });
    ids.splice(ids.indexOf(id), 1);
  }
}

/** The totals as the trigger kept them, and as the working orders add up, per subaccount, market, side and action (zero rows left out). */
async function bothWays() {
  const kept = await db.$queryRaw<{ key: string; orders: number; remaining: string; notional: string }[]>`
    SELECT subaccount_id || '/' || market_id || '/' || side || '/' || action AS key, orders, remaining::text, notional::text
      FROM working_order_totals WHERE subaccount_id = ANY(${subaccounts}) AND orders <> 0 ORDER BY key`;
  const summed = await db.$queryRaw<{ key: string; orders: number; remaining: string; notional: string }[]>`
    SELECT subaccount_id || '/' || market_id || '/' || side || '/' || action AS key, count(*)::int AS orders,
           sum(quantity - filled_quantity)::numeric(24, 6)::text AS remaining,
           sum((quantity - filled_quantity) * coalesce(price, 1))::numeric(36, 12)::text AS notional
      FROM orders WHERE subaccount_id = ANY(${subaccounts}) AND status::text = ANY(${[...WORKING_STATUSES]})
     GROUP BY 1 ORDER BY key`;
  return { kept, summed };
}

describe('working_order_totals', () => {
  it('equals the sum over working orders after any sequence of order changes', async () => {
    const ids: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const s of steps) await apply(ids, s);
        const { kept, summed } = await bothWays();
        expect(kept).toEqual(summed);
      }),
      { numRuns: 25 },
    );
    expect(inserted).toBeGreaterThan(0); // the property ran over real orders (deletes may leave none at the end)
  });

  it('is what the risk statistics report: open orders, the notional of open buys and the largest working order', async () => {
    const usage = await loadLimitUsage(db, subaccounts);
    for (const id of subaccounts) {
      const [row] = await db.$queryRaw<{ open_orders: number; open_buy_notional: string; largest: string }[]>`
        SELECT count(*)::int AS open_orders, coalesce(sum((quantity - filled_quantity) * coalesce(price, 1)) FILTER (WHERE action = 'buy'), 0)::text AS open_buy_notional,
               coalesce(max((quantity - filled_quantity) * coalesce(price, 1)), 0)::text AS largest
          FROM orders WHERE subaccount_id = ${id} AND status::text = ANY(${[...WORKING_STATUSES]})`;
      expect(usage.get(id)!.openOrders).toBe(row!.open_orders);
      expect(usage.get(id)!.openBuyNotional.eq(row!.open_buy_notional)).toBe(true);
      // orders.working_notional (computed by PostgreSQL) lists the same working statuses as WORKING_STATUSES.
      expect(usage.get(id)!.largestOrderNotional.toString()).toBe(new Prisma.Decimal(row!.largest).toString());
    }
  });
});

describe('the order path’s transaction (core/db/sql.ts)', () => {
  it('a connection lost in the middle fails that transaction, not the process; the pool goes on', () => {
    // In a process of its own: an unhandled 'error' event of a checked-out pg client ends a process.
    const script = `
      const { Client } = require('pg');
      const { createPrismaClient, sqlPoolOf } = require('./core/db/prismaClient');
      const { inTransaction, queryPlain } = require('./core/db/sql');
      const { Prisma } = require('./core/generated/prisma/client');
      (async () => {
        const db = createPrismaClient(process.env.URL, 2);
        const pool = sqlPoolOf(db);
        const admin = new Client({ connectionString: process.env.URL });
        await admin.connect();
        const failed = await inTransaction(pool, async (tx) => {
          const [me] = await tx.together((c) => queryPlain(c, Prisma.sql\`SELECT pg_backend_pid() AS pid\`));
          await admin.query('SELECT pg_terminate_backend($1)', [me.pid]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.together((c) => queryPlain(c, Prisma.sql\`SELECT 1\`));
        }).then(() => 'committed', (error) => 'failed: ' + error.message);
        const after = await queryPlain(pool, Prisma.sql\`SELECT 1 AS one\`);
        console.log(JSON.stringify({ failed, after }));
        await admin.end();
        process.exit(0);
      })();`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, URL: url }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(answer.failed).toMatch(/^failed: /);
    expect(answer.after).toEqual([{ one: 1 }]);
  }, 60_000);

  it('a statement that failed beside COMMIT leaves nothing committed, and the caller sees the failure', async () => {
    const pool = sqlPoolOf(db);
    const id = newId('order');
    await expect(
      inTransaction(pool, async (tx) => {
        // The first statement would insert; the second fails; COMMIT behind them is answered ROLLBACK.
        await tx.together((c) =>
          Promise.all([
            queryPlain(c, Prisma.sql`INSERT INTO working_order_totals (subaccount_id, market_id, side, action, orders, remaining, notional) VALUES (${id}, ${id}, 'yes', 'buy', 1, 1, 1)`),
            queryPlain(c, Prisma.sql`SELECT 1 / 0`),
            tx.commit(c),
          ]),
        );
      }),
    ).rejects.toThrow();
    expect(await db.workingOrderTotal.count({ where: { subaccountId: id } })).toBe(0);
  });
});
