/**
 * A faithful fake of Kalshi's Trade API v2 (REST under `/trade-api/v2`, WebSocket at
 * `/trade-api/ws/v2`; order writes on the V2 `/portfolio/events/orders` endpoints that
 * replaced the V1 writes in June 2026), a real node:http + ws server on loopback.
 * One instance plays one Kalshi environment (production or demo): it knows only the
 * API keys registered with it.
 *
 * Request pipeline: signature check (auth.ts; required under /portfolio, checked when
 * present elsewhere) -> injected fault (faults.ts) -> a batched order call over the tier's batch
 * size refused whole (restRoutes.ts oversizedBatch) -> token buckets per key id, a batch billed per
 * order (rateLimits.ts) -> route (restRoutes.ts) -> exchange state (exchange.ts) -> a lost answer
 * (accept_then_drop) or, for a V2 cancel or amend, an answer describing another order
 * (answerFaults.ts, `injectWrongOrderAnswer`). Every
 * request is recorded with the key id that signed it, so tests can assert who signed
 * what. Shapes and their sources are listed in each module's header and in
 * docs/kalshi-fake.md.
 *
 * A test plays "another participant" with `placeOrderAs(userId, v2Order)` (or the
 * control API `POST /_fake/orders` when `controlApi` is on): the order goes through the
 * same book, without a signature or rate limit. The fake's own market maker
 * (`fake.marketMaker`, marketMaker.ts) is such a participant with a deep balance; with
 * `seedBooks` (on in `start.ts`) it quotes every market's book at start.
 *
 * Public market data (marketDataRoutes.ts, marketDataFeed.ts): every match on a book is a public
 * trade (GET /markets/trades, the `trade` channel), every change of a resting order is an
 * `orderbook_delta`, and candlesticks and the market's quote fields come from the recorded history
 * (marketHistory.ts). Their faults: `injectSequenceGap(ticker)`, `freezeMarketData(frozen, ticker?)`
 * and `dropWebSockets()` (control API `POST /_fake/market_data/gap|freeze`, `POST /_fake/ws/drop`).
 *
 * Markets close, are determined (and amended) and settle only when told to, through
 * `exchange.closeMarket` / `determineMarket` / `settleMarket` or the control API
 * (`POST /_fake/markets/{ticker}/close|determine|dispute|settle|deactivate|activate`,
 * lifecycle.ts); the `market_lifecycle_v2` notices reach the sockets through UserStreams.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { authenticate, DEFAULT_TIMESTAMP_WINDOW, hasAuthHeaders, KeyRegistry, type TimestampWindow } from './auth';
import { errors, type KalshiError } from './errors';
import { Exchange, type ExchangeAnswer } from './exchange';
import { FaultPlan, type FaultRule } from '../faults';
import { defaultCatalog, type CatalogSeed } from './markets';
import { batchItemCount, isBatched, RATE_TIERS, RateLimiter, type RateTier } from './rateLimits';
import { API_ROOT, misdescribableRoute, oversizedBatch, requiresAuth, route } from './restRoutes';
import { WrongOrderAnswers, type WrongOrderAnswerRule } from './answerFaults';
import { UserStreams } from './userStreams';
import { handleControl } from './controlApi';
import { LoopbackServer, readBody, sleep } from '../loopback';
import { MARKET_MAKER_BALANCE_DOLLARS, MARKET_MAKER_USER_ID, seedBooks, type SeededQuote } from './marketMaker';
import type { SeedBooksOptions } from '../seedBooks';

export const WS_PATH = '/trade-api/ws/v2';

export interface FakeKey {
  readonly keyId: string;
  readonly publicKeyPem: string;
}

export interface FakeAccount {
  readonly userId: string;
  /** Cash in dollars, e.g. "1000.00"; default 0. */
  readonly balanceDollars?: string;
  readonly keys?: readonly FakeKey[];
}

export interface KalshiFakeOptions {
  /** A label only; one instance = one environment, keys do not cross instances. */
  readonly environment?: 'production' | 'demo';
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly catalog?: CatalogSeed;
  readonly accounts?: readonly FakeAccount[];
  readonly rateTier?: RateTier;
  /** Turn the token buckets off entirely (default on). */
  readonly rateLimits?: boolean;
  readonly timestampWindow?: TimestampWindow;
  /** Server ping cadence on WebSockets; Kalshi pings every 10 s. */
  readonly pingIntervalMs?: number;
  /** Serve the test-control API under /_fake (default off). */
  readonly controlApi?: boolean;
  readonly clock?: () => number;
  /**
   * Seed every market's book with the fake market maker's resting ladder (marketMaker.ts) at
   * start. Default off (empty books); `start.ts` turns it on unless KALSHI_FAKE_SEED_BOOKS=false.
   */
  readonly seedBooks?: boolean | SeedBooksOptions;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path from the root without query, e.g. "/trade-api/v2/portfolio/events/orders". */
  readonly path: string;
  readonly query: string;
  /** The key id whose signature was verified; null when unsigned or refused. */
  readonly keyId: string | null;
  /** The key id the client claimed in KALSHI-ACCESS-KEY, verified or not. */
  readonly claimedKeyId: string | null;
  readonly status: number | 'dropped';
  readonly atMs: number;
}


export class KalshiFake {
  readonly exchange: Exchange;
  readonly keys = new KeyRegistry();
  readonly faults = new FaultPlan();
  /** Kalshi's V2 cancel/amend answers that describe another order (answerFaults.ts). */
  readonly wrongOrderAnswers = new WrongOrderAnswers();
  readonly requests: RecordedRequest[] = [];
  readonly environment: 'production' | 'demo';

  private readonly limiter: RateLimiter;
  private readonly streams: UserStreams;
  private readonly wss: WebSocketServer;
  private readonly http: LoopbackServer;
  private readonly clock: () => number;
  private readonly window: TimestampWindow;
  private readonly rateLimitsOn: boolean;
  private readonly controlApi: boolean;

  private constructor(options: KalshiFakeOptions) {
    this.clock = options.clock ?? Date.now;
    this.environment = options.environment ?? 'production';
    this.exchange = new Exchange(options.catalog ?? defaultCatalog(), this.clock);
    this.limiter = new RateLimiter(options.rateTier ?? RATE_TIERS.basic, this.clock);
    this.rateLimitsOn = options.rateLimits ?? true;
    this.window = options.timestampWindow ?? DEFAULT_TIMESTAMP_WINDOW;
    this.controlApi = options.controlApi ?? false;
    this.streams = new UserStreams(options.pingIntervalMs ?? 10_000, this.exchange, this.clock);
    this.exchange.onUserEvent((userId, event) => this.streams.publish(userId, event));
    this.exchange.onMarketNotice((notice) => this.streams.publishNotice(notice));
    this.exchange.onMarketData((event) => this.streams.publishMarketData(event));
    for (const account of options.accounts ?? []) {
      this.addAccount(account.userId, account.balanceDollars ?? '0');
      for (const key of account.keys ?? []) this.registerKey(account.userId, key.keyId, key.publicKeyPem);
    }
    // The market maker always exists (no key: nobody signs as it), so a test or the control API can act as it.
    this.addAccount(MARKET_MAKER_USER_ID, MARKET_MAKER_BALANCE_DOLLARS);
    if (options.seedBooks !== undefined && options.seedBooks !== false) this.seedBooks(options.seedBooks === true ? {} : options.seedBooks);
    this.wss = new WebSocketServer({ noServer: true, autoPong: false });
    this.http = new LoopbackServer(createServer((req, res) => void this.onRequest(req, res)));
    this.http.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket as Socket, head));
  }

  static async start(options: KalshiFakeOptions = {}): Promise<KalshiFake> {
    const fake = new KalshiFake(options);
    await fake.http.listen(options.port, options.host);
    return fake;
  }

  get origin(): string {
    return this.http.origin;
  }

  /** What a client configures as the REST base URL. */
  get baseUrl(): string {
    return `${this.origin}${API_ROOT}`;
  }

  get wsUrl(): string {
    return `${this.origin.replace(/^http/, 'ws')}${WS_PATH}`;
  }

  get openWebSockets(): number {
    return this.streams.openCount;
  }

  addAccount(userId: string, balanceDollars?: string): void {
    this.exchange.ensureAccount(userId, balanceDollars);
  }

  registerKey(userId: string, keyId: string, publicKeyPem: string): void {
    this.exchange.ensureAccount(userId);
    this.keys.register(keyId, userId, publicKeyPem);
  }

  /** The fake market maker's user id: pass it to `placeOrderAs` / `cancelOrderAs` to act as it. */
  get marketMaker(): string {
    return MARKET_MAKER_USER_ID;
  }

  /**
   * Puts the market maker's ladder on every active market (marketMaker.ts): bids at mid - 0.01 ..
   * mid - 0.05 and asks at mid + 0.01 .. mid + 0.05 by default, 100 to 500 contracts. Cancels its
   * earlier quotes first, so calling it again refreshes the books.
   */
  seedBooks(options: SeedBooksOptions = {}): SeededQuote[] {
    return seedBooks(this.exchange, options);
  }

  /** Another participant's V2 order, through the same book (no signature, no rate limit). */
  placeOrderAs(userId: string, order: unknown): ExchangeAnswer {
    return this.exchange.createOrder(userId, order);
  }

  cancelOrderAs(userId: string, orderId: string): ExchangeAnswer {
    return this.exchange.cancelOrder(userId, orderId);
  }

  injectFault(rule: FaultRule): void {
    this.faults.inject(rule);
  }

  /**
   * The next successful V2 cancel or amend answers (matching the rule's method and path prefix, `times`
   * of them) describe another order of the account, while the cancel or amend itself acts on the
   * right one: Kalshi's announced bug (answerFaults.ts). Control API: `POST /_fake/faults
   * {kind: "wrong_order_answer", method?, path_prefix?, times?}`.
   */
  injectWrongOrderAnswer(rule: WrongOrderAnswerRule = {}): void {
    this.wrongOrderAnswers.inject(rule);
  }

  /** Clears every HTTP fault rule, the wrong-order answers and the market-data faults (a pending sequence gap, frozen feeds). */
  clearFaults(): void {
    this.faults.clear();
    this.wrongOrderAnswers.clear();
    this.streams.marketData.faults.clear();
  }

  dropWebSockets(): void {
    this.streams.dropAll();
  }

  freezeWebSockets(frozen: boolean): void {
    this.streams.setFrozen(frozen);
  }

  /**
   * The next `orderbook_delta` of `ticker`, on every subscription carrying it, takes a `seq` number
   * and is lost (`dropDelta`, the default) or arrives one number late (marketDataFaults.ts).
   */
  injectSequenceGap(ticker: string, options: { dropDelta?: boolean } = {}): void {
    this.streams.marketData.faults.injectGap(ticker, options.dropDelta ?? true);
  }

  /**
   * Freezes (or thaws) the public market data of one market, or of every market when `ticker` is
   * undefined: sockets stay open and answer pings and commands, but no orderbook, ticker or trade
   * frame is sent; what happens meanwhile is lost without a seq gap (marketDataFaults.ts).
   */
  freezeMarketData(frozen: boolean, ticker?: string): void {
    const faults = this.streams.marketData.faults;
    if (frozen) faults.freeze(ticker);
    else faults.thaw(ticker);
  }

  setRateTier(tier: RateTier): void {
    this.limiter.setTier(tier);
  }

  /** Requests that a given key signed (verified), in arrival order. */
  requestsSignedBy(keyId: string): RecordedRequest[] {
    return this.requests.filter((r) => r.keyId === keyId);
  }

  async close(): Promise<void> {
    this.streams.close();
    this.wss.close();
    await this.http.close();
  }

  // ---- HTTP ---------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const fullPath = url.pathname;
    const claimed = req.headers['kalshi-access-key'];
    const record = (keyId: string | null, status: number | 'dropped'): void => {
      this.requests.push({
        method,
        path: fullPath,
        query: url.search,
        keyId,
        claimedKeyId: typeof claimed === 'string' ? claimed : null,
        status,
        atMs: this.clock(),
      });
    };

    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      return this.reply(res, record, null, errors.badRequest('request body too large'));
    }

    if (this.controlApi && fullPath.startsWith('/_fake/')) {
      const answer = handleControl(this, method, fullPath, raw, url.searchParams);
      return this.reply(res, record, null, answer);
    }
    if (!fullPath.startsWith(`${API_ROOT}/`)) return this.reply(res, record, null, errors.routeNotFound());
    const path = fullPath.slice(API_ROOT.length);

    let keyId: string | null = null;
    let userId: string | undefined;
    if (requiresAuth(path) || hasAuthHeaders(req.headers)) {
      const auth = authenticate(this.keys, req.headers, method, fullPath, this.window, this.clock());
      if (!auth.ok) return this.reply(res, record, null, auth.error);
      keyId = auth.key.keyId;
      userId = auth.key.userId;
    }

    const fault = this.faults.take(method, fullPath);
    if (fault?.kind === 'server_error') return this.reply(res, record, keyId, errors.internal(fault.status));
    if (fault?.kind === 'rate_limit') return this.reply(res, record, keyId, errors.tooManyRequests());
    const items = isBatched(method, fullPath) ? batchItemCount(raw) : 1;
    const oversized = userId === undefined ? undefined : oversizedBatch(method, fullPath, items, this.limiter.currentTier);
    if (oversized !== undefined) return this.reply(res, record, keyId, oversized);
    if (keyId !== null && this.rateLimitsOn && !this.limiter.allow(keyId, method, fullPath, items)) {
      return this.reply(res, record, keyId, errors.tooManyRequests());
    }

    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch (e) {
        return this.reply(res, record, keyId, errors.badRequest(`invalid character in request body: ${(e as Error).message.slice(0, 80)}`));
      }
    }

    if (fault?.kind === 'delay' && !fault.placeBeforeDelay) await sleep(fault.ms);
    this.exchange.expireOrders();
    let answer = route(this.exchange, { method, path, query: url.searchParams, body, userId, tier: this.limiter.currentTier });
    if (fault?.kind === 'delay' && fault.placeBeforeDelay) await sleep(fault.ms);
    if (fault?.kind === 'accept_then_drop') {
      record(keyId, 'dropped');
      req.socket.destroy();
      return;
    }
    const misdescribable = userId !== undefined && answer.status >= 200 && answer.status < 300 ? misdescribableRoute(method, path) : undefined;
    if (misdescribable !== undefined && this.wrongOrderAnswers.take(method, fullPath)) {
      answer = this.exchange.misdescribe(userId!, misdescribable.orderId, misdescribable.kind, answer);
    }
    return this.reply(res, record, keyId, answer);
  }

  private reply(
    res: ServerResponse,
    record: (keyId: string | null, status: number | 'dropped') => void,
    keyId: string | null,
    answer: ExchangeAnswer | KalshiError,
  ): void {
    record(keyId, answer.status);
    if (res.destroyed) return;
    const json = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  }

  // ---- WebSocket handshake ------------------------------------------------------

  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const claimed = req.headers['kalshi-access-key'];
    const record = (keyId: string | null, status: number): void => {
      this.requests.push({
        method: 'GET',
        path: url.pathname,
        query: url.search,
        keyId,
        claimedKeyId: typeof claimed === 'string' ? claimed : null,
        status,
        atMs: this.clock(),
      });
    };
    const refuse = (error: KalshiError): void => {
      record(null, error.status);
      const json = JSON.stringify(error.body);
      const reason = error.status === 401 ? 'Unauthorized' : 'Not Found';
      socket.end(
        `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
      );
    };
    if (url.pathname !== WS_PATH) return refuse(errors.routeNotFound());
    const auth = authenticate(this.keys, req.headers, 'GET', WS_PATH, this.window, this.clock());
    if (!auth.ok) return refuse(auth.error);
    record(auth.key.keyId, 101);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.streams.attach(ws, auth.key.userId));
  }
}

