import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../core/db/embeddedPostgres';
import { MIGRATIONS_DIR, applyMigrations, listMigrations } from '../../core/db/migrate';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { sha256Hex } from '../../contract/secrets';
import { createApiKey, authenticateApiKey } from '../../core/services/accounts/apiKeys';
import { seedSimulatedMarkets } from '../../core/services/catalog/simulatedCatalog';
import { searchMarkets } from '../../core/services/catalog/markets';
import { createSubaccount, getSubaccount, listSubaccounts } from '../../core/services/accounts/subaccounts';
import { createWorkspace } from '../../core/services/accounts/workspaces';
import { placeOrder } from '../../core/services/orders/orders';
import { recordExecution } from '../../core/services/orders/executions';
import { createTestMarket, settleTestMarket } from '../../core/services/settlement/testMarkets';
import { Prisma } from '../../core/generated/prisma/client';
import { listEvents } from '../../core/services/events/eventLog';
import { createLogger } from '../../core/support/logger';
import { newId } from '../../core/domain/ids';
import { openVenues } from '../../core/venues/registry';
import { databaseUrl } from '../support/env';

/** The same storage behaviour on both databases the service runs on. */
interface Backend {
  url: string;
  db: Db;
  close(): Promise<void>;
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'PostgreSQL',
    async () => {
      const db = createPrismaClient(databaseUrl(), 4);
      return { url: databaseUrl(), db, close: () => db.$disconnect() };
    },
  ],
  [
    'PGlite',
    async () => {
      const embedded: EmbeddedPostgres = await startEmbeddedPostgres('memory');
      await applyMigrations(embedded.url);
      const db = createPrismaClient(embedded.url, 1, { embedded: true });
      return {
        url: embedded.url,
        db,
        close: async () => {
          await db.$disconnect();
          await embedded.stop();
        },
      };
    },
  ],
];

describe.each(backends)('storage on %s', (_name, open) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
    await seedSimulatedMarkets(backend.db);
  }, 60_000);
  afterAll(() => backend.close());

  it('applying the migrations again does nothing, and the history is in Prisma’s table', async () => {
    expect(await applyMigrations(backend.url)).toEqual([]);
    const client = new Client({ connectionString: backend.url });
    await client.connect();
    const rows = await client.query('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name');
    await client.end();
    expect(rows.rows.map((r) => r.migration_name)).toEqual(listMigrations().map((m) => m.name));
    expect(rows.rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at)).toBe(true);
  });

  it('seeding the catalog twice creates nothing the second time', async () => {
    expect(await seedSimulatedMarkets(backend.db)).toBe(0);
  });

  it('places concurrent orders through the order path (its own statements, the pipelined transaction): each once, with their totals', async () => {
    const workspace = await createWorkspace(backend.db, 'orders');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const sub = await createSubaccount(backend.db, scope, { name: 'orders', startingBalance: '1000' }, '0');
    const market = await backend.db.market.findFirstOrThrow({ where: { environment: 'test', venue: 'sim_kalshi' }, orderBy: { id: 'asc' } });
    const venues = await openVenues(backend.db, createLogger('silent', 'test'), async () => undefined);
    try {
      const order = (i: number) =>
        placeOrder(backend.db, venues, scope, {
          subaccountId: sub.id, marketId: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '2', clientOrderId: `c-${i}`,
        });
      const placed = await Promise.all(Array.from({ length: 12 }, (_, i) => order(i)));
      expect(placed.map((o) => o.status)).toEqual(Array(12).fill('open'));
      expect(await backend.db.order.count({ where: { subaccountId: sub.id } })).toBe(12);
      // The same client order id again is refused, and nothing is added.
      await expect(order(0)).rejects.toMatchObject({ code: 'conflict' });
      const [totals] = await backend.db.workingOrderTotal.findMany({ where: { subaccountId: sub.id } });
      expect({ orders: totals!.orders, remaining: totals!.remaining.toFixed(), notional: totals!.notional.toFixed() }).toEqual({ orders: 12, remaining: '24', notional: '0.24' });
    } finally {
      await venues.close();
    }
  });

  it('keeps a cost basis exact: 10 @ 0.63 and 20 @ 0.64 cost 19.1, and selling it all at 0.70 realizes 1.9', async () => {
    const workspace = await createWorkspace(backend.db, 'cost basis');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const sub = await createSubaccount(backend.db, scope, { name: 'cost', startingBalance: '1000' }, '0');
    const market = await backend.db.market.findFirstOrThrow({ where: { environment: 'test', venue: 'sim_kalshi', workspaceId: null }, orderBy: { id: 'asc' } });
    const filled = async (action: 'buy' | 'sell', fills: [string, string][]) => {
      const quantity = fills.reduce((total, [, q]) => total.add(q), new Prisma.Decimal(0)).toFixed();
      const order = await backend.db.order.create({
        data: { id: newId('order'), workspaceId: workspace.id, environment: 'test', subaccountId: sub.id, marketId: market.id, venue: market.venue, side: 'yes', action, type: 'limit', timeInForce: 'ioc', price: fills[0]![0], quantity, status: 'open', clientOrderId: newId('order') },
      });
      await recordExecution(backend.db, order.id, {
        fills: fills.map(([price, q], i) => ({
          venueFillId: `basis-${order.id}-${i}`, venueOrderId: `v-${order.id}`, clientOrderId: order.id, venueMarketId: market.venueMarketId,
          side: 'yes', action, price, quantity: q, fee: '0', isTaker: true, executedAt: new Date().toISOString(),
        })),
      });
    };
    const position = () => backend.db.position.findFirstOrThrow({ where: { subaccountId: sub.id, marketId: market.id } });
    await filled('buy', [['0.63', '10'], ['0.64', '20']]);
    expect((await position()).costBasis.toFixed()).toBe('19.1');
    await filled('sell', [['0.7', '10']]);
    expect([(await position()).costBasis.toFixed(), (await position()).realizedPnl.toFixed()]).toEqual(['12.733333', '0.633333']);
    await filled('sell', [['0.7', '20']]);
    expect([(await position()).quantity.toFixed(), (await position()).costBasis.toFixed(), (await position()).realizedPnl.toFixed()]).toEqual(['0', '0', '1.9']);
  });

  it('settles a market once when two settlements of it run at once: one settlement, the payout credited once, every figure exact', async () => {
    const workspace = await createWorkspace(backend.db, 'settlement');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const sub = await createSubaccount(backend.db, scope, { name: 'settles', startingBalance: '1000' }, '0');
    const venues = await openVenues(backend.db, createLogger('silent', 'test'), (orderId, fills) => recordExecution(backend.db, orderId, { fills }));
    try {
      const market = await createTestMarket(backend.db, venues, scope, { title: 'Settled twice at once?', venue: 'sim-kalshi', fairValue: '0.5' });
      const order = await placeOrder(backend.db, venues, scope, { subaccountId: sub.id, marketId: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.9', quantity: '10' });
      expect(order.status).toBe('filled');
      const fills = await backend.db.fill.findMany({ where: { orderId: order.id } });
      const cost = fills.reduce((total, f) => total.add(f.price.mul(f.quantity)), new Prisma.Decimal(0));
      const fees = fills.reduce((total, f) => total.add(f.fee), new Prisma.Decimal(0));
      const cashBefore = (await getSubaccount(backend.db, scope, sub.id)).cashBalance;

      const [a, b] = await Promise.all([0, 1].map(() => settleTestMarket(backend.db, venues, scope, market.id, { result: 'yes' })));
      expect(a!.settlements.length + b!.settlements.length).toBe(1);
      const [settlement, ...more] = await backend.db.settlement.findMany({ where: { marketId: market.id } });
      expect(more).toEqual([]);
      expect({ payout: settlement!.payout.toFixed(), costBasis: settlement!.costBasis.toFixed(), realizedPnl: settlement!.realizedPnl.toFixed() })
        .toEqual({ payout: '10', costBasis: cost.toFixed(), realizedPnl: new Prisma.Decimal(10).sub(cost).toFixed() });
      expect((await getSubaccount(backend.db, scope, sub.id)).cashBalance.toFixed()).toBe(cashBefore.add(10).toFixed());
      const [day] = await backend.db.dailyPnl.findMany({ where: { subaccountId: sub.id } });
      expect(day!.realizedPnl.toFixed()).toBe(new Prisma.Decimal(10).sub(cost).sub(fees).toFixed());
    } finally {
      await venues.close();
    }
  });

  it('writes the order path’s events in its transactions; numbered, they read back in order, as the rows were (docs/events.md)', async () => {
    const workspace = await createWorkspace(backend.db, 'events');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const sub = await createSubaccount(backend.db, scope, { name: 'events', startingBalance: '1000' }, '0');
    const market = await backend.db.market.findFirstOrThrow({ where: { environment: 'test', venue: 'sim_kalshi' }, orderBy: { id: 'asc' } });
    const venues = await openVenues(backend.db, createLogger('silent', 'test'), async () => undefined);
    try {
      const placed = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          placeOrder(backend.db, venues, scope, { subaccountId: sub.id, marketId: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: String(i + 1) }),
        ),
      );
      await backend.db.$queryRawUnsafe('SELECT * FROM mk_sequence_events(1000)');
      const page = await listEvents(backend.db, scope, { after: 'evt_00000000000000000000000000', limit: 200 });
      expect(page.data.map((e) => e.type).sort()).toEqual([...Array(4).fill('order.accepted'), ...Array(4).fill('order.rested')]);
      for (const order of placed) {
        const own = page.data.filter((e) => e.objectId === order.id);
        expect(own.map((e) => e.type)).toEqual(['order.accepted', 'order.rested']);
        const [accepted, rested] = own.map((e) => e.data as typeof order);
        expect(accepted!.status).toBe('pending');
        expect(rested).toMatchObject({ id: order.id, status: 'open', updatedAt: order.updatedAt });
        expect([rested!.quantity.toFixed(), rested!.price!.toFixed()]).toEqual([order.quantity.toFixed(), '0.01']); // Decimals, exact
      }
      const ids = page.data.map((e) => e.id);
      expect([...ids].sort()).toEqual(ids);
    } finally {
      await venues.close();
    }
  });

  it('keeps money exact: a balance with six decimals comes back digit for digit', async () => {
    const workspace = await createWorkspace(backend.db, 'money');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const created = await createSubaccount(backend.db, scope, { name: 'exact', startingBalance: '123456789012.345678' }, '0');
    const read = await getSubaccount(backend.db, scope, created.id);
    expect(read.cashBalance.toFixed()).toBe('123456789012.345678');
    const tiny = await createSubaccount(backend.db, scope, { name: 'tiny', startingBalance: '0.000001' }, '0');
    expect((await getSubaccount(backend.db, scope, tiny.id)).cashBalance.toFixed()).toBe('0.000001');
  });

  it('stores only the SHA-256 of a key and finds the key by it', async () => {
    const workspace = await createWorkspace(backend.db, 'keys');
    const { key, secret } = await createApiKey(backend.db, { workspaceId: workspace.id, environment: 'live', rateLimit: 7 });
    const stored = await backend.db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.secretHash).toBe(sha256Hex(secret));
    expect(JSON.stringify(stored)).not.toContain(secret.slice(8));
    expect(await authenticateApiKey(backend.db, sha256Hex(secret), 50)).toMatchObject({ keyId: key.id, environment: 'live', rateLimit: 7 });
    expect(await authenticateApiKey(backend.db, sha256Hex(`${secret}x`), 50)).toBeNull();
  });

  /** Search sees the environment's venue markets (no workspace here has test-helper markets). */
  const TEST_SCOPE = { workspaceId: 'ws_none', environment: 'test' as const };

  it('full-text search ranks title matches, matches word prefixes, and filters in SQL', async () => {
    const page = await searchMarkets(backend.db, TEST_SCOPE, { q: 'infla', venue: 'sim-kalshi' });
    expect(page.data.map((m) => m.venueMarketId)).toEqual(['CPI-ABOVE-3']);
    const both = await searchMarkets(backend.db, TEST_SCOPE, { q: 'bitcoin' });
    expect(both.data.map((m) => m.venue).sort()).toEqual(['sim_kalshi', 'sim_polymarket']);
    expect((await searchMarkets(backend.db, { ...TEST_SCOPE, environment: 'live' }, { q: 'bitcoin' })).data).toEqual([]);
    const weather = await searchMarkets(backend.db, TEST_SCOPE, { category: 'WEATHER', venue: 'sim-polymarket' });
    expect(weather.data.length).toBe(3);
    expect(weather.data.every((m) => m.category === 'weather' && m.venue === 'sim_polymarket')).toBe(true);
  });

  it('ranked search pages through every hit once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof searchMarkets>> = await searchMarkets(backend.db, TEST_SCOPE, { q: 'will', limit: 5, cursor });
      seen.push(...page.data.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    // The venues' markets: another suite's test-helper markets (private to their workspaces) are not this scope's.
    const all = await backend.db.market.count({ where: { environment: 'test', workspaceId: null, title: { contains: 'Will' } } });
    expect(seen.length).toBe(all);
  });

  it('lists subaccounts newest first with a cursor', async () => {
    const workspace = await createWorkspace(backend.db, 'paging');
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createSubaccount(backend.db, scope, { name: `s${i}` }, '10')).id);
    const first = await listSubaccounts(backend.db, scope, { limit: 2 });
    const second = await listSubaccounts(backend.db, scope, { limit: 2, cursor: first.nextCursor });
    const third = await listSubaccounts(backend.db, scope, { limit: 2, cursor: second.nextCursor });
    expect([...first.data, ...second.data, ...third.data].map((s) => s.id)).toEqual([...ids].reverse());
    expect(third.hasMore).toBe(false);
    expect(third.nextCursor).toBeNull();
  });
});

describe('a fresh embedded database', () => {
  let embedded: EmbeddedPostgres;
  beforeAll(async () => {
    embedded = await startEmbeddedPostgres('memory');
    await applyMigrations(embedded.url);
  }, 60_000);
  afterAll(() => embedded.stop());

  it('is seeded once when several cores start at the same time', async () => {
    const dbs = [createPrismaClient(embedded.url, 1), createPrismaClient(embedded.url, 1), createPrismaClient(embedded.url, 1)];
    try {
      const created = await Promise.all(dbs.map((db) => seedSimulatedMarkets(db)));
      const total = await dbs[0].market.count();
      expect(created.reduce((a, b) => a + b, 0)).toBe(total);
      expect(total).toBe(32);
    } finally {
      await Promise.all(dbs.map((db) => db.$disconnect()));
    }
  });

  it('refuses to start when a migration was edited after it was applied, naming it', async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    fs.cpSync(MIGRATIONS_DIR, copy, { recursive: true });
    const [first] = listMigrations(copy);
    fs.appendFileSync(path.join(copy, first.name, 'migration.sql'), '\n-- edited\n');
    await expect(applyMigrations(embedded.url, copy)).rejects.toThrow(`migration ${first.name} was modified after it was applied`);
  });
});
