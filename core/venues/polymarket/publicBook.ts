import { DomainError, invalidRequest } from '../../domain/errors';
import { parseDecimalString } from '../../domain/decimals';
import { priceToTicks, ticksToPrice, unitsToQuantity } from '../../domain/matching/units';
import { POLYMARKET_UNITS_PER_SHARE } from '../../domain/venueRules';
import { recordOf } from '../kalshi/wireRecords';
import { DEFAULT_BOOK_DEPTH } from '../sim';
import type { BookLevelView, MarketData, OrderBookView } from '../venue';
import { PolymarketPublicReads } from './publicReads';

/**
 * Polymarket's public order books (CLOB V2 `GET /book?token_id=`, unauthenticated; the official
 * client's `getOrderBook`, github.com/Polymarket/clob-client-v2 at f3e1a05, answer
 * `OrderBookSummary {market, asset_id, bids, asks, tick_size, min_order_size, neg_risk, ...}` with
 * `{price, size}` decimal strings, best price LAST on each side). The live Polymarket `marketData`
 * of the venue registry: what complex-order planning reads for a live Polymarket listing.
 *
 * A catalog row is a condition (`venue_market_id` = condition id); its book is the YES token's
 * (`yes_token_id`, looked up through `yesTokenOf`), read as our YES book: bids best (highest)
 * first, asks best (lowest) first, whatever order the venue sent. Prices print as the other venues'
 * ("0.4200"); sizes are shares truncated DOWN to 0.01 (what an order can ask for; a level left
 * with nothing is dropped), so a plan never counts on more than the level holds. The mid is (best
 * bid + best ask) / 2, null when a side is empty.
 *
 * Errors: `market_not_tradable` for a condition without a YES token in the catalog, or a token the
 * CLOB has no book for (404); `venue_unavailable` when the CLOB cannot be read (publicReads.ts) or
 * answers something we cannot read.
 */
export interface PolymarketPublicBookOptions {
  /** The CLOB's base URL (`https://clob.polymarket.com`). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** The YES token of a live Polymarket condition (the catalog's `yes_token_id`); null when unknown. */
  readonly yesTokenOf: (conditionId: string) => Promise<string | null>;
}

type Level = { readonly priceTicks: number; readonly units: number };

function readLevels(value: unknown): Level[] | null {
  if (!Array.isArray(value)) return null;
  const levels: Level[] = [];
  for (const entry of value) {
    const level = recordOf(entry);
    const size = parseDecimalString(level?.size);
    if (typeof level?.price !== 'string' || size === null || size.isNegative()) return null;
    const units = size.mul(POLYMARKET_UNITS_PER_SHARE).floor().toNumber();
    if (!Number.isSafeInteger(units)) return null;
    if (units > 0) levels.push({ priceTicks: priceToTicks(level.price), units });
  }
  return levels;
}

const view = (level: Level): BookLevelView => ({ price: ticksToPrice(level.priceTicks), quantity: unitsToQuantity(level.units, POLYMARKET_UNITS_PER_SHARE) });

export class PolymarketPublicBook implements MarketData {
  private readonly reads: PolymarketPublicReads;

  constructor(private readonly options: PolymarketPublicBookOptions) {
    this.reads = new PolymarketPublicReads({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, name: 'The Polymarket CLOB' });
  }

  async orderBook(conditionId: string, depth: number = DEFAULT_BOOK_DEPTH): Promise<OrderBookView> {
    if (!Number.isInteger(depth) || depth < 1) throw invalidRequest('depth', `depth ${depth} must be a whole number >= 1`);
    const tokenId = await this.options.yesTokenOf(conditionId);
    if (tokenId === null) throw new DomainError('market_not_tradable', `The catalog has no YES token for Polymarket condition '${conditionId}'.`);
    const answer = await this.reads.get('/book', { token_id: tokenId });
    if (answer.status === 404) throw new DomainError('market_not_tradable', `The Polymarket CLOB has no order book for the YES token of '${conditionId}'.`);
    const body = recordOf(answer.body);
    if (answer.status !== 200 || body === null) throw new DomainError('venue_unavailable', `The Polymarket CLOB answered GET /book with ${answer.status}.`);
    let bids: Level[] | null;
    let asks: Level[] | null;
    try {
      bids = readLevels(body.bids);
      asks = readLevels(body.asks);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      bids = asks = null;
    }
    if (bids === null || asks === null) throw new DomainError('venue_unavailable', 'The Polymarket CLOB answered GET /book with a body we cannot read.');
    bids.sort((a, b) => b.priceTicks - a.priceTicks);
    asks.sort((a, b) => a.priceTicks - b.priceTicks);
    const mid = bids.length > 0 && asks.length > 0 ? ticksToPrice((bids[0]!.priceTicks + asks[0]!.priceTicks) / 2) : null;
    return { venueMarketId: conditionId, bids: bids.slice(0, depth).map(view), asks: asks.slice(0, depth).map(view), mid };
  }

  async close(): Promise<void> {
    await this.reads.close();
  }
}
