/**
 * CLOB V2 `GET /prices-history` on the Polymarket fake: a token's price over time, built from what
 * happened on the fake's own book (marketFeed.ts records it after every order, cancel and trade).
 *
 * Request (docs.polymarket.com "Get prices history", api-spec/clob-openapi.yaml `getPricesHistory`,
 * crawled 2026-06-18; clob-client-v2 `getPricesHistory` and py-clob-client-v2 `PricesHistoryParams`):
 * `market` (required: the TOKEN id, "The market (asset id) to query"), `startTs`, `endTs` (unix
 * seconds), `interval` (`max`, `all`, `1m`, `1w`, `1d`, `6h`, `1h`), `fidelity` (minutes between
 * points, default 1). Answer `{history: [{t, p}]}`, `t` unix seconds (integer), `p` a JSON number.
 * Errors are `{error}` with status 400.
 *
 * How the parameters combine, as the live venue behaves (no document says; polyoxide's pinned live
 * tests, docs/spec-deviations of 2026-10-02, and a probe of 2026-09-15 quoted by a third party):
 * - `1m` is a MONTH (30 days); the other intervals are 1 h, 6 h, 1 day, 1 week; `max` and `all`
 *   are the whole history.
 * - the fidelity has a floor per interval, checked even when `fidelity` is left out (default 1):
 *   `1m` 10 and `1w` 5 minutes, else 1. Below it: 400 `invalid filters: minimum 'fidelity' for '1m'
 *   range is 10`.
 * - `startTs`/`endTs` and `interval` are not exclusive: the timestamps give the window, the
 *   interval's fidelity floor still applies. `endTs` alone is refused; `startTs` alone runs to now.
 *   A window longer than 15 days (1,296,000 s, to the second) is refused: 400 `invalid filters:
 *   'startTs' and 'endTs' interval is too long` (polyoxide saw milliseconds in `startTs`/`endTs`
 *   refused so; the fake refuses them only when the window they span is over 15 days).
 * - a live market's answer ends with ONE EXTRA point stamped now, at the current price, even when
 *   `endTs` lies in the past (the "now point": polyoxide's `pin_prices_history_appends_a_now_point`).
 * Choices where nothing was found: neither `interval` nor `startTs` answers 400 `invalid filters:
 * one of 'interval' or 'startTs' must be provided` (the official clients refuse to send it); an
 * unknown interval answers 400 `invalid filters: interval must be one of max, all, 1m, 1w, 1d, 6h,
 * 1h` (the wording of the Data API v2's prices-history, polyoxide data-v2/OBSERVED.md); a
 * non-numeric parameter answers 400 `invalid filters: ...` naming it; an unknown token an empty
 * history.
 *
 * What `p` is. Polymarket's displayed price is "the midpoint of the bid-ask spread. If the spread
 * is wider than $0.10, the last traded price" (docs.polymarket.com "Prices & Orderbook"), and
 * readers of this series describe it as the midpoint series; the venue does not document its
 * sampling. The fake samples that displayed price: the series is the token's displayed price
 * (midpoint when both sides are quoted and the spread is at most 0.10, else the last trade price;
 * nothing while neither exists) at each multiple of `fidelity` minutes inside the window (the state
 * after everything that happened up to that second), then the now point. A bucket before the
 * token's first displayed price has no point.
 */
import { Decimal } from '../../core/domain/decimals';
import type { ClobAnswer } from './errors';

const HISTORY_INTERVALS = ['max', 'all', '1m', '1w', '1d', '6h', '1h'] as const;
type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

const SPAN_SECONDS: Record<HistoryInterval, number | null> = {
  max: null,
  all: null,
  '1m': 30 * 86_400,
  '1w': 7 * 86_400,
  '1d': 86_400,
  '6h': 6 * 3600,
  '1h': 3600,
};
const MIN_FIDELITY: Record<HistoryInterval, number> = { max: 1, all: 1, '1m': 10, '1w': 5, '1d': 1, '6h': 1, '1h': 1 };
/** The longest startTs..endTs window the venue serves, in seconds (15 days). */
export const MAX_HISTORY_WINDOW_SECONDS = 1_296_000;

const bad = (message: string): ClobAnswer => ({ status: 400, body: { error: `invalid filters: ${message}` } });

interface PricePoint {
  readonly atMs: number;
  /** The displayed price from then on (a decimal string), or null when there was none. */
  readonly price: string | null;
}

/** Each token's displayed price over time: a step function, one point per change. */
export class DisplayPrices {
  private readonly series = new Map<string, PricePoint[]>();

  /** The token's displayed price is `price` from `atMs` on (recorded only when it changes). */
  record(tokenId: string, atMs: number, price: string | null): void {
    let points = this.series.get(tokenId);
    if (points === undefined) {
      if (price === null) return;
      points = [];
      this.series.set(tokenId, points);
    }
    const last = points[points.length - 1];
    if (last !== undefined && last.price === price) return;
    points.push({ atMs, price });
  }

  /** The displayed price at `atMs` (the last change at or before it), null when none. */
  at(tokenId: string, atMs: number): string | null {
    const points = this.series.get(tokenId) ?? [];
    let found: string | null = null;
    for (const point of points) {
      if (point.atMs > atMs) break;
      found = point.price;
    }
    return found;
  }

  /** When the token first had a displayed price (ms), or null. */
  firstAt(tokenId: string): number | null {
    return this.series.get(tokenId)?.find((p) => p.price !== null)?.atMs ?? null;
  }
}

export interface PriceHistorySource {
  readonly prices: DisplayPrices;
  /** True while the token's market trades (the now point is only appended then). */
  isLive(tokenId: string): boolean;
}

function integerParam(query: URLSearchParams, name: string): number | null | 'bad' {
  const text = query.get(name);
  if (text === null || text === '') return null;
  return /^-?\d+$/.test(text) ? Number(text) : 'bad';
}

/** `GET /prices-history`. */
export function pricesHistory(source: PriceHistorySource, query: URLSearchParams, nowMs: number): ClobAnswer {
  const market = query.get('market');
  if (market === null || market === '') return bad("'market' is required");
  const intervalText = query.get('interval');
  if (intervalText !== null && !(HISTORY_INTERVALS as readonly string[]).includes(intervalText)) return bad(`interval must be one of ${HISTORY_INTERVALS.join(', ')}`);
  const interval = intervalText as HistoryInterval | null;
  const startTs = integerParam(query, 'startTs');
  const endTs = integerParam(query, 'endTs');
  const fidelityParam = integerParam(query, 'fidelity');
  if (startTs === 'bad' || endTs === 'bad') return bad("'startTs' and 'endTs' must be unix seconds");
  if (fidelityParam === 'bad' || (fidelityParam !== null && fidelityParam < 1)) return bad("'fidelity' must be a whole number of minutes");
  const fidelity = fidelityParam ?? 1;
  if (interval !== null && fidelity < MIN_FIDELITY[interval]) return bad(`minimum 'fidelity' for '${interval}' range is ${MIN_FIDELITY[interval]}`);
  if (endTs !== null && startTs === null) return bad("'endTs' needs 'startTs'");
  if (interval === null && startTs === null) return bad("one of 'interval' or 'startTs' must be provided");

  const nowSeconds = Math.floor(nowMs / 1000);
  let from: number;
  let to: number;
  if (startTs !== null) {
    from = startTs;
    to = endTs ?? nowSeconds;
    if (to - from > MAX_HISTORY_WINDOW_SECONDS) return bad("'startTs' and 'endTs' interval is too long");
  } else {
    const span = SPAN_SECONDS[interval!];
    const first = source.prices.firstAt(market);
    to = nowSeconds;
    from = span === null ? (first === null ? nowSeconds : Math.floor(first / 1000)) : nowSeconds - span;
  }

  const step = fidelity * 60;
  const history: { t: number; p: number }[] = [];
  const last = Math.min(to, nowSeconds);
  for (let t = Math.ceil(from / step) * step; t <= last; t += step) {
    const price = source.prices.at(market, t * 1000 + 999);
    if (price !== null) history.push({ t, p: Number(price) });
  }
  const current = source.prices.at(market, nowMs);
  const lastPoint = history[history.length - 1];
  if (current !== null && source.isLive(market) && (lastPoint === undefined || lastPoint.t < nowSeconds)) history.push({ t: nowSeconds, p: Number(current) });
  return { status: 200, body: { history } };
}

/** The displayed price of a book: the midpoint when both sides are quoted at most 0.10 apart, else the last trade. */
export function displayPrice(bestBidTicks: number | null, bestAskTicks: number | null, lastTradePrice: string | undefined, ticksPerDollar: number): string | null {
  if (bestBidTicks !== null && bestAskTicks !== null && bestAskTicks - bestBidTicks <= ticksPerDollar / 10) {
    return new Decimal(bestBidTicks + bestAskTicks).div(2 * ticksPerDollar).toFixed();
  }
  return lastTradePrice === undefined ? null : new Decimal(lastTradePrice).toFixed();
}
