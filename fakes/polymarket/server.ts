/**
 * A faithful fake of Polymarket's CLOB V2 API (REST and the user WebSocket channel), a real node:http server on loopback. One instance plays one chain
 * (Polygon 137 or Amoy 80002): orders are verified against that chain's exchange contracts.
 *
 * Paths are the official client's (github.com/Polymarket/clob-client-v2 at f3e1a05,
 * src/endpoints.ts, and how src/client.ts calls them):
 *   public:  GET /ok, GET /time (a bare number, unix seconds: `getServerTime`), GET /version
 *            ({version: 2}: `getVersion`), GET /book?token_id= (bookSummary.ts), POST /books and
 *            GET /last-trade-price (clobMarketData.ts), GET /prices-history (priceHistory.ts),
 *            GET /tick-size?token_id= ({minimum_tick_size}), GET /neg-risk?token_id= ({neg_risk}),
 *            GET /markets/{condition_id} (`getMarket`: the market object, with its closing and
 *            resolution; resolution.ts)
 *   L2:      POST /order, DELETE /order ({orderID} body), and order management: POST /orders (an
 *            array of at most 15 POST /order bodies, one answer entry per order), DELETE /orders (an
 *            array of at most 3000 order ids), DELETE /cancel-all, DELETE /cancel-market-orders
 *            ({market?, asset_id?}) (exchange.ts has their shapes, limits and sources);
 *            GET /data/orders, GET /data/trades
 *            (query `id`, `market`, `asset_id`, ..., `next_cursor`; the client signs the path
 *            WITHOUT the query string, so the fake checks the HMAC over the bare path),
 *            POST /v1/heartbeats (heartbeats.ts), GET /data/order/{id}, GET /balance-allowance (wallets.ts)
 *   WebSocket: /ws/user, the user channel (userChannel.ts); /ws/market, the market channel
 *            (marketChannel.ts: `market_resolved`, and with the `marketData` option the books,
 *            price changes and trades of marketFeed.ts); trades settle on a clock (settlement.ts)
 *   Data API: under /data-api (`fake.dataApiUrl`): GET /positions, GET /activity (dataApi.ts),
 *            GET /trades (dataApiTrades.ts)
 *   L1:      POST /auth/api-key, GET /auth/derive-api-key (EIP-712 ClobAuth; wallets.ts)
 *
 * Request pipeline: control API (when on) -> Cloudflare's per-endpoint throttle (throttle.ts) ->
 * route -> L2 headers (verify.ts: key, passphrase,
 * owner address, timestamp window, HMAC over method + path + exact body) -> injected fault
 * (fakes/faults.ts, the same rules as the Kalshi fake: a 5xx or 429 answers before anything else)
 * -> the per-signer buckets of order and cancel requests (throttle.ts; a batch costs one token per
 * order or id, cancel-all and cancel-market-orders 1 + what they would cancel) -> exchange
 * (exchange.ts, which recovers every order's EIP-712 signer with verify.ts) -> a delay or a lost
 * answer (`accept_then_drop`: processed, then the connection destroyed unanswered). The faults
 * apply to every route alike, the batch and cancel-many routes included: a lost `POST /orders`
 * answer has placed its orders, found afterwards by their hashes (`GET /data/order/{hash}`,
 * `GET /data/orders`). A rule's `path_prefix` is a prefix: `/order` also matches `/orders`. Every
 * request is recorded with the API key that authenticated it and, when refused at the door,
 * verify.ts's reason (never a secret).
 *
 * GTD orders expire on the exchange's clock: before every request and on a sweep every
 * `expirySweepMs` (default 1 s), each with a CANCELLATION on the user channel.
 *
 * A test plays "another participant" with `placeOrderAs(apiKey, order)` (or the control API
 * `POST /_fake/orders` when `controlApi` is on): an unsigned order through the same book. The fake's
 * own market maker (`fake.marketMaker`, marketMaker.ts) is such a participant with deep pockets; with
 * `seedBooks` (on in `start.ts`) it quotes every token's book at start.
 *
 * Markets end and resolve through the control API (resolutionControl.ts) or `fake.resolutions`
 * (resolution.ts); with a Gamma fake linked (`gamma` option, `linkGamma`) Gamma's listing follows.
 *
 * Market data (marketFeed.ts, marketChannel.ts): the market channel's faults are methods
 * (`freezeMarketFeed`, `dropMarketChannel`, `loseMarketMessages`) and control routes
 * (`/_fake/market-channel/...`, marketDataControl.ts), as is a token's tick size change
 * (`changeTickSize`, `POST /_fake/tokens/{token_id}/tick-size`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { Chain } from '@polymarket/clob-client-v2';
import { FaultPlan, type FaultRule } from '../faults';
import { handleControl } from './controlApi';
import { clobErrors, type ClobAnswer } from './errors';
import { PolymarketExchange, type CounterOrder, type FakeAccount } from './exchange';
import { MARKET_MAKER_API_KEY, marketMakerAccount, placeAsMarketMaker, seedBooks, type SeededQuote } from './marketMaker';
import type { SeedBooksOptions } from '../seedBooks';
import { defaultTokens, isTickSize, type TokenSeed } from './markets';
import { verifyL1Headers, verifyL2Headers } from './verify';
import { Heartbeats } from './heartbeats';
import { Settlement, type SettlementOptions } from './settlement';
import { EndpointThrottle, SignerLimiter, type SignerLimitOptions, type ThrottleOptions } from './throttle';
import { UserChannel } from './userChannel';
import { MARKET_CHANNEL_PATH, MarketChannel } from './marketChannel';
import { MarketFeed, type MarketEventType } from './marketFeed';
import { pricesHistory } from './priceHistory';
import { lastTradePrice, orderBooks, orderBooksByQuery } from './clobMarketData';
import { ClobMarketStats } from './gammaStats';
import { MarketResolutions, type MarketDetails } from './resolution';
import { DATA_API_PREFIX, DataApiFake, type DataApiOptions } from './dataApi';
import type { GammaFake } from './gamma';
import { LoopbackServer, readBody, sleep } from '../loopback';


export interface PolymarketFakeOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Default Amoy (80002). */
  readonly chainId?: number;
  readonly tokens?: readonly TokenSeed[];
  readonly accounts?: readonly FakeAccount[];
  /** Seconds an L2 timestamp may differ from the fake's clock; Polymarket does not publish it (default 30). */
  readonly timestampWindowSeconds?: number;
  /** Serve the test-control API under /_fake (default off). */
  readonly controlApi?: boolean;
  readonly clock?: () => number;
  /** Trades settle on a timer (settlement.ts); default MINED after 1 s, CONFIRMED 1 s later. */
  readonly settlement?: SettlementOptions;
  /** A heartbeat chain lapses (all the key's orders cancelled) after this long; the venue's is about 10 s (default). */
  readonly heartbeatTimeoutMs?: number;
  /** Cloudflare's per-endpoint throttle (default the venue's limits); false: off. */
  readonly throttle?: ThrottleOptions | false;
  /** The per-signer order and cancel buckets (default standard tier, warning mode); false: off. */
  readonly signerLimits?: SignerLimitOptions | false;
  /**
   * Seed every token's book with the fake market maker's resting ladder (marketMaker.ts) at start.
   * Default off (empty books); `start.ts` turns it on unless POLYMARKET_FAKE_SEED_BOOKS=false.
   */
  readonly seedBooks?: boolean | SeedBooksOptions;
  /** A Gamma fake whose listing follows the markets' closing and resolution (resolution.ts). */
  readonly gamma?: GammaFake;
  /** The Data API's index lag (dataApi.ts). */
  readonly dataApi?: DataApiOptions;
  /**
   * Publish the books on the market channel (initial dump, `book`, `price_change`,
   * `last_trade_price`, `tick_size_change`, `best_bid_ask`: marketFeed.ts) and lay the books' and
   * trades' figures over a linked Gamma's markets (gammaStats.ts), and write an order book
   * summary's `last_trade_price` as the venue does ("0.560": bookSummary.ts). Default off: the
   * channel then carries `market_resolved` only and `last_trade_price` is "0.56", as before the fake
   * had market data (its older tests read it so); `start.ts` turns it on
   * unless POLYMARKET_FAKE_MARKET_DATA=false. The REST reads (`/book`, `/books`,
   * `/last-trade-price`, `/prices-history`, the Data API's `/trades`) are always served.
   */
  readonly marketData?: boolean;
  /**
   * How often GTD orders past their time are swept off the book (each a CANCELLATION on the user
   * channel) when no request arrives to do it; default 1000 ms, 0 for no sweep (expiry then happens
   * on the next request only, as before the sweep).
   */
  readonly expirySweepMs?: number;
}

/** The user channel's path, under the venue's WSS host (wss://ws-subscriptions-clob.polymarket.com/ws/user). */
export const USER_CHANNEL_PATH = '/ws/user';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** The API key whose L2 headers were verified; null for public or refused requests. */
  readonly apiKey: string | null;
  readonly status: number | 'dropped';
  /** Why the door refused it (verify.ts's reason), when it did. */
  readonly refusal?: string;
  readonly atMs: number;
}

type Route = {
  auth: 'public' | 'l1' | 'l2';
  handle: (ctx: RouteContext) => ClobAnswer | Promise<ClobAnswer>;
  /** The answer to a body that is not JSON (default 400 `Invalid order payload`). */
  badJson?: () => ClobAnswer;
};
interface RouteContext {
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly account: FakeAccount | undefined;
  /** The last path segment of a route ending in `/*` (`GET /data/order/{id}`). */
  readonly param: string;
  /** L1 routes: the address and nonce the ClobAuth signature proved. */
  readonly l1?: { address: string; nonce: bigint };
}


export class PolymarketFake {
  readonly exchange: PolymarketExchange;
  readonly faults = new FaultPlan();
  readonly requests: RecordedRequest[] = [];
  readonly userChannel: UserChannel;
  readonly settlement: Settlement;
  readonly heartbeats: Heartbeats;
  /** The market channel (`market_resolved`, and the books with `marketData`). */
  readonly marketChannel = new MarketChannel();
  /** What the books say, message by message, and each token's displayed price (marketFeed.ts). */
  readonly marketFeed: MarketFeed;
  /** The `marketData` option. */
  readonly marketDataOn: boolean;
  /** Markets closing and resolving. */
  readonly resolutions: MarketResolutions;
  /** The Data API served under `/data-api`. */
  readonly dataApi: DataApiFake;

  private readonly http: LoopbackServer;
  private readonly clock: () => number;
  private readonly windowSeconds: number;
  private readonly controlApi: boolean;
  private readonly routes: Record<string, Route>;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly throttle: EndpointThrottle | null;
  private readonly signerLimiter: SignerLimiter | null;
  private readonly gammaStats: ClobMarketStats;
  private linkedGamma: GammaFake | null = null;
  private readonly expirySweep: NodeJS.Timeout | null;

  private constructor(options: PolymarketFakeOptions) {
    this.clock = options.clock ?? Date.now;
    this.windowSeconds = options.timestampWindowSeconds ?? 30;
    this.controlApi = options.controlApi ?? false;
    this.exchange = new PolymarketExchange(options.chainId ?? Chain.AMOY, options.tokens ?? defaultTokens(), this.clock);
    for (const account of options.accounts ?? []) this.addAccount(account);
    // The market maker always exists (its secret is never handed out), so a test or the control API can act as it.
    this.addAccount(marketMakerAccount());
    const ex = this.exchange;
    this.userChannel = new UserChannel((apiKey) => ex.account(apiKey), this.clock);
    ex.events.on((event) => this.userChannel.publish(event));
    this.settlement = new Settlement(ex, options.settlement);
    this.marketFeed = new MarketFeed(ex, this.clock);
    this.marketDataOn = options.marketData ?? false;
    if (this.marketDataOn) {
      this.marketChannel.carry(this.marketFeed);
      ex.lastTradePriceFormat = 'venue';
    }
    this.gammaStats = new ClobMarketStats(ex, this.marketFeed.prices, this.clock);
    this.resolutions = new MarketResolutions(ex, this.clock, this.marketChannel);
    if (options.gamma !== undefined) this.linkGamma(options.gamma);
    this.dataApi = new DataApiFake(ex, this.settlement, this.resolutions, this.clock, options.dataApi);
    this.heartbeats = new Heartbeats(options.heartbeatTimeoutMs ?? 10_000, (apiKey) => this.cancelAllOf(apiKey));
    this.throttle = options.throttle === false ? null : new EndpointThrottle(options.throttle ?? {});
    this.signerLimiter = options.signerLimits === false ? null : new SignerLimiter(options.signerLimits ?? {});
    const tokenParam = (query: URLSearchParams) => query.get('token_id');
    this.routes = {
      'GET /ok': { auth: 'public', handle: () => ({ status: 200, body: 'OK' }) },
      'GET /time': { auth: 'public', handle: () => ({ status: 200, body: Math.floor(this.clock() / 1000) }) },
      'GET /version': { auth: 'public', handle: () => ({ status: 200, body: { version: 2 } }) },
      'GET /book': { auth: 'public', handle: ({ query }) => ex.book(tokenParam(query)) },
      'POST /books': { auth: 'public', handle: ({ body }) => orderBooks(ex, body), badJson: orderBooksByQuery },
      'GET /books': { auth: 'public', handle: () => orderBooksByQuery() },
      'GET /last-trade-price': { auth: 'public', handle: ({ query }) => lastTradePrice(ex, tokenParam(query)) },
      'GET /prices-history': { auth: 'public', handle: ({ query }) => pricesHistory({ prices: this.marketFeed.prices, isLive: (t) => this.isLive(t) }, query, this.clock()) },
      'GET /tick-size': { auth: 'public', handle: ({ query }) => tokenRead(ex, tokenParam(query), (t) => ({ minimum_tick_size: Number(t.tickSize) })) },
      'GET /neg-risk': { auth: 'public', handle: ({ query }) => tokenRead(ex, tokenParam(query), (t) => ({ neg_risk: t.negRisk })) },
      'GET /markets/*': { auth: 'public', handle: ({ param }) => this.market(param) },
      'POST /order': { auth: 'l2', handle: ({ account, body }) => ex.postOrder(account!, body) },
      'DELETE /order': { auth: 'l2', handle: ({ account, body }) => ex.cancelOrder(account!, body) },
      'POST /orders': { auth: 'l2', handle: ({ account, body }) => ex.postOrders(account!, body) },
      'DELETE /orders': { auth: 'l2', handle: ({ account, body }) => ex.cancelOrders(account!, body) },
      'DELETE /cancel-all': { auth: 'l2', handle: ({ account }) => ex.cancelAll(account!) },
      'DELETE /cancel-market-orders': { auth: 'l2', handle: ({ account, body }) => ex.cancelMarketOrders(account!, body) },
      'GET /data/orders': { auth: 'l2', handle: ({ account, query }) => ex.openOrders(account!, query) },
      'GET /data/trades': { auth: 'l2', handle: ({ account, query }) => ex.tradesFor(account!, query) },
      'POST /v1/heartbeats': { auth: 'l2', handle: ({ account, body }) => this.heartbeats.beat(account!.apiKey, body) },
      'GET /data/order/*': { auth: 'l2', handle: ({ account, param }) => ex.orderById(account!, param) },
      'GET /balance-allowance': { auth: 'l2', handle: ({ account, query }) => ex.wallets.balanceAllowance(account!, query) },
      'POST /auth/api-key': { auth: 'l1', handle: ({ l1 }) => ex.wallets.createApiKey(l1!.address, l1!.nonce, (owner) => ex.accountsOwnedBy(owner), (account) => this.addAccount(account)) },
      'GET /auth/derive-api-key': { auth: 'l1', handle: ({ l1 }) => ex.wallets.deriveApiKey(l1!.address, l1!.nonce, (owner) => ex.accountsOwnedBy(owner)) },
    };
    this.http = new LoopbackServer(createServer((req, res) => void this.onRequest(req, res)));
    this.http.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket as Socket, head));
    if (options.seedBooks !== undefined && options.seedBooks !== false) this.seedBooks(options.seedBooks === true ? {} : options.seedBooks);
    const sweepMs = options.expirySweepMs ?? 1000;
    this.expirySweep = sweepMs > 0 ? setInterval(() => this.exchange.expireOrders(), sweepMs) : null;
    this.expirySweep?.unref();
  }

  static async start(options: PolymarketFakeOptions = {}): Promise<PolymarketFake> {
    const fake = new PolymarketFake(options);
    await fake.http.listen(options.port, options.host);
    return fake;
  }

  /** What a client configures as `host` (no trailing slash). */
  get baseUrl(): string {
    return this.http.origin;
  }

  /** The user channel's URL (the client appends `/ws/user` to its WSS host; this is the whole URL). */
  get userChannelUrl(): string {
    return `${this.http.origin.replace(/^http/, 'ws')}${USER_CHANNEL_PATH}`;
  }

  /** The market channel's URL (`/ws/market`). */
  get marketChannelUrl(): string {
    return `${this.http.origin.replace(/^http/, 'ws')}${MARKET_CHANNEL_PATH}`;
  }

  /** What a client configures as the Data API's base URL (production https://data-api.polymarket.com). */
  get dataApiUrl(): string {
    return `${this.http.origin}${DATA_API_PREFIX}`;
  }

  /**
   * Gamma's listing follows the markets' closing and resolution from now on (null: unlink); with
   * `marketData` its markets also carry the books' and trades' figures (gammaStats.ts).
   */
  linkGamma(gamma: GammaFake | null): void {
    this.resolutions.linkGamma(gamma);
    if (this.linkedGamma !== null && this.linkedGamma !== gamma) this.linkedGamma.linkMarketStats(null);
    this.linkedGamma = gamma;
    if (gamma !== null && this.marketDataOn) gamma.linkMarketStats(this.gammaStats);
  }

  /** Names a market for the CLOB market object and the Data API (Gamma's names win when linked). */
  describeMarket(conditionId: string, details: MarketDetails): void {
    this.resolutions.describe(conditionId, details);
  }

  addAccount(account: FakeAccount): void {
    this.exchange.addAccount(account);
  }

  addToken(token: TokenSeed): void {
    this.exchange.addToken(token);
  }

  /** The fake market maker's API key: pass it to `placeOrderAs` / `cancelOrderAs` to act as it. */
  get marketMaker(): string {
    return MARKET_MAKER_API_KEY;
  }

  /**
   * Puts the market maker's ladder on every token's book (marketMaker.ts): BUYs at mid - 0.01 ..
   * mid - 0.05 and SELLs at mid + 0.01 .. mid + 0.05 by default, 100 to 500 shares. Cancels its
   * earlier quotes first, so calling it again refreshes the books.
   */
  seedBooks(options: SeedBooksOptions = {}): SeededQuote[] {
    return seedBooks(this.exchange, options);
  }

  /**
   * Another participant's order, unsigned, through the same book (exchange.ts `placeAs`): the
   * venue's answer to `POST /order`, or its refusal. As the market maker (the default), its wallet is
   * first given what the order needs; as another registered account, balances move as they are.
   */
  placeOrderAs(apiKey: string, order: CounterOrder): ClobAnswer {
    if (apiKey === MARKET_MAKER_API_KEY) return placeAsMarketMaker(this.exchange, order);
    const account = this.exchange.account(apiKey);
    return account === undefined ? { status: 404, body: { error: `unknown api key ${apiKey}` } } : this.exchange.placeAs(account, order);
  }

  /** Cancels another participant's order: the venue's `DELETE /order` answer. */
  cancelOrderAs(apiKey: string, orderId: string): ClobAnswer {
    const account = this.exchange.account(apiKey);
    return account === undefined ? { status: 404, body: { error: `unknown api key ${apiKey}` } } : this.exchange.cancelOrder(account, { orderID: orderId });
  }

  injectFault(rule: FaultRule): void {
    this.faults.inject(rule);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** The WebSocket faults of fakes/faults.ts, named as the Kalshi fake names them. */
  dropWebSockets(): void {
    this.userChannel.dropAll();
    this.marketChannel.dropAll();
  }

  freezeWebSockets(frozen: boolean): void {
    this.userChannel.setFrozen(frozen);
    this.marketChannel.setFrozen(frozen);
  }

  /**
   * The market FEED freezes (marketChannel.ts): sockets stay open and PING is still answered PONG,
   * but no market data goes out until unfrozen (what happened meanwhile is lost, not queued).
   */
  freezeMarketFeed(frozen: boolean): void {
    this.marketChannel.freezeFeed(frozen);
  }

  /** Terminates every market-channel socket (the user channel's stay); answers how many. */
  dropMarketChannel(): number {
    return this.marketChannel.dropAll();
  }

  /** The next `count` market-channel messages of `eventType` (default `price_change`), for `assetId` or any token, reach nobody. */
  loseMarketMessages(count = 1, eventType: MarketEventType = 'price_change', assetId?: string): void {
    this.marketChannel.loseNext(count, eventType, assetId);
  }

  /**
   * The token's tick size changes, as the venue does when a book's price nears 0 or 1: new orders
   * must be on the new tick, the book's hash is over it, the market channel says `tick_size_change`,
   * `GET /tick-size`, the CLOB market and a linked Gamma's `orderPriceMinTickSize` follow.
   */
  changeTickSize(tokenId: string, tickSize: string): { ok: true; old: string } | { ok: false; status: number; error: string } {
    if (!isTickSize(tickSize)) return { ok: false, status: 400, error: `${tickSize} is not a tick size` };
    const token = this.exchange.token(tokenId);
    if (token === undefined) return { ok: false, status: 404, error: `the fake trades no token ${tokenId}` };
    const old = this.exchange.setTickSize(tokenId, tickSize)!;
    if (old !== tickSize) {
      this.marketFeed.tickSizeChanged(token, old);
      const gamma = this.resolutions.gammaMarket(token.conditionId);
      if (gamma !== null && this.exchange.tokensOf(token.conditionId)[0] === token) this.linkedGamma?.updateMarket(token.conditionId, { orderPriceMinTickSize: Number(tickSize) });
    }
    return { ok: true, old };
  }

  /** True while the token's market trades (its book exists). */
  private isLive(tokenId: string): boolean {
    const token = this.exchange.token(tokenId);
    return token !== undefined && !this.exchange.isClosed(token.conditionId);
  }

  async close(): Promise<void> {
    if (this.expirySweep !== null) clearInterval(this.expirySweep);
    this.settlement.close();
    this.heartbeats.close();
    this.userChannel.close();
    this.marketChannel.close();
    this.wss.close();
    await this.http.close();
  }

  /** A lapsed heartbeat chain: every open order of the key is cancelled (CANCELLATION on the user channel). */
  private cancelAllOf(apiKey: string): void {
    const account = this.exchange.account(apiKey);
    if (account !== undefined) this.exchange.cancelAll(account);
  }

  /** `GET /markets/{condition_id}` (errors: docs.polymarket.com "Error Codes", Markets). */
  private market(conditionId: string): ClobAnswer {
    const id = conditionId.toLowerCase();
    if (!/^0x[0-9a-f]{64}$/.test(id)) return clobErrors.invalidMarket();
    return this.resolutions.knows(id) ? { status: 200, body: this.resolutions.clobMarket(id) } : clobErrors.marketNotFound();
  }

  /** Only `/ws/user` and `/ws/market` upgrade; the handshake carries no credentials (the subscription message does). */
  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const status = url.pathname === USER_CHANNEL_PATH || url.pathname === MARKET_CHANNEL_PATH ? 101 : 404;
    this.requests.push({ method: 'GET', path: url.pathname, query: url.search, apiKey: null, status, atMs: this.clock() });
    if (status === 404) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => (url.pathname === MARKET_CHANNEL_PATH ? this.marketChannel.attach(ws) : this.userChannel.attach(ws)));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const path = url.pathname;
    const record = (apiKey: string | null, status: number | 'dropped', refusal?: string): void => {
      this.requests.push({ method, path, query: url.search, apiKey, status, ...(refusal ? { refusal } : {}), atMs: this.clock() });
    };

    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      return this.reply(res, record, null, clobErrors.invalidOrderPayload());
    }
    if (this.controlApi && path.startsWith('/_fake/')) return this.reply(res, record, null, handleControl(this, method, path, raw, url.searchParams));
    if (path === DATA_API_PREFIX || path.startsWith(`${DATA_API_PREFIX}/`)) return this.onDataApi(req, res, record, method, path, url.searchParams);
    if (this.throttle !== null && !(await this.throttle.admit(method, path))) return this.reply(res, record, null, clobErrors.tooManyRequests());

    const param = path.slice(path.lastIndexOf('/') + 1);
    const route = this.routes[`${method} ${path}`] ?? (param === '' ? undefined : this.routes[`${method} ${path.slice(0, path.lastIndexOf('/'))}/*`]);
    if (route === undefined) return this.reply(res, record, null, clobErrors.notFound());

    let account: FakeAccount | undefined;
    let l1: RouteContext['l1'];
    if (route.auth === 'l1') {
      const verdict = await verifyL1Headers(req.headers, { chainId: this.exchange.chainId, nowSeconds: Math.floor(this.clock() / 1000), windowSeconds: this.windowSeconds });
      if (!verdict.ok) return this.reply(res, record, null, clobErrors.unauthorized(), verdict.reason);
      l1 = { address: verdict.address, nonce: verdict.nonce };
    } else if (route.auth === 'l2') {
      const verdict = verifyL2Headers(
        req.headers,
        { method, requestPath: path, ...(raw === '' ? {} : { body: raw }) },
        (apiKey) => {
          const a = this.exchange.account(apiKey);
          return a && { secret: a.secret, passphrase: a.passphrase, ownerAddress: a.ownerAddress };
        },
        { nowSeconds: Math.floor(this.clock() / 1000), windowSeconds: this.windowSeconds },
      );
      if (!verdict.ok) return this.reply(res, record, null, clobErrors.unauthorized(), verdict.reason);
      account = this.exchange.account(verdict.apiKey);
    }
    const apiKey = account?.apiKey ?? null;

    const fault = this.faults.take(method, path);
    if (fault?.kind === 'server_error') return this.reply(res, record, apiKey, clobErrors.serverError(fault.status));
    if (fault?.kind === 'rate_limit') return this.reply(res, record, apiKey, clobErrors.tooManyRequests());

    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        return this.reply(res, record, apiKey, route.badJson?.() ?? clobErrors.invalidOrderPayload());
      }
    }

    const limits = account === undefined || this.signerLimiter === null ? null : this.signerLimiter.charge(account.ownerAddress, method, path, body, this.exchange.cancelableCount(account, method, path, body));
    if (limits?.refused) return this.reply(res, record, apiKey, { ...clobErrors.tooManyRequests(), headers: limits.headers });

    if (fault?.kind === 'delay' && !fault.placeBeforeDelay) await sleep(fault.ms);
    this.exchange.expireOrders();
    const handled = await route.handle({ query: url.searchParams, body, account, param: decodeURIComponent(param), ...(l1 ? { l1 } : {}) });
    const answer = limits === null ? handled : { ...handled, headers: { ...handled.headers, ...limits.headers } };
    if (fault?.kind === 'delay' && fault.placeBeforeDelay) await sleep(fault.ms);
    if (fault?.kind === 'accept_then_drop') {
      record(apiKey, 'dropped');
      req.socket.destroy();
      return;
    }
    return this.reply(res, record, apiKey, answer);
  }

  /** The Data API: public, its own host in production (so not the CLOB's throttle); the same fault rules. */
  private async onDataApi(req: IncomingMessage, res: ServerResponse, record: (apiKey: string | null, status: number | 'dropped') => void, method: string, path: string, query: URLSearchParams): Promise<void> {
    const fault = this.faults.take(method, path);
    if (fault?.kind === 'server_error') return this.reply(res, record, null, clobErrors.serverError(fault.status));
    if (fault?.kind === 'rate_limit') return this.reply(res, record, null, clobErrors.tooManyRequests());
    if (fault?.kind === 'delay' && !fault.placeBeforeDelay) await sleep(fault.ms);
    const answer = this.dataApi.handle(method, path.slice(DATA_API_PREFIX.length) || '/', query);
    if (fault?.kind === 'delay' && fault.placeBeforeDelay) await sleep(fault.ms);
    if (fault?.kind === 'accept_then_drop') {
      record(null, 'dropped');
      req.socket.destroy();
      return;
    }
    return this.reply(res, record, null, answer);
  }

  private reply(res: ServerResponse, record: (apiKey: string | null, status: number, refusal?: string) => void, apiKey: string | null, answer: ClobAnswer, refusal?: string): void {
    record(apiKey, answer.status, refusal);
    if (res.destroyed) return;
    const json = JSON.stringify(answer.body);
    res.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  }
}

function tokenRead(ex: PolymarketExchange, tokenId: string | null, shape: (token: TokenSeed) => unknown): ClobAnswer {
  if (tokenId === null || !/^[0-9]{1,78}$/.test(tokenId)) return clobErrors.invalidTokenId();
  const token = ex.token(tokenId);
  return token === undefined ? clobErrors.marketNotFound() : { status: 200, body: shape(token) };
}

