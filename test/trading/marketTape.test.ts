/**
 * A market's quote, public trades and candles through the public API (issue 29), on the simulated
 * venues: a resting order shows in the quote as in the book, in both outcomes' terms; a crossing
 * order is a trade on the tape with its YES price, size and taker side, moves last_price and the
 * volumes, and lands in the minute's candle.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, expectError, newTrader, placeOrder, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let stranger: Trader;

// The catalog cache off: a market read right after an order shows its quote (the cache's own age is documented).
beforeAll(async () => {
  stack = await startStack(testConfig({ CATALOG_CACHE_MS: '0' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Market tape');
  stranger = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
});
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const get = (path: string, key = trader.secret) => call<Json>(trader.base, 'GET', path, { key });
const privateMarket = async (title: string, venue = 'sim-kalshi') =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue, fair_value: '0.4' } }), 'private market');

it('the quote is the top of the book in YES and NO terms; a trade moves last_price and the volumes and is on the tape and in its candle', async () => {
  const market = await privateMarket('Quoted and traded');
  const sub = await createSubaccount(trader, 'tape trader', '1000');
  const fresh = ok(await get(`/v1/markets/${market.id}`), 'market before');
  expect(fresh).toMatchObject({ last_price: null, volume: '0', volume_24h: '0', open_interest: null, stale: false });
  expect(ok(await get(`/v1/markets/${market.id}/trades`), 'no trades').data).toEqual([]);

  // A resting YES bid one tick above the best bid: the new best bid, and the best NO ask at its complement.
  const before = ok(await get(`/v1/markets/${market.id}/orderbook`), 'book before');
  const restingPrice = D(before.yes.bids[0].price).add('0.01').toFixed();
  expect(D(restingPrice).lt(before.yes.asks[0].price)).toBe(true);
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: restingPrice, quantity: '7' }), 'resting bid');
  const quoted = ok(await get(`/v1/markets/${market.id}`), 'market with the bid');
  const book = ok(await get(`/v1/markets/${market.id}/orderbook?depth=1`), 'book with the bid');
  expect(D(quoted.yes_bid).eq(restingPrice)).toBe(true);
  expect(quoted.yes_bid_size).toBe('7');
  expect([quoted.yes_bid, quoted.yes_ask, quoted.yes_bid_size, quoted.yes_ask_size]).toEqual([book.yes.bids[0].price, book.yes.asks[0].price, book.yes.bids[0].quantity, book.yes.asks[0].quantity]);
  expect([quoted.no_bid, quoted.no_ask, quoted.no_bid_size, quoted.no_ask_size]).toEqual([book.no.bids[0].price, book.no.asks[0].price, book.no.bids[0].quantity, book.no.asks[0].quantity]);
  expect(D(quoted.no_ask).eq(D(1).sub(quoted.yes_bid))).toBe(true);
  expect(D(quoted.no_bid).eq(D(1).sub(quoted.yes_ask))).toBe(true);
  expect(Date.parse(quoted.as_of)).toBeGreaterThanOrEqual(Date.parse(fresh.as_of));

  // Two taker trades: a YES buy at the best ask (its taker bought YES), then, from another
  // subaccount, a NO buy at the complement of the resting bid: it sells YES into that bid, so its
  // taker bought NO, at the bid's YES price.
  const ask = book.yes.asks[0];
  const bought = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: ask.price, quantity: '3', time_in_force: 'ioc' }), 'YES taker');
  expect(bought.status).toBe('filled');
  const other = await createSubaccount(trader, 'tape counterparty', '1000');
  const noPrice = D(1).sub(restingPrice).toFixed();
  const sold = ok(await placeOrder(trader, { subaccount_id: other, market_id: market.id, side: 'no', action: 'buy', type: 'limit', price: noPrice, quantity: '2', time_in_force: 'ioc' }), 'NO taker');
  expect(sold.status).toBe('filled');

  const tape = ok(await get(`/v1/markets/${market.id}/trades`), 'tape');
  expect(tape.data.map((t: Json) => [D(t.price).toFixed(), t.quantity, t.taker_side])).toEqual([
    [D(restingPrice).toFixed(), '2', 'no'],
    [D(ask.price).toFixed(), '3', 'yes'],
  ]);
  for (const trade of tape.data) expect(trade.id).toMatch(/^trd_\d+$/);
  // The client-vs-client trade is one trade, not its maker's and its taker's fills.
  expect(tape.data).toHaveLength(2);

  const traded = ok(await get(`/v1/markets/${market.id}`), 'market after trades');
  expect(D(traded.last_price).eq(restingPrice)).toBe(true);
  expect([traded.volume_24h, traded.volume]).toEqual(['5', '5']);

  const minute = ok(await get(`/v1/markets/${market.id}/candles?interval=1m`), 'candles');
  const candle = minute.candles.find((c: Json) => Date.parse(c.start) <= Date.parse(tape.data[0].executed_at) && Date.parse(tape.data[0].executed_at) < Date.parse(c.end));
  expect(candle).toBeDefined();
  expect(Date.parse(candle.end) - Date.parse(candle.start)).toBe(60_000);
  expect(D(candle.high).gte(D(ask.price).toFixed()) && D(candle.low).lte(restingPrice)).toBe(true);
  expect(D(candle.close).eq(D(tape.data[0].price))).toBe(true);
  const candleVolume = minute.candles.reduce((total: any, c: Json) => total.add(c.volume), D(0));
  expect(candleVolume.toFixed()).toBe('5');
  expect(candle.open_interest).toBeNull();
  const day = ok(await get(`/v1/markets/${market.id}/candles?interval=1d`), 'daily candles');
  expect(day.candles).toHaveLength(1);
  expect(day.candles[0]).toMatchObject({ volume: '5' });
  expect(D(day.candles[0].open).eq(ask.price) && D(day.candles[0].close).eq(restingPrice)).toBe(true);
});

it('the tape pages newest first by cursor and within a window; candles outside the window are empty', async () => {
  const market = await privateMarket('Paged tape', 'sim-polymarket');
  const sub = await createSubaccount(trader, 'pager', '1000');
  for (const quantity of ['5', '6', '7']) {
    // At the best ask as it is now: the market maker moves its quotes after each trade.
    const book = ok(await get(`/v1/markets/${market.id}/orderbook?depth=1`), 'book');
    const taker = ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: book.yes.asks[0].price, quantity, time_in_force: 'ioc' }), `taker ${quantity}`);
    expect(taker.status).toBe('filled');
  }
  const first = ok(await get(`/v1/markets/${market.id}/trades?limit=2`), 'first page');
  expect(first.has_more).toBe(true);
  const second = ok(await get(`/v1/markets/${market.id}/trades?limit=2&cursor=${first.next_cursor}`), 'second page');
  expect(second).toMatchObject({ has_more: false, next_cursor: null });
  const all = [...first.data, ...second.data];
  expect(all.map((t: Json) => t.quantity)).toEqual(['7', '6', '5']);
  expect(new Set(all.map((t: Json) => t.id)).size).toBe(3);
  const oldest = all[2];
  const since = ok(await get(`/v1/markets/${market.id}/trades?since=${encodeURIComponent(all[1].executed_at)}`), 'since');
  expect(since.data.every((t: Json) => Date.parse(t.executed_at) >= Date.parse(all[1].executed_at))).toBe(true);
  const until = ok(await get(`/v1/markets/${market.id}/trades?until=${encodeURIComponent(oldest.executed_at)}`), 'until');
  expect(until.data).toEqual([]);
  const early = ok(await get(`/v1/markets/${market.id}/candles?interval=1h&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`), 'early candles');
  expect(early).toMatchObject({ interval: '1h', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T01:00:00.000Z', candles: [] });
});

it('market search sorts by volume, most traded first, and pages in that order', async () => {
  const quiet = await privateMarket('Zyzzyva ranking quiet');
  const busy = await privateMarket('Zyzzyva ranking busy', 'sim-polymarket');
  const sub = await createSubaccount(trader, 'ranker', '1000');
  const book = ok(await get(`/v1/markets/${busy.id}/orderbook?depth=1`), 'book');
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: busy.id, side: 'yes', action: 'buy', type: 'limit', price: book.yes.asks[0].price, quantity: '5', time_in_force: 'ioc' }), 'busy trade');
  const first = ok(await get('/v1/markets?q=zyzzyva&sort=volume&limit=1'), 'first by volume');
  expect(first.data.map((m: Json) => [m.id, m.volume])).toEqual([[busy.id, '5']]);
  const second = ok(await get(`/v1/markets?q=zyzzyva&sort=volume&limit=1&cursor=${first.next_cursor}`), 'second by volume');
  expect(second.data.map((m: Json) => [m.id, m.volume])).toEqual([[quiet.id, '0']]);
  expect(second.has_more).toBe(false);
  expectError(await get('/v1/markets?sort=price'), 400, 'invalid_request');
  expectError(await get('/v1/markets?sort=volume&cursor=bm90IG91cnM'), 400, 'invalid_request');
});

it('bad windows, intervals and cursors, unknown and another workspace’s markets are refused', async () => {
  const market = await privateMarket('Refusals');
  const base = `/v1/markets/${market.id}`;
  for (const query of ['', '?interval=5m', '?interval=1m&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', '?interval=1m&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z', '?interval=1m&from=yesterday', '?interval=1d&extra=1']) {
    expectError(await get(`${base}/candles${query}`), 400, 'invalid_request');
  }
  for (const query of ['?cursor=bm90IG91cnM', '?limit=0', '?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z', '?cursor=' + Buffer.from(JSON.stringify({ at: 'x', seq: '1' })).toString('base64url')]) {
    expectError(await get(`${base}/trades${query}`), 400, 'invalid_request');
  }
  expectError(await get('/v1/markets/mkt_unknown/trades'), 404, 'not_found');
  expectError(await get(`${base}/trades`, stranger.secret), 404, 'not_found');
  expectError(await get(`${base}/candles?interval=1m`, stranger.secret), 404, 'not_found');
});
