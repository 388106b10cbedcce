/**
 * The simulated venues live in the core's memory; resting orders must survive a restart of the
 * core: the new core puts them back on the books from the database, in their original time order
 * and ahead of the market maker (docs/simulated-venues.md, "Restart rule"), and they keep trading.
 *
 * Market used only by this file: sim-kalshi SUPERBOWL-AFC.
 */
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import {
  bestPrices,
  createSubaccount,
  D,
  fillsOf,
  getOrder,
  marketOf,
  newTrader,
  placed,
  positionsOf,
  quantityOf,
  waitFor,
  type Market,
  type OrderView,
  type Trader,
} from './helpers';

let stack: Stack | undefined;
afterAll(async () => {
  await stack?.close();
});

it('resting orders keep their place in the queue across a core restart, and a later order fills them', async () => {
  stack = await startStack(testConfig());
  const trader: Trader = await newTrader(stack.core.db, stack.gateways[0], 'Restart');
  const market: Market = await marketOf(stack.core.db, 'sim_kalshi', 'SUPERBOWL-AFC');
  const maker = await createSubaccount(trader, 'resting');
  const taker = await createSubaccount(trader, 'taker');

  // Two orders at a price inside the spread (alone at the top of the book), one at a price the
  // market maker also quotes (behind its quotes).
  const { bid, ask, book } = await bestPrices(stack, market);
  const top = bid.add('0.01');
  expect(top.lt(ask)).toBe(true);
  const makerLevel = D(book.bids[2].price);
  const buy = (price: string, quantity: string) =>
    placed(trader, { subaccount_id: maker, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price, quantity });
  const first = await buy(top.toFixed(2), '4');
  const second = await buy(top.toFixed(2), '6');
  const behind = await buy(makerLevel.toFixed(2), '5');
  expect(first.queue_position).toEqual({ orders_ahead: 0, quantity_ahead: '0' });
  expect(second.queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '4' });
  expect(behind.queue_position!.orders_ahead).toBeGreaterThanOrEqual(1); // the market maker was there first

  // Part of the first is filled before the restart (another subaccount sells into it by buying NO).
  const early = await placed(trader, { subaccount_id: taker, market_id: market.id, side: 'no', action: 'buy', type: 'market', quantity: '1' });
  expect(quantityOf(await fillsOf(trader, early.id)).toFixed()).toBe('1');
  const firstPartly = await waitFor(() => getOrder(trader, first.id), (o) => o.status === 'partially_filled');
  expect(firstPartly).toMatchObject({ filled_quantity: '1', remaining_quantity: '3', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
  expect(await getOrder(trader, second.id)).toMatchObject({ queue_position: { orders_ahead: 1, quantity_ahead: '3' } });

  await stack.close();
  stack = await startStack(testConfig()); // a new core on the same database
  const after: Trader = { ...trader, base: stack.gateways[0] };

  const [first2, second2, behind2] = await Promise.all([first, second, behind].map((o) => getOrder(after, o.id)));
  for (const [before, now] of [[firstPartly, first2], [second, second2], [behind, behind2]] as [OrderView, OrderView][]) {
    expect(now).toMatchObject({
      status: before.status, price: before.price, filled_quantity: before.filled_quantity, remaining_quantity: before.remaining_quantity, venue_order_id: before.venue_order_id,
    });
  }
  // Among our orders, the same places; restored orders now stand ahead of the market maker.
  expect(first2.queue_position).toEqual({ orders_ahead: 0, quantity_ahead: '0' });
  expect(second2.queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '3' });
  expect(behind2.queue_position).toEqual({ orders_ahead: 0, quantity_ahead: '0' });
  const listed = await call<{ data: OrderView[] }>(after.base, 'GET', `/v1/orders?subaccount_id=${maker}&status=working`, { key: after.secret });
  expect(listed.body.data.map((o) => o.id).sort()).toEqual([first.id, second.id, behind.id].sort());

  // Another subaccount's NO buy takes the YES bids, best first: our two top orders, in time order.
  const hit = await placed(after, { subaccount_id: taker, market_id: market.id, side: 'no', action: 'buy', type: 'market', quantity: '9' });
  const takerFills = await fillsOf(after, hit.id);
  expect(quantityOf(takerFills).toFixed()).toBe('9');
  for (const fill of takerFills) expect(D(fill.price).eq(D(1).sub(top))).toBe(true);

  // Fills after the restart are recorded, none lost to a reused venue fill id.
  for (const [order, quantity, fillCount] of [[first, '4', 2], [second, '6', 1]] as [OrderView, string, number][]) {
    const filled = await waitFor(() => getOrder(after, order.id), (o) => o.status === 'filled');
    expect(filled).toMatchObject({ filled_quantity: quantity, remaining_quantity: '0', queue_position: null });
    const fills = await fillsOf(after, order.id);
    expect(fills).toHaveLength(fillCount);
    expect(quantityOf(fills).toFixed()).toBe(quantity);
    for (const fill of fills) expect(fill).toMatchObject({ is_taker: false, price: top.toFixed() });
  }
  const [position] = await positionsOf(after, maker, market.id);
  expect(position).toMatchObject({ side: 'yes', quantity: '10' });
  expect(D(position.average_cost).eq(top)).toBe(true);
  expect(await getOrder(after, behind.id)).toMatchObject({ status: 'open', queue_position: { orders_ahead: 0 } });

  // The order still resting after the restart can be canceled at the venue.
  const canceled = await call<OrderView>(after.base, 'DELETE', `/v1/orders/${behind.id}`, { key: after.secret });
  expect(canceled.status).toBe(200);
  expect(canceled.body).toMatchObject({ status: 'canceled', remaining_quantity: '0' });
}, 60_000);
