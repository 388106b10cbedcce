import Decimal from 'decimal.js';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Db } from '../../core/db/prismaClient';
import { DomainError } from '../../core/domain/errors';
import { newId } from '../../core/domain/ids';
import { PrismaClient } from '../../core/generated/prisma/client';
import { executionReport } from '../../core/services/complexOrders/executionReport';
import type { Scope } from '../../core/services/scope';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { databaseUrl, testConfig } from '../support/env';
import { seedComplexOrder, type VenueColumn } from '../support/complexOrderSeed';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

/**
 * GET /v1/complex_orders/{id}/execution_report, at the service: complex orders, children, orders and
 * fills seeded row by row with hand-chosen numbers, and every figure recomputed by hand below.
 * WORLDCUP-HOST is this file's market: no other test trades it, so its books stay as seeded.
 *
 * Rows are shaped so the complex order scheduler (running in every stack on the shared database)
 * leaves them alone: no `sending` child, no order pending or unknown, no open order to restore, and
 * a working parent keeps one child scheduled a year ahead.
 */

describe('execution report of a complex order', () => {
  let stack: Stack;
  let db: Db;
  let scope: Scope;
  let subaccountId: string;
  let kalshi: string;
  let polymarket: string;
  let markets: Record<string, string>;

  beforeAll(async () => {
    stack = await startStack(testConfig());
    db = stack.core.db;
    const { workspace } = await buildWorkspace(db);
    scope = { workspaceId: workspace.id, environment: 'test' };
    subaccountId = (await createSubaccount(db, scope, { name: 'tca report' }, '1000000')).id;
    kalshi = (await db.market.findFirstOrThrow({ where: { venue: 'sim_kalshi', venueMarketId: 'WORLDCUP-HOST' } })).id;
    polymarket = (await db.market.findFirstOrThrow({ where: { venue: 'sim_polymarket', venueMarketId: 'pm-worldcup-host' } })).id;
    markets = { 'sim-kalshi': kalshi, 'sim-polymarket': polymarket };
  });
  afterAll(() => stack.close());

  /**
   * Buy 1,000 YES, arrival mid P0 = 0.50, end mid 0.55, predicted average 0.525 (all-in 0.53).
   *
   *   child  venue           asked  status                         sent      M     fills
   *   c1     sim-kalshi        500  sent (order filled)            10:00:01  0.51  400 @ 0.52 (fee 1.00), 100 @ 0.53 (fee 0.25)
   *   c2     sim-polymarket    400  sent (order canceled: ioc)     10:01:00  0.52  300 @ 0.54 (fee 0.60)
   *   c3     sim-kalshi         50  rejected by pre-trade risk     10:02:00  —     (never reached a venue)
   *   c4     sim-kalshi         50  canceled before its slice      —         —     —
   *
   * F = 800 of Q = 1000; base P0 × Q = 500 dollars, so bps = dollars × 20.
   *   delay   c1 (0.51 − 0.50) × 500 = 5.00; c2 (0.52 − 0.50) × 300 = 6.00          → 11.00  (220 bps)
   *   impact  c1 400 × 0.52 + 100 × 0.53 − 0.51 × 500 = 261 − 255 = 6.00;
   *           c2 300 × 0.54 − 0.52 × 300 = 162 − 156 = 6.00                          → 12.00  (240 bps)
   *   fees    1.00 + 0.25 + 0.60                                                      →  1.85  (37 bps)
   *   opportunity (0.55 − 0.50) × (1000 − 800)                                        → 10.00  (200 bps)
   *   total                                                                            → 34.85  (697 bps)
   * Average 423 / 800 = 0.52875; all-in (423 + 1.85) / 800 = 0.5310625.
   * Slippage: vs arrival 0.02875 / 0.5 = 575 bps; vs prediction 0.00375 / 0.525 = 71.428… → 71.43;
   * all-in vs prediction 0.0010625 / 0.53 = 20.047… → 20.05.
   */
  const seedFinalBuy = () =>
    seedComplexOrder(db, {
      scope, subaccountId, marketId: kalshi, marketIdsByVenue: markets,
      side: 'yes', action: 'buy', strategy: 'sweep', quantity: '1000', status: 'completed',
      createdAt: '2026-03-02T10:00:00Z', completedAt: '2026-03-02T10:05:00Z',
      arrivalMid: '0.5', endMid: '0.55',
      predictedAveragePrice: '0.525', predictedAllInAveragePrice: '0.53', predictedFilledQuantity: '1000',
      children: [
        {
          venue: 'sim_kalshi', marketId: kalshi, quantity: '500', price: '0.53', status: 'sent',
          scheduledAt: '2026-03-02T10:00:00Z', sentAt: '2026-03-02T10:00:01Z', midAtSend: '0.51',
          order: {
            status: 'filled',
            fills: [
              { price: '0.52', quantity: '400', fee: '1.00', at: '2026-03-02T10:00:02Z' },
              { price: '0.53', quantity: '100', fee: '0.25', at: '2026-03-02T10:00:03Z' },
            ],
          },
        },
        {
          venue: 'sim_polymarket', marketId: polymarket, quantity: '400', price: '0.54', status: 'sent',
          scheduledAt: '2026-03-02T10:01:00Z', sentAt: '2026-03-02T10:01:00Z', midAtSend: '0.52',
          order: { status: 'canceled', fills: [{ price: '0.54', quantity: '300', fee: '0.60', at: '2026-03-02T10:01:05Z' }] },
        },
        {
          venue: 'sim_kalshi', marketId: kalshi, quantity: '50', status: 'rejected',
          scheduledAt: '2026-03-02T10:02:00Z', sentAt: '2026-03-02T10:02:00Z', midAtSend: '0.53',
          rejectCode: 'risk_limit_exceeded', rejectReason: 'max_gross_exposure would be exceeded.',
        },
        { venue: 'sim_kalshi', marketId: kalshi, quantity: '50', status: 'canceled', scheduledAt: '2026-03-02T10:03:00Z' },
      ],
    });

  it('measures a finished order from its stored rows: shortfall parts, slippage, fill rate, per venue and per child', async () => {
    const { id, childIds } = await seedFinalBuy();
    const report = await executionReport(db, stack.core.venues, scope, id);

    expect(report).toMatchObject({
      complexOrderId: id,
      status: 'completed',
      strategy: 'sweep',
      marketId: kalshi,
      subaccountId,
      arrivalSource: 'arrival_mid',
      endMidSource: 'end_mid',
      side: 'yes',
      action: 'buy',
      intendedQuantity: '1000',
      filledQuantity: '800',
      unfilledQuantity: '200',
      fillRate: '0.8',
      arrivalPrice: '0.5',
      endMid: '0.55',
      paperNotional: '500',
      notional: '423',
      totalFees: '1.85',
      averageExecutionPrice: '0.52875',
      allInAveragePrice: '0.5310625',
      implementationShortfall: {
        delayCost: '11',
        marketImpactCost: '12',
        feesCost: '1.85',
        opportunityCost: '10',
        totalCost: '34.85',
        delayBps: '220',
        marketImpactBps: '240',
        feesBps: '37',
        opportunityBps: '200',
        totalBps: '697',
      },
      slippageVsArrivalBps: '575',
      predictedAveragePrice: '0.525',
      slippageVsPredictionBps: '71.43',
      predictedAllInAveragePrice: '0.53',
      allInSlippageVsPredictionBps: '20.05',
      predictedFilledQuantity: '1000',
      startedAt: '2026-03-02T10:00:00.000Z',
      endedAt: '2026-03-02T10:05:00.000Z',
      durationSeconds: '300',
      firstFillAt: '2026-03-02T10:00:02.000Z',
      lastFillAt: '2026-03-02T10:01:05.000Z',
    });

    // Per venue: only the children that reached a venue (c1 on sim-kalshi, c2 on sim-polymarket).
    // sim-kalshi: 1.00 + 0.25 fees; 5 + 6 + 1.25 = 12.25 → 245 bps. sim-polymarket: 6 + 6 + 0.6 = 12.6 → 252 bps.
    expect(report.venues).toEqual([
      {
        venue: 'sim-kalshi', childOrderCount: 1, orderedQuantity: '500', filledQuantity: '500', fillRate: '1',
        notional: '261', fees: '1.25', averageExecutionPrice: '0.522',
        delayCost: '5', marketImpactCost: '6', feesCost: '1.25', executionCost: '12.25',
        delayBps: '100', marketImpactBps: '120', feesBps: '25', executionCostBps: '245',
      },
      {
        venue: 'sim-polymarket', childOrderCount: 1, orderedQuantity: '400', filledQuantity: '300', fillRate: '0.75',
        notional: '162', fees: '0.6', averageExecutionPrice: '0.54',
        delayCost: '6', marketImpactCost: '6', feesCost: '0.6', executionCost: '12.6',
        delayBps: '120', marketImpactBps: '120', feesBps: '12', executionCostBps: '252',
      },
    ]);
    // The venues and the parent's opportunity cost add up to the total, in dollars and in bps.
    expect(new Decimal('12.25').add('12.6').add('10').toFixed()).toBe(report.implementationShortfall.totalCost);
    expect(245 + 252 + 200).toBe(Number(report.implementationShortfall.totalBps));

    expect(report.children).toEqual([
      expect.objectContaining({
        id: childIds[0], venue: 'sim-kalshi', marketId: kalshi, status: 'sent', orderStatus: 'filled', quantity: '500',
        filledQuantity: '500', averageFillPrice: '0.522', fees: '1.25', sentAt: '2026-03-02T10:00:01.000Z', midAtSend: '0.51',
        rejectCode: null, measured: true,
      }),
      expect.objectContaining({
        id: childIds[1], venue: 'sim-polymarket', marketId: polymarket, status: 'sent', orderStatus: 'canceled', quantity: '400',
        filledQuantity: '300', averageFillPrice: '0.54', fees: '0.6', sentAt: '2026-03-02T10:01:00.000Z', midAtSend: '0.52',
        rejectCode: null, measured: true,
      }),
      expect.objectContaining({
        id: childIds[2], venue: 'sim-kalshi', status: 'rejected', orderId: null, orderStatus: null, quantity: '50',
        filledQuantity: '0', averageFillPrice: null, fees: '0', sentAt: '2026-03-02T10:02:00.000Z',
        rejectCode: 'risk_limit_exceeded', rejectReason: 'max_gross_exposure would be exceeded.', measured: false,
      }),
      expect.objectContaining({
        id: childIds[3], venue: 'sim-kalshi', status: 'canceled', orderId: null, quantity: '50', filledQuantity: '0',
        sentAt: null, midAtSend: null, measured: false,
      }),
    ]);
  });

  /**
   * Buy 200 NO, still working: no arrival mid was stored (a book side was empty), so P0 is the
   * predicted average 0.68. Child k (sim-kalshi, 100) was sent with no mid recorded, so it is
   * measured at P0: 50 filled at 0.68, no fee → no delay, no impact. Child p (sim-polymarket, 100)
   * waits for its slice a year ahead. The end is now, and the unfilled 150 are valued at the live
   * consolidated NO mid: 1 − (best YES bid + best YES ask) / 2 over both listings.
   */
  it('measures a working order against the live consolidated mid, in NO terms, with the predicted average as the benchmark', async () => {
    const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    const sentAt = new Date(Date.now() - 59_000).toISOString();
    const { id, childIds } = await seedComplexOrder(db, {
      scope, subaccountId, marketId: kalshi, marketIdsByVenue: markets,
      side: 'no', action: 'buy', strategy: 'twap', quantity: '200', status: 'working', createdAt,
      arrivalMid: null, predictedAveragePrice: '0.68', predictedFilledQuantity: '200',
      children: [
        {
          venue: 'sim_kalshi', marketId: kalshi, quantity: '100', price: '0.68', status: 'sent', scheduledAt: createdAt, sentAt, midAtSend: null,
          order: { status: 'canceled', fills: [{ price: '0.68', quantity: '50', fee: '0', at: sentAt }] },
        },
        { venue: 'sim_polymarket', marketId: polymarket, quantity: '100', price: '0.68', status: 'scheduled', scheduledAt: nextYear },
      ],
    });

    const books = await Promise.all([
      stack.core.venues.marketData('sim_kalshi')!.orderBook('WORLDCUP-HOST', 1),
      stack.core.venues.marketData('sim_polymarket')!.orderBook('pm-worldcup-host', 1),
    ]);
    const bestBid = Decimal.max(...books.map((book) => book.bids[0]!.price));
    const bestAsk = Decimal.min(...books.map((book) => book.asks[0]!.price));
    const noMid = new Decimal(1).sub(bestBid.add(bestAsk).div(2));

    const before = Date.now();
    const report = await executionReport(db, stack.core.venues, scope, id);
    const after = Date.now();

    expect(report.status).toBe('working');
    expect(report.arrivalSource).toBe('predicted_average_price');
    expect(report.arrivalPrice).toBe('0.68');
    expect(report.endMidSource).toBe('live_mid');
    expect(report.endMid).toBe(noMid.toFixed());
    expect(report.filledQuantity).toBe('50');
    expect(report.fillRate).toBe('0.25');
    expect(report.implementationShortfall).toMatchObject({ delayCost: '0', marketImpactCost: '0', feesCost: '0' });
    // s × (P_end − P0) × (Q − F) = (noMid − 0.68) × 150; base 0.68 × 200 = 136.
    const opportunity = noMid.sub('0.68').mul(150);
    expect(report.implementationShortfall.opportunityCost).toBe(opportunity.toFixed());
    expect(report.implementationShortfall.totalCost).toBe(opportunity.toFixed());
    expect(report.implementationShortfall.opportunityBps).toBe(opportunity.div(136).mul(10_000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed());
    expect(report.slippageVsPredictionBps).toBe('0');
    expect(Date.parse(report.endedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(report.endedAt)).toBeLessThanOrEqual(after + 1);
    expect(report.venues.map((venue) => [venue.venue, venue.orderedQuantity, venue.filledQuantity])).toEqual([['sim-kalshi', '100', '50']]);
    expect(report.children.map((child) => [child.id, child.measured, child.midAtSend])).toEqual([
      [childIds[0], true, null],
      [childIds[1], false, null],
    ]);
  });

  it('answers not_found for another workspace’s complex order, for the live environment of the same workspace, and for an unknown id', async () => {
    const { id } = await seedFinalBuy();
    const other = await buildWorkspace(db);
    const attempts = [
      executionReport(db, stack.core.venues, { workspaceId: other.workspace.id, environment: 'test' }, id),
      executionReport(db, stack.core.venues, { workspaceId: scope.workspaceId, environment: 'live' }, id),
      executionReport(db, stack.core.venues, scope, newId('complexOrder')),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('reads a constant number of queries, whatever the number of children and fills', async () => {
    const counting = new PrismaClient({
      adapter: new PrismaPg({ connectionString: databaseUrl(), max: 2 }),
      log: [{ emit: 'event', level: 'query' }],
    });
    let queries = 0;
    counting.$on('query' as never, () => {
      queries += 1;
    });
    try {
      const small = await seedFinalBuy();
      const many = await seedComplexOrder(db, {
        scope, subaccountId, marketId: kalshi, marketIdsByVenue: markets,
        side: 'yes', action: 'buy', strategy: 'twap', quantity: '1000', status: 'completed',
        createdAt: '2026-03-03T10:00:00Z', completedAt: '2026-03-03T10:10:00Z', arrivalMid: '0.5', endMid: '0.5',
        predictedAveragePrice: '0.51', predictedFilledQuantity: '1000',
        children: Array.from({ length: 10 }, (_, slice) => ({
          venue: (slice % 2 === 0 ? 'sim_kalshi' : 'sim_polymarket') as VenueColumn,
          marketId: slice % 2 === 0 ? kalshi : polymarket,
          quantity: '100', price: '0.52', status: 'sent' as const,
          scheduledAt: `2026-03-03T10:0${slice}:00Z`, sentAt: `2026-03-03T10:0${slice}:00Z`, midAtSend: '0.5',
          order: {
            status: 'filled' as const,
            fills: [
              { price: '0.51', quantity: '60', fee: '0.1', at: `2026-03-03T10:0${slice}:01Z` },
              { price: '0.52', quantity: '40', fee: '0.1', at: `2026-03-03T10:0${slice}:02Z` },
            ],
          },
        })),
      });
      await counting.$connect();
      queries = 0;
      await executionReport(counting, stack.core.venues, scope, small.id);
      const forFourChildren = queries;
      // The complex order, its children, their Order rows (Prisma's include), their fills.
      expect(forFourChildren).toBeGreaterThanOrEqual(3);
      queries = 0;
      const report = await executionReport(counting, stack.core.venues, scope, many.id);
      expect(queries).toBe(forFourChildren);
      expect(queries).toBeLessThanOrEqual(4);
      expect(report.filledQuantity).toBe('1000');
      expect(report.children).toHaveLength(10);
    } finally {
      await counting.$disconnect();
    }
  });
});
