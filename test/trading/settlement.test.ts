/**
 * Markets close and resolve, in the test environment, through the public API only (issue 28's
 * first acceptance item): the test helpers make a market of the workspace's own on a simulated
 * venue, close it and settle it; the settlement closes every position at the outcome, credits the
 * payout, books realized P&L on the day, and writes one settlement per subaccount with a receipt.
 * Every figure is computed here by hand from the fills the API reports.
 */
import { buildApiKey } from '../support/factories';
import { call, ok } from '../support/http';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { ownDatabase } from '../support/ownDatabase';
import { canonicalHash, createSubaccount, D, expectError, fillsOf, newTrader, placeOrder, portfolioOf, positionsOf, sum, waitFor, type FillView, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let stranger: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Settlement');
  stranger = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
});

afterAll(async () => {
  await stack?.close();
});

const post = (path: string, body?: unknown, key = trader.secret) => call<Record<string, any>>(trader.base, 'POST', path, { key, ...(body === undefined ? {} : { body }) });
const get = (path: string, key = trader.secret) => call<Record<string, any>>(trader.base, 'GET', path, { key });

async function testMarket(title: string, venue = 'sim-kalshi'): Promise<string> {
  return ok(await post('/v1/test_helpers/markets', { title, venue, fair_value: '0.5' }), 'create test market').id as string;
}

/** A marketable buy of `quantity` on `side`, filled against the market maker; its fills. */
async function bought(subaccount: string, marketId: string, side: 'yes' | 'no', quantity: string): Promise<FillView[]> {
  const order = ok(await placeOrder(trader, { subaccount_id: subaccount, market_id: marketId, side, action: 'buy', type: 'limit', price: '0.9', quantity }), `buy ${side}`);
  expect(order.status).toBe('filled');
  return fillsOf(trader, order.id);
}
const cost = (fills: FillView[]) => sum(fills.map((f) => D(f.price).mul(f.quantity)));
const fees = (fills: FillView[]) => sum(fills.map((f) => f.fee));
const today = () => new Date().toISOString().slice(0, 10);

it('a market of one’s own: private, settled yes: positions gone, one exact settlement per subaccount, cash up by the payout, P&L on the day, risk without it', async () => {
  const marketId = await testMarket('Will it settle yes?');
  // Invisible to another workspace: not found, for reads and orders alike.
  expect((await get(`/v1/markets/${marketId}`, stranger.secret)).status).toBe(404);
  const theirs = await createSubaccount(stranger, 'theirs', '1000');
  expectError(await placeOrder(stranger, { subaccount_id: theirs, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price: '0.5', quantity: '1' }), 404, 'not_found');
  expect(ok(await get(`/v1/markets/${marketId}`), 'own market')).toMatchObject({ id: marketId, venue: 'sim-kalshi', status: 'open', result: null, settlement_value: null });
  // Not even from the gateway's catalog cache, once its owner has read it.
  expect((await get(`/v1/markets/${marketId}`, stranger.secret)).status).toBe(404);
  const search = ok(await get('/v1/markets?category=test%20helpers&limit=100', stranger.secret), 'search');
  expect(search.data.map((m: { id: string }) => m.id)).not.toContain(marketId);

  const [yesHolder, noHolder] = [await createSubaccount(trader, 'yes holder', '1000'), await createSubaccount(trader, 'no holder', '1000')];
  const yesFills = await bought(yesHolder, marketId, 'yes', '10');
  const noFills = await bought(noHolder, marketId, 'no', '10');
  // A resting order: canceled at close, its reserved cash released.
  const resting = ok(await placeOrder(trader, { subaccount_id: yesHolder, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5' }), 'resting');
  expect(resting.status).toBe('open');
  expect(D((await portfolioOf(trader, yesHolder)).reserved_cash).gt(0)).toBe(true);

  const closed = ok(await post(`/v1/test_helpers/markets/${marketId}/close`), 'close');
  expect(closed).toMatchObject({ id: marketId, status: 'closed' });
  expect(ok(await get(`/v1/orders/${resting.id}`), 'resting order')).toMatchObject({ status: 'canceled' });
  expect((await portfolioOf(trader, yesHolder)).reserved_cash).toBe('0');
  const refused = expectError(await placeOrder(trader, { subaccount_id: yesHolder, market_id: marketId, side: 'yes', action: 'buy', type: 'limit', price: '0.5', quantity: '1' }), 422, 'market_not_tradable');
  expect(refused.message).toBe(`Market '${marketId}' is closed.`);

  const cashBefore = { yes: D((await portfolioOf(trader, yesHolder)).cash_balance), no: D((await portfolioOf(trader, noHolder)).cash_balance) };
  const settled = ok(await post(`/v1/test_helpers/markets/${marketId}/settle`, { result: 'yes' }), 'settle');
  expect(settled.market).toMatchObject({ status: 'settled', result: 'yes', settlement_value: '1' });
  expect(settled.market.settled_at).not.toBeNull();
  expect(settled.settlements).toHaveLength(2);

  // YES pays 1 a contract: payout 10, realized 10 - cost; NO pays 0: realized -cost.
  const [yesSettlement] = ok(await get(`/v1/settlements?subaccount_id=${yesHolder}`), 'settlements').data;
  expect(yesSettlement).toMatchObject({
    subaccount_id: yesHolder, market_id: marketId, result: 'yes', settlement_value: '1', yes_quantity: '10', no_quantity: '0',
    cost_basis: cost(yesFills).toFixed(), payout: '10', fee: '0', realized_pnl: D(10).sub(cost(yesFills)).toFixed(),
  });
  expect(yesSettlement.receipt_hash).toBe(canonicalHash(yesSettlement.receipt));
  expect(yesSettlement.receipt).toMatchObject({ kind: 'settlement', settlement_id: yesSettlement.id, payout: '10', market_id: marketId });
  const [noSettlement] = ok(await get(`/v1/settlements?subaccount_id=${noHolder}&market_id=${marketId}`), 'settlements').data;
  expect(noSettlement).toMatchObject({ yes_quantity: '0', no_quantity: '10', payout: '0', realized_pnl: cost(noFills).neg().toFixed() });

  // One settlement.created event each, its data the settlement as GET /v1/settlements gives it.
  // Events are listed once the log has numbered them (docs/events.md): waited for, not assumed.
  const events = await waitFor(async () => ok(await get(`/v1/events?types=settlement.created&subaccount_id=${yesHolder}`), 'events').data, (data) => data.length > 0, 30_000);
  expect(events).toEqual([expect.objectContaining({ type: 'settlement.created', object: 'settlement', subaccount_id: yesHolder, data: yesSettlement })]);
  // REST shows the object once, as data: no other object field rides along.
  expect(Object.keys(events[0]).sort()).toEqual(['created_at', 'data', 'id', 'object', 'previous_status', 'subaccount_id', 'type']);
  // The market's own events: closed, then settled, to the workspace concerned (once each), workspace-wide; none to another.
  // The market read may come from the gateway's catalog cache (up to 1 s old): waited for settled.
  const { yes_bid, yes_ask, no_bid, no_ask, yes_bid_size, yes_ask_size, no_bid_size, no_ask_size, last_price, volume_24h, volume, open_interest, as_of, stale, ...market } =
    await waitFor(async () => ok(await get(`/v1/markets/${marketId}`), 'settled market'), (read) => read.status === 'settled', 30_000);
  // The event carries the market without its quote (a quote is read, not recorded).
  expect(stale).toBe(false);
  const marketEvents = await waitFor(async () => ok(await get('/v1/events?types=market.*'), 'market events').data, (data) => data.length >= 2, 30_000);
  expect(marketEvents.filter((e: { data: { id: string } }) => e.data.id === marketId).map((e: Record<string, unknown>) => [e.type, e.previous_status, e.subaccount_id])).toEqual([
    ['market.settled', 'closed', null],
    ['market.closed', 'open', null],
  ]);
  expect(marketEvents[0]).toMatchObject({ object: 'market', data: market });
  expect(ok(await get('/v1/events?types=market.*', stranger.secret), 'stranger events').data).toEqual([]);

  // Positions gone, cash up by the payout, the day's P&L = the fills' (their fees) + the settlement's.
  expect(await positionsOf(trader, yesHolder, marketId)).toEqual([]);
  expect(await positionsOf(trader, noHolder, marketId)).toEqual([]);
  expect(D((await portfolioOf(trader, yesHolder)).cash_balance).toFixed()).toBe(cashBefore.yes.add(10).toFixed());
  expect(D((await portfolioOf(trader, noHolder)).cash_balance).toFixed()).toBe(cashBefore.no.toFixed());
  const [day] = ok(await get(`/v1/risk/pnl_history?subaccount_id=${yesHolder}&from=${today()}&to=${today()}`), 'pnl').data;
  expect(day.realized_pnl).toBe(D(10).sub(cost(yesFills)).sub(fees(yesFills)).toFixed());
  expect(JSON.stringify(ok(await get(`/v1/risk/stats?subaccount_id=${yesHolder}`), 'stats'))).not.toContain(marketId);

  // Settling again settles nothing and moves nothing.
  const again = ok(await post(`/v1/test_helpers/markets/${marketId}/settle`, { result: 'no' }), 'settle again');
  expect(again.settlements).toEqual([]);
  expect(again.market).toMatchObject({ result: 'yes' });
  expect(D((await portfolioOf(trader, yesHolder)).cash_balance).toFixed()).toBe(cashBefore.yes.add(10).toFixed());
});

it('void returns the cost basis; a scalar value pays both sides in proportion', async () => {
  const holder = await createSubaccount(trader, 'void and scalar', '1000');
  const voided = await testMarket('Will it be voided?');
  const fills = await bought(holder, voided, 'yes', '7');
  const [v] = ok(await post(`/v1/test_helpers/markets/${voided}/settle`, { result: 'void' }), 'void').settlements;
  expect(v).toMatchObject({ result: 'void', settlement_value: null, cost_basis: cost(fills).toFixed(), payout: cost(fills).toFixed(), realized_pnl: '0' });

  const scalar = await testMarket('Where will it land?', 'sim-polymarket');
  const yes = await bought(holder, scalar, 'yes', '10');
  const no = await bought(holder, scalar, 'no', '20');
  const [s] = ok(await post(`/v1/test_helpers/markets/${scalar}/settle`, { settlement_value: '0.37' }), 'scalar').settlements;
  // 10 x 0.37 + 20 x 0.63 = 3.7 + 12.6
  expect(s).toMatchObject({ result: 'scalar', settlement_value: '0.37', yes_quantity: '10', no_quantity: '20', payout: '16.3' });
  expect(s.realized_pnl).toBe(D('16.3').sub(cost(yes)).sub(cost(no)).toFixed());
});

it('refuses what is not an outcome, a market that is not one’s own, and a live key', async () => {
  const marketId = await testMarket('Refusals');
  expectError(await post(`/v1/test_helpers/markets/${marketId}/settle`, {}), 400, 'invalid_request');
  expectError(await post(`/v1/test_helpers/markets/${marketId}/settle`, { settlement_value: '1.5' }), 400, 'invalid_request');
  expectError(await post(`/v1/test_helpers/markets/${marketId}/settle`, { result: 'yes', settlement_value: '0.5' }), 400, 'invalid_request');
  expectError(await post(`/v1/test_helpers/markets/${marketId}/settle`, { result: 'yes' }, stranger.secret), 404, 'not_found');
  const seeded = (await stack.core.db.market.findFirstOrThrow({ where: { environment: 'test', workspaceId: null } })).id;
  expectError(await post(`/v1/test_helpers/markets/${seeded}/close`), 404, 'not_found');
  expectError(await post('/v1/test_helpers/markets', { title: 'x', venue: 'kalshi' }), 400, 'invalid_request');
  const { secret: live } = await buildApiKey(stack.core.db, trader.workspaceId, 'live', 1000);
  expectError(await post('/v1/test_helpers/markets', { title: 'x', venue: 'sim-kalshi' }, live), 403, 'forbidden');
  expect(ok(await get(`/v1/markets/${marketId}`), 'still open')).toMatchObject({ status: 'open' });
});

describe('a market made with closes_at', () => {
  let own: Stack;
  let owner: Trader;
  beforeAll(async () => {
    // Its own database: a core closes every test helper's market due in its database (test/support/env.ts).
    own = await startStack(testConfig({ DATABASE_URL: await ownDatabase('scheduled_closing'), MARKET_CLOSE_SWEEP_MS: '100' }));
    owner = await newTrader(own.core.db, own.gateways[0]!, 'Scheduled closing');
  });
  afterAll(async () => {
    await own?.close();
  });

  it('closes by itself once its time has come: its resting orders canceled, new orders refused', async () => {
    const sub = await createSubaccount(owner, 'closes', '1000');
    const closesAt = new Date(Date.now() + 1500).toISOString();
    const market = ok(await call<Record<string, any>>(owner.base, 'POST', '/v1/test_helpers/markets', { key: owner.secret, body: { title: 'Closes soon?', venue: 'sim-kalshi', closes_at: closesAt } }), 'create');
    expect(market).toMatchObject({ status: 'open', close_time: closesAt });
    const resting = ok(await placeOrder(owner, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5' }), 'resting');
    expect(resting.status).toBe('open');
    // Waited on the market's status, whatever the machine's speed; never before its time.
    const closed = await waitFor(
      async () => ok(await call<Record<string, any>>(owner.base, 'GET', `/v1/markets/${market.id}`, { key: owner.secret }), 'market'),
      (m) => m.status === 'closed',
      30_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(closesAt));
    expect(closed.status).toBe('closed');
    const order = await waitFor(async () => ok(await call<Record<string, any>>(owner.base, 'GET', `/v1/orders/${resting.id}`, { key: owner.secret }), 'order'), (o) => o.status === 'canceled', 30_000);
    expect(order.status).toBe('canceled');
    expectError(await placeOrder(owner, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5' }), 422, 'market_not_tradable');
  });
});
