/**
 * Gamma's live figures of a market, computed from the Polymarket CLOB fake's books and trades, for
 * a Gamma fake linked to it (gamma.ts `linkMarketStats`; the CLOB fake links it when started with
 * `marketData`). Gamma serves them on every market object, in its events too.
 *
 * Fields and types (Gamma's `Market`: NautilusTrader's captured test_data/gamma_event.json, 2026,
 * a live event's markets; docs.polymarket.com Gamma `Market` schema): JSON NUMBERS, except `volume`
 * and `liquidity`, which Gamma sends as decimal STRINGS next to their `volumeNum` / `liquidityNum`:
 * `volume`, `volumeNum`, `volumeClob`, `volume24hr`, `volume24hrClob`, `volume1wk`, `volume1wkClob`,
 * `volume1mo`, `volume1moClob`, `volume1yr`, `volume1yrClob`, `liquidity`, `liquidityNum`,
 * `liquidityClob`, `bestBid`, `bestAsk`, `spread`, `lastTradePrice`, `oneDayPriceChange`.
 *
 * How the fake computes them (Gamma documents none of these formulas; the fake's choices):
 * - volumes: the pUSD that changed hands in the market's trades (every token of the condition;
 *   FAILED trades left out), over all time, or over the last 24 h / 7 / 30 / 365 days by match time.
 * - liquidity: the pUSD value (price x size) of every order resting on the market's books.
 * - `bestBid`, `bestAsk`, `spread`, `lastTradePrice`: the market's FIRST token's (its `Yes`, the
 *   first of `clobTokenIds`), as Gamma shows them; left out while that side is empty or nothing
 *   traded (`spread` needs both sides).
 * - `oneDayPriceChange`: the first token's displayed price now minus 24 h ago (priceHistory.ts's
 *   series, or its first value when it started within the day); left out without a price.
 * Numbers are rounded to 6 decimals.
 */
import { Decimal } from '../../core/domain/decimals';
import type { PolymarketExchange } from './exchange';
import type { DisplayPrices } from './priceHistory';
import { PRICE_TICKS_PER_DOLLAR, UNITS_PER_SHARE } from './units';

/** What a linked Gamma fake asks for each market it serves. */
export interface GammaMarketStatsSource {
  /** Fields to lay over the market object (none for a market the source does not trade). */
  statsOf(conditionId: string, clobTokenIds: readonly string[]): Record<string, unknown>;
}

const DAY_MS = 86_400_000;
const num = (value: Decimal) => Number(value.toDecimalPlaces(6).toString());

export class ClobMarketStats implements GammaMarketStatsSource {
  constructor(
    private readonly exchange: PolymarketExchange,
    private readonly prices: DisplayPrices,
    private readonly clock: () => number,
  ) {}

  statsOf(conditionId: string, clobTokenIds: readonly string[]): Record<string, unknown> {
    const tokens = this.exchange.tokensOf(conditionId);
    if (tokens.length === 0) return {};
    const tokenIds = new Set(tokens.map((t) => t.tokenId));
    const now = this.clock();
    const volumeSince = (fromMs: number) =>
      this.exchange
        .allTrades()
        .filter((t) => tokenIds.has(t.taker.token.tokenId) && t.status !== 'FAILED' && t.matchTimeSeconds * 1000 >= fromMs)
        .reduce((sum, t) => sum.plus(t.notional), new Decimal(0));
    const total = volumeSince(-Infinity);
    const day = volumeSince(now - DAY_MS);
    const week = volumeSince(now - 7 * DAY_MS);
    const month = volumeSince(now - 30 * DAY_MS);
    const year = volumeSince(now - 365 * DAY_MS);
    let liquidity = new Decimal(0);
    for (const token of tokens) {
      if (this.exchange.isClosed(conditionId)) break;
      const depth = this.exchange.depthOf(token.tokenId);
      for (const level of [...(depth?.bids ?? []), ...(depth?.asks ?? [])]) {
        liquidity = liquidity.plus(new Decimal(level.quantity).div(UNITS_PER_SHARE).times(level.priceTicks).div(PRICE_TICKS_PER_DOLLAR));
      }
    }
    const first = clobTokenIds.find((id) => tokenIds.has(id)) ?? tokens[0]!.tokenId;
    const depth = this.exchange.isClosed(conditionId) ? undefined : this.exchange.depthOf(first);
    const bid = depth?.bids[0]?.priceTicks;
    const ask = depth?.asks[0]?.priceTicks;
    const price = (ticks: number) => num(new Decimal(ticks).div(PRICE_TICKS_PER_DOLLAR));
    const last = this.exchange.lastTradePriceOf(first);
    const shownNow = this.prices.at(first, now);
    const firstShown = this.prices.firstAt(first);
    const shownThen = firstShown === null ? null : this.prices.at(first, Math.max(now - DAY_MS, firstShown));
    return {
      volume: total.toFixed(),
      volumeNum: num(total),
      volumeClob: num(total),
      volume24hr: num(day),
      volume24hrClob: num(day),
      volume1wk: num(week),
      volume1wkClob: num(week),
      volume1mo: num(month),
      volume1moClob: num(month),
      volume1yr: num(year),
      volume1yrClob: num(year),
      liquidity: liquidity.toFixed(),
      liquidityNum: num(liquidity),
      liquidityClob: num(liquidity),
      ...(bid === undefined ? {} : { bestBid: price(bid) }),
      ...(ask === undefined ? {} : { bestAsk: price(ask) }),
      ...(bid === undefined || ask === undefined ? {} : { spread: price(ask - bid) }),
      ...(last === undefined ? {} : { lastTradePrice: Number(last) }),
      ...(shownNow === null || shownThen === null ? {} : { oneDayPriceChange: num(new Decimal(shownNow).minus(shownThen)) }),
    };
  }
}
