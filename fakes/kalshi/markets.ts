/**
 * The fake's market catalog: a small configurable seed of binary markets and the
 * series that carry their fee schedule.
 *
 * Market JSON follows a market recorded on demo 2026-06-11
 * (XavierBriggs/Fortuna fixtures/kalshi/markets__single.json, Trade API v2): prices as
 * `*_dollars` 4-decimal strings, sizes as `*_fp`, `price_level_structure`,
 * `price_ranges` `[{start, end, step}]` (VENUES.md and that capture agree; one older
 * third-party test writes `{min, max, step}`: not followed), `fractional_trading_enabled`.
 * Market `status` values are `initialized|inactive|active|closed|determined|disputed|amended|finalized`
 * (docs.kalshi.com getting_started/market_lifecycle, 2026; REST never shows `settled`: "settled
 * markets end up at `finalized`"), while the `status` filter of GET /markets takes
 * `unopened|open|paused|closed|settled`, mapped as that page's table says (STATUS_FILTER).
 * The lifecycle fields (`result`, `settlement_value_dollars`, `settlement_ts`, `expiration_value`,
 * an early `close_time`) come from lifecycle.ts. Fee type and multiplier live on the series
 * (`fee_type` quadratic | quadratic_with_maker_fees | flat, `fee_multiplier`; VENUES.md,
 * docs "Get Series"); the fake models the two quadratic types only.
 *
 * Quote and trading fields (openapi.yaml 3.28.0 Market, docs.kalshi.com 2026-08-22 as mirrored in
 * ebowwa/dailydocupdates; kalshi-typescript 3.30.0 agrees), all from the fake's own book and
 * trades: `yes_bid_dollars` / `yes_ask_dollars` and their `_size_fp` (the best level and the
 * contracts on it), `no_bid_dollars` = 1 - YES ask, `no_ask_dollars` = 1 - YES bid, an empty side
 * reading "0.0000" (bid) / "1.0000" (ask); `last_price_dollars`; `volume_fp`, `volume_24h_fp`;
 * `open_interest_fp`; `previous_yes_bid_dollars`, `previous_yes_ask_dollars`,
 * `previous_price_dollars` "a day ago" (the top of book and last trade as they stood 24 hours
 * before now on the fake's clock; an empty side or no trade yet then reads like an empty side or
 * no trade now); `liquidity_dollars` "DEPRECATED ... will always return "0.0000"". `updated_time`
 * ("last non-trading metadata update") is the creation time: the fake never edits metadata.
 * Not served although the schema requires them: `settlement_timer_seconds` (no timed settlement,
 * lifecycle.ts) and `exchange_index`.
 */
import type { BookLevel } from '../../core/domain/matching';
import { countFp, D, parsePrice, priceDollars, TICKS_PER_DOLLAR, type Dec } from './fixedPoint';

export type MarketStatus = 'initialized' | 'inactive' | 'active' | 'closed' | 'determined' | 'disputed' | 'amended' | 'finalized';
export type FeeType = 'quadratic' | 'quadratic_with_maker_fees';

export interface PriceRange {
  readonly start: string;
  readonly end: string;
  readonly step: string;
}

export interface SeriesSeed {
  readonly ticker: string;
  readonly title: string;
  readonly category?: string;
  readonly fee_type: FeeType;
  /** Scales the 0.07 taker and 0.0175 maker rates; "1" on most series. */
  readonly fee_multiplier: string;
}

export interface MarketSeed {
  readonly ticker: string;
  readonly event_ticker: string;
  readonly series_ticker: string;
  readonly title: string;
  readonly status?: MarketStatus;
  readonly open_time?: string;
  readonly close_time: string;
  readonly price_ranges?: readonly PriceRange[];
  readonly price_level_structure?: string;
  readonly fractional_trading_enabled?: boolean;
  readonly yes_sub_title?: string;
  readonly no_sub_title?: string;
  readonly rules_primary?: string;
  /** Not a market field: its event's title (GET /events); the market's title when absent. */
  readonly event_title?: string;
  /**
   * Not a Kalshi field: the YES price the fake's market maker quotes around when books are seeded
   * (marketMaker.ts; "0.5000" when absent). Never shown in the market's JSON.
   */
  readonly fake_mid_dollars?: string;
}

export interface CatalogSeed {
  readonly series: readonly SeriesSeed[];
  readonly markets: readonly MarketSeed[];
}

export const WHOLE_CENT_RANGES: readonly PriceRange[] = [{ start: '0.0000', end: '1.0000', step: '0.0100' }];
/** Kalshi's `tapered_deci_cent` structure: tenths of a cent near 0 and 1, cents between. */
export const TAPERED_DECI_CENT_RANGES: readonly PriceRange[] = [
  { start: '0.0000', end: '0.1000', step: '0.0010' },
  { start: '0.1000', end: '0.9000', step: '0.0100' },
  { start: '0.9000', end: '1.0000', step: '0.0010' },
];

/** Valid YES price in engine ticks, or null when the price is not on the market's price_ranges. */
export function priceTicksOnRanges(price: string, ranges: readonly PriceRange[]): number | null {
  const value = parsePrice(price);
  if (value === null || value.lte(0) || value.gte(1)) return null;
  for (const range of ranges) {
    const start = new D(range.start);
    const end = new D(range.end);
    const step = new D(range.step);
    if (value.lt(start) || value.gt(end) || step.lte(0)) continue;
    if (value.minus(start).mod(step).isZero()) {
      const ticks = value.times(TICKS_PER_DOLLAR);
      return ticks.isInteger() ? ticks.toNumber() : null;
    }
  }
  return null;
}

/**
 * The status filter of GET /markets, mapped to market statuses as docs.kalshi.com "Market
 * Lifecycle" (2026) tables it: `closed` is "any market past `close_time` that is not yet
 * `finalized`" (so determined, disputed and amended ones too), `settled` is `finalized` only.
 * The fake's markets pass their close only through the control API, so "past close_time" is
 * read from the status.
 */
export const STATUS_FILTER: Readonly<Record<string, readonly MarketStatus[]>> = {
  unopened: ['initialized'],
  open: ['active'],
  paused: ['inactive'],
  closed: ['closed', 'determined', 'disputed', 'amended'],
  settled: ['finalized'],
};

export interface FeeRates {
  readonly taker: Dec;
  readonly maker: Dec;
}

export function feeRates(series: SeriesSeed | undefined): FeeRates {
  const multiplier = new D(series?.fee_multiplier ?? '1');
  const makerCharged = series?.fee_type === 'quadratic_with_maker_fees';
  return { taker: new D('0.07').times(multiplier), maker: makerCharged ? new D('0.0175').times(multiplier) : new D(0) };
}

export function seriesJson(s: SeriesSeed): object {
  return {
    ticker: s.ticker,
    title: s.title,
    category: s.category ?? '',
    frequency: 'custom',
    tags: [],
    settlement_sources: [],
    contract_url: '',
    fee_type: s.fee_type,
    fee_multiplier: Number(s.fee_multiplier),
  };
}

/** What a market's JSON shows of its book and trading. */
export interface MarketStats {
  readonly createdMs: number;
  /** Best YES bid and ask of the book, if any. */
  readonly bestBid: BookLevel | undefined;
  readonly bestAsk: BookLevel | undefined;
  readonly lastPriceTicks: number | null;
  readonly volumeUnits: number;
  /** Contracts (hundredths) traded in the last 24 hours. */
  readonly volume24hUnits: number;
  /** Best YES bid and ask and the last trade price as they were 24 hours ago (null: none then). */
  readonly dayAgo: { readonly bidTicks: number | null; readonly askTicks: number | null; readonly priceTicks: number | null };
  readonly openInterestUnits: number;
  /** Where the market is in its lifecycle (lifecycle.ts). */
  readonly lifecycle: MarketLifecycleView;
}

/** The lifecycle fields of a market's JSON. */
export interface MarketLifecycleView {
  readonly status: MarketStatus;
  /** '' until determined. */
  readonly result: '' | 'yes' | 'no' | 'scalar' | 'void';
  /** The close time served: the seed's, or the moment of an early close. */
  readonly closeTime: string;
  /** Dollars of one YES contract, once determined (none for void). */
  readonly settlementValueDollars: string | null;
  /** ISO time of the settlement, once finalized. */
  readonly settlementTs: string | null;
  readonly expirationValue: string;
}

export function marketJson(s: MarketSeed, stats: MarketStats): object {
  const created = new Date(stats.createdMs).toISOString();
  const { bestBid, bestAsk } = stats;
  const life = stats.lifecycle;
  return {
    ticker: s.ticker,
    event_ticker: s.event_ticker,
    market_type: 'binary',
    title: s.title,
    yes_sub_title: s.yes_sub_title ?? '',
    no_sub_title: s.no_sub_title ?? '',
    created_time: created,
    updated_time: created,
    open_time: s.open_time ?? created,
    close_time: life.closeTime,
    expiration_time: s.close_time,
    latest_expiration_time: s.close_time,
    expected_expiration_time: s.close_time,
    status: life.status,
    result: life.result,
    // x-omitempty in the OpenAPI Market schema: absent until determined / finalized (the recorded
    // active market has neither); `expiration_value` is always there, "" until known.
    ...(life.settlementValueDollars === null ? {} : { settlement_value_dollars: life.settlementValueDollars }),
    ...(life.settlementTs === null ? {} : { settlement_ts: life.settlementTs }),
    expiration_value: life.expirationValue,
    can_close_early: true,
    yes_bid_dollars: bestBid === undefined ? '0.0000' : priceDollars(bestBid.priceTicks),
    yes_bid_size_fp: countFp(bestBid?.quantity ?? 0),
    yes_ask_dollars: bestAsk === undefined ? '1.0000' : priceDollars(bestAsk.priceTicks),
    yes_ask_size_fp: countFp(bestAsk?.quantity ?? 0),
    no_bid_dollars: bestAsk === undefined ? '0.0000' : priceDollars(TICKS_PER_DOLLAR - bestAsk.priceTicks),
    no_ask_dollars: bestBid === undefined ? '1.0000' : priceDollars(TICKS_PER_DOLLAR - bestBid.priceTicks),
    last_price_dollars: stats.lastPriceTicks === null ? '0.0000' : priceDollars(stats.lastPriceTicks),
    previous_yes_bid_dollars: stats.dayAgo.bidTicks === null ? '0.0000' : priceDollars(stats.dayAgo.bidTicks),
    previous_yes_ask_dollars: stats.dayAgo.askTicks === null ? '1.0000' : priceDollars(stats.dayAgo.askTicks),
    previous_price_dollars: stats.dayAgo.priceTicks === null ? '0.0000' : priceDollars(stats.dayAgo.priceTicks),
    volume_fp: countFp(stats.volumeUnits),
    volume_24h_fp: countFp(stats.volume24hUnits),
    open_interest_fp: countFp(stats.openInterestUnits),
    liquidity_dollars: '0.0000',
    notional_value_dollars: '1.0000',
    price_level_structure: s.price_level_structure ?? 'linear_cent',
    price_ranges: s.price_ranges ?? WHOLE_CENT_RANGES,
    fractional_trading_enabled: s.fractional_trading_enabled ?? false,
    rules_primary: s.rules_primary ?? '',
    rules_secondary: '',
  };
}

/** `[price, count]` string pairs, best (highest) bid last, as GET /markets/{ticker}/orderbook lists them. */
export function orderbookLevels(bidsBestFirst: readonly BookLevel[]): string[][] {
  return bidsBestFirst.map((l) => [priceDollars(l.priceTicks), countFp(l.quantity)]).reverse();
}

export function defaultCatalog(): CatalogSeed {
  return {
    series: [
      { ticker: 'KXFAKEFED', title: 'Fed funds rate (fake)', category: 'Economics', fee_type: 'quadratic', fee_multiplier: '1' },
      { ticker: 'KXFAKEHIGH', title: 'High temperature (fake)', category: 'Climate', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1' },
    ],
    markets: [
      {
        ticker: 'KXFAKEFED-26DEC-T4.00',
        event_ticker: 'KXFAKEFED-26DEC',
        series_ticker: 'KXFAKEFED',
        title: 'Will the upper bound of the fed funds rate be above 4.00% after the December 2026 meeting?',
        close_time: '2026-12-16T19:00:00Z',
        fake_mid_dollars: '0.4500',
      },
      {
        ticker: 'KXFAKEHIGH-26DEC31-T40',
        event_ticker: 'KXFAKEHIGH-26DEC31',
        series_ticker: 'KXFAKEHIGH',
        title: 'Will the high temperature in New York exceed 40F on Dec 31, 2026?',
        close_time: '2026-12-31T23:59:00Z',
        price_ranges: TAPERED_DECI_CENT_RANGES,
        price_level_structure: 'tapered_deci_cent',
        fractional_trading_enabled: true,
        fake_mid_dollars: '0.3000',
      },
    ],
  };
}
