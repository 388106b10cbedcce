/**
 * The Data API's public trades, `GET /trades` (production https://data-api.polymarket.com/trades;
 * the fake serves it under `/data-api`, dataApi.ts): every match on the fake's books, whoever made
 * it (the fake's market maker too), once the chain has it.
 *
 * Request and shape (docs.polymarket.com "Get trades for a user or markets", api-spec/
 * data-openapi.yaml `/trades`, as mirrored 2026-10 by polyoxide docs/specs/data/openapi.yaml;
 * rs-clob-client at d84e8e1, src/data/types/request.rs `TradesRequest`, response.rs `Trade`):
 * - `limit` (0-10000, default 100), `offset` (0-10000, default 0), `takerOnly` (default true),
 *   `filterType` (CASH | TOKENS) with `filterAmount` (>= 0; the two together or neither), `market`
 *   (condition ids, comma separated; mutually exclusive with `eventId`), `eventId`, `user` (an
 *   address), `side` (BUY | SELL).
 * - a bare JSON array, newest first, of camelCase rows: `proxyWallet, side, asset, conditionId, size,
 *   price, timestamp, title, slug, icon, eventSlug, outcome, outcomeIndex, name, pseudonym, bio,
 *   profileImage, profileImageOptimized, transactionHash`; `size` and `price` JSON numbers,
 *   `timestamp` unix seconds (a number).
 * - errors 400 `{"error": "..."}`; `side must be BUY or SELL` and `filterType must be CASH or
 *   TOKENS` are the live wording (polyoxide data-v2/OBSERVED.md, 2026-09-14); the others are the
 *   fake's sentences.
 *
 * What a row is (the venue indexes the chain's fills; the fake's choices where it says nothing):
 * - a trade is listed once it has a transaction hash (MINED or CONFIRMED: settlement.ts, or the
 *   control API), and after the index lag (`lagMs`, dataApi.ts) counted from when it was mined; a
 *   trade still MATCHED, or RETRYING, or FAILED is not (no fill on chain). `timestamp` is when it was
 *   mined (its block), `transactionHash` its hash.
 * - `takerOnly=true`: one row per trade, the taker's: its wallet (the order's maker address, i.e.
 *   the funder), side, the shares it got, and its average price (pUSD / shares). `takerOnly=false`
 *   adds one row per maker order filled, with the maker's wallet, side, shares and price.
 * - `title`, `slug`, `icon`, `eventSlug` are the market's (Gamma's when linked, resolution.ts);
 *   `outcomeIndex` is the token's place in its market; the profile fields are "" (the fake keeps
 *   no profiles). `eventId` lists nothing (the Data API fake knows no events).
 */
import { Decimal } from '../../core/domain/decimals';
import type { ClobAnswer } from './errors';
import type { OrderRecord, PolymarketExchange, TradeRecord } from './exchange';
import type { MarketResolutions } from './resolution';
import { UNITS_PER_SHARE, PRICE_TICKS_PER_DOLLAR } from './units';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH64 = /^0x[0-9a-fA-F]{64}$/;

const ok = (body: unknown): ClobAnswer => ({ status: 200, body });
const bad = (message: string): ClobAnswer => ({ status: 400, body: { error: message } });
const num = (value: Decimal) => Number(value.toDecimalPlaces(6).toString());

interface Row {
  readonly atMs: number;
  readonly wallet: string;
  readonly side: 'BUY' | 'SELL';
  readonly order: OrderRecord;
  readonly shares: Decimal;
  readonly price: Decimal;
  readonly transactionHash: string;
}

export class DataApiTrades {
  /** When each trade was mined (ms), by trade id. */
  private readonly minedAt = new Map<string, number>();

  constructor(
    private readonly exchange: PolymarketExchange,
    private readonly resolutions: MarketResolutions,
    private readonly clock: () => number,
    private readonly lagMs: () => number,
  ) {
    exchange.events.on((event) => {
      if (event.kind === 'trade' && event.trade.status === 'MINED' && !this.minedAt.has(event.trade.id)) this.minedAt.set(event.trade.id, this.clock());
    });
  }

  /** `GET /trades`. */
  trades(query: URLSearchParams): ClobAnswer {
    const limit = bounded(query, 'limit', 100, 0, 10_000);
    const offset = bounded(query, 'offset', 0, 0, 10_000);
    if (limit === null || offset === null) return bad('limit and offset must be whole numbers from 0 to 10000');
    const takerOnly = query.get('takerOnly');
    if (takerOnly !== null && takerOnly !== 'true' && takerOnly !== 'false') return bad('takerOnly must be true or false');
    const side = query.get('side');
    if (side !== null && side !== 'BUY' && side !== 'SELL') return bad('side must be BUY or SELL');
    const filterType = query.get('filterType');
    const filterAmountText = query.get('filterAmount');
    if (filterType !== null && filterType !== 'CASH' && filterType !== 'TOKENS') return bad('filterType must be CASH or TOKENS');
    if ((filterType === null) !== (filterAmountText === null)) return bad('filterType and filterAmount must be provided together');
    const filterAmount = filterAmountText === null ? null : Number(filterAmountText);
    if (filterAmount !== null && (!Number.isFinite(filterAmount) || filterAmount < 0)) return bad('filterAmount must be a number >= 0');
    const markets = listParam(query, 'market');
    if (markets.some((m) => !HASH64.test(m))) return bad(`invalid market: ${markets.find((m) => !HASH64.test(m))}`);
    if (markets.length > 0 && query.has('eventId')) return bad('market and eventId are mutually exclusive');
    const user = query.get('user');
    if (user !== null && !ADDRESS.test(user)) return bad('user must be a 0x-prefixed address of 40 hex characters');
    if (query.has('eventId')) return ok([]);

    const wanted = new Set(markets.map((m) => m.toLowerCase()));
    const rows = this.rows(takerOnly !== 'false')
      .filter((r) => wanted.size === 0 || wanted.has(r.order.token.conditionId.toLowerCase()))
      .filter((r) => user === null || r.wallet === user.toLowerCase())
      .filter((r) => side === null || r.side === side)
      .filter((r) => filterAmount === null || (filterType === 'CASH' ? r.shares.times(r.price) : r.shares).gte(filterAmount));
    return ok(rows.slice(offset, offset + limit).map((r) => this.json(r)));
  }

  /** Every indexed fill, newest first (a trade's taker row before its makers'). */
  private rows(takerOnly: boolean): Row[] {
    const visibleBefore = this.clock() - this.lagMs();
    const rows: Row[] = [];
    for (const trade of this.exchange.allTrades()) {
      const minedAtMs = this.minedAt.get(trade.id);
      if (minedAtMs === undefined || minedAtMs > visibleBefore) continue;
      if (trade.status !== 'MINED' && trade.status !== 'CONFIRMED') continue;
      rows.push(...this.rowsOf(trade, minedAtMs, takerOnly));
    }
    return rows.sort((a, b) => b.atMs - a.atMs);
  }

  private rowsOf(trade: TradeRecord, atMs: number, takerOnly: boolean): Row[] {
    const shares = new Decimal(trade.units).div(UNITS_PER_SHARE);
    const taker: Row = {
      atMs,
      wallet: trade.taker.makerAddress.toLowerCase(),
      side: trade.taker.side,
      order: trade.taker,
      shares,
      price: trade.notional.div(shares),
      transactionHash: trade.transactionHash,
    };
    if (takerOnly) return [taker];
    return [
      taker,
      ...trade.makers.map((m) => ({
        atMs,
        wallet: m.order.makerAddress.toLowerCase(),
        side: m.order.side,
        order: m.order,
        shares: new Decimal(m.units).div(UNITS_PER_SHARE),
        price: new Decimal(m.priceTicks).div(PRICE_TICKS_PER_DOLLAR),
        transactionHash: trade.transactionHash,
      })),
    ];
  }

  private json(row: Row) {
    const token = row.order.token;
    const info = this.resolutions.infoOf(token.conditionId);
    return {
      proxyWallet: row.wallet,
      side: row.side,
      asset: token.tokenId,
      conditionId: token.conditionId,
      size: num(row.shares),
      price: num(row.price),
      timestamp: Math.floor(row.atMs / 1000),
      title: info.question,
      slug: info.slug,
      icon: info.icon,
      eventSlug: info.eventSlug,
      outcome: token.outcome,
      outcomeIndex: this.exchange.tokensOf(token.conditionId).indexOf(token),
      name: '',
      pseudonym: '',
      bio: '',
      profileImage: '',
      profileImageOptimized: '',
      transactionHash: row.transactionHash,
    };
  }
}

function bounded(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | null {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
