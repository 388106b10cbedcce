import { newId } from '../../core/domain/ids';
import type { Environment } from '../../contract/environment';
import { testConfig } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import { startStack, type Stack } from '../support/stack';

/**
 * Workspaces and environments stay apart over real HTTP: another workspace's ids answer 404 as if
 * they did not exist, lists never mix rows, and test and live data never meet.
 */
let stack: Stack;
let base: string;

/** Generous per-key limits: these tests send bursts, and a 429 here would say nothing. */
const RATE_LIMIT = 10_000;

const workspace = (name: string) => buildWorkspace(stack.core.db, { name, rateLimit: RATE_LIMIT });

async function createSubaccount(key: string, name: string): Promise<string> {
  const response = await call(base, 'POST', '/v1/subaccounts', { key, body: { name } });
  expect(response.status).toBe(200);
  expect(response.body.id).toMatch(/^sa_/);
  return response.body.id;
}

async function simMarket(venueMarketId = 'FED-CUT-DEC') {
  return stack.core.db.market.findFirstOrThrow({ where: { venueMarketId, environment: 'test' } });
}

async function insertCredential(subaccountId: string, exchange: 'kalshi' | 'polymarket' = 'kalshi') {
  return stack.core.db.exchangeCredential.create({
    data: {
      id: newId('credential'),
      subaccountId,
      exchange,
      kekId: 'kek1',
      ciphertext: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      fingerprint: `fp-${subaccountId}-${exchange}`,
    },
  });
}

async function insertOrder(
  scope: { workspaceId: string; environment: Environment },
  subaccountId: string,
  status: 'open' | 'filled' | 'canceled' = 'filled',
) {
  const market = await simMarket();
  return stack.core.db.order.create({
    data: {
      id: newId('order'),
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      subaccountId,
      marketId: market.id,
      venue: market.venue,
      side: 'yes',
      action: 'buy',
      type: 'limit',
      timeInForce: 'gtc',
      price: '0.43',
      quantity: '10',
      status,
      clientOrderId: newId('order'),
    },
  });
}

async function insertFill(order: Awaited<ReturnType<typeof insertOrder>>, quantity = '5') {
  return stack.core.db.fill.create({
    data: {
      id: newId('fill'),
      workspaceId: order.workspaceId,
      environment: order.environment,
      subaccountId: order.subaccountId,
      orderId: order.id,
      marketId: order.marketId,
      venue: order.venue,
      venueFillId: newId('fill'),
      side: order.side,
      action: order.action,
      price: '0.43',
      quantity,
      fee: '0.02',
      isTaker: true,
    },
  });
}

async function insertReceipt(order: Awaited<ReturnType<typeof insertOrder>>) {
  return stack.core.db.receipt.create({
    data: {
      id: newId('receipt'),
      workspaceId: order.workspaceId,
      environment: order.environment,
      subaccountId: order.subaccountId,
      orderId: order.id,
      content: { order_id: order.id, filled: '10' },
      contentHash: 'a'.repeat(64),
    },
  });
}

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expect(envelopeOf(response).code).toBe('not_found');
}

const idsOf = (response: ApiResponse) => (response.body.data as { id: string }[]).map((row) => row.id);

beforeAll(async () => {
  stack = await startStack(testConfig());
  base = stack.gateways[0];
});
afterAll(() => stack.close());

describe("another workspace's subaccount does not exist for you", () => {
  let a: Awaited<ReturnType<typeof workspace>>;
  let b: Awaited<ReturnType<typeof workspace>>;
  let bSubaccount: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([workspace('Workspace A'), workspace('Workspace B')]);
    await createSubaccount(a.secret, 'A main');
    bSubaccount = await createSubaccount(b.secret, 'B main');
    await insertCredential(bSubaccount, 'kalshi');
  });

  it('GET answers 404 not_found, like an id that never existed', async () => {
    const response = await call(base, 'GET', `/v1/subaccounts/${bSubaccount}`, { key: a.secret });
    expectNotFound(response);
    expect(JSON.stringify(response.body)).not.toContain('B main');
    const never = await call(base, 'GET', `/v1/subaccounts/${newId('subaccount')}`, { key: a.secret });
    expectNotFound(never);
    expect(never.body.error.message.replace(/sa_\w+/, 'ID')).toBe(response.body.error.message.replace(/sa_\w+/, 'ID'));
  });

  it('DELETE answers 404 not_found', async () => {
    expectNotFound(await call(base, 'DELETE', `/v1/subaccounts/${bSubaccount}`, { key: a.secret }));
  });

  it('GET and PUT of its risk limits answer 404 not_found', async () => {
    expectNotFound(await call(base, 'GET', `/v1/risk_limits/${bSubaccount}`, { key: a.secret }));
    const put = await call(base, 'PUT', `/v1/risk_limits/${bSubaccount}`, {
      key: a.secret,
      body: { max_order_notional: '1', max_open_orders: 0 },
    });
    expectNotFound(put);
  });

  it('DELETE of its credentials answers 404 not_found', async () => {
    expectNotFound(await call(base, 'DELETE', `/v1/subaccounts/${bSubaccount}/credentials/kalshi`, { key: a.secret }));
  });

  it("leaves B's subaccount untouched, through B's key and in the database", async () => {
    const viaB = await call(base, 'GET', `/v1/subaccounts/${bSubaccount}`, { key: b.secret });
    expect(viaB.status).toBe(200);
    expect(viaB.body).toMatchObject({ id: bSubaccount, name: 'B main', status: 'active' });
    expect(viaB.body.credentials).toEqual([expect.objectContaining({ exchange: 'kalshi' })]);
    const limits = await call(base, 'GET', `/v1/risk_limits/${bSubaccount}`, { key: b.secret });
    expect(limits.status).toBe(200);
    expect(limits.body).toMatchObject({ max_order_notional: '10000', max_open_orders: 500 });

    const row = await stack.core.db.subaccount.findUniqueOrThrow({
      where: { id: bSubaccount },
      include: { credentials: true, riskLimits: true },
    });
    expect(row.status).toBe('active');
    expect(row.deletedAt).toBeNull();
    expect(row.workspaceId).toBe(b.workspace.id);
    expect(row.credentials.map((c) => c.exchange)).toEqual(['kalshi']);
    expect(row.riskLimits?.maxOrderNotional?.toString()).toBe('10000');
    expect(row.riskLimits?.maxOpenOrders).toBe(500);
  });

  it("A's subaccount list holds only A's subaccounts", async () => {
    const list = await call(base, 'GET', '/v1/subaccounts', { key: a.secret });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { name: string }) => s.name)).toEqual(['A main']);
    expect(idsOf(list)).not.toContain(bSubaccount);
    const listB = await call(base, 'GET', '/v1/subaccounts', { key: b.secret });
    expect(idsOf(listB)).toEqual([bSubaccount]);
  });
});

describe('fills and receipts never cross workspaces', () => {
  let a: Awaited<ReturnType<typeof workspace>>;
  let b: Awaited<ReturnType<typeof workspace>>;
  let aSubaccount: string;
  let bSubaccount: string;
  let aFill: string;
  let bFills: string[];
  let bOrder: string;
  let bReceipt: string;
  let marketId: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([workspace('Fills A'), workspace('Fills B')]);
    aSubaccount = await createSubaccount(a.secret, 'A trading');
    bSubaccount = await createSubaccount(b.secret, 'B trading');
    const aOrderRow = await insertOrder({ workspaceId: a.workspace.id, environment: 'test' }, aSubaccount);
    const bOrderRow = await insertOrder({ workspaceId: b.workspace.id, environment: 'test' }, bSubaccount);
    bOrder = bOrderRow.id;
    marketId = bOrderRow.marketId;
    aFill = (await insertFill(aOrderRow)).id;
    const first = await insertFill(bOrderRow, '4');
    const second = await insertFill(bOrderRow, '6');
    bFills = [second.id, first.id]; // newest first
    bReceipt = (await insertReceipt(bOrderRow)).id;
  });

  it("A's fills hold only A's fill; B sees its own, newest first", async () => {
    const listA = await call(base, 'GET', '/v1/fills', { key: a.secret });
    expect(listA.status).toBe(200);
    expect(idsOf(listA)).toEqual([aFill]);
    expect(listA.body).toMatchObject({ has_more: false, next_cursor: null });

    const listB = await call(base, 'GET', '/v1/fills', { key: b.secret });
    expect(listB.status).toBe(200);
    expect(idsOf(listB)).toEqual(bFills);
    expect(listB.body.data[0]).toMatchObject({
      order_id: bOrder,
      subaccount_id: bSubaccount,
      market_id: marketId,
      venue: 'sim-kalshi',
      price: '0.43',
      quantity: '6',
      fee: '0.02',
      is_taker: true,
    });
  });

  it("filtering A's fills by B's subaccount or order is 404 naming the filter, as B's ids in a path are; markets are shared", async () => {
    for (const [param, id] of [['subaccount_id', bSubaccount], ['order_id', bOrder]]) {
      const response = await call(base, 'GET', `/v1/fills?${param}=${id}`, { key: a.secret });
      expect(response.status).toBe(404);
      expect(envelopeOf(response)).toMatchObject({ code: 'not_found', param });
      expect(JSON.stringify(response.body)).not.toContain(bFills[0]);
    }
    const byMarket = await call(base, 'GET', `/v1/fills?market_id=${marketId}`, { key: a.secret });
    expect(idsOf(byMarket)).toEqual([aFill]);
  });

  it("B's own filters find B's fills", async () => {
    const bySubaccount = await call(base, 'GET', `/v1/fills?subaccount_id=${bSubaccount}`, { key: b.secret });
    expect(idsOf(bySubaccount)).toEqual(bFills);
    const byOrder = await call(base, 'GET', `/v1/fills?order_id=${bOrder}&limit=1`, { key: b.secret });
    expect(idsOf(byOrder)).toEqual([bFills[0]]);
    expect(byOrder.body.has_more).toBe(true);
  });

  it("A's receipts never show B's; B sees its own", async () => {
    const listA = await call(base, 'GET', '/v1/receipts', { key: a.secret });
    expect(listA.status).toBe(200);
    expect(listA.body).toEqual({ data: [], has_more: false, next_cursor: null });
    for (const [param, id] of [['subaccount_id', bSubaccount], ['order_id', bOrder]]) {
      const filtered = await call(base, 'GET', `/v1/receipts?${param}=${id}`, { key: a.secret });
      expect(filtered.status).toBe(404);
      expect(envelopeOf(filtered)).toMatchObject({ code: 'not_found', param });
    }
    const listB = await call(base, 'GET', `/v1/receipts?subaccount_id=${bSubaccount}`, { key: b.secret });
    expect(listB.status).toBe(200);
    expect(listB.body.data).toEqual([
      expect.objectContaining({
        id: bReceipt,
        order_id: bOrder,
        subaccount_id: bSubaccount,
        content: { order_id: bOrder, filled: '10' },
        content_hash: 'a'.repeat(64),
      }),
    ]);
  });

  it("a live key of B sees none of B's test fills or receipts", async () => {
    const { secret: live } = await buildApiKey(stack.core.db, b.workspace.id, 'live', RATE_LIMIT);
    const filtered = await call(base, 'GET', `/v1/fills?subaccount_id=${bSubaccount}`, { key: live });
    expect(filtered.status).toBe(404); // a test subaccount is not the live environment's
    expect(envelopeOf(filtered)).toMatchObject({ code: 'not_found', param: 'subaccount_id' });
    const fills = await call(base, 'GET', '/v1/fills', { key: live });
    expect(fills.status).toBe(200);
    expect(fills.body.data).toEqual([]);
    const receipts = await call(base, 'GET', '/v1/receipts', { key: live });
    expect(receipts.status).toBe(200);
    expect(receipts.body.data).toEqual([]);
  });
});

describe('test and live keys of one workspace', () => {
  let test: Awaited<ReturnType<typeof workspace>>;
  let live: string;

  beforeAll(async () => {
    test = await workspace('Two environments');
    ({ secret: live } = await buildApiKey(stack.core.db, test.workspace.id, 'live', RATE_LIMIT));
  });

  it('see disjoint subaccounts', async () => {
    const testSubaccount = await createSubaccount(test.secret, 'paper');
    const liveSubaccount = await createSubaccount(live, 'real money');

    const testList = await call(base, 'GET', '/v1/subaccounts', { key: test.secret });
    expect(idsOf(testList)).toEqual([testSubaccount]);
    expect(testList.body.data[0].environment).toBe('test');
    const liveList = await call(base, 'GET', '/v1/subaccounts', { key: live });
    expect(idsOf(liveList)).toEqual([liveSubaccount]);
    expect(liveList.body.data[0].environment).toBe('live');

    expectNotFound(await call(base, 'GET', `/v1/subaccounts/${liveSubaccount}`, { key: test.secret }));
    expectNotFound(await call(base, 'GET', `/v1/subaccounts/${testSubaccount}`, { key: live }));
    expectNotFound(await call(base, 'GET', `/v1/risk_limits/${testSubaccount}`, { key: live }));
    expectNotFound(await call(base, 'DELETE', `/v1/subaccounts/${testSubaccount}`, { key: live }));
    expect((await stack.core.db.subaccount.findUniqueOrThrow({ where: { id: testSubaccount } })).status).toBe('active');
  });

  it('a live key sees no test-environment markets', async () => {
    const testMarkets = await call(base, 'GET', '/v1/markets', { key: test.secret });
    expect(testMarkets.status).toBe(200);
    expect(testMarkets.body.data.length).toBeGreaterThan(0);

    const liveMarkets = await call(base, 'GET', '/v1/markets', { key: live });
    expect(liveMarkets.status).toBe(200);
    // Other test files may list live markets of their own; none of the simulated ones is visible.
    expect(liveMarkets.body.data.filter((m: { venue: string }) => m.venue.startsWith('sim-'))).toEqual([]);
    const liveSearch = await call(base, 'GET', '/v1/markets?q=inflation', { key: live });
    expect(liveSearch.status).toBe(200);
    expect(liveSearch.body.data).toEqual([]);

    const market = await simMarket();
    const viaTest = await call(base, 'GET', `/v1/markets/${market.id}`, { key: test.secret });
    expect(viaTest.status).toBe(200);
    expect(viaTest.body).toMatchObject({ id: market.id, venue: 'sim-kalshi', venue_market_id: 'FED-CUT-DEC' });
    expectNotFound(await call(base, 'GET', `/v1/markets/${market.id}`, { key: live }));
  });
});

describe('cursor pagination over subaccounts', () => {
  it('7 subaccounts in pages of 3: 3 + 3 + 1, newest first, no duplicates', async () => {
    const { secret } = await workspace('Paging');
    const created: string[] = [];
    for (let i = 1; i <= 7; i += 1) created.push(await createSubaccount(secret, `sub ${i}`));
    const newestFirst = [...created].reverse();

    const first = await call(base, 'GET', '/v1/subaccounts?limit=3', { key: secret });
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 3));
    expect(first.body.has_more).toBe(true);
    expect(typeof first.body.next_cursor).toBe('string');

    const second = await call(base, 'GET', `/v1/subaccounts?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: secret });
    expect(second.status).toBe(200);
    expect(idsOf(second)).toEqual(newestFirst.slice(3, 6));
    expect(second.body.has_more).toBe(true);
    expect(typeof second.body.next_cursor).toBe('string');

    const third = await call(base, 'GET', `/v1/subaccounts?limit=3&cursor=${encodeURIComponent(second.body.next_cursor)}`, { key: secret });
    expect(third.status).toBe(200);
    expect(idsOf(third)).toEqual(newestFirst.slice(6));
    expect(third.body).toMatchObject({ has_more: false, next_cursor: null });

    const all = [...idsOf(first), ...idsOf(second), ...idsOf(third)];
    expect(new Set(all).size).toBe(7);
    expect(all).toEqual(newestFirst);
  });

  it('a page that ends exactly at the last row says has_more false', async () => {
    const { secret } = await workspace('Exact page');
    const created = [await createSubaccount(secret, 'one'), await createSubaccount(secret, 'two')];
    const page = await call(base, 'GET', '/v1/subaccounts?limit=2', { key: secret });
    expect(idsOf(page)).toEqual([...created].reverse());
    expect(page.body).toMatchObject({ has_more: false, next_cursor: null });
  });
});

describe('deleting a subaccount', () => {
  let owner: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    owner = await workspace('Deletions');
  });

  it('answers with the deleted subaccount, which is 404 afterwards everywhere', async () => {
    const id = await createSubaccount(owner.secret, 'to delete');
    const deleted = await call(base, 'DELETE', `/v1/subaccounts/${id}`, { key: owner.secret });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'deleted', deleted_at: expect.any(String) });

    expectNotFound(await call(base, 'GET', `/v1/subaccounts/${id}`, { key: owner.secret }));
    expectNotFound(await call(base, 'GET', `/v1/risk_limits/${id}`, { key: owner.secret }));
    expectNotFound(await call(base, 'PUT', `/v1/risk_limits/${id}`, { key: owner.secret, body: { max_open_orders: 1 } }));
    expectNotFound(await call(base, 'DELETE', `/v1/subaccounts/${id}`, { key: owner.secret }));
    const list = await call(base, 'GET', '/v1/subaccounts', { key: owner.secret });
    expect(idsOf(list)).not.toContain(id);
  });

  it('destroys its credentials rows, and keeps its history', async () => {
    const id = await createSubaccount(owner.secret, 'with credentials');
    await insertCredential(id, 'kalshi');
    await insertCredential(id, 'polymarket');
    const order = await insertOrder({ workspaceId: owner.workspace.id, environment: 'test' }, id, 'filled');
    const fill = await insertFill(order);
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId: id } })).toBe(2);

    const deleted = await call(base, 'DELETE', `/v1/subaccounts/${id}`, { key: owner.secret });
    expect(deleted.status).toBe(200);
    expect(await stack.core.db.exchangeCredential.count({ where: { subaccountId: id } })).toBe(0);
    expect(await stack.core.db.fill.count({ where: { id: fill.id } })).toBe(1);
    const row = await stack.core.db.subaccount.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('deleted');
    expect(row.deletedAt).toBeInstanceOf(Date);
  });

  it('with a working order answers 409 conflict and leaves it intact', async () => {
    const id = await createSubaccount(owner.secret, 'busy');
    await insertCredential(id, 'kalshi');
    await insertOrder({ workspaceId: owner.workspace.id, environment: 'test' }, id, 'open');

    const response = await call(base, 'DELETE', `/v1/subaccounts/${id}`, { key: owner.secret });
    expect(response.status).toBe(409);
    expect(envelopeOf(response).code).toBe('conflict');

    const still = await call(base, 'GET', `/v1/subaccounts/${id}`, { key: owner.secret });
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ id, status: 'active' });
    expect(still.body.credentials).toEqual([expect.objectContaining({ exchange: 'kalshi' })]);
    const row = await stack.core.db.subaccount.findUniqueOrThrow({ where: { id }, include: { credentials: true } });
    expect(row.status).toBe('active');
    expect(row.deletedAt).toBeNull();
    expect(row.credentials).toHaveLength(1);
  });

  it('deleting one exchange credential keeps the other; a second delete is 404', async () => {
    const id = await createSubaccount(owner.secret, 'two venues');
    await insertCredential(id, 'kalshi');
    await insertCredential(id, 'polymarket');
    const response = await call(base, 'DELETE', `/v1/subaccounts/${id}/credentials/kalshi`, { key: owner.secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ subaccount_id: id, exchange: 'kalshi', deleted: true });
    const left = await stack.core.db.exchangeCredential.findMany({ where: { subaccountId: id } });
    expect(left.map((c) => c.exchange)).toEqual(['polymarket']);
    expectNotFound(await call(base, 'DELETE', `/v1/subaccounts/${id}/credentials/kalshi`, { key: owner.secret }));
    const bad = await call(base, 'DELETE', `/v1/subaccounts/${id}/credentials/binance`, { key: owner.secret });
    expect(bad.status).toBe(400);
    expect(envelopeOf(bad)).toMatchObject({ code: 'invalid_request', param: 'exchange' });
  });
});

describe('risk limits', () => {
  let secret: string;
  let id: string;

  beforeAll(async () => {
    ({ secret } = await workspace('Limits'));
    id = await createSubaccount(secret, 'limited');
  });

  const DEFAULTS = {
    max_order_notional: '10000',
    max_position_per_market: '100000',
    max_gross_exposure: '100000',
    max_daily_realized_loss: '10000',
    max_open_orders: 500,
    max_orders_per_minute: 600,
    trading_halted: false,
  };

  it('GET returns the defaults, amounts as decimal strings', async () => {
    const fresh = await createSubaccount(secret, 'fresh');
    const response = await call(base, 'GET', `/v1/risk_limits/${fresh}`, { key: secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ subaccount_id: fresh, ...DEFAULTS, updated_at: expect.any(String) });
  });

  it('PUT with a partial body changes only the given fields, and the next GET shows it', async () => {
    const response = await call(base, 'PUT', `/v1/risk_limits/${id}`, {
      key: secret,
      body: { max_order_notional: '250.50', max_open_orders: 7 },
    });
    expect(response.status).toBe(200);
    const expected = { ...DEFAULTS, max_order_notional: '250.5', max_open_orders: 7 };
    expect(response.body).toMatchObject(expected);
    const after = await call(base, 'GET', `/v1/risk_limits/${id}`, { key: secret });
    expect(after.body).toEqual({ subaccount_id: id, ...expected, updated_at: expect.any(String) });

    const again = await call(base, 'PUT', `/v1/risk_limits/${id}`, { key: secret, body: { max_gross_exposure: '0' } });
    expect(again.status).toBe(200);
    const next = await call(base, 'GET', `/v1/risk_limits/${id}`, { key: secret });
    expect(next.body).toMatchObject({ ...expected, max_gross_exposure: '0' });
  });

  it('null removes a limit', async () => {
    const response = await call(base, 'PUT', `/v1/risk_limits/${id}`, {
      key: secret,
      body: { max_daily_realized_loss: null, max_orders_per_minute: null },
    });
    expect(response.status).toBe(200);
    const after = await call(base, 'GET', `/v1/risk_limits/${id}`, { key: secret });
    expect(after.body).toMatchObject({ max_daily_realized_loss: null, max_orders_per_minute: null, max_position_per_market: '100000' });
    const row = await stack.core.db.riskLimits.findUniqueOrThrow({ where: { subaccountId: id } });
    expect(row.maxDailyRealizedLoss).toBeNull();
    expect(row.maxOrdersPerMinute).toBeNull();
  });

  it.each([
    ['a negative amount', { max_order_notional: '-1' }, 'max_order_notional'],
    ['a negative count', { max_open_orders: -1 }, 'max_open_orders'],
    ['a non-decimal amount', { max_gross_exposure: 'ten' }, 'max_gross_exposure'],
    ['an amount as a JSON number', { max_position_per_market: 100 }, 'max_position_per_market'],
    ['a fractional count', { max_orders_per_minute: 1.5 }, 'max_orders_per_minute'],
    ['an unknown field', { max_leverage: '2' }, 'max_leverage'],
  ])('%s is 400 invalid_request naming the param, and changes nothing', async (_name, body, param) => {
    const before = await call(base, 'GET', `/v1/risk_limits/${id}`, { key: secret });
    const response = await call(base, 'PUT', `/v1/risk_limits/${id}`, { key: secret, body: { max_open_orders: 3, ...body } });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param });
    const after = await call(base, 'GET', `/v1/risk_limits/${id}`, { key: secret });
    expect(after.body).toEqual(before.body);
  });
});

describe('market search', () => {
  let secret: string;

  beforeAll(async () => {
    ({ secret } = await workspace('Search'));
  });

  const search = (query: string) => call(base, 'GET', `/v1/markets?${query}`, { key: secret });
  const tickersOf = (response: ApiResponse) =>
    (response.body.data as { venue_market_id: string }[]).map((m) => m.venue_market_id);

  it('a word prefix finds a market: "infla" finds the CPI inflation market on both venues', async () => {
    const response = await search('q=infla');
    expect(response.status).toBe(200);
    expect(tickersOf(response)).toEqual(expect.arrayContaining(['CPI-ABOVE-3', 'pm-cpi-above-3']));
    for (const market of response.body.data) expect(`${market.title} ${market.description}`).toMatch(/infla/i);
  });

  it('every word must match: "fed rate" finds the Fed market, not other "federal" markets', async () => {
    const response = await search(`q=${encodeURIComponent('fed rate')}`);
    expect(response.status).toBe(200);
    const tickers = tickersOf(response);
    expect(tickers).toEqual(expect.arrayContaining(['FED-CUT-DEC', 'pm-fed-cut-dec']));
    expect(tickers).not.toContain('SHUTDOWN-Q'); // "federal government shutdown" has no "rate"
    expect(tickers.slice(0, 2).sort()).toEqual(['FED-CUT-DEC', 'pm-fed-cut-dec']);
  });

  it.each([['inf'], ['infl'], ['infla'], ['inflat'], ['inflati'], ['inflatio'], ['inflation'], ['INFLATION']])(
    'type-ahead: q=%s (each prefix of "inflation" as it is typed) finds the CPI market',
    async (q) => {
      const response = await search(`q=${q}`);
      expect(response.status).toBe(200);
      expect(tickersOf(response)).toContain('CPI-ABOVE-3');
    },
  );

  it.each([['feder'], ['federa'], ['federal']])('type-ahead: q=%s finds the Fed market', async (q) => {
    const response = await search(`q=${q}`);
    expect(response.status).toBe(200);
    expect(tickersOf(response)).toContain('FED-CUT-DEC');
  });

  it('a common word beside a real one does not empty the results: "Will Bitcoin"', async () => {
    const response = await search(`q=${encodeURIComponent('Will Bitcoin')}`);
    expect(response.status).toBe(200);
    expect(tickersOf(response)).toContain('BTC-100K-EOY');
  });

  it('venue filter', async () => {
    const response = await search('q=inflation&venue=sim-polymarket');
    expect(response.status).toBe(200);
    expect(tickersOf(response)).toContain('pm-cpi-above-3');
    expect(response.body.data.every((m: { venue: string }) => m.venue === 'sim-polymarket')).toBe(true);
    const catalog = await search('venue=sim-kalshi&limit=200');
    expect(catalog.body.data.length).toBeGreaterThanOrEqual(16);
    expect(catalog.body.data.every((m: { venue: string }) => m.venue === 'sim-kalshi')).toBe(true);
    const bad = await search('venue=nasdaq');
    expect(bad.status).toBe(400);
    expect(envelopeOf(bad)).toMatchObject({ code: 'invalid_request', param: 'venue' });
  });

  it('status filter', async () => {
    const open = await search(`q=${encodeURIComponent('fed rate')}&status=open`);
    expect(tickersOf(open)).toEqual(expect.arrayContaining(['FED-CUT-DEC', 'pm-fed-cut-dec']));
    expect(open.body.data.every((m: { status: string }) => m.status === 'open')).toBe(true);
    for (const status of ['closed', 'settled']) {
      const none = await search(`q=${encodeURIComponent('fed rate')}&status=${status}`);
      expect(none.status).toBe(200);
      expect(tickersOf(none)).not.toContain('FED-CUT-DEC');
      expect(none.body.data.every((m: { status: string }) => m.status === status)).toBe(true);
    }
    const bad = await search('status=pending');
    expect(bad.status).toBe(400);
    expect(envelopeOf(bad)).toMatchObject({ code: 'invalid_request', param: 'status' });
  });

  it('category filter, with and without q', async () => {
    const weather = await search('category=weather&limit=200');
    expect(weather.status).toBe(200);
    expect(tickersOf(weather)).toEqual(expect.arrayContaining(['NYC-SNOW-XMAS', 'HURRICANE-CAT5', 'TEMP-RECORD-YR']));
    expect(weather.body.data.every((m: { category: string }) => m.category === 'weather')).toBe(true);
    const inflationInWeather = await search('q=inflation&category=weather');
    expect(inflationInWeather.body.data).toEqual([]);
    const inflationInEconomics = await search('q=inflation&category=economics');
    expect(tickersOf(inflationInEconomics)).toContain('CPI-ABOVE-3');
  });

  it.each([['!!!'], ['&|!:*'], ['  '], ['()']])('q=%j (no letter or digit) is 400 naming q', async (q) => {
    const response = await search(`q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'q' });
  });

  it('ranked results paginate without duplicates or gaps, across ties and distinct ranks', async () => {
    const q = encodeURIComponent('the'); // 32 hits over 8 distinct ranks, most of them tied
    const whole = await search(`q=${q}&limit=200`);
    expect(whole.status).toBe(200);
    const expected = idsOf(whole);
    expect(expected.length).toBeGreaterThan(10);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ApiResponse = await search(`q=${q}&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(5);
      seen.push(...idsOf(page));
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
      pages += 1;
    } while (cursor && pages < 100);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
  });

  it('a catalog-order cursor is not accepted for a ranked search', async () => {
    const catalog = await search('limit=1');
    const response = await search(`q=fed&cursor=${encodeURIComponent(catalog.body.next_cursor)}`);
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });
});
