/**
 * A simulated market as the catalog lists it (decimal strings), checked and turned into the
 * venue's rules and integer fair value. Configuration errors throw: they are bugs, not requests.
 */
import { Decimal } from '../../domain/decimals';
import { PRICE_TICKS_PER_DOLLAR } from '../../domain/matching';
import {
  kalshiMarketRules,
  polymarketMarketRules,
  POLYMARKET_TICK_SIZES,
  type MarketRules,
  type PolymarketTickSize,
} from '../../domain/venueRules';
import type { SIM_VENUE_MODULES } from './venueModules';

/** A simulated venue's name (sim/venueModules.ts lists them). */
export type SimVenueName = (typeof SIM_VENUE_MODULES)[number]['name'];

export interface SimMarketConfig {
  /** The simulated ticker (sim-kalshi) or token id (sim-polymarket). */
  readonly venueMarketId: string;
  /** Dollars: "0.01" on sim-kalshi; "0.1", "0.01", "0.001" or "0.0001" on sim-polymarket. */
  readonly tickSize: string;
  /** Contracts or shares: "1" on sim-kalshi, commonly "5" on sim-polymarket. */
  readonly minSize: string;
  /** The market maker's starting fair value of YES, in dollars, strictly inside (0, 1). */
  readonly fairValue: string;
  /** sim-kalshi only: whether resting (maker) orders pay Kalshi's maker fee. Default false. */
  readonly makerFees?: boolean;
  /** sim-polymarket only: the taker fee rate in basis points. Default 0, like most markets. */
  readonly takerFeeRateBps?: number;
  /**
   * A market of a simulated venue other than the two above (a venue module added to the registry,
   * such as a test's): its rules as its module gives them (VenueModule.marketRules). The two
   * built-in venues' rules are derived and checked here; this is ignored for them.
   */
  readonly rules?: MarketRules;
}

export interface SimMarket {
  readonly venueMarketId: string;
  readonly rules: MarketRules;
  readonly fairValueTicks: number;
}

function decimalOf(value: string, what: string, marketId: string): Decimal {
  try {
    return new Decimal(value);
  } catch {
    throw new RangeError(`market ${marketId}: ${what} ${JSON.stringify(value)} is not a decimal`);
  }
}

export function simMarketOf(venue: string, config: SimMarketConfig): SimMarket {
  const id = config.venueMarketId;
  if (typeof id !== 'string' || id.length === 0) throw new RangeError('venueMarketId must be a non-empty string');
  const tickSize = decimalOf(config.tickSize, 'tickSize', id);
  const minSize = decimalOf(config.minSize, 'minSize', id);

  let rules: MarketRules;
  if (venue === 'sim-kalshi') {
    rules = kalshiMarketRules({ makerFees: config.makerFees === true });
    if (!tickSize.eq(rules.tickSize)) throw new RangeError(`market ${id}: sim-kalshi trades in cents, not tick size ${config.tickSize}`);
    if (!minSize.eq(rules.minSize)) throw new RangeError(`market ${id}: sim-kalshi's minimum size is 1 contract, not ${config.minSize}`);
  } else if (venue === 'sim-polymarket') {
    const tick = tickSize.toFixed() as PolymarketTickSize;
    if (!POLYMARKET_TICK_SIZES.includes(tick)) {
      throw new RangeError(`market ${id}: tick size ${config.tickSize} is not one of ${POLYMARKET_TICK_SIZES.join(', ')}`);
    }
    rules = polymarketMarketRules({ tickSize: tick, minOrderSize: minSize.toFixed(), takerFeeRateBps: config.takerFeeRateBps });
  } else if (config.rules !== undefined) {
    rules = config.rules;
    if (!tickSize.eq(rules.tickSize)) throw new RangeError(`market ${id}: ${venue}'s rules have tick size ${rules.tickSize}, not ${config.tickSize}`);
  } else {
    throw new RangeError(`market ${id}: ${venue} is not a built-in simulated venue, and the market brings no rules of its venue module`);
  }

  const fairTicks = decimalOf(config.fairValue, 'fairValue', id).times(PRICE_TICKS_PER_DOLLAR);
  if (!fairTicks.isInteger() || fairTicks.lt(rules.minPriceTicks) || fairTicks.gt(rules.maxPriceTicks)) {
    throw new RangeError(`market ${id}: fairValue ${config.fairValue} must be a price between ${rules.minPrice} and ${rules.maxPrice}`);
  }
  return { venueMarketId: id, rules, fairValueTicks: fairTicks.toNumber() };
}
