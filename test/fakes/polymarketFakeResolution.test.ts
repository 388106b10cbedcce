/**
 * A Polymarket market ending and resolving on the fake (fakes/polymarket/resolution.ts,
 * marketChannel.ts, dataApi.ts, resolutionControl.ts), over real loopback HTTP and WebSockets:
 * a holder of YES (alice) and one of NO (bob), who bought from the fake's market maker with orders
 * signed by our signing layer; the market closes (alice's resting order cancelled by the venue,
 * new orders refused), an outcome is proposed, disputed, resolved, as the CLOB, the linked Gamma
 * fake and the market channel show it; the Data API lists the positions as redeemable with their
 * payout price, and a redemption takes them out and credits pUSD. Waits are on conditions only.
 */
import { GAMMA_RESOLVED_BY, GammaFake, gammaMarket } from '../../fakes/polymarket/gamma';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { call, control, DEV_KEYS, ELECTION_YES, FED_NO, FED_YES, place, trader, UserSocket, type Reply } from '../support/polymarketTraders';

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);
const FED = FED_YES.conditionId;
const QUESTION = 'Will the Fed cut rates at its next meeting?';
const OTHER_CONDITION = `0x${'0b'.repeat(32)}`;

let gamma: GammaFake;
let fake: PolymarketFake;
let restingId: string;
const sockets: UserSocket[] = [];

/** Alice holds 10 YES bought at 0.45, bob 10 NO bought at 0.55 (from the market maker); alice rests a bid of 5 YES at 0.30. */
beforeEach(async () => {
  gamma = await GammaFake.start({ markets: [gammaMarket({ conditionId: FED, question: QUESTION, yesTokenId: FED_YES.tokenId, noTokenId: FED_NO.tokenId })] });
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], controlApi: true, settlement: { automatic: false }, gamma });
  expect(fake.placeOrderAs(fake.marketMaker, { tokenId: FED_YES.tokenId, side: 'SELL', price: '0.45', size: '10' }).status).toBe(200);
  expect(fake.placeOrderAs(fake.marketMaker, { tokenId: FED_NO.tokenId, side: 'SELL', price: '0.55', size: '10' }).status).toBe(200);
  expect((await place(fake, alice, { price: '0.45', size: '10' })).body).toMatchObject({ status: 'matched', takingAmount: '10', makingAmount: '4.5' });
  expect((await place(fake, bob, { tokenId: FED_NO.tokenId, price: '0.55', size: '10' })).body).toMatchObject({ status: 'matched', takingAmount: '10', makingAmount: '5.5' });
  const resting = await place(fake, alice, { price: '0.30', size: '5' });
  expect(resting.body.status).toBe('live');
  restingId = resting.body.orderID;
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await fake.close();
  await gamma.close();
});

async function getJson(url: string): Promise<Reply> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() } as Reply;
}

/** The Fed market as Gamma lists it (closed or not). */
async function gammaFed(): Promise<any> {
  for (const closed of [false, true]) {
    const { body } = await getJson(`${gamma.baseUrl}/markets/keyset?condition_ids=${FED}&closed=${closed}`);
    if (body.markets.length > 0) return body.markets[0];
  }
  throw new Error('Gamma lists no Fed market');
}

const clobFed = async () => (await call(fake, null, 'GET', `/markets/${FED}`)).body;
const positions = async (query: string) => getJson(`${fake.dataApiUrl}/positions?${query}`);
const positionsOf = async (who = alice, query = '') => (await positions(`user=${who.signing.signerAddress}${query}`)).body;
const collateral = async (who = alice) => (await call(fake, who, 'GET', '/balance-allowance?asset_type=COLLATERAL')).body.balance;

/** A market-channel socket subscribed to `assets` (custom features on unless told). */
async function marketSocket(assets: string[] = [FED_YES.tokenId, FED_NO.tokenId], custom = true): Promise<UserSocket> {
  const socket = await UserSocket.open(fake.marketChannelUrl);
  sockets.push(socket);
  socket.ws.send(JSON.stringify({ assets_ids: assets, type: 'market', ...(custom ? { custom_feature_enabled: true } : {}) }));
  expect(await socket.ping()).toBe('PONG'); // the subscription was read
  return socket;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('closing a market', () => {
  it('cancels the resting order as the venue does, removes the books and refuses new orders; CLOB and Gamma say closed', async () => {
    const socket = await UserSocket.subscribe(fake, alice);
    const closed = await control(fake, 'POST', `/_fake/markets/${FED}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.canceled_orders).toEqual([restingId]);
    expect(closed.body.clob).toMatchObject({ condition_id: FED, active: true, closed: true, accepting_orders: false, enable_order_book: false, is_50_50_outcome: false });
    expect(closed.body.clob.tokens).toEqual([
      { outcome: 'Yes', price: 0.45, token_id: FED_YES.tokenId, winner: false },
      { outcome: 'No', price: 0.55, token_id: FED_NO.tokenId, winner: false },
    ]);
    expect(closed.body.gamma).toMatchObject({ conditionId: FED, active: true, closed: true, acceptingOrders: false, closedTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/) });
    expect(closed.body.gamma).not.toHaveProperty('umaResolutionStatus');

    // The user channel's venue-side cancel: a CANCELLATION with status INVALID; REST says CANCELED_MARKET_RESOLVED.
    expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'CANCELLATION', id: restingId, status: 'INVALID', size_matched: '0', market: FED });
    expect((await call(fake, alice, 'GET', `/data/order/${restingId}`)).body).toMatchObject({ id: restingId, status: 'CANCELED_MARKET_RESOLVED' });
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);
    expect(await call(fake, alice, 'DELETE', '/order', { orderID: restingId })).toEqual({ status: 200, body: { canceled: [], not_canceled: { [restingId]: 'already canceled or matched' } } });

    expect(await place(fake, bob, { price: '0.50', size: '5' })).toEqual({ status: 400, body: { error: `the orderbook ${FED} does not exist` } });
    expect((await control(fake, 'POST', '/_fake/orders', { token_id: FED_NO.tokenId, side: 'SELL', price: '0.60', size: '5' })).body).toEqual({ error: `the orderbook ${FED} does not exist` });
    for (const token of [FED_YES, FED_NO]) {
      expect(await call(fake, null, 'GET', `/book?token_id=${token.tokenId}`)).toEqual({ status: 404, body: { error: 'No orderbook exists for the requested token id' } });
    }

    // The public market read, and Gamma's listing: no longer among the open markets.
    expect(await clobFed()).toEqual(closed.body.clob);
    expect((await getJson(`${gamma.baseUrl}/markets/keyset?condition_ids=${FED}`)).body.markets).toEqual([]);
    expect(await gammaFed()).toEqual(closed.body.gamma);
    // Closing again cancels nothing and changes nothing; a redemption before resolution reverts as the CTF does.
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/close`)).body).toEqual({ ...closed.body, canceled_orders: [] });
    expect(await control(fake, 'POST', `/_fake/wallets/${alice.signing.signerAddress}/redeem`, { condition_id: FED })).toEqual({ status: 409, body: { error: 'result for condition not received yet' } });
  });

  it('the market read refuses a malformed condition id (400 Invalid market) and an unknown one (404 market not found)', async () => {
    expect(await call(fake, null, 'GET', '/markets/0x1234')).toEqual({ status: 400, body: { error: 'Invalid market' } });
    expect(await call(fake, null, 'GET', `/markets/${OTHER_CONDITION}`)).toEqual({ status: 404, body: { error: 'market not found' } });
    expect((await control(fake, 'POST', `/_fake/markets/${OTHER_CONDITION}/close`)).status).toBe(404);
  });
});

describe('proposal, dispute and resolution', () => {
  it('shows each step on Gamma; the resolution (differing from the proposal) on the CLOB and as market_resolved on the market channel', async () => {
    const custom = await marketSocket();
    const plain = await marketSocket(undefined, false);
    const otherAsset = await marketSocket([ELECTION_YES.tokenId]);
    await control(fake, 'POST', `/_fake/markets/${FED}/close`);

    const proposed = await control(fake, 'POST', `/_fake/markets/${FED}/propose`, { outcome: 'Yes' });
    expect(proposed.status).toBe(200);
    expect(proposed.body.gamma).toMatchObject({ closed: true, umaResolutionStatus: 'proposed', umaResolutionStatuses: '["proposed"]', outcomePrices: '["1","0"]' });
    expect(proposed.body.gamma).not.toHaveProperty('resolvedBy');
    expect(proposed.body.clob.tokens.map((t: { winner: boolean }) => t.winner)).toEqual([false, false]); // nothing won yet
    expect(await control(fake, 'POST', `/_fake/markets/${FED}/propose`, { outcome: 'No' })).toEqual({ status: 409, body: { error: `an outcome is already proposed for ${FED}; dispute it first` } });
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/propose`, { outcome: 'Maybe' })).status).toBe(400);

    const disputed = await control(fake, 'POST', `/_fake/markets/${FED}/dispute`);
    expect(disputed.body.gamma).toMatchObject({ umaResolutionStatus: 'disputed', umaResolutionStatuses: '["proposed","disputed"]', outcomePrices: '["1","0"]' });
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/dispute`)).status).toBe(409);
    expect(await gammaFed()).toEqual(disputed.body.gamma);

    const resolved = await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'No' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.notice).toEqual({ delivery: 'sent', sockets: 1 });
    expect(resolved.body.canceled_orders).toEqual([]); // cancelled at close already
    expect(resolved.body.clob).toEqual({
      accepting_order_timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      accepting_orders: false,
      active: true,
      archived: false,
      closed: true,
      condition_id: FED,
      description: `This market will resolve to "Yes" if ${QUESTION}`,
      enable_order_book: false,
      end_date_iso: '2026-12-31T12:00:00Z',
      fpmm: '',
      game_start_time: null,
      icon: '',
      image: '',
      is_50_50_outcome: false,
      maker_base_fee: 0,
      market_slug: 'will-the-fed-cut-rates-at-its-next-meeting',
      minimum_order_size: 5,
      minimum_tick_size: 0.01,
      neg_risk: false,
      neg_risk_market_id: '',
      neg_risk_request_id: '',
      notifications_enabled: true,
      question: QUESTION,
      question_id: `0x${'0'.repeat(63)}1`,
      rewards: { max_spread: 0, min_size: 0, rates: null },
      seconds_delay: 0,
      tags: [],
      taker_base_fee: 0,
      tokens: [
        { outcome: 'Yes', price: 0, token_id: FED_YES.tokenId, winner: false },
        { outcome: 'No', price: 1, token_id: FED_NO.tokenId, winner: true },
      ],
    });
    expect(Object.keys(resolved.body.clob)).toEqual(Object.keys(resolved.body.clob).sort()); // the venue's key order
    expect(await clobFed()).toEqual(resolved.body.clob);
    const gammaResolved = await gammaFed();
    expect(gammaResolved).toMatchObject({
      closed: true,
      acceptingOrders: false,
      umaResolutionStatus: 'resolved',
      umaResolutionStatuses: '["proposed","disputed"]',
      outcomePrices: '["0","1"]',
      resolvedBy: GAMMA_RESOLVED_BY,
      umaEndDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(JSON.parse(gammaResolved.clobTokenIds)).toEqual([FED_YES.tokenId, FED_NO.tokenId]);

    const notice = await custom.nextJson();
    expect(notice).toEqual({
      event_type: 'market_resolved',
      id: gammaResolved.id,
      question: QUESTION,
      market: FED,
      slug: 'will-the-fed-cut-rates-at-its-next-meeting',
      description: `This market will resolve to "Yes" if ${QUESTION}`,
      assets_ids: [FED_YES.tokenId, FED_NO.tokenId],
      outcomes: ['Yes', 'No'],
      winning_asset_id: FED_NO.tokenId,
      winning_outcome: 'No',
      timestamp: expect.stringMatching(/^\d{13}$/),
      tags: [],
    });
    // Without custom_feature_enabled, or subscribed to other assets: nothing (a PONG first proves it).
    expect(await plain.ping()).toBe('PONG');
    expect(await otherAsset.ping()).toBe('PONG');
    expect(await custom.ping()).toBe('PONG');

    expect(await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes' })).toEqual({ status: 409, body: { error: `the market ${FED} is already resolved` } });
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/propose`, { outcome: 'Yes' })).status).toBe(409);
  });

  it('a 50/50 split resolves an open market (closing it first): no winner, 0.5 each, and the positions redeem at 0.5', async () => {
    const custom = await marketSocket([FED_NO.tokenId]);
    const resolved = await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'split' });
    expect(resolved.body.canceled_orders).toEqual([restingId]);
    expect(resolved.body.clob).toMatchObject({ closed: true, accepting_orders: false, is_50_50_outcome: true });
    expect(resolved.body.clob.tokens).toEqual([
      { outcome: 'Yes', price: 0.5, token_id: FED_YES.tokenId, winner: false },
      { outcome: 'No', price: 0.5, token_id: FED_NO.tokenId, winner: false },
    ]);
    expect(resolved.body.gamma).toMatchObject({ closed: true, umaResolutionStatus: 'resolved', umaResolutionStatuses: '["proposed"]', outcomePrices: '["0.5","0.5"]' });
    expect(await custom.nextJson()).toMatchObject({ event_type: 'market_resolved', market: FED, winning_asset_id: '', winning_outcome: '' });

    expect(await positionsOf(alice)).toEqual([expect.objectContaining({ asset: FED_YES.tokenId, size: 10, curPrice: 0.5, currentValue: 5, redeemable: true })]);
    expect(await positionsOf(bob)).toEqual([expect.objectContaining({ asset: FED_NO.tokenId, size: 10, curPrice: 0.5, currentValue: 5, redeemable: true })]);
    const redeemed = await control(fake, 'POST', `/_fake/wallets/${bob.signing.signerAddress}/redeem`, { condition_id: FED });
    expect(redeemed.body).toMatchObject({ payout: '5', redeemed: [{ asset: FED_NO.tokenId, outcome: 'No', size: '10', price: '0.5', payout: '5' }] });
    expect(await collateral(bob)).toBe('-500000'); // paid 5.50, got 5 back
  });
});

describe('the Data API', () => {
  it('lists each holder\'s position; once resolved redeemable at the payout price (winner and loser); a redemption removes it and credits pUSD', async () => {
    const aliceWallet = alice.signing.signerAddress.toLowerCase();
    expect(await positionsOf(alice)).toEqual([
      {
        proxyWallet: aliceWallet,
        asset: FED_YES.tokenId,
        conditionId: FED,
        size: 10,
        avgPrice: 0.45,
        initialValue: 4.5,
        currentValue: 4.5,
        cashPnl: 0,
        percentPnl: 0,
        totalBought: 10,
        realizedPnl: 0,
        percentRealizedPnl: 0,
        curPrice: 0.45,
        redeemable: false,
        mergeable: false,
        title: QUESTION,
        slug: 'will-the-fed-cut-rates-at-its-next-meeting',
        icon: '',
        eventSlug: 'will-the-fed-cut-rates-at-its-next-meeting',
        outcome: 'Yes',
        outcomeIndex: 0,
        oppositeOutcome: 'No',
        oppositeAsset: FED_NO.tokenId,
        endDate: '2026-12-31',
        negativeRisk: false,
      },
    ]);
    expect(await positionsOf(alice, '&redeemable=true')).toEqual([]);

    await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes' });
    expect(await positionsOf(alice)).toEqual([expect.objectContaining({ asset: FED_YES.tokenId, size: 10, avgPrice: 0.45, curPrice: 1, currentValue: 10, cashPnl: 5.5, percentPnl: 122.222222, redeemable: true, mergeable: false })]);
    expect(await positionsOf(bob)).toEqual([expect.objectContaining({ asset: FED_NO.tokenId, outcome: 'No', outcomeIndex: 1, oppositeAsset: FED_YES.tokenId, size: 10, avgPrice: 0.55, curPrice: 0, currentValue: 0, cashPnl: -5.5, percentPnl: -100, redeemable: true })]);

    // Filters: redeemable, market, sizeThreshold (default 1), limit and offset; a bad request is a 400.
    expect(await positionsOf(alice, '&redeemable=true')).toHaveLength(1);
    expect(await positionsOf(alice, `&market=${FED}`)).toHaveLength(1);
    expect(await positionsOf(alice, `&market=${OTHER_CONDITION},${FED}`)).toHaveLength(1);
    expect(await positionsOf(alice, `&market=${OTHER_CONDITION}`)).toEqual([]);
    expect(await positionsOf(alice, '&sizeThreshold=10')).toHaveLength(1);
    expect(await positionsOf(alice, '&sizeThreshold=10.01')).toEqual([]);
    expect(await positionsOf(alice, '&limit=1&offset=1')).toEqual([]);
    expect(await positionsOf(alice, '&limit=0')).toEqual([]);
    expect((await positions('user=not-an-address')).status).toBe(400);
    expect((await positions(`user=${aliceWallet}&limit=501`)).status).toBe(400);
    expect((await positions(`user=${aliceWallet}&market=0x12`)).status).toBe(400);
    expect(await getJson(`${fake.dataApiUrl}/`)).toEqual({ status: 200, body: { data: 'OK' } });

    expect(await collateral(alice)).toBe('-4500000');
    const redeemed = await control(fake, 'POST', `/_fake/wallets/${alice.signing.signerAddress}/redeem`, { condition_id: FED });
    expect(redeemed).toEqual({
      status: 200,
      body: {
        wallet: aliceWallet,
        condition_id: FED,
        transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        redeemed: [{ asset: FED_YES.tokenId, outcome: 'Yes', size: '10', price: '1', payout: '10' }],
        payout: '10',
        pusd_balance: '5.5',
      },
    });
    expect(await positionsOf(alice)).toEqual([]);
    expect(await positionsOf(alice, '&sizeThreshold=0')).toEqual([]);
    expect(await collateral(alice)).toBe('5500000');
    expect((await call(fake, alice, 'GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${FED_YES.tokenId}`)).body.balance).toBe('0');
    expect((await getJson(`${fake.dataApiUrl}/activity?user=${aliceWallet}&type=REDEEM`)).body).toEqual([
      expect.objectContaining({ proxyWallet: aliceWallet, conditionId: FED, type: 'REDEEM', size: 10, usdcSize: 10, transactionHash: redeemed.body.transaction_hash, title: QUESTION, timestamp: expect.any(Number) }),
    ]);
    expect((await getJson(`${fake.dataApiUrl}/activity?user=${aliceWallet}&type=TRADE`)).body).toEqual([]);
    // Redeeming again burns nothing.
    expect((await control(fake, 'POST', `/_fake/wallets/${alice.signing.signerAddress}/redeem`, { condition_id: FED })).body).toMatchObject({ redeemed: [], payout: '0', pusd_balance: '5.5' });

    // The loser redeems for nothing, and its position leaves the listing too.
    expect((await control(fake, 'POST', `/_fake/wallets/${bob.signing.signerAddress}/redeem`, { condition_id: FED })).body).toMatchObject({ redeemed: [{ asset: FED_NO.tokenId, size: '10', price: '0', payout: '0' }], payout: '0' });
    expect(await positionsOf(bob)).toEqual([]);
  });

  it('trails the chain by its index lag, and takes the same HTTP faults as the CLOB', async () => {
    expect(await control(fake, 'POST', '/_fake/data-api', { lag_ms: 300 })).toEqual({ status: 200, body: { lag_ms: 300 } });
    await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes' });
    expect(await positionsOf(alice)).toEqual([expect.objectContaining({ redeemable: false, curPrice: 0.45 })]); // not indexed yet
    await eventually(() => positionsOf(alice), (rows) => rows[0]?.redeemable === true);
    expect(await positionsOf(alice)).toEqual([expect.objectContaining({ redeemable: true, curPrice: 1 })]);

    await control(fake, 'POST', `/_fake/wallets/${alice.signing.signerAddress}/redeem`, { condition_id: FED });
    expect(await positionsOf(alice)).toEqual([expect.objectContaining({ size: 10, redeemable: true })]); // the index has not seen it
    await eventually(() => positionsOf(alice), (rows) => rows.length === 0);
    expect((await getJson(`${fake.dataApiUrl}/activity?user=${alice.signing.signerAddress}`)).body).toHaveLength(1);

    await control(fake, 'POST', '/_fake/faults', { kind: 'server_error', status: 503, method: 'GET', path_prefix: '/data-api/positions' });
    expect(await positions(`user=${alice.signing.signerAddress}`)).toEqual({ status: 503, body: { error: 'Internal server error' } });
    expect((await positions(`user=${alice.signing.signerAddress}`)).status).toBe(200);
    expect(fake.requests.filter((r) => r.path === '/data-api/positions').map((r) => r.status).slice(-2)).toEqual([503, 200]);
  });
});

describe('the market_resolved notice', () => {
  it('can be lost: nothing arrives, while the CLOB and Gamma say resolved', async () => {
    const socket = await marketSocket();
    const resolved = await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes', notice: 'lost' });
    expect(resolved.body.notice).toEqual({ delivery: 'lost', sockets: 0 });
    expect(await socket.ping()).toBe('PONG');
    expect((await clobFed()).tokens[0]).toMatchObject({ winner: true, price: 1 });
    expect((await gammaFed()).umaResolutionStatus).toBe('resolved');
  });

  it('can be repeated', async () => {
    const socket = await marketSocket();
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes', notice: 'repeated', repeat: 3 })).body.notice).toEqual({ delivery: 'repeated', sockets: 1 });
    const frames = [await socket.next(), await socket.next(), await socket.next()];
    expect(new Set(frames).size).toBe(1);
    expect(JSON.parse(frames[0]!)).toMatchObject({ event_type: 'market_resolved', winning_asset_id: FED_YES.tokenId, winning_outcome: 'Yes' });
    expect(await socket.ping()).toBe('PONG');
  });

  it('can be late: it arrives late_ms after the resolution, which REST already shows', async () => {
    const socket = await marketSocket();
    const sentAt = Date.now();
    expect((await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'No', notice: 'late', late_ms: 300 })).body.notice).toEqual({ delivery: 'late', sockets: 0 });
    expect(await socket.ping()).toBe('PONG'); // not yet
    expect((await clobFed()).tokens[1]).toMatchObject({ winner: true });
    expect(await socket.nextJson()).toMatchObject({ event_type: 'market_resolved', winning_asset_id: FED_NO.tokenId });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(295);
  });

  it('is lost on a frozen socket, and a dropped socket closes without a frame; a bad subscription is dropped', async () => {
    const socket = await marketSocket();
    fake.freezeWebSockets(true);
    await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes' });
    fake.freezeWebSockets(false);
    expect(await socket.ping()).toBe('PONG');
    fake.dropWebSockets();
    expect(await socket.closed).toBe(1006);

    const bad = await UserSocket.open(fake.marketChannelUrl);
    sockets.push(bad);
    bad.ws.send(JSON.stringify({ assets_ids: [FED_YES.tokenId], type: 'user' }));
    expect(await bad.closed).toBe(1006);
    expect(bad.frames).toEqual([]);
  });

  it('follows subscribe and unsubscribe operations and the custom-features switch', async () => {
    const socket = await marketSocket([FED_YES.tokenId], false);
    socket.ws.send(JSON.stringify({ operation: 'subscribe', assets_ids: [FED_NO.tokenId], custom_feature_enabled: true }));
    socket.ws.send(JSON.stringify({ operation: 'unsubscribe', assets_ids: [FED_YES.tokenId] }));
    expect(await socket.ping()).toBe('PONG');
    await control(fake, 'POST', `/_fake/markets/${FED}/resolve`, { outcome: 'Yes' });
    expect(await socket.nextJson()).toMatchObject({ event_type: 'market_resolved', assets_ids: [FED_YES.tokenId, FED_NO.tokenId] });
  });
});
