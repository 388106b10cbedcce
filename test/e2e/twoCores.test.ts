/**
 * Cores that agree: two cores on one database, both configured with SIM_VENUE_URL, trade on one
 * set of simulated books, the simulated venues' service (`npm run start:sim-venue`, a real process
 * started here). A sell through core A and a buy through core B match; the taker's fill is recorded
 * from its placement's answer and the maker's by the fill polling, once; positions, cash and queue
 * positions read the same through either core. When the service restarts empty, the cores put their
 * resting orders back and trading goes on. A service that cannot be reached, or does not answer,
 * gives the answers the core gives for any venue (503 venue_unavailable, or the order `unknown`),
 * never a 500.
 *
 * A database of this suite's own (every core polls and restores all of its database's test orders).
 * Market: sim-kalshi CPI-ABOVE-3 (fair value 0.41: the market maker's best bid 0.40, best ask 0.42).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { INTERNAL_SECRET, testConfig } from '../support/env';
import { call, closedPort } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startProcess, type ServiceProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';
import {
  bookOf,
  createSubaccount,
  D,
  expectError,
  fillsOf,
  getOrder,
  marketOf,
  newTrader,
  placed,
  placeOrder,
  portfolioOf,
  positionsOf,
  waitFor,
  type Market,
  type OrderView,
  type Trader,
} from '../trading/helpers';

let url: string;
let db: Db;
let simPort: number;
let sim: ServiceProcess | undefined;
const stacks: Stack[] = [];

const startSimVenue = () => startProcess('bin/startSimVenue.ts', { SIM_VENUE_PORT: String(simPort), INTERNAL_TOKEN: INTERNAL_SECRET, LOG_LEVEL: 'info' });
const startCore = async (overrides: Record<string, string> = {}) => {
  const stack = await startStack(testConfig({ DATABASE_URL: url, SIM_VENUE_URL: sim!.url, SIM_VENUE_POLL_MS: '100', ...overrides }));
  stacks.push(stack);
  return stack;
};

beforeAll(async () => {
  url = await ownDatabase('two_cores');
  db = createPrismaClient(url, 2);
  // A fixed port, so that the restarted service is where the cores look for it.
  simPort = await closedPort();
  sim = await startSimVenue();
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.close();
  await sim?.stop('SIGKILL');
  await db?.$disconnect();
});

it('a sell through core A and a buy through core B match; fills, positions, cash and queue positions agree through both; a restarted service gets the resting orders back', async () => {
  const a = await startCore();
  const b = await startCore();
  const traderA: Trader = await newTrader(db, a.gateways[0], 'Two cores');
  const traderB: Trader = { ...traderA, base: b.gateways[0] };
  const market: Market = await marketOf(db, 'sim_kalshi', 'CPI-ABOVE-3');
  const seller = await createSubaccount(traderA, 'seller');
  const buyer = await createSubaccount(traderB, 'buyer');

  // Both cores see one book.
  expect(await bookOf(a, market)).toEqual(await bookOf(b, market));

  // The seller first buys 300 YES from the market maker (through A), which moves its quotes up a
  // tick: best bid 0.41, best ask 0.43, so 0.42 is free.
  const bought = await placed(traderA, { subaccount_id: seller, market_id: market.id, side: 'yes', action: 'buy', type: 'market', quantity: '300' });
  expect(bought).toMatchObject({ status: 'filled', filled_quantity: '300' });
  const book = await bookOf(b, market);
  expect(book).toEqual(await bookOf(a, market));
  expect([book.bids[0]!.price, book.asks[0]!.price]).toEqual(['0.4100', '0.4300']);

  // A sell at 0.42 through A rests; a buy of 900 at 0.42 through B takes it.
  const sell = await placed(traderA, { subaccount_id: seller, market_id: market.id, side: 'yes', action: 'sell', type: 'limit', price: '0.42', quantity: '300' });
  expect(sell).toMatchObject({ status: 'open', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
  const buy = await placed(traderB, { subaccount_id: buyer, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.42', quantity: '900' });
  expect(buy).toMatchObject({ status: 'partially_filled', filled_quantity: '300', remaining_quantity: '600', average_fill_price: '0.42' });

  // The taker's fill came with its answer; the maker's reaches the database through the polling.
  const sold = await waitFor(() => getOrder(traderA, sell.id), (o) => o.status === 'filled');
  expect(sold).toMatchObject({ filled_quantity: '300', remaining_quantity: '0', average_fill_price: '0.42', queue_position: null });
  // Both read one row (a second core recording the same fill again may only touch its updated_at).
  const sameRow = (order: OrderView) => ({ ...order, updated_at: undefined });
  expect(sameRow(await getOrder(traderB, sell.id))).toEqual(sameRow(sold));
  const [takerFills, makerFills] = [await fillsOf(traderB, buy.id), await fillsOf(traderA, sell.id)];
  expect(takerFills).toEqual([expect.objectContaining({ price: '0.42', quantity: '300', is_taker: true })]);
  expect(makerFills).toEqual([expect.objectContaining({ price: '0.42', quantity: '300', is_taker: false })]);
  expect(await fillsOf(traderA, buy.id)).toEqual(takerFills);

  // Several more polling rounds of both cores record nothing twice.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(await db.fill.count({ where: { orderId: { in: [sell.id, buy.id] } } })).toBe(2);

  // Positions and cash, read through either core.
  for (const subaccount of [seller, buyer]) {
    expect(await portfolioOf(traderA, subaccount)).toEqual(await portfolioOf(traderB, subaccount));
    expect(await positionsOf(traderA, subaccount, market.id)).toEqual(await positionsOf(traderB, subaccount, market.id));
  }
  const [buyerYes] = await positionsOf(traderA, buyer, market.id);
  expect(buyerYes).toMatchObject({ side: 'yes', quantity: '300', average_cost: '0.42' });
  expect((await positionsOf(traderB, seller, market.id)).filter((p) => D(p.quantity).gt(0))).toEqual([]);
  const buyerCash = D((await portfolioOf(traderB, buyer)).cash_balance);
  expect(buyerCash.toFixed()).toBe(D('100000').sub(D('0.42').mul(300)).sub(takerFills[0]!.fee).toFixed());

  // Queue positions agree: a second buy at 0.42 (through A) stands behind the 600 left of B's.
  const behind = await placed(traderA, { subaccount_id: seller, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.42', quantity: '50' });
  expect(behind.queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '600' });
  for (const trader of [traderA, traderB]) {
    expect((await getOrder(trader, buy.id)).queue_position).toEqual({ orders_ahead: 0, quantity_ahead: '0' });
    expect((await getOrder(trader, behind.id)).queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '600' });
  }

  // The service restarts empty: the cores notice its new start-up and put their resting orders
  // back, in time order; both see them where they were.
  await sim!.stop('SIGKILL');
  sim = await startSimVenue();
  const restored = await waitFor(() => getOrder(traderB, behind.id), (o) => o.queue_position !== null, 10_000);
  expect(restored.queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '600' });
  for (const trader of [traderA, traderB]) {
    expect((await getOrder(trader, buy.id)).queue_position).toEqual({ orders_ahead: 0, quantity_ahead: '0' });
  }

  // And they trade: a NO buy of 320 at 0.58 (a YES sell at 0.42) through B fills the first of them,
  // as its maker; the fill reaches the database through the polling.
  const noBuy = await placed(traderB, { subaccount_id: seller, market_id: market.id, side: 'no', action: 'buy', type: 'limit', price: '0.58', quantity: '320' });
  expect(noBuy).toMatchObject({ status: 'filled', filled_quantity: '320', average_fill_price: '0.58' });
  const firstBuy = await waitFor(() => getOrder(traderA, buy.id), (o) => o.filled_quantity === '620');
  expect(firstBuy).toMatchObject({ status: 'partially_filled', remaining_quantity: '280', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
  expect((await getOrder(traderB, behind.id)).queue_position).toEqual({ orders_ahead: 1, quantity_ahead: '280' });
}, 60_000);

describe('a service that is not there, or does not answer, is a venue that is unavailable: never a 500', () => {
  it('cannot be reached: the core starts, and an order is refused 503 venue_unavailable, nothing left working', async () => {
    const core = await startCore({ SIM_VENUE_URL: `http://127.0.0.1:${await closedPort()}` });
    const trader = await newTrader(db, core.gateways[0], 'Unreachable sim');
    const market = await marketOf(db, 'sim_kalshi', 'CPI-ABOVE-3');
    const subaccount = await createSubaccount(trader, 'nowhere');
    const response = await placeOrder(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.30', quantity: '1' });
    expectError(response, 503, 'venue_unavailable');
    // Withdrawn (nothing was sent). Were the free port taken meanwhile by another process, that one
    // would refuse the call and the order would be recorded rejected: either way nothing is left working.
    const left = await db.order.findMany({ where: { subaccountId: subaccount }, select: { status: true } });
    expect(left.filter((o) => o.status !== 'rejected')).toEqual([]);
    // The readiness report says so, as for a live venue (never gating).
    const readiness = await call(core.gateways[0]!, 'GET', '/readyz');
    expect(readiness.status).toBe(200);
    expect(readiness.body.checks.core.venues['sim-kalshi']).toMatchObject({ status: 'down' });
  });

  it('does not answer in time: the order is recorded unknown, for the reconciler, and the answer says so', async () => {
    const silent = http.createServer(() => undefined); // holds every request
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const core = await startCore({ SIM_VENUE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, SIM_VENUE_TIMEOUT_MS: '300' });
      const trader = await newTrader(db, core.gateways[0], 'Silent sim');
      const market = await marketOf(db, 'sim_kalshi', 'CPI-ABOVE-3');
      const subaccount = await createSubaccount(trader, 'silence');
      const response = await placeOrder(trader, { subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.30', quantity: '1' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'unknown', queue_position: null });
      expect(await db.order.findMany({ where: { subaccountId: subaccount }, select: { status: true } })).toEqual([{ status: 'unknown' }]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
