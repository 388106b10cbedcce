/**
 * The market-data stream across gateways (issue 29): a core and two gateways sharing Redis; an
 * order placed through one gateway moves the book, and the streams open on both gateways get the
 * delta at once (the core's notice over Redis pub/sub, not the gateways' own slow look).
 */
import { redisUrl, testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { MarketStreamClient } from '../support/marketStream';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, newTrader, placeOrder, type Trader } from '../trading/helpers';

let stack: Stack;
let trader: Trader;
const streams: MarketStreamClient[] = [];

beforeAll(async () => {
  stack = await startStack(testConfig({ REDIS_URL: redisUrl(), MARKET_STREAM_POLL_MS: '60000' }), 'split', 2);
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Fan-out');
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await stack?.close();
});

it('a book change reaches the streams of every gateway through Redis', async () => {
  const market = ok(await call<Record<string, any>>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title: 'Fanned out', venue: 'sim-polymarket', fair_value: '0.4' } }), 'market');
  const sub = await createSubaccount(trader, 'fan-out', '1000');
  for (const gateway of stack.gateways) streams.push(await MarketStreamClient.open(gateway, trader.secret, `market_ids=${market.id}`));
  const snapshots = await Promise.all(streams.map((s) => s.next((m) => m.type === 'snapshot')));
  const price = D(snapshots[0]!.yes.bids[0].price).add('0.01').toFixed();
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '9' }), 'resting');
  const deltas = await Promise.all(streams.map((s) => s.next((m) => m.type === 'delta', { what: 'the delta on each gateway' })));
  for (const delta of deltas) {
    const change = delta.changes.find((c: { outcome: string; side: string }) => c.outcome === 'yes' && c.side === 'bid');
    expect(D(change.price).eq(price) && change.quantity === '9').toBe(true);
  }
});

it('a simulated book kept by a gateway is read again after an order through another gateway is announced', async () => {
  const market = ok(await call<Record<string, any>>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title: 'Kept book', venue: 'sim-kalshi', fair_value: '0.4' } }), 'market');
  const sub = await createSubaccount(trader, 'kept book', '1000');
  const bookOn = async (gateway: string) => ok(await call<Record<string, any>>(gateway, 'GET', `/v1/markets/${market.id}/orderbook?depth=3`, { key: trader.secret }), 'book');
  const before = await bookOn(stack.gateways[1]!);
  expect(await bookOn(stack.gateways[1]!)).toEqual(before); // kept: the same answer, read time included
  const price = D(before.yes.bids[0].price).add('0.01').toFixed();
  const placed = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '6' }), 'resting');
  // The notice crosses Redis: the other gateway's next reads show the order once it has arrived.
  const deadline = Date.now() + 10_000;
  let after = await bookOn(stack.gateways[1]!);
  while (!D(after.yes.bids[0].price).eq(price) && Date.now() < deadline) after = await bookOn(stack.gateways[1]!);
  expect([D(after.yes.bids[0].price).eq(price), after.yes.bids[0].quantity]).toEqual([true, '6']);
  // Kept by the gateway that will take the cancel, with the order in it.
  expect(D((await bookOn(stack.gateways[0]!)).yes.bids[0].price).eq(price)).toBe(true);
  ok(await call(trader.base, 'DELETE', `/v1/orders/${placed.id}`, { key: trader.secret }), 'cancel');
  // The gateway that took the cancel reads the book again at once, before the core's notice reaches it.
  expect(D((await bookOn(stack.gateways[0]!)).yes.bids[0].price).eq(price)).toBe(false);
});
