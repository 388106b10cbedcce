/**
 * The fake's test-control API under `/_fake/` (only when started with `controlApi: true`,
 * as `start.ts` does). Not part of Kalshi's API; JSON in, JSON out, no signature.
 *
 *   POST   /_fake/accounts   {user_id, balance_dollars?}           create or fund an account
 *   POST   /_fake/keys       {user_id, key_id, public_key_pem}     register an API key
 *   POST   /_fake/orders     {user_id?, order: <V2 create body>}   another participant's order
 *                                                                  (user_id: the fake market maker when absent)
 *   DELETE /_fake/orders/{order_id}?user_id=...                    cancel it (the market maker's when no user_id)
 *   POST   /_fake/books/seed {levels?, level_spacing?, base_size?, size_increment?}
 *                                                                  (re)seed every book with the market maker's ladder
 *   POST   /_fake/faults     {kind, ms?, place_before_delay?, status?, method?, path_prefix?, times?}
 *                             kind accept_then_drop | delay | server_error | rate_limit (../faults.ts,
 *                             every route, the V2 amend, decrease and batched routes included), or
 *                             wrong_order_answer (answerFaults.ts): the next `times` (default 1)
 *                             successful V2 cancel / amend answers matching method and path_prefix
 *                             describe another order of the account; the action itself is right
 *   DELETE /_fake/faults                                           clear every fault rule (the wrong-order
 *                                                                  answers and the market-data faults
 *                                                                  below too)
 *   POST   /_fake/ws/drop                                          terminate every WebSocket
 *   POST   /_fake/ws/freeze  {frozen: true|false}                  silence / resume WebSockets
 *
 * Public market-data faults (marketDataFaults.ts; an unknown market_ticker is 404 `not_found`):
 *   POST   /_fake/market_data/gap    {market_ticker, drop_delta?: true|false (default true)}
 *                                                                  the market's next orderbook_delta
 *                                                                  skips a seq number on every subscription
 *                                                                  (lost with drop_delta, else sent late)
 *   POST   /_fake/market_data/freeze {frozen?: true|false (default true), market_ticker?}
 *                                                                  stop / resume the orderbook, ticker and
 *                                                                  trade frames of one market or of all;
 *                                                                  sockets stay open, pings answered
 *   (dropping every connection is POST /_fake/ws/drop above)
 *   PUT    /_fake/rate_tier  {tier: basic|advanced|expert|premier}
 *   GET    /_fake/requests                                         what arrived, with key ids
 *   GET    /_fake/orders                                           every order the exchange holds
 *
 * Market lifecycle (lifecycle.ts; answers `{market}`, the market's JSON after the step, as
 * GET /markets/{ticker} shows it; an unknown ticker is 404 `not_found`, a step the market's
 * status does not allow is 409 `conflict`, a bad body 400 `bad_request`). Every step that sends
 * a `market_lifecycle_v2` notice takes `{notice?: "sent" | "lost" | "repeated" | "late",
 * repeat?: n (default 2, with "repeated"), late_ms?: ms (default 200, with "late")}`:
 *   POST   /_fake/markets/{ticker}/close      {notice?...}         status closed now; resting orders
 *                                                                  canceled; close_date_updated when
 *                                                                  before the seed's close_time
 *   POST   /_fake/markets/{ticker}/determine  {result: yes|no|scalar|void, settlement_value_dollars?,
 *                                              expiration_value?, notice?...}
 *                                                                  closes first if open; determined, or
 *                                                                  amended when determined already;
 *                                                                  scalar needs a whole-cent value
 *   POST   /_fake/markets/{ticker}/dispute                         determined|amended -> disputed (no notice)
 *   POST   /_fake/markets/{ticker}/settle     {notice?...}         determined|amended -> finalized: records,
 *                                                                  cash, positions; answers
 *                                                                  {market, settlements: [{user_id, settlement}]}
 *   POST   /_fake/markets/{ticker}/deactivate {notice?...}         active -> inactive (deactivated)
 *   POST   /_fake/markets/{ticker}/activate   {notice?...}         inactive -> active, resting orders
 *                                                                  canceled (activated)
 */
import type { Exchange, ExchangeAnswer, LifecycleOutcome } from './exchange';
import { determinationFrom, noticeDeliveryFrom } from './lifecycle';
import { faultFromBody, type FaultRule } from '../faults';
import type { WrongOrderAnswerRule } from './answerFaults';
import { RATE_TIERS, type RateTier } from './rateLimits';
import { orderJson } from './wireShapes';
import type { SeededQuote } from './marketMaker';
import { seedBooksOptionsFrom, type SeedBooksOptions } from '../seedBooks';

const answer = (status: number, body: unknown): ExchangeAnswer => ({ status, body });
const bad = (message: string): ExchangeAnswer => answer(400, { error: { code: 'bad_request', message } });

function lifecycleAnswer(outcome: LifecycleOutcome): ExchangeAnswer {
  if (!outcome.ok) return answer(outcome.status, { error: { code: outcome.status === 404 ? 'not_found' : 'conflict', message: outcome.message } });
  return answer(200, outcome.settlements === undefined ? { market: outcome.market } : { market: outcome.market, settlements: outcome.settlements });
}

const MARKET_STEP = /^\/_fake\/markets\/([^/]+)\/(close|determine|dispute|settle|deactivate|activate)$/;

function parse(raw: string): Record<string, unknown> | null {
  if (raw === '') return {};
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function marketDataFault(fake: FakeControls, path: string, body: Record<string, unknown>): ExchangeAnswer {
  const ticker = body.market_ticker;
  if (ticker !== undefined && typeof ticker !== 'string') return bad('market_ticker must be a string');
  if (ticker !== undefined && fake.exchange.marketIdOf(ticker) === undefined) {
    return answer(404, { error: { code: 'not_found', message: `unknown market ${ticker}` } });
  }
  if (path === '/_fake/market_data/gap') {
    if (ticker === undefined) return bad('market_ticker is required');
    if (body.drop_delta !== undefined && typeof body.drop_delta !== 'boolean') return bad('drop_delta must be true or false');
    fake.injectSequenceGap(ticker, { dropDelta: body.drop_delta !== false });
    return answer(200, { market_ticker: ticker, drop_delta: body.drop_delta !== false });
  }
  if (body.frozen !== undefined && typeof body.frozen !== 'boolean') return bad('frozen must be true or false');
  fake.freezeMarketData(body.frozen !== false, ticker);
  return answer(200, { frozen: body.frozen !== false, market_ticker: ticker ?? null });
}

/** What the control API drives: the fake server (server.ts), named here so the two do not import each other. */
export interface FakeControls {
  readonly exchange: Exchange;
  readonly requests: readonly unknown[];
  readonly marketMaker: string;
  seedBooks(options?: SeedBooksOptions): SeededQuote[];
  addAccount(userId: string, balanceDollars?: string): void;
  registerKey(userId: string, keyId: string, publicKeyPem: string): void;
  placeOrderAs(userId: string, order: unknown): ExchangeAnswer;
  cancelOrderAs(userId: string, orderId: string): ExchangeAnswer;
  injectFault(rule: FaultRule): void;
  injectWrongOrderAnswer(rule: WrongOrderAnswerRule): void;
  clearFaults(): void;
  dropWebSockets(): void;
  freezeWebSockets(frozen: boolean): void;
  injectSequenceGap(ticker: string, options?: { dropDelta?: boolean }): void;
  freezeMarketData(frozen: boolean, ticker?: string): void;
  setRateTier(tier: RateTier): void;
}

/** `path` has no query string; the query's parameters come in `query`. */
export function handleControl(fake: FakeControls, method: string, path: string, raw: string, query: URLSearchParams = new URLSearchParams()): ExchangeAnswer {
  const body = parse(raw);
  if (body === null) return bad('body must be a JSON object');
  const str = (name: string): string | undefined => (typeof body[name] === 'string' ? (body[name] as string) : undefined);

  if (method === 'POST' && path === '/_fake/accounts') {
    const userId = str('user_id');
    if (userId === undefined) return bad('user_id is required');
    fake.addAccount(userId, str('balance_dollars'));
    return answer(200, { user_id: userId, ...fake.exchange.balanceJson(userId) });
  }
  if (method === 'POST' && path === '/_fake/keys') {
    const userId = str('user_id');
    const keyId = str('key_id');
    const pem = str('public_key_pem');
    if (userId === undefined || keyId === undefined || pem === undefined) return bad('user_id, key_id and public_key_pem are required');
    try {
      fake.registerKey(userId, keyId, pem);
    } catch {
      return bad('public_key_pem is not an RSA public key');
    }
    return answer(200, { user_id: userId, key_id: keyId });
  }
  if (method === 'POST' && path === '/_fake/orders') {
    if (body.user_id !== undefined && typeof body.user_id !== 'string') return bad('user_id must be a string');
    return fake.placeOrderAs(str('user_id') ?? fake.marketMaker, body.order);
  }
  if (method === 'DELETE' && path.startsWith('/_fake/orders/')) {
    const orderId = path.slice('/_fake/orders/'.length);
    const userId = query.get('user_id') ?? str('user_id') ?? fake.marketMaker;
    return fake.cancelOrderAs(userId, decodeURIComponent(orderId));
  }
  if (method === 'POST' && path === '/_fake/books/seed') {
    const options = seedBooksOptionsFrom(body);
    if (typeof options === 'string') return bad(options);
    const quotes = fake.seedBooks(options);
    const refused = quotes.filter((q) => q.answer.status !== 201);
    return answer(200, {
      user_id: fake.marketMaker,
      placed: quotes.length - refused.length,
      refused: refused.map((q) => ({ ticker: q.ticker, side: q.side, price: q.price, count: q.count, answer: q.answer.body })),
    });
  }
  if (method === 'GET' && path === '/_fake/orders') {
    return answer(200, { orders: fake.exchange.allOrders().map((o) => orderJson(o)) });
  }
  if (method === 'POST' && path === '/_fake/faults' && body.kind === 'wrong_order_answer') {
    const times = body.times === 'infinite' ? Infinity : typeof body.times === 'number' ? body.times : 1;
    fake.injectWrongOrderAnswer({ method: str('method'), pathPrefix: str('path_prefix'), times });
    return answer(200, { ok: true });
  }
  if (method === 'POST' && path === '/_fake/faults') {
    const fault = faultFromBody(body);
    if (typeof fault === 'string') return bad(fault);
    const times = body.times === 'infinite' ? Infinity : typeof body.times === 'number' ? body.times : 1;
    fake.injectFault({ fault, method: str('method'), pathPrefix: str('path_prefix'), times });
    return answer(200, { ok: true });
  }
  if (method === 'DELETE' && path === '/_fake/faults') {
    fake.clearFaults();
    return answer(200, { ok: true });
  }
  if (method === 'POST' && path === '/_fake/ws/drop') {
    fake.dropWebSockets();
    return answer(200, { ok: true });
  }
  if (method === 'POST' && path === '/_fake/ws/freeze') {
    fake.freezeWebSockets(body.frozen !== false);
    return answer(200, { frozen: body.frozen !== false });
  }
  if (method === 'POST' && (path === '/_fake/market_data/gap' || path === '/_fake/market_data/freeze')) {
    return marketDataFault(fake, path, body);
  }
  if (method === 'PUT' && path === '/_fake/rate_tier') {
    const tier = RATE_TIERS[str('tier') as keyof typeof RATE_TIERS];
    if (tier === undefined) return bad('tier must be basic, advanced, expert or premier');
    fake.setRateTier(tier);
    return answer(200, { tier: tier.name });
  }
  if (method === 'GET' && path === '/_fake/requests') return answer(200, { requests: fake.requests });
  const step = method === 'POST' ? MARKET_STEP.exec(path) : null;
  if (step !== null) {
    const ticker = decodeURIComponent(step[1]!);
    const exchange = fake.exchange;
    if (step[2] === 'dispute') return lifecycleAnswer(exchange.disputeMarket(ticker));
    const delivery = noticeDeliveryFrom(body);
    if (typeof delivery === 'string') return bad(delivery);
    switch (step[2]) {
      case 'close':
        return lifecycleAnswer(exchange.closeMarket(ticker, delivery));
      case 'determine': {
        const determination = determinationFrom(body);
        if (typeof determination === 'string') return bad(determination);
        return lifecycleAnswer(exchange.determineMarket(ticker, determination, delivery));
      }
      case 'settle':
        return lifecycleAnswer(exchange.settleMarket(ticker, delivery));
      case 'deactivate':
        return lifecycleAnswer(exchange.deactivateMarket(ticker, delivery));
      default:
        return lifecycleAnswer(exchange.activateMarket(ticker, delivery));
    }
  }
  return answer(404, { error: { code: 'not_found', message: 'unknown control route' } });
}
