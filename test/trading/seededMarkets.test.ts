/**
 * The test environment's seeded markets close at their close time and, an hour later
 * (SEEDED_MARKET_RESOLVE_AFTER_MS), resolve by the documented seeded rule (docs/simulated-venues.md
 * "Close and resolution"), then settle like any market: so a long-running test environment sees
 * settlements. Time is not waited for: the seeded close times are moved into the past in the
 * database (one question two hours ago: closed and resolved; another a moment ago: closed, not yet
 * resolved), and the core's closing sweep does the rest; everything is read through the API.
 */
import { seededOutcome } from '../../core/domain/seededResolution';
import { call, ok } from '../support/http';
import { testConfig } from '../support/env';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, fillsOf, marketOf, newTrader, placeOrder, positionsOf, sum, waitFor, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;

beforeAll(async () => {
  // Its own database: the closing sweep closes every seeded market due in its database.
  stack = await startStack(testConfig({ DATABASE_URL: await ownDatabase('seeded_markets'), MARKET_CLOSE_SWEEP_MS: '100' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Seeded markets');
});
afterAll(async () => {
  await stack?.close();
});

const market = async (id: string) => ok(await call<Record<string, any>>(trader.base, 'GET', `/v1/markets/${id}`, { key: trader.secret }), 'market');
const movedCloseTime = (questionKey: string, ago: string) =>
  stack.core.db.$executeRawUnsafe(`UPDATE markets SET close_time = now() - interval '${ago}' WHERE environment = 'test' AND workspace_id IS NULL AND question_key = $1`, questionKey);

it('a seeded question past its close time plus an hour resolves on both venues alike, by the seeded rule, and pays its holders; one just past it is closed only', async () => {
  const holder = await createSubaccount(trader, 'seeded holder', '1000');
  const [fedKalshi, fedPolymarket, cpi] = await Promise.all([
    marketOf(stack.core.db, 'sim_kalshi', 'FED-CUT-DEC'),
    marketOf(stack.core.db, 'sim_polymarket', 'pm-fed-cut-dec'),
    marketOf(stack.core.db, 'sim_kalshi', 'CPI-ABOVE-3'),
  ]);
  const yes = ok(await placeOrder(trader, { subaccount_id: holder, market_id: fedKalshi.id, side: 'yes', action: 'buy', type: 'limit', price: '0.9', quantity: '10' }), 'yes');
  const no = ok(await placeOrder(trader, { subaccount_id: holder, market_id: fedPolymarket.id, side: 'no', action: 'buy', type: 'limit', price: '0.9', quantity: '10' }), 'no');
  expect([yes.status, no.status]).toEqual(['filled', 'filled']);
  const resting = ok(await placeOrder(trader, { subaccount_id: holder, market_id: cpi.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '3' }), 'resting');
  expect(resting.status).toBe('open');

  await movedCloseTime('FED-CUT-DEC', '2 hours');
  await movedCloseTime('CPI-ABOVE-3', '1 second');

  const settled = await waitFor(() => market(fedKalshi.id), (m) => m.status === 'settled', 30_000);
  const row = await stack.core.db.market.findUniqueOrThrow({ where: { id: fedKalshi.id } });
  const expected = seededOutcome('FED-CUT-DEC', row.closeTime!, row.fairValue!.toString());
  expect(settled).toMatchObject({ result: expected.result, settlement_value: expected.settlementValue!.toFixed() });
  const twin = await waitFor(() => market(fedPolymarket.id), (m) => m.status === 'settled', 30_000);
  expect(twin).toMatchObject({ result: expected.result, settlement_value: expected.settlementValue!.toFixed() });

  // The holder is paid: 10 YES at the Kalshi listing, 10 NO at the Polymarket one; one contract of the two pays 1.
  const settlements = ok(await call<Record<string, any>>(trader.base, 'GET', `/v1/settlements?subaccount_id=${holder}`, { key: trader.secret }), 'settlements').data;
  const byMarket = new Map(settlements.map((s: Record<string, any>) => [s.market_id, s]));
  const [yesPays, noPays] = expected.result === 'yes' ? ['10', '0'] : ['0', '10'];
  const yesCost = sum((await fillsOf(trader, yes.id)).map((f) => D(f.price).mul(f.quantity)));
  expect(byMarket.get(fedKalshi.id)).toMatchObject({ yes_quantity: '10', payout: yesPays, realized_pnl: D(yesPays).sub(yesCost).toFixed() });
  expect(byMarket.get(fedPolymarket.id)).toMatchObject({ no_quantity: '10', payout: noPays });
  expect(await positionsOf(trader, holder, fedKalshi.id)).toEqual([]);

  // Just past its close time: closed (its resting order canceled, new orders refused), not resolved before the hour.
  const closed = await waitFor(() => market(cpi.id), (m) => m.status === 'closed', 30_000);
  expect(closed).toMatchObject({ result: null, settlement_value: null });
  const order = await waitFor(async () => ok(await call<Record<string, any>>(trader.base, 'GET', `/v1/orders/${resting.id}`, { key: trader.secret }), 'order'), (o) => o.status === 'canceled', 30_000);
  expect(order.status).toBe('canceled');
  expectError(await placeOrder(trader, { subaccount_id: holder, market_id: cpi.id, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '3' }), 422, 'market_not_tradable');
});
