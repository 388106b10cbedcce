import { Decimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import { CANDLE_INTERVALS } from '../../../contract/inputBounds';
import type { Candle, CandleInterval } from '../../domain/candles';
import type { PublicTrade } from '../../domain/publicTrades';
import type { MarketData, OrderBookView, VenueMarketRef, VenueQuote, VenueTradesPage } from '../venue';
import { candlesFromHistory, tradeFromDataApi } from './marketDataWire';
import type { PolymarketPublicReads } from './publicReads';
import type { PolymarketMarkets } from './orderWire';
import { answerOf, type PolymarketSession } from './session';

/**
 * Polymarket's public books (CLOB V2 `GET /book?token_id=`, no auth; the client's
 * `OrderBookSummary`, src/types/clob.ts, github.com/Polymarket/clob-client-v2 at f3e1a05) for our
 * markets, in YES terms: the book of the market's YES token (its NO token's book is the mirror the
 * operator keeps by minting and merging). The venue serves each side best price last; we sort
 * each side by price (bids highest first, asks lowest first) rather than trust that order. Used for an account's books and, through a public session, for planning and marks.
 */
export class PolymarketBooks implements MarketData {
  constructor(
    private readonly session: PolymarketSession,
    private readonly markets: Pick<PolymarketMarkets, 'byVenueMarketId'>,
    /** The public Data API (its trades); without it, the tape is not served (`venue_unavailable`). */
    private readonly dataApi?: PolymarketPublicReads,
  ) {}

  private async yesTokenOf(venueMarketId: string): Promise<string> {
    const market = await this.markets.byVenueMarketId(venueMarketId);
    if (market === null) throw new DomainError('market_not_tradable', `Polymarket market '${venueMarketId}' is not in our catalog with its tokens.`);
    return market.yesTokenId;
  }

  /**
   * The Data API's `GET /trades?market=<condition id>&takerOnly=true` (one row a trade, the
   * taker's), newest first, paged by offset (our cursor carries it; trades arriving between two
   * pages shift the next one). The Data API takes no time window: it is applied to the page read,
   * which can then hold fewer trades than asked while more follow.
   */
  async publicTrades(market: VenueMarketRef, query: { since?: Date; until?: Date; limit: number; cursor?: string }): Promise<VenueTradesPage> {
    if (!this.dataApi) throw new DomainError('venue_unavailable', 'The Polymarket Data API is not configured here: the public tape cannot be read.');
    const offset = query.cursor === undefined ? 0 : Number(query.cursor);
    if (!Number.isInteger(offset) || offset < 0 || offset > DATA_API_MAX_OFFSET) throw new DomainError('invalid_request', 'cursor is not one this API returned.', 'cursor');
    const answer = await this.dataApi.get('/trades', { market: market.venueMarketId, takerOnly: 'true', limit: String(query.limit), offset: String(offset) });
    if (answer.status !== 200 || !Array.isArray(answer.body)) throw new DomainError('venue_unavailable', `The Polymarket Data API answered GET /trades with ${answer.status}.`);
    const rows = answer.body.map(tradeFromDataApi);
    if (rows.some((row) => row === null)) throw new DomainError('venue_unavailable', 'The Polymarket Data API answered GET /trades with a row we cannot read.');
    const trades = rows as PublicTrade[];
    const inWindow = trades.filter((t) => (!query.since || t.executedAt >= query.since) && (!query.until || t.executedAt < query.until));
    const reachedSince = query.since !== undefined && trades.some((t) => t.executedAt < query.since!);
    const more = trades.length === query.limit && !reachedSince && offset + query.limit <= DATA_API_MAX_OFFSET;
    return { trades: inWindow, nextCursor: more ? String(offset + query.limit) : null };
  }

  /**
   * CLOB `GET /prices-history` of the YES token: points of its displayed price (midpoint, or the
   * last trade when the spread is over 0.10) every `fidelity` minutes, made into candles (no
   * volume). A window over the venue's 15 days is read whole (`interval=max`) and cut.
   */
  async candles(market: VenueMarketRef, interval: CandleInterval, from: Date, to: Date): Promise<Candle[]> {
    const token = await this.yesTokenOf(market.venueMarketId);
    const periodMs = CANDLE_INTERVALS[interval];
    const window = to.getTime() - from.getTime() <= PRICE_HISTORY_MAX_WINDOW_MS
      ? { startTs: String(Math.floor(from.getTime() / 1000)), endTs: String(Math.ceil(to.getTime() / 1000)) }
      : { interval: 'max' };
    const outcome = await this.session.request('GET', '/prices-history', { auth: 'public', query: { market: token, fidelity: String(HISTORY_FIDELITY_MINUTES[interval]), ...window } });
    if (outcome.kind === 'refused' && outcome.status === 429) throw new DomainError('venue_unavailable', 'Polymarket is throttling price history reads (429); try again shortly.');
    const candles = candlesFromHistory(answerOf(outcome), periodMs, from, to);
    if (candles === null) throw new DomainError('venue_unavailable', 'Polymarket answered GET /prices-history with a body we cannot read.');
    return candles;
  }

  /** CLOB `POST /books` of the YES tokens (at most 500 a read): tops of book and the last trade price. */
  async quotes(markets: readonly VenueMarketRef[]): Promise<Map<string, VenueQuote>> {
    const tokens = new Map<string, string>();
    for (const market of markets) {
      const terms = await this.markets.byVenueMarketId(market.venueMarketId);
      if (terms) tokens.set(terms.yesTokenId, market.venueMarketId);
    }
    const quotes = new Map<string, VenueQuote>();
    const ids = [...tokens.keys()];
    for (let i = 0; i < ids.length; i += BOOKS_PER_READ) {
      const outcome = await this.session.request('POST', '/books', { auth: 'public', body: ids.slice(i, i + BOOKS_PER_READ).map((token_id) => ({ token_id })) });
      if (outcome.kind === 'refused' && outcome.status === 429) throw new DomainError('venue_unavailable', 'Polymarket is throttling order book reads (429); try again shortly.');
      const books = answerOf(outcome);
      if (!Array.isArray(books)) throw new DomainError('venue_unavailable', 'Polymarket answered POST /books with a body we cannot read.');
      for (const raw of books) {
        const book = raw as { asset_id?: unknown; bids?: unknown; asks?: unknown; last_trade_price?: unknown };
        const market = typeof book.asset_id === 'string' ? tokens.get(book.asset_id) : undefined;
        if (market === undefined) continue;
        const last = typeof book.last_trade_price === 'string' && DECIMAL.test(book.last_trade_price) && new Decimal(book.last_trade_price).gt(0) ? new Decimal(book.last_trade_price).toFixed() : null;
        quotes.set(market, { book: { bids: levels(book.bids, 'desc', 1), asks: levels(book.asks, 'asc', 1) }, activity: { lastPrice: last, volume24h: null, volume: null, openInterest: null } });
      }
    }
    return quotes;
  }

  async orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView> {
    const market = await this.markets.byVenueMarketId(venueMarketId);
    if (market === null) throw new DomainError('market_not_tradable', `Polymarket market '${venueMarketId}' is not in our catalog with its tokens.`);
    const outcome = await this.session.request('GET', '/book', { auth: 'public', query: { token_id: market.yesTokenId } });
    // 404 `No orderbook exists for the requested token id`: the venue trades nothing there (yet, or any more).
    if (outcome.kind === 'refused' && outcome.status === 404) throw new DomainError('market_not_tradable', `Polymarket has no order book for market '${venueMarketId}'.`);
    // 429: Cloudflare's throttle turned the read away; planning and marks may try again shortly.
    if (outcome.kind === 'refused' && outcome.status === 429) throw new DomainError('venue_unavailable', 'Polymarket is throttling order book reads (429); try again shortly.');
    const body = answerOf(outcome) as { bids?: unknown; asks?: unknown } | null;
    const bids = levels(body?.bids, 'desc', depth);
    const asks = levels(body?.asks, 'asc', depth);
    return { venueMarketId, bids, asks, mid: bids[0] && asks[0] ? new Decimal(bids[0].price).plus(asks[0].price).div(2).toFixed() : null };
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
/** The Data API's largest `offset`. */
const DATA_API_MAX_OFFSET = 10_000;
/** The longest startTs..endTs window `/prices-history` takes (15 days). */
const PRICE_HISTORY_MAX_WINDOW_MS = 15 * 86_400_000;
/** Minutes between price points read for each candle interval: several points a candle. */
const HISTORY_FIDELITY_MINUTES: Record<CandleInterval, number> = { '1m': 1, '1h': 5, '1d': 60 };
/** Tokens one `POST /books` asks for. */
const BOOKS_PER_READ = 500;

function levels(raw: unknown, order: 'asc' | 'desc', depth: number | undefined) {
  return (Array.isArray(raw) ? raw : [])
    .map((level) => level as { price?: unknown; size?: unknown })
    .filter((level): level is { price: string; size: string } => typeof level.price === 'string' && DECIMAL.test(level.price) && typeof level.size === 'string' && DECIMAL.test(level.size))
    .map((level) => ({ price: new Decimal(level.price).toFixed(), quantity: new Decimal(level.size).toFixed() }))
    .sort((a, b) => (order === 'asc' ? 1 : -1) * new Decimal(a.price).comparedTo(b.price))
    .slice(0, depth);
}
