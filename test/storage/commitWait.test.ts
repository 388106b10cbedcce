import { createPrismaClient, sqlPoolOf, type Db } from '../../core/db/prismaClient';
import { newId } from '../../core/domain/ids';
import { seedSimulatedMarkets } from '../../core/services/catalog/simulatedCatalog';
import { setOrderStatusIfUnchanged } from '../../core/services/orders/statements';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import type { Order } from '../../core/generated/prisma/client';
import { buildWorkspace } from '../support/factories';
import { ownDatabase } from '../support/ownDatabase';

/**
 * A write that the request follows with a flushed one (CommitWait `by_next_write`, core/db/sql.ts:
 * an order's status after the venue's answer when an Idempotency-Key's completion follows) commits
 * without waiting for the disk, and only it: the setting holds for that statement's own transaction
 * and never stays on the pooled connection, whose next transaction (an order's row, committed before
 * the venue is called) must wait for the disk again. A `flushed` write changes nothing.
 */

let db: Db;
let pendingOrder: () => Promise<Order>;

beforeAll(async () => {
  db = createPrismaClient(await ownDatabase('commit_wait'), 2);
  await seedSimulatedMarkets(db);
  const { workspace } = await buildWorkspace(db, { name: 'commit wait' });
  const sub = await createSubaccount(db, { workspaceId: workspace.id, environment: 'test' }, { name: 'a' }, '1000');
  const market = await db.market.findFirstOrThrow({ where: { environment: 'test' } });
  pendingOrder = () => {
    const id = newId('order');
    return db.order.create({
      data: {
        id, workspaceId: workspace.id, environment: 'test', subaccountId: sub.id, marketId: market.id, venue: market.venue,
        side: 'yes', action: 'buy', type: 'limit', timeInForce: 'gtc', price: '0.4', quantity: '10', clientOrderId: id, status: 'pending',
      },
    });
  };
});
afterAll(async () => {
  await db.$disconnect();
});

const synchronousCommit = async (client: { query(text: string): Promise<{ rows: { synchronous_commit: string }[] }> }) =>
  (await client.query('SHOW synchronous_commit')).rows[0]!.synchronous_commit;

it('a by_next_write status change commits without waiting for the disk, in its own transaction only', async () => {
  const client = await sqlPoolOf(db).connect();
  try {
    expect(await synchronousCommit(client)).toBe('on');
    const order = await pendingOrder();
    await client.query('BEGIN');
    const written = await setOrderStatusIfUnchanged(client, order, { status: 'open', venueOrderId: 'v-1' }, 'by_next_write');
    expect(written).toMatchObject({ id: order.id, status: 'open', venueOrderId: 'v-1' });
    expect(await synchronousCommit(client)).toBe('off');
    await client.query('COMMIT');
    expect(await synchronousCommit(client)).toBe('on');

    // As the order path sends it: a statement of its own, whose transaction ends with it.
    const next = await pendingOrder();
    expect(await setOrderStatusIfUnchanged(client, next, { status: 'open' }, 'by_next_write')).toMatchObject({ id: next.id, status: 'open' });
    expect(await synchronousCommit(client)).toBe('on');
    expect((await db.order.findUniqueOrThrow({ where: { id: next.id } })).status).toBe('open');
  } finally {
    client.release();
  }
});

it('a flushed status change leaves synchronous_commit as it is, and neither variant writes over a changed order', async () => {
  const client = await sqlPoolOf(db).connect();
  try {
    const order = await pendingOrder();
    await client.query('BEGIN');
    expect(await setOrderStatusIfUnchanged(client, order, { status: 'open' }, 'flushed')).toMatchObject({ status: 'open' });
    expect(await synchronousCommit(client)).toBe('on');
    await client.query('COMMIT');
    // `order` is the row as it was (pending): the compare-and-set finds it changed.
    for (const commit of ['flushed', 'by_next_write'] as const) {
      expect(await setOrderStatusIfUnchanged(client, order, { status: 'canceled' }, commit)).toBeUndefined();
    }
    expect((await db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('open');
  } finally {
    client.release();
  }
});
