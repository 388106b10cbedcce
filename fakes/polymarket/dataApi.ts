/**
 * A fake of Polymarket's Data API (production https://data-api.polymarket.com; public, no
 * authentication), served by the CLOB fake under the path prefix `/data-api` so that a client's
 * Data API base URL is `fake.dataApiUrl` (`${fake.baseUrl}/data-api`). It reports what each
 * wallet holds from the fake's trade ledger (settlement.ts) and the markets' resolution
 * (resolution.ts), and keeps the redemptions the control API makes (`redeem`).
 *
 * Routes and shapes (docs.polymarket.com api-spec/data-openapi.yaml, "Get current positions for a
 * user", `GET /positions`; the official Rust client github.com/Polymarket/rs-clob-client at
 * d84e8e1, src/data/types/request.rs `PositionsRequest`, response.rs `Position`, `Activity`,
 * `Health`, and tests/data.rs's recorded-shape example):
 * - `GET /` -> `{"data": "OK"}`.
 * - `GET /positions?user=` (required, the proxy wallet / funder address), `market` (condition ids,
 *   comma separated; mutually exclusive with `eventId`), `sizeThreshold` (default 1: smaller
 *   positions are left out), `redeemable`, `mergeable` (true: only those), `limit` (0-500, default
 *   100), `offset` (0-10000), `sortBy` (TOKENS default, CURRENT, INITIAL, CASHPNL, PERCENTPNL,
 *   TITLE, PRICE, AVGPRICE, RESOLVING), `sortDirection` (DESC default, ASC), `title` (substring).
 *   A bare JSON array of camelCase positions: `proxyWallet, asset, conditionId, size, avgPrice,
 *   initialValue, currentValue, cashPnl, percentPnl, totalBought, realizedPnl, percentRealizedPnl,
 *   curPrice, redeemable, mergeable, title, slug, icon, eventSlug, outcome, outcomeIndex,
 *   oppositeOutcome, oppositeAsset, endDate ("2026-12-31"), negativeRisk`; amounts and prices are
 *   JSON numbers. (The docs also describe a newer `GET /v2/positions`, snake_case in a `{data,
 *   pagination}` envelope with `status` OPEN/REDEEMABLE/CLOSED; the fake serves v1 only.)
 * - `GET /activity?user=` (`type` comma separated, `market`, `limit`, `offset`): camelCase rows
 *   `proxyWallet, timestamp (unix s), conditionId, type, size, usdcSize, transactionHash, price,
 *   asset, side, outcomeIndex, title, slug, icon, eventSlug, outcome, name, pseudonym, bio,
 *   profileImage, profileImageOptimized`. The fake lists its REDEEM rows only (a trade's history is
 *   the CLOB's `GET /data/trades`).
 *
 * What "redeemable" means (see docs/polymarket-fake.md for the sources): a position is
 * `redeemable: true` once its market resolved and until it is redeemed, winner AND loser alike
 * (a loser redeems for $0; third-party readers note "Polymarket marks both winning and losing
 * resolved positions as redeemable"), with `curPrice` the token's payout (1, 0, or 0.5 for a split).
 * Redemption (CTF `redeemPositions`) is the wallet owner's on-chain act, not an API call: the
 * control API's `redeem` burns the wallet's shares of the condition, credits size x payout in pUSD
 * (ledger and `GET /balance-allowance`), and the positions leave the listing; a REDEEM activity row
 * records it. Before its market resolves a redemption fails as the CTF contract reverts:
 * "result for condition not received yet".
 *
 * Choices where the sources are silent: `avgPrice` is the average price of what was bought
 * (sales leave it as it is and realize `realizedPnl`), `percentPnl` is `cashPnl / initialValue x
 * 100`, `mergeable` is holding both outcomes of an unresolved market, `redeemable=false` and
 * `mergeable=false` filter nothing, an `eventId` alone lists nothing (the fake has no events),
 * errors are 400 `{"error": "..."}` with the fake's own sentence, and the index lag (`lagMs`, the
 * control API's `POST /_fake/data-api {lag_ms}`; the live API is reported to trail the chain by
 * about a minute) delays what a resolution, a redemption and a mined trade change.
 * - `GET /trades`: every market's public trades (dataApiTrades.ts).
 * Not modelled: the Data API's own rate limits, `/value`, `/holders`, `/closed-positions`.
 */
import { randomBytes } from 'node:crypto';
import { Decimal } from '../../core/domain/decimals';
import type { ClobAnswer } from './errors';
import type { PolymarketExchange } from './exchange';
import type { TokenSeed } from './markets';
import type { MarketResolutions } from './resolution';
import type { Settlement } from './settlement';
import { DataApiTrades } from './dataApiTrades';

/** The path prefix the CLOB fake serves the Data API under. */
export const DATA_API_PREFIX = '/data-api';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH64 = /^0x[0-9a-fA-F]{64}$/;
const SORT_KEYS = ['TOKENS', 'CURRENT', 'INITIAL', 'CASHPNL', 'PERCENTPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'RESOLVING'] as const;

const ok = (body: unknown): ClobAnswer => ({ status: 200, body });
const bad = (message: string): ClobAnswer => ({ status: 400, body: { error: message } });
const num = (value: Decimal) => Number(value.toDecimalPlaces(6).toString());
const zero = () => new Decimal(0);

interface Redemption {
  readonly wallet: string;
  readonly conditionId: string;
  readonly atMs: number;
  readonly transactionHash: string;
  /** Shares burnt, by token id. */
  readonly shares: ReadonlyMap<string, Decimal>;
  readonly payout: Decimal;
}

interface Holding {
  shares: Decimal;
  bought: Decimal;
  cost: Decimal;
  sold: Decimal;
  proceeds: Decimal;
}

export interface DataApiOptions {
  /** How long the index trails a resolution or a redemption (ms; default 0). */
  readonly lagMs?: number;
}

export class DataApiFake {
  private readonly redemptions: Redemption[] = [];
  private lagMs: number;
  /** `GET /trades` (dataApiTrades.ts). */
  private readonly publicTrades: DataApiTrades;

  constructor(
    private readonly exchange: PolymarketExchange,
    private readonly settlement: Settlement,
    private readonly resolutions: MarketResolutions,
    private readonly clock: () => number,
    options: DataApiOptions = {},
  ) {
    this.lagMs = options.lagMs ?? 0;
    this.publicTrades = new DataApiTrades(exchange, resolutions, clock, () => this.lagMs);
  }

  setLag(ms: number): void {
    this.lagMs = ms;
  }

  /** A request under the prefix: `path` without it ("/positions"). */
  handle(method: string, path: string, query: URLSearchParams): ClobAnswer {
    if (method !== 'GET') return { status: 404, body: { error: 'Not Found' } };
    if (path === '/' || path === '') return ok({ data: 'OK' });
    if (path === '/positions') return this.positions(query);
    if (path === '/activity') return this.activity(query);
    if (path === '/trades') return this.publicTrades.trades(query);
    return { status: 404, body: { error: 'Not Found' } };
  }

  /**
   * The wallet owner redeems its holdings of a resolved condition on chain: every token of the
   * condition held by the wallet (the funder address of any of the fake's API keys) is burnt and
   * its payout credited in pUSD.
   */
  redeem(address: string, conditionId: string): ClobAnswer {
    if (!ADDRESS.test(address)) return bad(`invalid wallet address ${address}`);
    const wallet = address.toLowerCase();
    const tokens = this.exchange.tokensOf(conditionId);
    if (tokens.length === 0) return { status: 404, body: { error: `the fake trades no market ${conditionId}` } };
    if (this.resolutions.stateOf(conditionId).outcome === null) return { status: 409, body: { error: 'result for condition not received yet' } };
    const shares = new Map<string, Decimal>();
    const redeemed: Record<string, unknown>[] = [];
    let payout = zero();
    const keys = this.settlement.holdings().filter((h) => this.walletOf(h.apiKey) === wallet);
    for (const token of tokens) {
      const price = this.resolutions.payoutOf(token)!;
      let size = zero();
      let paid = zero();
      for (const apiKey of new Set(keys.filter((h) => h.tokenId === token.tokenId).map((h) => h.apiKey))) {
        const result = this.settlement.redeem(apiKey, token.tokenId, price);
        size = size.plus(result.shares);
        paid = paid.plus(result.payout);
      }
      if (size.isZero()) continue;
      this.exchange.wallets.redeem(wallet, token.tokenId, size, paid);
      shares.set(token.tokenId, size);
      payout = payout.plus(paid);
      redeemed.push({ asset: token.tokenId, outcome: token.outcome, size: size.toString(), price: price.toString(), payout: paid.toString() });
    }
    const transactionHash = `0x${randomBytes(32).toString('hex')}`;
    if (shares.size > 0) this.redemptions.push({ wallet, conditionId, atMs: this.clock(), transactionHash, shares, payout });
    return ok({
      wallet,
      condition_id: conditionId,
      transaction_hash: transactionHash,
      redeemed,
      payout: payout.toString(),
      pusd_balance: this.exchange.wallets.holdings(wallet, tokens[0]!.tokenId).pusd.toString(),
    });
  }

  /** `GET /positions`. */
  positions(query: URLSearchParams): ClobAnswer {
    const user = query.get('user');
    if (user === null || !ADDRESS.test(user)) return bad('user is required: a 0x-prefixed address of 40 hex characters');
    const markets = listParam(query, 'market');
    if (markets.some((m) => !HASH64.test(m))) return bad(`invalid market: ${markets.find((m) => !HASH64.test(m))}`);
    if (markets.length > 0 && query.has('eventId')) return bad('market and eventId are mutually exclusive');
    const threshold = numberParam(query, 'sizeThreshold', 1, 0, Infinity);
    const limit = numberParam(query, 'limit', 100, 0, 500);
    const offset = numberParam(query, 'offset', 0, 0, 10_000);
    if (threshold === null || limit === null || offset === null) return bad('sizeThreshold, limit (0-500) and offset (0-10000) must be numbers in range');
    const redeemable = booleanParam(query, 'redeemable');
    const mergeable = booleanParam(query, 'mergeable');
    if (redeemable === 'bad' || mergeable === 'bad') return bad('redeemable and mergeable must be true or false');
    const sortBy = (query.get('sortBy') ?? 'TOKENS').toUpperCase();
    const direction = (query.get('sortDirection') ?? 'DESC').toUpperCase();
    if (!(SORT_KEYS as readonly string[]).includes(sortBy) || (direction !== 'ASC' && direction !== 'DESC')) return bad('invalid sortBy or sortDirection');
    if (query.has('eventId')) return ok([]);
    const title = query.get('title')?.toLowerCase() ?? null;

    const rows = this.positionRows(user.toLowerCase())
      .filter((p) => markets.length === 0 || markets.map((m) => m.toLowerCase()).includes(p.conditionId))
      .filter((p) => p.size >= threshold && p.size > 0)
      .filter((p) => redeemable !== true || p.redeemable)
      .filter((p) => mergeable !== true || p.mergeable)
      .filter((p) => title === null || p.title.toLowerCase().includes(title));
    const key = (p: (typeof rows)[number]): number | string =>
      ({ TOKENS: p.size, CURRENT: p.currentValue, INITIAL: p.initialValue, CASHPNL: p.cashPnl, PERCENTPNL: p.percentPnl, TITLE: p.title, PRICE: p.curPrice, AVGPRICE: p.avgPrice, RESOLVING: p.endDate })[
        sortBy as (typeof SORT_KEYS)[number]
      ];
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order = x < y ? -1 : x > y ? 1 : a.asset.localeCompare(b.asset);
      return direction === 'ASC' ? order : -order;
    });
    return ok(rows.slice(offset, offset + limit));
  }

  /** `GET /activity`: the wallet's REDEEM rows, newest first. */
  activity(query: URLSearchParams): ClobAnswer {
    const user = query.get('user');
    if (user === null || !ADDRESS.test(user)) return bad('user is required: a 0x-prefixed address of 40 hex characters');
    const types = listParam(query, 'type').map((t) => t.toUpperCase());
    const markets = listParam(query, 'market').map((m) => m.toLowerCase());
    const limit = numberParam(query, 'limit', 100, 0, 500);
    const offset = numberParam(query, 'offset', 0, 0, 10_000);
    if (limit === null || offset === null) return bad('limit (0-500) and offset (0-10000) must be numbers in range');
    const visibleBefore = this.clock() - this.lagMs;
    const rows = this.redemptions
      .filter((r) => r.wallet === user.toLowerCase() && r.atMs <= visibleBefore)
      .filter((r) => (types.length === 0 || types.includes('REDEEM')) && (markets.length === 0 || markets.includes(r.conditionId)))
      .sort((a, b) => b.atMs - a.atMs)
      .map((r) => {
        const info = this.resolutions.infoOf(r.conditionId);
        const size = [...r.shares.values()].reduce((sum, s) => sum.plus(s), zero());
        return {
          proxyWallet: r.wallet,
          timestamp: Math.floor(r.atMs / 1000),
          conditionId: r.conditionId,
          type: 'REDEEM',
          size: num(size),
          usdcSize: num(r.payout),
          transactionHash: r.transactionHash,
          price: 0,
          asset: '',
          side: '',
          outcomeIndex: 999,
          title: info.question,
          slug: info.slug,
          icon: info.icon,
          eventSlug: info.eventSlug,
          outcome: '',
          name: '',
          pseudonym: '',
          bio: '',
          profileImage: '',
          profileImageOptimized: '',
        };
      });
    return ok(rows.slice(offset, offset + limit));
  }

  /** Every position of a wallet, as the index sees it now (lag applied). */
  private positionRows(wallet: string) {
    const visibleBefore = this.clock() - this.lagMs;
    const held = new Map<string, Holding>();
    const holding = (tokenId: string) => {
      let h = held.get(tokenId);
      if (h === undefined) {
        h = { shares: zero(), bought: zero(), cost: zero(), sold: zero(), proceeds: zero() };
        held.set(tokenId, h);
      }
      return h;
    };
    for (const h of this.settlement.holdings()) {
      if (this.walletOf(h.apiKey) !== wallet) continue;
      const sum = holding(h.tokenId);
      sum.shares = sum.shares.plus(h.shares);
      sum.bought = sum.bought.plus(h.bought);
      sum.cost = sum.cost.plus(h.cost);
      sum.sold = sum.sold.plus(h.sold);
      sum.proceeds = sum.proceeds.plus(h.proceeds);
    }
    // A redemption the index has not seen yet: the shares are still listed.
    for (const r of this.redemptions) {
      if (r.wallet !== wallet || r.atMs <= visibleBefore) continue;
      for (const [tokenId, shares] of r.shares) holding(tokenId).shares = holding(tokenId).shares.plus(shares);
    }
    return [...held].flatMap(([tokenId, h]) => {
      const token = this.exchange.token(tokenId);
      return token === undefined ? [] : [this.positionOf(wallet, token, h, held, visibleBefore)];
    });
  }

  private positionOf(wallet: string, token: TokenSeed, h: Holding, held: ReadonlyMap<string, Holding>, visibleBefore: number) {
    const siblings = this.exchange.tokensOf(token.conditionId);
    const opposite = siblings.find((t) => t.tokenId !== token.tokenId);
    const info = this.resolutions.infoOf(token.conditionId);
    const resolvedAt = this.resolutions.stateOf(token.conditionId).resolvedAtMs;
    const resolved = resolvedAt !== null && resolvedAt <= visibleBefore;
    // Before the index sees the resolution: the token's last trade (or its seed's mid, or 0.5).
    const curPrice = resolved ? this.resolutions.payoutOf(token)! : new Decimal(this.exchange.lastTradePriceOf(token.tokenId) ?? token.mid ?? '0.5');
    const avgPrice = h.bought.gt(0) ? h.cost.div(h.bought) : zero();
    const initialValue = h.shares.times(avgPrice);
    const currentValue = h.shares.times(curPrice);
    const cashPnl = currentValue.minus(initialValue);
    const realizedPnl = h.proceeds.minus(h.sold.times(avgPrice));
    const soldBasis = h.sold.times(avgPrice);
    const bothHeld = opposite !== undefined && h.shares.gt(0) && (held.get(opposite.tokenId)?.shares.gt(0) ?? false);
    return {
      proxyWallet: wallet,
      asset: token.tokenId,
      conditionId: token.conditionId,
      size: num(h.shares),
      avgPrice: num(avgPrice),
      initialValue: num(initialValue),
      currentValue: num(currentValue),
      cashPnl: num(cashPnl),
      percentPnl: initialValue.isZero() ? 0 : num(cashPnl.div(initialValue).times(100)),
      totalBought: num(h.bought),
      realizedPnl: num(realizedPnl),
      percentRealizedPnl: soldBasis.isZero() ? 0 : num(realizedPnl.div(soldBasis).times(100)),
      curPrice: num(curPrice),
      redeemable: resolved && h.shares.gt(0),
      mergeable: !resolved && bothHeld,
      title: info.question,
      slug: info.slug,
      icon: info.icon,
      eventSlug: info.eventSlug,
      outcome: token.outcome,
      outcomeIndex: siblings.indexOf(token),
      oppositeOutcome: opposite?.outcome ?? '',
      oppositeAsset: opposite?.tokenId ?? '',
      endDate: info.endDate.slice(0, 10),
      negativeRisk: token.negRisk,
    };
  }

  private walletOf(apiKey: string): string | undefined {
    return this.exchange.account(apiKey)?.funderAddress.toLowerCase();
  }
}

function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function numberParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | null {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
}

function booleanParam(query: URLSearchParams, name: string): boolean | null | 'bad' {
  const value = query.get(name);
  if (value === null) return null;
  if (value === 'true' || value === 'false') return value === 'true';
  return 'bad';
}
