/**
 * End to end on the simulated venues: every child of every sweep alternative, placed as planned on
 * unchanged books, realizes exactly the predicted quantity, notional (so the average price) and fees.
 * The market maker splits its levels into several orders, so this also checks the fee is charged
 * once per price level and operation, as the planner assumes.
 */
import Decimal from 'decimal.js';
import { averagePrice, planExecution, type ParentOrder, type PlanAlternative, type VenueMarketSnapshot } from '../../../core/domain/planning';
import { createSimVenues, type SimCatalogMarket, type SimVenue } from '../../../core/venues/sim';
import { sendPlannedChild } from '../../support/plannedChildren';
import { marketRulesOf, venueName, type VenueName } from '../../../core/venues/venueModules';

const CATALOG: SimCatalogMarket[] = [
  { venue: 'sim-kalshi', venueMarketId: 'FED-CUT', tickSize: '0.01', minSize: '1', fairValue: '0.62' },
  { venue: 'sim-polymarket', venueMarketId: 'pm-fed-cut', tickSize: '0.001', minSize: '5', fairValue: '0.613', takerFeeRateBps: 100 },
];

function freshVenues(): Map<VenueName, SimVenue> {
  return createSimVenues(CATALOG, { seed: 11, clock: () => new Date('2025-01-01T00:00:00Z'), marketMaker: { baseSize: 40, sizeIncrement: 25 } });
}

async function snapshots(venues: Map<VenueName, SimVenue>): Promise<VenueMarketSnapshot[]> {
  return Promise.all(
    CATALOG.map(async (listing) => {
      const venue = listing.venue as VenueName;
      const book = await venues.get(venue)!.orderBook(listing.venueMarketId, 50);
      const rules = marketRulesOf({ venue: venue === 'sim-kalshi' ? 'sim_kalshi' : 'sim_polymarket', tickSize: listing.tickSize, minSize: listing.minSize });
      // marketRulesOf has no fee rate: carry the catalog's Polymarket taker fee as the venue does.
      const withFees = listing.takerFeeRateBps === undefined ? rules : { ...rules, fees: { kind: 'power_rounded_down' as const, takerFeeRateBps: listing.takerFeeRateBps, exponent: 1 } };
      return { venue, book, rules: withFees };
    }),
  );
}

interface Realized {
  filled: Decimal;
  notional: Decimal;
  fees: Decimal;
}

async function execute(alternative: PlanAlternative): Promise<Realized[]> {
  const venues = freshVenues();
  const realized: Realized[] = [];
  for (const [index, child] of alternative.children.entries()) {
    const result = await sendPlannedChild(venues.get(venueName(child.venue))!, child, `${alternative.id}-${index}`);
    realized.push(
      result.fills.reduce(
        (sum, fill) => ({
          filled: sum.filled.plus(fill.quantity),
          notional: sum.notional.plus(new Decimal(fill.price).times(fill.quantity)),
          fees: sum.fees.plus(fill.fee),
        }),
        { filled: new Decimal(0), notional: new Decimal(0), fees: new Decimal(0) },
      ),
    );
  }
  return realized;
}

const ORDERS: Array<[string, Partial<ParentOrder>]> = [
  ['buy YES across several levels', { side: 'yes', action: 'buy', quantity: '300' }],
  ['sell YES with a limit', { side: 'yes', action: 'sell', quantity: '260', limitPrice: '0.58' }],
  ['buy NO, fractional shares', { side: 'no', action: 'buy', quantity: '170.55' }],
  ['sell NO with a limit', { side: 'no', action: 'sell', quantity: '120', limitPrice: '0.36' }],
];

describe('a sweep plan realizes exactly its prediction on unchanged books', () => {
  it.each(ORDERS)('%s', async (_, overrides) => {
    const order: ParentOrder = { side: 'yes', action: 'buy', quantity: '1', strategy: 'sweep', venues: ['sim-kalshi', 'sim-polymarket'], ...overrides };
    const plan = planExecution(order, await snapshots(freshVenues()));
    const feasible = plan.alternatives.filter((alternative) => alternative.feasible);
    expect(feasible.length).toBeGreaterThanOrEqual(2);
    expect(plan.recommended!.children.some((child) => child.expectedFills.length > 1)).toBe(true);
    for (const alternative of feasible) {
      const realized = await execute(alternative);
      alternative.children.forEach((child, index) => {
        expect([child.venue, realized[index]!.filled.toFixed()]).toEqual([child.venue, new Decimal(child.expectedFilledQuantity).toFixed()]);
        expect(realized[index]!.notional.eq(child.expectedNotional)).toBe(true);
        expect(realized[index]!.fees.eq(child.expectedFees)).toBe(true);
      });
      const total = realized.reduce((sum, r) => ({ filled: sum.filled.plus(r.filled), notional: sum.notional.plus(r.notional), fees: sum.fees.plus(r.fees) }));
      expect(averagePrice(total.notional, total.filled)).toBe(alternative.impact.expectedAveragePrice);
      expect(total.fees.eq(alternative.impact.totalFees)).toBe(true);
    }
  });
});
