/**
 * The Polymarket CLOB V2 fake (fakes/polymarket/) over real loopback HTTP. Orders are built and
 * signed by OUR signing layer (core/venues/polymarket/signing.ts, i.e. the official
 * @polymarket/clob-client-v2 1.1.0 OrderBuilder), the L2 headers come from the client's
 * createL2Headers through the same layer, and the body is the client's orderToJsonV2, sent as the
 * client sends it. The fake must rest, match, cancel and list orders as the venue does, and refuse
 * what the venue refuses with its status and error string.
 */
import { getContractConfig } from '@polymarket/clob-client-v2';
import { getAddress, hashTypedData } from 'viem';
import { Chain, OrderType, polymarketOrderPayload } from '../../core/venues/polymarket/signing';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { ORDER_V2_TYPE } from '../../fakes/polymarket/verify';
import { call, DEV_KEYS, ELECTION_YES, FED_YES, limit, signedPayload, trader, type Trader } from '../support/polymarketTraders';

const TOKEN = FED_YES.tokenId;
const NEG_RISK_TOKEN = ELECTION_YES.tokenId;

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);
const carol = trader('ca701000', DEV_KEYS.carol);

/** The order id the venue gives: the EIP-712 hash of the signed struct (V2 exchange, or neg-risk exchange). */
function expectedOrderId(order: Record<string, any>, negRisk = false): string {
  const contracts = getContractConfig(Chain.AMOY);
  return hashTypedData({
    domain: { name: 'Polymarket CTF Exchange', version: '2', chainId: Chain.AMOY, verifyingContract: getAddress(negRisk ? contracts.negRiskExchangeV2 : contracts.exchangeV2) },
    types: { Order: ORDER_V2_TYPE },
    primaryType: 'Order',
    message: {
      salt: BigInt(order.salt),
      maker: order.maker,
      signer: order.signer,
      tokenId: BigInt(order.tokenId),
      makerAmount: BigInt(order.makerAmount),
      takerAmount: BigInt(order.takerAmount),
      side: order.side === 'BUY' ? 0 : 1,
      signatureType: order.signatureType,
      timestamp: BigInt(order.timestamp),
      metadata: order.metadata,
      builder: order.builder,
    },
  });
}

let fake: PolymarketFake;

beforeEach(async () => {
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], controlApi: true });
});

afterEach(async () => {
  await fake.close();
});

describe('a signed limit order', () => {
  it('rests, with the EIP-712 hash as its id, and shows in its owner\'s open orders and in the public book', async () => {
    const payload = await signedPayload(alice, limit());
    const placed = await call(fake, alice, 'POST', '/order', payload);
    expect(placed.status).toBe(200);
    expect(placed.body).toEqual({ success: true, errorMsg: '', orderID: expectedOrderId(payload.order), tradeIDs: [], status: 'live', takingAmount: '', makingAmount: '' });

    const open = await call(fake, alice, 'GET', `/data/orders?asset_id=${TOKEN}`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ next_cursor: 'LTE=', count: 1 });
    expect(open.body.data).toEqual([
      expect.objectContaining({
        id: placed.body.orderID,
        status: 'LIVE',
        owner: alice.creds.key,
        maker_address: alice.signing.signerAddress,
        market: FED_YES!.conditionId,
        asset_id: TOKEN,
        side: 'BUY',
        original_size: '10',
        size_matched: '0',
        price: '0.56',
        order_type: 'GTC',
        expiration: '0',
        associate_trades: [],
      }),
    ]);
    expect((await call(fake, bob, 'GET', '/data/orders')).body.data).toEqual([]);

    const book = await call(fake, null, 'GET', `/book?token_id=${TOKEN}`);
    expect(book.status).toBe(200);
    expect(book.body).toMatchObject({ market: FED_YES!.conditionId, asset_id: TOKEN, bids: [{ price: '0.56', size: '10' }], asks: [], tick_size: '0.01', min_order_size: '5', neg_risk: false });
    expect(book.body.hash).toMatch(/^[0-9a-f]{40}$/);
  });

  it('on a neg-risk token is verified against the neg-risk exchange, and refused when signed for the plain one', async () => {
    const negRisk = await signedPayload(alice, limit({ tokenId: NEG_RISK_TOKEN, price: '0.123', tickSize: '0.001', negRisk: true }));
    const placed = await call(fake, alice, 'POST', '/order', negRisk);
    expect(placed.status).toBe(200);
    expect(placed.body.orderID).toBe(expectedOrderId(negRisk.order, true));

    const wrongExchange = await signedPayload(alice, limit({ tokenId: NEG_RISK_TOKEN, price: '0.124', tickSize: '0.001', negRisk: false }));
    expect(await call(fake, alice, 'POST', '/order', wrongExchange)).toEqual({ status: 400, body: { error: 'invalid signature' } });
  });
});

describe('a crossing order from another account', () => {
  it('trades at the resting price; both accounts see the trade, which the control API moves MATCHED -> MINED -> CONFIRMED', async () => {
    const resting = await call(fake, alice, 'POST', '/order', await signedPayload(alice, limit()));
    const crossing = await call(fake, bob, 'POST', '/order', await signedPayload(bob, limit({ side: 'SELL', price: '0.55', size: '6' })));
    expect(crossing.status).toBe(200);
    expect(crossing.body).toMatchObject({ success: true, errorMsg: '', status: 'matched', makingAmount: '6', takingAmount: '3.36' });
    expect(crossing.body.tradeIDs).toHaveLength(1);
    const tradeId = crossing.body.tradeIDs[0];

    const aliceTrades = (await call(fake, alice, 'GET', '/data/trades')).body.data;
    const bobTrades = (await call(fake, bob, 'GET', `/data/trades?id=${tradeId}`)).body.data;
    expect(aliceTrades).toEqual([expect.objectContaining({ id: tradeId, trader_side: 'MAKER', status: 'MATCHED', side: 'SELL', size: '6', price: '0.56', taker_order_id: crossing.body.orderID, transaction_hash: '' })]);
    expect(bobTrades).toEqual([expect.objectContaining({ id: tradeId, trader_side: 'TAKER', status: 'MATCHED', owner: bob.creds.key })]);
    expect(aliceTrades[0].maker_orders).toEqual([
      expect.objectContaining({ order_id: resting.body.orderID, owner: alice.creds.key, maker_address: alice.signing.signerAddress, matched_amount: '6', price: '0.56', side: 'BUY' }),
    ]);

    const open = (await call(fake, alice, 'GET', '/data/orders')).body.data;
    expect(open).toEqual([expect.objectContaining({ id: resting.body.orderID, size_matched: '6', original_size: '10', associate_trades: [tradeId] })]);
    expect((await call(fake, null, 'GET', `/book?token_id=${TOKEN}`)).body).toMatchObject({ bids: [{ price: '0.56', size: '4' }], asks: [], last_trade_price: '0.56' });

    const mined = await call(fake, null, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'MINED' });
    expect(mined.body).toMatchObject({ status: 'MINED', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await call(fake, null, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'CONFIRMED' })).body.status).toBe('CONFIRMED');
    expect(await call(fake, null, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'FAILED' })).toEqual({ status: 409, body: { error: 'a CONFIRMED trade cannot become FAILED' } });
    for (const who of [alice, bob]) {
      expect((await call(fake, who, 'GET', '/data/trades')).body.data[0]).toMatchObject({ status: 'CONFIRMED', transaction_hash: mined.body.transaction_hash });
    }
  });

  it('a matched trade can be FAILED on request, and both sides read it FAILED', async () => {
    await call(fake, alice, 'POST', '/order', await signedPayload(alice, limit()));
    const crossing = await call(fake, bob, 'POST', '/order', await signedPayload(bob, limit({ side: 'SELL', price: '0.56', size: '10' })));
    const tradeId = crossing.body.tradeIDs[0];
    expect((await call(fake, null, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'FAILED' })).status).toBe(200);
    for (const who of [alice, bob]) expect((await call(fake, who, 'GET', '/data/trades')).body.data).toEqual([expect.objectContaining({ id: tradeId, status: 'FAILED' })]);
    // Fully matched: gone from the book and from the open orders.
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);
  });

  it('FOK and FAK against an empty side are killed with the venue\'s strings, and nothing rests', async () => {
    expect(await call(fake, bob, 'POST', '/order', await signedPayload(bob, limit({ side: 'SELL', price: '0.5' }), OrderType.FOK))).toEqual({
      status: 400,
      body: { error: "order couldn't be fully filled. FOK orders are fully filled or killed." },
    });
    expect(await call(fake, bob, 'POST', '/order', await signedPayload(bob, limit({ side: 'SELL', price: '0.51' }), OrderType.FAK))).toEqual({
      status: 400,
      body: { error: 'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.' },
    });
    expect((await call(fake, null, 'GET', `/book?token_id=${TOKEN}`)).body).toMatchObject({ bids: [], asks: [] });
  });
});

describe('a GTD order', () => {
  it('needs an expiration at least 3 minutes ahead, and leaves the book one minute before it', async () => {
    await fake.close();
    let nowMs = Date.UTC(2026, 6, 1, 12, 0, 0);
    fake = await PolymarketFake.start({ accounts: [alice.account], clock: () => nowMs });
    const seconds = () => Math.floor(nowMs / 1000);
    const gtd = async (expiration: number) => {
      const payload = await signedPayload(alice, limit({ expiration }), OrderType.GTD);
      return call(fake, alice, 'POST', '/order', payload, { timestampSeconds: seconds() });
    };
    expect(await gtd(seconds() + 179)).toEqual({ status: 400, body: { error: 'invalid expiration' } });
    const placed = await gtd(seconds() + 240);
    expect(placed.body.status).toBe('live');
    nowMs += 179_000;
    expect((await call(fake, alice, 'GET', '/data/orders', undefined, { timestampSeconds: seconds() })).body.data).toEqual([expect.objectContaining({ id: placed.body.orderID, order_type: 'GTD' })]);
    nowMs += 1_000;
    expect((await call(fake, alice, 'GET', '/data/orders', undefined, { timestampSeconds: seconds() })).body.data).toEqual([]);
    expect((await call(fake, null, 'GET', `/book?token_id=${TOKEN}`)).body.bids).toEqual([]);
  });
});

describe('cancel', () => {
  it('removes the order from the book and the open orders; a second cancel, or another account\'s, cancels nothing', async () => {
    const placed = await call(fake, alice, 'POST', '/order', await signedPayload(alice, limit()));
    const id = placed.body.orderID;
    expect(await call(fake, bob, 'DELETE', '/order', { orderID: id })).toEqual({ status: 200, body: { canceled: [], not_canceled: { [id]: 'already canceled or matched' } } });
    expect(await call(fake, alice, 'DELETE', '/order', { orderID: id })).toEqual({ status: 200, body: { canceled: [id], not_canceled: {} } });
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);
    expect((await call(fake, null, 'GET', `/book?token_id=${TOKEN}`)).body.bids).toEqual([]);
    expect((await call(fake, alice, 'DELETE', '/order', { orderID: id })).body).toEqual({ canceled: [], not_canceled: { [id]: 'already canceled or matched' } });
    expect(await call(fake, alice, 'DELETE', '/order', { orderID: 'not-an-id' })).toEqual({ status: 400, body: { error: 'Invalid orderID' } });
  });
});

describe('refusals', () => {
  async function expectNothingRests(): Promise<void> {
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);
    expect((await call(fake, null, 'GET', `/book?token_id=${TOKEN}`)).body.bids).toEqual([]);
  }

  it('an order with a field changed after signing (L2 headers made for the changed body) is an invalid signature', async () => {
    const payload = await signedPayload(alice, limit());
    const tampered = { ...payload, order: { ...payload.order, takerAmount: String(BigInt(payload.order.takerAmount) * 2n) } };
    expect(await call(fake, alice, 'POST', '/order', tampered)).toEqual({ status: 400, body: { error: 'invalid signature' } });
    await expectNothingRests();
  });

  it('another key\'s signature on the account\'s order is an invalid signature', async () => {
    const payload = await signedPayload(alice, limit());
    const carols = await signedPayload(carol, limit());
    expect(await call(fake, alice, 'POST', '/order', { ...payload, order: { ...payload.order, signature: carols.order.signature } })).toEqual({ status: 400, body: { error: 'invalid signature' } });
    await expectNothingRests();
  });

  it('an order signed by another key, posted with the account\'s API key, names the signer', async () => {
    const carols = await signedPayload(carol, limit());
    expect(await call(fake, alice, 'POST', '/order', { ...carols, owner: alice.creds.key })).toEqual({ status: 400, body: { error: 'the order signer address has to be the address of the API KEY' } });
    expect(await call(fake, alice, 'POST', '/order', await signedPayload(carol, limit()))).toEqual({ status: 400, body: { error: 'the order owner has to be the owner of the API KEY' } });
    await expectNothingRests();
  });

  it('stale, early or altered L2 headers, or a wrong passphrase, are 401 Unauthorized/Invalid api key', async () => {
    const payload = await signedPayload(alice, limit());
    const now = Math.floor(Date.now() / 1000);
    const unauthorized = { status: 401, body: { error: 'Unauthorized/Invalid api key' } };
    expect(await call(fake, alice, 'POST', '/order', payload, { timestampSeconds: now - 31 })).toEqual(unauthorized);
    expect(await call(fake, alice, 'POST', '/order', payload, { timestampSeconds: now + 31 })).toEqual(unauthorized);
    expect(await call(fake, alice, 'POST', '/order', payload, { signBody: JSON.stringify({ ...payload, orderType: 'FOK' }) })).toEqual(unauthorized);
    expect(await call(fake, alice, 'POST', '/order', payload, { creds: { ...alice.creds, passphrase: 'x'.repeat(64) } })).toEqual(unauthorized);
    expect(await call(fake, null, 'POST', '/order', payload)).toEqual(unauthorized);
    expect(fake.requests.filter((r) => r.path === '/order').map((r) => r.refusal)).toEqual([
      'POLY_TIMESTAMP is outside the accepted window',
      'POLY_TIMESTAMP is outside the accepted window',
      'invalid L2 signature',
      'wrong passphrase',
      'missing header POLY_ADDRESS',
    ]);
    await expectNothingRests();
  });

  it('a price off the token\'s tick and a size below its minimum are refused with the venue\'s strings', async () => {
    const offTick = await signedPayload(alice, limit({ price: '0.555', tickSize: '0.001' }));
    expect(await call(fake, alice, 'POST', '/order', offTick)).toEqual({
      status: 400,
      body: { error: `order ${expectedOrderId(offTick.order)} is invalid. Price (0.555) breaks minimum tick size rule: 0.01` },
    });
    const small = await signedPayload(alice, limit({ size: '2' }));
    expect(await call(fake, alice, 'POST', '/order', small)).toEqual({ status: 400, body: { error: `order ${expectedOrderId(small.order)} is invalid. Size (2) lower than the minimum: 5` } });
    await expectNothingRests();
  });

  it('the same signed order twice is Duplicated', async () => {
    const payload = await signedPayload(alice, limit());
    const first = await call(fake, alice, 'POST', '/order', payload);
    expect(await call(fake, alice, 'POST', '/order', payload)).toEqual({ status: 400, body: { error: `order ${first.body.orderID} is invalid. Duplicated.` } });
    expect((await call(fake, alice, 'GET', '/data/orders')).body.count).toBe(1);
  });
});

describe('one order, balances and API keys', () => {
  it('GET /data/order/{id} answers the owner\'s order in any status, null to anyone else or for an unknown id', async () => {
    const placed = await call(fake, alice, 'POST', '/order', await signedPayload(alice, limit()));
    const id = placed.body.orderID as string;
    expect((await call(fake, alice, 'GET', `/data/order/${id}`)).body).toMatchObject({ id, status: 'LIVE', original_size: '10', size_matched: '0', price: '0.56', asset_id: TOKEN });
    expect(await call(fake, bob, 'GET', `/data/order/${id}`)).toEqual({ status: 200, body: null });
    expect(await call(fake, alice, 'GET', `/data/order/0x${'ab'.repeat(32)}`)).toEqual({ status: 200, body: null });
    expect((await call(fake, alice, 'GET', '/data/order/not-an-id')).body).toEqual({ error: 'Invalid orderID' });
    await call(fake, alice, 'DELETE', '/order', { orderID: id });
    expect((await call(fake, alice, 'GET', `/data/order/${id}`)).body).toMatchObject({ status: 'CANCELED' });
  });

  it('balances in base units move with a trade: pUSD from buyer to seller, shares the other way', async () => {
    fake.exchange.wallets.seedCollateral(alice.signing.makerAddress, '100');
    await call(fake, bob, 'POST', '/order', await signedPayload(bob, limit({ side: 'SELL', price: '0.40', size: '5' })));
    await call(fake, alice, 'POST', '/order', await signedPayload(alice, limit({ price: '0.40', size: '5' })));
    const balance = (who: Trader, query: string) => call(fake, who, 'GET', `/balance-allowance?${query}`).then((r) => r.body.balance);
    expect(await balance(alice, 'asset_type=COLLATERAL')).toBe('98000000');
    expect(await balance(bob, 'asset_type=COLLATERAL')).toBe('2000000');
    expect(await balance(alice, `asset_type=CONDITIONAL&token_id=${TOKEN}`)).toBe('5000000');
    expect(await balance(bob, `asset_type=CONDITIONAL&token_id=${TOKEN}`)).toBe('-5000000'); // not enforced: bob sold what he did not hold
    expect((await call(fake, alice, 'GET', '/balance-allowance?asset_type=CONDITIONAL')).status).toBe(400);
  });

  it('L1: a key is created once per address and nonce, then derived; unsigned or stale L1 headers are 401', async () => {
    const carolL1 = (seconds = Math.floor(Date.now() / 1000)) => carol.signing.l1Headers(0, seconds);
    const l1 = async (method: string, path: string, headers: Record<string, unknown>) => {
      const response = await fetch(`${fake.baseUrl}${path}`, { method, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])) });
      return { status: response.status, body: await response.json() };
    };
    expect(await l1('GET', '/auth/derive-api-key', await carolL1())).toEqual({ status: 400, body: { error: 'Could not derive api key!' } });
    const created = await l1('POST', '/auth/api-key', await carolL1());
    expect(created).toMatchObject({ status: 200, body: { apiKey: expect.any(String), secret: expect.any(String), passphrase: expect.any(String) } });
    expect(await l1('POST', '/auth/api-key', await carolL1())).toEqual({ status: 400, body: { error: 'Could not create api key' } });
    expect(await l1('GET', '/auth/derive-api-key', await carolL1())).toEqual(created);
    expect((await l1('GET', '/auth/derive-api-key', await carolL1(Math.floor(Date.now() / 1000) - 31))).status).toBe(401);
    expect((await l1('GET', '/auth/derive-api-key', {})).status).toBe(401);
    // The created key trades: an order signed by carol, posted with it, rests.
    const creds = { key: created.body.apiKey, secret: created.body.secret, passphrase: created.body.passphrase };
    const payload = polymarketOrderPayload(await carol.signing.signLimitOrder(limit()), creds.key, OrderType.GTC);
    expect((await call(fake, carol, 'POST', '/order', payload, { creds })).body).toMatchObject({ success: true, status: 'live' });
  });
});

describe('fault injection', () => {
  it('a 503 for the next POST /order processes nothing; a dropped connection after acceptance leaves the order resting', async () => {
    await call(fake, null, 'POST', '/_fake/faults', { kind: 'server_error', status: 503, method: 'POST', path_prefix: '/order' });
    const payload = await signedPayload(alice, limit());
    expect(await call(fake, alice, 'POST', '/order', payload)).toEqual({ status: 503, body: { error: 'Internal server error' } });
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([]);

    await call(fake, null, 'POST', '/_fake/faults', { kind: 'accept_then_drop', method: 'POST', path_prefix: '/order' });
    await expect(call(fake, alice, 'POST', '/order', payload)).rejects.toThrow();
    expect((await call(fake, alice, 'GET', '/data/orders')).body.data).toEqual([expect.objectContaining({ id: expectedOrderId(payload.order) })]);
    expect(fake.requests.filter((r) => r.path === '/order').map((r) => [r.status, r.apiKey])).toEqual([
      [503, alice.creds.key],
      ['dropped', alice.creds.key],
    ]);
  });
});

describe('public reads', () => {
  it('server time is unix seconds; an unknown token has no book', async () => {
    const before = Math.floor(Date.now() / 1000);
    const time = await call(fake, null, 'GET', '/time');
    expect(time.status).toBe(200);
    expect(time.body).toBeGreaterThanOrEqual(before);
    expect(time.body).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(await call(fake, null, 'GET', '/book?token_id=123')).toEqual({ status: 404, body: { error: 'No orderbook exists for the requested token id' } });
    expect(await call(fake, null, 'GET', '/book?token_id=abc')).toEqual({ status: 400, body: { error: 'Invalid token id' } });
  });
});
