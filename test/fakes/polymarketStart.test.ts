/**
 * The standalone Polymarket fakes (`npx tsx fakes/polymarket/start.ts`, README "Try live
 * Polymarket against the fakes") as a user runs them: a process of its own on free ports, a core
 * pointed at its CLOB and Gamma URLs, and a fresh wallet key attached with nothing else. The core's
 * start-up sync lists the fake's binary markets in the live catalog; the wallet creates its API key at the
 * fake with L1 auth, has the fake's starting pUSD, and its order rests at the fake under its hash.
 * The books start seeded by the fake's market maker: a buy at the ask fills at once, and the
 * counter-order control (`POST /_fake/orders`) fills a resting order, as a newcomer would try.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { testConfig } from '../support/env';
import { call } from '../support/http';
import { eventually, newKek, newLiveTrader, placeLive, type LiveTrader } from '../support/kalshiLive';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';

let child: ChildProcess;
let stack: Stack;
let trader: LiveTrader;
let urls: { clob: string; gamma: string; dataApi: string };

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'fakes/polymarket/start.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, POLYMARKET_FAKE_PORT: '0', POLYMARKET_GAMMA_FAKE_PORT: '0', POLYMARKET_FAKE_COLLATERAL: '250' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  urls = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /CLOB (http:\/\/\S+) .*Gamma (http:\/\/\S+) .*Data API (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ clob: match[1]!, gamma: match[2]!, dataApi: match[3]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  stack = await startStack(
    testConfig({
      DATABASE_URL: await ownDatabase('polymarket_standalone_fake'),
      CREDENTIALS_KEK: newKek(),
      POLYMARKET_CLOB_URL: urls.clob,
      POLYMARKET_GAMMA_URL: urls.gamma,
      POLYMARKET_DATA_API_URL: urls.dataApi,
      POLYMARKET_CHAIN_ID: '80002',
      POLYMARKET_TIMEOUT_MS: '2000',
    }),
    'single',
    1,
  );
  trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, 'Standalone Polymarket fake');
}, 60_000);

afterAll(async () => {
  await stack?.close();
  child?.kill('SIGTERM');
});

it('a core pointed at the standalone fakes lists their markets, and a fresh wallet key trades there', async () => {
  // The start-up sync: the fake's binary market (a Yes and a No token) in the live catalog, found by a live key's search.
  const fed = await eventually('the Gamma fake synced into the live catalog', async () => {
    const page = await call(trader.base, 'GET', '/v1/markets?venue=polymarket', { key: trader.live });
    return page.status === 200 ? page.body.data.find((market: { title: string }) => market.title.includes('Fed')) : undefined;
  }, 20_000);
  expect(fed).toMatchObject({ venue: 'polymarket', status: 'open', tick_size: '0.01' });

  const sub = (await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.live, body: { name: 'wallet' } })).body.id as string;
  const attached = await call(trader.base, 'PUT', `/v1/subaccounts/${sub}/credentials/polymarket`, {
    key: trader.dashboard,
    headers: { 'x-environment': 'live' },
    body: { private_key: generatePrivateKey() },
  });
  expect(attached.status).toBe(200);

  const order = await placeLive(trader, { subaccount_id: sub, market_id: fed.id, side: 'yes', action: 'buy', type: 'limit', price: '0.30', quantity: '5' });
  expect(order.status).toBe(200);
  expect(order.body).toMatchObject({ status: 'open', venue: 'polymarket', venue_order_id: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  const portfolio = await call(trader.base, 'GET', `/v1/portfolio?subaccount_id=${sub}`, { key: trader.live });
  expect(portfolio.status).toBe(200);
  // The wallet's pUSD at the fake: the starting 250 (a resting buy moves nothing).
  expect(portfolio.body.data).toEqual([expect.objectContaining({ cash_balance: '250' })]);
  // At the fake: the order rests under that hash.
  const atFake = (await fetch(`${urls.clob}/_fake/orders`).then((res) => res.json())) as { orders: { id: string; status: string }[] };
  expect(atFake.orders.filter((o) => o.id === order.body.venue_order_id)).toEqual([expect.objectContaining({ status: 'LIVE' })]);
});

it("the newcomer's first fills: a buy at the seeded ask fills, and the counter-order control fills a resting one", async () => {
  const fed = await eventually('the Fed market listed', async () => {
    const page = await call(trader.base, 'GET', '/v1/markets?venue=polymarket', { key: trader.live });
    return page.status === 200 ? page.body.data.find((market: { title: string }) => market.title.includes('Fed')) : undefined;
  }, 20_000);
  const sub = (await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.live, body: { name: 'first fills' } })).body.id as string;
  const attached = await call(trader.base, 'PUT', `/v1/subaccounts/${sub}/credentials/polymarket`, {
    key: trader.dashboard,
    headers: { 'x-environment': 'live' },
    body: { private_key: generatePrivateKey() },
  });
  expect(attached.status).toBe(200);

  // The seeded Fed Yes book (mid 0.45) offers 100 at 0.46: a limit buy there fills at once.
  const taken = await placeLive(trader, { subaccount_id: sub, market_id: fed.id, side: 'yes', action: 'buy', type: 'limit', price: '0.46', quantity: '5' });
  expect(taken.status).toBe(200);
  expect(taken.body).toMatchObject({ status: 'filled', filled_quantity: '5', average_fill_price: '0.46' });

  // Ours rests inside the spread; the fake's market maker sells into it through the control route.
  const resting = await placeLive(trader, { subaccount_id: sub, market_id: fed.id, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '5' });
  expect(resting.body).toMatchObject({ status: 'open' });
  const tokenId = (await fetch(`${urls.clob}/_fake/orders`).then((res) => res.json()) as { orders: { id: string; asset_id: string }[] }).orders.find((o) => o.id === resting.body.venue_order_id)!.asset_id;
  const counter = await fetch(`${urls.clob}/_fake/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_id: tokenId, side: 'SELL', price: '0.45', size: '5', type: 'FAK' }) });
  expect(counter.status).toBe(200);
  const filled = await eventually('the counter-order filling ours', async () => {
    const read = (await call(trader.base, 'GET', `/v1/orders/${resting.body.id}`, { key: trader.live })).body;
    return read.status === 'filled' ? read : undefined;
  }, 15_000);
  expect(filled).toMatchObject({ filled_quantity: '5', average_fill_price: '0.45' });
}, 60_000);
