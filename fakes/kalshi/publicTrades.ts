/**
 * GET /markets/trades, public (no signature): every match on the fake's books, any participant's.
 *
 * Shape (Trade API v2, openapi.yaml 3.28.0 GetTrades as on docs.kalshi.com 2026-08-22, mirrored
 * in ebowwa/dailydocupdates; the kalshi-typescript 3.30.0 Trade model agrees) and a response
 * recorded on demo 2026-06-15 without credentials (XavierBriggs/Fortuna fixtures/kalshi
 * trades__public_recorded.json):
 *   `{"cursor":"EhIK...","trades":[{"count_fp":"7.77","created_time":"2026-06-15T15:48:42.609997Z",
 *     "is_block_trade":false,"no_price_dollars":"0.9700","taker_book_side":"bid",
 *     "taker_outcome_side":"yes","taker_side":"yes","ticker":"...","trade_id":"<uuid>",
 *     "yes_price_dollars":"0.0300"}, ...]}`
 * newest first, keys in alphabetical order as recorded, `created_time` with sub-second digits
 * (wireTime.ts). `taker_side` is deprecated but still served ("will not be removed before May 2026",
 * still present in the 2026 spec).
 *
 * Query: `ticker`, `min_ts` / `max_ts` (unix seconds, compared with the trade's whole second,
 * inclusive like the fake's other lists; the spec says only "after" / "before"), `is_block_trade` (the fake has no block trades, so
 * `true` lists nothing), `limit` (`gte=0,lte=1000`, default 100; 0 means the default, as
 * `omitempty` validation reads it), `cursor` (opaque; "An empty cursor indicates no more pages").
 * The cursor is a position in the trade sequence, so trades arriving between pages neither repeat
 * nor shift a page; a cursor the fake did not write restarts from the newest trade (as the REST
 * lists do for a garbage cursor, recorded markets__garbage_cursor.json). A limit over 1000 is the
 * bare `{"msg"}` 400 of parameter validation (recorded for GET /markets).
 */
import { errors, type KalshiError } from './errors';
import { countFp, priceDollars, TICKS_PER_DOLLAR } from './fixedPoint';
import type { PublicTradeRecord } from './records';
import { goRfc3339 } from './wireTime';

export function publicTradeJson(t: PublicTradeRecord): object {
  const outcome = t.takerBookSide === 'bid' ? 'yes' : 'no';
  return {
    count_fp: countFp(t.units),
    created_time: goRfc3339(t.createdMs),
    is_block_trade: false,
    no_price_dollars: priceDollars(TICKS_PER_DOLLAR - t.yesPriceTicks),
    taker_book_side: t.takerBookSide,
    taker_outcome_side: outcome,
    taker_side: outcome,
    ticker: t.ticker,
    trade_id: t.tradeId,
    yes_price_dollars: priceDollars(t.yesPriceTicks),
  };
}

export interface TradeQuery {
  readonly ticker?: string;
  readonly minTs?: number;
  readonly maxTs?: number;
  readonly isBlockTrade?: boolean;
  readonly limit: number;
  /** Only trades with a smaller sequence (older) than this. */
  readonly beforeSequence?: number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const cursorFor = (sequence: number): string => Buffer.from(`trades:${sequence}`, 'utf8').toString('base64url');

function sequenceOf(cursor: string): number | undefined {
  const match = /^trades:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match === null ? undefined : Number(match[1]);
}

function validation(field: string, tag: string): KalshiError {
  return errors.parameterValidation(`Parameter validation failed for GetTrades: Key: 'GetTradesParams.${field}' Error:Field validation for '${field}' failed on the '${tag}' tag`);
}

function integer(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return /^-?\d+$/.test(raw) ? Number(raw) : 'invalid';
}

/** The query of GET /markets/trades, or the 400 it gets. */
export function tradeQueryFrom(query: URLSearchParams): TradeQuery | KalshiError {
  const limit = integer(query, 'limit');
  if (limit === 'invalid') return errors.parameterValidation(`Invalid format for parameter limit: ${query.get('limit')}`);
  if (limit !== undefined && limit < 0) return validation('Limit', 'gte');
  if (limit !== undefined && limit > MAX_LIMIT) return validation('Limit', 'lte');
  const minTs = integer(query, 'min_ts');
  const maxTs = integer(query, 'max_ts');
  if (minTs === 'invalid') return errors.parameterValidation(`Invalid format for parameter min_ts: ${query.get('min_ts')}`);
  if (maxTs === 'invalid') return errors.parameterValidation(`Invalid format for parameter max_ts: ${query.get('max_ts')}`);
  const block = query.get('is_block_trade');
  if (block !== null && block !== '' && block !== 'true' && block !== 'false') {
    return errors.parameterValidation(`Invalid format for parameter is_block_trade: ${block}`);
  }
  const cursor = query.get('cursor');
  const ticker = query.get('ticker');
  return {
    ticker: ticker === null || ticker === '' ? undefined : ticker,
    minTs,
    maxTs,
    isBlockTrade: block === 'true' ? true : block === 'false' ? false : undefined,
    limit: limit === undefined || limit === 0 ? DEFAULT_LIMIT : limit,
    beforeSequence: cursor === null || cursor === '' ? undefined : sequenceOf(cursor),
  };
}

/** One page of `trades` (oldest first, as recorded), newest first, and the next cursor ("" on the last page). */
export function tradePage(trades: readonly PublicTradeRecord[], q: TradeQuery): { trades: object[]; cursor: string } {
  const page: PublicTradeRecord[] = [];
  let more = false;
  for (let i = trades.length - 1; i >= 0; i -= 1) {
    const t = trades[i]!;
    if (q.beforeSequence !== undefined && t.sequence >= q.beforeSequence) continue;
    if (q.ticker !== undefined && t.ticker !== q.ticker) continue;
    const seconds = Math.floor(t.createdMs / 1000);
    if (q.minTs !== undefined && seconds < q.minTs) continue;
    if (q.maxTs !== undefined && seconds > q.maxTs) continue;
    if (q.isBlockTrade === true) continue;
    if (page.length === q.limit) {
      more = true;
      break;
    }
    page.push(t);
  }
  const last = page[page.length - 1];
  return { trades: page.map((t) => publicTradeJson(t)), cursor: more && last !== undefined ? cursorFor(last.sequence) : '' };
}
