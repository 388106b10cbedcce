import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { Decimal } from '../../core/domain/decimals';
import { newId } from '../../core/domain/ids';
import { seedSimulatedMarkets } from '../../core/services/catalog/simulatedCatalog';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { ownDatabase } from '../support/ownDatabase';
import { buildWorkspace } from '../support/factories';

/**
 * orders.filled_notional (Σ price × quantity of the order's fills, exact), which the execution
 * analytics and the recording of fills read instead of the fills, is kept by a statement trigger on
 * fills: a single fill, several fills of several orders in one statement, digits beyond the stored
 * average's scale.
 */

let db: Db;
let order: (id?: string) => Promise<string>;

beforeAll(async () => {
  db = createPrismaClient(await ownDatabase('filled_notional'), 2); // orders of every shape: kept out of the shared database
  await seedSimulatedMarkets(db);
  const { workspace } = await buildWorkspace(db, { name: 'filled notional' });
  const sub = await createSubaccount(db, { workspaceId: workspace.id, environment: 'test' }, { name: 'a' }, '1000');
  const market = await db.market.findFirstOrThrow({ where: { environment: 'test' } });
  order = async () => {
    const id = newId('order');
    await db.order.create({
      data: {
        id, workspaceId: workspace.id, environment: 'test', subaccountId: sub.id, marketId: market.id, venue: market.venue,
        side: 'yes', action: 'buy', type: 'limit', timeInForce: 'gtc', price: '0.9', quantity: '1000', clientOrderId: id, status: 'open',
      },
    });
    return id;
  };
});
afterAll(async () => {
  await db.$disconnect();
});

const fill = async (orderId: string, price: string, quantity: string) => {
  const o = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  return {
    id: newId('fill'), workspaceId: o.workspaceId, environment: o.environment, subaccountId: o.subaccountId, orderId, marketId: o.marketId,
    venue: o.venue, venueFillId: newId('fill'), side: o.side, action: o.action, price, quantity, fee: '0', realizedPnl: '0', isTaker: true,
  };
};
const notionalOf = async (orderId: string) => (await db.order.findUniqueOrThrow({ where: { id: orderId } })).filledNotional.toFixed();
const summed = async (orderId: string) =>
  (await db.$queryRaw<{ n: string }[]>`SELECT coalesce(sum(price * quantity), 0)::text AS n FROM fills WHERE order_id = ${orderId}`)[0]!.n;

describe('orders.filled_notional', () => {
  it('is the exact Σ price × quantity of the fills, one fill or many of several orders in one statement', async () => {
    const [a, b] = [await order(), await order()];
    expect(await notionalOf(a)).toBe('0');
    await db.fill.create({ data: await fill(a, '0.333333', '3.000001') });
    expect(await notionalOf(a)).toBe('0.999999333333'); // 12 places: beyond the stored average's 8
    await db.fill.createMany({ data: [await fill(a, '0.5', '2'), await fill(b, '0.123457', '7'), await fill(b, '0.01', '0.5')] });
    expect(await notionalOf(a)).toBe('1.999999333333');
    expect(await notionalOf(b)).toBe('0.869199');
    for (const id of [a, b]) expect(new Decimal(await notionalOf(id)).eq(await summed(id))).toBe(true);
  });
});
