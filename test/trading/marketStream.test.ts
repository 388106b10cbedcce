/**
 * The market-data stream through the public API (issue 29), on the simulated venues: a snapshot,
 * then the delta of a resting order, then a crossing order's delta and trade, in order, each one
 * seq more; a client that was away gets a fresh snapshot; refusals before any stream.
 */
import { testConfig } from '../support/env';
import { call, ok } from '../support/http';
import { MarketStreamClient, type MarketMessage } from '../support/marketStream';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, D, newTrader, placeOrder, type Trader } from './helpers';

let stack: Stack;
let trader: Trader;
let stranger: Trader;
const streams: MarketStreamClient[] = [];

// A long poll: every message below follows a notice of our own orders, not the gateway's own look.
beforeAll(async () => {
  stack = await startStack(testConfig({ MARKET_STREAM_POLL_MS: '60000' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Market stream');
  stranger = await newTrader(stack.core.db, stack.gateways[0]!, 'Someone else');
});
afterEach(() => streams.splice(0).forEach((s) => s.close()));
afterAll(async () => {
  await stack?.close();
});

type Json = Record<string, any>;
const open = async (query: string, key = trader.secret) => {
  const stream = await MarketStreamClient.open(trader.base, key, query);
  streams.push(stream);
  return stream;
};
const privateMarket = async (title: string) =>
  ok(await call<Json>(trader.base, 'POST', '/v1/test_helpers/markets', { key: trader.secret, body: { title, venue: 'sim-kalshi', fair_value: '0.4' } }), 'private market');
const levelAt = (levels: { price: string; quantity: string }[], price: string) => levels.find((l) => D(l.price).eq(price))?.quantity ?? '0';

it('delivers the snapshot, then the resting order’s delta, then a crossing order’s delta and trade, in order; a client that was away gets a fresh snapshot', async () => {
  const market = await privateMarket('Streamed market');
  const sub = await createSubaccount(trader, 'streamer', '1000');
  const stream = await open(`market_ids=${market.id}&depth=5`);
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toContain('text/event-stream');
  const snapshot = await stream.next((m) => m.type === 'snapshot', { what: 'the snapshot' });
  expect(snapshot).toMatchObject({ market_id: market.id, quote: { stale: false, volume: '0' } });
  expect(snapshot.yes.bids.length).toBeLessThanOrEqual(5);
  // The snapshot's book is the book: the same levels as GET .../orderbook at the same depth.
  const book = ok(await call<Json>(trader.base, 'GET', `/v1/markets/${market.id}/orderbook?depth=5`, { key: trader.secret }), 'book');
  expect({ yes: snapshot.yes, no: snapshot.no }).toEqual({ yes: book.yes, no: book.no });

  const restingPrice = D(snapshot.yes.bids[0].price).add('0.01').toFixed();
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: restingPrice, quantity: '7' }), 'resting');
  const delta = await stream.next((m) => m.type === 'delta', { what: 'the resting order’s delta' });
  expect(delta.seq).toBe(snapshot.seq + 1);
  expect(delta.changes).toEqual(expect.arrayContaining([
    { outcome: 'yes', side: 'bid', price: expect.any(String), quantity: '7' },
    { outcome: 'no', side: 'ask', price: expect.any(String), quantity: '7' },
  ]));
  expect(D(delta.changes.find((c: Json) => c.outcome === 'yes' && c.quantity === '7').price).eq(restingPrice)).toBe(true);
  expect(D(delta.changes.find((c: Json) => c.outcome === 'no' && c.quantity === '7').price).eq(D(1).sub(restingPrice))).toBe(true);
  const ticker = await stream.next((m) => m.type === 'ticker', { what: 'the quote’s change' });
  expect(D(ticker.quote.yes_bid).eq(restingPrice)).toBe(true);

  // A crossing order: it takes the best ask (the market maker's), then its book moves and the trade is on the tape.
  const ask = snapshot.yes.asks[0];
  const seen = stream.messages.length;
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: ask.price, quantity: '2', time_in_force: 'ioc' }), 'crossing');
  const trade = await stream.next((m) => m.type === 'trade', { from: seen, what: 'the trade' });
  expect(trade.trade).toMatchObject({ quantity: '2', taker_side: 'yes' });
  expect(D(trade.trade.price).eq(ask.price)).toBe(true);
  const after = stream.messages.slice(seen);
  const crossingDelta = after.find((m) => m.type === 'delta')!;
  expect(crossingDelta).toBeDefined();
  expect(crossingDelta.seq).toBeLessThan(trade.seq); // the book's change, then the trade
  // One connection, one market: every message one seq more than the one before.
  const seqs = stream.messages.map((m) => m.seq);
  expect(seqs).toEqual(seqs.map((_, i) => snapshot.seq + i));

  // Away: the client leaves, the book moves, it comes back: a fresh snapshot with the move in it.
  stream.close();
  const bookBefore = ok(await call<Json>(trader.base, 'GET', `/v1/markets/${market.id}/orderbook?depth=5`, { key: trader.secret }), 'book before');
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: restingPrice, quantity: '3' }), 'while away');
  const back = await open(`market_ids=${market.id}&depth=5`);
  const fresh = await back.next((m) => m.type === 'snapshot', { what: 'the fresh snapshot' });
  expect(D(levelAt(fresh.yes.bids, restingPrice)).toFixed()).toBe(D(levelAt(bookBefore.yes.bids, restingPrice)).add(3).toFixed());
});

it('follows several markets on one connection, each with its own seq', async () => {
  const [a, b] = [await privateMarket('Streamed A'), await privateMarket('Streamed B')];
  const sub = await createSubaccount(trader, 'two markets', '1000');
  const stream = await open(`market_ids=${a.id},${b.id}`);
  const snapshots = await Promise.all([a, b].map((m) => stream.next((msg) => msg.type === 'snapshot' && msg.market_id === m.id)));
  const bid = D(snapshots[1]!.yes.bids[0].price).add('0.01').toFixed();
  ok(await placeOrder(trader, { subaccount_id: sub, market_id: b.id, side: 'yes', action: 'buy', type: 'limit', price: bid, quantity: '4' }), 'on B');
  const delta = await stream.next((m) => m.type === 'delta');
  expect(delta).toMatchObject({ market_id: b.id, seq: snapshots[1]!.seq + 1 });
  expect(stream.messages.filter((m: MarketMessage) => m.market_id === a.id).map((m) => m.type)).toEqual(['snapshot']);
});

it('refuses, before any stream, missing or malformed market ids, too many, and another workspace’s market', async () => {
  const market = await privateMarket('Refused stream');
  for (const query of ['', 'market_ids=', 'market_ids=a,,b', `market_ids=${Array.from({ length: 21 }, () => market.id).join(',')}`, `market_ids=${market.id}&depth=0`, `market_ids=${market.id}&extra=1`]) {
    const refused = await open(query);
    expect([query, refused.status, refused.error?.code, refused.error?.message]).toEqual([query, 400, 'invalid_request', expect.any(String)]);
  }
  for (const ids of ['mkt_unknown', 'nope', `${market.id},mkt_unknown`]) {
    const unknown = await open(`market_ids=${ids}`);
    expect([unknown.status, unknown.error?.code]).toEqual([404, 'not_found']);
  }
  const foreign = await open(`market_ids=${market.id}`, stranger.secret);
  expect([foreign.status, foreign.error?.code]).toEqual([404, 'not_found']);
});
