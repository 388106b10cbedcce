/**
 * Cancel many (issue 30): DELETE /v1/orders with filters cancels exactly the matching resting
 * orders of the workspace, answers each one that could not be, and refuses a request without a filter.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, getOrder, newTrader, placeOrder, portfolioOf, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let stranger: Trader;

beforeAll(async () => {
  stack = await startStack(testConfig());
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Cancel many');
  stranger = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const privateMarket = async (who: Trader, title: string) =>
  ok(await call<Json>(who.base, 'POST', '/v1/test_helpers/markets', { key: who.secret, body: { title, venue: 'sim-kalshi', fair_value: '0.5' } }), 'market');
const rest = async (who: Trader, subaccount: string, market: string, side: 'yes' | 'no', price: string) =>
  ok(await placeOrder(who, { subaccount_id: subaccount, market_id: market, side, action: 'buy', type: 'limit', price, quantity: '2' }), 'resting') as Json;
const cancelMany = (who: Trader, query: string) => call<Json>(who.base, 'DELETE', `/v1/orders${query}`, { key: who.secret });

it('cancels only the matching resting orders of the subaccount and market; others rest on; a repeat finds nothing', async () => {
  const [a, b] = [await privateMarket(trader, 'Cancel A'), await privateMarket(trader, 'Cancel B')];
  const [quoter, other] = [await createSubaccount(trader, 'quoter', '1000'), await createSubaccount(trader, 'other', '1000')];
  const onA = [await rest(trader, quoter, a.id, 'yes', '0.30'), await rest(trader, quoter, a.id, 'no', '0.30')];
  const onB = await rest(trader, quoter, b.id, 'yes', '0.30');
  const othersOnA = await rest(trader, other, a.id, 'yes', '0.31');
  const foreign = await rest(stranger, await createSubaccount(stranger, 'theirs', '1000'), (await privateMarket(stranger, 'Theirs')).id, 'yes', '0.30');

  const reservedBefore = D((await portfolioOf(trader, quoter)).reserved_cash);
  const answer = ok(await cancelMany(trader, `?subaccount_id=${quoter}&market_id=${a.id}`), 'cancel many');
  expect(answer.canceled.map((o: Json) => [o.id, o.status]).sort()).toEqual(onA.map((o) => [o.id, 'canceled']).sort());
  expect(answer).toMatchObject({ failed: [], has_more: false });
  for (const still of [onB, othersOnA]) expect((await getOrder(trader, still.id)).status).toBe('open');
  expect((await getOrder(stranger, foreign.id)).status).toBe('open');
  // The canceled orders' reserved cash is released; the order still resting on B keeps its share.
  const reservedAfter = D((await portfolioOf(trader, quoter)).reserved_cash);
  expect(reservedAfter.lt(reservedBefore) && reservedAfter.gt(0)).toBe(true);
  expect(reservedBefore.sub(reservedAfter).toFixed()).toBe(reservedAfter.mul(2).toFixed()); // two of three equal orders

  expect(ok(await cancelMany(trader, `?subaccount_id=${quoter}&market_id=${a.id}`), 'again')).toEqual({ canceled: [], failed: [], has_more: false });
  const bySide = ok(await cancelMany(trader, `?market_id=${a.id}&side=yes`), 'by side');
  expect(bySide.canceled.map((o: Json) => o.id)).toEqual([othersOnA.id]);
  const byVenue = ok(await cancelMany(trader, '?venue=sim-kalshi'), 'by venue');
  expect(byVenue.canceled.map((o: Json) => o.id)).toEqual([onB.id]);
  expect((await getOrder(stranger, foreign.id)).status).toBe('open'); // another workspace's: never touched
});

it('refuses a request without a filter, a bad venue or side, and an unknown id finds nothing', async () => {
  for (const query of ['', '?venue=nasdaq', '?side=maybe', '?subaccount_id=sa_x&extra=1']) expectError(await cancelMany(trader, query), 400, 'invalid_request');
  expect(ok(await cancelMany(trader, '?subaccount_id=sa_unknown'), 'unknown')).toEqual({ canceled: [], failed: [], has_more: false });
});
