/**
 * The parent order checked once and turned into the planner's internal units: a direction, a limit
 * in own-terms ticks of $0.0001, the quantity as an exact decimal, the TWAP schedule. Bad input is a
 * 400 invalid_request naming the field as GraphQL does (the gateway spells it as REST does).
 */
import { DomainError, invalidRequest } from '../errors';
import { parseDecimalString } from '../decimals';
import { PRICE_TICKS_PER_DOLLAR, MAX_PRICE_TICKS, MIN_PRICE_TICKS } from '../matching/units';
import { directionOf, type Direction } from './executionFigures';
import { Decimal } from '../decimals';
import { EXECUTION_STRATEGIES, type ExcludedVenue, type ExecutionStrategy, type ParentOrder, type TwapBookModel, type VenueMarketSnapshot } from './types';

export const MAX_TWAP_SLICES = 1_000;
/** Default TWAP cadence: one slice a minute (at least one slice, at most MAX_TWAP_SLICES). */
export const DEFAULT_SECONDS_PER_TWAP_SLICE = 60;

/** A strategy named by a client (a body field or a filter), or a 400 naming `strategy`. */
export function requireStrategy(value: string): ExecutionStrategy {
  if (!(EXECUTION_STRATEGIES as readonly string[]).includes(value)) {
    throw invalidRequest('strategy', `strategy must be one of ${EXECUTION_STRATEGIES.join(', ')}.`);
  }
  return value as ExecutionStrategy;
}

export interface NormalizedOrder {
  readonly side: ParentOrder['side'];
  readonly action: ParentOrder['action'];
  readonly direction: Direction;
  readonly strategy: ExecutionStrategy;
  readonly quantity: Decimal;
  /** Own terms, in ticks of $0.0001; null without a limit. */
  readonly limitTicks: number | null;
  readonly durationSeconds: Decimal | null;
  readonly slices: number | null;
  readonly twapBookModel: TwapBookModel;
}

export interface EligibleMarkets {
  readonly markets: readonly VenueMarketSnapshot[];
  readonly excluded: readonly ExcludedVenue[];
}

/** The snapshots on allowed venues, first one per venue; the others are reported as excluded. */
export function eligibleMarkets(order: ParentOrder, snapshots: readonly VenueMarketSnapshot[]): EligibleMarkets {
  if (!Array.isArray(order.venues) || order.venues.length === 0) {
    throw invalidRequest('venues', 'venues must list at least one venue the order may use.');
  }
  for (const venue of order.venues) {
    if (typeof venue !== 'string') throw invalidRequest('venues', `venues: ${String(venue)} is not a venue name.`);
  }
  const allowed = new Set<string>(order.venues);
  const markets: VenueMarketSnapshot[] = [];
  const excluded: ExcludedVenue[] = [];
  for (const snapshot of snapshots) {
    if (!allowed.has(snapshot.venue)) excluded.push({ venue: snapshot.venue, reason: 'not_allowed' });
    else if (markets.some((market) => market.venue === snapshot.venue)) excluded.push({ venue: snapshot.venue, reason: 'duplicate_market' });
    else markets.push(snapshot);
  }
  if (markets.length === 0) {
    throw new DomainError('market_not_tradable', 'The market is not listed on any of the venues the order may use.');
  }
  return { markets, excluded };
}

export function normalizeParentOrder(order: ParentOrder, markets: readonly VenueMarketSnapshot[]): NormalizedOrder {
  if (order.side !== 'yes' && order.side !== 'no') throw invalidRequest('side', 'side must be yes or no.');
  if (order.action !== 'buy' && order.action !== 'sell') throw invalidRequest('action', 'action must be buy or sell.');
  requireStrategy(order.strategy);

  const quantity = typeof order.quantity === 'string' ? parseDecimalString(order.quantity) : null;
  if (quantity === null || quantity.lte(0)) throw invalidRequest('quantity', 'quantity must be a positive decimal string such as "100".');
  const finestUnitsPerWhole = Math.max(...markets.map((market) => market.rules.unitsPerWhole));
  if (!quantity.times(finestUnitsPerWhole).isInteger()) {
    throw invalidRequest('quantity', `quantity ${order.quantity} is finer than the finest quantity step of the eligible venues (${new Decimal(1).div(finestUnitsPerWhole).toFixed()}).`);
  }

  const limitTicks = parseLimit(order.limitPrice);
  const twap = order.strategy === 'twap' ? parseTwapSchedule(order) : { durationSeconds: null, slices: null };
  const twapBookModel = order.twapBookModel ?? 'depleting';
  if (twapBookModel !== 'depleting' && twapBookModel !== 'replenishing') {
    throw invalidRequest('twapBookModel', 'twapBookModel must be depleting or replenishing.');
  }
  return {
    side: order.side,
    action: order.action,
    direction: directionOf(order.action),
    strategy: order.strategy,
    quantity: new Decimal(quantity),
    limitTicks,
    ...twap,
    twapBookModel,
  };
}

function parseLimit(limitPrice: string | null | undefined): number | null {
  if (limitPrice === undefined || limitPrice === null) return null;
  const parsed = typeof limitPrice === 'string' ? parseDecimalString(limitPrice) : null;
  const ticks = parsed?.times(PRICE_TICKS_PER_DOLLAR);
  if (ticks === undefined || !ticks.isInteger() || ticks.lt(MIN_PRICE_TICKS) || ticks.gt(MAX_PRICE_TICKS)) {
    throw invalidRequest('limitPrice', 'limitPrice must be a decimal string strictly between 0 and 1, at most 4 decimals.');
  }
  return ticks.toNumber();
}

function parseTwapSchedule(order: ParentOrder): { durationSeconds: Decimal; slices: number } {
  const duration = order.durationSeconds;
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
    throw invalidRequest('durationSeconds', 'durationSeconds must be a number of seconds greater than 0 for a twap order.');
  }
  const durationSeconds = new Decimal(String(duration));
  let slices = order.slices ?? null;
  if (slices === null) {
    const perMinute = durationSeconds.div(DEFAULT_SECONDS_PER_TWAP_SLICE).floor().toNumber();
    slices = Math.min(MAX_TWAP_SLICES, Math.max(1, perMinute));
  } else if (!Number.isInteger(slices) || slices < 1 || slices > MAX_TWAP_SLICES) {
    throw invalidRequest('slices', `slices must be a whole number from 1 to ${MAX_TWAP_SLICES}.`);
  }
  return { durationSeconds, slices };
}
