/**
 * Live positions are marked to the book of the venue environment their account trades on
 * (core/services/risk/positions.ts), as a simulated position is marked to the simulated venue it trades
 * on: a Kalshi demo credential's positions to demo's book, a production credential's to
 * production's, whatever environment the catalog is synced from (KALSHI_CATALOG_ENVIRONMENT,
 * production here). Against two Kalshi fakes (docs/kalshi-fake.md) whose books for the same ticker
 * differ. A venue that cannot be reached, or does not answer within KALSHI_TIMEOUT_MS, leaves the
 * mark null and the list answered; the portfolio values that position at cost.
 */
import type { KalshiFake } from '../../fakes/kalshi/server';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { v2OrderBody } from '../support/kalshiOrders';
import { FED, liveCoreSettings, liveMarketId, liveSubaccount, MAKER, newLiveTrader, placeLive, startKalshiFake, type LiveTrader } from '../support/kalshiLive';
import { newKalshiKey } from '../support/kalshiKeys';
import { startStack, type Stack } from '../support/stack';

const alice = newKalshiKey(); // production
const bob = newKalshiKey(); // demo
const TIMEOUT_MS = 1000;

let production: KalshiFake;
let demo: KalshiFake;
let stack: Stack;
let trader: LiveTrader;
let fed: string;
let aliceSub: string;
let bobSub: string;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const maker = (fake: KalshiFake, side: 'bid' | 'ask', price: string, count: string) =>
  expect(fake.placeOrderAs(MAKER, v2OrderBody(FED, { side, price, count }))).toMatchObject({ status: 201 });
const positionOf = async (subaccountId: string) => {
  const answer = await get(`/v1/positions?subaccount_id=${subaccountId}`);
  expect(answer.status).toBe(200);
  expect(answer.body.data).toHaveLength(1);
  return answer.body.data[0];
};

beforeAll(async () => {
  production = await startKalshiFake('production', [{ userId: 'user-alice', key: alice }]);
  demo = await startKalshiFake('demo', [{ userId: 'user-bob', key: bob }]);
  stack = await startStack(
    testConfig(await liveCoreSettings('live_marks', production, { KALSHI_DEMO_URL: demo.baseUrl, KALSHI_DEMO_WS_URL: demo.wsUrl, KALSHI_TIMEOUT_MS: String(TIMEOUT_MS) })),
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'Live marks');
  fed = await liveMarketId(stack.core.db, FED);
  aliceSub = await liveSubaccount(trader, 'alice', { key: alice, environment: 'production' });
  bobSub = await liveSubaccount(trader, 'bob', { key: bob, environment: 'demo' });

  // The same ticker, two books: production 0.80 / 0.90, demo 0.45 / 0.55.
  maker(production, 'bid', '0.8000', '5.00');
  maker(production, 'ask', '0.9000', '5.00');
  maker(demo, 'bid', '0.4500', '5.00');
  maker(demo, 'ask', '0.5500', '5.00');
  for (const [subaccount, price] of [[aliceSub, '0.9'], [bobSub, '0.55']] as const) {
    const bought = await placeLive(trader, { subaccount_id: subaccount, market_id: fed, side: 'yes', action: 'buy', type: 'market', quantity: '2' });
    expect(bought.body).toMatchObject({ status: 'filled', average_fill_price: price });
  }
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await production?.close();
  await demo?.close();
});

it("marks each live position to its own account's venue environment: demo's book for a demo key, production's for a production key", async () => {
  // Production: bid 0.80, ask 0.90 (3 left): mid 0.85. Demo: bid 0.45, ask 0.55 (3 left): mid 0.50.
  expect(await positionOf(aliceSub)).toMatchObject({ quantity: '2', average_cost: '0.9', mark_price: '0.85', unrealized_pnl: '-0.1' });
  expect(await positionOf(bobSub)).toMatchObject({ quantity: '2', average_cost: '0.55', mark_price: '0.5', unrealized_pnl: '-0.1' });

  // The portfolio agrees: its cash is the demo account's balance, its positions marked to demo's book.
  const [portfolio] = (await get(`/v1/portfolio?subaccount_id=${bobSub}`)).body.data;
  const balance = (demo.exchange.balanceJson('user-bob') as { balance_dollars: string }).balance_dollars;
  expect(portfolio).toMatchObject({ cash_balance: balance, positions_cost: '1.1', positions_value: '1', unrealized_pnl: '-0.1' });
});

it('a venue that does not answer within the timeout leaves the mark null, and the list is answered', async () => {
  production.injectFault({ fault: { kind: 'delay', ms: 3 * TIMEOUT_MS, placeBeforeDelay: false }, method: 'GET', pathPrefix: `/trade-api/v2/markets/${FED}/orderbook`, times: Infinity });
  try {
    // The book answers 3 timeouts late with a two-sided book: a null mark is the timeout, not the book.
    expect(await positionOf(aliceSub)).toMatchObject({ quantity: '2', mark_price: null, unrealized_pnl: null });
    // Another account's venue is not held up by it.
    expect(await positionOf(bobSub)).toMatchObject({ mark_price: '0.5' });
  } finally {
    production.clearFaults();
  }
});

it('a venue that cannot be reached leaves the mark null; the position is still listed', async () => {
  await demo.close();
  expect(await positionOf(bobSub)).toMatchObject({ quantity: '2', average_cost: '0.55', mark_price: null, unrealized_pnl: null });
  expect(await positionOf(aliceSub)).toMatchObject({ mark_price: '0.85' });
});
