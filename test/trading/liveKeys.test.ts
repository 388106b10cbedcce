import { newId } from '../../core/domain/ids';
import { createApiKey } from '../../core/services/accounts/apiKeys';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';

/** A live key trades real venues only, and only with the subaccount's credentials: never a simulated fill. */
describe('live keys', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(testConfig());
  });
  afterAll(() => stack.close());

  it('get a clear 403 on a live market without credentials for its exchange, and nothing is placed', async () => {
    const db = stack.core.db;
    const { workspace } = await buildWorkspace(db);
    const { secret: live } = await createApiKey(db, { workspaceId: workspace.id, environment: 'live' });
    const market = await db.market.create({
      data: {
        id: newId('market'), environment: 'live', venue: 'kalshi', venueMarketId: `LIVE-${Date.now()}`,
        title: 'A live market', category: 'test', tickSize: '0.01', minSize: '1',
      },
    });
    const subaccount = await call(stack.gateways[0], 'POST', '/v1/subaccounts', { key: live, body: { name: 'live' } });
    expect(subaccount.status).toBe(200);
    expect(subaccount.body.environment).toBe('live');
    const order = await call(stack.gateways[0], 'POST', '/v1/orders', {
      key: live,
      body: { subaccount_id: subaccount.body.id, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.40', quantity: '1' },
    });
    expect(order.status).toBe(403);
    expect(envelopeOf(order)).toMatchObject({ code: 'forbidden' });
    expect(envelopeOf(order).message).toMatch(/no kalshi credentials/);
    expect(await db.order.count({ where: { subaccountId: subaccount.body.id } })).toBe(0);
    await db.market.delete({ where: { id: market.id } });
  });

  it('cannot reach the simulated venues at all: a test market is not found for them', async () => {
    const db = stack.core.db;
    const { workspace } = await buildWorkspace(db);
    const { secret: live } = await createApiKey(db, { workspaceId: workspace.id, environment: 'live' });
    const simMarket = await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi' } });
    const subaccount = await call(stack.gateways[0], 'POST', '/v1/subaccounts', { key: live, body: { name: 'live' } });
    const order = await call(stack.gateways[0], 'POST', '/v1/orders', {
      key: live,
      body: { subaccount_id: subaccount.body.id, market_id: simMarket.id, side: 'yes', action: 'buy', type: 'market', quantity: '1' },
    });
    expect(order.status).toBe(404);
    expect(envelopeOf(order).code).toBe('not_found');
    expect(await db.fill.count({ where: { subaccountId: subaccount.body.id } })).toBe(0);
  });
});
