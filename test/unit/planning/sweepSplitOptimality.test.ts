/**
 * The split search (greedy by estimated all-in price, then local improvement with exact fees)
 * against brute force: every way to share the quantity between two venues, each share priced level
 * by level with the venue's own rounded fee. Books are chosen so that Kalshi's per-level rounding up
 * matters (small partial levels cost a whole cent).
 */
import Decimal from 'decimal.js';
import { planExecution, type VenueMarketSnapshot } from '../../../core/domain/planning';
import { computeFee, type MarketRules } from '../../../core/domain/venueRules';
import { KALSHI, parent, POLYMARKET, POLYMARKET_WITH_FEES, snapshot } from './planningFixtures';

/** What taking `contracts` from the best levels costs (buy) or brings net of fees (sell), or null if it cannot. */
function venueAllIn(levels: ReadonlyArray<readonly [string, string]>, rules: MarketRules, contracts: number, buy: boolean): Decimal | null {
  if (contracts === 0) return new Decimal(0);
  if (contracts * rules.unitsPerWhole < rules.minSizeUnits) return null;
  let left = contracts;
  let total = new Decimal(0);
  for (const [price, quantity] of levels) {
    if (left === 0) break;
    const taken = Math.min(left, Number(quantity));
    left -= taken;
    const fee = computeFee(rules, { priceTicks: Math.round(Number(price) * 10_000), quantityUnits: taken * rules.unitsPerWhole, liquidity: 'taker' });
    total = total.plus(new Decimal(price).times(taken)).plus(new Decimal(fee).times(buy ? 1 : -1));
  }
  return left > 0 ? null : total;
}

/** The best all-in total over every whole-contract split of `quantity` between two venues. */
function bruteForce(a: VenueMarketSnapshot, aLevels: Levels, b: VenueMarketSnapshot, bLevels: Levels, quantity: number, buy: boolean): Decimal {
  let best: Decimal | null = null;
  for (let first = 0; first <= quantity; first++) {
    const costA = venueAllIn(aLevels, a.rules, first, buy);
    const costB = venueAllIn(bLevels, b.rules, quantity - first, buy);
    if (costA === null || costB === null) continue;
    const total = costA.plus(costB);
    if (best === null || (buy ? total.lt(best) : total.gt(best))) best = total;
  }
  if (best === null) throw new Error('no feasible split');
  return best;
}

type Levels = ReadonlyArray<readonly [string, string]>;

const KALSHI_ASKS: Levels = [
  ['0.50', '3'],
  ['0.51', '4'],
  ['0.52', '50'],
];
const POLY_ASKS: Levels = [
  ['0.51', '7'],
  ['0.52', '6'],
  ['0.53', '100'],
];
const KALSHI_BIDS: Levels = [
  ['0.49', '2'],
  ['0.48', '5'],
  ['0.47', '60'],
];
const POLY_BIDS: Levels = [
  ['0.48', '6'],
  ['0.47', '9'],
  ['0.46', '100'],
];

describe('optimal sweep split against brute force', () => {
  const cases: Array<[string, MarketRules, boolean]> = [
    ['free Polymarket, buy', POLYMARKET, true],
    ['Polymarket with taker fees, buy', POLYMARKET_WITH_FEES, true],
    ['free Polymarket, sell', POLYMARKET, false],
    ['Polymarket with taker fees, sell', POLYMARKET_WITH_FEES, false],
  ];

  it.each(cases)('%s: the split costs exactly the brute-force optimum for every quantity 1..45', (_, polyRules, buy) => {
    const kalshi = snapshot('sim-kalshi', KALSHI, KALSHI_BIDS, KALSHI_ASKS);
    const polymarket = snapshot('sim-polymarket', polyRules, POLY_BIDS, POLY_ASKS);
    const mismatches: string[] = [];
    for (let quantity = 1; quantity <= 45; quantity++) {
      const plan = planExecution(parent({ quantity: String(quantity), action: buy ? 'buy' : 'sell' }), [kalshi, polymarket]);
      const split = plan.alternatives.find((alternative) => alternative.id === 'sweep:split')!;
      const expected = bruteForce(kalshi, buy ? KALSHI_ASKS : KALSHI_BIDS, polymarket, buy ? POLY_ASKS : POLY_BIDS, quantity, buy);
      expect(split.impact.expectedFilledQuantity).toBe(String(quantity));
      if (!new Decimal(split.impact.allInNotional).eq(expected)) mismatches.push(`${quantity}: ${split.impact.allInNotional} vs ${expected.toFixed()}`);
      // The recommendation is never worse than the split.
      expect(new Decimal(plan.recommended!.impact.allInNotional).eq(split.impact.allInNotional)).toBe(true);
    }
    expect(mismatches).toEqual([]);
  });
});
