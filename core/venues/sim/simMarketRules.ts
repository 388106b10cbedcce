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
   * The market's rules as its venue module gives them (VenueModule.marketRules), as the registry
   * passes them for every simulated venue; without them, the two built-in venues' rules are derived
   * from the fields above (a venue added to the registry must bring them).
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

/** The rules of a built-in simulated venue's market from its catalog figures (a market without its module's rules). */
function builtInRules(venue: string, config: SimMarketConfig, tickSize: Decimal, minSize: Decimal): MarketRules {
  const id = config.venueMarketId;
  if (venue === 'sim-kalshi') {
    const rules = kalshiMarketRules({ makerFees: config.makerFees === true });
    if (!tickSize.eq(rules.tickSize)) throw new RangeError(`market ${id}: sim-kalshi trades in cents, not tick size ${config.tickSize}`);
    if (!minSize.eq(rules.minSize)) throw new RangeError(`market ${id}: sim-kalshi's minimum size is 1 contract, not ${config.minSize}`);
    return rules;
  }
  if (venue === 'sim-polymarket') {
    const tick = tickSize.toFixed() as PolymarketTickSize;
    if (!POLYMARKET_TICK_SIZES.includes(tick)) {
      throw new RangeError(`market ${id}: tick size ${config.tickSize} is not one of ${POLYMARKET_TICK_SIZES.join(', ')}`);
    }
    return polymarketMarketRules({ tickSize: tick, minOrderSize: minSize.toFixed(), takerFeeRateBps: config.takerFeeRateBps });
  }
  throw new RangeError(`market ${id}: ${venue} is not a built-in simulated venue, and the market brings no rules of its venue module`);
}

export function simMarketOf(venue: string, config: SimMarketConfig): SimMarket {
  const id = config.venueMarketId;
  if (typeof id !== 'string' || id.length === 0) throw new RangeError('venueMarketId must be a non-empty string');
  const tickSize = decimalOf(config.tickSize, 'tickSize', id);
  const minSize = decimalOf(config.minSize, 'minSize', id);

  // The venue module's rules when the catalog brings them (the registry does); else the built-in venues' own.
  const rules = config.rules ?? builtInRules(venue, config, tickSize, minSize);
  if (!tickSize.eq(rules.tickSize)) throw new RangeError(`market ${id}: ${venue} trades in ticks of ${rules.tickSize}, not ${config.tickSize}`);
  if (!minSize.eq(rules.minSize)) throw new RangeError(`market ${id}: ${venue}'s minimum size is ${rules.minSize}, not ${config.minSize}`);

  const fairTicks = decimalOf(config.fairValue, 'fairValue', id).times(PRICE_TICKS_PER_DOLLAR);
  if (!fairTicks.isInteger() || fairTicks.lt(rules.minPriceTicks) || fairTicks.gt(rules.maxPriceTicks)) {
    throw new RangeError(`market ${id}: fairValue ${config.fairValue} must be a price between ${rules.minPrice} and ${rules.maxPrice}`);
  }
  return { venueMarketId: id, rules, fairValueTicks: fairTicks.toNumber() };
}
