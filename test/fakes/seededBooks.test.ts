/**
 * The fakes as a newcomer meets them (issue "the first hour of a new user"): started standalone
 * they seed every book with their built-in market maker's resting ladder around each market's mid,
 * in the venue's own book shape (Kalshi: bids only in `orderbook_fp`, YES and NO; Polymarket
 * `/book`: bids and asks of each token, best last), so an order at the ask fills; and both offer the
 * same counterparty control (`POST /_fake/orders`, `DELETE /_fake/orders/{id}`, `POST
 * /_fake/books/seed`, in code `placeOrderAs` / `cancelOrderAs` / `seedBooks`) that fills a resting
 * order of ours through the same book. Programmatic fakes keep empty books unless asked.
 *
 * Real HTTP on loopback; Kalshi requests signed by our signer (core/venues/kalshi/signing.ts),
 * Polymarket orders by our signing layer over the official client (test/support/polymarketTraders.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createKalshiSigner } from '../../core/venues/kalshi/signing';
import { OrderType } from '../../core/venues/polymarket/signing';
import { MARKET_MAKER_USER_ID } from '../../fakes/kalshi/marketMaker';
import { KalshiFake } from '../../fakes/kalshi/server';
import { MARKET_MAKER_ADDRESS, MARKET_MAKER_API_KEY } from '../../fakes/polymarket/marketMaker';
import { PolymarketFake } from '../../fakes/polymarket/server';
import { newKalshiKey, type KalshiKey } from '../support/kalshiKeys';
import { v2OrderBody } from '../support/kalshiOrders';
import { call as pmCall, control as pmControl, DEV_KEYS, ELECTION_YES, FED_NO, FED_YES, limit, place, signedPayload, trader, UserSocket } from '../support/polymarketTraders';

const ROOT = path.resolve(__dirname, '../..');
const FED = 'KXFAKEFED-26DEC-T4.00';
const HIGH = 'KXFAKEHIGH-26DEC31-T40';

/** Starts a fake's start.ts as a user does (port 0) and waits for its printed lines. */
async function startProcess(script: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  return { child, output: () => output, match };
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------------------------------------
// Kalshi

const alice = newKalshiKey();

async function kalshi(origin: string, key: KalshiKey | null, method: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; body: any }> {
  const fullPath = `/trade-api/v2${pathAndQuery}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) Object.assign(headers, createKalshiSigner(key.keyId, key.privateKey).request(method, fullPath.split('?')[0]!));
  const res = await fetch(`${origin}${fullPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function kalshiControl(origin: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${origin}/_fake${route}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** The seeded FED book (mid 0.45): YES bids 0.40..0.44, YES asks 0.46..0.50 shown as NO bids 0.50..0.54; 500 far, 100 at the touch. */
const FED_SEEDED = {
  yes_dollars: [['0.4000', '500.00'], ['0.4100', '400.00'], ['0.4200', '300.00'], ['0.4300', '200.00'], ['0.4400', '100.00']],
  no_dollars: [['0.5000', '500.00'], ['0.5100', '400.00'], ['0.5200', '300.00'], ['0.5300', '200.00'], ['0.5400', '100.00']],
};

describe('Kalshi fake: seeded books', () => {
  let fake: KalshiFake;
  afterEach(async () => {
    await fake?.close();
  });

  it('keeps empty books when started from code without seedBooks', async () => {
    fake = await KalshiFake.start();
    for (const ticker of [FED, HIGH]) {
      expect((await kalshi(fake.origin, null, 'GET', `/markets/${ticker}/orderbook`)).body).toEqual({ orderbook_fp: { yes_dollars: [], no_dollars: [] } });
    }
    expect(fake.exchange.allOrders()).toEqual([]);
  });

  it('with seedBooks, every market has the market maker\'s bids on both legs around its mid, bids only, best last', async () => {
    fake = await KalshiFake.start({ seedBooks: true });
    expect(fake.marketMaker).toBe(MARKET_MAKER_USER_ID);
    const markets = (await kalshi(fake.origin, null, 'GET', '/markets')).body.markets as Array<{ ticker: string }>;
    expect(markets.map((m) => m.ticker).sort()).toEqual([FED, HIGH]);
    for (const { ticker } of markets) {
      const book = (await kalshi(fake.origin, null, 'GET', `/markets/${ticker}/orderbook`)).body;
      expect(Object.keys(book)).toEqual(['orderbook_fp']);
      expect(Object.keys(book.orderbook_fp).sort()).toEqual(['no_dollars', 'yes_dollars']);
      for (const leg of [book.orderbook_fp.yes_dollars, book.orderbook_fp.no_dollars] as string[][][]) {
        expect(leg).toHaveLength(5);
        const prices = leg.map(([price]) => Number(price));
        expect(prices).toEqual([...prices].sort((a, b) => a - b)); // best (highest) bid last
        expect(leg.map(([, count]) => count)).toEqual(['500.00', '400.00', '300.00', '200.00', '100.00']);
      }
    }
    expect((await kalshi(fake.origin, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp).toEqual(FED_SEEDED);
    // The fractional, tapered market (mid 0.30): YES bids 0.25..0.29, asks 0.31..0.35 (NO bids 0.65..0.69).
    const high = (await kalshi(fake.origin, null, 'GET', `/markets/${HIGH}/orderbook`)).body.orderbook_fp;
    expect(high.yes_dollars.at(-1)).toEqual(['0.2900', '100.00']);
    expect(high.no_dollars.at(-1)).toEqual(['0.6900', '100.00']);
    expect((await kalshi(fake.origin, null, 'GET', `/markets/${FED}`)).body.market).toMatchObject({
      yes_bid_dollars: '0.4400',
      yes_bid_size_fp: '100.00',
      yes_ask_dollars: '0.4600',
      yes_ask_size_fp: '100.00',
    });
    // Ordinary resting orders of the market maker, 10 per market.
    expect(fake.exchange.restingOrderIds(MARKET_MAKER_USER_ID, undefined, undefined)).toHaveLength(20);
    expect(fake.exchange.allOrders().every((o) => o.userId === MARKET_MAKER_USER_ID && o.status === 'resting')).toBe(true);
  });

  it('an IOC bid at the ask fills at the seeded ask: a taker fill for us, a maker fill for the market maker', async () => {
    fake = await KalshiFake.start({ seedBooks: true, accounts: [{ userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] }] });
    const taken = await kalshi(fake.origin, alice, 'POST', '/portfolio/events/orders', v2OrderBody(FED, { price: '0.4600', count: '10.00', time_in_force: 'immediate_or_cancel' }));
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ fill_count: '10.00', remaining_count: '0.00', average_fill_price: '0.4600' });

    const fills = (await kalshi(fake.origin, alice, 'GET', '/portfolio/fills')).body.fills;
    expect(fills).toEqual([expect.objectContaining({ order_id: taken.body.order_id, count_fp: '10.00', yes_price_dollars: '0.4600', is_taker: true, action: 'buy', side: 'yes' })]);
    // Taker fee 0.07 x 10 x 0.46 x 0.54 = 0.1739 (rounded up to the cent-hundredth).
    expect(fills[0].fee_cost).toBe('0.173900');
    const makerFills = fake.exchange.listFills(MARKET_MAKER_USER_ID, { ticker: FED });
    expect(makerFills).toEqual([expect.objectContaining({ isTaker: false, units: 1000, yesPriceTicks: 4600, bookSide: 'ask' })]);
    // The touch keeps the rest of its 100.
    expect((await kalshi(fake.origin, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp.no_dollars.at(-1)).toEqual(['0.5400', '90.00']);
    expect((await kalshi(fake.origin, alice, 'GET', '/portfolio/positions')).body.market_positions).toEqual([expect.objectContaining({ ticker: FED, position_fp: '10.00' })]);
  });

  it('the control API plays the counterparty (the market maker by default), cancels its orders, and reseeds', async () => {
    fake = await KalshiFake.start({ seedBooks: true, controlApi: true, accounts: [{ userId: 'user-alice', balanceDollars: '1000.00', keys: [alice] }] });
    // Ours rests inside the spread.
    const ours = await kalshi(fake.origin, alice, 'POST', '/portfolio/events/orders', v2OrderBody(FED, { price: '0.4500', count: '5.00' }));
    expect(ours.body).toMatchObject({ fill_count: '0.00', remaining_count: '5.00' });

    const theirs = await kalshiControl(fake.origin, 'POST', '/orders', { order: v2OrderBody(FED, { side: 'ask', price: '0.4500', count: '3.00', time_in_force: 'immediate_or_cancel' }) });
    expect(theirs).toEqual({ status: 201, body: expect.objectContaining({ fill_count: '3.00', average_fill_price: '0.4500' }) });
    expect((await kalshi(fake.origin, alice, 'GET', `/portfolio/orders/${ours.body.order_id}`)).body.order).toMatchObject({ fill_count_fp: '3.00', remaining_count_fp: '2.00', status: 'resting' });
    expect((await kalshi(fake.origin, alice, 'GET', '/portfolio/fills')).body.fills).toEqual([expect.objectContaining({ count_fp: '3.00', yes_price_dollars: '0.4500', is_taker: false })]);

    // A resting counter-order, then its cancel (no user_id: the market maker's).
    const resting = await kalshiControl(fake.origin, 'POST', '/orders', { order: v2OrderBody(FED, { side: 'ask', price: '0.4500', count: '7.00' }) });
    expect(resting.body).toMatchObject({ fill_count: '2.00', remaining_count: '5.00' });
    expect((await kalshiControl(fake.origin, 'DELETE', `/orders/${resting.body.order_id}`)).body).toMatchObject({ order_id: resting.body.order_id, reduced_by: '5.00' });
    // Another account's order by its user_id, in the query string.
    const again = await kalshi(fake.origin, alice, 'POST', '/portfolio/events/orders', v2OrderBody(FED, { price: '0.4500', count: '5.00' }));
    expect((await kalshiControl(fake.origin, 'DELETE', `/orders/${again.body.order_id}?user_id=user-alice`)).status).toBe(200);
    expect((await kalshiControl(fake.origin, 'DELETE', `/orders/${again.body.order_id}?user_id=user-alice`)).status).toBe(404);

    // Take out the touch, then reseed: the ladder is back (no earlier quote doubled).
    await kalshi(fake.origin, alice, 'POST', '/portfolio/events/orders', v2OrderBody(FED, { price: '0.4700', count: '300.00', time_in_force: 'immediate_or_cancel' }));
    expect((await kalshi(fake.origin, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp.no_dollars).toHaveLength(3);
    expect(await kalshiControl(fake.origin, 'POST', '/books/seed', {})).toEqual({ status: 200, body: { user_id: MARKET_MAKER_USER_ID, placed: 20, refused: [] } });
    expect((await kalshi(fake.origin, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp).toEqual(FED_SEEDED);
    expect((await kalshiControl(fake.origin, 'POST', '/books/seed', { levels: 0 })).status).toBe(400);
  });

  it('start.ts seeds the books unless KALSHI_FAKE_SEED_BOOKS=false', async () => {
    let proc: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      proc = await startProcess('fakes/kalshi/start.ts', { KALSHI_FAKE_PORT: '0' }, /control (http:\/\/\S+)\/_fake\/\n(Books [^\n]*)\n/);
      const origin = proc.match[1]!;
      expect(proc.match[2]).toBe(`Books seeded: 20 resting orders of the market maker "${MARKET_MAKER_USER_ID}" (KALSHI_FAKE_SEED_BOOKS=false for empty books)`);
      expect((await kalshi(origin, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp).toEqual(FED_SEEDED);
    } finally {
      await stopProcess(proc?.child);
    }
    try {
      proc = await startProcess('fakes/kalshi/start.ts', { KALSHI_FAKE_PORT: '0', KALSHI_FAKE_SEED_BOOKS: 'false' }, /control (http:\/\/\S+)\/_fake\/\n(Books [^\n]*)\n/);
      expect(proc.match[2]).toBe('Books empty (KALSHI_FAKE_SEED_BOOKS=false)');
      expect((await kalshi(proc.match[1]!, null, 'GET', `/markets/${FED}/orderbook`)).body.orderbook_fp).toEqual({ yes_dollars: [], no_dollars: [] });
    } finally {
      await stopProcess(proc?.child);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Polymarket

const pmAlice = trader('a11ce000', DEV_KEYS.alice);
const pmBob = trader('b0b00000', DEV_KEYS.bob);

/** The seeded Fed Yes book (mid 0.45): bids 0.40..0.44, asks 0.46..0.50, 500 far, 100 at the touch; best LAST on each side. */
// Prices as the venue writes a book's levels: the shortest decimal ("0.5", not "0.50"; docs/polymarket-fake.md).
const FED_YES_BIDS = [
  { price: '0.4', size: '500' },
  { price: '0.41', size: '400' },
  { price: '0.42', size: '300' },
  { price: '0.43', size: '200' },
  { price: '0.44', size: '100' },
];
const FED_YES_ASKS = [
  { price: '0.5', size: '500' },
  { price: '0.49', size: '400' },
  { price: '0.48', size: '300' },
  { price: '0.47', size: '200' },
  { price: '0.46', size: '100' },
];

describe('Polymarket fake: seeded books', () => {
  let fake: PolymarketFake;
  const sockets: UserSocket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await fake?.close();
  });

  const book = async (tokenId: string) => (await pmCall(fake, null, 'GET', `/book?token_id=${tokenId}`)).body;

  it('keeps empty books when started from code without seedBooks', async () => {
    fake = await PolymarketFake.start();
    for (const token of [FED_YES, FED_NO, ELECTION_YES]) expect(await book(token.tokenId)).toMatchObject({ bids: [], asks: [] });
    expect(fake.exchange.allOrders()).toEqual([]);
  });

  it('with seedBooks, every token\'s /book has the market maker\'s bids and asks around its mid on the token\'s tick, best last', async () => {
    fake = await PolymarketFake.start({ seedBooks: true });
    expect(fake.marketMaker).toBe(MARKET_MAKER_API_KEY);
    expect(await book(FED_YES.tokenId)).toMatchObject({ asset_id: FED_YES.tokenId, market: FED_YES.conditionId, bids: FED_YES_BIDS, asks: FED_YES_ASKS, tick_size: '0.01', last_trade_price: '' });
    // The No token around 0.55, the neg-risk Yes around 0.62 on its 0.001 tick.
    const no = await book(FED_NO.tokenId);
    expect([no.bids.at(-1), no.asks.at(-1)]).toEqual([{ price: '0.54', size: '100' }, { price: '0.56', size: '100' }]);
    const election = await book(ELECTION_YES.tokenId);
    expect(election.bids.map((l: { price: string }) => l.price)).toEqual(['0.57', '0.58', '0.59', '0.6', '0.61']);
    expect(election.asks.map((l: { price: string }) => l.price)).toEqual(['0.67', '0.66', '0.65', '0.64', '0.63']);
    // Ordinary resting GTC orders of the market maker, whose wallet holds the shares its asks offer.
    const orders = fake.exchange.allOrders();
    expect(orders).toHaveLength(30);
    expect(orders.every((o) => o.apiKey === MARKET_MAKER_API_KEY && o.status === 'LIVE' && o.orderType === 'GTC' && o.makerAddress === MARKET_MAKER_ADDRESS)).toBe(true);
    expect(fake.exchange.wallets.holdings(MARKET_MAKER_ADDRESS, FED_YES.tokenId).shares.toString()).toBe('1500');
  });

  it('a FOK buy at the ask fills at the seeded ask, and a FAK buy walks the asks: we are TAKER, the market maker MAKER', async () => {
    fake = await PolymarketFake.start({ seedBooks: true, accounts: [pmAlice.account], settlement: { automatic: false } });
    const fok = await pmCall(fake, pmAlice, 'POST', '/order', await signedPayload(pmAlice, limit({ price: '0.46', size: '10' }), OrderType.FOK));
    expect(fok.status).toBe(200);
    expect(fok.body).toMatchObject({ success: true, status: 'matched', makingAmount: '4.6', takingAmount: '10' });
    const trades = (await pmCall(fake, pmAlice, 'GET', '/data/trades')).body.data;
    expect(trades).toEqual([expect.objectContaining({ id: fok.body.tradeIDs[0], trader_side: 'TAKER', side: 'BUY', size: '10', price: '0.46', status: 'MATCHED' })]);
    expect(trades[0].maker_orders).toEqual([expect.objectContaining({ owner: MARKET_MAKER_API_KEY, maker_address: MARKET_MAKER_ADDRESS, side: 'SELL', price: '0.46', matched_amount: '10' })]);
    expect((await book(FED_YES.tokenId)).asks.at(-1)).toEqual({ price: '0.46', size: '90' });

    // FAK 150 at up to 0.47: the 90 left at 0.46, then 60 at 0.47.
    const fak = await pmCall(fake, pmAlice, 'POST', '/order', await signedPayload(pmAlice, limit({ price: '0.47', size: '150' }), OrderType.FAK));
    expect(fak.body).toMatchObject({ status: 'matched', takingAmount: '150', makingAmount: '69.6' });
    expect((await book(FED_YES.tokenId)).asks.slice(-2)).toEqual([{ price: '0.48', size: '300' }, { price: '0.47', size: '140' }]);
    // A FOK larger than the whole ask side up to its price is killed, as the venue kills it.
    const tooBig = await pmCall(fake, pmAlice, 'POST', '/order', await signedPayload(pmAlice, limit({ price: '0.47', size: '1000' }), OrderType.FOK));
    expect(tooBig).toEqual({ status: 400, body: { error: "order couldn't be fully filled. FOK orders are fully filled or killed." } });
  });

  it('the control route POST /_fake/orders fills our resting order as the market maker; /data/trades and the user channel report it', async () => {
    fake = await PolymarketFake.start({ seedBooks: true, controlApi: true, accounts: [pmAlice.account, pmBob.account], settlement: { automatic: false } });
    const socket = await UserSocket.subscribe(fake, pmAlice);
    sockets.push(socket);
    // Ours rests inside the spread.
    const ours = await place(fake, pmAlice, { price: '0.45', size: '10' });
    expect(ours.body).toMatchObject({ status: 'live' });
    expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'PLACEMENT', id: ours.body.orderID });

    const theirs = await pmControl(fake, 'POST', '/_fake/orders', { token_id: FED_YES.tokenId, side: 'SELL', price: '0.45', size: '4', type: 'FAK' });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ success: true, status: 'matched', makingAmount: '4', takingAmount: '1.8', orderID: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const tradeId = theirs.body.tradeIDs[0];

    expect((await pmCall(fake, pmAlice, 'GET', '/data/trades')).body.data).toEqual([
      expect.objectContaining({ id: tradeId, trader_side: 'MAKER', side: 'SELL', size: '4', price: '0.45', owner: MARKET_MAKER_API_KEY, maker_address: MARKET_MAKER_ADDRESS, status: 'MATCHED' }),
    ]);
    expect((await pmCall(fake, pmAlice, 'GET', `/data/order/${ours.body.orderID}`)).body).toMatchObject({ status: 'LIVE', size_matched: '4', associate_trades: [tradeId] });
    expect(await socket.nextJson()).toMatchObject({ event_type: 'order', type: 'UPDATE', id: ours.body.orderID, size_matched: '4' });
    expect(await socket.nextJson()).toMatchObject({ event_type: 'trade', id: tradeId, trader_side: 'MAKER', status: 'MATCHED', owner: pmAlice.creds.key });
    // The market maker sold shares it holds (minted for the control path when short).
    expect(fake.exchange.wallets.holdings(MARKET_MAKER_ADDRESS, FED_YES.tokenId).shares.toString()).toBe('1500');

    // A resting counter-order, then its cancel (no api_key: the market maker's).
    const resting = await pmControl(fake, 'POST', '/_fake/orders', { token_id: FED_YES.tokenId, side: 'SELL', price: '0.45', size: '10' });
    expect(resting.body).toMatchObject({ status: 'matched', makingAmount: '6' });
    expect((await pmControl(fake, 'GET', '/_fake/orders')).body.orders).toContainEqual(expect.objectContaining({ id: resting.body.orderID, api_key: MARKET_MAKER_API_KEY, status: 'LIVE' }));
    expect((await pmControl(fake, 'DELETE', `/_fake/orders/${resting.body.orderID}`)).body).toEqual({ canceled: [resting.body.orderID], not_canceled: {} });
    expect((await book(FED_YES.tokenId)).asks.at(-1)).toEqual({ price: '0.46', size: '100' });

    // As another registered account (api_key), and the venue's refusals on the control path.
    const bobs = await pmControl(fake, 'POST', '/_fake/orders', { api_key: pmBob.creds.key, token_id: FED_YES.tokenId, side: 'BUY', price: '0.45', size: '5' });
    expect(bobs.body).toMatchObject({ status: 'live' });
    expect((await pmControl(fake, 'DELETE', `/_fake/orders/${bobs.body.orderID}?api_key=${pmBob.creds.key}`)).body.canceled).toEqual([bobs.body.orderID]);
    expect((await pmControl(fake, 'POST', '/_fake/orders', { token_id: FED_YES.tokenId, side: 'SELL', price: '0.455', size: '5' })).body.error).toMatch(/breaks minimum tick size rule: 0.01/);
    expect((await pmControl(fake, 'POST', '/_fake/orders', { token_id: FED_YES.tokenId, side: 'SELL', price: '0.60', size: '2' })).body.error).toMatch(/lower than the minimum: 5/);
    expect((await pmControl(fake, 'POST', '/_fake/orders', { token_id: FED_YES.tokenId, side: 'SELL', price: '0.99', size: '5', type: 'FOK' })).status).toBe(400);
    expect((await pmControl(fake, 'POST', '/_fake/orders', { side: 'SELL', price: '0.5', size: '5' })).status).toBe(400);
  });

  it('reseeding puts the ladder back without doubling it', async () => {
    fake = await PolymarketFake.start({ seedBooks: true, controlApi: true, accounts: [pmAlice.account], settlement: { automatic: false } });
    await pmCall(fake, pmAlice, 'POST', '/order', await signedPayload(pmAlice, limit({ price: '0.48', size: '300' }), OrderType.FAK));
    expect((await book(FED_YES.tokenId)).asks).toHaveLength(3);
    expect(await pmControl(fake, 'POST', '/_fake/books/seed', {})).toEqual({ status: 200, body: { api_key: MARKET_MAKER_API_KEY, placed: 30, refused: [] } });
    expect(await book(FED_YES.tokenId)).toMatchObject({ bids: FED_YES_BIDS, asks: FED_YES_ASKS });
  });

  it('start.ts seeds the books (and Gamma lists the mids) unless POLYMARKET_FAKE_SEED_BOOKS=false', async () => {
    let proc: Awaited<ReturnType<typeof startProcess>> | undefined;
    const ready = /CLOB (http:\/\/\S+) .*Gamma (http:\/\/\S+) [^\n]*\n(Books [^\n]*)\n/;
    try {
      proc = await startProcess('fakes/polymarket/start.ts', { POLYMARKET_FAKE_PORT: '0', POLYMARKET_GAMMA_FAKE_PORT: '0' }, ready);
      const [, clob, gamma, books] = proc.match;
      expect(books).toBe(`Books seeded: 30 resting orders of the market maker (API key ${MARKET_MAKER_API_KEY}) (POLYMARKET_FAKE_SEED_BOOKS=false for empty books)`);
      expect(await (await fetch(`${clob}/book?token_id=${FED_YES.tokenId}`)).json()).toMatchObject({ bids: FED_YES_BIDS, asks: FED_YES_ASKS });
      const listed = (await (await fetch(`${gamma}/markets/keyset?limit=10`)).json()) as { markets: Array<{ conditionId: string; outcomePrices: string }> };
      expect(listed.markets.find((m) => m.conditionId === FED_YES.conditionId)?.outcomePrices).toBe('["0.45","0.55"]');
    } finally {
      await stopProcess(proc?.child);
    }
    try {
      proc = await startProcess('fakes/polymarket/start.ts', { POLYMARKET_FAKE_PORT: '0', POLYMARKET_GAMMA_FAKE_PORT: '0', POLYMARKET_FAKE_SEED_BOOKS: 'false' }, ready);
      expect(proc.match[3]).toBe('Books empty (POLYMARKET_FAKE_SEED_BOOKS=false)');
      expect(await (await fetch(`${proc.match[1]}/book?token_id=${FED_YES.tokenId}`)).json()).toMatchObject({ bids: [], asks: [] });
    } finally {
      await stopProcess(proc?.child);
    }
  });
});
