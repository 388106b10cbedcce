/**
 * Analysts compose a portfolio in one GraphQL query: a subaccount with its orders, their fills,
 * receipts, market and complex order, its complex orders with their children, positions, balance
 * and P&L history. The nested relations are loaded with the subaccount (Pothos + Prisma) and the
 * computed fields through per-request DataLoaders, so the SQL statements of the query stay the same
 * whether it covers 10 orders or 100. Counted on a real PostgreSQL connection.
 *
 * Market used only by this file: sim-kalshi HURRICANE-CAT5.
 */
import { execute, parse, validate } from 'graphql';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../core/generated/prisma/client';
import { createLoaders } from '../../core/graphql/loaders';
import { schema } from '../../core/graphql/schema';
import type { CoreContext } from '../../core/graphql/context';
import { placeOrder } from '../../core/services/orders/orders';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { updateRiskLimits } from '../../core/services/risk/riskLimits';
import { createLogger } from '../../core/support/logger';
import { databaseUrl, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

let statements = 0;
class CountingClient extends pg.Client {
  override query(...args: unknown[]): any {
    statements += 1;
    if (process.env.SHOW_SQL) console.log(String((args[0] as any)?.text ?? args[0]).slice(0, 160));
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

const PORTFOLIO = parse(`
  query Portfolio($id: ID!, $limit: Int) {
    subaccount(id: $id) {
      id
      name
      cashBalance
      riskLimits { maxOrderNotional }
      orders(limit: $limit) {
        id status price quantity filledQuantity averageFillPrice queuePosition { ordersAhead }
        market { id title venue }
        fills { id price quantity fee }
        receipts { id contentHash }
        complexOrder { id strategy }
      }
      complexOrders(limit: $limit) {
        id strategy status filledQuantity averageFillPrice
        market { id title }
        children { id status order { id status fills { id quantity } } }
      }
      fills(limit: $limit) { id price quantity }
      positions { marketId side quantity averageCost unrealizedPnl }
      balance { cashBalance equity realizedPnl }
      pnlHistory { date realizedPnl }
    }
  }
`);

describe('analyst GraphQL: a nested portfolio query', () => {
  let stack: Stack;
  let counted: PrismaClient;
  let pool: pg.Pool;
  let scope: { workspaceId: string; environment: 'test' };
  let subaccountId: string;

  beforeAll(async () => {
    stack = await startStack(testConfig());
    const { workspace } = await buildWorkspace(stack.core.db);
    scope = { workspaceId: workspace.id, environment: 'test' };
    const market = await stack.core.db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'HURRICANE-CAT5' } });
    const subaccount = await createSubaccount(stack.core.db, scope, { name: 'analyst', startingBalance: '100000' }, '100000');
    subaccountId = subaccount.id;
    await updateRiskLimits(stack.core.db, scope, subaccountId, { maxOpenOrders: null, maxOrdersPerMinute: null, maxOrderNotional: null, maxGrossExposure: null, maxPositionPerMarket: null });
    // 100 orders: 60 resting far below the market, 40 taking liquidity (fills, receipts, a position).
    for (let i = 0; i < 100; i += 1) {
      const resting = i < 60;
      await placeOrder(stack.core.db, stack.core.venues, scope, {
        subaccountId, marketId: market.id, side: 'yes', action: 'buy', type: resting ? 'limit' : 'market',
        price: resting ? '0.01' : null, quantity: '1', timeInForce: resting ? 'gtc' : 'ioc',
      });
    }
    pool = new pg.Pool({ connectionString: databaseUrl(), max: 4, Client: CountingClient });
    counted = new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: 'minimal' });
  });
  afterAll(async () => {
    await counted?.$disconnect();
    await pool?.end();
    await stack?.close();
  });

  async function run(limit: number) {
    const context: CoreContext = {
      db: counted,
      principal: { kind: 'api_key', keyId: 'key_analyst', workspaceId: scope.workspaceId, environment: 'test' } as CoreContext['principal'],
      config: testConfig(),
      credentialKeys: { current: null, keyring: new Map() },
      revocations: stack.core.revocations,
      venues: stack.core.venues,
      loaders: createLoaders(counted, stack.core.venues),
      deadline: Date.now() + 60_000,
      logger: createLogger('silent', 'test'),
    };
    statements = 0;
    const result = await execute({ schema, document: PORTFOLIO, variableValues: { id: subaccountId, limit }, contextValue: context });
    return { result, statements };
  }

  it('is a valid query of the schema', () => {
    expect(validate(schema, PORTFOLIO)).toEqual([]);
  });

  it('answers 100 orders with their nested records', async () => {
    const { result } = await run(100);
    expect(result.errors).toBeUndefined();
    const subaccount = (result.data as any).subaccount;
    expect(subaccount.orders).toHaveLength(100);
    const filled = subaccount.orders.filter((o: any) => o.status === 'filled');
    expect(filled).toHaveLength(40);
    for (const order of filled) {
      expect(order.fills.length).toBeGreaterThan(0);
      expect(order.receipts.length).toBeGreaterThan(0);
      expect(order.market.venue).toBe('sim-kalshi');
    }
    expect(subaccount.orders.filter((o: any) => o.queuePosition !== null)).toHaveLength(60);
    expect(subaccount.positions).toHaveLength(1);
    expect(subaccount.balance.cashBalance).toBe(subaccount.cashBalance);
    expect(subaccount.pnlHistory).toHaveLength(30);
  });

  it('runs the same number of SQL statements for 100 orders as for 10, and few of them', async () => {
    await run(10); // warm: Prisma's first use of each query shape
    await run(100);
    const ten = (await run(10)).statements;
    const hundred = (await run(100)).statements;
    expect(hundred).toBe(ten);
    // One statement per relation level plus the computed fields' services (21 today); SHOW_SQL=1 lists them.
    expect(hundred).toBeLessThanOrEqual(24);
  });
});
