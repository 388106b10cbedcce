import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { startStack, type Stack } from '../support/stack';

/** GET /v1/positions pages by cursor in (subaccount, market, side) order, like every other list. */
describe('positions paging', () => {
  let stack: Stack;
  let base: string;
  let key: string;

  beforeAll(async () => {
    stack = await startStack(testConfig());
    base = stack.gateways[0];
    key = (await buildWorkspace(stack.core.db)).secret;
  });
  afterAll(() => stack?.close());

  it('pages every open position once, in key order, even when one closes between pages', async () => {
    const subaccount = (await call(base, 'POST', '/v1/subaccounts', { key, body: { name: 'pages' } })).body.id;
    const markets = await stack.core.db.market.findMany({
      where: { venue: 'sim_kalshi', venueMarketId: { in: ['GDP-Q-NEG', 'CPI-ABOVE-3', 'NYC-SNOW-XMAS'] } },
    });
    for (const market of markets) {
      for (const side of ['yes', 'no']) {
        const order = await call(base, 'POST', '/v1/orders', {
          key,
          body: { subaccount_id: subaccount, market_id: market.id, side, action: 'buy', type: 'market', quantity: '2' },
        });
        expect(order.body.status).toBe('filled');
      }
    }
    const whole = (await call(base, 'GET', `/v1/positions?subaccount_id=${subaccount}&limit=200`, { key })).body;
    expect(whole.data).toHaveLength(6);
    expect(whole.has_more).toBe(false);

    type Row = { market_id: string; side: string };
    const keyOf = (p: Row) => `${p.market_id}/${p.side}`;
    const first = (await call(base, 'GET', `/v1/positions?subaccount_id=${subaccount}&limit=4`, { key })).body;
    expect(first.data).toEqual(whole.data.slice(0, 4));
    expect(first.has_more).toBe(true);

    // The last position of the first page is closed before the next page is read: nothing after it may be lost.
    const closed: Row = first.data[3];
    const sell = await call(base, 'POST', '/v1/orders', {
      key,
      body: { subaccount_id: subaccount, market_id: closed.market_id, side: closed.side, action: 'sell', type: 'market', quantity: '2' },
    });
    expect(sell.body.status).toBe('filled');
    const second = (await call(base, 'GET', `/v1/positions?subaccount_id=${subaccount}&limit=4&cursor=${first.next_cursor}`, { key })).body;
    expect(second.data.map(keyOf)).toEqual(whole.data.slice(4).map(keyOf));
    expect(second).toMatchObject({ has_more: false, next_cursor: null });

    // Another list's cursor is refused, not misread.
    const orders = (await call(base, 'GET', `/v1/orders?subaccount_id=${subaccount}&limit=1`, { key })).body;
    const foreign = await call(base, 'GET', `/v1/positions?cursor=${orders.next_cursor}`, { key });
    expect(foreign.status).toBe(400);
    expect(envelopeOf(foreign).param).toBe('cursor');

    const bad = await call(base, 'GET', '/v1/positions?cursor=garbage', { key });
    expect(bad.status).toBe(400);
    expect(envelopeOf(bad).param).toBe('cursor');
  });
});
