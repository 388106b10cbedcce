/**
 * The REST routes of the fake, Kalshi Trade API v2 under `/trade-api/v2`.
 *
 * Paths and query parameters: docs.kalshi.com API reference (openapi.yaml 3.26.0) and
 * kalshi-typescript; paging as recorded on demo (XavierBriggs/Fortuna fixtures/kalshi):
 * an opaque `cursor`, `""` on the last page, `limit` 1..1000 (a larger limit is a bare
 * `{"msg"}` 400, a garbage cursor is silently accepted: here it restarts from the top).
 *
 * Public (no key needed): /markets, /markets/{ticker}, /markets/{ticker}/orderbook,
 * /series/{ticker}, /events/{event_ticker}, and the market-data routes of marketDataRoutes.ts
 * (/markets/trades, /series/{series_ticker}/markets/{ticker}/candlesticks). Everything under /portfolio needs a signed
 * request. The V1 order writes (POST /portfolio/orders, its DELETE, amend, decrease,
 * batched) answer 410 deprecated_v1_order_endpoint since June 2026; the V1 reads
 * (GET /portfolio/orders, GET /portfolio/orders/{id}) remain.
 *
 * V2 order writes, under /portfolio/events/orders (exchange.ts does them; bodies checked in
 * createOrderBody.ts and orderManagementBodies.ts):
 *   POST   /portfolio/events/orders                     create (openapi.yaml 3.26.0)
 *   DELETE /portfolio/events/orders/{order_id}          cancel
 *   POST   /portfolio/events/orders/{order_id}/amend    {ticker, side, price, count, client_order_id?,
 *                                                        updated_client_order_id?} -> {order_id,
 *                                                        client_order_id, remaining_count, fill_count,
 *                                                        average_fill_price, average_fee_paid, ts_ms}
 *   POST   /portfolio/events/orders/{order_id}/decrease {reduce_by | reduce_to} -> {order_id,
 *                                                        client_order_id, remaining_count, ts_ms}
 *   POST   /portfolio/events/orders/batched             {orders: [<create body>]} -> 201 {orders: [...]}
 *   DELETE /portfolio/events/orders/batched             {orders: [{order_id}]} -> 200 {orders: [...]}
 * (amend, decrease and the batched pair: openapi.yaml 3.28.0, docs.kalshi.com 2026-08). A batch
 * over the tier's size is refused whole before any token is drawn (`oversizedBatch`, called by
 * server.ts ahead of the rate limiter); the answers of a single cancel or amend can be made to
 * describe another order (`misdescribableRoute`, answerFaults.ts), Kalshi's announced bug.
 *
 * GET /portfolio/settlements (openapi.yaml 3.29.0 GetSettlements): `ticker`, `event_ticker`,
 * `min_ts` / `max_ts` (unix seconds, on settled_time), `limit` 1..1000 default 100, `cursor`;
 * answers `{settlements: [...], cursor}`, newest first (records: lifecycle.ts). GET
 * /portfolio/positions takes `settlement_status` all | unsettled | settled, default unsettled.
 */
import { errors, type KalshiError } from './errors';
import type { Exchange, ExchangeAnswer, MisdescribableAnswer } from './exchange';
import { countFp } from './fixedPoint';
import { routeMarketData } from './marketDataRoutes';
import { STATUS_FILTER } from './markets';
import { fillJson, orderJson } from './wireShapes';
import { isBatched, maxBatchSize, type RateTier } from './rateLimits';

export interface RestRequest {
  /** The tier of the calling key's buckets, for GET /account/limits. */
  readonly tier?: RateTier;
  readonly method: string;
  /** Path below the API root, e.g. "/portfolio/balance". */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** The authenticated account, if the request was signed. */
  readonly userId: string | undefined;
}

export const API_ROOT = '/trade-api/v2';

const fail = (e: KalshiError): ExchangeAnswer => ({ status: e.status, body: e.body });

/** True for the routes that need a signature. */
export function requiresAuth(path: string): boolean {
  return path.startsWith('/portfolio/') || path.startsWith('/account/');
}

function page<T>(items: readonly T[], query: URLSearchParams, defaultLimit: number, endpoint: string): { items: T[]; cursor: string } | KalshiError {
  const rawLimit = query.get('limit');
  let limit = defaultLimit;
  if (rawLimit !== null) {
    limit = Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return errors.parameterValidation(
        `Parameter validation failed for ${endpoint}: Key: '${endpoint}Params.Limit' Error:Field validation for 'Limit' failed on the '${limit < 1 ? 'gte' : 'lte'}' tag`,
      );
    }
  }
  let offset = 0;
  const cursor = query.get('cursor');
  if (cursor !== null && cursor !== '') {
    const decoded = /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    offset = decoded === null ? 0 : Number(decoded[1]);
  }
  const slice = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? Buffer.from(`o:${offset + limit}`, 'utf8').toString('base64url') : '';
  return { items: slice, cursor: next };
}

function isError(x: unknown): x is KalshiError {
  return typeof x === 'object' && x !== null && 'status' in x && 'body' in x;
}

function optionalInt(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  return v === null || v === '' ? undefined : Number(v);
}

function optional(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v === null || v === '' ? undefined : v;
}

const V1_WRITES: ReadonlyArray<readonly [string, RegExp]> = [
  ['POST', /^\/portfolio\/orders$/],
  ['POST', /^\/portfolio\/orders\/batched$/],
  ['DELETE', /^\/portfolio\/orders\/batched$/],
  ['DELETE', /^\/portfolio\/orders\/[^/]+$/],
  ['POST', /^\/portfolio\/orders\/[^/]+\/amend$/],
  ['POST', /^\/portfolio\/orders\/[^/]+\/decrease$/],
];

export function isV1Write(method: string, path: string): boolean {
  return V1_WRITES.some(([m, p]) => m === method && p.test(path));
}

/**
 * A V2 batched create or cancel (`fullPath` from the root) carrying more orders than the tier's write
 * bucket can pay for at once is refused whole, before any token is drawn: 400 invalid_parameters
 * (assumed code; the docs say only that "the maximum batch size scales with your tier's write
 * budget" and that a batch that does not fit "is rejected").
 */
export function oversizedBatch(method: string, fullPath: string, items: number, tier: RateTier): KalshiError | undefined {
  if (!isBatched(method, fullPath)) return undefined;
  const max = maxBatchSize(tier, method as 'POST' | 'DELETE');
  if (items <= max) return undefined;
  return errors.invalidParameters(`batch of ${items} orders is over the maximum batch size of ${max} for the ${tier.name} tier`);
}

/** The V2 answers the `wrong_order_answer` fault rewrites: the single cancel and the amend (path below the API root). */
export function misdescribableRoute(method: string, path: string): { kind: MisdescribableAnswer; orderId: string } | undefined {
  const cancel = method === 'DELETE' ? /^\/portfolio\/events\/orders\/([^/]+)$/.exec(path) : null;
  if (cancel !== null && cancel[1] !== 'batched') return { kind: 'cancel', orderId: decodeURIComponent(cancel[1]!) };
  const amend = method === 'POST' ? /^\/portfolio\/events\/orders\/([^/]+)\/amend$/.exec(path) : null;
  return amend === null ? undefined : { kind: 'amend', orderId: decodeURIComponent(amend[1]!) };
}

export function route(exchange: Exchange, req: RestRequest): ExchangeAnswer {
  const { method, path, query } = req;
  const parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);

  if (isV1Write(method, path)) return fail(errors.deprecatedV1());

  const marketData = routeMarketData(exchange, method, parts, query);
  if (marketData !== undefined) return marketData;

  if (method === 'GET' && parts[0] === 'markets') {
    if (parts.length === 1) {
      const statuses = optional(query, 'status')?.split(',');
      const tickers = optional(query, 'tickers')?.split(',');
      const eventTicker = optional(query, 'event_ticker');
      const seriesTicker = optional(query, 'series_ticker');
      const list = exchange.marketList().filter(
        (m) =>
          (statuses === undefined || statuses.some((s) => (STATUS_FILTER[s] ?? []).includes(m.status ?? 'active'))) &&
          (tickers === undefined || tickers.includes(m.ticker)) &&
          (eventTicker === undefined || m.event_ticker === eventTicker) &&
          (seriesTicker === undefined || m.series_ticker === seriesTicker),
      );
      const p = page(list, query, 100, 'GetMarkets');
      if (isError(p)) return fail(p);
      return { status: 200, body: { cursor: p.cursor, markets: p.items.map((m) => exchange.marketJson(m.ticker)) } };
    }
    const ticker = parts[1]!;
    if (parts.length === 2) {
      const market = exchange.marketJson(ticker);
      return market === undefined ? fail(errors.notFound()) : { status: 200, body: { market } };
    }
    if (parts.length === 3 && parts[2] === 'orderbook') {
      const book = exchange.orderbookJson(ticker, optionalInt(query, 'depth') ?? 0);
      return book === undefined ? fail(errors.notFound()) : { status: 200, body: book };
    }
  }
  if (method === 'GET' && parts[0] === 'series' && parts.length === 2) {
    const series = exchange.seriesJson(parts[1]!);
    return series === undefined ? fail(errors.notFound()) : { status: 200, body: { series } };
  }
  if (method === 'GET' && parts[0] === 'events' && parts.length === 1) {
    // GET /events (openapi.yaml 3.28.0 GetEvents): `status` (open, closed, settled: an event is
    // listed under a status when one of its markets has it), `series_ticker`, `limit` (1..200,
    // default 200), `cursor`; `{events: [...], cursor}`, "" on the last page.
    const statuses = optional(query, 'status')?.split(',');
    const seriesTicker = optional(query, 'series_ticker');
    const tickers = [...new Set(
      exchange
        .marketList()
        .filter((m) => (statuses === undefined || statuses.some((st) => (STATUS_FILTER[st] ?? []).includes(m.status ?? 'active'))) && (seriesTicker === undefined || m.series_ticker === seriesTicker))
        .map((m) => m.event_ticker),
    )];
    const p = page(tickers, query, 200, 'GetEvents');
    if (isError(p)) return fail(p);
    return { status: 200, body: { cursor: p.cursor, events: p.items.map((ticker) => exchange.eventJson(ticker)) } };
  }
  if (method === 'GET' && parts[0] === 'events' && parts.length === 2) {
    const event = exchange.eventJson(parts[1]!);
    return event === undefined ? fail(errors.notFound()) : { status: 200, body: { event, markets: [] } };
  }

  const userId = req.userId;
  if (userId !== undefined && method === 'GET' && path === '/account/limits' && req.tier !== undefined) {
    // Recorded shape (account__limits.json): capacity and refill per second of each bucket.
    return {
      status: 200,
      body: {
        usage_tier: req.tier.name,
        read: { bucket_capacity: req.tier.readPerSecond, refill_rate: req.tier.readPerSecond },
        write: { bucket_capacity: req.tier.writePerSecond, refill_rate: req.tier.writePerSecond },
        grants: [],
      },
    };
  }
  if (userId === undefined || parts[0] !== 'portfolio') return fail(errors.routeNotFound());

  // V2 order writes.
  if (parts[1] === 'events' && parts[2] === 'orders') {
    if (method === 'POST' && parts.length === 3) return exchange.createOrder(userId, req.body);
    if (parts.length === 4 && parts[3] === 'batched') {
      if (method === 'POST') return exchange.batchCreateOrders(userId, req.body);
      if (method === 'DELETE') return exchange.batchCancelOrders(userId, req.body);
      return fail(errors.routeNotFound());
    }
    if (method === 'DELETE' && parts.length === 4) return exchange.cancelOrder(userId, parts[3]!);
    if (method === 'POST' && parts.length === 5 && parts[4] === 'amend') return exchange.amendOrder(userId, parts[3]!, req.body);
    if (method === 'POST' && parts.length === 5 && parts[4] === 'decrease') return exchange.decreaseOrder(userId, parts[3]!, req.body);
    return fail(errors.routeNotFound());
  }

  if (method !== 'GET') return fail(errors.routeNotFound());

  if (parts[1] === 'balance' && parts.length === 2) return { status: 200, body: exchange.balanceJson(userId) };

  if (parts[1] === 'positions' && parts.length === 2) {
    const settlementStatus = optional(query, 'settlement_status') ?? 'unsettled';
    if (settlementStatus !== 'all' && settlementStatus !== 'unsettled' && settlementStatus !== 'settled') {
      return fail(
        errors.parameterValidation(
          `Parameter validation failed for GetPositions: Key: 'GetPositionsParams.SettlementStatus' Error:Field validation for 'SettlementStatus' failed on the 'oneof' tag`,
        ),
      );
    }
    const p = page(exchange.positionsJson(userId, optional(query, 'ticker'), settlementStatus), query, 100, 'GetPositions');
    if (isError(p)) return fail(p);
    return { status: 200, body: { cursor: p.cursor, market_positions: p.items, event_positions: [] } };
  }

  if (parts[1] === 'settlements' && parts.length === 2) {
    const settlements = exchange.listSettlements(userId, {
      ticker: optional(query, 'ticker'),
      eventTicker: optional(query, 'event_ticker'),
      minTs: optionalInt(query, 'min_ts'),
      maxTs: optionalInt(query, 'max_ts'),
    });
    const p = page(settlements, query, 100, 'GetSettlements');
    if (isError(p)) return fail(p);
    return { status: 200, body: { settlements: p.items, cursor: p.cursor } };
  }

  if (parts[1] === 'fills' && parts.length === 2) {
    const fills = exchange.listFills(userId, {
      ticker: optional(query, 'ticker'),
      orderId: optional(query, 'order_id'),
      minTs: optionalInt(query, 'min_ts'),
      maxTs: optionalInt(query, 'max_ts'),
    });
    const p = page(fills, query, 100, 'GetFills');
    if (isError(p)) return fail(p);
    return { status: 200, body: { cursor: p.cursor, fills: p.items.map((f) => fillJson(f)) } };
  }

  if (parts[1] === 'orders') {
    if (parts.length === 2) {
      const status = optional(query, 'status');
      if (status !== undefined && !['resting', 'canceled', 'executed'].includes(status)) {
        return fail(errors.parameterValidation(`Parameter validation failed for GetOrders: Key: 'GetOrdersParams.Status' Error:Field validation for 'Status' failed on the 'oneof' tag`));
      }
      const orders = exchange.listOrders(userId, {
        ticker: optional(query, 'ticker'),
        eventTicker: optional(query, 'event_ticker'),
        minTs: optionalInt(query, 'min_ts'),
        maxTs: optionalInt(query, 'max_ts'),
        status,
      });
      const p = page(orders, query, 100, 'GetOrders');
      if (isError(p)) return fail(p);
      return { status: 200, body: { cursor: p.cursor, orders: p.items.map((o) => orderJson(o)) } };
    }
    if (parts.length === 3 && parts[2] === 'queue_positions') {
      const tickers = optional(query, 'market_tickers')?.split(',');
      const eventTicker = optional(query, 'event_ticker');
      if (tickers === undefined && eventTicker === undefined) {
        return fail(errors.parameterValidation('Parameter validation failed for GetOrderQueuePositions: market_tickers or event_ticker is required'));
      }
      const queue_positions = exchange.restingOrderIds(userId, tickers, eventTicker).map((orderId) => {
        const q = exchange.queuePositionOf(userId, orderId)!;
        return {
          order_id: orderId,
          market_ticker: q.ticker,
          queue_position: Math.floor(q.queuePositionUnits / 100),
          queue_position_fp: countFp(q.queuePositionUnits),
        };
      });
      return { status: 200, body: { queue_positions } };
    }
    if (parts.length === 3) return exchange.getOrder(userId, parts[2]!);
    if (parts.length === 4 && parts[3] === 'queue_position') {
      const q = exchange.queuePositionOf(userId, parts[2]!);
      if (q === null) return fail(errors.notFound());
      return { status: 200, body: { queue_position: Math.floor(q.queuePositionUnits / 100), queue_position_fp: countFp(q.queuePositionUnits) } };
    }
  }
  return fail(errors.routeNotFound());
}
