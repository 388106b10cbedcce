/**
 * A live complex order split across Kalshi and Polymarket (issue 14's acceptance: "a live complex
 * order split across Kalshi and Polymarket fakes executes as previewed; its execution report and
 * analytics are computed from venue fills"), through the public REST API against both fakes
 * (docs/kalshi-fake.md, docs/polymarket-fake.md) and real PostgreSQL.
 *
 * One live subaccount holds a Kalshi key and a Polymarket wallet key (the API credentials derived
 * with L1 auth when the account opens). The Kalshi market comes in by the start-up catalog sync,
 * the Polymarket listing of the same question is the row the Gamma sync writes, and the operator
 * links the two with the CLI (`questions link`, a real process on the compiled dist/). Both books
 * are such that a sweep of 10 splits: 3 on Kalshi at 0.50, 7 on Polymarket at 0.52. The children
 * each fake received are compared with the preview, and the parent's figures, its execution
 * report and the execution analytics with the fills each fake recorded.
 *
 * A database of its own: the complex-order scheduler claims every working parent of its database.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import type { KalshiFake } from '../../fakes/kalshi/server';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { testConfig } from '../support/env';
import { call, type ApiResponse } from '../support/http';
import { newKalshiKey } from '../support/kalshiKeys';
import { v2OrderBody } from '../support/kalshiOrders';
import { CREATE_PATH, FED as KALSHI_FED, liveCoreSettings, liveMarketId, liveSubaccount, MAKER, newLiveTrader, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { clobMaker } from '../support/polymarketClob';
import { insertLivePolymarketMarket, newPolymarketTrader, PM_FED } from '../support/polymarketLive';
import { runProcess } from '../support/processes';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey();
const wallet = newPolymarketTrader(); // her Polymarket wallet: attached with its key only
const maker = clobMaker();

let kalshi: KalshiFake;
let clob: PolymarketFake;
let stack: Stack;
let trader: LiveTrader;
let kalshiMarket: string;
let polymarketMarket: string;
let sub: string;

const D = (value: Decimal.Value) => new Decimal(value);
const ok = <T = any>(response: ApiResponse<T>, what: string): T => {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};
const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const ourPolymarketAccount = () => clob.exchange.accountsOwnedBy(wallet.address)[0]!;
const polymarketPosts = () => clob.requests.filter((r) => r.method === 'POST' && r.path === '/order' && r.apiKey !== maker.account.apiKey);
const kalshiCreates = () => kalshi.requestsSignedBy(alice.keyId).filter((r) => r.method === 'POST' && r.path === CREATE_PATH);

beforeAll(async () => {
  kalshi = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  clob = await PolymarketFake.start({ accounts: [maker.account] });
  clob.exchange.wallets.seedCollateral(wallet.address, '1000');
  const settings = await liveCoreSettings('cross_venue_complex', kalshi, {
    POLYMARKET_CLOB_URL: clob.baseUrl,
    POLYMARKET_DATA_API_URL: clob.dataApiUrl,
    POLYMARKET_CHAIN_ID: '80002',
    POLYMARKET_TIMEOUT_MS: '2000',
    KALSHI_TIMEOUT_MS: '2000',
    SCHEDULER_ENABLED: 'true',
    SCHEDULER_INTERVAL_MS: '50',
  });
  stack = await startStack(testConfig(settings));
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'cross-venue complex orders');
  kalshiMarket = await liveMarketId(stack.core.db, KALSHI_FED);
  polymarketMarket = await insertLivePolymarketMarket(stack.core.db, PM_FED, 'Will the Fed funds upper bound be above 4.00% after December 2026?');

  // The operator links the two listings of the question, with the CLI.
  const linked = await runProcess('bin/cli.ts', ['questions', 'link', '--kalshi', KALSHI_FED, '--polymarket', PM_FED.venueMarketId, '--by', 'ops'], { DATABASE_URL: settings.DATABASE_URL, LOG_LEVEL: 'silent' });
  expect([linked.code, linked.stderr]).toEqual([0, '']);
  expect(linked.stdout).toContain(KALSHI_FED);

  sub = await liveSubaccount(trader, 'both venues', { key: alice, environment: 'production' });
  const attached = await call(trader.base, 'PUT', `/v1/subaccounts/${sub}/credentials/polymarket`, {
    key: trader.dashboard,
    headers: { 'x-environment': 'live' },
    body: { private_key: wallet.privateKey },
  });
  ok(attached, 'attach the Polymarket wallet');

  // Kalshi: 3 offered at 0.50, a bid at 0.44. Polymarket (YES token): 20 offered at 0.52, a bid at 0.45.
  expect(kalshi.placeOrderAs(MAKER, v2OrderBody(KALSHI_FED, { side: 'ask', price: '0.5000', count: '3.00' }))).toMatchObject({ status: 201 });
  expect(kalshi.placeOrderAs(MAKER, v2OrderBody(KALSHI_FED, { side: 'bid', price: '0.4400', count: '5.00' }))).toMatchObject({ status: 201 });
  await maker.rest(clob, { tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.52', size: '20' });
  await maker.rest(clob, { tokenId: PM_FED.yesTokenId, side: 'BUY', price: '0.45', size: '10' });
}, 90_000);

afterAll(async () => {
  await stack?.close();
  await Promise.all([kalshi?.close(), clob?.close()]);
});

describe('a live sweep across Kalshi and Polymarket for a linked question', () => {
  const body = () => ({ subaccount_id: sub, market_id: kalshiMarket, side: 'yes', action: 'buy', quantity: '10', strategy: 'sweep' });

  it('executes as previewed: one child at each fake with the previewed venue, quantity and price; figures, report and analytics are the venues’ fills', async () => {
    const preview = ok(await call(trader.base, 'POST', '/v1/complex_orders/preview', { key: trader.live, body: body() }), 'preview');
    expect(preview.market_ids_by_venue).toEqual({ kalshi: kalshiMarket, polymarket: polymarketMarket });
    const planned = preview.plan.recommended;
    const plannedChildren = planned.children.map((c: { venue: string; quantity: string; price: string }) => [c.venue, c.quantity, c.price]).sort();
    expect(plannedChildren).toEqual([['kalshi', '3', '0.5'], ['polymarket', '7', '0.52']]);
    expect(planned.impact.expected_filled_quantity).toBe('10');
    expect(preview.plan.arrival_mid).toBe('0.475');

    const placed = ok(await call(trader.base, 'POST', '/v1/complex_orders', { key: trader.live, body: body(), headers: { 'Idempotency-Key': randomUUID() } }), 'place');
    expect(placed).toMatchObject({ status: 'completed', strategy: 'sweep', quantity: '10', filled_quantity: '10', arrival_mid: '0.475' });

    // The children as planned, each sent as one order to its venue.
    const children = ok(await get(`/v1/complex_orders/${placed.id}/children`), 'children').data as any[];
    expect(children.map((c) => [c.venue, c.quantity, c.price]).sort()).toEqual(plannedChildren);
    for (const child of children) expect(child).toMatchObject({ status: 'sent', order: { status: 'filled', filled_quantity: child.quantity } });
    const kalshiChild = children.find((c) => c.venue === 'kalshi')!;
    const polymarketChild = children.find((c) => c.venue === 'polymarket')!;

    // Kalshi's side: one signed V2 create, the child's order id as client_order_id, a YES bid at 0.50 for 3.
    expect(kalshiCreates()).toHaveLength(1);
    const kalshiOrders = kalshi.exchange.allOrders().filter((o) => o.userId === 'user-alice');
    expect(kalshiOrders).toHaveLength(1);
    expect(kalshiOrders[0]).toMatchObject({ clientOrderId: kalshiChild.order.id, ticker: KALSHI_FED, bookSide: 'bid', yesPriceTicks: 5000, initialUnits: 300, status: 'executed' });
    const kalshiFills = kalshi.exchange.listFills('user-alice', { orderId: kalshiOrders[0]!.orderId });

    // Polymarket's side: one signed order (verified by the fake), a BUY of the YES token at 0.52 for 7, under the hash we hold.
    expect(polymarketPosts().map((r) => r.status)).toEqual([200]);
    const pmOrders = clob.exchange.allOrders().filter((o) => o.makerAddress.toLowerCase() === wallet.address.toLowerCase());
    expect(pmOrders).toHaveLength(1);
    expect(pmOrders[0]).toMatchObject({ id: polymarketChild.order.venue_order_id, side: 'BUY', price: '0.52', originalUnits: 700, matchedUnits: 700, status: 'MATCHED', token: { tokenId: PM_FED.yesTokenId } });
    const pmTrades = (clob.exchange.tradesFor(ourPolymarketAccount(), new URLSearchParams()).body as { data: { price: string; size: string; fee_rate_bps: string; trader_side: string }[] }).data;
    expect(pmTrades.map((t) => [t.trader_side, t.size, t.price])).toEqual([['TAKER', '7', '0.52']]);

    // Our fills are the fakes' fills, one for one.
    const fills = ok(await get(`/v1/fills?subaccount_id=${sub}`), 'fills').data as any[];
    expect(fills.filter((f) => f.venue === 'kalshi').map((f) => f.venue_fill_id).sort()).toEqual(kalshiFills.map((f) => f.fillId).sort());
    expect(fills.filter((f) => f.venue === 'polymarket').map((f) => [f.quantity, f.price, f.is_taker])).toEqual(pmTrades.map((t) => [t.size, t.price, true]));

    // The venues' own figures: notional and fees (Kalshi's taker fee; Polymarket charges none here).
    const venueFills = [
      ...kalshiFills.map((f) => ({ venue: 'kalshi', price: D(f.yesPriceTicks).div(10_000), quantity: D(f.units).div(100), fee: D(f.fee.toString()) })),
      ...pmTrades.map((t) => ({ venue: 'polymarket', price: D(t.price), quantity: D(t.size), fee: D(0) })),
    ];
    const sum = (items: typeof venueFills, of: (f: (typeof venueFills)[number]) => Decimal) => items.reduce((total, f) => total.add(of(f)), D(0));
    const quantity = sum(venueFills, (f) => f.quantity);
    const notional = sum(venueFills, (f) => f.price.mul(f.quantity));
    const fees = sum(venueFills, (f) => f.fee);
    const average = notional.div(quantity);
    expect(quantity.eq(10)).toBe(true);
    expect(average.eq('0.514')).toBe(true); // (3 x 0.50 + 7 x 0.52) / 10
    expect(fees.gt(0)).toBe(true);
    expect(D(placed.average_fill_price).eq(average)).toBe(true);
    expect(D(placed.fees_paid).eq(fees)).toBe(true);

    // The execution report: from the fills; impact = (average - mid) x 10 = (0.514 - 0.475) x 10 = 0.39 over the arrival mid.
    const report = ok(await get(`/v1/complex_orders/${placed.id}/execution_report`), 'report');
    expect(report).toMatchObject({ filled_quantity: '10', fill_rate: '1', arrival_price: '0.475' });
    expect(D(report.average_execution_price).eq(average)).toBe(true);
    expect(D(report.total_fees).eq(fees)).toBe(true);
    expect(report.implementation_shortfall).toMatchObject({ delay_cost: '0', opportunity_cost: '0' });
    expect(D(report.implementation_shortfall.market_impact_cost).eq(notional.sub(D('0.475').mul(quantity)))).toBe(true);
    expect(D(report.implementation_shortfall.total_cost).eq(notional.sub(D('0.475').mul(quantity)).add(fees))).toBe(true);
    const byVenue = Object.fromEntries((report.venues as any[]).map((v) => [v.venue, v]));
    for (const venue of ['kalshi', 'polymarket']) {
      const own = venueFills.filter((f) => f.venue === venue);
      const ownQuantity = sum(own, (f) => f.quantity);
      expect(D(byVenue[venue].filled_quantity).eq(ownQuantity)).toBe(true);
      expect(D(byVenue[venue].average_execution_price).eq(sum(own, (f) => f.price.mul(f.quantity)).div(ownQuantity))).toBe(true);
      expect(D(byVenue[venue].fees).eq(sum(own, (f) => f.fee))).toBe(true);
    }

    // The execution analytics over this subaccount: the one order, realized from the same fills, by venue too.
    const analytics = ok(await get(`/v1/analytics/execution?subaccount_id=${sub}`), 'analytics');
    expect(analytics.overall).toMatchObject({ complex_order_count: 1, intended_quantity: '10', predicted_filled_quantity: '10', filled_quantity: '10' });
    expect(D(analytics.overall.fill_rate).eq(1)).toBe(true);
    // The error of the predicted average, in bps (docs/execution-analytics.md), from the venues' fills: overall
    // against the plan's expected average, by venue against its children's expected notional / quantity.
    const errorBps = (realized: Decimal, predicted: Decimal) => realized.sub(predicted).mul(10_000).div(predicted);
    const expectBps = (reported: string, expected: Decimal) => expect(D(reported).sub(expected).abs().lte('0.005')).toBe(true);
    expect(analytics.overall.price_error_count).toBe(1);
    expectBps(analytics.overall.price_error_mean_bps, errorBps(average, D(planned.impact.expected_average_price)));
    const analyticsByVenue = Object.fromEntries((analytics.by_venue as any[]).map((v) => [v.venue, v]));
    for (const venue of ['kalshi', 'polymarket']) {
      const own = venueFills.filter((f) => f.venue === venue);
      const ownQuantity = sum(own, (f) => f.quantity);
      const plannedChild = planned.children.find((c: { venue: string }) => c.venue === venue);
      expect(analyticsByVenue[venue]).toMatchObject({ child_order_count: 1, intended_quantity: plannedChild.quantity, predicted_filled_quantity: plannedChild.expected_filled_quantity, price_error_count: 1 });
      expect(D(analyticsByVenue[venue].filled_quantity).eq(ownQuantity)).toBe(true);
      expectBps(analyticsByVenue[venue].price_error_mean_bps, errorBps(sum(own, (f) => f.price.mul(f.quantity)).div(ownQuantity), D(plannedChild.expected_notional).div(plannedChild.expected_filled_quantity)));
      // What the venue charged is what the plan expected.
      expect(sum(own, (f) => f.fee).eq(plannedChild.expected_fees)).toBe(true);
    }
    console.log(
      `cross-venue sweep of 10 (preview ${JSON.stringify(plannedChildren)}): Kalshi fake ${kalshiFills.length} fill(s) = 3 at 0.50, fees ${fees.toFixed()}; ` +
        `Polymarket fake ${pmTrades.length} trade(s) = 7 at 0.52; average ${average.toFixed()}, report market impact ${report.implementation_shortfall.market_impact_cost}, total cost ${report.implementation_shortfall.total_cost}; ` +
        `analytics price error ${analytics.overall.price_error_mean_bps} bps`,
    );
  }, 60_000);
});
