/**
 * Live Polymarket (CLOB V2) end to end through the public REST API, against the Polymarket fake on
 * loopback (docs/polymarket-fake.md: every order's EIP-712 signature and every request's L1 or L2
 * headers verified) and real PostgreSQL: a `mk_live_` key, a live subaccount whose Polymarket
 * credential (a wallet key only: the API credentials are derived with L1 auth when the account
 * opens) is attached through the dashboard route, orders through `POST /v1/orders`. What the fake
 * holds is compared with what our API answers; a lost answer is reconciled by the order's hash with
 * no second order; the key appears in no answer and no log line.
 *
 * The core runs the live reconciler (fast intervals) with the accounts' user channel turned off
 * (POLYMARKET_USER_STREAM_ENABLED=false): a resting order's fill by another participant reaches us
 * by the reconciler's REST sweep alone. The channel's own tests: test/e2e/polymarketStream.test.ts.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../core/support/logger';
import type { PolymarketFake } from '../../fakes/polymarket/server';
import { call } from '../support/http';
import { encodings, eventually, placeLive, type LiveTrader } from '../support/kalshiLive';
import { newPolymarketTrader, PM_FED, startPolymarketLive, type PolymarketLive, type PolymarketMaker } from '../support/polymarketLive';
import type { Stack } from '../support/stack';

const alice = newPolymarketTrader(); // attached with her key only: no API credentials at the fake yet
const maker = newPolymarketTrader('100000');

const logLines: string[] = [];
const logger = pino({ level: 'trace' }, new Writable({ write: (chunk: Buffer, _encoding, done) => void (logLines.push(chunk.toString()), done()) })) as unknown as Logger;

let live: PolymarketLive;
let fake: PolymarketFake;
let stack: Stack;
let trader: LiveTrader;
let makerClient: PolymarketMaker;
let fed: string;
let aliceSub: string;
let attachAnswer: unknown;

const get = (path: string) => call(trader.base, 'GET', path, { key: trader.live });
const aliceOrders = () => fake.exchange.allOrders().filter((o) => o.makerAddress.toLowerCase() === alice.address.toLowerCase());
const posts = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/order' && r.apiKey !== maker.account.apiKey);

beforeAll(async () => {
  live = await startPolymarketLive({
    database: 'polymarket_live',
    name: 'Polymarket live',
    wallet: alice,
    maker,
    logger,
    env: {
      LIVE_FILL_SWEEP_INTERVAL_MS: '200',
      LIVE_PENDING_STALE_MS: '1000',
      POLYMARKET_USER_STREAM_ENABLED: 'false',
      LOG_LEVEL: 'trace',
    },
  });
  ({ fake, stack, trader, fed, subaccountId: aliceSub, maker: makerClient, attachAnswer } = live);
}, 60_000);
afterAll(async () => {
  await live?.close();
});

describe('a live key trades on Polymarket (CLOB V2 fake) through REST', () => {
  it('the credential shows its signer address; the account derives its API key with L1 auth; a limit order rests under its hash and is canceled', async () => {
    expect(attachAnswer).toMatchObject({ exchange: 'polymarket', fingerprint: alice.address, environment: null });

    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.40', quantity: '10' });
    expect(placed.status).toBe(200);
    const [order, ...more] = aliceOrders();
    expect(more).toEqual([]);
    expect(order).toMatchObject({ side: 'BUY', price: '0.40', originalUnits: 1000, status: 'LIVE', orderType: 'GTC', token: { tokenId: PM_FED.yesTokenId } });
    expect(placed.body).toMatchObject({ venue: 'polymarket', status: 'open', price: '0.4', quantity: '10', filled_quantity: '0', remaining_quantity: '10', venue_order_id: order!.id });
    // Derived (a first derive finds none, the create makes one), then every call signed with it.
    expect(fake.requests.filter((r) => r.path.startsWith('/auth/')).map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/auth/derive-api-key', 400],
      ['POST', '/auth/api-key', 200],
    ]);
    expect(fake.exchange.accountsOwnedBy(alice.address)).toHaveLength(1);

    const canceled = await call(trader.base, 'DELETE', `/v1/orders/${placed.body.id}`, { key: trader.live });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', filled_quantity: '0', remaining_quantity: '0' });
    expect(order!.status).toBe('CANCELED');
  });

  it('a crossing order and a NO order fill; fills carry the trade, the balance is the venue\u2019s', async () => {
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.56', size: '10' })).toMatchObject({ kind: 'answered', body: { success: true, status: 'live' } });
    const buy = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.60', quantity: '6' });
    expect(buy.status).toBe(200);
    expect(buy.body).toMatchObject({ status: 'filled', filled_quantity: '6', average_fill_price: '0.56' });

    // A NO buy trades the NO token, at the NO price.
    expect(await makerClient.post({ tokenId: PM_FED.noTokenId, side: 'SELL', price: '0.30', size: '5' })).toMatchObject({ kind: 'answered' });
    const no = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'no', action: 'buy', type: 'market', quantity: '5', time_in_force: 'fok' });
    expect(no.status).toBe(200);
    // Its worst price, fixed under the tick when the order was created, is stored on it.
    expect(no.body).toMatchObject({ side: 'no', type: 'market', price: '0.99', status: 'filled', filled_quantity: '5', average_fill_price: '0.3' });
    expect(aliceOrders().find((o) => o.id === no.body.venue_order_id)).toMatchObject({ token: { tokenId: PM_FED.noTokenId }, orderType: 'FOK', price: '0.99' });

    const fills = (await get(`/v1/fills?subaccount_id=${aliceSub}`)).body.data;
    expect(fills).toHaveLength(2);
    for (const fill of fills) expect(fill).toMatchObject({ venue: 'polymarket', is_taker: true, fee: '0', venue_fill_id: expect.stringMatching(/^[0-9a-f-]{36}:T:0x[0-9a-f]{64}$/) });
    // 1000 - 6 x 0.56 - 5 x 0.30
    const balance = fake.exchange.wallets.balanceAllowance(fake.exchange.accountsOwnedBy(alice.address)[0]!, new URLSearchParams({ asset_type: 'COLLATERAL' })).body as { balance: string };
    expect(balance.balance).toBe('995140000');
    const [portfolio] = (await get(`/v1/portfolio?subaccount_id=${aliceSub}`)).body.data;
    expect(portfolio).toMatchObject({ cash_balance: '995.14' });
  });

  it('a post-only order is sent as one (postOnly): it rests below the ask; at the ask Polymarket refuses it (400, param post_only) and holds nothing', async () => {
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.62', size: '10' })).toMatchObject({ kind: 'answered' });
    const rests = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.05', quantity: '5', post_only: true });
    expect(rests.body).toMatchObject({ status: 'open', post_only: true });
    const before = aliceOrders().length;
    const crossing = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.62', quantity: '5', post_only: true });
    expect([crossing.status, crossing.body.error?.code, crossing.body.error?.param]).toEqual([400, 'invalid_request', 'post_only']);
    expect(aliceOrders()).toHaveLength(before);
    expect((await call(trader.base, 'DELETE', `/v1/orders/${rests.body.id}`, { key: trader.live })).status).toBe(200);
  });

  it('a gtd order is signed as a GTD whose expiration is our expires_at (to the second, rounded up) plus the venue\'s one-minute threshold; one less than 130 s ahead is refused, sending nothing', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000 + 250).toISOString();
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.04', quantity: '5', expires_at: expiresAt });
    expect(placed.body).toMatchObject({ status: 'open', time_in_force: 'gtd', expires_at: expiresAt });
    const [atVenue] = aliceOrders().filter((o) => o.id.toLowerCase() === placed.body.venue_order_id);
    const seconds = Math.ceil(Date.parse(expiresAt) / 1000);
    // The venue takes it off its book at expiration - 60 s: the time the client gave, to the second.
    expect(atVenue).toMatchObject({ orderType: 'GTD', expiration: String(seconds + 60), expiresAtMs: seconds * 1000 });
    const before = posts().length;
    const tooNear = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.04', quantity: '5', expires_at: new Date(Date.now() + 100_000).toISOString() });
    expect([tooNear.status, tooNear.body.error?.code, tooNear.body.error?.param]).toEqual([400, 'invalid_request', 'expires_at']);
    expect(tooNear.body.error.message).toContain('130 seconds');
    expect(posts()).toHaveLength(before);
    // Polymarket has no amend: refused, nothing sent (cancel and place instead).
    const amend = await call(trader.base, 'PATCH', `/v1/orders/${placed.body.id}`, { key: trader.live, body: { quantity: '6' } });
    expect([amend.status, (amend.body as { error?: { code?: string } }).error?.code]).toEqual([400, 'invalid_request']);
    expect(posts()).toHaveLength(before);
    // Looked up by its hash (rebuilt from our record, the expiration included) and canceled there.
    expect((await call(trader.base, 'DELETE', `/v1/orders/${placed.body.id}`, { key: trader.live })).status).toBe(200);
    expect(aliceOrders().find((o) => o.id.toLowerCase() === placed.body.venue_order_id)?.status).not.toBe('LIVE');
  });

  it("cancel many sends one account's orders in one DELETE /orders; a lost answer is read again and nothing is canceled twice", async () => {
    const batchCancels = () => fake.requests.filter((r) => r.method === 'DELETE' && r.path === '/orders');
    const placeAt = async (price: string) => (await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price, quantity: '5' })).body;
    const placedOrders = [await placeAt('0.03'), await placeAt('0.04'), await placeAt('0.05')];
    const before = batchCancels().length;
    const first = await call<any>(trader.base, 'DELETE', `/v1/orders?subaccount_id=${aliceSub}&market_id=${fed}`, { key: trader.live });
    expect(first.status).toBe(200);
    expect(first.body.canceled.map((o: { id: string }) => o.id).sort()).toEqual(placedOrders.map((o) => o.id).sort());
    expect(first.body.failed).toEqual([]);
    expect(batchCancels()).toHaveLength(before + 1);
    const atVenue = (id: string) => aliceOrders().filter((o) => o.id.toLowerCase() === id);
    for (const order of placedOrders) expect(atVenue(order.venue_order_id).map((o) => o.status)).toEqual(['CANCELED']);

    const more = [await placeAt('0.03'), await placeAt('0.04')];
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'DELETE', pathPrefix: '/orders', times: 1 });
    const lost = await call<any>(trader.base, 'DELETE', `/v1/orders?subaccount_id=${aliceSub}&market_id=${fed}`, { key: trader.live });
    expect(lost.body.canceled).toEqual([]);
    expect(lost.body.failed.map((f: { code: string }) => f.code)).toEqual(['venue_unavailable', 'venue_unavailable']);
    // Recorded canceled by whichever comes first: a sweep, or the next request finding them canceled at the venue.
    const again = await call<any>(trader.base, 'DELETE', `/v1/orders?subaccount_id=${aliceSub}&market_id=${fed}`, { key: trader.live });
    expect(again.body.failed).toEqual([]);
    expect(more.map((o) => o.id)).toEqual(expect.arrayContaining(again.body.canceled.map((o: { id: string }) => o.id)));
    for (const order of more) await eventually(`order ${order.id} recorded canceled`, async () => ((await get(`/v1/orders/${order.id}`)).body.status === 'canceled' ? true : undefined));
    for (const order of [...placedOrders, ...more]) expect(atVenue(order.venue_order_id)).toHaveLength(1);
  });

  it('a resting order filled by another participant reaches us through the REST sweep, whose listing spells statuses TRADE_STATUS_…', async () => {
    fake.exchange.restTradeStatusPrefixed = true; // REST's spelling (the official Python client's account models); the channel keeps the plain one
    const resting = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.45', quantity: '8' });
    expect(resting.body).toMatchObject({ status: 'open' });
    expect(await makerClient.post({ tokenId: PM_FED.yesTokenId, side: 'SELL', price: '0.45', size: '5' })).toMatchObject({ kind: 'answered', body: { status: 'matched' } });
    const order = await eventually('the swept fill', async () => {
      const read = (await get(`/v1/orders/${resting.body.id}`)).body;
      return read.filled_quantity === '5' ? read : undefined;
    });
    expect(order).toMatchObject({ status: 'partially_filled', filled_quantity: '5', remaining_quantity: '3', average_fill_price: '0.45' });
    const [fill] = (await get(`/v1/fills?order_id=${resting.body.id}`)).body.data;
    expect(fill).toMatchObject({ price: '0.45', quantity: '5', is_taker: false, venue_fill_id: expect.stringContaining(`:M:${resting.body.venue_order_id}`) });
    // Marked to the venue's public YES book: our 3 left at 0.45, the maker's 4 left at 0.56.
    const positions = (await get(`/v1/positions?subaccount_id=${aliceSub}`)).body.data;
    expect(positions.find((p: { side: string }) => p.side === 'yes')).toMatchObject({ market_id: fed, quantity: '11', mark_price: '0.505' });
    fake.exchange.restTradeStatusPrefixed = false;
  });

  it('an answer lost after the venue placed the order: unknown, then reconciled by its hash; one order at the venue', async () => {
    const before = posts().length;
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/order' });
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.21', quantity: '5' });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'unknown' });
    const reconciled = await eventually('the reconciler resolving the lost answer', async () => {
      const read = (await get(`/v1/orders/${placed.body.id}`)).body;
      return read.status === 'open' ? read : undefined;
    });
    const atFake = aliceOrders().filter((o) => o.price === '0.21');
    expect(atFake).toHaveLength(1);
    expect(reconciled).toMatchObject({ venue_order_id: atFake[0]!.id, remaining_quantity: '5' });
    // Found by its hash, never posted again.
    expect(posts().length - before).toBe(1);
  });

  it('a lost answer, then the market\'s tick changes: the order is still found by its first hash, never sent again, and canceled', async () => {
    const before = posts().length;
    fake.injectFault({ fault: { kind: 'accept_then_drop' }, method: 'POST', pathPrefix: '/order' });
    const placed = await placeLive(trader, { subaccount_id: aliceSub, market_id: fed, side: 'yes', action: 'buy', type: 'limit', price: '0.23', quantity: '5' });
    expect(placed.body).toMatchObject({ status: 'unknown' });
    // The Gamma sync moves the market to a 0.1 tick before the reconciler looks (it waits LIVE_PENDING_STALE_MS): 0.23 breaks it.
    await stack.core.db.market.update({ where: { id: fed }, data: { tickSize: '0.1' } });
    try {
      const reconciled = await eventually('the reconciler resolving the lost answer', async () => {
        const read = (await get(`/v1/orders/${placed.body.id}`)).body;
        return read.status === 'open' ? read : undefined;
      });
      const atFake = aliceOrders().filter((o) => o.price === '0.23');
      expect(atFake).toHaveLength(1);
      expect(reconciled).toMatchObject({ venue_order_id: atFake[0]!.id });
      const canceled = await call(trader.base, 'DELETE', `/v1/orders/${placed.body.id}`, { key: trader.live });
      expect(canceled.body).toMatchObject({ status: 'canceled' });
      expect(atFake[0]!.status).toBe('CANCELED');
      expect(posts().length - before).toBe(1);
    } finally {
      await stack.core.db.market.update({ where: { id: fed }, data: { tickSize: '0.01' } });
    }
  });

  it('the wallet key is in no answer and no log line', async () => {
    const secrets = [alice.privateKey, alice.privateKey.slice(2)].flatMap(encodings);
    const subaccount = await call(trader.base, 'GET', `/v1/subaccounts/${aliceSub}`, { key: trader.live });
    expect(subaccount.status).toBe(200);
    // What the subaccount shows of the credential: the signer address the key derives, never the key.
    expect(subaccount.body.credentials).toEqual([expect.objectContaining({ exchange: 'polymarket', fingerprint: alice.address })]);
    const answers = JSON.stringify([attachAnswer, subaccount.body]);
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
