import { Decimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import type { MarketData, OrderBookView } from '../venue';
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
  ) {}

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

function levels(raw: unknown, order: 'asc' | 'desc', depth: number | undefined) {
  return (Array.isArray(raw) ? raw : [])
    .map((level) => level as { price?: unknown; size?: unknown })
    .filter((level): level is { price: string; size: string } => typeof level.price === 'string' && DECIMAL.test(level.price) && typeof level.size === 'string' && DECIMAL.test(level.size))
    .map((level) => ({ price: new Decimal(level.price).toFixed(), quantity: new Decimal(level.size).toFixed() }))
    .sort((a, b) => (order === 'asc' ? 1 : -1) * new Decimal(a.price).comparedTo(b.price))
    .slice(0, depth);
}
