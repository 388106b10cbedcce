import Decimal from 'decimal.js';
import type { Db } from '../../core/db/prismaClient';
import { DomainError } from '../../core/domain/errors';
import type { ChildOrderStatus, ComplexOrderStatus } from '../../core/generated/prisma/client';
import { executionAnalytics, type ExecutionAnalyticsFilter } from '../../core/services/complexOrders/executionAnalytics';
import type { Scope } from '../../core/services/scope';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { testConfig } from '../support/env';
import { seedComplexOrder, type VenueColumn } from '../support/complexOrderSeed';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

/**
 * GET /v1/analytics/execution, at the service, over complex orders seeded row by row with known
 * predictions and fills, every figure recomputed by hand below. AI-IMO-GOLD and MARS-LAUNCH are this
 * file's markets (no other test trades them). Rows are shaped so the complex order scheduler leaves
 * them alone (see executionReport.test.ts).
 */
const DAY = 86_400_000;

interface SeedChild {
  venue: VenueColumn;
  marketId: string;
  quantity: string;
  expectedFilledQuantity: string;
  expectedNotional: string;
  status?: ChildOrderStatus;
  scheduledAt?: Date;
  /** Fills of the child's order (an Order row is created when this is given). */
  fills?: { price: string; quantity: string }[];
}

interface SeedOrder {
  scope: Scope;
  subaccountId: string;
  marketId: string;
  action: 'buy' | 'sell';
  strategy: 'sweep' | 'passive' | 'twap';
  quantity: string;
  status: ComplexOrderStatus;
  createdAt: Date;
  predictedAveragePrice: string | null;
  predictedFilledQuantity: string;
  children: SeedChild[];
}

/** The analytics' orders, in their shorthand: fills without fees, children sent a second after the parent. */
async function seed(db: Db, spec: SeedOrder): Promise<string> {
  const final = spec.status === 'completed' || spec.status === 'canceled' || spec.status === 'failed';
  const at = (offsetMs: number) => new Date(spec.createdAt.getTime() + offsetMs).toISOString();
  const sentAt = at(1000);
  const { id } = await seedComplexOrder(db, {
    scope: spec.scope, subaccountId: spec.subaccountId, marketId: spec.marketId, marketIdsByVenue: {}, side: 'yes',
    action: spec.action, strategy: spec.strategy, quantity: spec.quantity, status: spec.status, createdAt: at(0),
    arrivalMid: '0.5', predictedAveragePrice: spec.predictedAveragePrice, predictedFilledQuantity: spec.predictedFilledQuantity,
    endMid: final ? '0.5' : null, completedAt: final ? at(60_000) : null,
    children: spec.children.map((child) => {
      const scheduled = child.status === 'scheduled';
      const filled = (child.fills ?? []).reduce((sum, f) => sum.add(f.quantity), new Decimal(0));
      return {
        venue: child.venue, marketId: child.marketId, quantity: child.quantity, price: '0.9',
        status: child.status ?? (child.fills ? 'sent' : 'rejected'),
        rejectCode: child.fills || child.status ? null : 'risk_limit_exceeded',
        expectedFilledQuantity: child.expectedFilledQuantity, expectedNotional: child.expectedNotional,
        scheduledAt: (child.scheduledAt ?? spec.createdAt).toISOString(),
        sentAt: scheduled ? null : sentAt, midAtSend: scheduled ? null : '0.5',
        // Fees are left at 0: the analytics compares prices, not fees.
        order: child.fills && {
          status: filled.eq(child.quantity) ? ('filled' as const) : ('canceled' as const),
          fills: child.fills.map((f, index) => ({ ...f, fee: '0', at: new Date(Date.parse(sentAt) + 1000 * (index + 1)).toISOString() })),
        },
      };
    }),
  });
  return id;
}

const errorOf = async (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe('execution analytics', () => {
  let stack: Stack;
  let db: Db;
  let scope: Scope;
  let otherScope: Scope;
  let first: string;
  let second: string;
  let otherSubaccount: string;
  let aiKalshi: string;
  let aiPolymarket: string;
  let marsKalshi: string;
  /** The window of the seeded orders: [start, start + 10 days), 100 days ago. */
  let start: Date;
  let end: Date;
  const at = (hours: number) => new Date(start.getTime() + hours * 3_600_000);
  const analytics = (filter: ExecutionAnalyticsFilter = {}, who: Scope = scope) =>
    executionAnalytics(db, who, { from: start, to: end, ...filter });

  beforeAll(async () => {
    stack = await startStack(testConfig());
    db = stack.core.db;
    const { workspace } = await buildWorkspace(db);
    scope = { workspaceId: workspace.id, environment: 'test' };
    first = (await createSubaccount(db, scope, { name: 'desk one' }, '1000000')).id;
    second = (await createSubaccount(db, scope, { name: 'desk two' }, '1000000')).id;
    const other = await buildWorkspace(db);
    otherScope = { workspaceId: other.workspace.id, environment: 'test' };
    otherSubaccount = (await createSubaccount(db, otherScope, { name: 'elsewhere' }, '1000000')).id;
    const market = async (venue: VenueColumn, venueMarketId: string) =>
      (await db.market.findFirstOrThrow({ where: { venue, venueMarketId } })).id;
    aiKalshi = await market('sim_kalshi', 'AI-IMO-GOLD');
    aiPolymarket = await market('sim_polymarket', 'pm-ai-imo-gold');
    marsKalshi = await market('sim_kalshi', 'MARS-LAUNCH');
    start = new Date(Math.floor((Date.now() - 100 * DAY) / DAY) * DAY);
    end = new Date(start.getTime() + 10 * DAY);

    // O1 sweep buy 100, predicted average 0.50. sim-kalshi: 60 expected for 30 (0.50), filled 60 @ 0.51;
    // sim-polymarket: 40 expected for 20 (0.50), filled 20 @ 0.52. Realized 41 / 80 = 0.5125 → +250 bps.
    // Per venue: kalshi (0.51 − 0.50) / 0.50 = +200 bps; polymarket (0.52 − 0.50) / 0.50 = +400 bps.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'sweep', quantity: '100', status: 'completed',
      createdAt: at(1), predictedAveragePrice: '0.5', predictedFilledQuantity: '100',
      children: [
        { venue: 'sim_kalshi', marketId: aiKalshi, quantity: '60', expectedFilledQuantity: '60', expectedNotional: '30', fills: [{ price: '0.51', quantity: '60' }] },
        { venue: 'sim_polymarket', marketId: aiPolymarket, quantity: '40', expectedFilledQuantity: '40', expectedNotional: '20', fills: [{ price: '0.52', quantity: '20' }] },
      ],
    });
    // O2 sweep sell 200, predicted 150 at 0.40; sold 100 @ 0.41: received more than predicted → −250 bps.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'sell', strategy: 'sweep', quantity: '200', status: 'canceled',
      createdAt: at(2), predictedAveragePrice: '0.4', predictedFilledQuantity: '150',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '200', expectedFilledQuantity: '150', expectedNotional: '60', fills: [{ price: '0.41', quantity: '100' }] }],
    });
    // O3 (second subaccount) twap buy 50 in two slices, predicted 0.06; 25 @ 0.06 + 25 @ 0.07 = 0.065 → +833.33… bps.
    await seed(db, {
      scope, subaccountId: second, marketId: marsKalshi, action: 'buy', strategy: 'twap', quantity: '50', status: 'completed',
      createdAt: at(3), predictedAveragePrice: '0.06', predictedFilledQuantity: '50',
      children: [
        { venue: 'sim_kalshi', marketId: marsKalshi, quantity: '25', expectedFilledQuantity: '25', expectedNotional: '1.5', fills: [{ price: '0.06', quantity: '25' }] },
        { venue: 'sim_kalshi', marketId: marsKalshi, quantity: '25', expectedFilledQuantity: '25', expectedNotional: '1.5', fills: [{ price: '0.07', quantity: '25' }] },
      ],
    });
    // O4 passive buy 100, predicted 100 at 0.49, failed: its only child was refused. Counted, not measured.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'passive', quantity: '100', status: 'failed',
      createdAt: at(4), predictedAveragePrice: '0.49', predictedFilledQuantity: '100',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '100', expectedFilledQuantity: '100', expectedNotional: '49' }],
    });
    // O5 sweep buy 100 with no predicted average (nothing was expected to fill); 10 filled. Counted, not measured.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'sweep', quantity: '100', status: 'completed',
      createdAt: at(5), predictedAveragePrice: null, predictedFilledQuantity: '0',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '100', expectedFilledQuantity: '0', expectedNotional: '0', fills: [{ price: '0.5', quantity: '10' }] }],
    });
    // O6 still working (a slice waits a year ahead): never counted, however it traded.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'twap', quantity: '1000', status: 'working',
      createdAt: at(6), predictedAveragePrice: '0.5', predictedFilledQuantity: '1000',
      children: [
        { venue: 'sim_polymarket', marketId: aiPolymarket, quantity: '500', expectedFilledQuantity: '500', expectedNotional: '250', fills: [{ price: '0.9', quantity: '500' }] },
        { venue: 'sim_kalshi', marketId: aiKalshi, quantity: '500', expectedFilledQuantity: '500', expectedNotional: '250', status: 'scheduled', scheduledAt: new Date(Date.now() + 365 * DAY) },
      ],
    });
    // O7 one day before the window: 10 @ 0.50 as predicted (0 bps).
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'sweep', quantity: '10', status: 'completed',
      createdAt: new Date(start.getTime() - DAY), predictedAveragePrice: '0.5', predictedFilledQuantity: '10',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '10', expectedFilledQuantity: '10', expectedNotional: '5', fills: [{ price: '0.5', quantity: '10' }] }],
    });
    // O8 another workspace's, in the window: 10 @ 0.55 against 0.50 → +1,000 bps.
    await seed(db, {
      scope: otherScope, subaccountId: otherSubaccount, marketId: aiKalshi, action: 'buy', strategy: 'sweep', quantity: '10', status: 'completed',
      createdAt: at(7), predictedAveragePrice: '0.5', predictedFilledQuantity: '10',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '10', expectedFilledQuantity: '10', expectedNotional: '5', fills: [{ price: '0.55', quantity: '10' }] }],
    });
    // O9 yesterday: the only order of the default range (the last 30 days). 8 of 10 @ 0.30 as predicted.
    await seed(db, {
      scope, subaccountId: first, marketId: aiKalshi, action: 'buy', strategy: 'sweep', quantity: '10', status: 'completed',
      createdAt: new Date(Date.now() - DAY), predictedAveragePrice: '0.3', predictedFilledQuantity: '10',
      children: [{ venue: 'sim_kalshi', marketId: aiKalshi, quantity: '10', expectedFilledQuantity: '10', expectedNotional: '3', fills: [{ price: '0.3', quantity: '8' }] }],
    });
  });
  afterAll(() => stack.close());

  /**
   * O1…O5 count (O6 works, O7 is before the window, O8 is another workspace's).
   * Intended 100 + 200 + 50 + 100 + 100 = 550; predicted 100 + 150 + 50 + 100 + 0 = 400;
   * filled 80 + 100 + 50 + 0 + 10 = 240. Errors (O1, O2, O3) sorted: −250, 250, 833.333…
   *   mean = 833.333… / 3 = 277.777… → 277.78
   *   p50  = 250 (the middle one)
   *   p90  = position 0.9 × (3 − 1) = 1.8: 250 + 0.8 × (833.333… − 250) = 716.666… → 716.67
   */
  it('measures the final orders of the window: fill rates and the error of the predicted price', async () => {
    const result = await analytics();
    expect(result.from).toBe(start.toISOString());
    expect(result.to).toBe(end.toISOString());
    expect(result.overall).toEqual({
      complexOrderCount: 5,
      intendedQuantity: '550',
      predictedFilledQuantity: '400',
      filledQuantity: '240',
      predictedFillRate: '0.727273',
      fillRate: '0.436364',
      priceErrorCount: 3,
      priceErrorMeanBps: '277.78',
      priceErrorP50Bps: '250.00',
      priceErrorP90Bps: '716.67',
    });
  });

  it('agrees with PostgreSQL’s percentile_cont on the same errors', async () => {
    const [row] = await db.$queryRaw<{ p50: number; p90: number }[]>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY e) AS p50, percentile_cont(0.9) WITHIN GROUP (ORDER BY e) AS p90
        FROM unnest(ARRAY[-250, 250, 2500 / 3.0]) AS e`;
    expect(new Decimal(row!.p50).toDecimalPlaces(2).toFixed()).toBe('250');
    expect(new Decimal(row!.p90).toDecimalPlaces(2).toFixed()).toBe('716.67');
  });

  it('groups by strategy and by market, one error per complex order', async () => {
    const result = await analytics();
    const unmeasured = { priceErrorCount: 0, priceErrorMeanBps: null, priceErrorP50Bps: null, priceErrorP90Bps: null };
    // sweep: O1, O2, O5. Errors −250, 250: mean 0, p50 0, p90 = −250 + 0.9 × 500 = 200.
    const sweep = {
      complexOrderCount: 3, intendedQuantity: '400', predictedFilledQuantity: '250', filledQuantity: '190',
      predictedFillRate: '0.625000', fillRate: '0.475000', priceErrorCount: 2, priceErrorMeanBps: '0.00', priceErrorP50Bps: '0.00', priceErrorP90Bps: '200.00',
    };
    const twap = {
      complexOrderCount: 1, intendedQuantity: '50', predictedFilledQuantity: '50', filledQuantity: '50',
      predictedFillRate: '1.000000', fillRate: '1.000000', priceErrorCount: 1, priceErrorMeanBps: '833.33', priceErrorP50Bps: '833.33', priceErrorP90Bps: '833.33',
    };
    expect(result.byStrategy).toEqual([
      { strategy: 'passive', complexOrderCount: 1, intendedQuantity: '100', predictedFilledQuantity: '100', filledQuantity: '0', predictedFillRate: '1.000000', fillRate: '0.000000', ...unmeasured },
      { strategy: 'sweep', ...sweep },
      { strategy: 'twap', ...twap },
    ]);
    // AI-IMO-GOLD (sim-kalshi listing): O1, O2, O4, O5: intended 500, predicted 350, filled 190.
    const ai = {
      marketId: aiKalshi, complexOrderCount: 4, intendedQuantity: '500', predictedFilledQuantity: '350', filledQuantity: '190',
      predictedFillRate: '0.700000', fillRate: '0.380000', priceErrorCount: 2, priceErrorMeanBps: '0.00', priceErrorP50Bps: '0.00', priceErrorP90Bps: '200.00',
    };
    expect(result.byMarket).toEqual([ai, { marketId: marsKalshi, ...twap }].sort((a, b) => a.marketId.localeCompare(b.marketId)));
  });

  /**
   * One row per (complex order, venue). sim-kalshi: O1 (60 asked, 60 expected, 60 filled, +200),
   * O2 (200, 150, 100, −250), O3 (2 children: 50, 50, 50, +833.33…), O4 (100, 100, 0), O5 (100, 0, 10):
   * 5 orders, 6 children, asked 510, expected 360, filled 220. Errors −250, 200, 833.333…:
   * mean 783.333… / 3 = 261.11; p50 200; p90 200 + 0.8 × 633.333… = 706.67.
   * sim-polymarket: O1 only (40, 40, 20, +400).
   */
  it('groups by venue, against each venue’s children’s expected average', async () => {
    const result = await analytics();
    expect(result.byVenue).toEqual([
      {
        venue: 'sim-kalshi', childOrderCount: 6, complexOrderCount: 5, intendedQuantity: '510', predictedFilledQuantity: '360', filledQuantity: '220',
        predictedFillRate: '0.705882', fillRate: '0.431373', priceErrorCount: 3, priceErrorMeanBps: '261.11', priceErrorP50Bps: '200.00', priceErrorP90Bps: '706.67',
      },
      {
        venue: 'sim-polymarket', childOrderCount: 1, complexOrderCount: 1, intendedQuantity: '40', predictedFilledQuantity: '40', filledQuantity: '20',
        predictedFillRate: '1.000000', fillRate: '0.500000', priceErrorCount: 1, priceErrorMeanBps: '400.00', priceErrorP50Bps: '400.00', priceErrorP90Bps: '400.00',
      },
    ]);
  });

  it('filters by strategy, venue, subaccount and market', async () => {
    const twap = await analytics({ strategy: 'twap' });
    expect(twap.overall).toMatchObject({ complexOrderCount: 1, intendedQuantity: '50', priceErrorMeanBps: '833.33' });
    expect(twap.byStrategy.map((g) => g.strategy)).toEqual(['twap']);
    expect(twap.byVenue.map((g) => [g.venue, g.complexOrderCount, g.childOrderCount])).toEqual([['sim-kalshi', 1, 2]]);
    expect(twap.byMarket.map((g) => g.marketId)).toEqual([marsKalshi]);

    // Orders with a child on sim-polymarket: O1 only (O6 works). Its figures are the whole order's;
    // by venue only sim-polymarket is shown.
    const polymarket = await analytics({ venue: 'sim-polymarket' });
    expect(polymarket.overall).toEqual({
      complexOrderCount: 1, intendedQuantity: '100', predictedFilledQuantity: '100', filledQuantity: '80',
      predictedFillRate: '1.000000', fillRate: '0.800000', priceErrorCount: 1, priceErrorMeanBps: '250.00', priceErrorP50Bps: '250.00', priceErrorP90Bps: '250.00',
    });
    expect(polymarket.byVenue.map((g) => [g.venue, g.priceErrorMeanBps])).toEqual([['sim-polymarket', '400.00']]);

    const desk2 = await analytics({ subaccountId: second });
    expect(desk2.overall).toMatchObject({ complexOrderCount: 1, intendedQuantity: '50', filledQuantity: '50' });
    const desk1 = await analytics({ subaccountId: first });
    expect(desk1.overall).toMatchObject({ complexOrderCount: 4, intendedQuantity: '500', filledQuantity: '190', priceErrorMeanBps: '0.00' });

    const mars = await analytics({ marketId: marsKalshi });
    expect(mars.overall).toMatchObject({ complexOrderCount: 1, priceErrorP90Bps: '833.33' });
    const combined = await analytics({ marketId: aiKalshi, strategy: 'sweep', venue: 'sim-kalshi' });
    expect(combined.overall).toMatchObject({ complexOrderCount: 3, intendedQuantity: '400', filledQuantity: '190' });
  });

  it('covers [from, to): from inclusive, to exclusive; 30 days back from now by default', async () => {
    const dayBefore = new Date(start.getTime() - DAY);
    const including = await executionAnalytics(db, scope, { from: dayBefore, to: start });
    expect(including.overall).toMatchObject({ complexOrderCount: 1, intendedQuantity: '10', priceErrorMeanBps: '0.00' });
    const excluding = await executionAnalytics(db, scope, { from: new Date(dayBefore.getTime() - DAY), to: dayBefore });
    expect(excluding.overall).toEqual({
      complexOrderCount: 0, intendedQuantity: '0', predictedFilledQuantity: '0', filledQuantity: '0',
      predictedFillRate: null, fillRate: null, priceErrorCount: 0, priceErrorMeanBps: null, priceErrorP50Bps: null, priceErrorP90Bps: null,
    });
    expect(excluding.byVenue).toEqual([]);
    expect(excluding.byStrategy).toEqual([]);
    expect(excluding.byMarket).toEqual([]);

    const recent = await executionAnalytics(db, scope, {});
    expect(Date.parse(recent.to) - Date.parse(recent.from)).toBe(30 * DAY);
    expect(Math.abs(Date.parse(recent.to) - Date.now())).toBeLessThan(60_000);
    expect(recent.overall).toMatchObject({ complexOrderCount: 1, intendedQuantity: '10', filledQuantity: '8', fillRate: '0.800000', priceErrorMeanBps: '0.00' });
  });

  it('never shows another workspace’s orders, and refuses its subaccount', async () => {
    const theirs = await analytics({}, otherScope);
    expect(theirs.overall).toMatchObject({ complexOrderCount: 1, intendedQuantity: '10', priceErrorMeanBps: '1000.00' });
    const mine = await analytics();
    expect(mine.overall.priceErrorCount).toBe(3);
    expect(await errorOf(analytics({ subaccountId: otherSubaccount }))).toMatchObject({ code: 'not_found' });
    expect((await analytics({}, { workspaceId: scope.workspaceId, environment: 'live' })).overall.complexOrderCount).toBe(0);
  });

  it('refuses a bad range or filter with invalid_request naming the parameter', async () => {
    const invalid = async (filter: ExecutionAnalyticsFilter, param: string) => {
      const error = await errorOf(executionAnalytics(db, scope, filter));
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'invalid_request', param, status: 400 });
    };
    await invalid({ from: end, to: start }, 'from');
    await invalid({ from: start, to: start }, 'from');
    await invalid({ from: new Date(end.getTime() - 367 * DAY), to: end }, 'from');
    await invalid({ from: new Date('not a date'), to: end }, 'from');
    await invalid({ from: start, to: end, venue: 'nasdaq' }, 'venue');
    await invalid({ from: start, to: end, venue: 'sim_kalshi' }, 'venue');
    await invalid({ from: start, to: end, strategy: 'vwap' }, 'strategy');
    expect(await errorOf(executionAnalytics(db, scope, { marketId: 'mkt_unknown' }))).toMatchObject({ code: 'not_found' });
    // 366 days exactly is allowed.
    const year = await executionAnalytics(db, scope, { from: new Date(end.getTime() - 366 * DAY), to: end });
    expect(year.overall.complexOrderCount).toBe(6);
  });
});
