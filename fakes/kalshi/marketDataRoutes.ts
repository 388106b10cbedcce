/**
 * The public market-data REST routes the fake adds to restRoutes.ts (Trade API v2, no signature
 * needed, "Authorization: No authorization required" in the SDK docs):
 *   GET /markets/trades                                          publicTrades.ts
 *   GET /series/{series_ticker}/markets/{ticker}/candlesticks    candlesticks.ts
 * An unknown market, or a market that is not in the series of the path, is 404 `not_found`
 * (assumed: the spec lists a 404 without a body).
 */
import { candlesticks, candleQueryFrom } from './candlesticks';
import { errors, type KalshiError } from './errors';
import type { Exchange, ExchangeAnswer } from './exchange';
import { tradePage, tradeQueryFrom } from './publicTrades';

const fail = (e: KalshiError): ExchangeAnswer => ({ status: e.status, body: e.body });

const isError = (x: unknown): x is KalshiError => typeof x === 'object' && x !== null && 'status' in x && 'body' in x;

/** The answer when `parts` (the decoded path below the API root) is one of these routes, else undefined. */
export function routeMarketData(exchange: Exchange, method: string, parts: readonly string[], query: URLSearchParams): ExchangeAnswer | undefined {
  if (method !== 'GET') return undefined;
  if (parts.length === 2 && parts[0] === 'markets' && parts[1] === 'trades') {
    const q = tradeQueryFrom(query);
    if (isError(q)) return fail(q);
    return { status: 200, body: tradePage(exchange.publicTrades(), q) };
  }
  if (parts.length === 5 && parts[0] === 'series' && parts[2] === 'markets' && parts[4] === 'candlesticks') {
    const [, seriesTicker, , ticker] = parts as [string, string, string, string];
    const history = exchange.historyOf(ticker, seriesTicker);
    if (history === undefined) return fail(errors.notFound());
    const q = candleQueryFrom(query);
    if (isError(q)) return fail(q);
    const candles = candlesticks(history, q, exchange.now());
    if (isError(candles)) return fail(candles);
    return { status: 200, body: { ticker, candlesticks: candles } };
  }
  return undefined;
}
