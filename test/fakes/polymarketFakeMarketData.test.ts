/**
 * The Polymarket fake's public market data (CLOB V2, 2026-11) over real loopback HTTP and WebSockets:
 * the order book summaries and their hash (`GET /book`, `POST /books`), `GET /last-trade-price`,
 * `GET /prices-history`, the Data API's public trades, Gamma's events and live market figures, and
 * the market channel (`/ws/market`) with its initial dump, `price_change`, `last_trade_price`,
 * `book`, `tick_size_change` and `best_bid_ask` messages, each checked against the fake's real book
 * after orders, cancels, fills and the market maker's quotes, and its faults (a frozen feed, dropped
 * sockets, a lost message), which a consumer detects by the books' hashes.
 *
 * The consumer below keeps books from the channel as a client would, and hashes them itself with
 * the venue's algorithm (SHA-1 of the compact JSON of the ten summary fields in the server's order,
 * `hash` ""), written here independently of the fake's code. Trades are driven through the fake's
 * own participants (`fake.placeOrderAs`, the control API's `POST /_fake/orders`). Waits are on
 * conditions (frames arriving, a PING answered), never on sleeps.
 */
import { createHash } from 'node:crypto';
import { Chain, ClobClient } from '@polymarket/clob-client-v2';
import { Decimal } from '../../core/domain/decimals';
import { GammaFake, gammaMarket } from '../../fakes/polymarket/gamma';
import { PolymarketFake, type PolymarketFakeOptions } from '../../fakes/polymarket/server';
import { control, DEV_KEYS, ELECTION_YES, FED_NO, FED_YES, trader, UserSocket, type Reply } from '../support/polymarketTraders';

const alice = trader('a11ce000', DEV_KEYS.alice);
const bob = trader('b0b00000', DEV_KEYS.bob);
const FED = FED_YES.conditionId;
const UNKNOWN_TOKEN = '12345';

let fake: PolymarketFake;
let gamma: GammaFake | undefined;
const sockets: UserSocket[] = [];

async function start(options: PolymarketFakeOptions = {}): Promise<PolymarketFake> {
  fake = await PolymarketFake.start({ accounts: [alice.account, bob.account], controlApi: true, settlement: { automatic: false }, marketData: true, ...options });
  return fake;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await fake?.close();
  await gamma?.close();
  gamma = undefined;
});

async function get(url: string): Promise<Reply> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() } as Reply;
}
async function post(url: string, body: unknown): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: await response.json() } as Reply;
}
const clob = (path: string) => get(`${fake.baseUrl}${path}`);

/** An order of one of the fake's participants (the market maker by default); its answer. */
function order(side: 'BUY' | 'SELL', price: string, size: string, over: { tokenId?: string; as?: string; orderType?: 'GTC' | 'FOK' | 'FAK' } = {}) {
  const answer = fake.placeOrderAs(over.as ?? fake.marketMaker, { tokenId: over.tokenId ?? FED_YES.tokenId, side, price, size, orderType: over.orderType ?? 'GTC' });
  expect(answer.status).toBe(200);
  return answer.body as { orderID: string; tradeIDs: string[]; status: string };
}

/** The venue's hash of a summary, as a client computes it (py-clob-client-v2 generate_orderbook_summary_hash). */
function venueHash(s: { market: string; asset_id: string; timestamp: string; bids: Level[]; asks: Level[]; min_order_size: string; tick_size: string; neg_risk: boolean; last_trade_price: string }): string {
  const payload = { market: s.market, asset_id: s.asset_id, timestamp: s.timestamp, hash: '', bids: s.bids, asks: s.asks, min_order_size: s.min_order_size, tick_size: s.tick_size, neg_risk: s.neg_risk, last_trade_price: s.last_trade_price };
  return createHash('sha1').update(JSON.stringify(payload)).digest('hex');
}

interface Level {
  price: string;
  size: string;
}

/**
 * A market-channel consumer: keeps each token's book from `book` and `price_change` messages,
 * follows `last_trade_price` and `tick_size_change`, and checks every hash it is given against its
 * own book (`min_order_size` and `neg_risk` come from REST, as the channel does not carry them).
 */
class BookKeeper {
  readonly books = new Map<string, { market: string; bids: Map<string, string>; asks: Map<string, string>; tick: string; lastTrade: string }>();
  readonly verdicts: boolean[] = [];

  constructor(private readonly rest: Map<string, { min_order_size: string; neg_risk: boolean }>) {}

  static async forTokens(tokenIds: string[]): Promise<BookKeeper> {
    const rest = new Map<string, { min_order_size: string; neg_risk: boolean }>();
    for (const id of tokenIds) {
      const { body } = await clob(`/book?token_id=${id}`);
      rest.set(id, { min_order_size: body.min_order_size, neg_risk: body.neg_risk });
    }
    return new BookKeeper(rest);
  }

  /** Applies a frame (or an array frame); answers whether every hash in it matched the kept book. */
  apply(frame: any): boolean {
    if (Array.isArray(frame)) return frame.map((f) => this.apply(f)).every(Boolean);
    switch (frame.event_type) {
      case 'book': {
        const old = this.books.get(frame.asset_id);
        this.books.set(frame.asset_id, {
          market: frame.market,
          bids: new Map(frame.bids.map((l: Level) => [l.price, l.size])),
          asks: new Map(frame.asks.map((l: Level) => [l.price, l.size])),
          tick: frame.tick_size,
          lastTrade: frame.last_trade_price ?? old?.lastTrade ?? '',
        });
        return this.check(frame.asset_id, frame.timestamp, frame.hash);
      }
      case 'price_change': {
        for (const c of frame.price_changes) {
          const side = this.books.get(c.asset_id)![c.side === 'BUY' ? 'bids' : 'asks'];
          if (c.size === '0') side.delete(c.price);
          else side.set(c.price, c.size);
        }
        return frame.price_changes.map((c: { asset_id: string; hash: string }) => this.check(c.asset_id, frame.timestamp, c.hash)).every(Boolean);
      }
      case 'last_trade_price': {
        const book = this.books.get(frame.asset_id)!;
        // The summary writes the last trade price with at least three decimals ("0.460").
        book.lastTrade = new Decimal(frame.price).toFixed(Math.max(3, new Decimal(book.tick).decimalPlaces()));
        return true;
      }
      case 'tick_size_change':
        this.books.get(frame.asset_id)!.tick = frame.new_tick_size;
        return true;
      default:
        return true;
    }
  }

  /** The kept book as `GET /book` lists it (best last). */
  levels(assetId: string): { bids: Level[]; asks: Level[] } {
    const book = this.books.get(assetId)!;
    const sorted = (m: Map<string, string>, dir: 1 | -1) => [...m].map(([price, size]) => ({ price, size })).sort((a, b) => dir * new Decimal(a.price).comparedTo(b.price));
    return { bids: sorted(book.bids, 1), asks: sorted(book.asks, -1) };
  }

  private check(assetId: string, timestamp: string, hash: string): boolean {
    const book = this.books.get(assetId)!;
    const rest = this.rest.get(assetId)!;
    const ok = venueHash({ market: book.market, asset_id: assetId, timestamp, ...this.levels(assetId), min_order_size: rest.min_order_size, tick_size: book.tick, neg_risk: rest.neg_risk, last_trade_price: book.lastTrade }) === hash;
    this.verdicts.push(ok);
    return ok;
  }
}

/** A market-channel socket subscribed to `assets`; `dump` is the subscription's answer (unless `initial_dump: false`). */
async function marketSocket(assets: string[], extra: Record<string, unknown> = {}): Promise<{ socket: UserSocket; dump: any }> {
  const socket = await UserSocket.open(fake.marketChannelUrl);
  sockets.push(socket);
  socket.ws.send(JSON.stringify({ assets_ids: assets, type: 'market', ...extra }));
  const dump = extra.initial_dump === false ? undefined : await socket.nextJson();
  expect(await socket.ping()).toBe('PONG'); // nothing else was queued
  return { socket, dump };
}

describe('REST order books', () => {
  it('GET /book is the V2 OrderBookSummary in the server key order, best price last, shortest decimals, with the venue hash the official client reproduces', async () => {
    await start();
    order('BUY', '0.40', '100');
    order('BUY', '0.44', '50.5');
    order('SELL', '0.50', '200');
    order('SELL', '0.46', '30');
    const { status, body } = await clob(`/book?token_id=${FED_YES.tokenId}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['market', 'asset_id', 'timestamp', 'hash', 'bids', 'asks', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price']);
    expect(body).toEqual({
      market: FED,
      asset_id: FED_YES.tokenId,
      timestamp: expect.stringMatching(/^\d{13}$/),
      hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      bids: [{ price: '0.4', size: '100' }, { price: '0.44', size: '50.5' }],
      asks: [{ price: '0.5', size: '200' }, { price: '0.46', size: '30' }],
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: false,
      last_trade_price: '',
    });
    expect(body.hash).toBe(venueHash(body));

    // The official TypeScript client: getOrderBook, then getOrderBookHash over the object as received.
    const client = new ClobClient({ host: fake.baseUrl, chain: Chain.AMOY });
    const viaClient = await client.getOrderBook(FED_YES.tokenId);
    const served = viaClient.hash;
    expect(await client.getOrderBookHash(viaClient)).toBe(served);

    // After a trade: the last trade price with three decimals, and a new hash.
    order('BUY', '0.46', '10', { as: alice.creds.key });
    const traded = (await clob(`/book?token_id=${FED_YES.tokenId}`)).body;
    expect(traded).toMatchObject({ asks: [{ price: '0.5', size: '200' }, { price: '0.46', size: '20' }], last_trade_price: '0.460' });
    expect(traded.hash).toBe(venueHash(traded));
    expect(traded.hash).not.toBe(body.hash);
  });

  it('POST /books answers the summaries asked for, in order, leaving out tokens without a book; a bad payload is 400 Invalid payload; GET /books is refused as live', async () => {
    await start();
    order('BUY', '0.3', '10', { tokenId: FED_NO.tokenId });
    const { status, body } = await post(`${fake.baseUrl}/books`, [{ token_id: FED_NO.tokenId }, { token_id: UNKNOWN_TOKEN }, { token_id: FED_YES.tokenId }]);
    expect(status).toBe(200);
    expect(body.map((b: { asset_id: string }) => b.asset_id)).toEqual([FED_NO.tokenId, FED_YES.tokenId]);
    expect(body[0]).toMatchObject({ bids: [{ price: '0.3', size: '10' }], asks: [] });
    for (const summary of body) expect(summary.hash).toBe(venueHash(summary));

    const client = new ClobClient({ host: fake.baseUrl, chain: Chain.AMOY });
    expect((await client.getOrderBooks([{ token_id: ELECTION_YES.tokenId } as never])).map((b: { asset_id: string; neg_risk: boolean; tick_size: string }) => [b.asset_id, b.neg_risk, b.tick_size])).toEqual([[ELECTION_YES.tokenId, true, '0.001']]);

    for (const bad of ['{"token_id": "1"}', '[{"asset": "1"}]', 'nonsense', JSON.stringify(Array.from({ length: 501 }, () => ({ token_id: FED_YES.tokenId })))]) {
      expect(await post(`${fake.baseUrl}/books`, bad)).toEqual({ status: 400, body: { error: 'Invalid payload' } });
    }
    expect(await clob(`/books?token_ids=${FED_YES.tokenId}`)).toEqual({ status: 400, body: { error: 'Invalid payload' } });
  });

  it('GET /last-trade-price: "0.5" with an empty side before any trade, then the last fill and the taker side', async () => {
    await start();
    expect(await clob(`/last-trade-price?token_id=${FED_YES.tokenId}`)).toEqual({ status: 200, body: { price: '0.5', side: '' } });
    order('SELL', '0.47', '5');
    order('SELL', '0.48', '5');
    order('BUY', '0.48', '8', { as: bob.creds.key }); // sweeps 0.47 then 0.48
    expect(await clob(`/last-trade-price?token_id=${FED_YES.tokenId}`)).toEqual({ status: 200, body: { price: '0.48', side: 'BUY' } });
    order('BUY', '0.45', '5');
    order('SELL', '0.45', '5', { as: bob.creds.key, orderType: 'FAK' });
    const client = new ClobClient({ host: fake.baseUrl, chain: Chain.AMOY });
    expect(await client.getLastTradePrice(FED_YES.tokenId)).toEqual({ price: '0.45', side: 'SELL' });
    expect(await clob('/last-trade-price?token_id=0xabc')).toEqual({ status: 400, body: { error: 'Invalid token id' } });
    expect(await clob(`/last-trade-price?token_id=${UNKNOWN_TOKEN}`)).toEqual({ status: 404, body: { error: 'No orderbook exists for the requested token id' } });
  });
});

describe('GET /prices-history', () => {
  /** Minutes on a clock the test moves: 2026-11-20 12:00:00 UTC, a multiple of every fidelity used. */
  const T0 = Date.UTC(2026, 10, 20, 12, 0, 0) / 1000;
  let now = T0 * 1000;
  const at = (seconds: number) => {
    now = (T0 + seconds) * 1000;
  };
  const history = async (query: string) => clob(`/prices-history?market=${FED_YES.tokenId}&${query}`);

  /**
   * t0: bid 0.40 / ask 0.50 (spread 0.10: the midpoint 0.45 is shown); +60 s a buy takes 0.50 (the
   * book still quotes 0.40 / 0.50); +120 s the bid is cancelled (one side: the last trade, 0.5, is
   * shown); +180 s a bid at 0.30 (spread 0.20 > 0.10: still the last trade); +240 s a bid at 0.48
   * (midpoint 0.49); the clock then reads +300 s.
   */
  async function scenario(): Promise<void> {
    await start({ clock: () => now });
    at(0);
    order('SELL', '0.50', '100');
    const bid = order('BUY', '0.40', '100');
    at(60);
    order('BUY', '0.50', '10', { as: alice.creds.key });
    at(120);
    expect(fake.cancelOrderAs(fake.marketMaker, bid.orderID).status).toBe(200);
    at(180);
    order('BUY', '0.30', '100');
    at(240);
    order('BUY', '0.48', '100');
    at(300);
  }

  it('samples the displayed price (midpoint within 0.10, else the last trade) at every fidelity step of the window, and appends a point for now', async () => {
    await scenario();
    expect(await history(`startTs=${T0}&endTs=${T0 + 300}&fidelity=1`)).toEqual({
      status: 200,
      body: {
        history: [
          { t: T0, p: 0.45 },
          { t: T0 + 60, p: 0.45 },
          { t: T0 + 120, p: 0.5 },
          { t: T0 + 180, p: 0.5 },
          { t: T0 + 240, p: 0.49 },
          { t: T0 + 300, p: 0.49 },
        ],
      },
    });
    // A window that ended in the past still ends with the price now (the live venue's extra point).
    expect((await history(`startTs=${T0}&endTs=${T0 + 120}&fidelity=1`)).body.history).toEqual([
      { t: T0, p: 0.45 },
      { t: T0 + 60, p: 0.45 },
      { t: T0 + 120, p: 0.5 },
      { t: T0 + 300, p: 0.49 },
    ]);
    expect((await history(`startTs=${T0}&endTs=${T0 + 300}&fidelity=2`)).body.history).toEqual([
      { t: T0, p: 0.45 },
      { t: T0 + 120, p: 0.5 },
      { t: T0 + 240, p: 0.49 },
      { t: T0 + 300, p: 0.49 },
    ]);
    // An interval runs to now; nothing before the first price.
    expect((await history('interval=1h&fidelity=1')).body.history.map((point: { t: number }) => point.t - T0)).toEqual([0, 60, 120, 180, 240, 300]);
    expect((await history('interval=max')).body.history).toHaveLength(6);

    // The official client sends the same query.
    const client = new ClobClient({ host: fake.baseUrl, chain: Chain.AMOY });
    expect(await client.getPricesHistory({ market: FED_YES.tokenId, startTs: T0, endTs: T0 + 300, fidelity: 5 })).toEqual({ history: [{ t: T0, p: 0.45 }, { t: T0 + 300, p: 0.49 }] });
    expect(await clob(`/prices-history?market=${UNKNOWN_TOKEN}&interval=1d`)).toEqual({ status: 200, body: { history: [] } });
  });

  it('refuses what the live venue refuses: a fidelity under the interval floor (1m: 10, 1w: 5, even when left out), a window over 15 days, endTs alone', async () => {
    await scenario();
    const refused = (error: string) => ({ status: 400, body: { error: `invalid filters: ${error}` } });
    expect(await history('interval=1m')).toEqual(refused("minimum 'fidelity' for '1m' range is 10"));
    expect(await history('interval=1m&fidelity=9')).toEqual(refused("minimum 'fidelity' for '1m' range is 10"));
    expect((await history('interval=1m&fidelity=10')).status).toBe(200);
    expect(await history('interval=1w&fidelity=4')).toEqual(refused("minimum 'fidelity' for '1w' range is 5"));
    expect((await history('interval=1d&fidelity=1')).status).toBe(200);
    // The interval's floor applies to a startTs/endTs window too.
    expect(await history(`interval=1m&startTs=${T0}&endTs=${T0 + 300}&fidelity=1`)).toEqual(refused("minimum 'fidelity' for '1m' range is 10"));
    expect((await history(`startTs=${T0 - 1_296_000}&endTs=${T0}`)).status).toBe(200);
    expect(await history(`startTs=${T0 - 1_296_001}&endTs=${T0}`)).toEqual(refused("'startTs' and 'endTs' interval is too long"));
    expect((await history(`endTs=${T0}`)).status).toBe(400);
    expect((await history('')).status).toBe(400);
    expect(await history('interval=2h')).toEqual(refused('interval must be one of max, all, 1m, 1w, 1d, 6h, 1h'));
  });
});

describe('the Data API public trades (GET /trades)', () => {
  it('lists every match once mined, newest first: the taker rows, or every fill with takerOnly=false; filters by market, user, side and size', async () => {
    let now = Date.UTC(2026, 10, 20, 12, 0, 0);
    await start({ clock: () => now });
    const mine = async (tradeId: string) => expect((await control(fake, 'POST', `/_fake/trades/${tradeId}/status`, { status: 'MINED' })).status).toBe(200);
    const trades = async (query = '') => get(`${fake.dataApiUrl}/trades?${query}`);

    order('SELL', '0.46', '10');
    order('SELL', '0.47', '10', { as: bob.creds.key });
    const first = order('BUY', '0.47', '15', { as: alice.creds.key }); // 10 @ 0.46 from the market maker, 5 @ 0.47 from bob
    now += 5_000;
    order('BUY', '0.52', '20', { tokenId: FED_NO.tokenId, as: alice.creds.key }); // rests
    const second = order('SELL', '0.52', '20', { tokenId: FED_NO.tokenId }); // the market maker takes it
    expect(await trades()).toEqual({ status: 200, body: [] }); // matched, not on chain yet

    now += 1_000;
    await mine(first.tradeIDs[0]!);
    now += 1_000;
    await mine(second.tradeIDs[0]!);
    const minedFirst = Math.floor((now - 1_000) / 1000);
    const takers = (await trades()).body;
    expect(takers).toEqual([
      expect.objectContaining({ proxyWallet: '0x5eed00000000000000000000000000000000feed', side: 'SELL', asset: FED_NO.tokenId, conditionId: FED, size: 20, price: 0.52, outcome: 'No', outcomeIndex: 1 }),
      {
        proxyWallet: alice.signing.signerAddress.toLowerCase(),
        side: 'BUY',
        asset: FED_YES.tokenId,
        conditionId: FED,
        size: 15,
        price: 0.463333,
        timestamp: minedFirst,
        title: expect.any(String),
        slug: expect.any(String),
        icon: '',
        eventSlug: expect.any(String),
        outcome: 'Yes',
        outcomeIndex: 0,
        name: '',
        pseudonym: '',
        bio: '',
        profileImage: '',
        profileImageOptimized: '',
        transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
    ]);
    const all = (await trades('takerOnly=false')).body;
    expect(all.map((t: { proxyWallet: string; side: string; size: number; price: number }) => [t.proxyWallet, t.side, t.size, t.price])).toEqual([
      ['0x5eed00000000000000000000000000000000feed', 'SELL', 20, 0.52],
      [alice.signing.signerAddress.toLowerCase(), 'BUY', 20, 0.52],
      [alice.signing.signerAddress.toLowerCase(), 'BUY', 15, 0.463333],
      ['0x5eed00000000000000000000000000000000feed', 'SELL', 10, 0.46],
      [bob.signing.signerAddress.toLowerCase(), 'SELL', 5, 0.47],
    ]);
    expect(new Set(all.slice(2).map((t: { transactionHash: string }) => t.transactionHash)).size).toBe(1); // one transaction per match

    expect((await trades(`market=${FED}&takerOnly=false&user=${bob.signing.signerAddress}`)).body).toEqual([expect.objectContaining({ side: 'SELL', size: 5, price: 0.47 })]);
    expect((await trades('side=BUY')).body.map((t: { size: number }) => t.size)).toEqual([15]);
    expect((await trades('takerOnly=false&filterType=CASH&filterAmount=7')).body.map((t: { size: number }) => t.size)).toEqual([20, 20]);
    expect((await trades('takerOnly=false&filterType=TOKENS&filterAmount=15')).body.map((t: { size: number }) => t.size)).toEqual([20, 20, 15]);
    expect((await trades('takerOnly=false&limit=2&offset=1')).body.map((t: { size: number }) => t.size)).toEqual([20, 15]);
    expect((await trades(`market=0x${'0b'.repeat(32)}`)).body).toEqual([]);

    for (const [query, error] of [
      ['side=buy', 'side must be BUY or SELL'],
      ['filterType=SHARES&filterAmount=1', 'filterType must be CASH or TOKENS'],
      ['filterType=CASH', 'filterType and filterAmount must be provided together'],
      ['limit=10001', 'limit and offset must be whole numbers from 0 to 10000'],
      [`market=${FED}&eventId=1`, 'market and eventId are mutually exclusive'],
      ['market=0x12', 'invalid market: 0x12'],
    ] as const) {
      expect(await trades(query)).toEqual({ status: 400, body: { error } });
    }
  });

  it('a FAILED trade is not listed, and the index lag holds a mined trade back', async () => {
    let now = Date.UTC(2026, 10, 20, 12, 0, 0);
    await start({ clock: () => now, dataApi: { lagMs: 60_000 } });
    order('SELL', '0.46', '10');
    const kept = order('BUY', '0.46', '5', { as: alice.creds.key });
    const failed = order('BUY', '0.46', '5', { as: bob.creds.key });
    for (const status of ['MINED', 'CONFIRMED']) await control(fake, 'POST', `/_fake/trades/${kept.tradeIDs[0]}/status`, { status });
    for (const status of ['RETRYING', 'FAILED']) await control(fake, 'POST', `/_fake/trades/${failed.tradeIDs[0]}/status`, { status });
    expect((await get(`${fake.dataApiUrl}/trades`)).body).toEqual([]);
    now += 60_000;
    expect((await get(`${fake.dataApiUrl}/trades`)).body).toEqual([expect.objectContaining({ proxyWallet: alice.signing.signerAddress.toLowerCase(), size: 5 })]);
  });
});

describe('the market channel', () => {
  it('answers a subscription with one array of books (with tick size, last trade price and hash), [] for tokens without a book, nothing with initial_dump false', async () => {
    await start();
    order('BUY', '0.44', '100');
    order('SELL', '0.46', '100');
    order('BUY', '0.46', '10', { as: alice.creds.key });
    const { dump } = await marketSocket([FED_YES.tokenId, FED_NO.tokenId, UNKNOWN_TOKEN]);
    expect(Array.isArray(dump)).toBe(true);
    expect(dump).toHaveLength(2);
    const [yes, no] = dump;
    expect(Object.keys(yes)).toEqual(['market', 'asset_id', 'timestamp', 'hash', 'bids', 'asks', 'tick_size', 'event_type', 'last_trade_price']);
    expect(yes).toEqual({
      market: FED,
      asset_id: FED_YES.tokenId,
      timestamp: expect.stringMatching(/^\d{13}$/),
      hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      bids: [{ price: '0.44', size: '100' }],
      asks: [{ price: '0.46', size: '90' }],
      tick_size: '0.01',
      event_type: 'book',
      last_trade_price: '0.460',
    });
    expect(no).toMatchObject({ asset_id: FED_NO.tokenId, bids: [], asks: [], last_trade_price: '' });
    // The hash is over the whole summary, min_order_size and neg_risk included.
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId, FED_NO.tokenId]);
    expect(keeper.apply(dump)).toBe(true);

    expect((await marketSocket([UNKNOWN_TOKEN])).dump).toEqual([]);
    const quiet = await marketSocket([FED_YES.tokenId], { initial_dump: false });
    expect(quiet.socket.frames).toEqual([]);
  });

  it('publishes each order resting or leaving as a price_change of the level, with the book hash, best bid and ask; a consumer keeps the REST book from it', async () => {
    await start();
    const { socket, dump } = await marketSocket([FED_YES.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    expect(keeper.apply(dump)).toBe(true);

    const bid = order('BUY', '0.44', '100');
    const change = await socket.nextJson();
    expect(Object.keys(change)).toEqual(['market', 'price_changes', 'timestamp', 'event_type']);
    expect(change).toEqual({
      market: FED,
      price_changes: [{ asset_id: FED_YES.tokenId, price: '0.44', size: '100', side: 'BUY', hash: expect.stringMatching(/^[0-9a-f]{40}$/), best_bid: '0.44', best_ask: '1' }],
      timestamp: expect.stringMatching(/^\d{13}$/),
      event_type: 'price_change',
    });
    expect(keeper.apply(change)).toBe(true);

    order('BUY', '0.44', '50', { as: bob.creds.key }); // the same level grows: its new total
    const grown = await socket.nextJson();
    expect(grown.price_changes).toEqual([expect.objectContaining({ price: '0.44', size: '150', side: 'BUY', best_bid: '0.44' })]);
    expect(keeper.apply(grown)).toBe(true);
    order('SELL', '0.47', '20');
    const ask = await socket.nextJson();
    expect(ask.price_changes).toEqual([expect.objectContaining({ price: '0.47', size: '20', side: 'SELL', best_bid: '0.44', best_ask: '0.47' })]);
    expect(fake.cancelOrderAs(fake.marketMaker, bid.orderID).status).toBe(200);
    const cancelled = await socket.nextJson();
    expect(cancelled.price_changes).toEqual([expect.objectContaining({ price: '0.44', size: '50', side: 'BUY' })]);

    // Every hash matched the consumer's own book, and that book is the REST book.
    for (const frame of [ask, cancelled]) keeper.apply(frame);
    const rest = (await clob(`/book?token_id=${FED_YES.tokenId}`)).body;
    expect(keeper.levels(FED_YES.tokenId)).toEqual({ bids: rest.bids, asks: rest.asks });
    expect(keeper.verdicts.every(Boolean)).toBe(true);
    expect(await socket.ping()).toBe('PONG');
  });

  it('publishes a fill as last_trade_price per price level (the taker side), then the book after it, whose hash is over the new last trade price', async () => {
    await start();
    order('SELL', '0.46', '10');
    order('SELL', '0.47', '10');
    order('BUY', '0.40', '30');
    const { socket, dump } = await marketSocket([FED_YES.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    keeper.apply(dump);

    order('BUY', '0.48', '25', { as: alice.creds.key }); // takes 10 @ 0.46 and 10 @ 0.47, rests 5 @ 0.48
    const first = await socket.nextJson();
    expect(Object.keys(first)).toEqual(['asset_id', 'event_type', 'fee_rate_bps', 'market', 'price', 'side', 'size', 'timestamp']);
    expect(first).toEqual({ asset_id: FED_YES.tokenId, event_type: 'last_trade_price', fee_rate_bps: '0', market: FED, price: '0.46', side: 'BUY', size: '10', timestamp: expect.stringMatching(/^\d{13}$/) });
    const second = await socket.nextJson();
    expect(second).toMatchObject({ event_type: 'last_trade_price', price: '0.47', side: 'BUY', size: '10' });
    const book = await socket.nextJson();
    expect(book).toEqual({
      market: FED,
      asset_id: FED_YES.tokenId,
      timestamp: expect.stringMatching(/^\d{13}$/),
      hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      bids: [{ price: '0.4', size: '30' }, { price: '0.48', size: '5' }],
      asks: [],
      tick_size: '0.01',
      event_type: 'book',
    });
    expect([first, second, book].map((f) => keeper.apply(f))).toEqual([true, true, true]);
    const rest = (await clob(`/book?token_id=${FED_YES.tokenId}`)).body;
    expect(rest).toMatchObject({ bids: book.bids, asks: [], last_trade_price: '0.470' });

    // A resting order filled by a seller: the taker's side is SELL.
    order('SELL', '0.48', '5', { as: bob.creds.key, orderType: 'FAK' });
    const sold = await socket.nextJson();
    expect(sold).toMatchObject({ event_type: 'last_trade_price', price: '0.48', side: 'SELL', size: '5' });
    keeper.apply(sold);
    expect(keeper.apply(await socket.nextJson())).toBe(true);
    expect(keeper.levels(FED_YES.tokenId)).toEqual({ bids: [{ price: '0.4', size: '30' }], asks: [] });
  });

  it('sends best_bid_ask only to custom-feature subscriptions, when the best prices change', async () => {
    await start();
    const custom = (await marketSocket([FED_YES.tokenId], { custom_feature_enabled: true })).socket;
    const plain = (await marketSocket([FED_YES.tokenId])).socket;
    order('BUY', '0.44', '100');
    expect((await custom.nextJson()).event_type).toBe('price_change');
    expect(await custom.nextJson()).toEqual({ event_type: 'best_bid_ask', market: FED, asset_id: FED_YES.tokenId, best_bid: '0.44', best_ask: '1', spread: '0.56', timestamp: expect.stringMatching(/^\d{13}$/) });
    order('SELL', '0.47', '10');
    expect((await custom.nextJson()).event_type).toBe('price_change');
    expect(await custom.nextJson()).toMatchObject({ event_type: 'best_bid_ask', best_bid: '0.44', best_ask: '0.47', spread: '0.03' });
    order('BUY', '0.43', '10'); // not the best: no best_bid_ask
    expect((await custom.nextJson()).event_type).toBe('price_change');
    expect(await custom.ping()).toBe('PONG');
    expect([await plain.nextJson(), await plain.nextJson(), await plain.nextJson()].map((f) => f.event_type)).toEqual(['price_change', 'price_change', 'price_change']);
    expect(await plain.ping()).toBe('PONG');
  });

  it("follows the market maker's quotes: seeding publishes every level, and the consumer's books equal REST", async () => {
    await start();
    const { socket, dump } = await marketSocket([FED_YES.tokenId, FED_NO.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId, FED_NO.tokenId]);
    keeper.apply(dump);
    expect((await control(fake, 'POST', '/_fake/books/seed', { levels: 3 })).body).toMatchObject({ placed: 18 }); // 3 levels x 2 sides x 3 tokens
    for (let i = 0; i < 12; i += 1) expect(keeper.apply(await socket.nextJson())).toBe(true); // the two subscribed tokens
    // Seeding again cancels the old ladder first: 12 removals and 12 new levels.
    fake.seedBooks({ levels: 3, levelSpacing: '0.02' });
    for (let i = 0; i < 24; i += 1) expect(keeper.apply(await socket.nextJson())).toBe(true);
    expect(await socket.ping()).toBe('PONG');
    for (const token of [FED_YES, FED_NO]) {
      const rest = (await clob(`/book?token_id=${token.tokenId}`)).body;
      expect(keeper.levels(token.tokenId)).toEqual({ bids: rest.bids, asks: rest.asks });
      expect(rest.bids).toHaveLength(3);
    }
  });

  it('announces a tick size change; later hashes are over the new tick, orders may use it', async () => {
    await start();
    order('BUY', '0.95', '10');
    const { socket, dump } = await marketSocket([FED_YES.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    keeper.apply(dump);
    expect(await control(fake, 'POST', `/_fake/tokens/${FED_YES.tokenId}/tick-size`, { tick_size: '0.001' })).toEqual({ status: 200, body: { asset_id: FED_YES.tokenId, old_tick_size: '0.01', new_tick_size: '0.001' } });
    const change = await socket.nextJson();
    expect(change).toEqual({ event_type: 'tick_size_change', asset_id: FED_YES.tokenId, market: FED, old_tick_size: '0.01', new_tick_size: '0.001', timestamp: expect.stringMatching(/^\d{13}$/) });
    keeper.apply(change);
    order('BUY', '0.955', '10');
    expect(keeper.apply(await socket.nextJson())).toBe(true);
    expect(await clob(`/tick-size?token_id=${FED_YES.tokenId}`)).toEqual({ status: 200, body: { minimum_tick_size: 0.001 } });
    expect((await control(fake, 'POST', `/_fake/tokens/${FED_YES.tokenId}/tick-size`, { tick_size: '0.02' })).status).toBe(400);
    expect((await control(fake, 'POST', `/_fake/tokens/${UNKNOWN_TOKEN}/tick-size`, { tick_size: '0.01' })).status).toBe(404);
  });

  it('follows subscribe (with a dump of the added tokens) and unsubscribe operations', async () => {
    await start();
    order('BUY', '0.5', '10', { tokenId: FED_NO.tokenId });
    const { socket } = await marketSocket([FED_YES.tokenId]);
    socket.ws.send(JSON.stringify({ operation: 'subscribe', assets_ids: [FED_YES.tokenId, FED_NO.tokenId] }));
    const added = await socket.nextJson();
    expect(added).toEqual([expect.objectContaining({ event_type: 'book', asset_id: FED_NO.tokenId, bids: [{ price: '0.5', size: '10' }] })]);
    order('BUY', '0.51', '10', { tokenId: FED_NO.tokenId });
    expect((await socket.nextJson()).price_changes[0]).toMatchObject({ asset_id: FED_NO.tokenId, price: '0.51' });

    socket.ws.send(JSON.stringify({ operation: 'unsubscribe', assets_ids: [FED_NO.tokenId] }));
    expect(await socket.ping()).toBe('PONG'); // the operation was read
    order('BUY', '0.52', '10', { tokenId: FED_NO.tokenId });
    order('BUY', '0.3', '10');
    expect((await socket.nextJson()).price_changes[0]).toMatchObject({ asset_id: FED_YES.tokenId, price: '0.3' }); // nothing about the No token first
  });
});

describe('market-channel faults', () => {
  it('a frozen feed: the socket stays open and PONGs, nothing arrives; after the thaw the next hash does not match the consumer book, and REST resyncs it', async () => {
    await start();
    const { socket, dump } = await marketSocket([FED_YES.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    keeper.apply(dump);
    expect(await control(fake, 'POST', '/_fake/market-channel/freeze', { frozen: true })).toEqual({ status: 200, body: { frozen: true } });
    order('BUY', '0.44', '100');
    order('SELL', '0.46', '30');
    expect(await socket.ping()).toBe('PONG'); // answered, and nothing was sent before it
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    expect((await control(fake, 'GET', '/_fake/market-channel')).body).toEqual({ market_data: true, subscribed: 1, feed_frozen: true, pending_losses: [] });

    expect((await control(fake, 'POST', '/_fake/market-channel/freeze', { frozen: false })).status).toBe(200);
    order('BUY', '0.45', '10');
    const next = await socket.nextJson();
    expect(next.price_changes).toEqual([expect.objectContaining({ price: '0.45', size: '10' })]);
    expect(keeper.apply(next)).toBe(false); // the missed orders: the book is stale

    // Resync from REST: the consumer's book hashes again.
    const rest = (await clob(`/book?token_id=${FED_YES.tokenId}`)).body;
    expect(keeper.apply({ ...rest, event_type: 'book' })).toBe(true);
    order('SELL', '0.47', '10');
    expect(keeper.apply(await socket.nextJson())).toBe(true);
  });

  it('dropping the market channel closes every market socket (the user channel stays); a reconnect gets fresh books', async () => {
    await start();
    const first = await marketSocket([FED_YES.tokenId]);
    const second = await marketSocket([FED_NO.tokenId]);
    const user = await UserSocket.subscribe(fake, alice);
    sockets.push(user);
    expect(await control(fake, 'POST', '/_fake/market-channel/drop')).toEqual({ status: 200, body: { dropped: 2 } });
    expect(await first.socket.closed).toBe(1006);
    expect(await second.socket.closed).toBe(1006);
    expect(await user.ping()).toBe('PONG');

    order('BUY', '0.44', '100'); // while disconnected
    const again = await marketSocket([FED_YES.tokenId]);
    expect(again.dump).toEqual([expect.objectContaining({ bids: [{ price: '0.44', size: '100' }] })]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    expect(keeper.apply(again.dump)).toBe(true);
  });

  it('a lost price_change reaches nobody; the next message carries a hash the consumer book does not match', async () => {
    await start();
    const { socket, dump } = await marketSocket([FED_YES.tokenId]);
    const keeper = await BookKeeper.forTokens([FED_YES.tokenId]);
    keeper.apply(dump);
    expect(await control(fake, 'POST', '/_fake/market-channel/lose', {})).toEqual({ status: 200, body: { pending_losses: [{ event_type: 'price_change', remaining: 1 }] } });
    order('BUY', '0.44', '100'); // lost
    order('BUY', '0.43', '10');
    const next = await socket.nextJson();
    expect(next.price_changes).toEqual([expect.objectContaining({ price: '0.43', size: '10' })]);
    expect(keeper.apply(next)).toBe(false);
    expect((await control(fake, 'GET', '/_fake/market-channel')).body.pending_losses).toEqual([]);

    // Losses can target one token and another type.
    fake.loseMarketMessages(1, 'last_trade_price', FED_YES.tokenId);
    order('SELL', '0.44', '5', { as: bob.creds.key, orderType: 'FAK' });
    expect((await socket.nextJson()).event_type).toBe('book');
    expect((await control(fake, 'POST', '/_fake/market-channel/lose', { event_type: 'trade' })).status).toBe(400);
  });
});

describe('Gamma events and live market figures', () => {
  async function startWithGamma(): Promise<GammaFake> {
    gamma = await GammaFake.start({ markets: [gammaMarket({ conditionId: FED, question: 'Will the Fed cut rates?', yesTokenId: FED_YES.tokenId, noTokenId: FED_NO.tokenId })] });
    await start({ gamma });
    return gamma;
  }
  const gammaGet = (path: string) => get(`${gamma!.baseUrl}${path}`);

  it("lays the books' and trades' figures over the market: volumes, liquidity, best bid and ask, last trade, one-day change", async () => {
    await startWithGamma();
    order('SELL', '0.46', '100');
    order('BUY', '0.44', '100');
    order('BUY', '0.46', '10', { as: alice.creds.key }); // 4.60 pUSD traded
    order('SELL', '0.60', '10', { tokenId: FED_NO.tokenId }); // the No book counts for liquidity
    const market = (await gammaGet(`/markets/keyset?condition_ids=${FED}`)).body.markets[0];
    expect(market).toMatchObject({
      conditionId: FED,
      volume: '4.6',
      volumeNum: 4.6,
      volumeClob: 4.6,
      volume24hr: 4.6,
      volume1wk: 4.6,
      liquidity: '91.4', // 90 x 0.46 + 100 x 0.44 + 10 x 0.60
      liquidityNum: 91.4,
      bestBid: 0.44,
      bestAsk: 0.46,
      spread: 0.02,
      lastTradePrice: 0.46,
      oneDayPriceChange: 0,
    });
    expect(fake.cancelOrderAs(fake.marketMaker, fake.exchange.allOrders().find((o) => o.price === '0.44')!.id).status).toBe(200);
    order('BUY', '0.45', '100');
    expect((await gammaGet(`/markets/keyset?condition_ids=${FED}`)).body.markets[0]).toMatchObject({ bestBid: 0.45, spread: 0.01, oneDayPriceChange: 0.005, liquidityNum: 92.4 });
  });

  it('serves events with their markets: the list, by id and by slug, with include_markets=false leaving the key out; Gamma errors', async () => {
    await startWithGamma();
    const id = gamma!.addEvent({ title: 'Fed decision in December', conditionIds: [FED] });
    order('SELL', '0.46', '100');
    order('BUY', '0.46', '10', { as: alice.creds.key });
    const list = await gammaGet('/events');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const [event] = list.body;
    expect(event).toMatchObject({ id, slug: 'fed-decision-in-december', title: 'Fed decision in December', active: true, closed: false, volume: 4.6, volume24hr: 4.6, liquidity: 41.4 });
    expect(event.markets).toEqual([expect.objectContaining({ conditionId: FED, volumeNum: 4.6, lastTradePrice: 0.46, clobTokenIds: JSON.stringify([FED_YES.tokenId, FED_NO.tokenId]) })]);
    expect((await gammaGet(`/events/${id}`)).body).toEqual(event);
    expect((await gammaGet('/events/slug/fed-decision-in-december')).body).toEqual(event);
    expect((await gammaGet(`/events?slug=fed-decision-in-december&include_markets=false`)).body[0]).not.toHaveProperty('markets');
    expect((await gammaGet('/events?closed=true')).body).toEqual([]);
    expect((await gammaGet(`/events?id=${id}&limit=1&offset=1`)).body).toEqual([]);

    expect(await gammaGet('/events/999')).toEqual({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    expect(await gammaGet('/events/abc')).toEqual({ status: 422, body: { type: 'validation error', error: 'id is invalid' } });
    expect(await gammaGet('/events/slug/nothing-here')).toEqual({ status: 404, body: { type: 'not found error', error: 'slug not found' } });
    expect((await gammaGet('/events?closed=maybe')).status).toBe(422);

    // The market closing closes the event.
    await control(fake, 'POST', `/_fake/markets/${FED}/close`);
    expect((await gammaGet('/events?closed=true')).body.map((e: { id: string }) => e.id)).toEqual([id]);
  });
});
