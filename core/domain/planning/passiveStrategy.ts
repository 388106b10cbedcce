/**
 * Passive: rest at the touch (join the best bid for a buy, the best ask for a sell, own terms; the
 * limit instead when it is less aggressive), as GTC children that pay maker fees. Alternatives: the
 * whole quantity on each venue alone, and a split over every venue with a touch in proportion to
 * the quantity displayed at its touch (where the trading interest is), each share on the venue's
 * step and at least its minimum size (a venue whose share would fall below it is dropped, smallest
 * touch first, and the shares recomputed); what flooring leaves goes to the best-priced venues.
 * Nothing fills at once, so the impact is priced as if every child fills completely at its price.
 */
import { restingChild } from './childOrders';
import { Decimal } from '../decimals';
import type { NormalizedOrder } from './parentOrder';
import { buildAlternative, type AlternativeDraft } from './planAlternative';
import type { PlanAlternative, VenueMarketSnapshot } from './types';
import { joinableTouch, type JoinableTouch } from './venueLadder';

export function passiveAlternatives(order: NormalizedOrder, markets: readonly VenueMarketSnapshot[], arrivalMid: Decimal | null): PlanAlternative[] {
  const touches = markets.map((market) => joinableTouch(market, order));
  const drafts: AlternativeDraft[] = markets.map((market, index) => passiveSingle(order, market, touches[index]!));
  if (markets.length > 1) drafts.push(passiveSplit(order, markets, touches));
  return drafts.map((draft) => buildAlternative(draft, order, arrivalMid, 'resting_if_filled'));
}

function passiveSingle(order: NormalizedOrder, market: VenueMarketSnapshot, touch: JoinableTouch | null): AlternativeDraft {
  const base = { kind: 'single_venue' as const, venues: [market.venue] };
  if (touch === null) return { ...base, children: [], infeasibleReason: 'no_touch' };
  const { rules } = market;
  const units = order.quantity.times(rules.unitsPerWhole);
  if (!units.isInteger()) return { ...base, children: [], infeasibleReason: 'quantity_off_step' };
  if (units.lt(rules.minSizeUnits)) return { ...base, children: [], infeasibleReason: 'below_min_size' };
  const child = restingChild(market, touch, Math.min(units.toNumber(), rules.maxSizeUnits), order);
  return { ...base, children: [child], infeasibleReason: null };
}

function passiveSplit(order: NormalizedOrder, markets: readonly VenueMarketSnapshot[], touches: readonly (JoinableTouch | null)[]): AlternativeDraft {
  const base = { kind: 'split' as const, venues: markets.map((market) => market.venue) };
  const commonPerWhole = Math.max(...markets.map((market) => market.rules.unitsPerWhole));
  const target = order.quantity.times(commonPerWhole).toNumber(); // whole: checked by normalizeParentOrder
  const step = (index: number) => commonPerWhole / markets[index]!.rules.unitsPerWhole;
  const min = (index: number) => markets[index]!.rules.minSizeUnits * step(index);
  const cap = (index: number) => markets[index]!.rules.maxSizeUnits * step(index);
  const weight = (index: number) => new Decimal(touches[index]!.touchUnits).div(markets[index]!.rules.unitsPerWhole);

  let active = markets.map((_, index) => index).filter((index) => touches[index] !== null);
  if (active.length === 0) return { ...base, children: [], infeasibleReason: 'no_touch' };
  let shares = new Map<number, number>();
  for (;;) {
    if (active.length === 0) return { ...base, children: [], infeasibleReason: 'below_min_size' };
    const total = active.reduce((sum, index) => sum.plus(weight(index)), new Decimal(0));
    shares = new Map(
      active.map((index) => {
        const ideal = new Decimal(target).times(weight(index)).div(total).floor().toNumber();
        return [index, Math.min(floorTo(ideal, step(index)), cap(index))];
      }),
    );
    const short = active.filter((index) => shares.get(index)! < min(index));
    if (short.length === 0) break;
    // Drop the venue with the least displayed interest among those below their minimum; the later one on a tie.
    const dropped = short.reduce((worst, index) => (weight(index).lte(weight(worst)) ? index : worst));
    active = active.filter((index) => index !== dropped);
  }

  let residual = target - [...shares.values()].reduce((sum, units) => sum + units, 0);
  const byPrice = [...active].sort((a, b) => (touches[a]!.priceTicks - touches[b]!.priceTicks) * order.direction || a - b);
  for (const index of byPrice) {
    const add = Math.min(floorTo(residual, step(index)), cap(index) - shares.get(index)!);
    shares.set(index, shares.get(index)! + add);
    residual -= add;
  }
  const children = active
    .sort((a, b) => a - b)
    .filter((index) => shares.get(index)! > 0)
    .map((index) => restingChild(markets[index]!, touches[index]!, shares.get(index)! / step(index), order));
  return { ...base, children, infeasibleReason: null };
}

function floorTo(value: number, step: number): number {
  return Math.floor(value / step) * step;
}
