/**
 * Live Kalshi end to end through the public REST API (issue 11's acceptance), against two Kalshi
 * fakes on loopback (production and demo, docs/kalshi-fake.md) and real PostgreSQL: a `mk_live_`
 * key, a live subaccount with a Kalshi credential attached through the dashboard route, orders
 * through `POST /v1/orders`. What the fake received (signed V2 requests, its order records, fills,
 * balance and positions) is compared with what our API answers, decimals exact.
 *
 * The suite has a database of its own (the start-up catalog sync closes every live Kalshi row the
 * fake does not list). The reconciler is off here, so a fill of a resting order can reach us only
 * through the account's private WebSocket; the REST sweep is exercised in kalshiLiveFaults.test.ts.
 */
import { Decimal } from '../../core/domain/decimals';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call, envelopeOf } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import {
  CREATE_PATH,
  eventually,
  FED,
  HIGH,
  liveCoreSettings,
  liveMarketId,
  liveSubaccount,
  MAKER,
  newLiveTrader,
  placeLive,
  startKalshiFake,
  type LiveTrader,
} from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey(); // production
const carol = newKalshiKey(); // production, another account
const bob = newKalshiKey(); // demo

let production: KalshiFake;
let demo: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let high: string;
let aliceSub: string;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const maker = (fake: KalshiFake, ticker: string, side: 'bid' | 'ask', price: string, count: string) =>
  expect(fake.placeOrderAs(MAKER, v2OrderBody(ticker, { side, price, count }))).toMatchObject({ status: 201 });
/** The fake's order for one of ours: we send our order id as Kalshi's client_order_id. */
const atFake = (fake: KalshiFake, orderId: string) => fake.exchange.allOrders().filter((o) => o.clientOrderId === orderId);
const creates = (fake: KalshiFake, keyId: string) => fake.requestsSignedBy(keyId).filter((r) => r.method === 'POST' && r.path === CREATE_PATH);

beforeAll(async () => {
  production = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }, { userId: 'user-carol', key: carol }]);
  demo = await startKalshiFake('demo', [{ userId: 'user-bob', key: bob }]);
  stack = await startStack(
    testConfig(await liveCoreSettings('kalshi_live', production, { KALSHI_DEMO_URL: demo.baseUrl, KALSHI_DEMO_WS_URL: demo.wsUrl, KALSHI_TIMEOUT_MS: '1000', ORDER_EXPIRY_SWEEP_MS: '100' })),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!);
  [fed, high] = await Promise.all([liveMarketId(stack.core.db, FED), liveMarketId(stack.core.db, HIGH)]);
  aliceSub = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await production?.close();
  await demo?.close();
});

describe('a live key trades on Kalshi (production fake) through REST', () => {
  it('a limit order goes out as a signed V2 create, rests with its queue position, and is canceled at the venue', async () => {
    maker(production, FED, 'bid', '0.4000', '5.00'); // ahead of ours at 0.40
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.40', quantity: '3' });
    expect(placed.status).toBe(200);

    // One signed V2 create, verified by the fake as our key's (the key id claimed is the one whose signature checked).
    const [create, ...more] = creates(production, alice.keyId);
    expect(more).toEqual([]);
    expect(create).toMatchObject({ method: 'POST', path: CREATE_PATH, query: '', keyId: alice.keyId, claimedKeyId: alice.keyId, status: 201 });
    expect(production.requests.filter((r) => r.path.startsWith('/trade-api/v2/portfolio/orders') && r.method !== 'GET')).toEqual([]); // no V1 write
    // The body as the fake parsed it: YES buy = bid at the YES price, 3 contracts, client_order_id = our order id.
    const [order] = atFake(production, placed.body.id);
    expect(order).toMatchObject({ userId: 'user-alice', ticker: FED, bookSide: 'bid', yesPriceTicks: 4000, initialUnits: 300, status: 'resting', selfTradePrevention: 'taker_at_cross' });

    expect(placed.body).toMatchObject({
      venue: 'kalshi', status: 'open', price: '0.4', quantity: '3', filled_quantity: '0', remaining_quantity: '3',
      venue_order_id: order!.orderId, queue_position: { orders_ahead: null, quantity_ahead: '5' },
    });
    expect((await get(`/v1/orders/${placed.body.id}`)).body).toMatchObject({ status: 'open', queue_position: { quantity_ahead: '5' } });

    const canceled = await call(trader.base, 'DELETE', `/v1/orders/${placed.body.id}`, { key: trader.live });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0', queue_position: null });
    expect(order!.status).toBe('canceled');
    expect(production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE').map((r) => [r.path, r.status])).toEqual([[`${CREATE_PATH}/${order!.orderId}`, 200]]);
  });

  it('a market order and a NO order fill against the maker; fills, receipts, positions and portfolio are the venue\u2019s, decimals exact', async () => {
    maker(production, FED, 'ask', '0.5500', '3.00');
    const market = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'market', quantity: '2' });
    expect(market.status).toBe(200);
    const [marketAtFake] = atFake(production, market.body.id);
    // A market order without a worst price is a YES bid at the leg's extreme, immediate-or-cancel.
    expect(marketAtFake).toMatchObject({ bookSide: 'bid', yesPriceTicks: 9900, initialUnits: 200, status: 'executed' });
    // 0.07 x 2 x 0.55 x 0.45 = 0.03465, rounded up to 0.0347.
    expect(market.body).toMatchObject({ status: 'filled', filled_quantity: '2', average_fill_price: '0.55', fees_paid: '0.0347', venue_order_id: marketAtFake!.orderId });

    // NO buy at 0.10 is an ask YES at 0.90; it meets the maker's YES bid at 0.905 (deci-cent, fractional): NO costs 0.095.
    maker(production, HIGH, 'bid', '0.9050', '1.50');
    const no = await placeLive(trader, { subaccount_id: aliceSub, market_id: high, side: 'no', action: 'buy', type: 'limit', price: '0.10', quantity: '1.5' });
    expect(no.status).toBe(200);
    expect(atFake(production, no.body.id)[0]).toMatchObject({ bookSide: 'ask', yesPriceTicks: 9000, initialUnits: 150, status: 'executed' });
    // 0.07 x 1.5 x 0.905 x 0.095 = 0.009027375, rounded up to 0.0091.
    expect(no.body).toMatchObject({ side: 'no', status: 'filled', filled_quantity: '1.5', average_fill_price: '0.095', fees_paid: '0.0091' });

    // Fills: the fake's fill ids, prices in each side's terms, the fake's fee_cost.
    const fakeFills = production.exchange.listFills('user-alice', {});
    const fakeFillOf = (orderId: string) => fakeFills.find((f) => f.clientOrderId === orderId)!;
    const fills = (await get(`/v1/fills?subaccount_id=${aliceSub}`)).body.data;
    expect(fills).toHaveLength(2);
    const byOrder = (orderId: string) => fills.find((f: { order_id: string }) => f.order_id === orderId);
    expect(byOrder(market.body.id)).toMatchObject({ venue: 'kalshi', venue_fill_id: fakeFillOf(market.body.id).fillId, side: 'yes', action: 'buy', price: '0.55', quantity: '2', fee: '0.0347', is_taker: true });
    expect(byOrder(no.body.id)).toMatchObject({ venue_fill_id: fakeFillOf(no.body.id).fillId, side: 'no', action: 'buy', price: '0.095', quantity: '1.5', fee: '0.0091', is_taker: true });
    for (const fill of fills) {
      expect(new Decimal(fill.fee).eq(fakeFills.find((f) => f.fillId === fill.venue_fill_id)!.fee.toString())).toBe(true);
      expect(fill.created_at).toBe(new Date(fakeFills.find((f) => f.fillId === fill.venue_fill_id)!.createdMs).toISOString());
    }

    const [receipt] = (await get(`/v1/receipts?order_id=${market.body.id}`)).body.data;
    expect(receipt.content).toMatchObject({
      venue: 'kalshi', venue_market_id: FED, venue_order_id: marketAtFake!.orderId, order_status: 'filled', average_price: '0.55', fees: '0.0347',
      fills: [{ venue_fill_id: fakeFillOf(market.body.id).fillId, price: '0.55', quantity: '2', fee: '0.0347', is_taker: true }],
    });

    // Positions: ours, marked to the venue's book (FED: the maker's 0.40 bid and 1 left at 0.55: mid 0.475; HIGH: no book).
    const positions = (await get(`/v1/positions?subaccount_id=${aliceSub}`)).body.data;
    expect(positions).toHaveLength(2);
    const positionIn = (marketId: string) => positions.find((p: { market_id: string }) => p.market_id === marketId);
    expect(positionIn(fed)).toMatchObject({ side: 'yes', quantity: '2', average_cost: '0.55', mark_price: '0.475', unrealized_pnl: '-0.15' });
    expect(positionIn(high)).toMatchObject({ side: 'no', quantity: '1.5', average_cost: '0.095', mark_price: null, unrealized_pnl: null });

    // Portfolio: the cash is the venue's balance; its positions compared with ours, no drift.
    const balance = (production.exchange.balanceJson('user-alice') as { balance_dollars: string }).balance_dollars;
    expect(balance).toBe('998.7137'); // 1000 - 2 x 0.55 - 0.0347 - 1.5 x 0.095 - 0.0091
    const venuePositions = production.exchange.positionsJson('user-alice') as { ticker: string; position_fp: string }[];
    expect(venuePositions.map((p) => [p.ticker, p.position_fp]).sort()).toEqual([[FED, '2.00'], [HIGH, '-1.50']]);
    const [portfolio] = (await get(`/v1/portfolio?subaccount_id=${aliceSub}`)).body.data;
    // At cost 2 x 0.55 + 1.5 x 0.095 = 1.2425; marked 2 x 0.475 + 1.5 x 0.095 (HIGH unmarked: at cost) = 1.0925; fees are the realized loss.
    expect(portfolio).toMatchObject({
      cash_balance: balance, available_cash: balance, reserved_cash: '0', positions_cost: '1.2425', positions_value: '1.0925',
      unrealized_pnl: '-0.15', realized_pnl: '-0.0438', equity: '999.8062',
    });
    expect(portfolio.venue_accounts).toEqual([
      {
        venue: 'kalshi',
        balance,
        in_sync: true,
        positions: [
          { market_id: fed, venue_market_id: FED, venue_net_yes: '2', our_net_yes: '2', drift: '0' },
          { market_id: high, venue_market_id: HIGH, venue_net_yes: '-1.5', our_net_yes: '-1.5', drift: '0' },
        ],
        settlements: [], // nothing settled yet, at the venue or here
      },
    ]);
  });

  it('the market around the order is Kalshi\u2019s: the quote is the top of its book, the tape its public trades, the candles its candlesticks', async () => {
    maker(production, FED, 'bid', '0.4100', '4.00');
    const quoted = (await get(`/v1/markets/${fed}`)).body;
    const book = (await get(`/v1/markets/${fed}/orderbook?depth=1`)).body;
    expect(quoted.stale).toBe(false);
    expect([quoted.yes_bid, quoted.yes_ask].map(Number)).toEqual([Number(book.yes.bids[0].price), Number(book.yes.asks[0].price)]);
    expect([quoted.no_bid, quoted.no_ask].map(Number)).toEqual([Number(book.no.bids[0].price), Number(book.no.asks[0].price)]);
    expect([quoted.yes_bid_size, quoted.yes_ask_size].map(Number)).toEqual([Number(book.yes.bids[0].quantity), Number(book.yes.asks[0].quantity)]);

    const raw = (await (await fetch(`${production.baseUrl}/markets/trades?ticker=${FED}`)).json()) as { trades: Record<string, string>[] };
    expect(raw.trades.length).toBeGreaterThan(0);
    const tape = (await get(`/v1/markets/${fed}/trades`)).body;
    expect(tape.data.map((t: Record<string, string>) => [t.id, Number(t.price), Number(t.quantity), t.taker_side])).toEqual(
      raw.trades.map((t) => [t.trade_id, Number(t.yes_price_dollars), Number(t.count_fp), t.taker_side]),
    );
    expect(Number(quoted.last_price)).toBe(Number(raw.trades[0]!.yes_price_dollars));

    const candles = (await get(`/v1/markets/${fed}/candles?interval=1m`)).body;
    const volume = candles.candles.reduce((total: Decimal, c: { volume: string }) => total.add(c.volume), new Decimal(0));
    expect(volume.toFixed()).toBe(raw.trades.reduce((total, t) => total.add(t.count_fp), new Decimal(0)).toFixed());
  });

  it('the venue\u2019s own changes come through the private stream: a cancel made at Kalshi, then a fill by another participant within 2 s', async () => {
    // A cancel made at the venue (not through us) reaches us only through the stream's user_orders
    // channel (the reconciler is off): once it shows, the stream is subscribed.
    const resting = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.20', quantity: '1' });
    expect(production.cancelOrderAs('user-alice', resting.body.venue_order_id)).toMatchObject({ status: 200 });
    await eventually('the venue-side cancel through the stream', async () => ((await get(`/v1/orders/${resting.body.id}`)).body.status === 'canceled' ? true : undefined));

    // Our bid at 0.45 is the best: the maker's own bid at 0.40 sits below it (the maker would not trade with itself).
    const ours = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '4' });
    expect(ours.body).toMatchObject({ status: 'open' });
    maker(production, FED, 'ask', '0.4500', '3.00'); // trades 3 against our resting bid
    const [fakeFill] = production.exchange.listFills('user-alice', { orderId: ours.body.venue_order_id });
    const fills = await eventually('the streamed fill in GET /v1/fills', async () => {
      const listed = (await get(`/v1/fills?order_id=${ours.body.id}`)).body.data;
      return listed.length > 0 ? listed : undefined;
    }, 2000);
    // Maker fees are not charged on a quadratic series.
    expect(fills).toEqual([expect.objectContaining({ venue_fill_id: fakeFill!.fillId, side: 'yes', action: 'buy', price: '0.45', quantity: '3', fee: '0', is_taker: false })]);
    expect((await get(`/v1/orders/${ours.body.id}`)).body).toMatchObject({ status: 'partially_filled', filled_quantity: '3', remaining_quantity: '1' });
    // Not by REST: nothing read the account's fills after the trade.
    expect(production.requestsSignedBy(alice.keyId).filter((r) => r.path === '/trade-api/v2/portfolio/fills' && r.atMs >= fakeFill!.createdMs)).toEqual([]);
  });
});

describe('whose key signs what, and where it goes', () => {
  it('a demo credential trades at the demo URL, a production one at the production URL; each subaccount\u2019s orders are signed with its own key', async () => {
    const carolSub = await liveSubaccount(trader, 'carol', { key: carol, environment: 'production' });
    const bobSub = await liveSubaccount(trader, 'bob', { key: bob, environment: 'demo' });
    const order = (subaccount: string, price: string) => placeLive(trader, { subaccount_id: subaccount, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' });
    // Interleaved and concurrent: a shared signer or client would show as an order in the wrong account.
    const placed = await Promise.all([aliceSub, carolSub, bobSub, aliceSub, carolSub, bobSub].map((subaccount, i) => order(subaccount, `0.0${i + 1}`)));
    expect(placed.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(placed.map((p) => p.body.status)).toEqual(['open', 'open', 'open', 'open', 'open', 'open']);

    const accountOf = (fake: KalshiFake, orderId: string) => atFake(fake, orderId).map((o) => o.userId);
    expect(placed.map((p) => [accountOf(production, p.body.id), accountOf(demo, p.body.id)])).toEqual([
      [['user-alice'], []], [['user-carol'], []], [[], ['user-bob']],
      [['user-alice'], []], [['user-carol'], []], [[], ['user-bob']],
    ]);
    // Every request a fake got was signed by the key it claimed; the demo key never reached production, nor the production keys demo.
    for (const fake of [production, demo]) {
      for (const request of fake.requests.filter((r) => r.claimedKeyId !== null)) expect(request.keyId).toBe(request.claimedKeyId);
    }
    expect(production.requests.filter((r) => r.claimedKeyId === bob.keyId)).toEqual([]);
    expect(demo.requests.filter((r) => r.claimedKeyId === alice.keyId || r.claimedKeyId === carol.keyId)).toEqual([]);
    expect(creates(demo, bob.keyId)).toHaveLength(2);
    expect(creates(production, carol.keyId)).toHaveLength(2);
    // Each stream too: the demo account's private WebSocket was opened at demo, with bob's key.
    await eventually('the demo stream', async () => (demo.requestsSignedBy(bob.keyId).some((r) => r.path === '/trade-api/ws/v2' && r.status === 101) ? true : undefined));
  });
});

describe('amending a live order (issue 30)', () => {
  const amendLive = (id: string, body: Record<string, string>) => call<any>(trader.base, 'PATCH', `/v1/orders/${id}`, { key: trader.live, body });
  const writes = (suffix: string) => production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST' && r.path.startsWith(`${CREATE_PATH}/`) && r.path.endsWith(suffix));

  it('a size decrease goes as V2 decrease and keeps the queue place; a new price as V2 amend; one order at Kalshi throughout', async () => {
    maker(production, HIGH, 'bid', '0.2000', '5.00'); // ahead of ours at 0.20
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price: '0.20', quantity: '6' });
    expect(placed.body).toMatchObject({ status: 'open', queue_position: { quantity_ahead: '5' } });
    const decreasesBefore = writes('/decrease').length;
    const smaller = await amendLive(placed.body.id, { quantity: '4' });
    expect(smaller.status).toBe(200);
    expect(smaller.body).toMatchObject({ quantity: '4', remaining_quantity: '4', price: '0.2', venue_order_id: placed.body.venue_order_id, queue_position: { quantity_ahead: '5' } });
    expect(writes('/decrease')).toHaveLength(decreasesBefore + 1);
    expect(atFake(production, placed.body.id)).toEqual([expect.objectContaining({ remainingUnits: 400, yesPriceTicks: 2000, status: 'resting' })]);

    const amendsBefore = writes('/amend').length;
    const moved = await amendLive(placed.body.id, { price: '0.21', quantity: '5' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ quantity: '5', price: '0.21', status: 'open', venue_order_id: placed.body.venue_order_id, queue_position: { quantity_ahead: '0' } });
    expect(writes('/amend')).toHaveLength(amendsBefore + 1);
    expect(atFake(production, placed.body.id)).toEqual([expect.objectContaining({ remainingUnits: 500, yesPriceTicks: 2100, status: 'resting' })]);
    await call(trader.base, 'DELETE', `/v1/orders/${placed.body.id}`, { key: trader.live });
  });

  it('a lost amend answer is read, not re-sent; an answer describing another order is not believed', async () => {
    const first = await placeLive(trader, { subaccount_id: aliceSub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '3' });
    const other = await placeLive(trader, { subaccount_id: aliceSub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price: '0.11', quantity: '7' });
    const amendsBefore = writes('/amend').length;
    production.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: `${CREATE_PATH}/${first.body.venue_order_id}/amend`, times: 1 });
    const lost = await amendLive(first.body.id, { price: '0.12' });
    expect(lost.status).toBe(200);
    expect(lost.body).toMatchObject({ price: '0.12', quantity: '3', status: 'open' });
    expect(writes('/amend')).toHaveLength(amendsBefore + 1); // sent once: its outcome was read
    expect(atFake(production, first.body.id)).toEqual([expect.objectContaining({ yesPriceTicks: 1200, remainingUnits: 300 })]);

    production.injectWrongOrderAnswer({ pathPrefix: `${CREATE_PATH}/${first.body.venue_order_id}/amend` });
    const misdescribed = await amendLive(first.body.id, { price: '0.13', quantity: '4' });
    expect(misdescribed.body).toMatchObject({ id: first.body.id, price: '0.13', quantity: '4', venue_order_id: first.body.venue_order_id });
    expect((await get(`/v1/orders/${other.body.id}`)).body).toMatchObject({ price: '0.11', quantity: '7', status: 'open' });
    expect(atFake(production, other.body.id)).toEqual([expect.objectContaining({ yesPriceTicks: 1100, remainingUnits: 700 })]);
    for (const id of [first.body.id, other.body.id]) await call(trader.base, 'DELETE', `/v1/orders/${id}`, { key: trader.live });
  });
});

describe('cancel many on Kalshi (issue 30)', () => {
  const batchedCancels = () => production.requestsSignedBy(alice.keyId).filter((r) => r.method === 'DELETE' && r.path === `${CREATE_PATH}/batched`);
  const cancelMany = (query: string) => call<any>(trader.base, 'DELETE', `/v1/orders?${query}`, { key: trader.live });

  it("one market's resting orders go in one V2 batched cancel; a lost answer is read again, never lost, and nothing is canceled twice", async () => {
    const sub = await liveSubaccount(trader, 'cancel many', { key: alice, environment: 'production' });
    const here = [];
    for (const price of ['0.03', '0.04', '0.05']) here.push((await placeLive(trader, { subaccount_id: sub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' })).body.id as string);
    const elsewhere = (await placeLive(trader, { subaccount_id: sub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.03', quantity: '1' })).body.id as string;
    const before = batchedCancels().length;
    const first = await cancelMany(`subaccount_id=${sub}&market_id=${high}&side=yes`);
    expect(first.status).toBe(200);
    expect(first.body.canceled.map((o: { id: string }) => o.id).sort()).toEqual([...here].sort());
    expect(first.body.failed).toEqual([]);
    expect(batchedCancels()).toHaveLength(before + 1);
    for (const id of here) expect(atFake(production, id).map((o) => o.status)).toEqual(['canceled']);
    expect(atFake(production, elsewhere).map((o) => o.status)).toEqual(['resting']);

    // The batch's answer lost after Kalshi canceled: the orders are reported not known, then found canceled.
    const more = [];
    for (const price of ['0.03', '0.04']) more.push((await placeLive(trader, { subaccount_id: sub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' })).body.id as string);
    production.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'DELETE', pathPrefix: `${CREATE_PATH}/batched`, times: 1 });
    const lost = await cancelMany(`subaccount_id=${sub}&market_id=${high}`);
    expect(lost.body.canceled).toEqual([]);
    expect(lost.body.failed.map((f: { code: string }) => f.code)).toEqual(['venue_unavailable', 'venue_unavailable']);
    for (const id of more) expect(atFake(production, id).map((o) => o.status)).toEqual(['canceled']);
    // Recorded canceled by whichever comes first: the private stream's cancels, or the next request finding them canceled at Kalshi.
    const again = await cancelMany(`subaccount_id=${sub}&market_id=${high}`);
    expect(again.body.failed).toEqual([]);
    expect(more).toEqual(expect.arrayContaining(again.body.canceled.map((o: { id: string }) => o.id)));
    for (const id of more) await eventually(`order ${id} recorded canceled`, async () => ((await get(`/v1/orders/${id}`)).body.status === 'canceled' ? true : undefined));
    for (const id of [...here, ...more]) expect(atFake(production, id)).toHaveLength(1);
    await call(trader.base, 'DELETE', `/v1/orders/${elsewhere}`, { key: trader.live });
  });
});

describe('a batch of live orders (issue 30)', () => {
  it("a create answer lost inside a batch leaves that order unknown; the retry with the batch's key reconciles it: one order at Kalshi each", async () => {
    const sub = await liveSubaccount(trader, 'batch', { key: alice, environment: 'production' });
    const orders = ['0.02', '0.03', '0.04'].map((price) => ({ subaccount_id: sub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price, quantity: '1' }));
    const headers = { 'Idempotency-Key': `batch-${sub}` };
    const before = creates(production, alice.keyId).length;
    // The batch's first create acts at Kalshi, and its answer is dropped.
    production.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: CREATE_PATH, times: 1 });
    const first = await call<any>(trader.base, 'POST', '/v1/orders/batch', { key: trader.live, body: { orders }, headers });
    expect(first.status).toBe(200);
    expect(first.body.data.map((entry: { order: { status: string } | null }) => entry.order?.status)).toEqual(['unknown', 'open', 'open']);
    // The answer was not stored (an order's fate unknown): the retry runs again, finds each order by its derived id, sends only the unknown one again (same client order id).
    const retry = await call<any>(trader.base, 'POST', '/v1/orders/batch', { key: trader.live, body: { orders }, headers });
    expect(retry.status).toBe(200);
    expect(retry.body.data.map((entry: { order: { status: string } | null }) => entry.order?.status)).toEqual(['open', 'open', 'open']);
    const ids = retry.body.data.map((entry: { order: { id: string } }) => entry.order.id);
    expect(ids).toEqual(first.body.data.map((entry: { order: { id: string } }) => entry.order.id));
    for (const id of ids) expect(atFake(production, id)).toHaveLength(1);
    // Three creates, and the unknown one sent again (more than once on a slow machine, each time with its client order id, which Kalshi answers 409 for): never a second order.
    expect(creates(production, alice.keyId).length - before).toBeGreaterThanOrEqual(4);
    await call(trader.base, 'DELETE', `/v1/orders?subaccount_id=${sub}`, { key: trader.live });
  });
});

describe('errors a live trader can act on', () => {
  it('a post-only order is sent as one: it rests below the ask; at the ask Kalshi refuses it (400, param post_only) and holds nothing', async () => {
    maker(production, FED, 'ask', '0.6300', '2.00');
    const ask = (await get(`/v1/markets/${fed}/orderbook?depth=1`)).body.yes.asks[0].price as string;
    const rests = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '1', post_only: true });
    expect(rests.body).toMatchObject({ status: 'open', post_only: true });
    const crossing = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: ask, quantity: '1', post_only: true });
    expect([crossing.status, envelopeOf(crossing).code, envelopeOf(crossing).param]).toEqual([400, 'invalid_request', 'post_only']);
    expect(envelopeOf(crossing).message).toContain('post only cross');
    const [refused] = (await get(`/v1/orders?subaccount_id=${aliceSub}&status=rejected`)).body.data.filter((o: { post_only: boolean }) => o.post_only);
    expect(atFake(production, refused.id)).toEqual([]);
    await call(trader.base, 'DELETE', `/v1/orders/${rests.body.id}`, { key: trader.live });
  });

  it('a gtd order is sent with Kalshi\'s expiration_time (its second, rounded up) and ends expired when Kalshi takes it off the book', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.06', quantity: '2', expires_at: expiresAt });
    expect(placed.body).toMatchObject({ status: 'open', time_in_force: 'gtd', expires_at: expiresAt });
    const [atVenue, ...more] = atFake(production, placed.body.id);
    expect(more).toEqual([]);
    expect(atVenue).toMatchObject({ expirationTime: Math.ceil(Date.parse(expiresAt) / 1000) });
    const ended = await eventually('the order expired', async () => {
      const now = (await get(`/v1/orders/${placed.body.id}`)).body;
      return now.status === 'open' ? undefined : now;
    }, 20_000);
    expect(ended).toMatchObject({ status: 'expired', filled_quantity: '0' });
    expect(atFake(production, placed.body.id).map((o) => o.status)).toEqual(['canceled']);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
  });

  it('no credentials: 403 naming the fix; nothing recorded or sent', async () => {
    const bare = await liveSubaccount(trader, 'bare');
    const before = production.requests.length;
    const refused = await placeLive(trader, { subaccount_id: bare, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.40', quantity: '1' });
    expect(refused.status).toBe(403);
    expect(envelopeOf(refused)).toMatchObject({ code: 'forbidden' });
    expect(envelopeOf(refused).message).toBe(`Subaccount '${bare}' has no kalshi credentials; attach them in the dashboard to trade live.`);
    expect(await stack.core.db.order.count({ where: { subaccountId: bare } })).toBe(0);
    expect(production.requests.length).toBe(before);
  });

  it('a price off the market\u2019s price_ranges: 400 naming price, nothing sent', async () => {
    const before = production.requests.length;
    const refused = await placeLive(trader, { subaccount_id: aliceSub, market_id: high, side: 'yes', action: 'buy', type: 'limit', price: '0.105', quantity: '1' });
    expect(refused.status).toBe(400);
    expect(envelopeOf(refused)).toMatchObject({ code: 'invalid_request', param: 'price' });
    expect(envelopeOf(refused).message).toMatch(/0\.1 to 0\.9 in steps of 0\.01/);
    expect(production.requests.length).toBe(before);
  });

  it('Kalshi unreachable: 503 venue_unavailable and no order is kept, since nothing was sent; a retry with the same key tries again', async () => {
    // Last in the file: the demo fake is stopped, so the demo credential's calls cannot connect.
    const bobSub = (await get('/v1/subaccounts')).body.data.find((s: { name: string }) => s.name === 'bob').id as string;
    const ordersBefore = await stack.core.db.order.count({ where: { subaccountId: bobSub } });
    await demo.close();
    const order = { subaccount_id: bobSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.10', quantity: '1' } as const;
    const refused = await placeLive(trader, order, { 'Idempotency-Key': 'bob-unreachable' });
    expect(refused.status).toBe(503);
    expect(envelopeOf(refused)).toMatchObject({ code: 'venue_unavailable' });
    expect(envelopeOf(refused).message).toMatch(/^The order was not placed: Kalshi could not be reached/);
    expect(await stack.core.db.order.count({ where: { subaccountId: bobSub } })).toBe(ordersBefore);
    // Not a replay of the first answer, nor an old row: the retry is carried out again, and fails the same way.
    const again = await placeLive(trader, order, { 'Idempotency-Key': 'bob-unreachable' });
    expect(again.status).toBe(503);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await stack.core.db.order.count({ where: { subaccountId: bobSub } })).toBe(ordersBefore);
  });
});
