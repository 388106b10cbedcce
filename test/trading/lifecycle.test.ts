/**
 * An order's life through the REST API on the simulated venues: resting, listed with its queue
 * position, canceled; marketable orders filled with Kalshi's fees, a verifiable receipt, the
 * position and the simulated cash; selling back with realized P&L; NO orders; IOC and FOK; and a
 * resting order filled later by someone else's order (the venue's pushed fills).
 *
 * Markets used only by this file: sim-kalshi FED-CUT-DEC, CPI-ABOVE-3, UNEMP-ABOVE-45,
 * BTC-100K-EOY, GDP-Q-NEG, NYC-SNOW-XMAS and sim-polymarket pm-ai-imo-gold.
 */
import { Client } from 'pg';
import { recordExecution } from '../../core/services/orders/executions';
import type { VenueFill, VenueOrderState } from '../../core/venues/venue';
import { databaseUrl, testConfig } from '../support/env';
import { call } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import {
  bestPrices,
  byPrice,
  canonicalHash,
  countsOf,
  createSubaccount,
  D,
  expectError,
  feesOf,
  fillsOf,
  getOrder,
  kalshiFee,
  marketOf,
  newTrader,
  notionalOf,
  placed,
  portfolioOf,
  positionsOf,
  quantityOf,
  setRiskLimits,
  sum,
  waitFor,
  type Market,
  type OrderView,
  type Trader,
} from './helpers';

let stack: Stack;
let trader: Trader;
let fed: Market;
let cpi: Market;
let unemp: Market;
let btc: Market;
let pmImo: Market;
let gdp: Market;
let snow: Market;

beforeAll(async () => {
  stack = await startStack(testConfig());
  const db = stack.core.db;
  trader = await newTrader(db, stack.gateways[0], 'Lifecycle');
  [fed, cpi, unemp, btc, pmImo, gdp, snow] = await Promise.all([
    marketOf(db, 'sim_kalshi', 'FED-CUT-DEC'),
    marketOf(db, 'sim_kalshi', 'CPI-ABOVE-3'),
    marketOf(db, 'sim_kalshi', 'UNEMP-ABOVE-45'),
    marketOf(db, 'sim_kalshi', 'BTC-100K-EOY'),
    marketOf(db, 'sim_polymarket', 'pm-ai-imo-gold'),
    marketOf(db, 'sim_kalshi', 'GDP-Q-NEG'),
    marketOf(db, 'sim_kalshi', 'NYC-SNOW-XMAS'),
  ]);
});
afterAll(() => stack.close());

describe('a resting limit order', () => {
  let subaccount: string;
  let order: OrderView;

  beforeAll(async () => {
    subaccount = await createSubaccount(trader, 'resting');
  });

  it('rests below the market maker’s bid: open, with a queue position, nothing filled, cash reserved', async () => {
    const { bid } = await bestPrices(stack, fed);
    const price = bid.sub('0.10').toFixed(2);
    const before = await portfolioOf(trader, subaccount);
    order = await placed(trader, {
      subaccount_id: subaccount, market_id: fed.id, side: 'yes', action: 'buy', type: 'limit', price, quantity: '7',
    });
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      subaccount_id: subaccount,
      market_id: fed.id,
      venue: 'sim-kalshi',
      side: 'yes',
      action: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      price,
      quantity: '7',
      filled_quantity: '0',
      remaining_quantity: '7',
      average_fill_price: null,
      status: 'open',
      queue_position: { orders_ahead: 0, quantity_ahead: '0' },
    });
    expect(await fillsOf(trader, order.id)).toEqual([]);
    const after = await portfolioOf(trader, subaccount);
    expect(after.cash_balance).toBe(before.cash_balance);
    expect(D(after.reserved_cash).sub(before.reserved_cash).toFixed()).toBe(D(price).mul(7).toFixed());
  });

  it('is listed by GET /v1/orders and by status=working, with its queue position', async () => {
    for (const query of [`subaccount_id=${subaccount}`, `subaccount_id=${subaccount}&status=working`, `market_id=${fed.id}&status=open`]) {
      const response = await call<{ data: OrderView[] }>(trader.base, 'GET', `/v1/orders?${query}`, { key: trader.secret });
      expect(response.status).toBe(200);
      const listed = response.body.data.find((o) => o.id === order.id);
      expect(listed).toMatchObject({ status: 'open', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
    }
    const filled = await call<{ data: OrderView[] }>(trader.base, 'GET', `/v1/orders?subaccount_id=${subaccount}&status=filled`, { key: trader.secret });
    expect(filled.body.data.map((o) => o.id)).not.toContain(order.id);
  });

  it('GET /v1/orders/{id} returns it', async () => {
    expect(await getOrder(trader, order.id)).toEqual(order);
  });

  it('DELETE cancels it: canceled, remaining 0, no queue position, cash no longer reserved', async () => {
    const response = await call<OrderView>(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: order.id, status: 'canceled', remaining_quantity: '0', filled_quantity: '0', queue_position: null });
    expect(await getOrder(trader, order.id)).toMatchObject({ status: 'canceled', remaining_quantity: '0' });
    const working = await call<{ data: OrderView[] }>(trader.base, 'GET', `/v1/orders?subaccount_id=${subaccount}&status=working`, { key: trader.secret });
    expect(working.body.data).toEqual([]);
    expect((await portfolioOf(trader, subaccount)).reserved_cash).toBe('0');
  });

  it('canceling it again is 409 conflict', async () => {
    const again = await call(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret });
    expectError(again, 409, 'conflict');
    expect(await getOrder(trader, order.id)).toMatchObject({ status: 'canceled' });
  });
});

describe('a marketable buy, then selling part back', () => {
  let subaccount: string;
  let buy: OrderView;
  let buyFills: Awaited<ReturnType<typeof fillsOf>>;
  let cashAfterBuy: string;

  beforeAll(async () => {
    subaccount = await createSubaccount(trader, 'taker');
  });

  it('a market buy fills at the best ask, with Kalshi’s fee; cash falls by notional + fee', async () => {
    const { ask, askQuantity } = await bestPrices(stack, fed);
    expect(askQuantity.gte(10)).toBe(true);
    const before = await portfolioOf(trader, subaccount);
    buy = await placed(trader, { subaccount_id: subaccount, market_id: fed.id, side: 'yes', action: 'buy', type: 'market', quantity: '10' });
    buyFills = await fillsOf(trader, buy.id);
    const after = await portfolioOf(trader, subaccount);
    cashAfterBuy = after.cash_balance;

    expect(buyFills.length).toBeGreaterThan(0);
    for (const fill of buyFills) {
      expect(fill).toMatchObject({ order_id: buy.id, subaccount_id: subaccount, market_id: fed.id, side: 'yes', action: 'buy', is_taker: true });
      expect(D(fill.price).eq(ask)).toBe(true);
    }
    expect(quantityOf(buyFills).toFixed()).toBe('10');
    // Kalshi: round up to the cent of 0.07 x C x P x (1 - P), per order and price.
    for (const [price, group] of byPrice(buyFills)) expect(group.fee.toFixed(2)).toBe(kalshiFee(price, group.quantity).toFixed(2));
    expect(feesOf(buyFills).eq(kalshiFee(ask, 10))).toBe(true);
    const notional = notionalOf(buyFills);
    const fees = feesOf(buyFills);
    expect(D(before.cash_balance).sub(after.cash_balance).toFixed()).toBe(notional.add(fees).toFixed());
    expect(D(after.realized_pnl).eq(fees.neg())).toBe(true);
    expect(buy).toMatchObject({ type: 'market', time_in_force: 'ioc', status: 'filled', queue_position: null, remaining_quantity: '0' });
  });

  it('the filled order reports its fills: filled_quantity, average_fill_price and fees_paid, in the POST answer and on GET', async () => {
    const notional = notionalOf(buyFills);
    const expected = {
      status: 'filled',
      filled_quantity: '10',
      average_fill_price: notional.div(10).toFixed(),
      fees_paid: feesOf(buyFills).toFixed(),
    };
    expect(await getOrder(trader, buy.id)).toMatchObject(expected);
    expect(buy).toMatchObject(expected);
  });

  it('writes a receipt whose content_hash is SHA-256 of the RFC 8785 canonical JSON of its content', async () => {
    const response = await call<{ data: { id: string; order_id: string; content: Record<string, any>; content_hash: string }[] }>(
      trader.base, 'GET', `/v1/receipts?order_id=${buy.id}`, { key: trader.secret },
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(1);
    const [receipt] = response.body.data;
    expect(receipt.id).toMatch(/^rcpt_/);
    expect(receipt.order_id).toBe(buy.id);
    expect(receipt.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.content_hash).toBe(canonicalHash(receipt.content));
    expect(receipt.content).toMatchObject({
      order_id: buy.id,
      subaccount_id: subaccount,
      market_id: fed.id,
      venue: 'sim-kalshi',
      venue_market_id: 'FED-CUT-DEC',
      quantity: '10',
      fees: feesOf(buyFills).toFixed(),
    });
    expect((receipt.content.fills as { venue_fill_id: string }[]).map((f) => f.venue_fill_id).sort()).toEqual(
      buyFills.map((f) => f.venue_fill_id).sort(),
    );
    // The receipt identifies the execution at the venue and the order's state after it.
    expect(receipt.content).toMatchObject({
      venue_order_id: `sim-kalshi-order-${buy.id}`,
      order_status: 'filled',
      order_filled_quantity: '10',
    });
    // Tampering with any field changes the hash a client computes.
    expect(canonicalHash({ ...receipt.content, quantity: '11' })).not.toBe(receipt.content_hash);
  });

  it('the position holds the contracts at their average cost', async () => {
    const positions = await positionsOf(trader, subaccount, fed.id);
    expect(positions).toHaveLength(1);
    const [position] = positions;
    expect(position).toMatchObject({ side: 'yes', quantity: '10' });
    expect(D(position.average_cost).eq(notionalOf(buyFills).div(10).toDecimalPlaces(6, 6))).toBe(true);
    expect(D(position.realized_pnl).eq(feesOf(buyFills).neg())).toBe(true);
    // Marked to the venue's mid.
    const { book } = await bestPrices(stack, fed);
    const mid = D(book.mid!);
    expect(D(position.mark_price!).eq(mid)).toBe(true);
    expect(D(position.unrealized_pnl!).eq(mid.sub(position.average_cost).mul(10))).toBe(true);
  });

  it('a marketable sell of part realizes (sell price - average cost) x qty - fee, on the fill and in the position', async () => {
    const [held] = await positionsOf(trader, subaccount, fed.id);
    const averageCost = D(held.average_cost);
    const { bid, bidQuantity } = await bestPrices(stack, fed);
    expect(bidQuantity.gte(4)).toBe(true);
    const sell = await placed(trader, {
      subaccount_id: subaccount, market_id: fed.id, side: 'yes', action: 'sell', type: 'limit', price: bid.toFixed(2), quantity: '4', time_in_force: 'ioc',
    });
    const sellFills = await fillsOf(trader, sell.id);
    expect(quantityOf(sellFills).toFixed()).toBe('4');
    for (const fill of sellFills) expect(fill).toMatchObject({ action: 'sell', side: 'yes', is_taker: true, price: bid.toFixed() });
    const fee = feesOf(sellFills);
    expect(fee.eq(kalshiFee(bid, 4))).toBe(true);
    const expectedRealized = bid.sub(averageCost).mul(4).sub(fee);

    // On the fill (as recorded: GET /v1/fills does not carry it, see the report).
    const stored = await stack.core.db.fill.findMany({ where: { orderId: sell.id } });
    expect(sum(stored.map((f) => f.realizedPnl.toString())).eq(expectedRealized)).toBe(true);

    // In the position: the buy's fee plus this sell.
    const [position] = await positionsOf(trader, subaccount, fed.id);
    expect(position.quantity).toBe('6');
    expect(D(position.average_cost).eq(averageCost)).toBe(true);
    expect(D(position.realized_pnl).eq(feesOf(buyFills).neg().add(expectedRealized))).toBe(true);

    const balance = await portfolioOf(trader, subaccount);
    expect(D(balance.cash_balance).sub(cashAfterBuy).eq(bid.mul(4).sub(fee))).toBe(true);
    expect(D(balance.realized_pnl).eq(position.realized_pnl)).toBe(true);
    expect(await getOrder(trader, sell.id)).toMatchObject({ status: 'filled', filled_quantity: '4', remaining_quantity: '0', fees_paid: fee.toFixed() });
    expect(sell).toMatchObject({ status: 'filled', filled_quantity: '4', remaining_quantity: '0', fees_paid: fee.toFixed() });
  });
});

describe('NO orders', () => {
  it('a NO buy fills against the YES bids at the complement price', async () => {
    const subaccount = await createSubaccount(trader, 'no side');
    const { bid } = await bestPrices(stack, cpi);
    const noPrice = D(1).sub(bid);
    const before = await portfolioOf(trader, subaccount);
    const order = await placed(trader, { subaccount_id: subaccount, market_id: cpi.id, side: 'no', action: 'buy', type: 'market', quantity: '5' });
    const fills = await fillsOf(trader, order.id);
    expect(quantityOf(fills).toFixed()).toBe('5');
    for (const fill of fills) expect(fill).toMatchObject({ side: 'no', action: 'buy', price: noPrice.toFixed() });
    const fee = feesOf(fills);
    expect(fee.eq(kalshiFee(noPrice, 5))).toBe(true);
    const positions = await positionsOf(trader, subaccount, cpi.id);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ side: 'no', quantity: '5' });
    expect(D(positions[0].average_cost).eq(noPrice)).toBe(true);
    const { book } = await bestPrices(stack, cpi);
    expect(D(positions[0].mark_price!).eq(D(1).sub(book.mid!))).toBe(true); // a NO contract's mid is 1 - the YES mid
    const after = await portfolioOf(trader, subaccount);
    expect(D(before.cash_balance).sub(after.cash_balance).eq(noPrice.mul(5).add(fee))).toBe(true);
    expect(await getOrder(trader, order.id)).toMatchObject({ side: 'no', status: 'filled', filled_quantity: '5', average_fill_price: noPrice.toFixed() });
  });

  it('a NO limit buy below the complement of the YES bid rests, as a YES ask', async () => {
    const subaccount = await createSubaccount(trader, 'no resting');
    const { ask } = await bestPrices(stack, cpi);
    // NO at (1 - ask) - 0.05 rests as a YES ask at ask + 0.05: not marketable.
    const noPrice = D(1).sub(ask).sub('0.05');
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: cpi.id, side: 'no', action: 'buy', type: 'limit', price: noPrice.toFixed(2), quantity: '3',
    });
    expect(order).toMatchObject({ status: 'open', filled_quantity: '0', queue_position: { orders_ahead: expect.any(Number) } });
    const canceled = await call<OrderView>(trader.base, 'DELETE', `/v1/orders/${order.id}`, { key: trader.secret });
    expect(canceled.body).toMatchObject({ status: 'canceled' });
  });
});

describe('time in force through the API', () => {
  let subaccount: string;

  beforeAll(async () => {
    subaccount = await createSubaccount(trader, 'tif');
  });

  it('an IOC limit that crosses nothing is canceled with nothing filled', async () => {
    const { bid } = await bestPrices(stack, unemp);
    const before = await portfolioOf(trader, subaccount);
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: unemp.id, side: 'yes', action: 'buy', type: 'limit', price: bid.toFixed(2), quantity: '5', time_in_force: 'ioc',
    });
    expect(order).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0', time_in_force: 'ioc', queue_position: null });
    expect(await fillsOf(trader, order.id)).toEqual([]);
    expect((await portfolioOf(trader, subaccount)).cash_balance).toBe(before.cash_balance);
  });

  it('an IOC larger than its price level fills what is there and cancels the rest', async () => {
    const { ask, askQuantity } = await bestPrices(stack, unemp);
    const quantity = askQuantity.add(5);
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: unemp.id, side: 'yes', action: 'buy', type: 'limit', price: ask.toFixed(2), quantity: quantity.toFixed(), time_in_force: 'ioc',
    });
    const fills = await fillsOf(trader, order.id);
    expect(quantityOf(fills).eq(askQuantity)).toBe(true);
    const [position] = await positionsOf(trader, subaccount, unemp.id);
    expect(position.quantity).toBe(askQuantity.toFixed());
    const expected = { status: 'canceled', filled_quantity: askQuantity.toFixed(), remaining_quantity: '0' };
    expect(await getOrder(trader, order.id)).toMatchObject(expected);
    expect(order).toMatchObject(expected);
  });

  it('a FOK that its price level cannot fill entirely is canceled: nothing filled, cash and position unchanged', async () => {
    const { ask, askQuantity } = await bestPrices(stack, unemp);
    const before = await portfolioOf(trader, subaccount);
    const positionBefore = await positionsOf(trader, subaccount, unemp.id);
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: unemp.id, side: 'yes', action: 'buy', type: 'limit', price: ask.toFixed(2),
      quantity: askQuantity.add(1).toFixed(), time_in_force: 'fok',
    });
    expect(order).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0', time_in_force: 'fok' });
    expect(await fillsOf(trader, order.id)).toEqual([]);
    expect((await portfolioOf(trader, subaccount)).cash_balance).toBe(before.cash_balance);
    expect(await positionsOf(trader, subaccount, unemp.id)).toEqual(positionBefore);
    expect((await bestPrices(stack, unemp)).askQuantity.eq(askQuantity)).toBe(true);
  });

  it('a market FOK larger than the whole book is canceled: nothing filled, cash unchanged', async () => {
    const fresh = await createSubaccount(trader, 'fok market');
    await setRiskLimits(trader, fresh, { max_order_notional: null });
    const { book } = await bestPrices(stack, unemp);
    const wholeBook = book.asks.reduce((total, level) => total.add(level.quantity), D(0));
    const quantity = wholeBook.add(1000).toFixed(0);
    const before = await portfolioOf(trader, fresh);
    const order = await placed(trader, {
      subaccount_id: fresh, market_id: unemp.id, side: 'yes', action: 'buy', type: 'market', quantity, time_in_force: 'fok',
    });
    expect(order).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0' });
    expect(await countsOf(stack.core.db, fresh)).toEqual({ orders: 1, fills: 0, receipts: 0 });
    expect((await portfolioOf(trader, fresh)).cash_balance).toBe(before.cash_balance);
  });
});

describe('sim-polymarket', () => {
  it('a marketable buy in fractional shares fills at the ask; takers pay the market’s fee rate (0 here)', async () => {
    const subaccount = await createSubaccount(trader, 'polymarket');
    const { ask } = await bestPrices(stack, pmImo);
    const before = await portfolioOf(trader, subaccount);
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: pmImo.id, side: 'yes', action: 'buy', type: 'limit', price: ask.toFixed(), quantity: '7.25', time_in_force: 'ioc',
    });
    const fills = await fillsOf(trader, order.id);
    expect(quantityOf(fills).toFixed()).toBe('7.25');
    expect(feesOf(fills).isZero()).toBe(true);
    const after = await portfolioOf(trader, subaccount);
    expect(D(before.cash_balance).sub(after.cash_balance).eq(ask.mul('7.25'))).toBe(true);
    expect(await getOrder(trader, order.id)).toMatchObject({ venue: 'sim-polymarket', status: 'filled', filled_quantity: '7.25' });
  });
});

describe('a resting order filled by another subaccount’s order', () => {
  it('becomes filled through the venue’s pushed fills, as maker; position and cash follow', async () => {
    const maker = await createSubaccount(trader, 'maker');
    const taker = await createSubaccount(trader, 'taker 2');
    const bought = await placed(trader, { subaccount_id: maker, market_id: btc.id, side: 'yes', action: 'buy', type: 'market', quantity: '10' });
    expect(quantityOf(await fillsOf(trader, bought.id)).toFixed()).toBe('10');
    const [held] = await positionsOf(trader, maker, btc.id);
    const averageCost = D(held.average_cost);

    const { bid, ask } = await bestPrices(stack, btc);
    const price = ask.sub('0.01');
    expect(price.gt(bid)).toBe(true); // inside the spread
    const resting = await placed(trader, {
      subaccount_id: maker, market_id: btc.id, side: 'yes', action: 'sell', type: 'limit', price: price.toFixed(2), quantity: '5',
    });
    expect(resting).toMatchObject({ status: 'open', queue_position: { orders_ahead: 0 } });
    const makerBefore = await portfolioOf(trader, maker);

    const hit = await placed(trader, { subaccount_id: taker, market_id: btc.id, side: 'yes', action: 'buy', type: 'market', quantity: '5' });
    const takerFills = await fillsOf(trader, hit.id);
    expect(quantityOf(takerFills).toFixed()).toBe('5');
    expect(takerFills.every((f) => D(f.price).eq(price) && f.is_taker)).toBe(true);

    const filled = await waitFor(() => getOrder(trader, resting.id), (o) => o.status === 'filled');
    expect(filled).toMatchObject({ filled_quantity: '5', remaining_quantity: '0', queue_position: null });
    expect(D(filled.average_fill_price!).eq(price)).toBe(true);
    const makerFills = await fillsOf(trader, resting.id);
    expect(makerFills).toHaveLength(1);
    expect(makerFills[0]).toMatchObject({ is_taker: false, action: 'sell', side: 'yes', quantity: '5', price: price.toFixed() });
    expect(D(makerFills[0].fee).isZero()).toBe(true); // sim-kalshi markets charge no maker fee

    const [position] = await positionsOf(trader, maker, btc.id);
    expect(position.quantity).toBe('5');
    const makerAfter = await portfolioOf(trader, maker);
    expect(D(makerAfter.cash_balance).sub(makerBefore.cash_balance).eq(price.mul(5))).toBe(true);
    expect(D(makerAfter.realized_pnl).sub(makerBefore.realized_pnl).eq(price.sub(averageCost).mul(5))).toBe(true);
    const receipts = await call<{ data: unknown[] }>(trader.base, 'GET', `/v1/receipts?order_id=${resting.id}`, { key: trader.secret });
    expect(receipts.body.data).toHaveLength(1);
  });
});

describe('a resting order partly filled, then canceled', () => {
  it('is partially_filled with the rest still queued; canceling keeps what filled and releases the rest', async () => {
    const maker = await createSubaccount(trader, 'partial maker');
    const taker = await createSubaccount(trader, 'partial taker');
    const { bid, ask } = await bestPrices(stack, gdp);
    const price = bid.add('0.01');
    expect(price.lt(ask)).toBe(true);
    const resting = await placed(trader, {
      subaccount_id: maker, market_id: gdp.id, side: 'yes', action: 'buy', type: 'limit', price: price.toFixed(2), quantity: '10',
    });
    expect(resting).toMatchObject({ status: 'open', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
    const makerBefore = await portfolioOf(trader, maker);

    // Another subaccount buys NO: it sells into the YES bids, ours first.
    const hit = await placed(trader, { subaccount_id: taker, market_id: gdp.id, side: 'no', action: 'buy', type: 'market', quantity: '4' });
    expect(quantityOf(await fillsOf(trader, hit.id)).toFixed()).toBe('4');

    const partial = await waitFor(() => getOrder(trader, resting.id), (o) => o.status === 'partially_filled');
    expect(partial).toMatchObject({ filled_quantity: '4', remaining_quantity: '6', queue_position: { orders_ahead: 0, quantity_ahead: '0' } });
    expect(D(partial.average_fill_price!).eq(price)).toBe(true);
    const working = await call<{ data: OrderView[] }>(trader.base, 'GET', `/v1/orders?subaccount_id=${maker}&status=working`, { key: trader.secret });
    expect(working.body.data.map((o) => o.id)).toEqual([resting.id]);
    const midway = await portfolioOf(trader, maker);
    expect(D(makerBefore.cash_balance).sub(midway.cash_balance).eq(price.mul(4))).toBe(true);
    expect(D(midway.reserved_cash).eq(price.mul(6))).toBe(true);

    const canceled = await call<OrderView>(trader.base, 'DELETE', `/v1/orders/${resting.id}`, { key: trader.secret });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', filled_quantity: '4', remaining_quantity: '0', queue_position: null });
    const [position] = await positionsOf(trader, maker, gdp.id);
    expect(position).toMatchObject({ side: 'yes', quantity: '4' });
    expect((await portfolioOf(trader, maker)).reserved_cash).toBe('0');
    expectError(await call(trader.base, 'DELETE', `/v1/orders/${resting.id}`, { key: trader.secret }), 409, 'conflict');
  });
});

describe('recording a venue report twice at once', () => {
  // The venue reports a taker's fills twice: pushed to the fill listener and in the answer to
  // placeOrder, and the core records both concurrently. Holding the subaccount's lock while both
  // start makes the interleaving that over HTTP only happens under load certain.
  it('counts the fills once and keeps the order’s totals, whichever recording runs last', async () => {
    const subaccount = await createSubaccount(trader, 'double report');
    const order = await placed(trader, {
      subaccount_id: subaccount, market_id: snow.id, side: 'yes', action: 'buy', type: 'limit', price: '0.03', quantity: '5',
    });
    const before = await portfolioOf(trader, subaccount);
    const venueOrderId = order.venue_order_id!;
    const fill: VenueFill = {
      venueFillId: `${venueOrderId}-left-0`, venueOrderId, clientOrderId: order.id, venueMarketId: snow.venueMarketId,
      side: 'yes', action: 'buy', price: '0.03', quantity: '5', fee: '0.01', isTaker: true, executedAt: new Date().toISOString(),
    };
    const state: VenueOrderState = { venueOrderId, clientOrderId: order.id, status: 'filled', filledQuantity: '5', remainingQuantity: '0' };

    const holder = new Client({ connectionString: databaseUrl() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM subaccounts WHERE id = $1 FOR UPDATE', [subaccount]);
      const both = Promise.all([
        recordExecution(stack.core.db, order.id, { fills: [fill] }),
        recordExecution(stack.core.db, order.id, { fills: [fill], state }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200)); // both are now waiting for the lock
      await holder.query('COMMIT');
      await both;
    } finally {
      await holder.end();
    }

    expect(await getOrder(trader, order.id)).toMatchObject({
      status: 'filled', filled_quantity: '5', remaining_quantity: '0', average_fill_price: '0.03', fees_paid: '0.01',
    });
    expect(await countsOf(stack.core.db, subaccount)).toEqual({ orders: 1, fills: 1, receipts: 1 });
    const [position] = await positionsOf(trader, subaccount, snow.id);
    expect(position).toMatchObject({ quantity: '5', average_cost: '0.03' });
    const after = await portfolioOf(trader, subaccount);
    expect(D(before.cash_balance).sub(after.cash_balance).eq('0.16')).toBe(true);
  });
});
