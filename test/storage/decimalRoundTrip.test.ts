import fc from 'fast-check';
import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { averagePriceOf, Decimal, fitsStorage, formatDecimal, roundMoney, STORAGE_MAX } from '../../core/domain/decimals';
import { newId } from '../../core/domain/ids';
import { ticksToPrice, unitsToQuantity, type Liquidity } from '../../core/domain/matching';
import { applyFill, type PositionState } from '../../core/domain/positionAccounting';
import { kalshiMarketRules, polymarketMarketRules, POLYMARKET_TICK_SIZES, type MarketRules } from '../../core/domain/venueRules';
import { recordExecution } from '../../core/services/orders/executions';
import { createSubaccount } from '../../core/services/accounts/subaccounts';
import { feesForOperation } from '../../core/venues/sim/operationFees';
import type { VenueFill } from '../../core/venues/venue';
import { buildWorkspace } from '../support/factories';
import { ownDatabase } from '../support/ownDatabase';

/**
 * The decimal policy against real PostgreSQL: what the domain computes for an order (fees from the
 * venue's fee schedule, each fill applied to the position, notional, realized P&L, average price)
 * is written by the real recording path to the numeric columns and read back digit for digit; and
 * the module's storage bounds are exactly what numeric(24,6) stores.
 */

type Action = 'buy' | 'sell';
interface Operation {
  action: Action;
  liquidity: Liquidity;
  fills: { priceTicks: number; quantityUnits: number }[];
}

const rulesArbitrary: fc.Arbitrary<MarketRules> = fc.oneof(
  fc.boolean().map((makerFees) => kalshiMarketRules({ makerFees })),
  fc
    .record({
      tickSize: fc.constantFrom(...POLYMARKET_TICK_SIZES),
      takerFeeRateBps: fc.integer({ min: 0, max: 1000 }),
      feeExponent: fc.integer({ min: 1, max: 3 }),
    })
    .map((options) => polymarketMarketRules({ ...options, minOrderSize: '0.01' })),
);

function operationsArbitrary(rules: MarketRules): fc.Arbitrary<Operation[]> {
  const steps = (rules.maxPriceTicks - rules.minPriceTicks) / rules.tickSizeTicks;
  const fill = fc.record({
    priceTicks: fc.integer({ min: 0, max: steps }).map((step) => rules.minPriceTicks + step * rules.tickSizeTicks),
    quantityUnits: fc.integer({ min: 1, max: 2_000_000 }),
  });
  return fc.array(
    fc.record({
      action: fc.constantFrom<Action>('buy', 'buy', 'sell'),
      liquidity: fc.constantFrom<Liquidity>('taker', 'maker'),
      fills: fc.array(fill, { minLength: 1, maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 5 },
  ).map(([first, ...rest]) => [{ ...first!, action: 'buy' as const }, ...rest]); // something is held to sell
}

/** Sells never exceed the position: each sell fill is cut to what is held (dropped when nothing is). */
function feasible(operations: Operation[]): Operation[] {
  let held = 0;
  const out: Operation[] = [];
  for (const operation of operations) {
    const fills = [];
    for (const fill of operation.fills) {
      const quantityUnits = operation.action === 'buy' ? fill.quantityUnits : Math.min(fill.quantityUnits, held);
      if (quantityUnits === 0) continue;
      held += operation.action === 'buy' ? quantityUnits : -quantityUnits;
      fills.push({ ...fill, quantityUnits });
    }
    if (fills.length > 0) out.push({ ...operation, fills });
  }
  return out;
}

const text = (value: { toString(): string }) => formatDecimal(value);

describe('decimals survive the round trip through PostgreSQL', () => {
  let db: Db;
  let scope: { workspaceId: string; environment: 'test' };
  const markets = new Map<string, string>();
  let run = 0;

  beforeAll(async () => {
    // Its own database: its ad-hoc markets and their resting orders would be restored by the simulated
    // venues of every stack another suite starts on the shared one, whose catalogs do not list them.
    db = createPrismaClient(await ownDatabase('decimal_round_trip'), 4);
    const { workspace } = await buildWorkspace(db, { name: 'decimal round trip' });
    scope = { workspaceId: workspace.id, environment: 'test' };
    for (const [venue, tickSize, minSize] of [['sim_kalshi', '0.01', '1'], ['sim_polymarket', '0.0001', '0.01']] as const) {
      const market = await db.market.create({
        data: {
          id: newId('market'), environment: 'test', venue, venueMarketId: `DECIMALS-${venue}-${Date.now()}`,
          title: 'Decimal round trip', category: 'test', tickSize, minSize,
        },
      });
      markets.set(venue, market.id);
    }
  });
  afterAll(() => db.$disconnect());

  it("an order's notional, fees, realized P&L and average price, as the domain computes them, read back digit for digit", async () => {
    await fc.assert(
      fc.asyncProperty(
        rulesArbitrary.chain((rules) => fc.tuple(fc.constant(rules), operationsArbitrary(rules).map(feasible))),
        async ([rules, operations]) => {
          run += 1;
          const venue = rules.fees.kind === 'quadratic_rounded_up' ? 'sim_kalshi' : 'sim_polymarket'; // the rules are one simulated venue's or the other's
          const marketId = markets.get(venue)!;
          const subaccount = await createSubaccount(db, scope, { name: `round trip ${run}`, startingBalance: '1000000' }, '0');
          let position: PositionState = { quantity: new Decimal(0), cost: new Decimal(0) };
          let cash = new Decimal('1000000');
          const day = { realizedPnl: new Decimal(0), fees: new Decimal(0), volume: new Decimal(0) };

          for (const [index, operation] of operations.entries()) {
            // The domain: fees from the venue's schedule for the whole operation, then each fill.
            const fees = feesForOperation(rules, operation.liquidity, operation.fills);
            const fills = operation.fills.map((fill, i) => ({
              price: ticksToPrice(fill.priceTicks),
              quantity: unitsToQuantity(fill.quantityUnits, rules.unitsPerWhole),
              fee: fees[i]!,
            }));
            const expectedFills = new Map<string, { price: string; quantity: string; fee: string; realizedPnl: string }>();
            let notional = new Decimal(0);
            let filled = new Decimal(0);
            let feesPaid = new Decimal(0);
            for (const [i, fill] of fills.entries()) {
              const effect = applyFill(position, {
                action: operation.action, price: new Decimal(fill.price), quantity: new Decimal(fill.quantity), fee: new Decimal(fill.fee),
              });
              position = effect.position;
              cash = cash.add(effect.cashChange);
              notional = notional.add(effect.notional);
              filled = filled.add(fill.quantity);
              feesPaid = feesPaid.add(fill.fee);
              day.realizedPnl = day.realizedPnl.add(effect.realizedPnl);
              day.fees = day.fees.add(fill.fee);
              day.volume = day.volume.add(effect.notional);
              expectedFills.set(`dec-${run}-${index}-${i}`, {
                price: text(fill.price), quantity: text(fill.quantity), fee: text(fill.fee), realizedPnl: text(effect.realizedPnl),
              });
            }

            // Storage: the real recording path writes the same fills.
            const order = await db.order.create({
              data: {
                id: newId('order'), workspaceId: scope.workspaceId, environment: 'test', subaccountId: subaccount.id, marketId, venue,
                side: 'yes', action: operation.action, type: 'limit', timeInForce: 'ioc', price: fills[0]!.price,
                quantity: filled.toFixed(), status: 'open', clientOrderId: newId('order'),
              },
            });
            const venueFills: VenueFill[] = fills.map((fill, i) => ({
              venueFillId: `dec-${run}-${index}-${i}`, venueOrderId: `venue-${order.id}`, clientOrderId: order.id, venueMarketId: 'DECIMALS',
              side: 'yes', action: operation.action, price: fill.price, quantity: fill.quantity, fee: fill.fee,
              isTaker: operation.liquidity === 'taker', executedAt: '2026-11-24T12:00:00Z',
            }));
            await recordExecution(db, order.id, { fills: venueFills });

            const stored = await db.order.findUniqueOrThrow({ where: { id: order.id }, include: { fills: true } });
            expect({
              filledQuantity: text(stored.filledQuantity),
              averageFillPrice: formatDecimal(stored.averageFillPrice),
              feesPaid: text(stored.feesPaid),
              notional: text(stored.fills.reduce((sum, f) => sum.add(new Decimal(f.price.toString()).mul(f.quantity.toString())), new Decimal(0))),
            }).toEqual({
              filledQuantity: text(filled),
              averageFillPrice: formatDecimal(averagePriceOf(notional, filled)),
              feesPaid: text(feesPaid),
              notional: text(notional),
            });
            expect(new Map(stored.fills.map((f) => [f.venueFillId, {
              price: text(f.price), quantity: text(f.quantity), fee: text(f.fee), realizedPnl: text(f.realizedPnl),
            }]))).toEqual(expectedFills);
          }

          const storedPosition = await db.position.findUniqueOrThrow({
            where: { subaccountId_marketId_side: { subaccountId: subaccount.id, marketId, side: 'yes' } },
          });
          expect({ quantity: text(storedPosition.quantity), costBasis: text(storedPosition.costBasis) })
            .toEqual({ quantity: text(position.quantity), costBasis: text(position.cost) });
          expect(text(storedPosition.realizedPnl)).toBe(text(day.realizedPnl));
          const [daily] = await db.$queryRaw<{ realized_pnl: string; fees: string; volume: string }[]>`
            SELECT realized_pnl::text, fees::text, volume::text FROM daily_pnl WHERE subaccount_id = ${subaccount.id}`;
          expect({ realizedPnl: text(daily!.realized_pnl), fees: text(daily!.fees), volume: text(daily!.volume) })
            .toEqual({ realizedPnl: text(day.realizedPnl), fees: text(day.fees), volume: text(day.volume) });
          const storedCash = await db.subaccount.findUniqueOrThrow({ where: { id: subaccount.id }, select: { cashBalance: true } });
          expect(text(storedCash.cashBalance)).toBe(text(cash));
        },
      ),
      { numRuns: 25 },
    );
  }, 180_000);

  it('fitsStorage is exactly what numeric(24,6) stores unchanged, and money rounded to storage scale always is', async () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const decimalText = fc
      .tuple(fc.boolean(), digits(1, 18), fc.option(digits(1, 10), { nil: undefined }))
      .map(([negative, integer, fraction]) => `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}`);
    await fc.assert(
      fc.asyncProperty(decimalText, async (value) => {
        const [row] = await db.$queryRaw<{ stored: string | null }[]>`
          SELECT CASE WHEN ${value}::numeric = round(${value}::numeric, 6) THEN (${value}::numeric)::numeric(24,6)::text END AS stored`;
        const storedUnchanged = row!.stored !== null && new Decimal(row!.stored).eq(value);
        expect(fitsStorage(value)).toBe(storedUnchanged);
        const money = roundMoney(value);
        if (money.abs().gt(STORAGE_MAX)) return; // rounds past the bound: refused at the input, never stored
        const [back] = await db.$queryRaw<{ stored: string }[]>`SELECT (${money.toFixed()}::numeric)::numeric(24,6)::text AS stored`;
        expect(formatDecimal(back!.stored)).toBe(formatDecimal(money));
      }),
      { numRuns: 200 },
    );
    // The edge itself: the largest storable value is stored; one more digit is refused.
    expect(fitsStorage(STORAGE_MAX)).toBe(true);
    expect(fitsStorage(STORAGE_MAX.add('0.000001'))).toBe(false);
    expect(fitsStorage('999999999999999999.9999999')).toBe(false);
  });
});
